"""Checkpoints written by REAL Paddle 1.8.5 load here, and training resumed from them continues as 1.8.5 does
(issue 24 item 1). Fixtures: tests/goldens/ckpt18/ (files 1.8.5 wrote after N steps), expected values:
tests/goldens/ckpt18_resume (the losses and state of N + M uninterrupted steps); tools/oracle/rec_ckpt18.py
recorded both.

Each loader of the 1.x surface is a row: dygraph `load_dygraph` + `set_dict` (Adam moments, beta-pow
accumulators, the ExponentialDecay step as LR_Scheduler / global_step); static `load_persistables` (one file
per variable, and combined with filename=), `load_vars`, `fluid.load`, `load_program_state` +
`set_program_state`. After loading, M more steps must give 1.8.5's losses and final state within 1e-5
relative.
"""

from __future__ import annotations

import io
import os
import pickle

import numpy as np
import pytest

from tests.conftest import GOLDENS, load_golden
from tests.static_io.ckpt18_cases import dygraph_net, dygraph_step, static_program

FIX = os.path.join(GOLDENS, "ckpt18")
META, GOLD = load_golden("ckpt18_resume")
N, M = META["N"], META["M"]
RTOL, ATOL = 1e-5, 1e-7


def _close(got, want, what):
    np.testing.assert_allclose(np.asarray(got, dtype="float64"), np.asarray(want, dtype="float64"), rtol=RTOL,
                               atol=ATOL, err_msg=what)


# --- dygraph: save_dygraph / load_dygraph + set_dict ---------------------------------------------------------
def _dygraph_resume(fluid, params, opt_state):
    net = dygraph_net(fluid)
    net.set_dict(params)
    lr = fluid.dygraph.ExponentialDecay(0.05, decay_steps=2, decay_rate=0.5, staircase=True)
    opt = fluid.optimizer.AdamOptimizer(learning_rate=lr, parameter_list=net.parameters())
    opt.set_dict(opt_state)  # before the first step: the accumulators take their values when they are made
    losses = [dygraph_step(fluid, net, opt, GOLD["xs"][i], GOLD["ys"][i]) for i in range(N, N + M)]
    return net, opt, losses


