"""Record what real Paddle raises for the bad inputs and faults of issue 14 (tests/hardening/).

usage (inside an oracle venv, see record_all.sh): python rec_hardening.py
Writes tests/goldens/hardening18.{json,npz} under 1.8.5 or hardening26.{json,npz} under 2.6.2: for each case
the exception's type, builtin bases and message core (`_common.err_record`), plus a few values.
"""
import os
import shutil
import tempfile

import numpy as np

import paddle
from _common import err_record, save

V18 = paddle.__version__.startswith("1.")
if V18:
    import paddle.fluid as fluid


def static_fc_program(width, log_input=False):
    """x[-1, 3] -> (log) -> fc(width) -> mean, with SGD; returns (main, startup, loss)."""
    main, startup = (fluid.Program(), fluid.Program()) if V18 else (paddle.static.Program(), paddle.static.Program())
    guard = fluid.program_guard if V18 else paddle.static.program_guard
    names = fluid.unique_name.guard() if V18 else paddle.utils.unique_name.guard()
    with guard(main, startup), names:  # the same parameter names (fc_0.w_0) in every program
        if V18:
            x = fluid.layers.data("x", [3])
            h = fluid.layers.log(x) if log_input else x
            loss = fluid.layers.mean(fluid.layers.fc(h, width))
            fluid.optimizer.SGD(0.1).minimize(loss)
        else:
            x = paddle.static.data("x", [None, 3])
            h = paddle.log(x) if log_input else x
            loss = paddle.mean(paddle.static.nn.fc(h, width))
            paddle.optimizer.SGD(0.1).minimize(loss)
    return main, startup, loss


def executor():
    return fluid.Executor(fluid.CPUPlace()) if V18 else paddle.static.Executor(paddle.CPUPlace())


def run_static(main, startup, loss, feed, flags=None, data_parallel=False):
    scope = fluid.Scope() if V18 else paddle.static.Scope()
    guard = fluid.scope_guard if V18 else paddle.static.scope_guard
    set_flags = fluid.set_flags if V18 else paddle.set_flags
    with guard(scope):
        exe = executor()
        exe.run(startup)
        prog = main
        if data_parallel:
            prog = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name)
        if flags:
            set_flags(flags)
        try:
            return exe.run(prog, feed=feed, fetch_list=[loss])
        finally:
            if flags:
                set_flags({k: False for k in flags})


