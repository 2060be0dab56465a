"""Generic tests over every row of the op table (optable.py): reference values, static == dygraph, inferred
spec == real output, method == function, in-place variant, gradients, error cases."""

from __future__ import annotations

import glob
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from optable import all_rows, densify, golden_key, sparsify  # noqa: E402

from paddle_compat.engine.core.api_level import LEVEL  # noqa: E402 - the level of this process (PADDLE_COMPAT_API_LEVEL)

ROWS = all_rows()
GOLDEN_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "ops26.npz")
_GOLDEN = dict(np.load(GOLDEN_PATH)) if os.path.exists(GOLDEN_PATH) else {}
# rows_functional.py and the rows modules naming their own GOLDEN keep their goldens in their own files
for _path in sorted(glob.glob(os.path.join(os.path.dirname(GOLDEN_PATH), "ops26_*.npz"))):
    _GOLDEN.update(np.load(_path))
_GRAD_KEYS = [k for k in _GOLDEN if "|grad" in k]


def _resolve(api: str):
    import importlib

    mod, _, name = api.rpartition(".")
    return getattr(importlib.import_module(mod), name)


def _cases(test: str):
    out = []
    for row in ROWS:
        for s in row.samples(np.random.RandomState(0)):
            marks = []
            if test in row.xfail:
                marks.append(pytest.mark.xfail(reason=row.xfail[test], strict=True))
            out.append(pytest.param(row, s, id=f"{row.api}[{s.id}]", marks=marks))
    return out


def _to_paddle(a):
    import paddle

    if isinstance(a, np.ndarray):
        return paddle.to_tensor(a)
    if isinstance(a, list) and a and all(isinstance(x, np.ndarray) for x in a):
        return [paddle.to_tensor(x) for x in a]
    return a


def _outputs(r):
    if isinstance(r, (list, tuple)):
        return [np.asarray(x.numpy() if hasattr(x, "numpy") else x) for x in r]
    return [np.asarray(r.numpy() if hasattr(r, "numpy") else r)]


def _run_dygraph(row, s):
    import paddle

    fn = _resolve(row.api)
    args = sparsify(paddle, row, [_to_paddle(a) for a in s.args])
    return densify(fn(*args, **{k: _to_paddle(v) for k, v in s.kwargs.items()}))


def _compare(row, got, want, golden=False):
    """Values and shapes; with a golden from real Paddle also the dtype."""
    assert len(got) == len(want), f"{row.api}: {len(got)} outputs, expected {len(want)}"
    for g, w in zip(got, want):
        w = np.asarray(w)
        if golden:
            assert g.dtype == w.dtype, f"{row.api}: dtype {g.dtype}, Paddle gives {w.dtype}"
        if w.shape == () and g.shape == (1,) and not LEVEL.zero_d:
            g = g.reshape(())  # Paddle 2.6 golden is 0-D where 2.4 (and we) give [1]; at API level 2.6 the same
        elif w.shape == (1,) and g.shape == () and LEVEL.zero_d and not golden:
            g = g.reshape(1)  # a numpy reference written for 2.4's [1]
        assert g.shape == w.shape, f"{row.api}: shape {g.shape}, expected {w.shape}"
        if row.random:
            continue
        if g.dtype.kind not in "bc":
            g = g.astype(np.float64)
        np.testing.assert_allclose(g, w, rtol=row.rtol, atol=row.atol)


@pytest.mark.parametrize("row,sample", _cases("reference"))
def test_reference(row, sample):
    got = _outputs(_run_dygraph(row, sample))
    golden = row.ref is None
    if not golden:
        want = row.ref(*sample.args, **sample.kwargs)
        want = list(want) if isinstance(want, (list, tuple)) else [want]
    else:
        keys = [golden_key(row.api, sample.id, i) for i in range(len(got))]
        if keys[0] not in _GOLDEN:
            pytest.skip(f"no numpy reference and no golden recorded for {row.api}")
        want = [_GOLDEN[k] for k in keys]
    if row.canon is not None:
        got, want = row.canon(got), row.canon(want)
    _compare(row, got, want, golden=golden)


