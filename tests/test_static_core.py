"""The static core: Program / Block / Variable views, Paddle names, data vars, parameters, scopes, clone."""

from __future__ import annotations

import numpy as np
import pytest


def test_names_follow_paddle_unique_name_scheme():
    import paddle.fluid as fluid

    x = fluid.layers.data("x", [13])
    assert x.shape == (-1, 13)  # fluid.layers.data prepends the batch dim
    h = fluid.layers.fc(x, 4, act="relu")
    out = fluid.layers.fc(h, 1)
    block = fluid.default_main_program().global_block()
    assert [p.name for p in fluid.default_main_program().all_parameters()] == \
        ["fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"]
    assert block.var("fc_0.w_0").shape == (13, 4)  # [in, out] layout
    assert (h.name, out.name) == ("fc_0.tmp_2", "fc_1.tmp_1")
    assert [op.type for op in block.ops] == ["mul", "elementwise_add", "relu", "mul", "elementwise_add"]
    assert block.ops[0].input_arg_names == ["x", "fc_0.w_0"]
    with pytest.raises(ValueError, match="var nope not in this block"):
        block.var("nope")


def test_static_data_none_dims_and_dtype():
    import paddle

    paddle.enable_static()
    a = paddle.static.data("a", [None, 3, -1], "int64")
    assert a.shape == (-1, 3, -1) and a.dtype == paddle.int64 and a.stop_gradient
    b = paddle.fluid.layers.data("b", [-1, 5], append_batch_size=True)
    assert b.shape == (-1, 5)  # an unknown dim already present: no batch dim prepended


def test_shape_inference_keeps_unknown_dims():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("x", [None, 4, 6])
    assert paddle.reshape(x, [-1, 24]).shape == (-1, 24)
    assert paddle.matmul(x, paddle.static.data("w", [6, 2])).shape == (-1, 4, 2)
    assert paddle.sum(x).shape == (1,)
    assert paddle.mean(x, axis=1).shape == (-1, 6)


@pytest.mark.parametrize("init,check", [
    ("Constant", lambda a: np.all(a == 0.5)),
    ("Uniform", lambda a: a.min() >= -0.1 and a.max() <= 0.1 and a.std() > 0),
    ("Normal", lambda a: abs(a.mean()) < 0.1 and 0.05 < a.std() < 0.2),
    ("TruncatedNormal", lambda a: np.abs(a).max() <= 0.2 + 1e-6),
    ("Xavier", lambda a: np.abs(a).max() <= np.sqrt(6.0 / (64 + 32))),
    ("MSRA", lambda a: np.abs(a).max() <= np.sqrt(6.0 / 64)),
    ("NumpyArrayInitializer", lambda a: np.array_equal(a, np.arange(64 * 32, dtype="float32").reshape(64, 32))),
])
def test_initializers_run_by_the_startup_program(init, check):
    import paddle.fluid as fluid

    args = {"Constant": (0.5,), "Uniform": (-0.1, 0.1), "Normal": (0.0, 0.1), "TruncatedNormal": (0.0, 0.1),
            "NumpyArrayInitializer": (np.arange(64 * 32, dtype="float32").reshape(64, 32),)}.get(init, ())
    x = fluid.layers.data("x", [64])
    fluid.layers.fc(x, 32, param_attr=fluid.ParamAttr(name="w", initializer=getattr(fluid.initializer, init)(*args)))
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fluid.default_startup_program())
    w = np.array(fluid.global_scope().find_var("w").get_tensor())
    assert w.shape == (64, 32) and check(w)


def test_scope_set_and_scope_guard():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("x", [None, 2])
    out = paddle.static.nn.fc(x, 1, weight_attr=paddle.ParamAttr(name="w"), bias_attr=False)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(paddle.static.default_startup_program())
        scope.find_var("w").get_tensor().set(np.array([[1.0], [2.0]], "float32"), paddle.CPUPlace())
        res, = exe.run(feed={"x": np.array([[1.0, 1.0]], "float32")}, fetch_list=[out])
    assert res.tolist() == [[3.0]]
    assert paddle.static.global_scope().find_var("w") is None
    lod, = exe.run(feed={"x": np.ones((1, 2), "float32")}, fetch_list=[out], scope=scope, return_numpy=False)
    assert np.array(lod).tolist() == [[3.0]] and lod.shape() == [1, 1]


def test_create_parameter_and_global_var():
    import paddle

    paddle.enable_static()
    p = paddle.static.create_parameter([3], "float32", name="p",
                                       default_initializer=paddle.nn.initializer.Constant(2.0))
    g = paddle.static.create_global_var([1], 5.0, "float32", persistable=True, name="g")
    out = p * g
    exe = paddle.static.Executor()
    exe.run(paddle.static.default_startup_program())
    res, = exe.run(fetch_list=[out])
    assert res.tolist() == [10.0, 10.0, 10.0]


