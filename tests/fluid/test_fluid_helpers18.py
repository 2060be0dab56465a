"""fluid.layers.utils, fluid.data_feeder checks, paddle.compat, fluid.core / fluid.framework helpers,
fluid.layers.math_op_patch and fluid.layer_helper.LayerHelper. Expected values were printed by the same calls
under real Paddle 1.8.5 (pure Python results; the LayerHelper program's numbers too)."""

from __future__ import annotations

import collections

import numpy as np
import pytest


@pytest.fixture()
def fluid():
    import paddle

    paddle.enable_static()
    return paddle.fluid


def test_nest_utils(fluid):
    from paddle.fluid.layers import utils

    nt = collections.namedtuple("nt", "a b")
    assert utils.flatten({"b": [1, (2, 3)], "a": 4}) == [4, 1, 2, 3]
    assert utils.flatten(5) == [5] and utils.flatten("ab") == ["ab"]
    assert utils.pack_sequence_as({"b": [0, (0, 0)], "a": 0}, [9, 8, 7, 6]) == {"b": [8, (7, 6)], "a": 9}
    assert utils.pack_sequence_as(nt(0, [0]), [1, 2]) == nt(1, [2])
    assert utils.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)]) == [11, (22,)]
    assert utils.is_sequence({}) and utils.is_sequence((1,)) and not utils.is_sequence("s")
    assert utils.hold_mutable_vars([1, [2]]) and not utils.hold_mutable_vars([1, 2])
    s = [[1], 2]
    c = utils.copy_mutable_vars(s)
    assert c == s and c is not s and c[0] is not s[0]
    assert utils.convert_to_list(3, 2, "stride") == [3, 3] and utils.convert_to_list((1, 2), 2, "k") == [1, 2]
    utils.assert_same_structure([1, (2,)], [3, (4,)])


@pytest.mark.parametrize("call, exc, msg", [
    (lambda u: u.assert_same_structure([1, 2], (1, 2)), TypeError,
     "The two structures don't have the same sequence type. First structure has type <class 'list'>, while second "
     "structure has type <class 'tuple'>."),
    (lambda u: u.assert_same_structure([1, 2], [1]), ValueError,
     "The two structures don't have the same number of elements."),
    (lambda u: u.pack_sequence_as([0, 0], [1]), ValueError, "Could not pack sequence. Structure had 2 elements"),
    (lambda u: u.pack_sequence_as([0], 1), TypeError, "flat_sequence must be a sequence"),
    (lambda u: u.convert_to_list([1, 2, 3], 2, "stride"), ValueError, "The stride's length must be 2. Received: [1, 2, 3]"),
    (lambda u: u.convert_to_list(None, 2, "pad"), ValueError, "The pad's type must be list or tuple. Received: None"),
])
def test_nest_errors(fluid, call, exc, msg):
    from paddle.fluid.layers import utils

    with pytest.raises(exc) as e:
        call(utils)
    assert str(e.value).startswith(msg)


def test_data_feeder_checks(fluid):
    from paddle.fluid.data_feeder import check_dtype, check_type, check_variable_and_dtype, convert_dtype

    with fluid.program_guard(fluid.Program()):
        x = fluid.data("x", [2], "int32")
        with pytest.raises(TypeError) as e:
            check_variable_and_dtype(x, "x", ["float32"], "my_op")
        assert str(e.value) == "The data type of 'x' in my_op must be ['float32'], but received int32. "
        with pytest.raises(TypeError, match="The type of 'axis' in my_op must be <class 'int'>"):
            check_type("1", "axis", int, "my_op")
        check_dtype(x.dtype, "x", ["int32"], "my_op")
    assert convert_dtype(fluid.core.VarDesc.VarType.FP32) == "float32"
    assert fluid.layers.utils.convert_dtype is convert_dtype


