"""numpy 1.x scalar conversion for one-element arrays, under numpy 2: `float(loss.numpy())` works again.

The problem. Paddle 2.4 and fluid 1.x give full reductions shape [1], and legacy scripts read them both ways:
`loss.numpy()[0]` (needs shape [1]) and `float(loss.numpy())` / `"%.4f" % exe.run(...)[0]` (needs a scalar).
numpy < 1.25 converted any one-element array to a Python scalar; numpy 1.25 deprecated it for ndim > 0 and numpy
2.x raises `TypeError: only 0-dimensional arrays can be converted to Python scalars`.

What we want: the arrays stay plain `numpy.ndarray` of shape [1] (`type(a) is np.ndarray`, `isinstance` and
`a.shape` as in Paddle), and `float(a)` / `int(a)` work as under numpy 1.x.

The design. `float(a)` calls the C slot `nb_float` of `type(a)` (`nb_int` for `int(a)`), never a Python-level
attribute, and `numpy.ndarray` is a static C type whose attributes cannot be set. So `install()`:
  1. puts Python functions `__float__` / `__int__` into ndarray's type dict (the real dict behind the
     mappingproxy) that convert a one-element array through its 0-d view and otherwise call numpy's own
     (so every other array raises as before, with numpy 1.x's message);
  2. points ndarray's `nb_float` / `nb_int` slots at CPython's generic `slot_nb_float` / `slot_nb_int`, the
     C functions every Python class defining `__float__` / `__int__` uses (read from such a probe class); they
     look the method up on the type and so reach step 1, with normal exception propagation;
  3. calls `PyType_Modified` so CPython's method cache forgets the old entries.
Nothing is compiled and no ndarray subclass exists, so arrays from Tensor.numpy(), Executor.run fetches,
`np.asarray(...)` of them, and their views all convert.

Trade-offs.
  - It is process-wide: any one-element array converts, as under numpy 1.x, also in code that never touches
    Paddle. Only calls that numpy 2 rejects with TypeError change; no call that works changes its result.
    Arrays of other sizes still raise TypeError; `operator.index` is untouched (numpy 1.x refused it too).
  - It writes two pointers into numpy's C type through ctypes, assuming CPython's PyTypeObject / PyNumberMethods
    layout (stable since 3.0; checked here against a probe class before anything is written; if the check fails,
    or on another interpreter, nothing is patched and numpy 2's behaviour stays).
  - numpy's ndarray subclasses created before the import (np.memmap, np.matrix) keep numpy 2's behaviour: their
    slots were copied at class creation. Classes created later inherit the conversion.
  - A Python-level `__float__` costs about 0.5 us more per call than numpy's C path.
  - `PADDLE_COMPAT_NUMPY_SCALARS=0` in the environment turns it off.
Alternatives rejected: an ndarray subclass for fetched values (changes `type()` and leaks into every result of
ufuncs on them); 0-d results (break `loss.numpy()[0]`, Paddle 2.4's shape [1]); patching `Tensor.__float__` only
(leaves `float(loss.numpy())` and fetched arrays broken).
Tests: tests/test_numpy_scalars.py.
"""

from __future__ import annotations

import ctypes
import gc
import os

import numpy as np

_PTR = ctypes.sizeof(ctypes.c_void_p)
# PyTypeObject: PyObject_VAR_HEAD, then tp_name, tp_basicsize, tp_itemsize, tp_dealloc, tp_vectorcall_offset,
# tp_getattr, tp_setattr, tp_as_async, tp_repr, tp_as_number
_AS_NUMBER = object.__basicsize__ + _PTR + 9 * _PTR
# PyNumberMethods: nb_add ... nb_or are 16 slots, then nb_int, nb_reserved, nb_float
_NB_INT, _NB_FLOAT = 16, 18

_state = {"installed": False}


def _needed() -> bool:
    try:
        float(np.ones(1))
    except TypeError:
        return True
    return False  # numpy < 2 (1.25 / 1.26 only warn)


def _number_methods(tp: type) -> int:
    return ctypes.c_void_p.from_address(id(tp) + _AS_NUMBER).value or 0


def _slot(methods: int, index: int) -> ctypes.c_void_p:
    return ctypes.c_void_p.from_address(methods + index * _PTR)


class _Probe:
    """A Python class defining both methods: its slots are CPython's generic slot_nb_float / slot_nb_int."""

    def __float__(self) -> float:
        return 0.25

    def __int__(self) -> int:
        return 7


def _converter(numpy_method, kind: str):
    def convert(self):
        if self.ndim and self.size == 1:
            return numpy_method(self.reshape(()))
        if self.ndim:
            raise TypeError(f"only size-1 arrays can be converted to Python scalars (got {kind}() of an array "
                            f"of shape {list(self.shape)})")
        return numpy_method(self)

    convert.__name__ = convert.__qualname__ = f"__{kind}__"
    convert.__doc__ = (f"{kind}(a) for a 0-d or one-element array, as under numpy 1.x (installed by "
                       "paddle_compat.engine.core.numpy_scalars)")
    return convert


def install() -> bool:
    """Make float() / int() of one-element ndarrays work (see the module docstring); True when active."""
    if _state["installed"]:
        return True
    if os.environ.get("PADDLE_COMPAT_NUMPY_SCALARS", "1") == "0" or not _needed():
        return False
    probe = _number_methods(_Probe)
    # a heap type keeps its PyNumberMethods inside its own object: that tells us the offset is right
    if not (id(_Probe) < probe < id(_Probe) + type.__basicsize__):
        return False
    nd = _number_methods(np.ndarray)
    if not nd or nd == probe:
        return False
    if float(_Probe()) != 0.25 or int(_Probe()) != 7:
        return False
    tp_dict = gc.get_referents(np.ndarray.__dict__)[0]
    if not isinstance(tp_dict, dict) or "__float__" not in tp_dict:
        return False
    tp_dict["__float__"] = _converter(tp_dict["__float__"], "float")
    tp_dict["__int__"] = _converter(tp_dict["__int__"], "int")
    _slot(nd, _NB_FLOAT).value = _slot(probe, _NB_FLOAT).value
    _slot(nd, _NB_INT).value = _slot(probe, _NB_INT).value
    ctypes.pythonapi.PyType_Modified(ctypes.py_object(np.ndarray))
    _state["installed"] = True
    return True
