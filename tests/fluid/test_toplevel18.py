"""paddle.fluid top-level names 1.8.5 lists in __all__: VarBase, the pserver dispatchers, and the clear errors
for the C++ trainer descs and custom-op libraries. Expected values as real 1.8.5 gives them."""

import numpy as np
import pytest

import paddle.fluid as fluid
from paddle_compat.engine.core.errors import UnsupportedAPIError


class _Var:
    def __init__(self, name):
        self._n = name

    def name(self):
        return self._n


def test_varbase_is_the_dygraph_tensor_class():
    assert fluid.VarBase is fluid.core.VarBase
    with fluid.dygraph.guard():
        v = fluid.dygraph.to_variable(np.ones(2, "float32"))
        lin = fluid.dygraph.Linear(2, 3)
        out = lin(v)
        assert [isinstance(t, fluid.core.VarBase) for t in (v, out, lin.weight)] == [True, True, True]
    prog = fluid.Program()
    with fluid.program_guard(prog, fluid.Program()):
        x = fluid.data("x", [2])
    assert not isinstance(x, fluid.core.VarBase)


def test_dispatchers_at_fluid_are_the_transpiler_ones():
    from paddle.fluid.transpiler import HashName, RoundRobin

    assert (fluid.HashName, fluid.RoundRobin) == (HashName, RoundRobin)
    rr = fluid.RoundRobin(["a:1", "b:2"])
    # real 1.8.5: ['a:1', 'b:2', 'a:1'] then ['b:2'], and ['a:1'] after reset()
    assert rr.dispatch([_Var("x"), _Var("y"), _Var("z")]) == ["a:1", "b:2", "a:1"]
    assert rr.dispatch([_Var("w")]) == ["b:2"]
    rr.reset()
    assert rr.dispatch([_Var("q")]) == ["a:1"]
    hn = fluid.HashName(["a:1", "b:2", "c:3"])
    assert hn.dispatch([_Var("fc_0.w_0")]) == hn.dispatch([_Var("fc_0.w_0")])


@pytest.mark.parametrize("name", ["TrainerDesc", "MultiTrainer", "DistMultiTrainer", "PipelineTrainer"])
def test_trainer_descs_raise_naming_the_api(name):
    with pytest.raises(UnsupportedAPIError, match=rf"paddle\.fluid\.{name}.*C\+\+ trainer"):
        getattr(fluid, name)()


def test_framework_load_op_library_reason():
    with pytest.raises(UnsupportedAPIError, match=r"load_op_library.*'ops\.so'.*C\+\+"):
        fluid.framework.load_op_library("ops.so")
