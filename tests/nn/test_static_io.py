"""Case F (tests/goldens/README.md): static conv + bn trained, cloned for test, saved with
save_inference_model, reloaded, identical predictions; plus program / persistable serialization."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.conftest import load_golden


def _build():
    import paddle
    import paddle.nn.functional as F

    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 1, 8, 8])
        label = paddle.static.data("label", [None, 1], "int64")
        conv = paddle.static.nn.conv2d(x, num_filters=4, filter_size=3, padding=1)
        bn = paddle.static.nn.batch_norm(conv)
        pool = F.max_pool2d(F.relu(bn), kernel_size=2, stride=2)
        logits = paddle.static.nn.fc(pool, 3)
        loss = F.cross_entropy(logits, label)
        paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    test_prog = main.clone(for_test=True)
    return main, startup, test_prog, x, logits, loss


def test_static_convbn_infer_case_f(tmp_path):
    import paddle

    paddle.enable_static()
    meta, g = load_golden("static_convbn_infer26")
    main, startup, test_prog, x, logits, loss = _build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    names = meta["npz_name_to_paddle_name"]
    for k, name in names.items():
        scope.find_var(name).get_tensor().set(g["init__" + k], paddle.CPUPlace())
    losses = []
    for i in range(3):
        out = exe.run(main, feed={"x": g["xs"][i], "label": g["labels"][i]}, fetch_list=[loss, logits])
        losses.append(float(np.asarray(out[0]).reshape(())))
        if i == 0:
            np.testing.assert_allclose(out[1], g["step0_train_logits"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(losses, g["losses"], rtol=1e-5, atol=1e-6)
    for k, name in names.items():
        np.testing.assert_allclose(np.array(scope.find_var(name).get_tensor()), g["final__" + k], rtol=1e-5,
                                   atol=1e-6, err_msg=name)
    (pred,) = exe.run(test_prog, feed={"x": g["x_eval"], "label": np.zeros([6, 1], "int64")}, fetch_list=[logits])
    np.testing.assert_allclose(pred, g["eval_logits"], rtol=1e-5, atol=1e-6)

    prefix = str(tmp_path / "infer" / "model")
    paddle.static.save_inference_model(prefix, [x], [logits], exe, program=test_prog)
    assert os.path.exists(prefix + ".pdmodel") and os.path.exists(prefix + ".pdiparams")
    assert paddle.static.load_from_file(prefix + ".pdmodel")[:1] == b"{"  # JSON, never pickle
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        # Paddle 2.4 / 2.6 fetch the scale(1.0) that save_inference_model appends to each target
        assert feeds == ["x"] and [f.name.rpartition(".")[0] for f in fetches] == ["save_infer_model/scale_0"]
        assert "cross_entropy" not in " ".join(op.type for op in prog.global_block().ops)  # pruned to logits
        (pred2,) = exe.run(prog, feed={"x": g["x_eval"]}, fetch_list=fetches)  # no label needed
    np.testing.assert_array_equal(pred2, pred)


def test_serialize_roundtrip_and_paddle_tensor_format():
    import paddle

    from paddle_compat.engine.static.io import tensor_from_bytes, tensor_to_bytes

    paddle.enable_static()
    main, startup, test_prog, x, logits, _ = _build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.RandomState(0).rand(2, 1, 8, 8).astype("float32")}
    (ref,) = exe.run(test_prog, feed=dict(feed, label=np.zeros([2, 1], "int64")), fetch_list=[logits])
    prog_bytes = paddle.static.serialize_program([x], [logits], program=test_prog)
    params = paddle.static.serialize_persistables([x], [logits], exe, program=test_prog)
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog = paddle.static.deserialize_program(prog_bytes)
        paddle.static.deserialize_persistables(prog, params, exe)
        (out,) = exe.run(prog, feed=feed, fetch_list=[prog.global_block().var(logits.name)])
    np.testing.assert_array_equal(out, ref)
    # Paddle's LoDTensor stream: version 0, no LoD, version 0, TensorDesc{FP32, dims}, data
    b = tensor_to_bytes(np.arange(6, dtype="float32").reshape(2, 3))
    assert b[:16] == b"\x00" * 4 + b"\x00" * 8 + b"\x00" * 4 and b[16:20] == b"\x06\x00\x00\x00"
    assert b[20:26] == b"\x08\x05\x10\x02\x10\x03"
    arr, end = tensor_from_bytes(b)
    assert end == len(b) and arr.tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="fewer variables"):
        paddle.static.deserialize_persistables(prog, params[: len(params) // 2], exe)


def test_fluid_io_save_load_params_and_program_state(tmp_path):
    import paddle

    paddle.enable_static()
    main, startup, test_prog, x, logits, _ = _build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    w0 = np.array(scope.find_var("fc_0.w_0").get_tensor())
    paddle.fluid.io.save_params(exe, str(tmp_path / "p"), main_program=main)
    paddle.fluid.io.save_persistables(exe, str(tmp_path / "c"), main_program=main, filename="all.bin")
    paddle.static.save(main, str(tmp_path / "s" / "model"))
    scope.find_var("fc_0.w_0").get_tensor().set(np.zeros_like(w0), paddle.CPUPlace())
    paddle.fluid.io.load_params(exe, str(tmp_path / "p"), main_program=main)
    np.testing.assert_array_equal(np.array(scope.find_var("fc_0.w_0").get_tensor()), w0)
    scope.find_var("fc_0.w_0").get_tensor().set(np.zeros_like(w0), paddle.CPUPlace())
    paddle.fluid.io.load_persistables(exe, str(tmp_path / "c"), main_program=main, filename="all.bin")
    np.testing.assert_array_equal(np.array(scope.find_var("fc_0.w_0").get_tensor()), w0)
    state = paddle.static.load_program_state(str(tmp_path / "s" / "model"))
    assert "fc_0.w_0" in state and "fc_0.w_0_velocity_0" in state
    np.testing.assert_array_equal(state["fc_0.w_0"], w0)
    scope.find_var("fc_0.w_0").get_tensor().set(np.zeros_like(w0), paddle.CPUPlace())
    paddle.static.set_program_state(main, state)
    np.testing.assert_array_equal(np.array(scope.find_var("fc_0.w_0").get_tensor()), w0)


def test_input_spec_and_device_guard():
    import paddle

    s = paddle.static.InputSpec([None, 3], "float32", "x")
    assert s.shape == (-1, 3) and s.name == "x"
    assert s.batch(4).shape == (4, -1, 3) and s.unbatch().shape == (-1, 3)
    with paddle.static.device_guard("cpu"):
        pass
    with pytest.raises(ValueError, match="device_guard"):
        with paddle.static.device_guard("tpu"):
            pass


def test_fluid_style_inference_model_and_static_save_of_state_dicts(tmp_path):
    import paddle

    paddle.enable_static()
    main, startup, test_prog, x, logits, _ = _build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.RandomState(1).rand(3, 1, 8, 8).astype("float32")}
    (ref,) = exe.run(test_prog, feed=dict(feed, label=np.zeros([3, 1], "int64")), fetch_list=[logits])
    d = str(tmp_path / "fluid_model")
    paddle.fluid.io.save_inference_model(d, ["x"], [logits], exe, main_program=test_prog)
    assert os.path.exists(os.path.join(d, "__model__")) and os.path.exists(os.path.join(d, "fc_0.w_0"))
    # a Program and a static state_dict go through paddle.save / paddle.load too
    paddle.save(test_prog.state_dict(), str(tmp_path / "s.pdparams"))
    paddle.save(main, str(tmp_path / "main.pdmodel"))
    assert isinstance(paddle.load(str(tmp_path / "main.pdmodel")), paddle.static.Program)
    state = paddle.load(str(tmp_path / "s.pdparams"))
    np.testing.assert_array_equal(state["fc_0.w_0"].numpy(),
                                  np.array(paddle.static.global_scope().find_var("fc_0.w_0").get_tensor()))
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, fetches = paddle.fluid.io.load_inference_model(d, exe)
        (out,) = exe.run(prog, feed=feed, fetch_list=fetches)
    np.testing.assert_array_equal(out, ref)


def test_py_func_runs_python_inside_the_program():
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3])
        out = main.global_block().create_var(name="py_out", shape=[2, 3], dtype="float32")
        paddle.static.py_func(lambda t: np.tanh(np.array(t)) * 2, x, out)
        y = paddle.scale(out, 3.0)
    exe = paddle.static.Executor(paddle.CPUPlace())
    x_np = np.arange(6, dtype="float32").reshape(2, 3) / 6
    (got,) = exe.run(main, feed={"x": x_np}, fetch_list=[y])
    np.testing.assert_allclose(got, np.tanh(x_np) * 6, rtol=1e-6)


def test_py_func_backward_func_gives_the_gradient():
    """backward_func(inputs, outputs, output grads; less the skipped vars) -> input grads, as Paddle calls it:
    a tanh written in numpy trains like the built-in one."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [2, 3], "float32")
        x.stop_gradient = False
        h = fluid.layers.fc(x, 4)
        out = main.current_block().create_var(name="py_out", dtype="float32", shape=[2, 4])
        fluid.layers.py_func(lambda t: np.tanh(np.array(t)), h, out,
                             backward_func=lambda y, dy: np.array(dy) * (1 - np.square(np.array(y))),
                             skip_vars_in_backward_input=h)
        loss = fluid.layers.reduce_sum(out)
        ref = fluid.layers.reduce_sum(fluid.layers.tanh(h))
        (g,) = fluid.backward.gradients([loss], [x])
        (gr,) = fluid.backward.gradients([ref], [x])
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    a, b, ga, gb = exe.run(main, feed={"x": np.random.RandomState(0).rand(2, 3).astype("float32")},
                           fetch_list=[loss, ref, g, gr])
    np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(ga, gb, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="is not found in forward inputs and outputs"):
        with fluid.program_guard(main, startup):
            fluid.layers.py_func(np.tanh, h, out, backward_func=np.tanh, skip_vars_in_backward_input=x)


def test_load_inference_model_rejects_protobuf_programs(tmp_path):
    """A truncated ProgramDesc is rejected clearly (whole ones written by real Paddle load: tests/static_io)."""
    import paddle

    paddle.enable_static()
    (tmp_path / "m.pdmodel").write_bytes(b"\n\x8a\x01\x12\x05feed\xff\xfe")
    (tmp_path / "m.pdiparams").write_bytes(b"")
    with pytest.raises(ValueError, match="neither a program saved by paddle_compat nor a Paddle ProgramDesc"):
        paddle.static.load_inference_model(str(tmp_path / "m"), paddle.static.Executor(paddle.CPUPlace()))
