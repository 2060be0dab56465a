"""Checkpoints written by real Paddle 1.8.5, and what training resumed from them gives (issue 24 item 1).

Writes small checkpoint files under tests/goldens/ckpt18/ (the fixtures tests/static_io/test_ckpt18_resume.py
loads with our layer) and tests/goldens/ckpt18_resume.npz/.json: the inputs, the initial parameters, the
losses of N + M steps trained without interruption, the parameters and optimizer state after them, and the
inference model's predictions.

- dygraph: a Layer of two dygraph.Linear trained with AdamOptimizer under dygraph.ExponentialDecay
  (staircase, so the rate changes between the saved step and the end); after N steps
  fluid.save_dygraph(model.state_dict()) and fluid.save_dygraph(opt.state_dict()) write dg/model.pdparams
  and dg/model.pdopt (Adam moments, beta-pow accumulators, LR_Scheduler and global_step).
- static: two fluid.layers.fc trained by Executor with AdamOptimizer under fluid.layers.exponential_decay
  (@LR_DECAY_COUNTER@); after N steps: save_persistables (one file per variable, st/persist/), the same
  combined (st/persist_comb/all), save_params (st/params/), fluid.save (st/fsave/model.pdparams / .pdopt /
  .pdmodel) and save_inference_model (st/infer/ and st/infer_comb/ with params_filename).

Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python -s <this file>
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "static_io"))
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.fluid as fluid  # noqa: E402
from _common import GOLDEN_DIR, save  # noqa: E402
from ckpt18_cases import dygraph_net, dygraph_step, static_program  # noqa: E402

N, M, B = 3, 4, 16
OUT = os.path.join(GOLDEN_DIR, "ckpt18")


def data():
    rng = np.random.RandomState(18)
    xs = rng.standard_normal((N + M, B, 4)).astype("float32")
    ys = (xs.sum(-1, keepdims=True) * 0.5 + 0.1).astype("float32")
    init = {"w0": (rng.standard_normal((4, 8)) * 0.5).astype("float32"),
            "b0": (rng.standard_normal(8) * 0.1).astype("float32"),
            "w1": (rng.standard_normal((8, 1)) * 0.5).astype("float32"),
            "b1": (rng.standard_normal(1) * 0.1).astype("float32")}
    return xs, ys, init


def _dygraph_run(arrays, meta, tag, folder, make_opt, after_step=None):
    """Train the dygraph net N + M steps from the fixed start, save_dygraph after N (tests/goldens/ckpt18/<folder>),
    and record the losses and the final parameters / optimizer state under `<tag>_`."""
    xs, ys, init = data()
    d = os.path.join(OUT, folder)
    os.makedirs(d, exist_ok=True)
    losses = []
    with fluid.dygraph.guard(fluid.CPUPlace()):
        net = dygraph_net(fluid)
        net.set_dict({"fc1.weight": init["w0"], "fc1.bias": init["b0"], "fc2.weight": init["w1"],
                      "fc2.bias": init["b1"]})
        lr, opt = make_opt(net)
        for i in range(N + M):
            if i == N:
                fluid.save_dygraph(net.state_dict(), os.path.join(d, "model"))
                fluid.save_dygraph(opt.state_dict(), os.path.join(d, "model"))
            losses.append(dygraph_step(fluid, net, opt, xs[i], ys[i]))
            if after_step is not None:
                after_step(lr)
        for k, v in net.state_dict().items():
            arrays[f"{tag}_final__" + k] = v.numpy()
        for k, v in opt.state_dict().items():
            if k == "LR_Scheduler":
                meta[f"{tag}_final_lr_scheduler"] = {kk: (float(vv) if isinstance(vv, np.floating) else vv)
                                                     for kk, vv in v.items()}
            else:
                arrays[f"{tag}_final_opt__" + k] = v.numpy()
    arrays[f"{tag}_losses"] = np.array(losses, "float32")


def dygraph(arrays, meta):
    def adam(net):
        lr = fluid.dygraph.ExponentialDecay(0.05, decay_steps=2, decay_rate=0.5, staircase=True)
        return lr, fluid.optimizer.AdamOptimizer(learning_rate=lr, parameter_list=net.parameters())

    _dygraph_run(arrays, meta, "dg", "dg", adam)
    meta["dg_program"] = ("Linear(4,8,relu)->Linear(8,1); mean(square(out-y)); AdamOptimizer(ExponentialDecay("
                          "0.05, decay_steps=2, decay_rate=0.5, staircase=True)); save_dygraph after N steps")


def dygraph_momentum(arrays, meta):
    """Momentum under the epoch decay StepDecay (lr.epoch() after every step): .pdopt holds velocities and
    LR_Scheduler {'epoch_num', 'learning_rate'} (no global_step)."""
    def momentum(net):
        lr = fluid.dygraph.StepDecay(0.05, step_size=2, decay_rate=0.5)
        return lr, fluid.optimizer.MomentumOptimizer(learning_rate=lr, momentum=0.9, parameter_list=net.parameters())

    _dygraph_run(arrays, meta, "mom", "dg_mom", momentum, after_step=lambda lr: lr.epoch())
    meta["mom_program"] = ("the dygraph net; MomentumOptimizer(StepDecay(0.05, step_size=2, decay_rate=0.5), "
                           "momentum=0.9), lr.epoch() after every step; save_dygraph after N steps")


def static(arrays, meta):
    xs, ys, init = data()
    main, startup, loss, pred = static_program(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.global_scope()
    exe.run(startup)
    for name, key in (("fc_0.w_0", "w0"), ("fc_0.b_0", "b0"), ("fc_1.w_0", "w1"), ("fc_1.b_0", "b1")):
        scope.find_var(name).get_tensor().set(init[key], fluid.CPUPlace())
    persist = sorted(v.name for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch"))
    meta["st_persistables"] = persist
    losses = []
    st = os.path.join(OUT, "st")
    probe = xs[0][:5]
    for i in range(N + M):
        if i == N:
            fluid.io.save_persistables(exe, os.path.join(st, "persist"), main)
            fluid.io.save_persistables(exe, os.path.join(st, "persist_comb"), main, filename="all")
            fluid.io.save_params(exe, os.path.join(st, "params"), main)
            fluid.save(main, os.path.join(st, "fsave", "model"))
            fluid.io.save_inference_model(os.path.join(st, "infer"), ["x"], [pred], exe, main_program=main)
            fluid.io.save_inference_model(os.path.join(st, "infer_comb"), ["x"], [pred], exe, main_program=main,
                                          model_filename="model", params_filename="params")
            for n in persist:
                arrays["st_saved__" + n] = np.array(scope.find_var(n).get_tensor())
            test = main.clone(for_test=True)
            arrays["st_saved_pred"] = exe.run(test, feed={"x": probe, "y": ys[0][:5]}, fetch_list=[pred])[0]
        (lv,) = exe.run(main, feed={"x": xs[i], "y": ys[i]}, fetch_list=[loss])
        losses.append(float(np.array(lv).reshape(-1)[0]))
    for n in persist:
        arrays["st_final__" + n] = np.array(scope.find_var(n).get_tensor())
    arrays["st_losses"] = np.array(losses, "float32")
    arrays["st_probe"] = probe
    meta["st_program"] = ("data x[4], y[1]; fc(x,8,relu); fc(h,1); mean(square_error_cost); AdamOptimizer("
                          "exponential_decay(0.05, 2, 0.5, staircase=True)); the savers run after N steps")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    xs, ys, init = data()
    arrays = {"xs": xs, "ys": ys}
    arrays.update({"init__" + k: v for k, v in init.items()})
    meta = {"paddle_version": paddle.__version__, "N": N, "M": M, "program": "see dg_program / st_program"}
    dygraph(arrays, meta)
    dygraph_momentum(arrays, meta)
    static(arrays, meta)
    files = {}
    for root, _, names in os.walk(OUT):
        for n in names:
            p = os.path.join(root, n)
            files[os.path.relpath(p, OUT)] = os.path.getsize(p)
    meta["fixture_files"] = dict(sorted(files.items()))
    save("ckpt18_resume", arrays, meta)


if __name__ == "__main__":
    main()
