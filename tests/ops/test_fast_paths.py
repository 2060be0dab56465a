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
    from paddle_compat.ops.registry import OPS

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
    from paddle_compat.ops.registry import OPS

    assert sorted(t for t, d in OPS.items() if d.fast is not None) == sorted(CASES)


def test_public_keeps_the_signature_and_defaults():
    import inspect

    from paddle_compat.ops.registry import OPS

    fronted = [d for d in OPS.values() if d.fast is not None or hasattr(d.impl, "__paddle_eager__")]
    assert len(fronted) > 30  # the shortcut ops and the unary table ops
    for opdef in fronted:
        assert inspect.signature(opdef.public) == inspect.signature(opdef.impl), opdef.type


def test_shortcut_must_share_the_body_signature():
    from paddle_compat.framework.dispatch import make_public
    from paddle_compat.ops.registry import OPS

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
