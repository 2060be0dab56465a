"""Record what real Paddle's public helpers outside `__all__` return (the names of
reference/surface/paddle_<version>_public.json that paddle_compat/fluid/internals.py and
paddle_compat/paddle2/utils/internals.py implement), with their inputs, for tests/test_surface_public.py.

usage (see record_all.sh): python rec_surface_helpers.py   in the 1.8.5 venv -> tests/goldens/surface_helpers18.json
                                                            in the 2.6.2 venv -> tests/goldens/surface_helpers26.json
Each row: {"api": path, "args": [...], "out": value} or {"api": ..., "args": ..., "raises": ExceptionName}.
"""
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import save_json  # noqa: E402

warnings.filterwarnings("ignore")


def call(rows, api, fn, *args):
    row = {"api": api, "args": list(args)}
    try:
        row["out"] = fn(*args)
    except Exception as e:  # noqa: BLE001 - the exception type is the golden
        row["raises"] = type(e).__name__
    rows.append(row)


def rec18():
    import paddle.fluid as fluid
    from paddle.fluid import executor, framework, io, reader
    from paddle.fluid.layers import loss

    rows = []
    for a, b in [([2, 3], [2, 3]), ([-1, 3], [5, 3]), ([2, 3], [2, 4]), ([2, 3], [2, 3, 1]), ([None, 4], [7, 4]),
                 ([], []), ([3, -1], [3, -1])]:
        call(rows, "paddle.fluid.executor.dimension_is_compatible_with", executor.dimension_is_compatible_with, a, b)
    for a, b in [("float32", "float32"), ("float32", "float64"), ("int64", "int64"), ("int32", "int64"),
                 ("bool", "bool"), ("float16", "float32")]:
        call(rows, "paddle.fluid.executor.dtype_is_compatible_with", executor.dtype_is_compatible_with, a, b)
    call(rows, "paddle.fluid.reader.keep_data_loader_order", reader.keep_data_loader_order)

    # as_numpy: a LoDTensor without LoD -> its array; with LoD -> RuntimeError
    t = fluid.LoDTensor()
    t.set(np.arange(6, dtype="float32").reshape(3, 2), fluid.CPUPlace())
    rows.append({"api": "paddle.fluid.executor.as_numpy", "args": ["lodtensor_3x2"],
                 "out": executor.as_numpy(t).tolist()})
    t.set_recursive_sequence_lengths([[1, 2]])
    call(rows, "paddle.fluid.executor.as_numpy", lambda _: executor.as_numpy(t), "lodtensor_3x2_lod")

    # static: cross_entropy2 values, calc_gradient's return for one and two inputs, parameters and accumulators
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [3, 4], "float32")
        label = fluid.data("label", [3, 1], "int64")
        prob = fluid.layers.softmax(x)
        ce = loss.cross_entropy2(prob, label)
        y = fluid.layers.fc(x, 2, param_attr=fluid.ParamAttr(name="w"), bias_attr=False)
        s = fluid.layers.reduce_sum(y)
        x.stop_gradient = False
        one = fluid.backward.calc_gradient(s, main.global_block().var("w"))
        two = fluid.backward.calc_gradient(s, [x, main.global_block().var("w")])
        fluid.optimizer.Adam(0.1).minimize(fluid.layers.mean(y))
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    xv = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
    lv = np.array([[0], [3], [1]], dtype="int64")
    w = np.linspace(-0.5, 0.5, 8, dtype="float32").reshape(4, 2)
    fluid.global_scope().find_var("w").get_tensor().set(w, fluid.CPUPlace())
    rows.append({"api": "paddle.fluid.io.get_parameter_value_by_name", "args": ["w"],
                 "out": io.get_parameter_value_by_name("w", exe, main).tolist()})
    ce_v, g1, g2x, g2w = exe.run(main, feed={"x": xv, "label": lv}, fetch_list=[ce, one, two[0], two[1]])
    rows.append({"api": "paddle.fluid.layers.loss.cross_entropy2", "args": [xv.tolist(), lv.tolist()],
                 "out": np.asarray(ce_v).tolist()})
    rows.append({"api": "paddle.fluid.backward.calc_gradient", "args": ["one_input", "two_inputs"],
                 "out": [type(one).__name__, type(two).__name__, len(two), np.asarray(g1).tolist(),
                         np.asarray(g2x).tolist()]})
    belong = sorted(v.name for v in main.list_vars() if io.is_belong_to_optimizer(v))
    rows.append({"api": "paddle.fluid.io.is_belong_to_optimizer", "args": ["fc_adam_program"],
                 "out": {"count": len(belong), "param_or_data": [n for n in belong if n in ("w", "x", "label")]}})
    # dygraph LayerObjectHelper: parameter names, the activation, input_dtype, the attrs per input
    from paddle.fluid.dygraph.layer_object_helper import LayerObjectHelper

    with fluid.dygraph.guard():
        helper = LayerObjectHelper("my_layer_0")
        w = helper.create_parameter(fluid.ParamAttr(), [2, 3], "float32")
        b = helper.create_parameter(fluid.ParamAttr(), [3], "float32", is_bias=True)
        xd = fluid.dygraph.to_variable(np.array([[-1.0, 2.0]], "float32"))
        rows.append({"api": "paddle.fluid.dygraph.layer_object_helper.LayerObjectHelper", "args": ["my_layer_0"],
                     "out": {"names": [w.name, b.name], "shape": list(w.shape),
                             "relu": helper.append_activation(xd, "relu").numpy().tolist(),
                             "none": helper.append_activation(xd).numpy().tolist(),
                             "dtype": str(helper.input_dtype([xd])),
                             "attrs": len(list(helper.iter_inputs_and_params([xd, xd], None)))}})
    rows.append({"api": "paddle.fluid.framework.generate_control_dev_var_name", "args": [],
                 "out": framework.generate_control_dev_var_name().split("@")[0]})
    return rows


