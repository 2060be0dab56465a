"""`paddle.nn.Layer`: the base of every 2.x layer, in dygraph and static mode.

A Layer owns three ordered dicts (`_parameters`, `_sub_layers`, `_buffers`), filled by attribute assignment
as in Paddle. Parameters are made by `create_parameter`, which goes through engine/static/param.py
`create_parameter_impl` (the one place parameters are made): in dygraph it returns an `EagerParameter`
named `<layer full name>.w_N` (`linear_0.w_0`); in static mode a `Parameter` of the main program whose
initializer is recorded into the startup program. `forward` then calls registry ops, so the same Layer
runs eagerly or records into the current Program.

`state_dict` keys are Paddle's structured names (`0.weight`, `1._mean`); values are the parameter / buffer
tensors themselves (their `.name` is the Paddle variable name, which paddle.save records).
"""

from __future__ import annotations

import collections
import functools
import re
import weakref
from typing import Any, Callable, Iterator

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import plain_dygraph
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export


@functools.lru_cache(maxsize=1024)
def camel_to_snake(name: str) -> str:
    """Paddle's layer helper name: `BatchNorm2D` -> `batch_norm2d`, `Conv2DTranspose` -> `conv2d_transpose`."""
    s1 = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s1).lower()


class HookRemoveHelper:
    """Returned by register_forward_*_hook; `remove()` unregisters the hook."""

    _next_id = [0]

    def __init__(self, hooks: dict) -> None:
        self._hooks = hooks
        self._hook_id = HookRemoveHelper._next_id[0]
        HookRemoveHelper._next_id[0] += 1

    def remove(self) -> None:
        self._hooks.pop(self._hook_id, None)


def _is_param(v: Any) -> bool:
    from paddle_compat.engine.framework.eager_parameter import is_parameter

    return is_parameter(v)


def _is_tensorlike(v: Any) -> bool:
    from paddle_compat.engine.framework.program import Variable

    return isinstance(v, (Tensor, Variable))


class _UnsetDtype(str):
    """Layer's default `dtype='float32'`, told apart from a dtype the caller passed (see create_parameter)."""


_LAYER_DTYPE = _UnsetDtype("float32")


def _forward_blame(layer: Any, inputs: tuple, kwargs: dict, exc: Exception) -> Exception | None:
    """`fluid.dygraph.Linear(2, 3)([[1.0, 2.0]])`: the error names the layer's forward and its argument."""
    import inspect

    from paddle_compat.engine.framework.argcheck import blame
    from paddle_compat.engine.framework.registry import exported_path

    path = exported_path(type(layer)) or type(layer).__name__
    try:
        sig = inspect.signature(layer.forward)
    except (TypeError, ValueError):
        return None
    return blame(f"{path}.forward", sig, inputs, kwargs, exc)


class _TreeVersion:
    """How many times any layer's sublayers changed in this process: a walk _WALKED keeps is good while this reads
    the count it was taken at."""

    count = 0


# id(layer) -> (a weak reference to the layer, _TreeVersion.count at its walk, weak references to its sublayers):
# Layer._every_layer's walks, kept outside the layers (a layer's __dict__ stays picklable, a copy of a layer walks
# its own) and by id (a subclass may define __eq__ and so be unhashable); an entry goes with its layer
_WALKED: dict[int, tuple] = {}


class _SubLayers(collections.OrderedDict):
    """Layer._sub_layers: an OrderedDict whose every change (assignment, deletion, clear, pop, update, ...), made by
    Layer, the containers or a script writing `_sub_layers` directly, counts in _TreeVersion."""

    def __setitem__(self, key, value):
        _TreeVersion.count += 1
        super().__setitem__(key, value)

    def __delitem__(self, key):
        _TreeVersion.count += 1
        super().__delitem__(key)

    def clear(self):
        _TreeVersion.count += 1
        super().clear()

    def pop(self, *args):
        _TreeVersion.count += 1
        return super().pop(*args)

    def popitem(self, last=True):
        _TreeVersion.count += 1
        return super().popitem(last)

    def setdefault(self, key, default=None):
        _TreeVersion.count += 1
        return super().setdefault(key, default)

    def update(self, *args, **kwargs):
        _TreeVersion.count += 1
        super().update(*args, **kwargs)

    def __ior__(self, other):
        self.update(other)
        return self


