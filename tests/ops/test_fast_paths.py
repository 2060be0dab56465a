"""Ops that declare a dygraph shortcut (`@op(..., fast=...)`) give exactly what their body gives: value, dtype,
shape and gradient flow, on the common calls the shortcut takes and on calls it must hand to the body."""

from __future__ import annotations

import numpy as np
import pytest

A = np.arange(12, dtype="float32").reshape(3, 4) / 7
B = np.arange(12, dtype="float32").reshape(4, 3) / 5
I = np.arange(12, dtype="int32").reshape(3, 4)

# op type -> calls: (positional arrays, other positional args, keyword args)
CASES = {
    "reshape2": [((A,), ([-1],), {}), ((A,), ([2, -1],), {}), ((A,), ([0, -1],), {}), ((I,), ([4, 3],), {})],
    "transpose2": [((A,), ([1, 0],), {}), ((A,), ([-1, 0],), {})],
    "unsqueeze2": [((A,), (0,), {}), ((A,), (-1,), {}), ((A,), (2,), {}), ((A,), ([0, 2],), {}), ((I,), (-3,), {})],
    "slice": [((A,), ([0], [1], [3]), {}), ((A,), ([1], [-3], [-1]), {}), ((A,), ([1], [2], [1]), {}),
              ((A,), ([0], [-9], [99]), {}), ((A,), ([-1], [1], [2]), {}), ((A,), ([0, 1], [0, 1], [2, 3]), {}),
              ((I,), ([1], [5], [9]), {})],
    "concat": [(([A, A],), (), {}), (([A, A],), (1,), {}), (([A, A],), (), {"axis": -1})],
    "reduce_sum": [((A,), (), {}), ((A,), (), {"axis": 1}), ((A,), (), {"axis": 0, "keepdim": True}),
                   ((I,), (), {"axis": 1}), ((A[0],), (), {"axis": 0}), ((A,), (), {"axis": [0, 1]})],
    "reduce_mean": [((A,), (), {}), ((A,), (), {"axis": 1}), ((A,), (), {"axis": -1, "keepdim": True})],
    "softmax": [((A,), (), {}), ((A,), (0,), {}), ((A,), (), {"axis": 1, "dtype": "float64"}), ((I[0] * 1.0,), (), {})],
    "matmul_v2": [((A, B), (), {}), ((A, A), (), {"transpose_y": True}), ((A, A), (), {"transpose_x": True}),
                  ((A[0], B), (), {})],
}


def _calls():
    return [(t, i) for t, cs in CASES.items() for i in range(len(cs))]


@pytest.mark.parametrize("op_type,i", _calls())
def test_shortcut_equals_body(op_type, i):
    import paddle
    from paddle_compat.engine.framework.registry import OPS

    opdef = OPS[op_type]
    arrays, args, kwargs = CASES[op_type][i]

    def tensors():
        out = []
        for a in arrays:
            if isinstance(a, list):
                out.append([paddle.to_tensor(v, stop_gradient=False) for v in a])
            else:
                out.append(paddle.to_tensor(a, stop_gradient=not np.issubdtype(a.dtype, np.floating)))
        return out

    got_in = tensors()
    got = opdef.public(*got_in, *args, **kwargs)  # the shortcut where it applies
    ref_in = tensors()
    raw = [[v._t for v in x] if isinstance(x, list) else x._t for x in ref_in]
    want = opdef.impl(*raw, *args, **kwargs)  # the body
    assert got._t.dtype == want.dtype and list(got._t.shape) == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want.detach().cpu().numpy())
    assert got._t.requires_grad == want.requires_grad
    if want.requires_grad:
        got._t.sum().backward()
        want.sum().backward()
        flat = lambda xs: [v for x in xs for v in (x if isinstance(x, list) else [x])]  # noqa: E731
        for g, w in zip(flat(got_in), flat(ref_in)):
            if w._t.grad is not None:
                np.testing.assert_array_equal(g._t.grad.cpu().numpy(), w._t.grad.cpu().numpy())


def test_every_shortcut_has_cases():
    from paddle_compat.engine.framework.registry import OPS

    assert sorted(t for t, d in OPS.items() if d.fast is not None) == sorted(CASES)


def test_public_keeps_the_signature_and_defaults():
    import inspect

    from paddle_compat.engine.framework.registry import OPS

    fronted = [d for d in OPS.values() if d.fast is not None or hasattr(d.impl, "__paddle_eager__")]
    assert len(fronted) > 30  # the shortcut ops and the unary table ops
    for opdef in fronted:
        assert inspect.signature(opdef.public) == inspect.signature(opdef.impl), opdef.type


def test_shortcut_must_share_the_body_signature():
    from paddle_compat.engine.framework.dispatch import make_public
    from paddle_compat.engine.framework.registry import OPS

    opdef = OPS["reshape2"]
    bad = type(opdef)(**{**opdef.__dict__, "fast": lambda x, shape: None})
    with pytest.raises(TypeError, match="reshape2.*must have the body's signature"):
        make_public(bad)


