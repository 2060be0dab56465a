"""ParamAttr, parameter creation (static and dygraph), data variables and global variables."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.mode import MODE, legacy_creation_entry, static_entry_point
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.program import Parameter, default_main_program, default_startup_program
from paddle_compat.engine.framework.registry import export, exporting
from paddle_compat.engine.static import initializer as init_mod


@exporting("paddle.ParamAttr", "paddle.fluid.ParamAttr", "paddle.static.ParamAttr")
class ParamAttr:
    def __init__(self, name: str | None = None, initializer: Any = None, learning_rate: float = 1.0,
                 regularizer: Any = None, trainable: bool = True, do_model_average: bool = True,
                 need_clip: bool = True, gradient_clip: Any = None) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr: name must be a str, but received {type(name).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg: Any) -> "ParamAttr | bool":
        """Paddle's accepted forms: None, False (no parameter), a name, an initializer, a ParamAttr."""
        if arg is None:
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, init_mod.Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]  # type: ignore[return-value]
        if arg is True:
            return ParamAttr()
        raise TypeError(f"{type(arg).__name__} cast to ParamAttr is not supported")

    def _to_kwargs(self, with_initializer: bool = False) -> dict:
        kw = {"name": self.name, "optimize_attr": {"learning_rate": self.learning_rate},
              "regularizer": self.regularizer, "trainable": self.trainable,
              "do_model_average": self.do_model_average, "need_clip": self.need_clip}
        if with_initializer:
            kw["initializer"] = self.initializer
        return kw


@exporting("paddle.static.WeightNormParamAttr", "paddle.fluid.WeightNormParamAttr")
class WeightNormParamAttr(ParamAttr):
    """A ParamAttr that asks for weight normalization along `dim` (w = g * v / ||v||)."""

    def __init__(self, dim: int | None = None, name: str | None = None, initializer: Any = None,
                 learning_rate: float = 1.0, regularizer: Any = None, trainable: bool = True,
                 do_model_average: bool = False, need_clip: bool = True) -> None:
        super().__init__(name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip)
        self.dim = dim


def create_parameter_impl(shape: Any, dtype: Any, attr: Any = None, is_bias: bool = False,
                          default_initializer: Any = None, prefix: str = "param", stop_gradient: bool = False):
    """The one place parameters are made, in either mode, with Paddle's name `<prefix>.w_N` / `.b_N`."""
    pattr = ParamAttr._to_attr(attr)
    if pattr is False:
        return None
    shape = [int(s) for s in shape]
    for s in shape:
        if s < 0:
            raise ValueError(f"create_parameter: every dim of a parameter's shape must be >= 0, got {shape}")
    dtype = _dt.to_dtype(dtype) if dtype is not None else _dt.default_float()
    name = pattr.name or unique_name.generate(f"{prefix}.{'b' if is_bias else 'w'}")
    init = pattr.initializer or init_mod.GLOBAL_INITIALIZER["bias" if is_bias else "weight"] or \
        default_initializer or (init_mod.ConstantInitializer(0.0) if is_bias else init_mod.XavierInitializer())
    trainable = pattr.trainable and not stop_gradient
    if MODE.static and isinstance(pattr, WeightNormParamAttr):
        return _weight_norm_parameter(name, shape, dtype, pattr, init, trainable)
    if MODE.static:
        main = default_main_program().global_block()
        if name in main.vars and isinstance(main.vars[name], Parameter):
            return main.vars[name]  # shared by name, as Paddle does
        p = main.create_parameter(name, shape, dtype, trainable=trainable,
                                  optimize_attr={"learning_rate": pattr.learning_rate},
                                  regularizer=pattr.regularizer, do_model_average=pattr.do_model_average,
                                  need_clip=pattr.need_clip, initializer=init)
        startup = default_startup_program()
        if name not in startup.global_block().vars:
            from paddle_compat.engine.framework.program import program_guard

            with program_guard(startup):
                sv = init._fill(shape, dtype, name)
            sv.persistable = True
            sv.trainable = trainable  # read by the Executor when it writes the value back
        return p
    from paddle_compat.engine.framework.eager_parameter import EagerParameter

    value = init._fill(shape, dtype, None)
    return EagerParameter._from_tensor(value, name=name, trainable=trainable,
                                       optimize_attr={"learning_rate": pattr.learning_rate},
                                       regularizer=pattr.regularizer, need_clip=pattr.need_clip)


