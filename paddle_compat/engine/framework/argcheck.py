"""Errors at the API entry points in Paddle's words: which API, which argument, what it expected, what it got.

A wrong value where a Tensor is expected (a list, None, a string, a numpy array) fails somewhere inside the
torch body, with torch's or Python's words (`abs(): argument 'input' (position 1) must be Tensor, not list`,
`'list' object has no attribute 'shape'`). Real Paddle checks first: its C++ argument parser raises
`(InvalidArgument) add(): argument 'x' (position 0) must be Tensor, but got list` in dygraph, and its Python
layers `TypeError: The type of 'input' in fc must be Variable, but received list` in static mode.

We do not check types before the call (that would cost every op call, and many bodies legitimately convert
lists); once a call has failed, `blame` finds the argument at fault and rewrites the error as Paddle's, naming
the public path the user called. One mechanism for every entry point:

- registry ops (engine/framework/dispatch.py: the dygraph call, the in-place variant and static recording),
- every other exported function with a Tensor parameter (`entry_point`, applied by `registry.export`:
  `fluid.layers.fc`, `paddle.nn.functional.*` written over ops); these also refuse a string or an array of
  strings for a required Tensor parameter before the call, so nothing runs half-way,
- `Layer.__call__` (paddle2/nn/layer.py: `fluid.dygraph.Linear(...)(list)` names `Linear.forward`'s `input`).

The argument at fault is, in order: the argument that *is* the object an AttributeError was raised on (or the
culprit of an error of ours from an inner API, so the outermost API names itself in its own terms); else an
argument with a Tensor name (Paddle's names: `x`, `input`, `label`, ...) whose value's type the message names
(`not list`, `'NoneType' object`); else one given a string or an array of strings. Its error is Paddle's
"must be Tensor" / "must be Variable" (InvalidTypeError: both TypeError, as Paddle 1.8's layers raise, and
ValueError, as 2.x's argument parser); when the body's own check already said what the argument should be
("img should be PIL Image ..."), its words stay, prefixed with the API and the argument. A required Tensor
parameter given None that nothing else explains is reported softly ("argument 'x' (position 0) is None, and
the call failed: <the error's own words>"): Paddle takes None for some of them (beam_search's ids). Nothing
found: the error stays as it was. tests/hardening/test_wrong_types.py sweeps every public function.
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Any, Callable

import numpy as np
import torch

from paddle_compat.engine.core.errors import InvalidArgumentError, InvalidTypeError, InvalidValueError

# Paddle's parameter names for Tensor inputs (C++ op YAML and Python layer signatures).
TENSOR_ARGS = frozenset({
    "x", "y", "input", "label", "logits", "logit", "X", "Y", "input1", "input2", "x1", "x2", "log_probs",
    "condition", "ids", "index", "indices", "query", "theta", "real", "imag",
    "sorted_sequence", "pred", "scores", "bboxes", "anchor", "prior_box", "bbox_pred", "im_info", "rpn_rois",
    "multi_rois", "fpn_rois", "dist_matrix", "detect_res", "loc", "location", "pre_ids", "x_t", "ref",
    "weight", "bias", "arr", "array", "mask", "target", "other", "emission", "grid", "boxes", "rois", "gt_box",
    "gt_label", "inputs", "var", "tensor", "img", "images", "src", "tgt", "memory", "mean", "std",
})
_MISSING = object()


def type_name(v: Any) -> str:
    """Paddle's spelling of a value's type in its messages: `list`, `None`, `str`, `numpy.ndarray`."""
    if v is None:
        return "None"
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__.split('.')[0]}.{t.__name__}"


def _tensorish(v: Any) -> bool:
    from paddle_compat.engine.framework.lod import LoDTensor, LoDTensorArray
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    if isinstance(v, (Tensor, torch.Tensor, Variable, LoDTensor, LoDTensorArray)):
        return True
    if type(v) in (list, tuple):  # a list of Tensors (concat, add_n, multiplex)
        return len(v) > 0 and all(_tensorish(x) for x in v)
    return False


def _never_a_tensor(v: Any) -> bool:
    """Values that are no Tensor in any Paddle API: strings, numpy arrays of strings or objects. (None is valid
    for some required Tensor parameters, e.g. fluid.layers.beam_search's ids: it is blamed only when the error
    names its type.)"""
    return isinstance(v, str) or (isinstance(v, np.ndarray) and v.dtype.kind in "OUSV")


def _contains(v: Any, obj: Any) -> bool:
    if v is obj:
        return True
    return type(v) in (list, tuple, dict) and any(
        _contains(x, obj) for x in (v.values() if isinstance(v, dict) else v))


def culprit(sig: inspect.Signature, args: tuple, kwargs: dict, exc: BaseException) -> tuple[str, int, Any] | None:
    """(name, position, value) of the argument `exc` is about, or None (see the module docstring)."""
    try:
        bound = sig.bind(*args, **kwargs).arguments
    except TypeError:
        return None
    params = sig.parameters
    rows = [(k, i, v) for i, (k, v) in enumerate(bound.items())
            if params[k].kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    obj = getattr(exc, "_paddle_culprit", _MISSING)
    if obj is _MISSING and isinstance(exc, AttributeError):
        obj = getattr(exc, "obj", _MISSING)
    if obj is not _MISSING and obj is not None and not isinstance(obj, (str, int, float, bool)):
        for k, i, v in rows:  # identity: only for objects that are not shared singletons / interned values
            if _tensorish(v):
                continue
            if _contains(v, obj) or (_contains(obj, v) and (k in TENSOR_ARGS if v is None
                                                            else not isinstance(v, (str, int, float, bool)))):
                return k, i, v
        if hasattr(exc, "_paddle_culprit"):
            return None  # an argument of an inner call that is none of ours: the inner API's message stays
    # numbers are no culprits: Paddle takes a Python scalar for many Tensor parameters (scale's bias, pow's y)
    rows = [(k, i, v) for k, i, v in rows
            if k in TENSOR_ARGS and not _tensorish(v) and not isinstance(v, (bool, int, float, complex, np.number))]
    if not rows:
        return None
    msg = str(exc)
    soft = getattr(exc, "_paddle_soft", False)
    for k, i, v in rows:  # the message names the value's type: `not list`, `'NoneType' object`, `got (list, ...`
        if v is None and (params[k].default is None or soft):
            continue
        words = {type_name(v), type(v).__name__} | ({"sequence"} if type(v) in (list, tuple) else set())
        if any(re.search(rf"(?<![\w.]){re.escape(t)}(?![\w])", msg) for t in words):
            return k, i, v
    sure = [(k, i, v) for k, i, v in rows if _never_a_tensor(v)]
    if sure:
        return sure[0]
    if isinstance(exc, AttributeError) and isinstance(getattr(exc, "obj", None), (bool, int, float)):
        raw = [(k, i, v) for k, i, v in rows if type(v) in (list, tuple)]
        if len(raw) == 1:  # a Python number used as a Tensor: an element of the one raw list given for a Tensor
            return raw[0]
    return None


def none_given(sig: inspect.Signature, args: tuple, kwargs: dict) -> tuple[str, int] | None:
    """(name, position) of the first required Tensor parameter given None, or None."""
    try:
        bound = sig.bind(*args, **kwargs).arguments
    except TypeError:
        return None
    for i, (k, v) in enumerate(bound.items()):
        if v is None and k in TENSOR_ARGS and sig.parameters[k].default is inspect.Parameter.empty:
            return k, i
    return None


# torch's argument parser names its own parameters ("argument 'input' (position 1)"), not Paddle's
_TORCH_WORDS = re.compile(r"argument '\w+' \(position \d+\)|received an invalid combination of arguments")
# the error a soft report (below) raises for the class of the error it reports
_SOFT = ((AttributeError, InvalidTypeError), (TypeError, InvalidTypeError), (ValueError, InvalidArgumentError),
         (RuntimeError, InvalidValueError))


def blame(api: str, sig: inspect.Signature, args: tuple, kwargs: dict, exc: BaseException) -> BaseException | None:
    """Paddle's error for `exc` raised by a call of `api`, naming the argument at fault; None if none is.

    A required Tensor parameter given None, when the error does not say None was the problem, is reported softly
    (Paddle takes None for some of them, e.g. fluid.layers.beam_search's ids): the message names the API and the
    argument and keeps the error's own words, and the error keeps its builtin class."""
    if isinstance(exc, (NotImplementedError, KeyboardInterrupt)):
        return None
    found = culprit(sig, args, kwargs, exc)
    if found is not None:
        name, pos, value = found
        orig = str(exc)
        if re.search(rf"(?<![\w.]){re.escape(name)} (must|should)\b|'{re.escape(name)}'", orig) \
                and not _TORCH_WORDS.search(orig) and not hasattr(exc, "_paddle_culprit"):
            # the body's own check already says what the argument should be, in Paddle's words (hflip: "img should
            # be PIL Image or Tensor Image or ndarray"): its message stays, with the API and the argument named
            if re.search(rf"(?<![\w.]){re.escape(api)}(?![\w])", orig):
                return None
            cls = next((c for base, c in _SOFT if isinstance(exc, base)), InvalidTypeError)
            err = cls(f"{api}(): argument '{name}' (position {pos}): {orig}")
            err._paddle_culprit = value  # type: ignore[attr-defined]
            return err
        return wrong_type(api, name, pos, value)
    given = none_given(sig, args, kwargs)
    cls = next((c for base, c in _SOFT if isinstance(exc, base)), None)
    if given is None or cls is None:
        return None
    orig = getattr(exc, "_paddle_orig", None) or str(exc)
    err = cls(f"{api}(): argument '{given[0]}' (position {given[1]}) is None, and the call failed: {orig}")
    err._paddle_soft = True  # type: ignore[attr-defined]
    err._paddle_orig = orig  # type: ignore[attr-defined]
    return err


def wrong_type(api: str, name: str, pos: int, value: Any) -> InvalidTypeError:
    """Paddle's error for a value that is no Tensor given as argument `name` (at `pos`) of `api`."""
    from paddle_compat.engine.core.mode import MODE

    if MODE.static:  # Paddle's Python layers (check_variable_and_dtype), 1.8 and 2.x
        err = InvalidTypeError(f"The type of '{name}' in {api} must be Variable, but received {type_name(value)}.")
    else:  # Paddle's C++ argument parser (eager_utils.cc)
        err = InvalidTypeError(f"{api}(): argument '{name}' (position {pos}) must be Tensor, but got "
                               f"{type_name(value)}")
    err._paddle_culprit = value  # type: ignore[attr-defined]
    return err


def require_tensor(value: Any, api: str, name: str, pos: int, many: bool = False) -> None:
    """Raise Paddle's wrong-type error unless `value` is a Tensor / Variable (with `many`: a Tensor or a non-empty
    list / tuple of them), for bodies that would otherwise pass a wrong value through (1.8.5's layers check their
    input first: check_variable_and_dtype, `assert isinstance(pred, Variable)`)."""
    ok = _tensorish(value) if many else (_tensorish(value) and type(value) not in (list, tuple))
    if not ok:
        raise wrong_type(api, name, pos, value)


def entry_point(fn: Callable, api: str) -> Callable:
    """`fn` as exported at `api`: the same call, with a failure caused by a wrong argument re-raised as `blame`
    words it. Functions without a Tensor parameter are returned as they are (nothing to blame)."""
    if getattr(fn, "__paddle_entry__", None) is not None or getattr(fn, "__paddle_op__", None) is not None:
        return fn
    if fn.__name__.startswith("check_"):  # Paddle's own argument checks (data_feeder.check_type) take any object
        return fn
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return fn
    if not any(p in TENSOR_ARGS for p in sig.parameters):
        return fn
    # required Tensor parameters: a string or an array of strings there is refused before the call (nothing runs
    # half-way); None, lists and numeric arrays are left to the body (some take None, e.g. fluid.layers.beam_search's
    # ids, and many convert lists, as Paddle's 1.x layers do)
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = list(sig.parameters.values())
    required = [(i if p.kind in plain and all(q.kind in plain for q in params[:i]) else 1 << 30, p.name)
                for i, p in enumerate(params) if p.name in TENSOR_ARGS and p.default is inspect.Parameter.empty
                and p.kind in plain + (inspect.Parameter.KEYWORD_ONLY,)]
    where = dict(required)  # position -> name
    names = {name: i for i, name in required}
    suspect = frozenset((str, np.ndarray))

    def refuse(i: int, name: str, v: Any) -> None:
        if type(v) is str or v.dtype.kind in "OUSV":
            raise wrong_type(api, name, i, v)

    @functools.wraps(fn)
    def entry(*args: Any, **kwargs: Any) -> Any:
        for i in where:  # a few hundred ns per call (bench: the call forwarding costs about as much)
            if i < len(args) and type(args[i]) in suspect:
                refuse(i, where[i], args[i])
        if kwargs:
            for name, i in names.items():
                if type(kwargs.get(name)) in suspect:
                    refuse(i, name, kwargs[name])
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - re-raised, in Paddle's words where an argument is at fault
            err = blame(api, sig, args, kwargs, e)
            if err is None:
                raise
            raise err from e

    entry.__paddle_entry__ = fn  # type: ignore[attr-defined]
    return entry
