"""Driver of tests/hardening/test_torn_checkpoints.py (run in a fresh interpreter: it forks).

For each saver: save an "old" checkpoint (every parameter and optimizer value 1.0), then fork a child that sets
everything to 2.0 and saves again into the same place, and SIGKILLs itself at a chosen point of that save (before
the i-th rename, before the i-th fsync, before the journal is removed, between the two calls of a pair), or is
SIGKILLed from here after a delay. Then load the place with our loaders and print one JSON line per case:
{"saver", "point", "outcome": "old" | "new" | "error" | "mixed" | "failed", "detail"}.

Usage: python _torn_driver.py WORKDIR [SAVER ...]
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import numpy as np

K = int(os.environ.get("TORN_K", "6"))  # parameters (plus optimizer state) per checkpoint
SIZE = int(os.environ.get("TORN_SIZE", "128"))  # each parameter is SIZE x SIZE float32


# --- the checkpoints: build, fill with a value, save, load and read back the values -------------------------------
def _static():
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        h = x = fluid.layers.data("x", [SIZE], dtype="float32")
        for _ in range(K):
            h = fluid.layers.fc(h, SIZE, bias_attr=False)
        loss = fluid.layers.mean(h)
        fluid.optimizer.Adam(0.001).minimize(loss)
    return fluid, main, startup, x, h


def _persist_names(main):
    return sorted(v.name for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch"))


class Static:
    """fluid.io savers of one Executor program; `kind` picks the saver and its loader."""

    def __init__(self, kind):
        self.kind = kind

    def prepare(self, d):
        self.fluid, self.main, startup, self.x, self.out = _static()
        self.exe = self.fluid.Executor(self.fluid.CPUPlace())
        self.scope = self.fluid.Scope()
        with self.fluid.scope_guard(self.scope):
            self.exe.run(startup)
        self.d = d

    def fill(self, value):
        for n in _persist_names(self.main):
            t = self.scope.find_var(n).get_tensor()
            t.set(np.full(np.array(t).shape, value, np.array(t).dtype), self.fluid.CPUPlace())

    def save(self):
        import paddle

        fluid, exe, main, d = self.fluid, self.exe, self.main, self.d
        with fluid.scope_guard(self.scope):
            if self.kind == "save_persistables":
                fluid.io.save_persistables(exe, d, main)
            elif self.kind == "save_params":
                fluid.io.save_params(exe, d, main)
            elif self.kind == "save_vars":
                fluid.io.save_vars(exe, d, main, vars=[main.global_block().var(n) for n in _persist_names(main)])
            elif self.kind == "save_inference_model":
                fluid.io.save_inference_model(d, ["x"], [self.out], exe, main_program=main)
            elif self.kind == "paddle.static.save":
                paddle.static.save(main, os.path.join(d, "model"))

    def load(self):
        import paddle

        fluid, main, d = self.fluid, self.main, self.d
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe = fluid.Executor(fluid.CPUPlace())
            if self.kind == "save_persistables":
                fluid.io.load_persistables(exe, d, main)
            elif self.kind == "save_params":
                fluid.io.load_params(exe, d, main)
            elif self.kind == "save_vars":
                fluid.io.load_vars(exe, d, main, vars=[main.global_block().var(n) for n in _persist_names(main)])
            elif self.kind == "save_inference_model":
                prog, _, _ = fluid.io.load_inference_model(d, exe)
                return [np.array(scope.find_var(n).get_tensor()) for n in _persist_names(prog)]
            elif self.kind == "paddle.static.save":
                paddle.static.load(main, os.path.join(d, "model"), exe)
            names = [n for n in _persist_names(main)
                     if self.kind != "save_params" or isinstance(main.global_block().var(n), fluid.framework.Parameter)]
            return [np.array(scope.find_var(n).get_tensor()) for n in names]


class Dygraph:
    """Savers of a dygraph Layer: fluid.save_dygraph (the pair), paddle.jit.save, paddle.Model.save."""

    def __init__(self, kind):
        self.kind = kind

    def prepare(self, d):
        import paddle

        paddle.disable_static()
        self.net = paddle.nn.Sequential(*[paddle.nn.Linear(SIZE, SIZE, bias_attr=False) for _ in range(K)])
        self.opt = paddle.optimizer.Adam(0.001, parameters=self.net.parameters())
        self.net(paddle.ones([2, SIZE])).mean().backward()
        self.opt.step()
        self.opt.clear_grad()
        self.d = d

    def _tensors(self, net, opt):
        ts = list(net.parameters())
        if opt is not None:
            ts += [v for k, v in opt.state_dict().items() if k != "LR_Scheduler"]
        return ts

    def fill(self, value):
        for t in self._tensors(self.net, self.opt):
            t.set_value(np.full(t.shape, value, "float32"))

    def save(self):
        import paddle
        import paddle.fluid as fluid

        p = os.path.join(self.d, "model")
        if self.kind == "save_dygraph":
            fluid.save_dygraph(self.net.state_dict(), p)
            if os.environ.get("TORN_KILL_BETWEEN"):
                os.kill(os.getpid(), signal.SIGKILL)
            fluid.save_dygraph(self.opt.state_dict(), p)
        elif self.kind == "paddle.jit.save":
            paddle.jit.save(self.net, p, input_spec=[paddle.static.InputSpec([None, SIZE], "float32", "x")])
        elif self.kind == "Model.save":
            m = paddle.Model(self.net)
            m.prepare(self.opt)
            m.save(p)

    def load(self):
        import paddle
        import paddle.fluid as fluid

        p = os.path.join(self.d, "model")
        if self.kind == "save_dygraph":
            params, opt = fluid.load_dygraph(p)
            return [v.numpy() for v in params.values()] + [v.numpy() for k, v in opt.items() if k != "LR_Scheduler"]
        if self.kind == "paddle.jit.save":
            layer = paddle.jit.load(p)
            prog = layer.program()
            return [np.array(layer._scope.find_var(v.name).get_tensor()) for v in prog.list_vars()
                    if v.persistable and v.name not in ("feed", "fetch")]
        keep = [t.numpy() for t in self._tensors(self.net, self.opt)]
        self.fill(0.0)  # into the same network and optimizer (the optimizer state is keyed by parameter names)
        m = paddle.Model(self.net)
        m.prepare(self.opt)
        m.load(p)
        got = [t.numpy() for t in self._tensors(self.net, self.opt)]
        for t, v in zip(self._tensors(self.net, self.opt), keep):
            t.set_value(v)
        return got


SAVERS = {k: Static(k) for k in ("save_persistables", "save_params", "save_vars", "save_inference_model",
                                  "paddle.static.save")}
SAVERS.update({k: Dygraph(k) for k in ("save_dygraph", "paddle.jit.save", "Model.save")})


# --- kill points ----------------------------------------------------------------------------------------------
def _hook(point: str) -> None:
    """In the child: SIGKILL this process at `point` of the save ("replace:i" before the i-th os.replace,
    "fsync:i" before the i-th os.fsync, "journal_unlink" before the journal is removed)."""
    from paddle_compat.engine.static import checkpoint_files
    from paddle_compat.engine.static import serialization

    kind, _, arg = point.partition(":")
    n = [0]

    def counting(real):
        def f(*a, **k):
            n[0] += 1
            if n[0] == int(arg):
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*a, **k)
        return f

    if kind == "replace":
        os.replace = counting(os.replace)
    elif kind == "fsync":
        os.fsync = counting(os.fsync)
    elif kind == "journal_unlink":
        real = os.unlink

        def unlink(p, *a, **k):
            if os.path.basename(str(p)) == checkpoint_files.JOURNAL:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(p, *a, **k)
        os.unlink = unlink
    elif kind == "between":
        os.environ["TORN_KILL_BETWEEN"] = "1"
    assert serialization  # the hooks patch `os`, which both modules use


def _classify(values) -> str:
    vals = {float(np.unique(v)[0]) if np.unique(v).size == 1 else -1.0 for v in values}
    return {frozenset({1.0}): "old", frozenset({2.0}): "new"}.get(frozenset(vals), f"mixed {sorted(vals)}")


def run_case(name: str, point: str, root: str) -> dict:
    saver = SAVERS[name]
    d = os.path.join(root, f"{name}-{point}".replace(":", "_").replace("/", "_"))
    os.makedirs(d)
    saver.prepare(d)
    saver.fill(1.0)
    saver.save()
    assert _classify(saver.load()) == "old"
    saver.fill(2.0)
    if point in ("replace:mid", "replace:last"):  # os.replace 1 writes the journal, 2..n+1 rename the n files
        n = len([f for f in os.listdir(d) if not f.startswith(".") and f != "__paddle_compat_journal__"])
        point = f"replace:{max(3, n // 2 + 1)}" if point == "replace:mid" else f"replace:{n + 1}"
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:  # the child: save, killed at `point`
        try:
            if point.startswith("after_s:"):
                while True:  # saves until killed from outside
                    saver.save()
            _hook(point)
            saver.save()
        finally:
            os._exit(0)
    if point.startswith("after_s:"):
        time.sleep(float(point.split(":")[1]))
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    try:
        outcome, detail = _classify(saver.load()), ""
    except Exception as e:  # noqa: BLE001 - reported to the test
        outcome, detail = "error", f"{type(e).__name__}: {e}"
    if outcome.startswith("mixed"):
        outcome, detail = "mixed", outcome
    return {"saver": name, "point": point, "killed": killed, "outcome": outcome, "detail": detail}


def points(name: str) -> list[str]:
    """Kill points; "replace:mid" / "replace:last" are resolved by run_case from the number of files written."""
    if name == "save_dygraph":
        # os.replace 1-2: the .pdparams call's journal and rename; 3-4: the .pdopt call's
        return ["between", "replace:1", "replace:2", "replace:3", "replace:4", "journal_unlink", "fsync:1",
                "after_s:0.3"]
    timed = ["after_s:0.05", "after_s:0.3", "after_s:0.8"] if name == "save_persistables" else ["after_s:0.3"]
    return ["fsync:3", "replace:2", "replace:3", "replace:mid", "replace:last", "journal_unlink"] + timed


def main() -> None:
    import torch

    torch.set_num_threads(1)
    root = sys.argv[1]
    for name in sys.argv[2:] or list(SAVERS):
        for point in points(name):
            print(json.dumps(run_case(name, point, root)), flush=True)


if __name__ == "__main__":
    main()