class Layer:
    """paddle.nn.Layer(name_scope=None, dtype='float32')"""

    def __init__(self, name_scope: str | None = None, dtype: Any = _LAYER_DTYPE) -> None:
        d = self.__dict__
        d["training"] = True
        d["_helper_name"] = name_scope or camel_to_snake(type(self).__name__)
        d["_full_name"] = unique_name.generate(d["_helper_name"])
        d["_dtype"] = dtype
        d["_parameters"] = collections.OrderedDict()
        d["_sub_layers"] = _SubLayers()
        d["_buffers"] = collections.OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_forward_pre_hooks"] = collections.OrderedDict()
        d["_forward_post_hooks"] = collections.OrderedDict()
        d["_state_dict_hooks"] = collections.OrderedDict()
        d["_built"] = False
        d["_loaddict_holder"] = collections.OrderedDict()

    # --- attribute protocol -------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_sub_layers", "_buffers"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if "_parameters" not in d and (_is_param(value) or isinstance(value, Layer)):
            raise ValueError(f"super().__init__() should be called first in {type(self).__name__}.__init__ "
                             f"before assigning {name!r}")
        if _is_param(value):
            if name not in d["_parameters"]:  # a parameter put back in its place keeps its position, as Paddle
                self._remove_name(name)
            d["_parameters"][name] = value
        elif isinstance(value, Layer):
            if name not in d["_sub_layers"]:
                self._remove_name(name)
            d["_sub_layers"][name] = value
        elif "_buffers" in d and name in d["_buffers"]:
            if value is not None and not _is_tensorlike(value):
                raise TypeError(f"assignment to buffer {name!r} should be of type Tensor or None, "
                                f"but got {type(value).__name__}")
            d["_buffers"][name] = value
        elif "_parameters" in d and name in d["_parameters"]:
            if value is not None:
                raise TypeError(f"assignment to parameter {name!r} should be of type Parameter or None, "
                                f"but got {type(value).__name__}")
            d["_parameters"][name] = None
        else:
            if "_sub_layers" in d and name in d["_sub_layers"] and value is None:
                d["_sub_layers"][name] = None
                return
            object.__setattr__(self, name, value)

    def _remove_name(self, name: str) -> None:
        d = self.__dict__
        d.pop(name, None)
        for store in ("_parameters", "_sub_layers", "_buffers"):
            d[store].pop(name, None)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        for store in ("_parameters", "_sub_layers", "_buffers"):
            if name in d[store]:
                del d[store][name]
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list:
        keys = list(super().__dir__())
        for store in ("_parameters", "_sub_layers", "_buffers"):
            keys += list(self.__dict__[store])
        return sorted(set(keys))

    # --- call ----------------------------------------------------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.forward is not implemented")

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        d = self.__dict__
        if d["_forward_pre_hooks"]:
            for hook in list(d["_forward_pre_hooks"].values()):
                r = hook(self, inputs)
                if r is not None:
                    inputs = r if isinstance(r, tuple) else (r,)
        if not d["_built"]:
            self._build_once(*inputs, **kwargs)
            d["_built"] = True
        try:
            out = self.forward(*inputs, **kwargs)
        except Exception as e:  # noqa: BLE001 - a wrong input is named in Paddle's words (engine/framework/argcheck.py)
            err = _forward_blame(self, inputs, kwargs, e)
            if err is None:
                raise
            raise err from e
        if d["_forward_post_hooks"]:
            for hook in list(d["_forward_post_hooks"].values()):
                r = hook(self, inputs, out)
                if r is not None:
                    out = r
        return out

    def _build_once(self, *args: Any, **kwargs: Any) -> None:
        pass

    def register_forward_pre_hook(self, hook: Callable) -> HookRemoveHelper:
        h = HookRemoveHelper(self._forward_pre_hooks)
        self._forward_pre_hooks[h._hook_id] = hook
        return h

    def register_forward_post_hook(self, hook: Callable) -> HookRemoveHelper:
        h = HookRemoveHelper(self._forward_post_hooks)
        self._forward_post_hooks[h._hook_id] = hook
        return h

    # --- modes ---------------------------------------------------------------------------------------
    def train(self) -> "Layer":
        for layer in self._every_layer():
            layer.__dict__["training"] = True
        return self

    def eval(self) -> "Layer":
        for layer in self._every_layer():
            layer.__dict__["training"] = False
        return self

    def _every_layer(self) -> list["Layer"]:
        """self and every sublayer, once each, in no particular order (what train() / eval() set; cheaper than
        sublayers(), which names them). Kept while no layer's sublayers changed (_TreeVersion): a loop calling
        train() / eval() every step walks the tree once."""
        walked = _WALKED.get(id(self))
        if walked is not None and walked[0]() is self and walked[1] == _TreeVersion.count:
            return [self] + [ref() for ref in walked[2]]  # alive: a layer in the tree is held by its parent
        out, seen, i = [self], {id(self)}, 0
        while i < len(out):
            for layer in out[i]._sub_layers.values():
                if layer is not None and id(layer) not in seen:
                    seen.add(id(layer))
                    out.append(layer)
            i += 1
        # weak references: the walk neither keeps self nor a removed sublayer alive
        key = id(self)
        _WALKED[key] = (weakref.ref(self, lambda _, k=key: _WALKED.pop(k, None)), _TreeVersion.count,
                        [weakref.ref(la) for la in out[1:]])
        return out

    # --- naming --------------------------------------------------------------------------------------
    def full_name(self) -> str:
        return self._full_name

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = []
        for name, sub in self._sub_layers.items():
            body = repr(sub).replace("\n", "\n  ")
            lines.append(f"({name}): {body}")
        head = type(self).__name__ + "(" + self.extra_repr()
        if not lines:
            return head + ")"
        return head + "\n  " + "\n  ".join(lines) + "\n)"

    # --- parameters ----------------------------------------------------------------------------------
    def create_parameter(self, shape: Any, attr: Any = None, dtype: Any = None, is_bias: bool = False,
                         default_initializer: Any = None) -> Any:
        """A parameter named `<full_name>.w_N` / `.b_N`; attr=False gives None (no parameter).

        dtype=None: the dtype given to the Layer (fluid 1.8 dygraph layers pass theirs), else
        paddle.get_default_dtype() at creation, as Paddle 2.x's layers (`nn.Linear` after
        `set_default_dtype('float64')` has float64 weights)."""
        from paddle_compat.engine.static.param import create_parameter_impl

        if isinstance(attr, (list, tuple)):
            raise TypeError(f"{type(self).__name__}.create_parameter: attr must be a ParamAttr, str, bool or None")
        if dtype is None:
            dtype = _dt.default_float() if self._dtype is _LAYER_DTYPE else self._dtype
        return create_parameter_impl(shape, dtype, attr, is_bias, default_initializer, prefix=self._full_name)

    def create_variable(self, name: str | None = None, persistable: bool | None = None, dtype: Any = None) -> Any:
        from paddle_compat.engine.ops.tensor.creation import fill_constant

        if MODE.static:
            from paddle_compat.engine.framework.program import default_main_program

            return default_main_program().current_block().create_var(
                name=name or unique_name.generate(f"{self._full_name}.var"), dtype=dtype or self._dtype,
                persistable=bool(persistable))
        t = fill_constant([0], dtype or self._dtype, 0.0)
        t.name = name or unique_name.generate(f"{self._full_name}.var")
        t.persistable = bool(persistable)
        return t

    create_tensor = create_variable

    def add_parameter(self, name: str, parameter: Any) -> Any:
        if "." in name:
            raise KeyError(f"add_parameter: the parameter name {name!r} can not contain '.'")
        if name == "":
            raise KeyError("add_parameter: the parameter name can not be empty")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"add_parameter: the parameter name {name!r} already exists")
        if parameter is not None and not _is_param(parameter):
            raise TypeError(f"add_parameter: parameter must be a Parameter, but received "
                            f"{type(parameter).__name__}")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name: str, sublayer: "Layer") -> "Layer":
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(f"add_sublayer: sublayer {name!r} must be a Layer, but received "
                            f"{type(sublayer).__name__}")
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def register_buffer(self, name: str, tensor: Any, persistable: bool = True) -> None:
        if not isinstance(name, str):
            raise TypeError(f"register_buffer: the name of a buffer must be a str, but received {type(name).__name__}")
        if "." in name:
            raise KeyError(f"register_buffer: the name of a buffer can not contain '.' (got {name!r})")
        if name == "":
            raise KeyError("register_buffer: the name of a buffer can not be empty")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"register_buffer: attribute {name!r} already exists")
        if tensor is not None and not _is_tensorlike(tensor):
            raise TypeError(f"register_buffer: the buffer {name!r} must be a Tensor, but received "
                            f"{type(tensor).__name__}")
        if tensor is not None and isinstance(tensor, Tensor) and tensor.name is None:
            tensor.name = unique_name.generate("generated_tensor")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    # --- traversal -----------------------------------------------------------------------------------
    def named_sublayers(self, prefix: str = "", include_self: bool = False,
                        layers_set: set | None = None) -> Iterator[tuple[str, "Layer"]]:
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        # depth first, each layer before its sublayers, with a stack rather than nested generators (a model's
        # ~200 layers walked at every train() / eval())
        stack = [(prefix, iter(self._sub_layers.items()))]
        while stack:
            pre, items = stack[-1]
            for key, layer in items:
                if layer is None or id(layer) in layers_set:
                    continue
                layers_set.add(id(layer))
                p = pre + ("." if pre else "") + key
                yield p, layer
                stack.append((p, iter(layer._sub_layers.items())))
                break
            else:
                stack.pop()

    def sublayers(self, include_self: bool = False, include_sublayers: bool = True) -> list["Layer"]:
        """2.x: every descendant (and self with include_self). 1.8's keyword include_sublayers=False walks no
        sublayer at all, so it gives [] (1.8.5; dygraph/transformer counts it to name its sublayers)."""
        if not include_sublayers:
            return [self] if include_self else []
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self) -> Iterator[tuple[str, "Layer"]]:
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self) -> Iterator["Layer"]:
        for _, layer in self.named_children():
            yield layer

    def _named_members(self, store: str, prefix: str, include_sublayers: bool) -> Iterator[tuple[str, Any]]:
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for name, v in layer.__dict__[store].items():
                if v is None or id(v) in seen:
                    continue
                seen.add(id(v))
                yield lp + ("." if lp else "") + name, v

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True) -> Iterator[tuple[str, Any]]:
        return self._named_members("_parameters", prefix, include_sublayers)

    def parameters(self, include_sublayers: bool = True) -> list:
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True) -> Iterator[tuple[str, Any]]:
        return self._named_members("_buffers", prefix, include_sublayers)

    def buffers(self, include_sublayers: bool = True) -> list:
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn: Callable[["Layer"], Any]) -> "Layer":
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for p in self.parameters():
            if getattr(p, "trainable", True) and isinstance(p, Tensor):
                p.clear_gradient(set_to_zero)

    clear_grad = clear_gradients

    # --- state ---------------------------------------------------------------------------------------
    def state_dict(self, destination: dict | None = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True) -> dict:
        out = collections.OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                out[structured_name_prefix + name] = p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistable_buffer_names_set:
                out[structured_name_prefix + name] = b
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer.state_dict(out, True, structured_name_prefix + name + ".", use_hook)
        if use_hook:
            for hook in self.__dict__.get("_state_dict_hooks", {}).values():
                r = hook(out)
                if r is not None:
                    out = r
        return out

    def register_state_dict_hook(self, hook: Callable) -> HookRemoveHelper:
        """`hook(state_dict)` runs at the end of state_dict() (use_hook=True) and may return a replacement."""
        h = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[h._hook_id] = hook
        return h

    to_static_state_dict = state_dict

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True) -> tuple[list, list]:
        """Copy values in; returns (missing_keys, unexpected_keys) as Paddle 2.x does. A shape mismatch
        names the key and both shapes (Paddle warns and skips; we raise, since a silent skip hides bugs)."""
        own = self.state_dict()
        missing, matched = [], set()
        for key, target in own.items():
            k = key if use_structured_name else target.name
            if k not in state_dict:
                missing.append(key)
                continue
            matched.add(k)
            _assign_value(target, state_dict[k], key)
        unexpected = [k for k in state_dict if k not in matched]
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    # --- placement / dtype ---------------------------------------------------------------------------
    def to(self, device: Any = None, dtype: Any = None, blocking: Any = None) -> "Layer":
        """Every parameter and buffer of this layer and its sublayers moved to `device` and cast to `dtype`, the
        integer ones too (Paddle 2.6: `to` casts all of them; `float` / `float16` / `bfloat16` only the floating
        point ones)."""
        return self._to_impl(device, dtype, floating_only=False, include_sublayers=True)

    def _to_impl(self, device: Any = None, dtype: Any = None, floating_only: bool = False,
                 include_sublayers: bool = True) -> "Layer":
        from paddle_compat.engine.core.place import to_place

        dev = None
        if device is not None:
            dev = to_place(device).torch_device() if not isinstance(device, str) else \
                to_place(device.replace("gpu", "cuda") if device.startswith("gpu") else device).torch_device()
        tdt = _dt.to_torch_dtype(dtype) if dtype is not None else None
        for t in self.parameters(include_sublayers) + self.buffers(include_sublayers):
            if not isinstance(t, Tensor):
                continue
            old = t._t
            if floating_only and not old.is_floating_point():
                continue
            new = old.detach()
            if dev is not None:
                new = new.to(dev)
            if tdt is not None:
                new = new.to(tdt)
            if new.device != old.device or new.dtype != old.dtype:
                t._t = new.requires_grad_(old.requires_grad) if new.is_floating_point() else new
        if dtype is not None:
            self.__dict__["_dtype"] = dtype
            for layer in self.sublayers() if include_sublayers else ():
                layer.__dict__["_dtype"] = dtype
        return self

    def _cast_floating(self, api: str, dtype: str, excluded_layers: Any, default: list) -> "Layer":
        """Layer.float / float16 / bfloat16: the floating point parameters and buffers of every sublayer whose type
        is not one of `excluded_layers` (a Layer class or a list / tuple of them) cast to `dtype`."""
        excluded = default if excluded_layers is None else excluded_layers
        if isinstance(excluded, type):
            excluded = [excluded]
        elif isinstance(excluded, (list, tuple)):
            excluded = list(excluded)
        else:
            raise TypeError(f"{api}: excluded_layers should be a Layer class or a list / tuple of them, but got "
                            f"{type(excluded).__name__}")

        def cast(layer: "Layer") -> None:
            if type(layer) not in excluded:
                layer._to_impl(dtype=dtype, floating_only=True, include_sublayers=False)

        return self.apply(cast)

    def float(self, excluded_layers: Any = None) -> "Layer":
        return self._cast_floating("paddle.nn.Layer.float", "float32", excluded_layers, [])

    def float16(self, excluded_layers: Any = None) -> "Layer":
        return self._low_precision("float16", excluded_layers)

    def bfloat16(self, excluded_layers: Any = None) -> "Layer":
        return self._low_precision("bfloat16", excluded_layers)

    def _low_precision(self, dtype: str, excluded_layers: Any) -> "Layer":
        # Paddle 2.6: where paddle.amp says the device has no such AMP, a warning and the layer unchanged (float16
        # on CPU); else every sublayer but the legacy paddle.nn.BatchNorm (by default) cast
        import warnings

        from paddle_compat.engine.framework import lookup

        api = "paddle.nn.Layer." + dtype
        if not lookup.api("paddle.amp.is_%s_supported" % dtype, api)():
            warnings.warn(f"Paddle compiled by the user does not support {dtype}, so keep original data type.",
                          stacklevel=3)
            return self
        return self._cast_floating(api, dtype, excluded_layers, [lookup.api("paddle.nn.BatchNorm", api)])


