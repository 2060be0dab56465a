"""The failure classes of the 1.x model zoo (PaddlePaddle/models release/1.8, run by tools/zoo18/run.py), each
reduced to a row of tests/zoo18/cases_zoo18.py and compared with real Paddle 1.8.5 (golden zoo18_classes,
recorded by tools/oracle/rec_run18.py), plus the module paths published model code imports."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden, replay_case18
from tests.zoo18 import cases_zoo18 as C

GOLDEN = "zoo18_classes"


@pytest.mark.parametrize("case", sorted(C.CASES))
def test_matches_paddle18(case):
    got, want = replay_case18(C.CASES, GOLDEN, case)
    for k, v in want.items():
        g = np.asarray(got[k])
        assert g.shape == v.shape, k
        if v.dtype.kind == "U":
            assert g.tolist() == v.tolist(), k
        else:
            np.testing.assert_allclose(g, v, rtol=1e-4, atol=1e-6, err_msg=f"{case}/{k}")


# `from ... import ...` lines of PaddlePaddle/models release/1.8 that real 1.8.5 resolves (private helpers and
# names outside __all__ included), with what each must be.
IMPORTS = [
    ("paddle.fluid", "Layer", "paddle.fluid.dygraph.Layer"),
    ("paddle.fluid.layers.learning_rate_scheduler", "_decay_step_counter", None),
    ("paddle.fluid.dygraph.learning_rate_scheduler", "LearningRateDecay", "paddle.fluid.dygraph.LearningRateDecay"),
    ("paddle.fluid.wrapped_decorator", "signature_safe_contextmanager", None),
    ("paddle.fluid.wrapped_decorator", "wrap_decorator", None),
]


@pytest.mark.parametrize("module, name, same_as", IMPORTS)
def test_model_code_imports(module, name, same_as):
    import importlib

    obj = getattr(importlib.import_module(module), name)
    if same_as is not None:
        mod, _, attr = same_as.rpartition(".")
        assert obj is getattr(importlib.import_module(mod), attr)


def test_decay_step_counter_counts_from_zero():
    """1.8.5: the global step of the lr decays, a float32 [1] that reads 0 on the first run."""
    import paddle
    from paddle.fluid.layers.learning_rate_scheduler import _decay_step_counter

    paddle.enable_static()
    fluid = paddle.fluid
    main, start = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, start):
        step = _decay_step_counter()
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(start)
    seen = [float(exe.run(main, fetch_list=[step])[0][0]) for _ in range(3)]
    assert seen == [0.0, 1.0, 2.0]
    assert step.dtype == paddle.fluid.core.VarDesc.VarType.FP32 or "float32" in str(step.dtype)


def test_signature_safe_contextmanager_keeps_the_signature():
    import inspect

    from paddle.fluid.wrapped_decorator import signature_safe_contextmanager

    @signature_safe_contextmanager
    def guard(a, b=2):
        yield a + b

    with guard(1) as v:
        assert v == 3
    assert list(inspect.signature(guard).parameters) == ["a", "b"]


def test_sublayers_include_sublayers_keyword():
    """1.8.5 (checked with real 1.8.5): Layer.sublayers(include_sublayers=False) walks no sublayer and gives [];
    the default gives every descendant, depth first. dygraph/transformer/model.py counts the former."""
    import paddle.fluid as fluid

    class A(fluid.dygraph.Layer):
        def __init__(self):
            super().__init__()
            self.lin = fluid.dygraph.Linear(2, 2)

    class B(fluid.dygraph.Layer):
        def __init__(self):
            super().__init__()
            self.a1, self.a2 = A(), A()

    with fluid.dygraph.guard():
        b = B()
        assert b.sublayers(include_sublayers=False) == []
        assert [type(x).__name__ for x in b.sublayers()] == ["A", "Linear", "A", "Linear"]


@pytest.mark.parametrize("name, kw", [("Adam", {}), ("Adam_lazy", {"lazy_mode": True}), ("SGD", {})])
def test_sparse_embedding_dygraph_matches_static_golden(name, kw):
    """fluid.dygraph.Embedding(is_sparse=True) trained in dygraph takes 1.8.5's SelectedRows Adam too: the
    table after each step equals the static golden sparse_opt_<name>_sparse (same net, same feeds)."""
    import paddle

    paddle.disable_static()
    fluid = paddle.fluid
    init = np.random.RandomState(3).normal(0.0, 0.5, [5, 3]).astype("float32")
    with fluid.dygraph.guard():
        emb = fluid.dygraph.Embedding([5, 3], is_sparse=True)
        emb.weight.set_value(init)
        opt = getattr(fluid.optimizer, name.split("_")[0])(learning_rate=0.1, parameter_list=emb.parameters(), **kw)
        for i, rows in enumerate(([[1], [3]], [[1], [1]], [[0], [4]])):
            out = emb(fluid.dygraph.to_variable(np.array(rows, "int64")))
            loss = fluid.layers.mean(fluid.layers.square(out - 0.3))
            loss.backward()
            opt.minimize(loss)
            emb.clear_gradients()
            np.testing.assert_allclose(emb.weight.numpy(), load_golden(GOLDEN)[1][f"sparse_opt_{name}_sparse/w{i}"], rtol=1e-5,
                                       atol=1e-7, err_msg=f"step {i}")


def test_sparse_adam_with_fuse_all_optimizer_ops():
    """fuse_all_optimizer_ops fuses the dense adams and leaves the SelectedRows ones single (Paddle's fuse passes
    take LoDTensor gradients only): the same tables after two steps as without the pass."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid

    def run(fuse):
        main, start = fluid.Program(), fluid.Program()
        start.random_seed = 1
        with fluid.program_guard(main, start), fluid.unique_name.guard():
            ids = fluid.data("ids", [None, 1], "int64")
            e = [fluid.embedding(ids, size=[5, 3], is_sparse=i < 2) for i in range(4)]
            loss = fluid.layers.mean(fluid.layers.square(e[0] + e[1] * e[2] - e[3]))
            fluid.optimizer.Adam(0.1).minimize(loss)
        bs = fluid.BuildStrategy()
        bs.fuse_all_optimizer_ops = fuse
        prog = fluid.CompiledProgram(main, build_strategy=bs)
        exe, scope = fluid.Executor(fluid.CPUPlace()), fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(start)
            for _ in range(2):
                exe.run(prog, feed={"ids": np.array([[1], [3]], "int64")})
            return [np.array(scope.find_var("embedding_%d.w_0" % i).get_tensor()) for i in range(4)]

    for a, b in zip(run(False), run(True)):
        np.testing.assert_array_equal(a, b)