def test_append_backward_and_gradients():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("x", [None, 2])
    x.stop_gradient = False
    y = paddle.static.nn.fc(x, 1, weight_attr=paddle.ParamAttr(
        name="w", initializer=paddle.nn.initializer.Constant(3.0)), bias_attr=False)
    loss = paddle.mean(y)
    pg = paddle.static.append_backward(loss)
    assert [(p.name, g.name) for p, g in pg] == [("w", "w@GRAD")]
    gx, = paddle.static.gradients([loss], [x])
    exe = paddle.static.Executor()
    exe.run(paddle.static.default_startup_program())
    feed = {"x": np.ones((4, 2), "float32")}
    gw, gxv, seed = exe.run(feed=feed, fetch_list=["w@GRAD", gx, loss.name + "@GRAD"])
    np.testing.assert_allclose(gw, [[1.0], [1.0]])
    np.testing.assert_allclose(gxv, np.full((4, 2), 0.75))
    assert seed.tolist() == [1.0]


def test_clone_for_test_switches_dropout_and_batch_norm():
    import paddle.fluid as fluid

    x = fluid.layers.data("x", [4, 2, 2])
    h = fluid.layers.batch_norm(x)
    d = fluid.layers.dropout(h, dropout_prob=0.5)
    loss = fluid.layers.mean(d)
    test = fluid.default_main_program().clone(for_test=True)
    fluid.optimizer.SGD(0.1).minimize(loss)
    names = [p.name for p in fluid.default_main_program().all_parameters()]
    assert names == ["batch_norm_0.w_0", "batch_norm_0.b_0", "batch_norm_0.w_1", "batch_norm_0.w_2"]
    assert "sgd" not in [op.type for op in test.global_block().ops]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fluid.default_startup_program())
    data = np.random.RandomState(0).rand(8, 4, 2, 2).astype("float32")
    a, = exe.run(test, feed={"x": data}, fetch_list=[d])
    b, = exe.run(test, feed={"x": data}, fetch_list=[d])
    np.testing.assert_array_equal(a, b)  # no dropout randomness at inference
    # inference uses the moving statistics (initially mean 0, var 1) and downgrade_in_infer scaling by 0.5
    np.testing.assert_allclose(a, data / np.sqrt(1 + 1e-5) * 0.5, rtol=1e-5)
    mean_before = np.array(fluid.global_scope().find_var("batch_norm_0.w_1").get_tensor()).copy()
    exe.run(feed={"x": data}, fetch_list=[loss])
    mean_after = np.array(fluid.global_scope().find_var("batch_norm_0.w_1").get_tensor())
    np.testing.assert_allclose(mean_after, 0.1 * data.mean(axis=(0, 2, 3)) + 0.9 * mean_before, rtol=1e-5)


def test_compiled_program_single_place_matches_executor():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("X", [None, 1])
    loss = paddle.mean(paddle.static.nn.fc(x, 10))
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(paddle.static.default_startup_program())
    compiled = paddle.static.CompiledProgram(paddle.static.default_main_program())
    data = np.random.RandomState(0).rand(10, 1).astype("float32")
    a, = exe.run(compiled, feed={"X": data}, fetch_list=[loss.name])
    assert a.shape == (1,)
    with pytest.raises(TypeError, match="expected Graph or Program"):
        paddle.static.CompiledProgram("main")
    with pytest.raises(AssertionError, match="Not compiled with data parallel"):
        exe.run(compiled, feed=[{"X": data}, {"X": data}], fetch_list=[loss])


def test_strategies_have_paddle_defaults_and_reject_unknown_fields():
    import paddle

    bs, es = paddle.static.BuildStrategy(), paddle.static.ExecutionStrategy()
    assert (bs.enable_inplace, bs.fuse_bn_add_act_ops, bs.memory_optimize, bs.debug_graphviz_path) == \
        (True, True, None, "")
    assert bs.reduce_strategy == paddle.static.BuildStrategy.ReduceStrategy.AllReduce
    assert (es.num_threads, es.num_iteration_per_drop_scope, es.num_iteration_per_run) == (0, 100, 1)
    with pytest.raises(AttributeError):
        bs.no_such_option = True
    with pytest.raises(TypeError):
        bs.enable_inplace = "yes"