def embedding_table(size: Any, dtype: Any, param_attr: Any, is_sparse: bool, padding_idx: Any, prefix: str) -> tuple:
    """(table, padding index) of an embedding layer (fluid.layers.embedding, fluid.embedding,
    paddle.static.nn.embedding): `<prefix>.w_0` of shape [vocab, dim], and a negative padding_idx counted from the
    vocabulary's end. An is_sparse table is marked: Paddle's gradient of it is a SelectedRows
    (Optimizer._selected_rows)."""
    vocab = int(size[0])
    pad = None if padding_idx is None else (padding_idx if padding_idx >= 0 else vocab + padding_idx)
    w = create_parameter_impl(list(size), dtype, param_attr, False, prefix=prefix)
    if is_sparse:
        w._selected_rows_grad = True
    return w, pad


def _norm_except_dim(x: Any, dim: int | None, helper: str, out: str | None = None) -> Any:
    """Paddle's LayerHelperBase norm_except_dim: the 2-norm of x over every dimension but `dim` (all with None),
    shaped to broadcast against x ([1] with None, else x's size at dim and 1 elsewhere); `out` names the result.
    Intermediates are named `<helper>.weight_norm_<kind>_N` in Paddle's order."""
    from paddle_compat.engine.framework.lookup import P

    def tmp(kind: str) -> str:
        return unique_name.generate_with_ignorable_key(f"{helper}.weight_norm_{kind}")

    def norm(t: Any, axis: Any, name: str | None = None) -> Any:
        name = name or tmp("norm")
        t = P("pow")(P("abs")(t, name=tmp("abs")), 2.0, name=tmp("pow"))
        return P("pow")(P("sum")(t, axis=axis, name=tmp("sum")), 0.5, name=name)

    out = out or tmp("norm")
    shape = list(x.shape)
    if dim is None:
        return norm(x, None, out)
    if dim == 0:
        n = norm(P("reshape")(x, [shape[0], -1], name=tmp("reshape")), 1)
        return P("reshape")(n, [shape[0]] + [1] * (len(shape) - 1), name=out)
    if dim == len(shape) - 1:
        n = norm(P("reshape")(x, [-1, shape[-1]], name=tmp("reshape")), 0)
        return P("reshape")(n, [1] * (len(shape) - 1) + [shape[-1]], name=out)
    perm = list(range(len(shape)))
    perm[0], perm[dim] = dim, 0
    t = P("transpose")(x, perm, name=tmp("transpose"))
    n = norm(P("reshape")(t, [shape[dim], -1], name=tmp("reshape")), 1)
    n = P("reshape")(n, [shape[dim]] + [1] * (len(shape) - 1), name=tmp("reshape"))
    return P("transpose")(n, perm, name=out)


def _weight_norm_parameter(name: str, shape: list, dtype: Any, pattr: "WeightNormParamAttr", init: Any,
                           trainable: bool) -> Any:
    """A WeightNormParamAttr parameter in a Program, as Paddle's LayerHelperBase._create_weight_normalize builds
    it (1.8, 2.4 and 2.6 agree): parameters `<name>_g` (shape 1 but at `dim`) and `<name>_v` (the given shape,
    initialized by the initializer); the startup program sets g = ||v|| over every dim but `dim`, so w starts as
    the initializer draws it; the main program computes w = v * g / ||v|| (returned; not a parameter)."""
    from paddle_compat.engine.framework.dispatch import layer_helper
    from paddle_compat.engine.framework.program import program_guard
    from paddle_compat.engine.framework.lookup import P
    from paddle_compat.engine.ops.tensor.math import elementwise_mul

    dim = pattr.dim
    if dim is not None and not -len(shape) <= dim < len(shape):
        raise ValueError(f"WeightNormParamAttr: dim {dim} is out of range for a parameter of shape {shape}")
    if dim is not None and dim < 0:
        dim += len(shape)
    helper = name.rpartition(".")[0] or name
    g_shape = [1] * len(shape)
    if dim is not None:
        g_shape[dim] = shape[dim]
    common = dict(trainable=trainable, optimize_attr={"learning_rate": pattr.learning_rate},
                  regularizer=pattr.regularizer, do_model_average=pattr.do_model_average, need_clip=pattr.need_clip)
    main = default_main_program().global_block()
    g = main.create_parameter(name + "_g", g_shape, dtype, **common)
    v = main.create_parameter(name + "_v", shape, dtype, initializer=init, **common)
    startup = default_startup_program()
    if g.name not in startup.global_block().vars:
        with program_guard(startup):
            sv = init._fill(shape, dtype, v.name)
            sg = P("reshape")(_norm_except_dim(sv, dim, helper, out=g.name), g_shape, name=g.name)
        for var in (sv, sg):
            var.persistable = True
            var.trainable = trainable
    norm = _norm_except_dim(v, dim, helper)
    scale = P("divide")(g, norm)  # elementwise_div_0: paddle.divide's LayerHelper name (2.4 and 2.6)
    if dim is not None:
        with layer_helper("reshape2"):
            scale = P("reshape")(scale, [shape[dim]])
    # Paddle calls paddle.multiply with an axis (its _elementwise_op): named as paddle.multiply, elementwise_mul_0
    return elementwise_mul(v, scale, axis=-1 if dim is None else dim, name=unique_name.generate("elementwise_mul"))


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None, is_bias: bool = False,
                     default_initializer: Any = None):
    """paddle.create_parameter / paddle.static.create_parameter / fluid.layers.create_parameter. Named as Paddle's
    LayerHelper('create_parameter') names it (1.8, 2.4 and 2.6 agree): `create_parameter_N.w_0` (`.b_0` for a
    bias), `name` itself when given without an attr, `<name>.w_0` when given beside an unnamed attr."""
    helper = name if name is not None else unique_name.generate("create_parameter")
    pattr = ParamAttr(name=name) if attr is None else ParamAttr._to_attr(attr)
    if pattr is False:
        pattr = ParamAttr()
    return create_parameter_impl(shape, dtype, pattr, is_bias, default_initializer, prefix=helper)


