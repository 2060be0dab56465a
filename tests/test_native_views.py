"""The optional native view ops (engine/core/native, built by tools/build_native.py) against the pure-Python path.

Every call runs twice, with the native functions on and switched off (`set_enabled(False)`: each then declines and
the pure-Python path runs as in a checkout where the module was never built), and both give the same value, shape,
dtype, stop_gradient, gradient and view of the input; bad input gets the same Paddle error on both. The native half
is skipped, with the reason, where the module is not built; the pure-Python half always runs."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import paddle
from paddle_compat.engine.core import native

NAT = native.MODULE
NOT_BUILT = "the native view ops are not built here (python tools/build_native.py; or PADDLE_COMPAT_NATIVE=0)"
needs_native = pytest.mark.skipif(NAT is None, reason=NOT_BUILT)

A = (np.arange(24, dtype="float32").reshape(2, 3, 4) - 5) / 7
V = np.arange(5, dtype="float32") / 3  # 1-D: x[0] is a one-element result

# name -> (input array, the call, the native function taking it or None where native must decline)
CASES = {
    "reshape -1": (A, lambda x: paddle.reshape(x, [-1]), "reshape"),
    "reshape 2 -1": (A, lambda x: paddle.reshape(x, [4, -1]), "reshape"),
    "reshape method": (A, lambda x: x.reshape([6, 4]), "reshape"),
    "reshape 0 (python)": (A, lambda x: paddle.reshape(x, [0, -1]), None),
    "reshape tuple (python)": (A, lambda x: paddle.reshape(x, (3, 8)), None),
    "reshape np int (python)": (A, lambda x: paddle.reshape(x, [np.int64(3), 8]), None),
    "reshape keyword": (A, lambda x: paddle.reshape(x=x, shape=[24]), "reshape"),
    "transpose": (A, lambda x: paddle.transpose(x, [2, 0, 1]), "transpose"),
    "transpose negative": (A, lambda x: paddle.transpose(x, [-1, 1, 0]), "transpose"),
    "transpose method": (A, lambda x: x.transpose([1, 0, 2]), "transpose"),
    "transpose tuple (python)": (A, lambda x: paddle.transpose(x, (1, 0, 2)), None),
    "unsqueeze 0": (A, lambda x: paddle.unsqueeze(x, 0), "unsqueeze"),
    "unsqueeze -1": (A, lambda x: paddle.unsqueeze(x, -1), "unsqueeze"),
    "unsqueeze list": (A, lambda x: paddle.unsqueeze(x, [0, -1, 2]), "unsqueeze"),
    "unsqueeze method": (A, lambda x: x.unsqueeze(3), "unsqueeze"),
    "unsqueeze empty (python)": (A, lambda x: paddle.unsqueeze(x, []), None),
    "unsqueeze tuple (python)": (A, lambda x: paddle.unsqueeze(x, (0, 1)), None),
    "slice": (A, lambda x: paddle.slice(x, [1], [1], [3]), "slice"),
    "slice negative": (A, lambda x: paddle.slice(x, [2], [-3], [-1]), "slice"),
    "slice clamped": (A, lambda x: paddle.slice(x, [0], [-9], [99]), "slice"),
    "slice empty": (A, lambda x: paddle.slice(x, [2], [3], [1]), "slice"),
    "slice method": (A, lambda x: x.slice([0], [1], [2]), "slice"),
    "slice two axes (python)": (A, lambda x: paddle.slice(x, [0, 1], [0, 1], [1, 3]), None),
    "x[0]": (A, lambda x: x[0], "getitem"),
    "x[-1]": (A, lambda x: x[-1], "getitem"),
    "x[1:]": (A, lambda x: x[1:], "getitem"),
    "x[:]": (A, lambda x: x[:], "getitem"),
    "x[:, 1:3]": (A, lambda x: x[:, 1:3], "getitem"),
    "x[..., ::2]": (A, lambda x: x[..., ::2], "getitem"),
    "x[None, 1, ..., 2]": (A, lambda x: x[None, 1, ..., 2], "getitem"),
    "x[0, 1, 2]": (A, lambda x: x[0, 1, 2], "getitem"),
    "x[...] (python)": (A, lambda x: x[...], None),
    "x[1, -9:9:3]": (A, lambda x: x[1, -9:9:3], "getitem"),
    "v[0] (one element)": (V, lambda x: x[0], "getitem"),
    "v[-2:] ": (V, lambda x: x[-2:], "getitem"),
    "x[::-1] (python)": (A, lambda x: x[::-1], None),
    "x[[0, 1]] (python)": (A, lambda x: x[[0, 1]], None),
    "x[True] (python)": (A, lambda x: x[True], None),
    "x[None] (python)": (A, lambda x: x[None], None),
    "x[..., 0, ...] (python)": (A, lambda x: x[..., 0, ...], None),
}

# name -> (the call with bad input, the input array)
ERRORS = {
    "reshape bad product": (lambda x: paddle.reshape(x, [5, 7]), A),
    "reshape two -1": (lambda x: paddle.reshape(x, [-1, -1]), A),
    "reshape negative": (lambda x: paddle.reshape(x, [-2, 12]), A),
    "transpose repeated axis": (lambda x: paddle.transpose(x, [0, 0, 1]), A),
    "transpose short perm": (lambda x: paddle.transpose(x, [1, 0]), A),
    "transpose out of range": (lambda x: paddle.transpose(x, [0, 1, 3]), A),
    "unsqueeze out of range": (lambda x: paddle.unsqueeze(x, 5), A),
    "unsqueeze list out of range": (lambda x: paddle.unsqueeze(x, [0, 9]), A),
    "slice axis past rank": (lambda x: paddle.slice(x, [5], [0], [1]), A),
    "index out of range": (lambda x: x[10], A),
    "index past rank": (lambda x: x[0, 0, 0, 0], A),
    "index out of range in dim 1": (lambda x: x[:, 7], A),
}


pytestmark = pytest.mark.usefixtures("no_integer_gradients")  # tests/conftest.py


@pytest.fixture(params=["native", "python"])
def path(request):
    """Which path runs: "native" (skipped where the module is not built) or "python" (the native functions off)."""
    if request.param == "native":
        if NAT is None:
            pytest.skip(NOT_BUILT)
        yield "native"
    elif NAT is None:
        yield "python"
    else:
        prev = NAT.set_enabled(False)
        try:
            yield "python"
        finally:
            NAT.set_enabled(prev)


def _python(fn):
    """fn() with the native functions off."""
    if NAT is None:
        return fn()
    prev = NAT.set_enabled(False)
    try:
        return fn()
    finally:
        NAT.set_enabled(prev)


@contextlib.contextmanager
def _spy(monkeypatch):
    """The names of the native functions that returned a Tensor meanwhile (through the public functions)."""
    from paddle_compat.engine.ops.tensor import indexing

    taken = []

    def spy(name, fn):
        def call(*args):
            out = fn(*args)
            if out is not None:
                taken.append(name)
            return out
        return call

    with monkeypatch.context() as m:
        for name, public in (("reshape", paddle.reshape), ("transpose", paddle.transpose),
                             ("unsqueeze", paddle.unsqueeze), ("slice", paddle.slice)):
            assert public.__globals__["nat"] is getattr(NAT, name)
            m.setitem(public.__globals__, "nat", spy(name, getattr(NAT, name)))
        m.setattr(indexing, "_native_getitem", spy("getitem", NAT.getitem))
        yield taken


def _same_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


@pytest.mark.parametrize("name", list(CASES))
def test_native_equals_python(name, path, monkeypatch):
    arr, call, nat_name = CASES[name]
    x = paddle.to_tensor(arr, stop_gradient=False)
    got = call(x)
    ref_x = paddle.to_tensor(arr, stop_gradient=False)
    want = _python(lambda: call(ref_x))
    assert type(got) is type(want) is paddle.Tensor
    assert got.shape == want.shape and got.dtype == want.dtype and got.stop_gradient == want.stop_gradient
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert got.name == want.name and got.persistable == want.persistable
    assert _same_storage(got._t, x._t) == _same_storage(want._t, ref_x._t)
    if nat_name is not None:
        assert _same_storage(got._t, x._t), "a view op must share its input's storage"
        assert got._t._base is x._t and want._t._base is ref_x._t  # torch's view tracking (in-place ops, autograd)
    assert (got._t is x._t) == (want._t is ref_x._t)  # unsqueeze(x, []) hands x's torch tensor on, as before
    # gradients flow as on the Python path
    w = np.arange(got.size, dtype="float32").reshape(got.shape) if got.shape else np.float32(2)
    (got * paddle.to_tensor(w)).sum().backward()
    (want * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), ref_x.grad.numpy())
    if path == "native":  # the call did run natively where it should, and only there
        with _spy(monkeypatch) as taken:
            again = call(paddle.to_tensor(arr))
        np.testing.assert_array_equal(again.numpy(), want.numpy())
        assert taken == ([nat_name] if nat_name else []), taken


def _native_args(name, x):
    """The native function and its arguments for a CASES entry the native path takes (direct call)."""
    direct = {
        "reshape -1": ("reshape", (x, [-1])), "transpose": ("transpose", (x, [2, 0, 1])),
        "unsqueeze list": ("unsqueeze", (x, [0, -1, 2])), "slice": ("slice", (x, [1], [1], [3])),
        "x[:, 1:3]": ("getitem", (x, (slice(None), slice(1, 3)))), "x[0]": ("getitem", (x, 0)),
    }
    fn, args = direct[name]
    return getattr(NAT, fn), args


DIRECT = ["reshape -1", "transpose", "unsqueeze list", "slice", "x[:, 1:3]", "x[0]"]
# the arguments of the Python-only CASES, given to the native function: it declines them
DECLINED = [
    ("reshape", lambda x: (x, [0, -1])), ("reshape", lambda x: (x, (3, 8))), ("reshape", lambda x: (x, [True, 24])),
    ("reshape", lambda x: (x, [np.int64(3), 8])), ("reshape", lambda x: (x, [2 ** 70, 1])),
    ("transpose", lambda x: (x, (1, 0, 2))), ("transpose", lambda x: (x, [1.0, 0, 2])),
    ("unsqueeze", lambda x: (x, [])), ("unsqueeze", lambda x: (x, True)), ("unsqueeze", lambda x: (x, (0,))),
    ("slice", lambda x: (x, [0, 1], [0, 1], [1, 3])), ("slice", lambda x: (x, [8], [0], [1])),
    ("slice", lambda x: (x, (0,), [0], [1])), ("slice", lambda x: (x, [0], [0.5], [1])),
    ("getitem", lambda x: (x, slice(None, None, -1))), ("getitem", lambda x: (x, [0, 1])),
    ("getitem", lambda x: (x, True)), ("getitem", lambda x: (x, None)), ("getitem", lambda x: (x, Ellipsis)),
    ("getitem", lambda x: (x, (0, [1]))), ("getitem", lambda x: (x, np.int64(0))),
    ("getitem", lambda x: (x, (slice(None, None, -2),))), ("getitem", lambda x: (x, 10)),
    ("getitem", lambda x: (x, slice(np.int64(1), None))), ("getitem", lambda x: (x, (0, slice(None, True)))),
    ("getitem", lambda x: (x, slice(-10 ** 20, None))),  # torch clips it with a warning, on the Python path
]


@needs_native
@pytest.mark.parametrize("fn,args", DECLINED)
def test_native_declines_other_calls(fn, args):
    assert getattr(NAT, fn)(*args(paddle.to_tensor(A))) is None


@needs_native
@pytest.mark.parametrize("name", DIRECT)
def test_native_takes_common_calls(name):
    fn, args = _native_args(name, paddle.to_tensor(A))
    assert type(fn(*args)) is paddle.Tensor


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_identical(name):
    call, arr = ERRORS[name]

    def err():
        with pytest.raises(Exception) as e:
            call(paddle.to_tensor(arr))
        return type(e.value), str(e.value)

    got = err()
    assert got == _python(err)
    assert got[0].__name__ == "InvalidArgumentError" and ("paddle." + name.split()[0]) in got[1].replace(
        "paddle.Tensor.__getitem__", "paddle.index"), got  # Paddle's error, naming the API


@needs_native
@pytest.mark.parametrize("fn,args", [("reshape", lambda x: (x, [-1])), ("transpose", lambda x: (x, [1, 0, 2])),
                                     ("unsqueeze", lambda x: (x, 0)), ("slice", lambda x: (x, [0], [0], [1])),
                                     ("getitem", lambda x: (x, 0))])
def test_native_falls_back(fn, args, monkeypatch):
    """Static mode, AMP op lists (not for indexing: its Python fast path ignores them too), an integer gradient,
    a Tensor subclass (a Parameter), a torch tensor subclass and a __torch_function__ mode: the native function
    declines and the Python path runs."""
    from paddle_compat.engine.core.mode import MODE
    from paddle_compat.engine.framework import dispatch
    from paddle_compat.engine.framework.tensor import INT_GRAD

    f = getattr(NAT, fn)
    x = paddle.to_tensor(A)
    assert f(*args(x)) is not None
    with monkeypatch.context() as m:
        m.setattr(MODE, "static", True)
        assert f(*args(x)) is None
    with monkeypatch.context() as m:
        m.setitem(dispatch.AMP_OP_DTYPES, "matmul_v2", torch.float16)
        assert (f(*args(x)) is None) == (fn != "getitem")
    INT_GRAD[0] = True
    try:
        assert f(*args(x)) is None
    finally:
        INT_GRAD[0] = False
    param = paddle.create_parameter([2, 3, 4], "float32")
    assert type(param) is not paddle.Tensor and f(*args(param)) is None

    class Sub(torch.Tensor):
        pass

    assert f(*args(paddle.Tensor._wrap(x._t.as_subclass(Sub)))) is None

    class Mode(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, a=(), kw=None):
            return func(*a, **(kw or {}))

    with Mode():
        assert f(*args(x)) is None
    # a torch Parameter inside a plain Tensor is what torch's binding takes without __torch_function__: native
    tp = paddle.Tensor._wrap(torch.nn.Parameter(torch.from_numpy(A.copy())))
    out = f(*args(tp))
    assert type(out) is paddle.Tensor and out._t.requires_grad and _same_storage(out._t, tp._t)


def test_fallbacks_give_the_python_results(path):
    """The cases the native functions decline, run end to end on either path: a Parameter, an integer Tensor with
    a gradient (INT_GRAD), static mode."""
    import paddle_compat.engine.framework.tensor as tensor_mod

    param = paddle.create_parameter([3, 4], "float32")
    for out, want in ((paddle.reshape(param, [-1]), [12]), (param.transpose([1, 0]), [4, 3]), (param[0], [4]),
                      (paddle.unsqueeze(param, 0), [1, 3, 4]), (paddle.slice(param, [1], [1], [3]), [3, 2])):
        assert out.shape == want and not out.stop_gradient
    saved = tensor_mod.INT_GRAD[0]  # the flag stays set for the process once set: put back below
    try:
        i = paddle.to_tensor(np.arange(6, dtype="int64").reshape(2, 3))
        i.stop_gradient = False
        assert tensor_mod.INT_GRAD[0]
        assert paddle.reshape(i, [3, 2]).numpy().tolist() == [[0, 1], [2, 3], [4, 5]]
        assert i[1].numpy().tolist() == [3, 4, 5]
    finally:
        tensor_mod.INT_GRAD[0] = saved
    paddle.enable_static()
    try:
        v = paddle.static.data("x", [2, 3, 4], "float32")
        assert paddle.reshape(v, [-1, 4]).shape == (6, 4) and v[0].shape == (3, 4)
        assert paddle.transpose(v, [2, 1, 0]).shape == (4, 3, 2) and paddle.unsqueeze(v, 1).shape == (2, 1, 3, 4)
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("zero_d", [False, True])
def test_one_element_index_follows_the_api_level(zero_d, path, monkeypatch):
    """x[0] of a 1-D Tensor: shape [1] at API level 2.4, [] at 2.6 (engine/ops/common.scalar_shape), on both paths."""
    from paddle_compat.engine.core.api_level import LEVEL

    monkeypatch.setattr(LEVEL, "zero_d", zero_d)
    x = paddle.to_tensor(V, stop_gradient=False)
    for out in (x[1], x[-1], paddle.to_tensor(A)[1, 2, 3]):
        assert out.shape == ([] if zero_d else [1])
    x[2].backward()
    assert x.grad.numpy().tolist() == [0, 0, 1, 0, 0]


def test_views_write_through(path):
    """In-place writes reach the input as on torch views."""
    x = paddle.to_tensor(A)
    y = x.reshape([-1])
    z = x[1]
    y._t[0] = 100.0
    z._t[0, 0] = -100.0
    assert x.numpy()[0, 0, 0] == 100.0 and x.numpy()[1, 0, 0] == -100.0


ITEMS = [0, -2, 1, slice(None), slice(1, None), slice(None, -1), slice(-99, 99), slice(3, 1), slice(None, None, 2),
         slice(1, None, 3), (0, 1), (slice(None), 0), (Ellipsis, 1), (None, 0), (0, None, slice(1, 3)),
         (Ellipsis, None), (slice(None), slice(None), slice(None)), (), (1, Ellipsis, None, 2), (None, None),
         (0, 1, 2), (-1, -1, -1), (slice(2, 2), 0)]


@needs_native
@pytest.mark.parametrize("item", ITEMS, ids=repr)
def test_native_getitem_is_torch_basic_indexing(item):
    """The native getitem builds torch's basic indexing from select / slice / unsqueeze: same sizes, strides and
    storage offset as x._t[item]."""
    from paddle_compat.engine.ops.common import scalar_shape

    x = paddle.to_tensor(A)
    got = NAT.getitem(x, item)
    want = scalar_shape(x._t[item])  # [1] for one element at API level 2.4, 0-D at 2.6
    assert got is not None
    assert got._t.shape == want.shape and got._t.stride() == want.stride()
    assert got._t.storage_offset() == want.storage_offset() and _same_storage(got._t, want)


def test_loader_without_native(tmp_path):
    """PADDLE_COMPAT_NATIVE=0 (the same as a checkout where the module was never built): MODULE is None, the ops
    give the same results, `import paddle` works."""
    code = ("import paddle, numpy as np\n"
            "from paddle_compat.engine.core import native\n"
            "assert native.MODULE is None and native.function('reshape') is None\n"
            "x = paddle.to_tensor(np.arange(12, dtype='float32').reshape(3, 4))\n"
            "print(paddle.reshape(x, [-1]).shape, paddle.transpose(x, [1, 0]).shape, x[0].shape, x[:, 1:3].shape,"
            " paddle.unsqueeze(x, 0).shape, paddle.slice(x, [1], [1], [3]).shape)\n")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PADDLE_COMPAT_NATIVE": "0",
           "PYTHONPATH": os.pathsep.join([str(root), str(root / "shims"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[0] == "[12] [4, 3] [4] [3, 2] [1, 3, 4] [3, 2]"


def test_front_keeps_its_signature():
    """The public functions stay Python functions with the op's signature (a native call first inside)."""
    import inspect
    import types

    for f, sig in ((paddle.reshape, "(x, shape, name=None)"), (paddle.transpose, "(x, perm, name=None)"),
                   (paddle.unsqueeze, "(x, axis, name=None)"), (paddle.slice, "(input, axes, starts, ends)")):
        assert isinstance(f, types.FunctionType) and str(inspect.signature(f)) == sig and f.__wrapped__