def test_stop_gradient_on_an_intermediate_prunes_backward():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("x", [None, 2])
    const = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
    h = paddle.static.nn.fc(x, 2, weight_attr=const, bias_attr=False)  # fc_0.w_0
    h2 = paddle.static.nn.fc(h, 1, weight_attr=const, bias_attr=False)  # fc_1.w_0
    h.stop_gradient = True
    loss = paddle.mean(h2)
    pg = paddle.static.append_backward(loss)
    assert [p.name for p, _ in pg] == ["fc_1.w_0"]  # fc_0.w_0 is cut off, as in Paddle
    exe = paddle.static.Executor()
    exe.run(paddle.static.default_startup_program())
    g1, = exe.run(feed={"x": np.ones((2, 2), "float32")}, fetch_list=["fc_1.w_0@GRAD"])
    np.testing.assert_allclose(g1, [[2.0], [2.0]])


def test_unknown_dim_meeting_a_known_dim_broadcasts():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("x", [None, 4])
    y = paddle.static.data("y", [3, 4])
    z = x + y
    assert z.shape == (3, 4)
    exe = paddle.static.Executor()
    res, = exe.run(feed={"x": np.ones((3, 4), "float32"), "y": np.ones((3, 4), "float32")}, fetch_list=[z])
    assert res.shape == (3, 4) and float(res.sum()) == 24.0


def test_parameters_set_without_the_startup_program_still_train():
    """Values put into the scope by hand (or by set_state_dict / load before any startup run) are trained: the
    executor makes a trainable parameter require grad however it got there."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [4, 3], "float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 2))
        fluid.optimizer.SGD(0.5).minimize(loss)
    scope = fluid.global_scope()
    for p in main.global_block().all_parameters():
        scope.var(p.name).get_tensor().set(np.full(p.shape, 0.1, "float32"), fluid.CPUPlace())
    lr = [v for v in main.global_block().vars.values() if v.persistable and v.name.startswith("learning_rate")]
    scope.var(lr[0].name).get_tensor().set(np.array([0.5], "float32"), fluid.CPUPlace())
    exe = fluid.Executor(fluid.CPUPlace())
    feed = {"x": np.ones([4, 3], "float32")}
    first = exe.run(main, feed=feed, fetch_list=[loss])[0]
    second = exe.run(main, feed=feed, fetch_list=[loss])[0]
    assert second < first
    np.testing.assert_allclose(np.array(scope.find_var("fc_0.b_0").get_tensor()), np.full([2], 0.1 - 2 * 0.5 * 0.5), rtol=1e-6)  # two SGD steps, d(mean)/db = 0.5


def test_build_strategy_cache_key_follows_every_change():
    """The plan-cache key (cached between runs) changes when a field is set or a list / set field is edited in
    place, and equals the repr it stands for."""
    import paddle

    bs = paddle.static.BuildStrategy()
    k0 = bs._key()
    assert k0 == repr(bs) and bs._key() is k0
    bs.enable_inplace = not bs.enable_inplace
    k1 = bs._key()
    assert k1 != k0 and k1 == repr(bs)
    bs.mkldnn_enabled_op_types.add("conv2d")
    assert bs._key() != k1 and bs._key() == repr(bs)


def test_a_static_variable_is_truthy_as_in_paddle():
    """Paddle 1.8.5 and 2.6.2: bool(static Variable) is True (`out + prev if prev else out` is a None check in
    Paddle's own transformer_model.py)."""
    import paddle

    paddle.enable_static()
    try:
        x = paddle.static.data("x", [-1, 3])
        assert bool(x) is True and (x if x else None) is x
    finally:
        paddle.disable_static()


_NO_SYMPY = """
import sys
import numpy as np
import paddle
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [-1, 512], "float32")
    w = paddle.static.create_parameter([512], "float32")
    loss = paddle.mean(paddle.tanh(x * w))
    paddle.optimizer.SGD(0.1).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
bs = paddle.static.BuildStrategy()
bs.enable_inplace = bs.memory_optimize = True
prog = paddle.static.CompiledProgram(main, build_strategy=bs)
exe.run(prog, feed={"x": np.ones([1024, 512], "float32")}, fetch_list=[loss])
paddle.disable_static()
t = paddle.to_tensor(np.ones([3, 4], "float32"), stop_gradient=False)
(t * t).backward(paddle.ones([3, 4]))
paddle.grad([(t * 2).sum()], [t])
assert "sympy" not in sys.modules, "a training step imported sympy"
"""


def test_training_steps_do_not_import_sympy():
    """torch.autograd.grad / backward with given seeds and torch.broadcast_shapes import sympy (0.5 s and 35 MiB on
    a process's first step); a static step with memory_optimize's pooled bodies, Tensor.backward and paddle.grad
    go around them (engine/core/autograd_engine.py)."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", _NO_SYMPY], check=True, timeout=300)