def rec26():
    import paddle
    from paddle.utils import layers_utils as lu

    rows = []
    for nest in [1, [1, 2], (3,), {"a": 1}, "s", None]:
        call(rows, "paddle.utils.to_sequence", lu.to_sequence, nest)
    for a, b, obj in [([1, None], [None, 2], 0), ((None, [None, 3]), (1, [2, None]), -1), (None, 5, 7)]:
        call(rows, "paddle.utils.padding_to_same_structure", lu.padding_to_same_structure, a, b, obj)
    for shape in [[2, 3], (4,), [0, 1]]:
        call(rows, "paddle.utils.convert_shape_to_list", lu.convert_shape_to_list, shape)
    for shape in [[2, 3], [-1, 2], [2.0, 3], [2, "a"]]:
        call(rows, "paddle.utils.check_shape", lu.check_shape, shape)
    call(rows, "paddle.device.cuda.extract_cuda_device_id", paddle.device.cuda.extract_cuda_device_id, "npu:0", "op")
    call(rows, "paddle.device.cuda.extract_cuda_device_id", paddle.device.cuda.extract_cuda_device_id, 1.5, "op")
    call(rows, "paddle.device.cuda.extract_cuda_device_id", paddle.device.cuda.extract_cuda_device_id, -1, "op")
    call(rows, "paddle.base.framework.in_dynamic_or_pir_mode", paddle.base.framework.in_dynamic_or_pir_mode)
    # paddle.signal.frame / overlap_add (not in paddle.signal.__all__): args [x, *args], axis as the last arg
    seq = np.arange(20, dtype="float32").reshape(2, 10)
    for args in [(4, 2, -1), (3, 3, -1), (10, 1, -1)]:
        call(rows, "paddle.signal.frame", lambda x, *a: paddle.signal.frame(paddle.to_tensor(x), *a).numpy(),
             seq.tolist(), *args)
    call(rows, "paddle.signal.frame", lambda x, *a: paddle.signal.frame(paddle.to_tensor(x), *a).numpy(),
         seq.T.tolist(), 4, 3, 0)
    frames = np.arange(24, dtype="float32").reshape(2, 4, 3)
    for args in [(2, -1), (4, -1), (1, -1)]:
        call(rows, "paddle.signal.overlap_add",
             lambda x, *a: paddle.signal.overlap_add(paddle.to_tensor(x), *a).numpy(), frames.tolist(), *args)
    call(rows, "paddle.signal.overlap_add", lambda x, *a: paddle.signal.overlap_add(paddle.to_tensor(x), *a).numpy(),
         frames.transpose(2, 1, 0).tolist(), 3, 0)
    # paddle.fft's layout kernels (fft_c2c, ...): args [x, *args] with x real [2, 6]; complex outputs as [re, im]
    sig = np.cos(np.arange(12, dtype="float64")).reshape(2, 6)

    def fft_call(api, x, *args):
        out = getattr(paddle.fft, api)(paddle.to_tensor(np.array(x)), *args).numpy()
        return [out.real.tolist(), out.imag.tolist()] if np.iscomplexobj(out) else out.tolist()

    spec = np.fft.rfft(sig, axis=-1)
    for api, x, args in [("fft_c2c", sig, (None, -1, "backward", True, None)), ("fft_c2c", sig, (4, 0, "ortho", False, None)),
                         ("fft_r2c", sig, (None, -1, "forward", True, True, None)),
                         ("fft_r2c", sig, (None, -1, "backward", True, False, None)),
                         ("fft_r2c", sig, (8, 1, "backward", False, True, None)),
                         ("fftn_c2c", sig, (None, None, "backward", True, None)),
                         ("fftn_r2c", sig, (None, [0, 1], "ortho", True, True, None))]:
        call(rows, f"paddle.fft.{api}", lambda x, *a, _api=api: fft_call(_api, x, *a), x.tolist(), *args)
    for api, args in [("fft_c2r", (None, -1, "backward", False, None)), ("fft_c2r", (10, -1, "ortho", True, None)),
                      ("fftn_c2r", (None, None, "backward", False, None))]:
        call(rows, f"paddle.fft.{api}",
             lambda x, *a, _api=api: getattr(paddle.fft, _api)(paddle.to_tensor(x[0] + 1j * np.array(x[1])),
                                                                *a).numpy().tolist(),
             [spec.real.tolist(), spec.imag.tolist()], *args)
    return rows


def main():
    import paddle

    if paddle.__version__.startswith("1."):
        save_json("surface_helpers18", {"version": paddle.__version__, "rows": rec18()})
    else:
        save_json("surface_helpers26", {"version": paddle.__version__, "rows": rec26()})


if __name__ == "__main__":
    main()