def test_load_dygraph_reads_what_1_8_5_wrote():
    from paddle import fluid

    with fluid.dygraph.guard(fluid.CPUPlace()):
        params, opt = fluid.load_dygraph(os.path.join(FIX, "dg", "model"))
        assert sorted(params) == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
        assert params["fc1.weight"].name == "linear_0.w_0" and list(params["fc1.weight"].shape) == [4, 8]
        moments = {f"linear_{i}.{p}_0_{acc}_0" for i in (0, 1) for p in "wb"
                   for acc in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")}
        assert set(opt) == moments | {"LR_Scheduler", "global_step"}
        assert opt["LR_Scheduler"] == {"step_num": N}
        assert opt["global_step"].numpy().tolist() == [N] and str(opt["global_step"].numpy().dtype) == "int32"


def test_dygraph_training_resumes_as_in_1_8_5():
    from paddle import fluid

    with fluid.dygraph.guard(fluid.CPUPlace()):
        params, opt_state = fluid.load_dygraph(os.path.join(FIX, "dg", "model"))
        net, opt, losses = _dygraph_resume(fluid, params, opt_state)
        _close(losses, GOLD["dg_losses"][N:], "losses of steps N..N+M")
        for k, v in net.state_dict().items():
            _close(v.numpy(), GOLD["dg_final__" + k], k)
        state = opt.state_dict()
        assert state["LR_Scheduler"] == META["dg_final_lr_scheduler"] == {"step_num": N + M}
        for k, v in state.items():
            if k != "LR_Scheduler":
                _close(v.numpy(), GOLD["dg_final_opt__" + k], k)


def test_dygraph_momentum_with_an_epoch_decay_resumes_as_in_1_8_5():
    """.pdopt of MomentumOptimizer under StepDecay: velocities, LR_Scheduler {'epoch_num', 'learning_rate'} (a
    numpy float32 scalar in the pickle) and no global_step."""
    from paddle import fluid

    with fluid.dygraph.guard(fluid.CPUPlace()):
        params, opt_state = fluid.load_dygraph(os.path.join(FIX, "dg_mom", "model"))
        assert "global_step" not in opt_state and opt_state["LR_Scheduler"]["epoch_num"] == N
        net = dygraph_net(fluid)
        net.set_dict(params)
        lr = fluid.dygraph.StepDecay(0.05, step_size=2, decay_rate=0.5)
        opt = fluid.optimizer.MomentumOptimizer(learning_rate=lr, momentum=0.9, parameter_list=net.parameters())
        opt.set_dict(opt_state)
        losses = []
        for i in range(N, N + M):
            losses.append(dygraph_step(fluid, net, opt, GOLD["xs"][i], GOLD["ys"][i]))
            lr.epoch()
        _close(losses, GOLD["mom_losses"][N:], "losses of steps N..N+M")
        for k, v in net.state_dict().items():
            _close(v.numpy(), GOLD["mom_final__" + k], k)
        state = opt.state_dict()
        want = META["mom_final_lr_scheduler"]
        assert state["LR_Scheduler"]["epoch_num"] == want["epoch_num"]
        _close(float(state["LR_Scheduler"]["learning_rate"]), want["learning_rate"], "learning_rate")
        for k, v in state.items():
            if k != "LR_Scheduler":
                _close(v.numpy(), GOLD["mom_final_opt__" + k], k)


def test_our_dygraph_checkpoint_resumes_the_same(tmp_path):
    """save_dygraph here of the state loaded from 1.8.5 writes 1.8.5's keys (global_step included), and resuming
    from our files gives the same numbers."""
    from paddle import fluid

    with fluid.dygraph.guard(fluid.CPUPlace()):
        params, opt_state = fluid.load_dygraph(os.path.join(FIX, "dg", "model"))
        net, opt, _ = _dygraph_resume(fluid, params, opt_state)
        fluid.save_dygraph(net.state_dict(), str(tmp_path / "m"))
        fluid.save_dygraph(opt.state_dict(), str(tmp_path / "m"))
        p2, o2 = fluid.load_dygraph(str(tmp_path / "m"))
        assert set(o2) == set(opt_state) and o2["LR_Scheduler"] == {"step_num": N + M}
        assert o2["global_step"].numpy().tolist() == [N + M]
        for k, v in opt.state_dict().items():
            if k != "LR_Scheduler":
                np.testing.assert_array_equal(o2[k].numpy(), v.numpy(), err_msg=k)


# --- static: fluid.io savers of 1.8.5 -> our loaders -> Executor training -----------------------------------
def _persistables(main):
    return [v for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch")]


ST = os.path.join(FIX, "st")
LOADERS = {
    "load_persistables": lambda fluid, exe, main: fluid.io.load_persistables(exe, os.path.join(ST, "persist"), main),
    "load_persistables_filename": lambda fluid, exe, main: fluid.io.load_persistables(
        exe, os.path.join(ST, "persist_comb"), main, filename="all"),
    "load_vars": lambda fluid, exe, main: fluid.io.load_vars(exe, os.path.join(ST, "persist"), main,
                                                             vars=_persistables(main)),
    "load_vars_filename": lambda fluid, exe, main: fluid.io.load_vars(
        exe, os.path.join(ST, "persist_comb"), main, vars=_persistables(main), filename="all"),
    "fluid.load": lambda fluid, exe, main: fluid.load(main, os.path.join(ST, "fsave", "model"), exe),
    "load_program_state": lambda fluid, exe, main: fluid.set_program_state(
        main, fluid.load_program_state(os.path.join(ST, "fsave", "model"))),
    "load_program_state_dir": lambda fluid, exe, main: fluid.set_program_state(
        main, fluid.load_program_state(os.path.join(ST, "persist"))),
    "load_program_state_file": lambda fluid, exe, main: fluid.set_program_state(
        main, fluid.load_program_state(os.path.join(ST, "persist_comb", "all"), var_list=_persistables(main))),
}


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_static_training_resumes_as_in_1_8_5(loader):
    from paddle import fluid

    main, startup, loss, _ = static_program(fluid)
    assert sorted(v.name for v in _persistables(main)) == META["st_persistables"]
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        LOADERS[loader](fluid, exe, main)
        scope = fluid.global_scope()
        for name in META["st_persistables"]:
            np.testing.assert_array_equal(np.array(scope.find_var(name).get_tensor()), GOLD["st_saved__" + name],
                                          err_msg=name)
        losses = []
        for i in range(N, N + M):
            (lv,) = exe.run(main, feed={"x": GOLD["xs"][i], "y": GOLD["ys"][i]}, fetch_list=[loss])
            losses.append(float(np.array(lv).reshape(-1)[0]))
        _close(losses, GOLD["st_losses"][N:], f"{loader}: losses of steps N..N+M")
        for name in META["st_persistables"]:
            _close(np.array(scope.find_var(name).get_tensor()), GOLD["st_final__" + name], f"{loader}: {name}")


def test_load_params_reads_the_parameters_1_8_5_saved():
    from paddle import fluid

    main, startup, _, _ = static_program(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        fluid.io.load_params(exe, os.path.join(ST, "params"), main)
        for name in ("fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"):
            np.testing.assert_array_equal(np.array(fluid.global_scope().find_var(name).get_tensor()),
                                          GOLD["st_saved__" + name], err_msg=name)


@pytest.mark.parametrize("form", ["infer", "infer_comb"])
def test_load_inference_model_predicts_as_1_8_5(form):
    from paddle import fluid

    exe = fluid.Executor(fluid.CPUPlace())
    kw = {"model_filename": "model", "params_filename": "params"} if form == "infer_comb" else {}
    with fluid.scope_guard(fluid.Scope()):
        prog, feeds, fetches = fluid.io.load_inference_model(os.path.join(ST, form), exe, **kw)
        assert feeds == ["x"]
        (pred,) = exe.run(prog, feed={"x": GOLD["st_probe"]}, fetch_list=fetches)
    _close(pred, GOLD["st_saved_pred"], form)


# --- the unpickler: numpy's protocol-2 byte strings, and nothing that runs code ---------------------------------
def test_protocol_2_pickles_of_arrays_load(tmp_path):
    """Python pickles bytes in protocol 2 as _codecs.encode(str, 'latin1'): numpy arrays and bytes load."""
    import paddle

    arr = np.arange(6, dtype="float32").reshape(2, 3)
    p = tmp_path / "p2.pdparams"
    p.write_bytes(pickle.dumps({"w": arr, "raw": b"\x00\xff", "n": np.float32(2.5)}, protocol=2))
    assert b"_codecs" in p.read_bytes()
    got = paddle.load(str(p), return_numpy=True)
    np.testing.assert_array_equal(got["w"], arr)
    assert got["raw"] == b"\x00\xff" and got["n"] == np.float32(2.5)


def _call_pickle(module: str, name: str, *args: str) -> bytes:
    """A protocol-2 pickle of `module.name(*args)` (string arguments), written by hand."""
    out = io.BytesIO()
    out.write(b"\x80\x02c" + f"{module}\n{name}\n".encode())
    for a in args:
        b = a.encode("utf-8")
        out.write(b"X" + len(b).to_bytes(4, "little") + b)
    out.write({0: b")", 1: b"\x85", 2: b"\x86", 3: b"\x87"}[len(args)] + b"R.")
    return out.getvalue()


HOSTILE = {
    "other codec": ("_codecs", "encode", "x", "rot13"),
    "zlib codec": ("_codecs", "encode", "x", "zlib_codec"),
    "ignore errors": ("_codecs", "encode", "x", "latin1", "ignore"),
    "codec lookup": ("_codecs", "lookup", "latin1"),
    "decode": ("_codecs", "decode", "x", "latin1"),
    "os.system": ("os", "system", "echo pwned"),
    "posix.system": ("posix", "system", "echo pwned"),
    "builtins.eval": ("builtins", "eval", "1+1"),
    "getattr": ("builtins", "getattr", "x"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_pickles_that_call_anything_else_are_refused(tmp_path, case):
    import paddle
    from paddle import fluid

    from paddle_compat.engine.static.serialization import CorruptFileError

    module, name, *args = HOSTILE[case]
    data = _call_pickle(module, name, *args)
    assert pickle.loads(_call_pickle("_codecs", "encode", "x", "latin1")) == b"x"  # the form itself is valid
    p = tmp_path / "m.pdparams"
    p.write_bytes(data)
    with pytest.raises(CorruptFileError, match=r"_codecs\.encode\(str, 'latin1'\)|not data"):
        paddle.load(str(p))
    with fluid.dygraph.guard(fluid.CPUPlace()), pytest.raises(CorruptFileError):
        fluid.load_dygraph(str(tmp_path / "m"))


def test_write_files_for_real_paddle(tmp_path):
    """The files we write after resuming are what real 1.8.5 loads: arrays pickled under numpy.core (numpy 1.x
    has no numpy._core). tools/oracle/rec_ckpt18_check.py loads them with 1.8.5 (run this test with
    CKPT18_OUT=DIR to keep them)."""
    from paddle import fluid

    out = os.environ.get("CKPT18_OUT") or str(tmp_path)
    with fluid.dygraph.guard(fluid.CPUPlace()):
        params, opt_state = fluid.load_dygraph(os.path.join(FIX, "dg", "model"))
        net, opt, _ = _dygraph_resume(fluid, params, opt_state)
        fluid.save_dygraph(net.state_dict(), os.path.join(out, "dg", "model"))
        fluid.save_dygraph(opt.state_dict(), os.path.join(out, "dg", "model"))
    main, startup, loss, _ = static_program(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        LOADERS["load_persistables"](fluid, exe, main)
        for i in range(N, N + M):
            exe.run(main, feed={"x": GOLD["xs"][i], "y": GOLD["ys"][i]}, fetch_list=[loss])
        fluid.io.save_persistables(exe, os.path.join(out, "persist"), main)
        fluid.io.save_persistables(exe, os.path.join(out, "comb"), main, filename="all")
        fluid.save(main, os.path.join(out, "fsave", "model"))
    for f in ("dg/model.pdparams", "dg/model.pdopt", "fsave/model.pdparams", "fsave/model.pdopt"):
        data = open(os.path.join(out, f), "rb").read()
        assert b"numpy.core.multiarray" in data and b"numpy._core" not in data, f
