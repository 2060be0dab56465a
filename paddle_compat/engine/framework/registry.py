"""The op registry: one definition per Paddle op.

An op is a plain function over torch tensors with Paddle's exact signature, decorated with `@op`:

    @op("cumsum", exports=("paddle.cumsum", "paddle.Tensor.cumsum"))
    def cumsum(x, axis=None, dtype=None, name=None):
        ...

`@op` returns the *public* callable (see engine/framework/dispatch.py): in dygraph mode it unwraps
`paddle.Tensor` arguments, runs the body and wraps the result; in static mode it records a node whose
target is the body into the current Program's fx graph. Everything else is derived from the entry:
exports into the `paddle` namespaces, `Tensor` / `Variable` methods, the in-place `_` variant,
shape/dtype inference (engine/framework/infer.py) and the table-driven tests (tests/ops).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

# Two different objects exported at one path (the later one wins silently otherwise); tests/test_module_paths.py
# asserts there are none.
CLASHES: list[tuple[str, Any, Any]] = []
# Module name -> {exported name -> object}. Filled by @op and by `export`; read by paddle_compat._export.
EXPORTS: dict[str, dict[str, Any]] = {}
# Paddle op type -> OpDef
OPS: dict[str, "OpDef"] = {}
# Tensor methods: name -> public callable taking the tensor first.
METHODS: dict[str, Callable] = {}


@dataclass
class OpDef:
    type: str  # Paddle op type, e.g. "elementwise_add"; what graph dumps and `block.ops` show
    impl: Callable  # torch body
    signature: inspect.Signature
    exports: tuple[str, ...] = ()
    inplace: Optional[str] = None  # name of the in-place variant (e.g. "tanh_")
    infer: Optional[Callable] = None  # explicit shape/dtype rule for data-dependent outputs
    differentiable: bool = True
    random: bool = False  # draws random numbers (tests compare statistics, not values)
    is_test_attr: Optional[str] = None  # keyword that clone(for_test=True) switches to inference
    role: str = "forward"
    fast: Optional[Callable] = None  # dygraph shortcut for the common call (engine/framework/dispatch.make_public)
    public: Callable = field(default=None, repr=False)  # type: ignore[assignment]
    tensor_params: tuple[str, ...] = ()
    # the LayerHelper type Paddle's 2.x API names the outputs after when it is not the op type (`paddle.mean` records
    # reduce_mean as `mean_0.tmp_0`); or a function of the bound arguments giving it, or (type, number of tmps the
    # Paddle API creates, which of them our outputs are) where Paddle returns a later output (`layer_norm_0.tmp_2`)
    helper: Any = None
    # the op type Paddle's API records where ours differs (`F.max_pool2d` records `pool2d`), or a function of the bound
    # arguments giving it (or None): Block.ops shows it (node.meta['paddle_type']); the node still runs this op
    paddle_type: Any = None
    # how Paddle's API records the op when it composes it from several (`F.mse_loss`: elementwise_sub, square,
    # reduce_mean): a function with the op's signature that calls registry ops; dispatch.record runs it in place of
    # recording this op (dygraph runs the op itself), or records the op when it returns NotImplemented
    compose: Optional[Callable] = None

    def __hash__(self) -> int:
        return id(self)


# id(function) -> its public entry point (engine/framework/argcheck.entry_point), one per function whatever its paths
_ENTRIES: dict[int, Any] = {}


def _entry(obj: Any, api: str) -> Any:
    """What users get at `api` for `obj`: a plain function with a Tensor parameter is wrapped so that a wrong
    argument is reported in Paddle's words (argcheck.entry_point); ops, classes and the rest are themselves."""
    import types

    if type(obj) is not types.FunctionType:
        return obj
    got = _ENTRIES.get(id(obj))
    if got is None:
        from paddle_compat.engine.framework.argcheck import entry_point

        got = _ENTRIES[id(obj)] = entry_point(obj, api)
    return got