def test_compat():
    import paddle.compat as cpt

    assert cpt.to_text([b"a", "b"]) == ["a", "b"] and cpt.to_text({b"k": b"v"}) == {"k": "v"}
    assert cpt.to_bytes({"x"}) == {b"x"} and cpt.to_bytes(None) is None
    lst = [b"a"]
    assert cpt.to_text(lst, inplace=True) is lst and lst == ["a"]
    assert (cpt.round(2.5), cpt.round(-0.5), cpt.round(1.2345, 2), cpt.round(0.0)) == (3.0, -1.0, 1.23, 0.0)
    assert cpt.floor_division(7, 2) == 3 and cpt.get_exception_message(ValueError("m")) == "m"


def test_core_and_framework_helpers(fluid):
    from paddle.fluid import core, framework

    assert framework.grad_var_name("x") == "x@GRAD" and core.kGradVarSuffix() == "@GRAD"
    assert core.kEmptyVarName() == "@EMPTY@" and core.kTempVarName() == "@TEMP@"
    assert issubclass(core.EnforceNotMet, Exception)
    assert core.op_proto_and_checker_maker.OpRole.Backward == 1
    assert core.op_proto_and_checker_maker.kOpRoleAttrName() == "op_role"
    assert framework.convert_np_dtype_to_dtype_(np.float32) == core.VarDesc.VarType.FP32
    assert framework.dtype_is_floating("float64") and not framework.dtype_is_floating("int64")
    from paddle.fluid.layers.math_op_patch import OpProtoHolder, compare_ops, monkey_patch_variable

    assert compare_ops == ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]
    assert monkey_patch_variable() is None
    with pytest.raises(ValueError, match='Operator "no_such_op" has not been registered.'):
        OpProtoHolder.instance().get_op_proto("no_such_op")


def test_layer_helper_custom_layer_trains(fluid):
    from paddle.fluid.layer_helper import LayerHelper

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.data("x", [-1, 3], "float32")
        helper = LayerHelper("myfc", param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)),
                             act="relu")
        w = helper.create_parameter(helper.param_attr, [3, 2], "float32")
        tmp = helper.create_variable_for_type_inference("float32")
        helper.append_op(type="mul", inputs={"X": [x], "Y": [w]}, outputs={"Out": [tmp]},
                         attrs={"x_num_col_dims": 1, "y_num_col_dims": 1})
        out = helper.append_activation(helper.append_bias_op(tmp))
        s = helper.create_variable_for_type_inference("float32")
        helper.append_op(type="sigmoid", inputs={"X": out}, outputs={"Out": s})
        loss = fluid.layers.mean(s)
        fluid.optimizer.SGD(0.1).minimize(loss)
    assert (w.name, tmp.name) == ("myfc_0.w_0", "myfc_0.tmp_0")
    assert [p.name for p in main.all_parameters()] == ["myfc_0.w_0", "myfc_0.b_0"]
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        t, o, sv, lv = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[tmp, out, s, loss])
        np.testing.assert_allclose(t, np.full((2, 2), 1.5, "float32"))
        np.testing.assert_allclose(sv, np.full((2, 2), 0.81757444, "float32"), rtol=1e-6)
        (w1,) = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=["myfc_0.w_0"])
        assert (w1 < 0.5).all()  # trained: the sigmoid's mean went down


def test_layer_helper_unknown_op_type(fluid):
    from paddle.fluid.layer_helper import LayerHelper

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with fluid.program_guard(fluid.Program()):
        helper = LayerHelper("x")
        with pytest.raises(UnsupportedAPIError, match="op type 'no_such_op' has no implementation here"):
            helper.append_op(type="no_such_op", inputs={}, outputs={})


def test_block_append_op(fluid):
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [2, 2], "float32")
        block = main.global_block()
        out = block.create_var(name="scaled", dtype="float32")
        block.append_op(type="scale", inputs={"X": [x]}, outputs={"Out": [out]}, attrs={"scale": 3.0, "bias": 1.0})
    (r,) = fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": np.ones((2, 2), "float32")}, fetch_list=["scaled"])
    np.testing.assert_allclose(r, np.full((2, 2), 4.0, "float32"))