def _assign_value(target: Any, value: Any, key: str) -> None:
    from paddle_compat.engine.framework.program import Variable

    arr = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
    if list(arr.shape) != list(target.shape):
        raise ValueError(f"Layer.set_state_dict: {key} receives a shape {list(arr.shape)}, but the expected "
                         f"shape is {list(target.shape)}")
    if isinstance(target, Variable):
        from paddle_compat.engine.framework.scope import global_scope

        global_scope().var(target.name).get_tensor().set(arr.astype(target.dtype.numpy), None)
        return
    target.set_value(arr)


def scratch(x: Any, *layers: Layer) -> bool:
    """Whether a layer may overwrite the intermediates its sublayers return: a plain dygraph call (dispatch.plain_dygraph)
    recording no gradient (inference: an overwritten value is not saved for a backward), and no hook on those
    sublayers that could keep their results."""
    if torch.is_grad_enabled() or not plain_dygraph(x) or torch.compiler.is_compiling():
        return False
    return not any(ly.__dict__["_forward_pre_hooks"] or ly.__dict__["_forward_post_hooks"] for ly in layers)


# Layer types whose call returns a fresh tensor (never its input, a view of it, or a tensor it keeps), and layer types
# whose activation a torch in-place kernel computes with the bits of the layer's own call: (the layer, its input's
# torch tensor) -> whether it was applied. Each module registers its own layers (nn/common.py, norm.py, conv.py).
FRESH_OUTPUTS: set = set()
INPLACE_ACTIVATIONS: dict = {}