export(create_parameter, "paddle.create_parameter", "paddle.static.create_parameter")


@exporting("paddle.fluid.layers.create_parameter")
def fluid_create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None,
                           is_bias: bool = False, default_initializer: Any = None):
    """fluid.layers.create_parameter: a 1.x creation op, so a script's first call decides static mode (as
    fluid.layers.fill_constant does) instead of making an eager parameter."""
    legacy_creation_entry()
    return create_parameter(shape, dtype, name, attr, is_bias, default_initializer)


def create_global_var(shape: Any, value: float, dtype: Any, persistable: bool = False, force_cpu: bool = False,
                      name: str | None = None):
    """A variable initialized to `value` by the startup program (persistable ones live in the Scope)."""
    from paddle_compat.engine.framework.program import program_guard
    from paddle_compat.engine.ops.tensor.creation import fill_constant

    legacy_creation_entry()
    if not MODE.static:
        out = fill_constant(shape, dtype, value)
        out.persistable = persistable
        return out
    name = name or unique_name.generate("global_var")
    main = default_main_program().global_block()
    v = main.create_var(name=name, shape=shape, dtype=dtype, persistable=persistable, stop_gradient=True)
    with program_guard(default_startup_program()):
        sv = fill_constant(shape, dtype, value, name=name)
    sv.persistable = persistable
    if not persistable:
        # a non-persistable global is initialized where it is used: record the fill in main too
        from paddle_compat.engine.framework.dispatch import rebind

        rebind(v, fill_constant(shape, dtype, value))
    return v


export(create_global_var, "paddle.static.create_global_var", "paddle.fluid.layers.create_global_var")


def data(name: str, shape: Any, dtype: Any = None, lod_level: int = 0):
    """paddle.static.data: None or -1 dims are unknown; the shape is checked against the feed."""
    static_entry_point()
    if not MODE.static:
        raise RuntimeError("paddle.static.data can only be used in static mode; call paddle.enable_static()")
    shape = [-1 if s is None else int(s) for s in shape]
    block = default_main_program().global_block()
    v = block.create_var(name=name, shape=shape, dtype=dtype if dtype is not None else _dt.default_float(),
                         stop_gradient=True, lod_level=lod_level, is_data=True, need_check_feed=True)
    return v


def fluid_data(name: str, shape: Any, dtype: Any = "float32", lod_level: int = 0):
    """fluid.data (1.8): like static.data, dtype defaults to float32."""
    return data(name, shape, dtype, lod_level)


def layers_data(name: str, shape: Any, append_batch_size: bool = True, dtype: Any = "float32", lod_level: int = 0,
                type: Any = None, stop_gradient: bool = True):  # noqa: A002
    """fluid.layers.data (1.8): prepends a -1 batch dim unless the shape already has an unknown dim."""
    static_entry_point()
    shape = list(shape)
    for i, s in enumerate(shape):
        if s is None:
            shape[i] = -1
            append_batch_size = False
        elif s < 0:
            append_batch_size = False
    if append_batch_size:
        shape = [-1] + shape
    block = default_main_program().global_block()
    return block.create_var(name=name, shape=shape, dtype=dtype, stop_gradient=stop_gradient, lod_level=lod_level,
                            is_data=True, need_check_feed=False)


export(data, "paddle.static.data")
export(fluid_data, "paddle.fluid.data")
export(layers_data, "paddle.fluid.layers.data")