def _data_vars():
    """(feeds, to_var): to_var turns a sample's numpy arrays (and lists of them) into static data variables
    named in_0, in_1, ... and records the arrays to feed; other values pass through."""
    import paddle

    feeds = {}

    def to_var(a):
        if isinstance(a, np.ndarray):
            name = f"in_{len(feeds)}"
            feeds[name] = a
            return paddle.static.data(name, list(a.shape), str(a.dtype))
        if isinstance(a, list) and a and all(isinstance(x, np.ndarray) for x in a):
            return [to_var(x) for x in a]
        return a

    return feeds, to_var


def _static_run(row, s):
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    feeds, to_var = _data_vars()

    with paddle.static.program_guard(main, startup):
        out = _resolve(row.api)(*[to_var(a) for a in s.args], **{k: to_var(v) for k, v in s.kwargs.items()})
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    res = exe.run(main, feed=feeds, fetch_list=outs)
    return outs, res


@pytest.mark.parametrize("row,sample", [c for c in _cases("static") if c.values[0].static])
def test_static_matches_dygraph(row, sample):
    dy = _outputs(_run_dygraph(row, sample))
    outs, res = _static_run(row, sample)
    for v, r, d in zip(outs, res, dy):
        assert list(r.shape) == list(d.shape), f"{row.api}: static shape {r.shape} vs dygraph {d.shape}"
        assert r.dtype == d.dtype, f"{row.api}: static dtype {r.dtype} vs dygraph {d.dtype}"
        # the inferred spec of the recorded Variable equals the real output
        # (-1 marks a data-dependent dim: nonzero, unique, masked_select)
        assert len(v.shape) == r.ndim and all(a in (-1, b) for a, b in zip(v.shape, r.shape)), \
            f"{row.api}: inferred shape {v.shape} vs real {r.shape}"
        assert v.dtype.name == str(r.dtype) or (v.dtype.name == "bool" and r.dtype == np.bool_)
        if not row.random:
            np.testing.assert_allclose(r, d, rtol=row.rtol, atol=row.atol)


@pytest.mark.parametrize("row,sample", [c for c in _cases("method") if c.values[0].method])
def test_method_matches_function(row, sample):
    args = [_to_paddle(a) for a in sample.args]
    kwargs = {k: _to_paddle(v) for k, v in sample.kwargs.items()}
    by_fn = _outputs(_resolve(row.api)(*args, **kwargs))
    by_method = _outputs(getattr(args[0], row.method)(*args[1:], **kwargs))
    if not row.random:  # equal up to the row's tolerance: LAPACK solvers (lstsq) are not bit-reproducible
        for a, b in zip(by_fn, by_method):
            np.testing.assert_allclose(a, b, rtol=row.rtol, atol=row.atol)


@pytest.mark.parametrize("row,sample", [c for c in _cases("inplace") if c.values[0].inplace])
def test_inplace_variant(row, sample):
    args = [_to_paddle(a) for a in sample.args]
    kwargs = {k: _to_paddle(v) for k, v in sample.kwargs.items()}
    want = _outputs(_resolve(row.api)(*args, **kwargs))
    x = args[0]
    mod_fn = getattr(__import__(row.module, fromlist=["_"]), row.inplace, None)
    out = mod_fn(*args, **kwargs) if mod_fn is not None else getattr(x, row.inplace)(*args[1:], **kwargs)
    assert out is x, f"{row.inplace} must return its input"
    if not row.random:
        np.testing.assert_allclose(x.numpy(), want[0], rtol=row.rtol, atol=row.atol)


def _has_float_array(sample) -> bool:
    return any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args)


