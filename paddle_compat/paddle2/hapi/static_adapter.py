"""paddle.Model in static mode (Paddle's StaticGraphAdapter): the network is recorded three times, into a train,
an eval and a test Program (clones of the main program that holds the network's parameters), and batches run
through an Executor on the global Scope.

- train: inputs + labels -> outputs -> loss(es) and every metric's `compute`, then `optimizer.minimize` of the
  summed losses;
- eval: the same without the optimizer, cloned for test (dropout off, batch norm on its running statistics);
- test: inputs -> outputs only, cloned for test.

Metric `compute` results are fetched and handed to `update` as numpy arrays, as Paddle does. Parameters are
initialised once, by the startup program, at the first `prepare`; later `prepare` calls only initialise what is
new (an optimizer's accumulators), so loaded or trained values survive.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import InvalidArgumentError


def _to_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _feed_array(x: Any) -> np.ndarray:
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


class StaticAdapter:
    def __init__(self, model: Any) -> None:
        from paddle_compat.engine.framework.program import default_main_program, default_startup_program

        self.model = model
        self._main = default_main_program()
        self._startup = default_startup_program()
        self._progs: dict[str, dict] = {}
        self._executor: Any = None
        for kind, specs in (("inputs", model._inputs), ("labels", model._labels)):
            for i, s in enumerate(specs):
                if s is None or getattr(s, "name", None) is None:
                    raise InvalidArgumentError(
                        f"paddle.Model in static mode: {kind}[{i}] must be a paddle.static.InputSpec with a name "
                        f"(it names the fed variable), got {s!r}")

    # --- programs ------------------------------------------------------------------------------------------------
    def prepare(self) -> None:
        from paddle_compat.engine.core.place import get_device_place
        from paddle_compat.engine.static.executor import Executor

        self._progs = {}
        for mode in ("train", "eval", "test"):
            if mode == "train" and self.model._optimizer is None:
                continue
            self._progs[mode] = self._make_program(mode)
        if self._executor is None:
            self._executor = Executor(get_device_place())
        self._initialize()

    def _make_program(self, mode: str) -> dict:
        from paddle_compat.engine.framework.program import program_guard
        from paddle_compat.engine.framework.lookup import P
        from paddle_compat.engine.static.param import data

        m = self.model
        prog = self._main.clone()
        with program_guard(prog, self._startup):
            inputs = [data(s.name, list(s.shape), s.dtype) for s in m._inputs]
            labels = [data(s.name, list(s.shape), s.dtype) for s in m._labels] if mode != "test" else []
            outputs = _to_list(m.network(*inputs))
            losses, metrics = [], []
            if mode != "test":
                if m._loss is not None and labels:
                    losses = _to_list(m._loss(*(outputs + labels)))
                metrics = [_to_list(metric.compute(*(outputs + labels))) for metric in m._metrics]
            if mode == "train":
                if not losses:
                    raise InvalidArgumentError("paddle.Model.prepare: training in static mode needs a loss and "
                                               "labels (pass loss= to prepare and labels= to Model)")
                total = losses[0] if len(losses) == 1 else P("add_n")(losses)
                m._optimizer.minimize(total)
        if mode != "train":
            prog = prog.clone(for_test=True)
        return {"program": prog, "inputs": [v.name for v in inputs], "labels": [v.name for v in labels],
                "outputs": [v.name for v in outputs], "losses": [v.name for v in losses],
                "metrics": [[v.name for v in ms] for ms in metrics]}

    def _initialize(self) -> None:
        """Run the startup program for the persistables the global scope does not hold yet."""
        from paddle_compat.engine.framework.scope import Scope, global_scope

        scope, fresh = global_scope(), Scope()
        self._executor.run(self._startup, scope=fresh)
        for name in fresh.local_var_names():
            have = scope.find_var(name)
            if have is None or not have.is_initialized():
                scope.var(name).set_tensor(fresh.find_var(name).get_tensor())

    # --- one batch -----------------------------------------------------------------------------------------------
    def run(self, mode: str, inputs: Any, labels: Any = None) -> Any:
        p = self._progs.get(mode)
        if p is None:
            api = {"train": "train_batch", "eval": "eval_batch"}.get(mode, "predict_batch")
            need = "prepare(optimizer, loss)" if mode == "train" else "prepare()"
            raise RuntimeError(f"paddle.Model.{api}: call {need} first")
        inputs, labels = _to_list(inputs), _to_list(labels)
        if len(inputs) != len(p["inputs"]) or (mode != "test" and labels and len(labels) != len(p["labels"])):
            raise InvalidArgumentError(
                f"paddle.Model ({mode}): got {len(inputs)} inputs and {len(labels)} labels, expected "
                f"{len(p['inputs'])} inputs {p['inputs']} and {len(p['labels'])} labels {p['labels']}")
        feed = {n: _feed_array(x) for n, x in zip(p["inputs"], inputs)}
        feed.update({n: _feed_array(x) for n, x in zip(p["labels"], labels)})
        if mode == "test":
            return [np.asarray(r) for r in self._executor.run(p["program"], feed=feed, fetch_list=p["outputs"])]
        flat = [n for ms in p["metrics"] for n in ms]
        rets = self._executor.run(p["program"], feed=feed, fetch_list=p["losses"] + flat)
        losses, rest = [np.asarray(r) for r in rets[:len(p["losses"])]], rets[len(p["losses"]):]
        metrics = []
        for metric, ms in zip(self.model._metrics, p["metrics"]):
            metrics.append(metric.update(*[np.asarray(r) for r in rest[:len(ms)]]))
            rest = rest[len(ms):]
        return (losses, metrics) if metrics else losses

    # --- persistence ---------------------------------------------------------------------------------------------
    def _values(self, names: list[str]) -> dict:
        from paddle_compat.engine.framework.scope import global_scope

        scope, out = global_scope(), {}
        for n in names:
            v = scope.find_var(n)
            if v is not None and v.is_initialized():
                out[n] = np.array(v.get_tensor())
        return out

    def _optimizer_vars(self) -> list[str]:
        from paddle_compat.engine.framework.program import Parameter

        p = self._progs.get("train")
        if p is None:
            return []
        feeds = set(p["inputs"]) | set(p["labels"])
        return [v.name for v in p["program"].list_vars()
                if v.persistable and not isinstance(v, Parameter) and v.name not in feeds]

    def save(self, path: str, training: bool) -> None:
        from paddle_compat.engine.static.checkpoint_files import write_files
        from paddle_compat.engine.static.serialization import dumps

        if not training:
            self._save_inference(path)
            return
        state = self.model.network.state_dict()
        params = self._values([v.name for v in state.values()])
        files = [(path + ".pdparams", dumps({k: params[v.name] for k, v in state.items() if v.name in params}))]
        opt = self._values(self._optimizer_vars())
        if opt:
            files.append((path + ".pdopt", dumps(opt)))
        write_files(files)  # one checkpoint: never a new .pdparams beside an old .pdopt

    def _save_inference(self, path: str) -> None:
        from paddle_compat.engine.static.io import save_inference_model

        p = self._progs.get("test")
        if p is None:
            raise RuntimeError("paddle.Model.save(training=False): call prepare() first")
        block = p["program"].global_block()
        save_inference_model(path, [block.var(n) for n in p["inputs"]], [block.var(n) for n in p["outputs"]],
                             self._executor, program=p["program"])

    def load(self, path: str, skip_mismatch: bool, reset_optimizer: bool) -> None:
        from paddle_compat.engine.framework.scope import global_scope
        from paddle_compat.engine.static.checkpoint_files import check_files
        from paddle_compat.engine.static.serialization import load

        use_opt = not reset_optimizer and os.path.exists(path + ".pdopt")
        check_files([path + ".pdparams"] + ([path + ".pdopt"] if use_opt else []), "paddle.Model.load")
        params = load(path + ".pdparams")
        state = self.model.network.state_dict()
        if skip_mismatch:
            params = {k: v for k, v in params.items()
                      if k in state and list(np.shape(v)) == list(state[k].shape)}
        self.model.network.set_state_dict(params)
        if reset_optimizer or not os.path.exists(path + ".pdopt"):
            return
        scope, wanted = global_scope(), set(self._optimizer_vars())
        for name, value in load(path + ".pdopt").items():
            if name in wanted:
                scope.var(name).get_tensor().set(np.asarray(value), self._executor.place)
