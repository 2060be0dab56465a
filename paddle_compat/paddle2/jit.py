"""paddle.jit.save / paddle.jit.load for dygraph Layers, and what `paddle.Model.save(training=False)` writes.

`save(layer, path, input_spec)` records the layer's forward (in eval mode) into a static Program, the way
Paddle's to_static does: every parameter and persistable buffer becomes a persistable variable of the same name
(its value taken from the layer), every InputSpec a data variable; then `save_inference_model` writes
`<path>.pdmodel` / `<path>.pdiparams`, which `paddle.static.load_inference_model` and `paddle.jit.load` read.
The forward must be traceable: Python control flow may not depend on tensor values (Paddle's dy2static
converts such code; we do not).

`load(path)` gives a TranslatedLayer: calling it runs the saved program on the given tensors (inference only).
"""

from __future__ import annotations

import functools
import inspect
import weakref
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.registry import export

_API = "paddle.jit.save"
# the inputs of the last call of each Layer's @to_static forward (InputSpecs of its tensors, other arguments as
# given): what paddle.jit.save traces when neither it nor to_static got an input_spec (Paddle saves the program
# of the last call, its shapes as they were)
_LAST_CALL: "weakref.WeakKeyDictionary[Any, tuple[list, dict]]" = weakref.WeakKeyDictionary()


