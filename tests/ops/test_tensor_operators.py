"""Tensor operators, indexing and assignment, in dygraph and static mode, with Paddle 2.4's dtype rules:
a float scalar makes an int tensor float32, `/` on ints computes in float32, a right operand of another
dtype is cast to the left's dtype (with a warning), while paddle.add & co. raise on mixed dtypes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

A = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], "float32")
B = np.array([[2.0, 1.0, -3.0], [0.5, 2.0, 2.0]], "float32")
IA = np.array([[1, -2, 3], [7, 4, -5]], "int64")
IB = np.array([[2, 1, 3], [2, 3, 2]], "int64")
MASK = np.array([[True, False, True], [False, True, True]])


def run_both(fn, *arrays):
    """fn over Tensors in dygraph, and recorded + executed in a static Program: both results."""
    import paddle

    dy = fn(*[paddle.to_tensor(a) for a in arrays])
    dy = [d.numpy() for d in dy] if isinstance(dy, (list, tuple)) else [dy.numpy()]
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xs = [paddle.static.data(f"x{i}", list(a.shape), str(a.dtype)) for i, a in enumerate(arrays)]
            out = fn(*xs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        st = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={f"x{i}": a for i, a in enumerate(arrays)},
                                                           fetch_list=outs)
    finally:
        paddle.disable_static()
    return dy, st


def check(fn, want, *arrays):
    dy, st = run_both(fn, *arrays)
    want = want if isinstance(want, list) else [want]
    for d, s, w in zip(dy, st, want):
        w = np.asarray(w)
        assert d.dtype == w.dtype and s.dtype == w.dtype, (d.dtype, s.dtype, w.dtype)
        assert d.shape == w.shape and s.shape == w.shape, (d.shape, s.shape, w.shape)
        np.testing.assert_allclose(d, w, rtol=1e-6)
        np.testing.assert_allclose(s, w, rtol=1e-6)


OPS = [
    ("add", lambda x, y: x + y, np.add), ("sub", lambda x, y: x - y, np.subtract),
    ("mul", lambda x, y: x * y, np.multiply), ("div", lambda x, y: x / y, np.divide),
    ("pow", lambda x, y: abs(x) ** y, lambda x, y: np.abs(x) ** y),
    ("floordiv", lambda x, y: x // y, np.floor_divide), ("mod", lambda x, y: x % y, np.mod),
    ("matmul", lambda x, y: x @ y.T, lambda x, y: x @ y.T),
]


@pytest.mark.parametrize("name,fn,ref", OPS, ids=[o[0] for o in OPS])
def test_binary_operators_float(name, fn, ref):
    check(fn, ref(A, B).astype("float32"), A, B)


@pytest.mark.parametrize("expr,want", [
    (lambda x: x + 1, IA + 1), (lambda x: 1 - x, 1 - IA), (lambda x: x * 2, IA * 2),
    (lambda x: x + 1.5, (IA + 1.5).astype("float32")),  # float scalar: int tensor -> float32
    (lambda x: x / 2, (IA / 2).astype("float32")), (lambda x: 6 / x, (6 / IA).astype("float32")),
    (lambda x: x // 2, IA // 2), (lambda x: x % 3, IA % 3), (lambda x: 2 ** abs(x), 2 ** np.abs(IA)),
    (lambda x: -x, -IA), (lambda x: abs(x), np.abs(IA)),
], ids=["add", "rsub", "mul", "add_float", "div", "rdiv", "floordiv", "mod", "rpow", "neg", "abs"])
def test_operators_with_scalars_int(expr, want):
    check(expr, want, IA)


def test_int_tensor_division_is_float32():
    check(lambda x, y: x / y, (IA / IB).astype("float32"), IA, IB)


def test_mixed_dtypes_operator_casts_right_to_left_with_warning():
    with pytest.warns(UserWarning, match="right dtype will convert to"):
        check(lambda x, y: x + y, (A + IB.astype("float32")).astype("float32"), A, IB)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda x, y: x * y, (IB * A.astype("int64")), IB, A)


def test_functions_raise_on_mixed_dtypes():
    import paddle

    for fn in (paddle.add, paddle.subtract, paddle.multiply, paddle.divide, paddle.equal, paddle.less_than):
        with pytest.raises(ValueError, match=fn.__name__):
            fn(paddle.to_tensor(A), paddle.to_tensor(IB))


@pytest.mark.parametrize("name,fn,ref", [
    ("eq", lambda x, y: x == y, np.equal), ("ne", lambda x, y: x != y, np.not_equal),
    ("lt", lambda x, y: x < y, np.less), ("le", lambda x, y: x <= y, np.less_equal),
    ("gt", lambda x, y: x > y, np.greater), ("ge", lambda x, y: x >= y, np.greater_equal),
], ids=lambda v: v if isinstance(v, str) else "")
def test_comparisons_return_bool(name, fn, ref):
    check(fn, ref(IA, IB), IA, IB)
    check(lambda x: fn(x, 3), ref(IA, 3), IA)


def test_bitwise_and_logical_operators():
    m2 = MASK[::-1].copy()
    check(lambda x, y: [x & y, x | y, x ^ y, ~x], [MASK & m2, MASK | m2, MASK ^ m2, ~MASK], MASK, m2)
    check(lambda x, y: [x & y, x | y, x ^ y, ~x], [IA & IB, IA | IB, IA ^ IB, ~IA], IA, IB)


# --- indexing ------------------------------------------------------------------------------------
X = np.arange(24, dtype="float32").reshape(2, 3, 4)
GET = [
    ("int", lambda x: x[1], X[1]), ("all_ints", lambda x: x[1, 2, 3], X[1, 2, 3].reshape(1)),
    ("slices", lambda x: x[:, 1:, ::2], X[:, 1:, ::2]), ("neg", lambda x: x[-1, :-1], X[-1, :-1]),
    ("ellipsis", lambda x: x[..., 1], X[..., 1]), ("none", lambda x: x[None, 0], X[None, 0]),
    ("list", lambda x: x[:, [0, 2]], X[:, [0, 2]]),
    ("neg_step", lambda x: x[::-1, :, ::-2], X[::-1, :, ::-2]), ("neg_step_range", lambda x: x[1, 2:0:-1], X[1, 2:0:-1]),
    ("neg_step_ellipsis", lambda x: x[..., None, 3::-3], X[..., None, 3::-3]),
]


@pytest.mark.parametrize("name,fn,want", GET, ids=[g[0] for g in GET])
def test_getitem(name, fn, want):
    check(fn, want, X)


def test_getitem_with_tensors():
    idx = np.array([1, 0, 1], "int64")
    check(lambda x, i: x[i], X[idx], X, idx)
    m = X[0] > 5
    check(lambda x, mm: x[mm], X[0][m], X[0], m)


SET = [
    ("scalar", lambda x: _set(x, (0, 1), 9.0), (0, 1), 9.0),
    ("slice", lambda x: _set(x, (slice(None), slice(1, 3)), -1.0), (slice(None), slice(1, 3)), -1.0),
    ("row", lambda x: _set(x, 1, np.arange(4, dtype="float32")), 1, np.arange(4, dtype="float32")),
    ("neg_step", lambda x: _set(x, (slice(None), slice(None, None, -2)), np.arange(2, dtype="float32")),
     (slice(None), slice(None, None, -2)), np.arange(2, dtype="float32")),
]


def _set(x, index, value):
    x = x * 1.0  # a computed copy (static: not a data variable)
    x[index] = value
    return x


@pytest.mark.parametrize("name,fn,index,value", SET, ids=[s[0] for s in SET])
def test_setitem(name, fn, index, value):
    want = X[0].copy()
    want[index] = value
    check(fn, want, X[0])


def test_setitem_on_data_variable_and_with_mask():
    import paddle

    def fn(x):
        x[x > 5] = 0.0
        x[0] = paddle.full([4], 7.0)
        return x

    want = X[0].copy()
    want[want > 5] = 0.0
    want[0] = 7.0
    check(fn, want, X[0])


def test_getitem_setitem_gradients():
    import paddle

    x = paddle.to_tensor(X[0], stop_gradient=False)
    y = x * 2.0
    y[0, 1:3] = 0.0
    (y[:, 1:].sum() + x[1].sum()).backward()
    g = np.zeros((3, 4), "float32")
    g[:, 1:] += 2.0
    g[0, 1:3] = 0.0
    g[1] += 1.0
    np.testing.assert_allclose(x.grad.numpy(), g)


def test_inplace_add_returns_x_and_refuses_broadcasting_x():
    import paddle

    x = paddle.to_tensor(A)
    out = x.add_(paddle.to_tensor(B[0]))
    assert out is x
    np.testing.assert_allclose(x.numpy(), A + B[0])
    with pytest.raises(ValueError, match="in-place"):
        paddle.to_tensor(B[0]).add_(paddle.to_tensor(A))


def test_seed_makes_random_ops_reproducible():
    import paddle

    paddle.seed(7)
    a = [paddle.rand([3]).numpy(), paddle.randint(0, 100, [3]).numpy(), paddle.randn([2]).numpy()]
    paddle.seed(7)
    b = [paddle.rand([3]).numpy(), paddle.randint(0, 100, [3]).numpy(), paddle.randn([2]).numpy()]
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


def test_logical_ops_write_into_out():
    import paddle

    def fn(x, y):
        out = paddle.logical_and(x, x)  # a bool holder to overwrite
        r = paddle.logical_or(x, y, out=out)
        assert r is out
        return [out, paddle.logical_not(y, out=paddle.logical_and(y, y))]

    check(fn, [MASK | MASK[::-1], ~MASK[::-1]], MASK, MASK[::-1].copy())  # dygraph and static


def test_numpy_operands_defer_to_tensor_operators():
    import paddle

    x = paddle.to_tensor(A)
    for got, want in [(B + x, B + A), (B - x, B - A), (x * B, A * B), (np.float32(2) * x, 2 * A),
                      (B < x, B < A), (x / np.float64(2.0), A / 2)]:
        assert isinstance(got, paddle.Tensor)
        assert got.dtype == (paddle.bool if want.dtype == bool else paddle.float32)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_creation_default_dtypes_follow_paddle_24():
    """full / zeros / ones / eye / linspace default to float32; empty / rand / randn / uniform follow
    get_default_dtype(); arange defaults to int64 (even for float bounds)."""
    import paddle

    paddle.set_default_dtype("float64")
    try:
        for t in (paddle.full([2], 1.0), paddle.zeros([2]), paddle.ones([2]), paddle.eye(2), paddle.linspace(0, 1, 3)):
            assert t.dtype == paddle.float32
        for t in (paddle.empty([2]), paddle.rand([2]), paddle.randn([2]), paddle.uniform([2])):
            assert t.dtype == paddle.float64
        assert paddle.arange(0.5, 3.0).dtype == paddle.int64
    finally:
        paddle.set_default_dtype("float32")


def test_static_reshape_expand_with_unknown_batch_dim():
    """Explicit target shapes hold where the input's batch dim is unknown (-1), as Paddle records them."""
    import paddle

    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 4], "float32")
            v = paddle.static.data("v", [-1, 1], "float32")
            outs = [paddle.reshape(x, [2, 6]), paddle.reshape(x, [-1, 2, 2]), paddle.reshape(x, [0, 2, 2]),
                    paddle.expand(paddle.unsqueeze(x, 0), [3, -1, 4]), paddle.broadcast_to(v, [-1, 5]),
                    paddle.reshape(x, paddle.shape(x))]
            assert [tuple(o.shape) for o in outs] == [(2, 6), (-1, 2, 2), (-1, 2, 2), (3, -1, 4), (-1, 5), (-1, -1)]
        res = paddle.static.Executor().run(main, feed={"x": np.ones((3, 4), "float32"),
                                                       "v": np.ones((2, 1), "float32")}, fetch_list=outs)
        assert [r.shape for r in res] == [(2, 6), (3, 2, 2), (3, 2, 2), (3, 3, 4), (2, 5), (3, 4)]
    finally:
        paddle.disable_static()


def test_static_slice_with_variable_bounds():
    import paddle

    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 6], "float32")
            n = paddle.static.data("n", [1], "int64")
            y = x[:, 1:n]
            z = x[0, ..., :n]
            assert tuple(y.shape) == (-1, -1) and tuple(z.shape) == (-1,)
        xv = np.arange(18, dtype="float32").reshape(3, 6)
        ry, rz = paddle.static.Executor().run(main, feed={"x": xv, "n": np.array([4], "int64")}, fetch_list=[y, z])
        np.testing.assert_array_equal(ry, xv[:, 1:4])
        np.testing.assert_array_equal(rz, xv[0, :4])
    finally:
        paddle.disable_static()
