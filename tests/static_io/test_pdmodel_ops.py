"""The ProgramDesc reader on hand-built programs: adapters no golden model reaches, and the error cases.

Each row is one op between a `feed` and a `fetch`, encoded here with the same wire format real Paddle writes
(framework.proto field numbers, as in paddle_compat/engine/static/proto.py), loaded with
paddle.static.deserialize_program and run against NumPy. A meta-test checks that every op type the reader
supports is reached by a real-Paddle golden model (tests/goldens/pdmodel) or by a row here.
"""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest

from paddle_compat.engine.static import proto
from tests.conftest import GOLDENS


# --- a tiny protobuf encoder for ProgramDesc ----------------------------------------------------------------
_varint, _f = proto.encode_varint, proto.encode_field


def _s(num: int, text: str) -> bytes:
    return _f(num, 2, text.encode())


def _i(num: int, v: int) -> bytes:
    return _f(num, 0, _varint(v))


def _attr(name: str, v) -> bytes:
    """OpDesc.Attr: AttrType BOOLEAN / INT / FLOAT / STRING / INTS / FLOATS by the Python type."""
    if isinstance(v, bool):
        return _s(1, name) + _i(2, 6) + _i(10, int(v))
    if isinstance(v, int):
        return _s(1, name) + _i(2, 0) + _i(3, v)
    if isinstance(v, float):
        return _s(1, name) + _i(2, 1) + _f(4, 5, struct.pack("<f", v))
    if isinstance(v, str):
        return _s(1, name) + _i(2, 2) + _s(5, v)
    if all(isinstance(x, int) for x in v):
        return _s(1, name) + _i(2, 3) + _f(6, 2, b"".join(_varint(x) for x in v))
    return _s(1, name) + _i(2, 4) + _f(7, 2, struct.pack(f"<{len(v)}f", *v))


def _op(type_: str, inputs: dict, outputs: dict, attrs: dict | None = None) -> bytes:
    slot = lambda num, p, args: _f(num, 2, _s(1, p) + b"".join(_s(2, a) for a in args))
    body = b"".join(slot(1, p, a) for p, a in inputs.items()) + b"".join(slot(2, p, a) for p, a in outputs.items())
    body += _s(3, type_) + b"".join(_f(4, 2, _attr(k, v)) for k, v in (attrs or {}).items())
    return _f(4, 2, body)


_DT = {"float32": 5, "int64": 3}


def _var(name: str, dims, dtype="float32", kind=7, persistable=False, is_parameter=False) -> bytes:
    tensor = _i(1, _DT[dtype]) + _f(2, 2, b"".join(_varint(d) for d in dims))
    vtype = _i(1, kind) + (_f(3, 2, _f(1, 2, tensor)) if kind == 7 else b"")
    flags = (_i(3, 1) if persistable else b"") + (_i(5, 1) if is_parameter else b"")
    return _f(3, 2, _s(1, name) + _f(2, 2, vtype) + flags)


def _program(vars_: list[bytes], ops: list[bytes], extra_blocks: int = 0) -> bytes:
    block = _i(1, 0) + _i(2, -1) + b"".join(vars_) + b"".join(ops)
    blocks = _f(1, 2, block)
    for b in range(extra_blocks):
        blocks += _f(1, 2, _i(1, b + 1) + _i(2, 0))
    return blocks


def _one_op_program(type_: str, attrs: dict, x_dims, binary: bool = False) -> bytes:
    """feed x (and y) -> op -> fetch out."""
    ins = {"X": ["x"], "Y": ["y"]} if binary else {"X": ["x"]}
    feeds = [_op("feed", {"X": ["feed"]}, {"Out": [n]}, {"col": i}) for i, n in enumerate(["x", "y"][:len(ins)])]
    return _program(
        [_var("feed", [], kind=9, persistable=True), _var("fetch", [], kind=10, persistable=True),
         _var("x", x_dims), _var("y", x_dims), _var("out", [])],
        [*feeds, _op(type_, ins, {"Out": ["out"]}, attrs),
         _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})])