@pytest.mark.parametrize("row,sample", [c for c in _cases("grad") if c.values[0].grad and _has_float_array(c.values[1])])
def test_gradient_matches_finite_differences(row, sample):
    import paddle

    fn = _resolve(row.api)
    arrays = [i for i, a in enumerate(sample.args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]

    def scalar(args_np):
        out = fn(*[_to_paddle(a) for a in args_np], **{k: _to_paddle(v) for k, v in sample.kwargs.items()})
        out = out[0] if isinstance(out, (list, tuple)) else out
        return float(out.astype("float64").sum().numpy().reshape(-1)[0])

    args64 = [a.astype(np.float64) if i in arrays else a for i, a in enumerate(sample.args)]
    tensors = [paddle.to_tensor(a, stop_gradient=i not in arrays) if isinstance(a, np.ndarray) else _to_paddle(a)
               for i, a in enumerate(args64)]
    out = fn(*tensors, **{k: _to_paddle(v) for k, v in sample.kwargs.items()})
    out = out[0] if isinstance(out, (list, tuple)) else out
    out.sum().backward()
    eps = 1e-6
    for i in arrays:
        g = tensors[i].grad
        analytic = np.zeros_like(args64[i]) if g is None else g.numpy()  # no path to the output: zero
        numeric = np.zeros_like(args64[i])
        flat = numeric.reshape(-1)
        for j in range(flat.size):
            plus = [a.copy() if isinstance(a, np.ndarray) else a for a in args64]
            minus = [a.copy() if isinstance(a, np.ndarray) else a for a in args64]
            plus[i].reshape(-1)[j] += eps
            minus[i].reshape(-1)[j] -= eps
            flat[j] = (scalar(plus) - scalar(minus)) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-4, atol=1e-5, err_msg=f"{row.api} grad of arg {i}")


@pytest.mark.parametrize("row,sample", [c for c in _cases("grad_golden") if c.values[0].grad
                                        and any(k.startswith(f"{c.values[0].api}|{c.values[1].id}|grad") for k in _GRAD_KEYS)])
def test_gradient_matches_paddle(row, sample):
    """The gradient of the sum of the float outputs equals real Paddle's (goldens "<api>|<id>|grad<k>"): Paddle's conventions
    at ties and kinks (amax, cummax, kthvalue, frac, ...) are not what finite differences check."""
    import paddle

    fn = _resolve(row.api)
    floats = [i for i, a in enumerate(sample.args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    args = [paddle.to_tensor(a, stop_gradient=i not in floats) if isinstance(a, np.ndarray) else _to_paddle(a)
            for i, a in enumerate(sample.args)]
    out = fn(*args, **{k: _to_paddle(v) for k, v in sample.kwargs.items()})
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    sum(o.astype("float64").sum() for o in outs if o.dtype in (paddle.float32, paddle.float64)).backward()
    for i in floats:
        key = f"{row.api}|{sample.id}|grad{i}"
        if key in _GOLDEN:
            g = args[i].grad
            got = np.zeros_like(sample.args[i]) if g is None else g.numpy()
            np.testing.assert_allclose(got, _GOLDEN[key], rtol=max(row.rtol, 1e-4), atol=max(row.atol, 1e-5),
                                       err_msg=f"{row.api} gradient of arg {i}")


@pytest.mark.parametrize("row,err", [pytest.param(r, e, id=f"{r.api}[err{i}]") for r in ROWS
                                     for i, e in enumerate(r.errors)])
def test_error_cases(row, err):
    with pytest.raises(err.exc, match=err.match):
        _resolve(row.api)(*[_to_paddle(a) for a in err.args], **{k: _to_paddle(v) for k, v in err.kwargs.items()})


@pytest.mark.parametrize("row,sample", [c for c in _cases("inplace") if c.values[0].inplace and c.values[0].static])
def test_inplace_variant_static(row, sample):
    """Static mode: as Paddle's inplace_apis_in_dygraph_only, the in-place variant is the out-of-place op (a new
    variable; x keeps its value; tests/api2x/test_paddletest26.py `static_inplace_is_out_of_place`)."""
    import paddle

    want = _outputs(_run_dygraph(row, sample))[0]
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    feeds, to_var = _data_vars()

    with paddle.static.program_guard(main, startup):
        args = [to_var(a) for a in sample.args]
        x = paddle.assign(args[0])  # a computed variable, as in-place ops in user programs usually are
        kwargs = {k: to_var(v) for k, v in sample.kwargs.items()}
        mod_fn = getattr(__import__(row.module, fromlist=["_"]), row.inplace, None)
        with pytest.warns(UserWarning, match="does not perform inplace operation"):
            out = (mod_fn(x, *args[1:], **kwargs) if mod_fn is not None
                   else getattr(x, row.inplace)(*args[1:], **kwargs))
        assert out is not x, f"{row.inplace} is out of place in static mode"
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    got, kept = exe.run(main, feed=feeds, fetch_list=[out, x])
    np.testing.assert_allclose(kept, np.asarray(sample.args[0]), rtol=1e-6)
    assert got.shape == want.shape
    if not row.random:
        np.testing.assert_allclose(got, want, rtol=row.rtol, atol=row.atol)