def test_shortcut_front_records_in_static_mode():
    import paddle

    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [3, 4], "float32")
            y = paddle.reshape(x, [-1])
            z = paddle.concat([x, x], axis=1)
        assert y.shape == (12,) or list(y.shape) == [12]
        assert list(z.shape) == [3, 8]
        out = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": A}, fetch_list=[y, z])
        np.testing.assert_array_equal(out[0], A.reshape(-1))
        np.testing.assert_array_equal(out[1], np.concatenate([A, A], 1))
    finally:
        paddle.disable_static()


def _logits(gap: float) -> np.ndarray:
    x = np.random.RandomState(3).standard_normal((4, 5)).astype("float32")
    x[1, 2] += gap  # a gap over 64 makes Paddle's softmax clip the row's other probabilities
    return x


def _probs(zero: bool) -> np.ndarray:
    p = np.random.RandomState(4).rand(4, 5).astype("float32") + 0.05
    p /= p.sum(1, keepdims=True)
    if zero:
        p[2, 1] = 0.0  # -log(0): Paddle's TolerableValue
    return p


# name -> (function of torch tensors, inputs); labels [4, 1] with class 1 in row 2
_LABEL = np.array([[0], [3], [1], [4]], dtype="int64")
_IGNORED = np.array([[0], [-100], [1], [4]], dtype="int64")
VALUE_SHORTCUTS = {
    "softmax": ("softmax", [_logits(0.0)]),
    "softmax, clipped row": ("softmax", [_logits(90.0)]),
    "softmax, spread just under the clip": ("softmax", [_logits(60.0)]),
    "softmax, spread just over the clip": ("softmax", [_logits(66.0)]),
    "softmax, a NaN logit": ("softmax", [_logits(float("nan"))]),
    "log_softmax": ("log_softmax", [_logits(0.0)]),
    "log_softmax, clipped row": ("log_softmax", [_logits(90.0)]),
    "cross_entropy": ("cross_entropy", [_probs(False), _LABEL]),
    "cross_entropy, p = 0": ("cross_entropy", [_probs(True), _LABEL]),
    "cross_entropy, ignored row": ("cross_entropy", [_probs(False), _IGNORED]),
    "cross_entropy, soft label with p = 0": ("cross_entropy_soft", [_probs(True), _probs(False)]),
    "softmax_with_cross_entropy": ("swce", [_logits(0.0), _LABEL]),
    "softmax_with_cross_entropy, clipped, ignored": ("swce", [_logits(90.0), _IGNORED]),
}


@pytest.mark.parametrize("case", list(VALUE_SHORTCUTS))
def test_value_shortcuts_keep_the_bits(monkeypatch, case):
    """On CPU, softmax, the clip of log_softmax, TolerableValue and ignore_index skip their ops when the values
    show they would change nothing (engine/ops/common.values_readable): the same values and gradients,
    bit for bit, as the full formulas (run here as under torch.compile, where the shortcuts are off)."""
    import torch
    from paddle_compat.engine.ops.nn_functional import activation as A_, loss as L

    kind, arrays = VALUE_SHORTCUTS[case]
    ce, swce = L.cross_entropy_probs.__paddle_op__.impl, L.softmax_with_cross_entropy.__paddle_op__.impl
    fns = {
        "softmax": lambda x: A_.paddle_softmax(x, 1),
        "log_softmax": lambda x: L.paddle_log_softmax(x, 1),
        "cross_entropy": lambda p, y: ce(p, y),
        "cross_entropy_soft": lambda p, y: ce(p, y, soft_label=True),
        "swce": lambda x, y: swce(x, y),
    }

    def run(full: bool):
        with monkeypatch.context() as m:
            if full:
                m.setattr(torch.compiler, "is_compiling", lambda: True)
            ins = [torch.tensor(a, requires_grad=a.dtype == np.float32) for a in arrays]
            out = fns[kind](*ins)
            up = torch.tensor(np.random.RandomState(5).standard_normal(tuple(out.shape)).astype("float32"))
            (out * up).sum().backward()
            return out.detach(), [t.grad for t in ins if t.requires_grad]

    (got, got_g), (want, want_g) = run(False), run(True)
    assert torch.equal(got, want) or (torch.isnan(got) == torch.isnan(want)).all() and torch.equal(
        got.nan_to_num(), want.nan_to_num())
    for g, w in zip(got_g, want_g):
        assert torch.equal(g.nan_to_num(), w.nan_to_num()) and torch.equal(g.isnan(), w.isnan())


# x[item] through Tensor.__getitem__'s fast path (basic items) and through the getitem op's body
ITEMS = [0, -1, 2, slice(1, 3), slice(None, None, 2), slice(-9, 99), slice(3, 1), (slice(None), slice(1, 3)),
         (0, 1), (-1, -1), (None, 0), (Ellipsis, 1), (slice(None), None, 2), slice(None, None, -1),
         (slice(None), slice(3, 0, -2)), (0, [1, 2]), True]


@pytest.mark.parametrize("item", ITEMS, ids=repr)
def test_getitem_fast_equals_body(item):
    import paddle
    from paddle_compat.engine.ops.tensor.indexing import encode_index, getitem

    x, y = paddle.to_tensor(A, stop_gradient=False), paddle.to_tensor(A, stop_gradient=False)
    got, want = x[item], getitem(y, encode_index(item))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.grad.numpy())