X = np.random.RandomState(0).uniform(0.5, 2.0, (2, 3, 4)).astype("float32")
Y = np.where(np.arange(24).reshape(2, 3, 4) % 3 == 0, X, np.float32(1.25))  # some equal, some above / below
# op type -> (attrs, numpy reference); unary ops share one adapter factory, v1 shape ops the v2 adapters,
# the comparisons the adapter of `equal` (which a golden model reaches)
ROWS = {
    "assign": ({}, lambda x: x),
    "ceil": ({}, np.ceil),
    "floor": ({}, np.floor),
    "cos": ({}, np.cos),
    "sin": ({}, np.sin),
    "log": ({}, np.log),
    "reciprocal": ({}, lambda x: 1 / x),
    "rsqrt": ({}, lambda x: 1 / np.sqrt(x)),
    "square": ({}, np.square),
    "silu": ({}, lambda x: x / (1 + np.exp(-x))),  # PaddleClas MobileViT (nn.Silu) saved by 2.6.2's jit.save
    "reduce_min": ({"dim": [1], "keep_dim": False, "reduce_all": False}, lambda x: x.min(axis=1)),
    "reduce_sum": ({"dim": [0, 2], "keep_dim": True, "reduce_all": False, "out_dtype": 6},  # float64 out
                   lambda x: x.astype("float64").sum(axis=(0, 2), keepdims=True)),
    "reshape": ({"shape": [0, -1]}, lambda x: x.reshape(2, 12)),
    "transpose": ({"axis": [1, 0, 2]}, lambda x: x.transpose(1, 0, 2)),
    "squeeze": ({"axes": [0]}, lambda x: x[:1].squeeze(0)),
    "unsqueeze": ({"axes": [0]}, lambda x: x[None]),
    "flatten": ({"axis": 2}, lambda x: x.reshape(6, 4)),
}
BINARY_ROWS = {
    "not_equal": np.not_equal,
    "less_than": np.less,
    "less_equal": np.less_equal,
    "greater_than": np.greater,
    "greater_equal": np.greater_equal,
}


@pytest.mark.parametrize("op_type", sorted(ROWS) + sorted(BINARY_ROWS))
def test_hand_built_one_op_program(op_type):
    import paddle

    paddle.enable_static()
    binary = op_type in BINARY_ROWS
    attrs, ref = ({"axis": -1}, BINARY_ROWS[op_type]) if binary else ROWS[op_type]
    x = X[:1] if op_type == "squeeze" else X
    prog = paddle.static.deserialize_program(_one_op_program(op_type, attrs, [-1, 3, 4], binary))
    exe = paddle.static.Executor(paddle.CPUPlace())
    out, = exe.run(prog, feed={"x": x, "y": Y} if binary else {"x": x}, fetch_list=["out"])
    want = ref(x, Y) if binary else ref(x)
    assert out.shape == want.shape and out.dtype == want.dtype
    np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)


def test_every_supported_op_type_is_tested():
    from paddle_compat.engine.static.pdmodel import SUPPORTED_OP_TYPES

    # fc: test_fused_fc_op; cumsum, set_value: tests/zoo26 (2.6.2 models)
    seen = set(ROWS) | set(BINARY_ROWS) | {"fc", "cumsum", "set_value"}
    for case in ("fluid18", "static26"):
        with open(os.path.join(GOLDENS, "pdmodel", case + ".json"), encoding="utf-8") as f:
            meta = json.load(f)
        for model in meta.values():
            if isinstance(model, dict):
                for form in model.values():
                    if isinstance(form, dict):
                        seen.update(form["op_types"])
    with open(os.path.join(GOLDENS, "inference26.json"), encoding="utf-8") as f:  # tests/inference
        seen.update(json.load(f)["models"]["cond_while"]["op_types"])
    with open(os.path.join(GOLDENS, "pdmodel_more26.json"), encoding="utf-8") as f:  # test_pdmodel_more26.py
        seen.update(t for t, n in json.load(f)["op_counts"].items() if n)
    with open(os.path.join(GOLDENS, "st26_convpool.json"), encoding="utf-8") as f:  # test_st26_convpool_pdmodel.py
        seen.update(t for t, n in json.load(f)["op_counts"].items() if n)
    assert sorted(set(SUPPORTED_OP_TYPES) - seen) == []


def test_loader_errors_are_clear(tmp_path):
    import paddle

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    # an attribute given as a tensor input
    prog = _program([_var("x", [-1, 4]), _var("s", [2], "int64"), _var("out", [])],
                    [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}, {"col": 0}),
                     _op("tile", {"X": ["x"], "RepeatTimes": ["s"]}, {"Out": ["out"]}, {"repeat_times": [2, 2]}),
                     _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})])
    (tmp_path / "shape_tensor.pdmodel").write_bytes(prog)
    with pytest.raises(UnsupportedAPIError, match=r"tile.*shape_tensor\.pdmodel.*\['RepeatTimes'\]"):
        paddle.static.load_inference_model(str(tmp_path / "shape_tensor"), exe)
    # control flow: conditional_block on tensors' non-emptiness (IfElse's LoD form) is not read
    prog = _program([_var("x", [-1, 4]), _var("out", [])],
                    [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}, {"col": 0}),
                     _op("conditional_block", {"Cond": ["x"], "Input": ["x"]}, {"Out": ["out"]},
                         {"is_scalar_condition": False, "sub_block": 1}),
                     _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})], extra_blocks=1)
    with pytest.raises(UnsupportedAPIError, match="conditional_block.*is_scalar_condition=False"):
        paddle.static.deserialize_program(prog)
    # an op reading a variable nobody produces
    prog = _program([_var("x", [-1, 4]), _var("out", [])],
                    [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}, {"col": 0}),
                     _op("elementwise_add", {"X": ["x"], "Y": ["ghost"]}, {"Out": ["out"]}, {"axis": -1}),
                     _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})])
    with pytest.raises(ValueError, match="'ghost'.*neither fed nor persistable"):
        paddle.static.deserialize_program(prog)
    # an op whose registry implementation rejects the shapes: the error names the op and its outputs
    prog = _program([_var("x", [-1, 3]), _var("w", [4, 2], persistable=True), _var("out", [])],
                    [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}, {"col": 0}),
                     _op("mul", {"X": ["x"], "Y": ["w"]}, {"Out": ["out"]}, {"x_num_col_dims": 1, "y_num_col_dims": 1}),
                     _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})])
    with pytest.raises(ValueError, match=r"op 'mul' \(outputs \['out'\]\) of the model \(bytes\) cannot be rebuilt"):
        paddle.static.deserialize_program(prog)