def export(obj: Any, *names: str) -> Any:
    """Register `obj` under fully qualified names such as `paddle.static.data`."""
    public = None
    for full in names:
        mod, _, attr = full.rpartition(".")
        if mod.endswith(".Tensor") or mod == "paddle.Tensor":
            METHODS[attr] = obj
            continue
        if public is None:
            public = _entry(obj, full)
        obj_at = public
        prev = EXPORTS.setdefault(mod, {}).get(attr)
        if prev is not None and prev is not obj_at:
            CLASHES.append((full, prev, obj_at))
        EXPORTS[mod][attr] = obj_at
    return obj


# "module.name" -> what does not work yet, for a name that works otherwise: docs/coverage.md marks it partial.
PARTIAL: dict[str, str] = {}


def exported_path(obj: Any) -> str | None:
    """The first path `obj` is exported at (`module.name`), or None: how an error names an object whose own
    record does not say (an op registered without exports, a Layer class)."""
    for mod, names in EXPORTS.items():
        for attr, o in names.items():
            if o is obj:
                return f"{mod}.{attr}"
    return None


def partial(path: str, note: str) -> None:
    """Record on the coverage page that `path` (e.g. "paddle.fluid.layers.lstm") works with the gap `note`."""
    PARTIAL[path] = note


ALIASES: list[tuple[str, str]] = []  # (target, alias): the alias is bound once every module is imported


def alias(target: str, *names: str) -> None:
    """Export the object registered as `target` (wherever it is defined) under `names` as well."""
    ALIASES.extend((target, n) for n in names)


AFTER_LOAD: list[Callable[[], None]] = []  # run once every implementation module is imported


def after_load(fn: Callable[[], None]) -> Callable[[], None]:
    """Run `fn` once every implementation module has registered its exports (order-independent wiring)."""
    AFTER_LOAD.append(fn)
    return fn


def resolve_aliases() -> None:
    for target, name in ALIASES:
        mod, _, attr = target.rpartition(".")
        obj = EXPORTS.get(mod, {}).get(attr)
        if obj is None:
            raise RuntimeError(f"paddle_compat: alias {name} of {target}, which is not exported")
        export(obj, name)


def exporting(*names: str) -> Callable[[Any], Any]:
    """Decorator form of `export` for classes and adapters that are not ops."""

    def deco(obj: Any) -> Any:
        return export(obj, *names)

    return deco


def op(
    type: str,  # noqa: A002 - Paddle's word
    exports: tuple[str, ...] | str = (),
    inplace: Optional[str] = None,
    infer: Optional[Callable] = None,
    differentiable: bool = True,
    random: bool = False,
    is_test_attr: Optional[str] = None,
    role: str = "forward",
    fast: Optional[Callable] = None,
    helper: Any = None,
    paddle_type: Any = None,
    compose: Optional[Callable] = None,
) -> Callable[[Callable], Callable]:
    if isinstance(exports, str):
        exports = (exports,)

    def deco(fn: Callable) -> Callable:
        from paddle_compat.engine.framework.dispatch import make_inplace, make_public

        if type in OPS:
            raise RuntimeError(f"op {type!r} is defined twice ({OPS[type].impl.__module__} and {fn.__module__})")
        if fn.__name__ == "body":  # bodies made by a table's factory: name them after the op
            fn.__name__ = fn.__qualname__ = type
        sig = inspect.signature(fn)
        opdef = OpDef(type=type, impl=fn, signature=sig, exports=tuple(exports), inplace=inplace, infer=infer,
                      differentiable=differentiable, random=random, is_test_attr=is_test_attr, role=role,
                      fast=fast, helper=helper, paddle_type=paddle_type, compose=compose)
        fn.__paddle_op__ = opdef  # type: ignore[attr-defined]
        public = make_public(opdef)
        opdef.public = public
        OPS[type] = opdef
        export(public, *exports)
        if inplace:
            ip = make_inplace(opdef, inplace)
            names = [e.rpartition(".")[0] + "." + inplace for e in exports]
            export(ip, *names)
        return public

    return deco


def get(type: str) -> OpDef:  # noqa: A002
    return OPS[type]
