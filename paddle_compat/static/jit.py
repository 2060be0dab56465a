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

import inspect
from typing import Any

import numpy as np

from paddle_compat.core.errors import InvalidArgumentError
from paddle_compat.ops.registry import export

_API = "paddle.jit.save"


def _feed_names(layer: Any, specs: list) -> list[str]:
    params = [p.name for p in inspect.signature(layer.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return [getattr(s, "name", None) or (params[i] if i < len(params) else f"input_{i}") for i, s in enumerate(specs)]


def trace(layer: Any, input_spec: Any, api: str = _API) -> tuple[Any, list, list, Any]:
    """(program, feed variables, fetch variables, scope holding the parameters) of layer's eval forward."""
    from paddle_compat.core.mode import MODE
    from paddle_compat.framework.program import Program, program_guard
    from paddle_compat.framework.scope import Scope
    from paddle_compat.framework.tensor import Tensor
    from paddle_compat.static.io import InputSpec
    from paddle_compat.static.param import data

    specs = list(input_spec) if isinstance(input_spec, (list, tuple)) else [input_spec]
    if not specs or input_spec is None:
        raise InvalidArgumentError(f"{api}: input_spec is required (the shapes and dtypes of the forward's inputs), "
                                   "e.g. [paddle.static.InputSpec([None, 784], 'float32', 'x')]")
    specs = [InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in specs]
    for i, s in enumerate(specs):
        if not isinstance(s, InputSpec):
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
            feeds = [data(n, list(s.shape), s.dtype) for n, s in zip(_feed_names(layer, specs), specs)]
            outs = layer(*feeds)
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
        from paddle_compat.nn.layer import Layer

        if isinstance(fn, Layer):
            fn.forward = mark(fn.forward)
            return fn
        fn.__dict__["__paddle_input_spec__"] = input_spec
        return fn

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


def _spec_of(layer: Any, input_spec: Any) -> Any:
    if input_spec is not None:
        return input_spec
    fwd = getattr(layer, "forward", None)
    return getattr(getattr(fwd, "__func__", fwd), "__paddle_input_spec__", None) or \
        getattr(fwd, "__paddle_input_spec__", None)


def save(layer: Any, path: str, input_spec: Any = None, **configs: Any) -> None:
    """paddle.jit.save: `<path>.pdmodel` / `<path>.pdiparams` of layer's eval forward (input_spec, or the one
    given to @paddle.jit.to_static on its forward)."""
    from paddle_compat.framework.scope import scope_guard
    from paddle_compat.nn.layer import Layer
    from paddle_compat.static.io import save_inference_model

    if not isinstance(layer, Layer):
        raise TypeError(f"{_API}: layer should be a paddle.nn.Layer, got {type(layer).__name__}")
    program, feeds, outs, scope = trace(layer, _spec_of(layer, input_spec))
    output_spec = configs.get("output_spec")
    if output_spec is not None:
        outs = [outs[i] for i in output_spec] if all(isinstance(i, int) for i in output_spec) else list(output_spec)
    with scope_guard(scope):
        save_inference_model(path, feeds, outs, None, program=program)


def _run_saved(program: Any, feed_names: list[str], fetches: list, scope: Any, inputs: Any) -> list:
    """Run a traced or loaded inference program on tensors / arrays (from dygraph code); outputs as Tensors."""
    from paddle_compat.core.mode import static_guard
    from paddle_compat.framework.tensor import to_tensor
    from paddle_compat.static.executor import Executor

    feed = {n: (x.numpy() if hasattr(x, "numpy") else np.asarray(x)) for n, x in zip(feed_names, inputs)}
    with static_guard():
        outs = Executor().run(program, feed=feed, fetch_list=fetches, scope=scope)
    return [to_tensor(o) for o in outs]


class TranslatedLayer:
    """What paddle.jit.load returns: call it with tensors (or arrays) in the order of the saved inputs."""

    def __init__(self, path: str) -> None:
        from paddle_compat.core.mode import static_guard
        from paddle_compat.framework.scope import Scope, scope_guard
        from paddle_compat.static.io import load_inference_model

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
        from paddle_compat.static.io import InputSpec

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
        from paddle_compat.framework.scope import scope_guard
        from paddle_compat.static.io import save_inference_model

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