def _fresh(before: Any, given: Any, x: Any) -> bool:
    """Whether x, what `before` returned for `given`, is a fresh float tensor only the caller holds: `before` of a
    registered type with its class's forward, x sharing no memory with `given`."""
    if type(before) not in FRESH_OUTPUTS or "forward" in before.__dict__ or type(x) is not Tensor or \
            type(given) is not Tensor:
        return False
    t = x._t
    return t.is_floating_point() and type(t) is torch.Tensor and \
        t.untyped_storage().data_ptr() != given._t.untyped_storage().data_ptr()


def activate_in_place(before: Any, given: Any, layer: Any, x: Any) -> bool:
    """`layer(x)` computed into x's own buffer where x is what `before` returned for `given`, a fresh tensor nothing
    else can see (_fresh), `layer` a registered activation with its class's forward, no gradient and no hook
    (scratch). The same kernel, so the same bits, without a new buffer: a convolution then reads its input from
    memory already in cache (MobileNetV2 inference 1.11 -> 0.97x torch in one process). False where the layer must
    be called."""
    act = INPLACE_ACTIVATIONS.get(type(layer))
    return act is not None and "forward" not in layer.__dict__ and _fresh(before, given, x) and \
        scratch(x, before, layer) and act(layer, x._t)


def call_then(before: Any, act: Any, x: Any) -> Any:
    """act(before(x)), the activation into before's fresh result where activate_in_place allows: a model's
    conv -> norm -> activation written out in its forward, as Sequential runs it."""
    y = before(x)
    return y if activate_in_place(before, x, act, y) else act(y)