def _feed_names(layer: Any, specs: list) -> list[str]:
    params = [p.name for p in inspect.signature(layer.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return [getattr(s, "name", None) or (params[i] if i < len(params) else f"input_{i}") for i, s in enumerate(specs)]


def trace(layer: Any, input_spec: Any, api: str = _API, consts: dict | None = None) -> tuple[Any, list, list, Any]:
    """(program, feed variables, fetch variables, scope holding the parameters) of layer's eval forward.
    consts: {argument position: value} of non-tensor arguments of a recorded call (input_spec holds None there),
    passed to the forward as they are."""
    from paddle_compat.engine.core.mode import MODE
    from paddle_compat.engine.framework.program import Program, program_guard
    from paddle_compat.engine.framework.scope import Scope
    from paddle_compat.engine.framework.tensor import Tensor
    from paddle_compat.engine.static.io import InputSpec
    from paddle_compat.engine.static.param import data

    specs = list(input_spec) if isinstance(input_spec, (list, tuple)) else [input_spec]
    if not specs or input_spec is None:
        raise InvalidArgumentError(f"{api}: input_spec is required (the shapes and dtypes of the forward's inputs), "
                                   "e.g. [paddle.static.InputSpec([None, 784], 'float32', 'x')]")
    consts = consts or {}
    specs = [InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in specs]
    for i, s in enumerate(specs):
        if not isinstance(s, InputSpec) and i not in consts:
            raise TypeError(f"{api}: input_spec[{i}] should be a paddle.static.InputSpec, got {type(s).__name__}")
    program, scope = Program(), Scope()
    block = program.global_block()
    swapped: list[tuple[dict, str, Any]] = []
    layers = [layer] + list(layer.sublayers())
    modes = [sub.training for sub in layers]
    old_static = MODE.static
    try:
        for sub in layers:  # parameters and persistable buffers become persistable variables of the same name
            for store, persistable_only in ((sub._parameters, False), (sub._buffers, True)):
                for key, t in list(store.items()):
                    if not isinstance(t, Tensor) or (persistable_only and
                                                     key in sub._non_persistable_buffer_names_set):
                        continue
                    if t.name not in block.vars:
                        block.create_var(name=t.name, shape=list(t.shape), dtype=t.dtype, persistable=True,
                                         stop_gradient=True)
                        scope.var(t.name).get_tensor().set(t.numpy(), None)
                    swapped.append((store, key, t))
                    store[key] = block.vars[t.name]
        layer.eval()
        MODE.static = True
        with program_guard(program, Program()):
            args = [consts[i] if i in consts else data(n, list(s.shape), s.dtype)
                    for i, (n, s) in enumerate(zip(_feed_names(layer, specs), specs))]
            feeds = [a for i, a in enumerate(args) if i not in consts]
            outs = layer(*args)
    finally:
        MODE.static = old_static
        for store, key, t in reversed(swapped):
            store[key] = t
        for sub, training in zip(layers, modes):
            sub.training = training
    flat = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return program, feeds, flat, scope


def to_static(function: Any = None, input_spec: Any = None, build_strategy: Any = None, **kwargs: Any) -> Any:
    """paddle.jit.to_static / fluid.dygraph.declarative. The decorated function or Layer keeps running eagerly
    (torch executes dygraph code directly; Paddle converts it to a static program for speed), and remembers
    input_spec for paddle.jit.save."""

    def mark(fn: Any) -> Any:
        from paddle_compat.paddle2.nn.layer import Layer

        if isinstance(fn, Layer):
            fn.forward = mark(fn.forward)
            return fn
        if not callable(fn) or getattr(fn, "__paddle_to_static__", False):
            if callable(fn):
                fn.__dict__["__paddle_input_spec__"] = input_spec
            return fn
        bound = getattr(fn, "__self__", None)
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):  # a callable without a signature
            params = []
        unbound_method = bound is None and bool(params) and params[0] == "self"

        @functools.wraps(fn)
        def static_fn(*args: Any, **kwargs: Any) -> Any:
            owner, inputs = (args[0], args[1:]) if unbound_method and args else (bound, args)
            if isinstance(owner, Layer):
                _record_call(owner, inputs, kwargs)
            return fn(*args, **kwargs)

        static_fn.__dict__["__paddle_input_spec__"] = input_spec
        static_fn.__dict__["__paddle_to_static__"] = True
        return static_fn

    return mark if function is None else mark(function)


def not_to_static(function: Any = None) -> Any:
    return function if function is not None else (lambda f: f)


class ProgramTranslator:
    """paddle.jit.ProgramTranslator / fluid.dygraph.ProgramTranslator: dygraph code always runs eagerly here, so
    enable() only records the choice."""

    _instance: "ProgramTranslator | None" = None

    def __new__(cls) -> "ProgramTranslator":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.enable_to_static = True
        return cls._instance

    @classmethod
    def get_instance(cls) -> "ProgramTranslator":
        return cls()

    def enable(self, enable_to_static: bool) -> None:
        if not isinstance(enable_to_static, bool):
            raise TypeError(f"ProgramTranslator.enable: enable_to_static should be a bool, got "
                            f"{type(enable_to_static).__name__}")
        self.enable_to_static = enable_to_static


def _record_call(layer: Any, inputs: tuple, kwargs: dict) -> None:
    """Remember the inputs of this call of layer's @to_static forward, for paddle.jit.save (tensors as InputSpecs
    of their full shapes, Paddle's InputSpec.from_tensor; other positional arguments as constants)."""
    from paddle_compat.engine.framework.tensor import Tensor
    from paddle_compat.engine.static.io import InputSpec

    if any(isinstance(v, Tensor) for v in kwargs.values()):
        _LAST_CALL.pop(layer, None)  # tensor keyword arguments: not traced here; jit.save then wants input_spec
        return
    specs = [InputSpec(list(x.shape), x.dtype) if isinstance(x, Tensor) else None for x in inputs]
    consts = {i: x for i, x in enumerate(inputs) if not isinstance(x, Tensor)}
    try:
        _LAST_CALL[layer] = (specs, consts)
    except TypeError:  # not weak-referenceable
        pass


def _spec_of(layer: Any, input_spec: Any) -> tuple[Any, dict | None]:
    """(input_spec, constant arguments) to trace layer with: the given input_spec, else the one given to
    @to_static on its forward, else the inputs of the last call of that forward (None if none)."""
    if input_spec is not None:
        return input_spec, None
    fwd = getattr(layer, "forward", None)
    spec = getattr(getattr(fwd, "__func__", fwd), "__paddle_input_spec__", None) or \
        getattr(fwd, "__paddle_input_spec__", None)
    if spec is not None:
        return spec, None
    return _LAST_CALL[layer] if layer in _LAST_CALL else (None, None)  # `in`: False for an unweakrefable layer


def save(layer: Any, path: str, input_spec: Any = None, **configs: Any) -> None:
    """paddle.jit.save: `<path>.pdmodel` / `<path>.pdiparams` of layer's eval forward (input_spec, or the one
    given to @paddle.jit.to_static on its forward)."""
    from paddle_compat.engine.framework.scope import scope_guard
    from paddle_compat.paddle2.nn.layer import Layer
    from paddle_compat.engine.static.io import save_inference_model

    if not isinstance(layer, Layer):
        raise TypeError(f"{_API}: layer should be a paddle.nn.Layer, got {type(layer).__name__}")
    spec, consts = _spec_of(layer, input_spec)
    if spec is None:
        raise InvalidArgumentError(f"{_API}: no valid transformed program for {type(layer).__name__}.forward: "
                                   "input_spec is required (to paddle.jit.save or @paddle.jit.to_static), e.g. "
                                   "[paddle.static.InputSpec([None, 784], 'float32', 'x')], or call the @to_static "
                                   "forward on input tensors once before saving")
    program, feeds, outs, scope = trace(layer, spec, consts=consts)
    output_spec = configs.get("output_spec")
    if output_spec is not None:
        outs = [outs[i] for i in output_spec] if all(isinstance(i, int) for i in output_spec) else list(output_spec)
    with scope_guard(scope):
        save_inference_model(path, feeds, outs, None, program=program)


def _run_saved(program: Any, feed_names: list[str], fetches: list, scope: Any, inputs: Any) -> list:
    """Run a traced or loaded inference program on tensors / arrays (from dygraph code); outputs as Tensors."""
    from paddle_compat.engine.core.mode import static_guard
    from paddle_compat.engine.framework.tensor import to_tensor
    from paddle_compat.engine.static.executor import Executor

    feed = {n: (x.numpy() if hasattr(x, "numpy") else np.asarray(x)) for n, x in zip(feed_names, inputs)}
    with static_guard():
        outs = Executor().run(program, feed=feed, fetch_list=fetches, scope=scope)
    return [to_tensor(o) for o in outs]


class TranslatedLayer:
    """What paddle.jit.load returns: call it with tensors (or arrays) in the order of the saved inputs."""

    def __init__(self, path: str) -> None:
        from paddle_compat.engine.core.mode import static_guard
        from paddle_compat.engine.framework.scope import Scope, scope_guard
        from paddle_compat.engine.static.io import load_inference_model

        self._scope = Scope()
        with static_guard(), scope_guard(self._scope):
            self._program, self._feeds, self._fetches = load_inference_model(path, None)
        self.training = False

    def __call__(self, *inputs: Any) -> Any:
        if len(inputs) != len(self._feeds):
            raise InvalidArgumentError(f"paddle.jit.load: the loaded model takes {len(self._feeds)} inputs "
                                       f"{self._feeds}, got {len(inputs)}")
        res = _run_saved(self._program, self._feeds, self._fetches, self._scope, inputs)
        return res[0] if len(res) == 1 else res

    forward = __call__

    def eval(self) -> "TranslatedLayer":
        return self

    def program(self) -> Any:
        return self._program


def load(path: str, **configs: Any) -> TranslatedLayer:
    return TranslatedLayer(path)


class TracedLayer:
    """fluid.dygraph.TracedLayer (1.8): `TracedLayer.trace(layer, inputs)` -> (outputs, traced), where traced runs
    the recorded program and `save_inference_model(path, feed=None, fetch=None)` saves it."""

    def __init__(self, program: Any, feeds: list, outs: list, scope: Any) -> None:
        self._program, self._feeds, self._outs, self._scope = program, feeds, outs, scope

    @staticmethod
    def trace(layer: Any, inputs: Any) -> tuple:
        from paddle_compat.engine.static.io import InputSpec

        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        specs = [InputSpec(list(x.shape), x.dtype, f"feed_{i}") for i, x in enumerate(inputs)]
        traced = TracedLayer(*trace(layer, specs, "fluid.dygraph.TracedLayer.trace"))
        return layer(*inputs), traced

    def __call__(self, inputs: Any) -> list:
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        return _run_saved(self._program, [v.name for v in self._feeds], self._outs, self._scope, inputs)

    def save_inference_model(self, path: str, feed: Any = None, fetch: Any = None, **kwargs: Any) -> None:
        """Paddle 1.8 writes a directory (`__model__` + parameters); here `path` is the prefix of
        `<path>.pdmodel` / `<path>.pdiparams`, which load_inference_model(path, exe) reads."""
        from paddle_compat.engine.framework.scope import scope_guard
        from paddle_compat.engine.static.io import save_inference_model

        feeds = [self._feeds[i] for i in feed] if feed is not None else self._feeds
        outs = [self._outs[i] for i in fetch] if fetch is not None else self._outs
        with scope_guard(self._scope):
            save_inference_model(path, feeds, outs, None, program=self._program)


export(save, "paddle.jit.save")
export(to_static, "paddle.jit.to_static", "paddle.fluid.dygraph.declarative", "paddle.fluid.dygraph.to_static")
export(not_to_static, "paddle.jit.not_to_static")
export(ProgramTranslator, "paddle.jit.ProgramTranslator", "paddle.fluid.dygraph.ProgramTranslator")
export(TracedLayer, "paddle.fluid.dygraph.TracedLayer")
export(load, "paddle.jit.load")
export(TranslatedLayer, "paddle.jit.TranslatedLayer")