def cases18(out):
    bad = {"x": np.array([[-1.0, 2.0, 3.0]], "float32")}
    out["nan_static"] = err_record(lambda: run_static(*static_fc_program(2, True), bad, {"FLAGS_check_nan_inf": True}))
    empty = {"x": np.zeros((0, 3), "float32")}
    out["empty_batch"] = err_record(lambda: run_static(*static_fc_program(2), empty))
    os.environ["CPU_NUM"] = "2"
    out["empty_batch_dp"] = err_record(lambda: run_static(*static_fc_program(2), empty, data_parallel=True))
    out["set_flags_unknown"] = err_record(lambda: fluid.set_flags({"FLAGS_no_such_flag": 1}))
    out["set_flags_type"] = err_record(lambda: fluid.set_flags({"FLAGS_paddle_num_threads": 2.5}))
    out["get_flags_unknown"] = err_record(lambda: fluid.get_flags("FLAGS_no_such_flag"))

    # a parameter saved with one shape, loaded into a program that declares another
    d = tempfile.mkdtemp()
    try:
        for combined in (False, True):
            main, startup, _ = static_fc_program(2)
            exe = executor()
            with fluid.scope_guard(fluid.Scope()):
                exe.run(startup)
                fluid.io.save_persistables(exe, d, main, filename="all" if combined else None)
            main4, startup4, _ = static_fc_program(4)
            with fluid.scope_guard(fluid.Scope()):
                exe.run(startup4)
                key = "load_wrong_shape_combined" if combined else "load_wrong_shape"
                out[key] = err_record(lambda: fluid.io.load_persistables(exe, d, main4,
                                                                         filename="all" if combined else None))
        # a truncated parameter file (separate files)
        main, startup, _ = static_fc_program(2)
        with fluid.scope_guard(fluid.Scope()):
            exe.run(startup)
            fluid.io.save_persistables(exe, d, main)
            w = [v.name for v in main.list_vars() if v.name.endswith(".w_0")][0]
            path = os.path.join(d, w)
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(data[: len(data) // 2])
            out["load_truncated"] = err_record(lambda: fluid.io.load_persistables(exe, d, main))
    finally:
        shutil.rmtree(d)
    with fluid.dygraph.guard():
        x = fluid.dygraph.to_variable(np.ones([2, 3], "float32"))
        for ax in (5, -3):
            out[f"squeeze_{ax}"] = err_record(lambda: fluid.layers.squeeze(x, [ax]))


def cases26(out):
    bad = {"x": np.array([[-1.0, 2.0, 3.0]], "float32")}
    paddle.enable_static()
    out["nan_static"] = err_record(lambda: run_static(*static_fc_program(2, True), bad, {"FLAGS_check_nan_inf": True}))
    out["empty_batch"] = err_record(lambda: run_static(*static_fc_program(2), {"x": np.zeros((0, 3), "float32")}))
    paddle.disable_static()
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    out["nan_dygraph"] = err_record(lambda: paddle.log(paddle.to_tensor([-1.0, 2.0])))
    out["nan_dygraph_div"] = err_record(lambda: paddle.to_tensor([1.0, 0.0]) / paddle.to_tensor([0.0, 0.0]))
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    out["set_flags_unknown"] = err_record(lambda: paddle.set_flags({"FLAGS_no_such_flag": 1}))
    out["set_flags_type"] = err_record(lambda: paddle.set_flags({"FLAGS_paddle_num_threads": 2.5}))
    out["set_flags_not_dict"] = err_record(lambda: paddle.set_flags(["FLAGS_check_nan_inf"]))
    out["get_flags_unknown"] = err_record(lambda: paddle.get_flags("FLAGS_no_such_flag"))
    out["get_flags_type"] = err_record(lambda: paddle.get_flags(3))

    def leaf():
        x = paddle.ones([2, 3])
        x.stop_gradient = False
        return x

    out["inplace_add_"] = err_record(lambda: leaf().add_(paddle.ones([2, 3])))
    out["inplace_scale_"] = err_record(lambda: leaf().scale_(2.0))
    out["inplace_relu_"] = err_record(lambda: paddle.nn.functional.relu_(leaf()))

    def setitem():
        x = leaf()
        x[0] = 5.0

    out["inplace_setitem"] = err_record(setitem)
    out["inplace_param"] = err_record(lambda: paddle.nn.Linear(2, 2).weight.add_(paddle.ones([2, 2])))

    def nograd():
        x = leaf()
        with paddle.no_grad():
            x.add_(paddle.ones([2, 3]))
        return x

    x = nograd()
    out["inplace_no_grad"] = {"raised": False, "stop_gradient": bool(x.stop_gradient), "value": x.numpy().tolist()}

    def twice(retain, fn):
        x = leaf()
        y = fn(x).sum()
        y.backward(retain_graph=retain)
        y.backward()
        return x.grad.numpy()

    out["backward_twice"] = err_record(lambda: twice(False, lambda x: x * x))
    out["backward_twice_add"] = err_record(lambda: twice(False, lambda x: x + 1))
    out["backward_twice_retain"] = {"raised": False, "grad": twice(True, lambda x: x * x).tolist()}
    for name, fn in {"zeros": paddle.zeros, "ones": paddle.ones, "empty": paddle.empty,
                     "full": lambda s: paddle.full(s, 1.0), "rand": paddle.rand, "randn": paddle.randn,
                     "uniform": paddle.uniform, "randint": lambda s: paddle.randint(0, 5, s),
                     "normal": lambda s: paddle.normal(shape=s), "standard_normal": paddle.standard_normal}.items():
        out[f"float_shape_{name}"] = err_record(lambda: fn([2.5, 3]))
        out[f"float_shape_tuple_{name}"] = err_record(lambda: fn((2, 3.0)))
    x = paddle.ones([2, 3])
    for ax in (5, -3, [1, 4]):
        out[f"squeeze_{ax}"] = err_record(lambda: paddle.squeeze(x, axis=ax))


def main():
    out = {"version": paddle.__version__}
    (cases18 if V18 else cases26)(out)
    save("hardening18" if V18 else "hardening26", {}, out)


if __name__ == "__main__":
    main()