def add_into(x: Any, other: Any) -> bool:
    """x + other written into x's buffer (the add's kernel; a + b is b + a bit for bit) where both are dygraph Tensors
    of plain torch tensors with one shape and dtype (nothing broadcasts) sharing no memory; False, writing nothing,
    otherwise. The caller vouches that x is a fresh intermediate nobody else holds."""
    if type(x) is not Tensor or type(other) is not Tensor:
        return False
    t, o = x._t, other._t
    if type(t) is not torch.Tensor or type(o) is not torch.Tensor or t.shape != o.shape or t.dtype != o.dtype or \
            t.untyped_storage().data_ptr() == o.untyped_storage().data_ptr():
        return False
    t.add_(o)
    return True


def add_then(before: Any, given: Any, y: Any, other: Any, act: Any) -> Any:
    """act(y + other) for y, what `before` returned for `given` (a residual block's end): in inference the sum
    (add_into) and the activation into y's own buffer where y is fresh (_fresh) and nothing is hooked; the same
    kernels (the add's, the activation's in-place form), so the same bits."""
    into = INPLACE_ACTIVATIONS.get(type(act))
    if into is not None and "forward" not in act.__dict__ and _fresh(before, given, y) and scratch(y, before, act) \
            and add_into(y, other):
        return y if into(act, y._t) else act(y)
    return act(y + other)


export(Layer, "paddle.nn.Layer", "paddle.fluid.Layer", "paddle.fluid.dygraph.Layer", "paddle.fluid.dygraph.layers.Layer")


export(HookRemoveHelper, "paddle.fluid.dygraph.layers.HookRemoveHelper")