def test_grad_mode():
    """Under paddle.no_grad() the native views carry the gradient flags the Python path gives (torch's: a view of a
    Tensor that needs a gradient still reports requires_grad under no_grad, where Paddle says stop_gradient=True;
    a gap of both paths, left to the ops' general rule)."""
    def run():
        x = paddle.to_tensor(A, stop_gradient=False)
        with paddle.no_grad():
            outs = [paddle.reshape(x, [-1]), paddle.transpose(x, [1, 0, 2]), paddle.unsqueeze(x, 0),
                    paddle.slice(x, [0], [0], [1]), x[0], x[:, 1:3]]
        return [(o.stop_gradient, o._t.grad_fn is None, o._t._base is x._t) for o in outs]

    assert run() == _python(run)


def test_failed_build_falls_back(tmp_path):
    """tools/build_native.py with a compiler that fails: one line saying the pure-Python path will be used, exit
    status 0 (`make setup` goes on), and no module left behind (a copy of the checkout's two files, in tmp_path)."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    pkg = tmp_path / "paddle_compat" / "engine" / "core" / "native"
    pkg.mkdir(parents=True)
    (tmp_path / "tools").mkdir()
    shutil.copy(root / "tools" / "build_native.py", tmp_path / "tools")
    shutil.copy(root / "paddle_compat" / "engine" / "core" / "native" / "_views.cpp", pkg)
    (pkg / "_views.build").write_text("an earlier build\n")
    out = subprocess.run([sys.executable, str(tmp_path / "tools" / "build_native.py")], capture_output=True,
                         text=True, env={**os.environ, "CXX": "false"}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["paddle_compat: the native view ops were not built (false failed: exit status "
                                       "1); the pure-Python path will be used."]
    assert sorted(p.name for p in pkg.iterdir()) == ["_views.cpp"]