def test_is_parameter_vars_become_parameters(tmp_path):
    """VarDesc.is_parameter (Paddle 2.x) gives a Parameter, as Paddle's own program loading does; other
    persistables stay plain persistable variables. Parameters are read from the combined file by name order."""
    import paddle

    from paddle_compat.engine.static.io import tensor_to_bytes

    paddle.enable_static()
    prog = _program([_var("x", [-1, 3]), _var("w", [3], persistable=True, is_parameter=True),
                     _var("b", [3], persistable=True), _var("t", []), _var("out", [])],
                    [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}, {"col": 0}),
                     _op("elementwise_mul", {"X": ["x"], "Y": ["w"]}, {"Out": ["t"]}, {"axis": -1}),
                     _op("elementwise_add", {"X": ["t"], "Y": ["b"]}, {"Out": ["out"]}, {"axis": -1}),
                     _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})])
    w, b = np.array([1.0, 2.0, 3.0], "float32"), np.array([0.5, 0.0, -0.5], "float32")
    (tmp_path / "m.pdmodel").write_bytes(prog)
    (tmp_path / "m.pdiparams").write_bytes(tensor_to_bytes(b) + tensor_to_bytes(w))  # sorted: b, w
    exe = paddle.static.Executor(paddle.CPUPlace())
    p, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "m"), exe)
    assert [v.name for v in p.all_parameters()] == ["w"]
    assert p.global_block().var("b").persistable and feeds == ["x"] and [v.name for v in fetches] == ["out"]
    x = np.ones((2, 3), "float32")
    out, = exe.run(p, feed={"x": x}, fetch_list=fetches)
    np.testing.assert_array_equal(out, x * w + b)


def test_a_program_desc_whose_second_byte_is_a_brace_is_not_json():
    """A ProgramDesc starts with 0x0A (b'\\n') then the block's length: 123 is b'{'. It must not pass for JSON."""
    import paddle

    paddle.enable_static()
    for m in range(1, 100):  # an unused VarDesc named "p" * m tunes the block's length
        data = _program([_var("x", [-1, 3]), _var("p" * m, [1])],  # no fetch op: "out" is fetched by name
                        [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}), _op("relu", {"X": ["x"]}, {"Out": ["out"]})])
        if data[1:2] == b"{":
            break
    assert data[:2] == b"\n{"
    prog = paddle.static.deserialize_program(data)
    exe = paddle.static.Executor(paddle.CPUPlace())
    out, = exe.run(prog, feed={"x": np.array([[-1.0, 0.0, 2.0]], "float32")}, fetch_list=["out"])
    assert out.tolist() == [[0.0, 0.0, 2.0]]


@pytest.mark.parametrize("act", ["", "relu"])
def test_fused_fc_op(act, tmp_path):
    """`fc` (written by Paddle's inference passes, not by save_inference_model): x flattened at
    in_num_col_dims, @ W, + Bias ([1, N] here), then the activation."""
    import paddle

    from paddle_compat.engine.static.io import tensor_to_bytes

    paddle.enable_static()
    prog = _program([_var("x", [-1, 2, 3]), _var("w", [3, 4], persistable=True), _var("b", [1, 4], persistable=True),
                     _var("out", [])],
                    [_op("feed", {"X": ["feed"]}, {"Out": ["x"]}, {"col": 0}),
                     _op("fc", {"Input": ["x"], "W": ["w"], "Bias": ["b"]}, {"Out": ["out"]},
                         {"in_num_col_dims": 2, "activation_type": act, "padding_weights": False}),
                     _op("fetch", {"X": ["out"]}, {"Out": ["fetch"]}, {"col": 0})])
    rng = np.random.RandomState(1)
    w, b = rng.randn(3, 4).astype("float32"), rng.randn(1, 4).astype("float32")
    (tmp_path / "fc.pdmodel").write_bytes(prog)
    (tmp_path / "fc.pdiparams").write_bytes(tensor_to_bytes(b) + tensor_to_bytes(w))
    exe = paddle.static.Executor(paddle.CPUPlace())
    p, _, fetches = paddle.static.load_inference_model(str(tmp_path / "fc"), exe)
    x = rng.randn(5, 2, 3).astype("float32")
    out, = exe.run(p, feed={"x": x}, fetch_list=fetches)
    want = x @ w + b[0]
    np.testing.assert_allclose(out, np.maximum(want, 0) if act else want, rtol=1e-5, atol=1e-6)
