"""Programs from real Paddle's inference model files (`__model__` of fluid 1.x, `.pdmodel` of Paddle 2.x).

`engine/static/proto.py` decodes the protobuf ProgramDesc; this module rebuilds one of our Programs from it:
- the `feed` ops' outputs (in `col` order) become data variables, with the VarDesc's shape and dtype;
- every persistable tensor variable becomes a persistable placeholder (a Parameter where the VarDesc says
  `is_parameter`, as Paddle's own `_sync_with_cpp` does), filled from the Scope by the Executor;
- every other op of block 0 is replayed, in order, through the registry op that implements it. `_ADAPTERS`
  holds one adapter per Paddle op type: it reads the OpDesc's input slots (X, Y, Input, Filter, ...) and
  attributes and calls registry ops, and returns its results by output slot; the results are then renamed
  to the OpDesc's output names (SSA `rebind`), so fetch targets, found by name, are the variables the
  `fetch` ops read (in `col` order).
An op type without an adapter, an input given as a tensor where we need the attribute (ShapeTensor,
ScaleTensor, ...) or a control-flow sub-block raises UnsupportedAPIError naming the op type and the file.
Outputs nobody reads in inference (XShape, batch_norm's MeanOut / SavedMean, layer_norm's Mean, dropout's
Mask) are not produced.
"""

from __future__ import annotations

from typing import Any, Callable

from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.core.mode import static_guard
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import rebind
from paddle_compat.engine.framework.program import Program, Variable, program_guard
from paddle_compat.engine.framework import registry
from paddle_compat.engine.static import proto

# temporaries our adapters make get this prefix: never one of the model's own names
_TMP_PREFIX = "_pdmodel_"


def _op(t: str) -> Callable:
    return registry.OPS[t].public


class _OpView:
    """One OpDesc seen by an adapter: its input variables by slot and its attribute values."""

    def __init__(self, desc: dict, env: dict[str, Variable], where: str, api: str, version: int = 0) -> None:
        self.type = desc["type"]
        self.version = version  # the ProgramDesc's (Paddle's version number: 1.8.5 -> 1008005, 2.6.2 -> 2006002)
        self.inputs = {v["parameter"]: list(v["arguments"]) for v in desc["inputs"]}
        self.outputs = {v["parameter"]: list(v["arguments"]) for v in desc["outputs"]}
        self.attrs = {a["name"]: proto.attr_value(a) for a in desc["attrs"]}
        self._env, self._where, self._api = env, where, api

    def unsupported(self, detail: str) -> UnsupportedAPIError:
        return UnsupportedAPIError(self._api, f"op {self.type!r} in the model {self._where}: {detail}")

    def xs(self, slot: str) -> list[Variable]:
        out = []
        for name in self.inputs.get(slot, []):
            v = self._env.get(name)
            if v is None:
                raise ValueError(f"{self._api}: op {self.type!r} in the model {self._where} reads variable "
                                 f"{name!r} (input {slot}), which no earlier op produces and which is neither "
                                 "fed nor persistable")
            out.append(v)
        return out

    def x(self, slot: str = "X") -> Variable:
        vs = self.xs(slot)
        if len(vs) != 1:
            raise ValueError(f"{self._api}: op {self.type!r} in the model {self._where} should have one "
                             f"{slot} input, but has {len(vs)}")
        return vs[0]

    def opt(self, slot: str) -> Variable | None:
        vs = self.xs(slot)
        return vs[0] if vs else None

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)

    def no_tensor_inputs(self, *slots: str) -> None:
        """Inputs that override an attribute at run time (ShapeTensor, ScaleTensor, ...) are not supported."""
        given = [s for s in slots if self.inputs.get(s)]
        if given:
            raise self.unsupported(f"inputs {given} given as tensors are not supported (only the attributes)")

    def layout(self, attr: str = "data_format", rank: int | None = None) -> str:
        """The layout attribute ('AnyLayout' is NCHW); with `rank`, spelled for that rank (ops such as
        interp_v2 write 'NCHW' for 3-D and 5-D inputs too)."""
        fmt = self.attr(attr, "NCHW")
        fmt = "NCHW" if fmt in ("AnyLayout", "", None) else fmt
        if rank is not None and rank in (3, 4, 5):
            fmt = ("NWC", "NHWC", "NDHWC")[rank - 3] if fmt.endswith("C") else ("NCW", "NCHW", "NCDHW")[rank - 3]
        return fmt


# --- adapters: OpDesc -> registry ops; each returns {output slot: Variable or list of Variables} -------------
def _unary(t: str) -> Callable[[_OpView], dict]:
    return lambda o: {"Out": _op(t)(o.x())}


def _elementwise(o: _OpView) -> dict:
    return {"Out": _op(o.type)(o.x("X"), o.x("Y"), axis=o.attr("axis", -1))}


def _mul(o: _OpView) -> dict:
    return {"Out": _op("mul")(o.x("X"), o.x("Y"), x_num_col_dims=o.attr("x_num_col_dims", 1),
                              y_num_col_dims=o.attr("y_num_col_dims", 1))}


def _fc(o: _OpView) -> dict:
    """The fused `fc` op inference passes write: Input flattened at in_num_col_dims @ W + Bias, then
    activation_type ('' or 'relu')."""
    act = o.attr("activation_type", "") or ""
    if act not in ("", "relu") or o.attr("padding_weights", False):
        raise o.unsupported(f"activation_type {act!r} / padding_weights {o.attr('padding_weights', False)}")
    out = _op("mul")(o.x("Input"), o.x("W"), x_num_col_dims=int(o.attr("in_num_col_dims", 1)), y_num_col_dims=1)
    bias = o.opt("Bias")
    if bias is not None:
        out = _op("elementwise_add")(out, _op("reshape2")(bias, [-1]))
    return {"Out": _op("relu")(out) if act == "relu" else out}


def _matmul(o: _OpView) -> dict:
    """matmul (1.x): alpha * op(X) @ op(Y); matmul_v2: op(X) @ op(Y)."""
    v1 = o.type == "matmul"
    out = _op("matmul_v2")(o.x("X"), o.x("Y"), transpose_x=bool(o.attr("transpose_X" if v1 else "trans_x", False)),
                           transpose_y=bool(o.attr("transpose_Y" if v1 else "trans_y", False)))
    alpha = float(o.attr("alpha", 1.0)) if v1 else 1.0
    return {"Out": _op("scale")(out, scale=alpha) if alpha != 1.0 else out}


def _conv2d(o: _OpView) -> dict:
    algo = o.attr("padding_algorithm", "EXPLICIT")
    padding = algo if algo in ("SAME", "VALID") else list(o.attr("paddings", [0, 0]))
    kw = {"fuse_relu_before_depthwise_conv": bool(o.attr("fuse_relu_before_depthwise_conv", False))} \
        if o.type == "depthwise_conv2d" else {}  # the depthwise op keeps its type (and conv2d's arithmetic)
    return {"Output": _op(o.type)(o.x("Input"), o.x("Filter"), stride=list(o.attr("strides", [1, 1])),
                                  padding=padding, dilation=list(o.attr("dilations", [1, 1])),
                                  groups=int(o.attr("groups", 1) or 1), data_format=o.layout(), **kw)}


def _pool2d(o: _OpView) -> dict:
    x, fmt, ptype, ksize = o.x(), o.layout(), o.attr("pooling_type", "max"), list(o.attr("ksize"))
    if o.attr("adaptive", False) and not o.attr("global_pooling", False):
        if fmt != "NCHW":
            raise o.unsupported(f"adaptive pooling with data_format {fmt!r}")
        return {"Out": _op(f"adaptive_{ptype}_pool2d")(x, ksize)}
    algo = o.attr("padding_algorithm", "EXPLICIT")
    padding = algo if algo in ("SAME", "VALID") else list(o.attr("paddings", [0, 0]))
    return {"Out": _op("pool2d")(x, pool_size=ksize, pool_type=ptype, pool_stride=list(o.attr("strides", [1, 1])),
                                 pool_padding=padding, global_pooling=bool(o.attr("global_pooling", False)),
                                 ceil_mode=bool(o.attr("ceil_mode", False)),
                                 exclusive=bool(o.attr("exclusive", True)), data_format=fmt)}


def _max_pool2d_with_index(o: _OpView) -> dict:
    """F.max_pool2d / max_pool1d with return_mask, and the adaptive max pools: the output and its int32 mask (the
    kernel takes neither ceil_mode nor the 'SAME' algorithm: our op with return_mask=True ignores them too)."""
    x, ksize = o.x(), list(o.attr("ksize"))
    if o.attr("global_pooling", False):
        ksize = list(x.shape[2:])
        if any(d < 0 for d in ksize):
            raise o.unsupported(f"global pooling over spatial dims {ksize} of unknown size")
    if o.attr("adaptive", False) and not o.attr("global_pooling", False):
        out, mask = _op("adaptive_max_pool2d")(x, ksize, return_mask=True)
    else:
        out, mask = _op("max_pool2d")(x, ksize, stride=list(o.attr("strides", [1, 1])),
                                      padding=[0, 0] if o.attr("global_pooling", False) else
                                      list(o.attr("paddings", [0, 0])), return_mask=True)
    return {"Out": out, "Mask": mask}


def _batch_norm(o: _OpView) -> dict:
    o.no_tensor_inputs("MomentumTensor")
    return {"Y": _op("batch_norm")(o.x("X"), o.x("Mean"), o.x("Variance"), o.opt("Scale"), o.opt("Bias"),
                                   is_test=bool(o.attr("is_test", False)), momentum=o.attr("momentum", 0.9),
                                   epsilon=o.attr("epsilon", 1e-5), data_format=o.layout("data_layout"),
                                   use_global_stats=bool(o.attr("use_global_stats", False)))}


def _dropout(o: _OpView) -> dict:
    o.no_tensor_inputs("Seed")
    return {"Out": _op("dropout")(o.x(), dropout_prob=o.attr("dropout_prob", 0.5),
                                  is_test=bool(o.attr("is_test", False)),
                                  mode=o.attr("dropout_implementation", "downgrade_in_infer"))}


def _layer_norm(o: _OpView) -> dict:
    x = o.x()
    begin = int(o.attr("begin_norm_axis", 1))
    trailing = list(x.shape[begin:])
    if any(d < 0 for d in trailing):
        raise o.unsupported(f"layer_norm over dims {trailing} of unknown size (input {x.name!r} shape "
                            f"{list(x.shape)}, begin_norm_axis {begin})")
    return {"Y": _op("layer_norm")(x, trailing, o.opt("Scale"), o.opt("Bias"), epsilon=o.attr("epsilon", 1e-5))}


def _lookup_table(o: _OpView) -> dict:
    """lookup_table (1.x) takes ids whose last dim is 1 and drops it; lookup_table_v2 keeps the ids' shape.
    padding_idx -1 means none."""
    ids = o.x("Ids")
    if o.type == "lookup_table":
        if not ids.shape or ids.shape[-1] != 1:
            raise ValueError(f"op lookup_table: the last dim of Ids {ids.name!r} should be 1, but its shape is "
                             f"{list(ids.shape)}")
        ids = _op("squeeze2")(ids, axis=[-1])
    pad = o.attr("padding_idx", -1)
    return {"Out": _op("lookup_table_v2")(ids, o.x("W"), padding_idx=None if pad == -1 else int(pad))}


def _softmax(o: _OpView) -> dict:
    return {"Out": _op(o.type)(o.x(), axis=int(o.attr("axis", -1)))}


def _scale(o: _OpView) -> dict:
    o.no_tensor_inputs("ScaleTensor")
    return {"Out": _op("scale")(o.x(), scale=o.attr("scale", 1.0), bias=o.attr("bias", 0.0),
                                bias_after_scale=bool(o.attr("bias_after_scale", True)))}


def _shape_arg(o: _OpView, whole: str, parts: str, attr: str = "shape") -> Any:
    """The target shape of reshape2 / expand_v2 (or another int-list attribute a tensor input may override, such
    as strided_slice's starts) as Paddle's kernels take it: the `whole` 1-D tensor input, else the `parts` list of
    one-element tensors (`x.reshape([B, -1, C])` with B = paddle.shape(x)[0], as SegFormer and ViT write), else
    the `attr` attribute."""
    full = o.opt(whole)
    if full is not None:
        return full
    return o.xs(parts) or list(o.attr(attr))


def _reshape(o: _OpView) -> dict:
    return {"Out": _op("reshape2")(o.x(), _shape_arg(o, "Shape", "ShapeTensor"))}


def _transpose(o: _OpView) -> dict:
    return {"Out": _op("transpose2")(o.x(), list(o.attr("axis")))}


def _concat(o: _OpView) -> dict:
    o.no_tensor_inputs("AxisTensor")
    return {"Out": _op("concat")(o.xs("X"), axis=int(o.attr("axis", 0)))}


def _flatten(o: _OpView) -> dict:
    if o.type == "flatten_contiguous_range":
        return {"Out": _op(o.type)(o.x(), start_axis=o.attr("start_axis", 1), stop_axis=o.attr("stop_axis", -1))}
    return {"Out": _op("flatten2")(o.x(), axis=int(o.attr("axis", 1)))}


def _squeeze(o: _OpView) -> dict:
    o.no_tensor_inputs("AxesTensor", "AxesTensorList")
    axes = list(o.attr("axes", []))
    if o.type.startswith("unsqueeze"):
        return {"Out": _op("unsqueeze2")(o.x(), axes)}
    return {"Out": _op("squeeze2")(o.x(), axes or None)}


def _fill_value(o: _OpView) -> tuple[str, Any]:
    """(dtype, value) of fill_constant-like ops: `str_value`, when set, holds the exact value."""
    dtype = proto.DTYPE_NAMES.get(o.attr("dtype", 5), "float32")
    s = o.attr("str_value", "")
    value = float(s) if s else o.attr("value", 0.0)
    if dtype.startswith(("int", "uint")):
        value = int(value)
    elif dtype == "bool":
        value = bool(value)
    return dtype, value


def _fill_constant(o: _OpView) -> dict:
    o.no_tensor_inputs("ShapeTensor", "ShapeTensorList", "ValueTensor")
    dtype, value = _fill_value(o)
    return {"Out": _op("fill_constant")(list(o.attr("shape", [])), dtype, value)}


def _fill_constant_batch_size_like(o: _OpView) -> dict:
    dtype, value = _fill_value(o)
    return {"Out": _op("fill_constant_batch_size_like")(
        o.x("Input"), list(o.attr("shape")), dtype, value, input_dim_idx=int(o.attr("input_dim_idx", 0)),
        output_dim_idx=int(o.attr("output_dim_idx", 0)))}


def _cast(o: _OpView) -> dict:
    return {"Out": _op("cast")(o.x(), proto.DTYPE_NAMES[o.attr("out_dtype")])}


def _top_k(o: _OpView) -> dict:
    o.no_tensor_inputs("K")
    if o.type == "top_k":
        vals, idx = _op("top_k_v2")(o.x(), int(o.attr("k", 1)))
    else:
        vals, idx = _op("top_k_v2")(o.x(), int(o.attr("k", 1)), axis=int(o.attr("axis", -1)),
                                    largest=bool(o.attr("largest", True)), sorted=bool(o.attr("sorted", True)))
    return {"Out": vals, "Indices": idx}


def _arg_max(o: _OpView) -> dict:
    dtype = o.attr("dtype", 3)
    axis = None if o.attr("flatten", False) else int(o.attr("axis", -1))
    return {"Out": _op(o.type)(o.x(), axis=axis, keepdim=bool(o.attr("keepdims", False)),
                               dtype=proto.DTYPE_NAMES.get(dtype, "int64") if dtype != -1 else "int64")}


def _sum(o: _OpView) -> dict:
    return {"Out": _op("sum")(o.xs("X"))}


def _mean(o: _OpView) -> dict:
    return {"Out": _op("mean")(o.x())}


def _reduce(o: _OpView) -> dict:
    """reduce_*: dim / keep_dim / reduce_all; reduce_sum's out_dtype (-1: the input's) is its `dtype`."""
    axis = None if o.attr("reduce_all", False) else list(o.attr("dim", []))
    kw = {}
    out_dtype = o.attr("out_dtype", -1)
    if out_dtype not in (-1, None):
        if o.type != "reduce_sum":
            raise o.unsupported(f"out_dtype {proto.DTYPE_NAMES.get(out_dtype, out_dtype)}")
        kw["dtype"] = proto.DTYPE_NAMES[out_dtype]
    return {"Out": _op(o.type)(o.x(), axis=axis or None, keepdim=bool(o.attr("keep_dim", False)), **kw)}


def _cumsum(o: _OpView) -> dict:
    """cumsum: axis / flatten (over the flattened input) / reverse (from the end) / exclusive (without the element
    itself: the inclusive sum less the input). PaddleNLP's BERT embeddings write it (position ids)."""
    o.no_tensor_inputs("AxisTensor")
    x = o.x()
    flatten = bool(o.attr("flatten", False))
    axis = None if flatten else int(o.attr("axis", -1))
    dim = 0 if flatten else axis
    if flatten:
        x = _op("flatten_contiguous_range")(x, start_axis=0, stop_axis=-1)
    if o.attr("reverse", False):
        x = _op("flip")(x, [dim])
    out = _op("cumsum")(x, axis=dim)
    if o.attr("exclusive", False):
        out = _op("elementwise_sub")(out, x)
    if o.attr("reverse", False):
        out = _op("flip")(out, [dim])
    return {"Out": out}


def _slice(o: _OpView) -> dict:
    o.no_tensor_inputs("StartsTensor", "EndsTensor", "StartsTensorList", "EndsTensorList")
    x = o.x("Input")
    out = _op("slice")(x, list(o.attr("axes")), list(o.attr("starts")), list(o.attr("ends")))
    dec = list(o.attr("decrease_axis", []))
    if dec:  # every dim decreased gives shape [1] (Paddle 2.4), not 0-D
        out = _op("reshape2")(out, [1]) if len(dec) == len(x.shape) else _op("squeeze2")(out, dec)
    return {"Out": out}


def _strided_slice(o: _OpView) -> dict:
    """strided_slice (what 2.x saves for `x[:, 0::2, 1::2]`, as PaddleClas Swin / LeViT write): starts / ends /
    strides per axis in `axes`, each from its 1-D tensor input (StartsTensor, ...), else its list of one-element
    tensors (StartsTensorList, ...: `x[:, 1:paddle.shape(x)[1]]`), else the attribute; Paddle's clamping of the
    bounds is the registry op's. decrease_axis dims (an int index, `x[1, ::2]`) are squeezed; infer_flags only
    marks, for shape inference, the values that come from tensors."""
    args = [_shape_arg(o, f"{k}Tensor", f"{k}TensorList", k.lower()) for k in ("Starts", "Ends", "Strides")]
    out = _op("strided_slice")(o.x("Input"), list(o.attr("axes")), *args)
    dec = list(o.attr("decrease_axis", []) or [])
    return {"Out": _op("squeeze2")(out, dec) if dec else out}


def _unfold(o: _OpView) -> dict:
    """unfold (F.unfold, PaddleClas RedNet's involution and TNT): paddings are [top, left, bottom, right]."""
    return {"Y": _op("unfold")(o.x(), list(o.attr("kernel_sizes")), strides=list(o.attr("strides", [1, 1])),
                               paddings=list(o.attr("paddings", [0, 0, 0, 0])),
                               dilations=list(o.attr("dilations", [1, 1])))}


def _roll(o: _OpView) -> dict:
    """roll (PaddleClas Swin's shifted windows): shifts from the ShiftsTensor input, else the attribute; an empty
    axis rolls the flattened input."""
    shifts = o.opt("ShiftsTensor")
    axis = list(o.attr("axis", []) or [])
    return {"Out": _op("roll")(o.x(), list(o.attr("shifts")) if shifts is None else shifts, axis=axis or None)}


def _index_select(o: _OpView) -> dict:
    return {"Out": _op("index_select")(o.x(), o.x("Index"), axis=int(o.attr("dim", 0)))}


def _gather_nd(o: _OpView) -> dict:
    return {"Out": _op("gather_nd")(o.x(), o.x("Index"))}


def _gelu(o: _OpView) -> dict:
    return {"Out": _op("gelu")(o.x(), approximate=bool(o.attr("approximate", False)))}


def _leaky_relu(o: _OpView) -> dict:
    return {"Out": _op("leaky_relu")(o.x(), negative_slope=o.attr("alpha", 0.02))}


def _conv2d_transpose(o: _OpView) -> dict:
    algo = o.attr("padding_algorithm", "EXPLICIT")
    padding = algo if algo in ("SAME", "VALID") else list(o.attr("paddings", [0, 0]))
    out_size = list(o.attr("output_size", []) or [])
    return {"Output": _op(o.type)(  # conv2d_transpose or depthwise_conv2d_transpose (the same arithmetic)
        o.x("Input"), o.x("Filter"), stride=list(o.attr("strides", [1, 1])), padding=padding,
        output_padding=list(o.attr("output_padding", []) or [0]), groups=int(o.attr("groups", 1) or 1),
        dilation=list(o.attr("dilations", [1, 1])), output_size=out_size or None, data_format=o.layout())}


def _interp_v2(o: _OpView) -> dict:
    """Paddle's rule: a positive `scale` attribute wins over out_h / out_w (and is used for the coordinates); an
    OutSize tensor input (`F.interpolate(x, paddle.shape(y)[2:])`, as PaddleSeg writes) wins over both."""
    o.no_tensor_inputs("SizeTensor", "Scale")
    x = o.x()
    nsp = len(x.shape) - 2
    scale = [float(v) for v in (o.attr("scale", []) or [])]
    kw = {}
    out_size = o.opt("OutSize")
    if out_size is not None:
        kw["size"] = out_size
    elif scale and all(v > 0 for v in scale):
        kw["scale_factor"] = scale if len(scale) > 1 else scale[0]
    else:
        kw["size"] = [int(o.attr(a, -1)) for a in ("out_d", "out_h", "out_w")[3 - nsp:]]
    return {"Out": _op("interp_v2")(x, mode=o.attr("interp_method", o.type.split("_")[0]),
                                    align_corners=bool(o.attr("align_corners", False)),
                                    align_mode=int(o.attr("align_mode", 0)),
                                    data_format=o.layout("data_layout", len(x.shape)), **kw)}


def _interp_v1(o: _OpView) -> dict:
    """nearest_interp / bilinear_interp (fluid 1.x resize_*): the output size is int(in * scale) when scale > 0,
    else out_h / out_w, and the source coordinates use in/out (not 1/scale). Nearest picks source rows and
    columns with the kernel's float32 formula (`int(ratio * k + 0.5)` with align_corners), which
    interpolate's nearest mode does not offer; bilinear is interp_v2 at that size."""
    import numpy as np

    o.no_tensor_inputs("OutSize", "SizeTensor", "Scale")
    x, fmt = o.x(), o.layout("data_layout")
    if len(x.shape) != 4:
        raise o.unsupported(f"a {len(x.shape)}-D input (only 4-D)")
    axes = (2, 3) if fmt == "NCHW" else (1, 2)
    sizes_in = [x.shape[a] for a in axes]
    if any(n < 0 for n in sizes_in):
        raise o.unsupported(f"input {x.name!r} of shape {list(x.shape)}: the spatial size must be known")
    scale = float(o.attr("scale", 0.0) or 0.0)
    if scale > 0:
        sizes_out = [int(np.float32(n) * np.float32(scale)) for n in sizes_in]
    else:
        sizes_out = [int(o.attr("out_h")), int(o.attr("out_w"))]
    align = bool(o.attr("align_corners", True))
    if o.attr("interp_method", o.type.split("_")[0]) == "bilinear":
        return {"Out": _op("interp_v2")(x, size=sizes_out, mode="bilinear", align_corners=align,
                                        align_mode=int(o.attr("align_mode", 1)), data_format=fmt)}
    if sizes_in == sizes_out:
        return {"Out": _op("assign")(x)}
    out = x
    for axis, n_in, n_out in zip(axes, sizes_in, sizes_out):
        ratio = np.float32(0.0)
        if n_out > 1:
            ratio = np.float32(n_in - 1) / np.float32(n_out - 1) if align else np.float32(n_in) / np.float32(n_out)
        prods = ratio * np.arange(n_out, dtype=np.float32)  # float32, as the kernel
        src = (prods.astype(np.float64) + 0.5 if align else prods).astype(np.int64)
        out = _op("index_select")(out, _op("assign_value")(src.tolist(), "int64"), axis=axis)
    return {"Out": out}


def _pad2d(o: _OpView) -> dict:
    """pad2d's paddings are [top, bottom, left, right]; its 'edge' mode is 'replicate'."""
    o.no_tensor_inputs("Paddings")
    top, bottom, left, right = (int(v) for v in o.attr("paddings"))
    mode = o.attr("mode", "constant")
    return {"Out": _op("pad3d")(o.x(), [left, right, top, bottom], mode="replicate" if mode == "edge" else mode,
                                value=float(o.attr("pad_value", 0.0)), data_format=o.layout())}


def _pad(o: _OpView) -> dict:
    return {"Out": _op("pad")(o.x(), list(o.attr("paddings")), float(o.attr("pad_value", 0.0)))}


def _pad3d(o: _OpView) -> dict:
    o.no_tensor_inputs("Paddings")
    return {"Out": _op("pad3d")(o.x(), list(o.attr("paddings")), mode=o.attr("mode", "constant"),
                                value=float(o.attr("value", 0.0)), data_format=o.attr("data_format", "NCDHW"))}


def _relu6(o: _OpView) -> dict:
    t = float(o.attr("threshold", 6.0))
    return {"Out": _op("relu6")(o.x()) if t == 6.0 else _op("clip_v2")(o.x(), 0.0, t)}


def _hard_swish(o: _OpView) -> dict:
    return {"Out": _op("hard_swish")(o.x(), threshold=o.attr("threshold", 6.0), scale=o.attr("scale", 6.0),
                                     offset=o.attr("offset", 3.0))}


def _hard_sigmoid(o: _OpView) -> dict:
    return {"Out": _op("hard_sigmoid")(o.x(), slope=o.attr("slope", 0.2), offset=o.attr("offset", 0.5))}


def _prelu(o: _OpView) -> dict:
    mode = o.attr("mode", "all")
    if mode not in ("all", "channel"):
        raise o.unsupported(f"mode {mode!r} (only 'all' and 'channel')")
    return {"Out": _op("prelu")(o.x(), o.x("Alpha"), data_format=o.layout())}


def _clip(o: _OpView) -> dict:
    o.no_tensor_inputs("Min", "Max")
    return {"Out": _op("clip_v2")(o.x(), o.attr("min"), o.attr("max"))}


def _split(o: _OpView) -> dict:
    o.no_tensor_inputs("AxisTensor", "SectionsTensorList")
    num = int(o.attr("num", 0) or 0)
    return {"Out": _op("split")(o.x(), num if num > 0 else list(o.attr("sections")), axis=int(o.attr("axis", 0)))}


def _stack(o: _OpView) -> dict:
    return {"Y": _op("stack")(o.xs("X"), axis=int(o.attr("axis", 0)))}


_VALUE_FIELDS = {"float32": "fp32_values", "float64": "fp64_values", "int32": "int32_values",
                 "int64": "int64_values", "bool": "bool_values"}


def _assign_value(o: _OpView) -> dict:
    import numpy as np

    dtype = proto.DTYPE_NAMES.get(o.attr("dtype", 5))
    field = _VALUE_FIELDS.get(dtype)
    if field is None or field not in o.attrs:
        raise o.unsupported(f"values of dtype {dtype} (attributes {sorted(o.attrs)})")
    value = np.array(o.attr(field), dtype=dtype).reshape(list(o.attr("shape")))
    # a nested list (not an ndarray): the recorded node stays printable and savable in our program format
    return {"Out": _op("assign_value")(value.tolist(), dtype)}


def _set_value(o: _OpView) -> dict:
    """set_value (what 2.x's `x[...] = v` / `x[...] += v` save, e.g. PaddleClas ReXNet's
    `out[:, 0:c] += x`): Out is Input with the slices given by axes / starts / ends / steps replaced by ValueTensor
    (or the constant in the values attributes), broadcast; a decrease axis is indexed by its start."""
    import numpy as np

    o.no_tensor_inputs("StartsTensorList", "EndsTensorList", "StepsTensorList")
    if list(o.attr("none_axes", []) or []):
        raise o.unsupported(f"none_axes {list(o.attr('none_axes'))} (new axes in the index)")
    x = o.x("Input")
    index: list = [("S", None, None, None)] * len(x.shape)
    dec = set(o.attr("decrease_axes", []) or [])
    for a, st, en, sp in zip(o.attr("axes"), o.attr("starts"), o.attr("ends"), o.attr("steps") or [1] * 99):
        index[a] = int(st) if a in dec else ("S", int(st), int(en), int(sp))
    value = o.opt("ValueTensor")
    if value is None:
        dtype = proto.DTYPE_NAMES.get(o.attr("dtype", 5))
        field = _VALUE_FIELDS.get(dtype)
        raw = o.attr(field) if field in o.attrs and o.attr(field) else o.attr("values")
        if not raw or not all(isinstance(v, (int, float, bool)) for v in raw):
            raise o.unsupported(f"values of dtype {dtype} (attributes {sorted(o.attrs)})")
        value = _op("assign_value")(np.array(raw, dtype=dtype).reshape(list(o.attr("shape"))).tolist(), dtype)
    return {"Out": _op("set_value")(x, tuple(index), value)}


def _gather(o: _OpView) -> dict:
    o.no_tensor_inputs("Axis")
    return {"Out": _op("gather")(o.x(), o.x("Index"), axis=int(o.attr("axis", 0) or 0))}


def _expand_v2(o: _OpView) -> dict:
    return {"Out": _op("expand_v2")(o.x(), _shape_arg(o, "Shape", "expand_shapes_tensor"))}


def _tile(o: _OpView) -> dict:
    """tile (repeat_times) and fluid 1.x expand (expand_times) repeat the same way."""
    v1 = o.type == "expand"
    o.no_tensor_inputs(*(("ExpandTimes", "expand_times_tensor") if v1 else ("RepeatTimes", "repeat_times_tensor")))
    return {"Out": _op("tile")(o.x(), list(o.attr("expand_times" if v1 else "repeat_times")))}


def _softplus(o: _OpView) -> dict:
    return {"Out": _op("softplus")(o.x(), beta=o.attr("beta", 1.0), threshold=o.attr("threshold", 20.0))}


def _elu(o: _OpView) -> dict:
    return {"Out": _op("elu")(o.x(), alpha=o.attr("alpha", 1.0))}


def _pow(o: _OpView) -> dict:
    o.no_tensor_inputs("FactorTensor")
    return {"Out": _op("pow")(o.x(), float(o.attr("factor", 1.0)))}


def _compare(o: _OpView) -> dict:
    if int(o.attr("axis", -1)) != -1:
        raise o.unsupported(f"axis {o.attr('axis')} (only -1, numpy broadcasting)")
    return {"Out": _op(o.type)(o.x("X"), o.x("Y"))}


def _fill_any_like(o: _OpView) -> dict:
    dtype = o.attr("dtype", -1)
    return {"Out": _op("fill_any_like")(o.x(), float(o.attr("value", 0.0)),
                                        dtype=proto.DTYPE_NAMES[dtype] if dtype != -1 else None)}


def _where(o: _OpView) -> dict:
    return {"Out": _op("where")(o.x("Condition"), o.x("X"), o.x("Y"))}


def _shape(o: _OpView) -> dict:
    return {"Out": _op("shape")(o.x("Input"))}


_ADAPTERS: dict[str, Callable[[_OpView], dict]] = {
    **{t: _unary(t) for t in ("relu", "sigmoid", "tanh", "exp", "sqrt", "rsqrt", "abs", "log", "square", "floor",
                              "ceil", "reciprocal", "sin", "cos", "assign", "silu")},
    **{t: _elementwise for t in ("elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div",
                                 "elementwise_max", "elementwise_min", "elementwise_pow")},
    "mul": _mul, "fc": _fc, "matmul": _matmul, "matmul_v2": _matmul,
    "conv2d": _conv2d, "depthwise_conv2d": _conv2d, "pool2d": _pool2d,
    "batch_norm": _batch_norm, "dropout": _dropout, "layer_norm": _layer_norm,
    "lookup_table": _lookup_table, "lookup_table_v2": _lookup_table,
    "softmax": _softmax, "log_softmax": _softmax, "scale": _scale, "gelu": _gelu, "leaky_relu": _leaky_relu,
    "reshape2": _reshape, "reshape": _reshape, "transpose2": _transpose, "transpose": _transpose,
    "concat": _concat, "flatten2": _flatten, "flatten": _flatten, "flatten_contiguous_range": _flatten,
    "squeeze2": _squeeze, "unsqueeze2": _squeeze, "squeeze": _squeeze, "unsqueeze": _squeeze,
    "fill_constant": _fill_constant, "cast": _cast, "top_k": _top_k, "top_k_v2": _top_k,
    "arg_max": _arg_max, "arg_min": _arg_max,
    "sum": _sum, "mean": _mean, **{t: _reduce for t in ("reduce_mean", "reduce_sum", "reduce_max", "reduce_min")},
    "slice": _slice, "cumsum": _cumsum, "strided_slice": _strided_slice, "unfold": _unfold, "roll": _roll,
    "index_select": _index_select, "gather_nd": _gather_nd,
    "share_data": _unary("assign"),  # what 2.x saves for `detach()` (PaddleClas cae): the same values
    "conv2d_transpose": _conv2d_transpose, "depthwise_conv2d_transpose": _conv2d_transpose,
    "max_pool2d_with_index": _max_pool2d_with_index,
    **{f"{m}_interp_v2": _interp_v2 for m in ("nearest", "bilinear", "bicubic", "linear", "trilinear")},
    "pad3d": _pad3d, "relu6": _relu6, "hard_swish": _hard_swish, "hard_sigmoid": _hard_sigmoid,
    "swish": _unary("swish"), "prelu": _prelu, "clip": _clip, "split": _split, "stack": _stack,
    "assign_value": _assign_value, "set_value": _set_value, "gather": _gather, "expand_v2": _expand_v2, "tile": _tile,
    "softplus": _softplus, "elu": _elu, "pow": _pow, "fill_any_like": _fill_any_like, "where": _where,
    "shape": _shape, "nearest_interp": _interp_v1, "bilinear_interp": _interp_v1, "pad2d": _pad2d, "pad": _pad,
    "expand": _tile, "fill_constant_batch_size_like": _fill_constant_batch_size_like,
    **{t: _compare for t in ("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal")},
}
_FEED_FETCH = ("feed", "fetch")


def _bind(block: Any, env: dict[str, Variable], name: str, out: Variable) -> None:
    """Give the value `out` holds the model's variable name: a write to a variable of this or an enclosing block
    (inside a sub-block, control flow sees the write), else a new variable of the current block."""
    if out.name in env and env[out.name] is out:  # an adapter handed back an existing variable: copy it
        out = _op("assign")(out)
    var = env.get(name)  # Paddle's variable names are unique program-wide
    if var is None:
        var = Variable(block, name, out.shape, out.dtype, stop_gradient=True)
        block.vars[name] = var
    rebind(var, out)
    var.stop_gradient = True
    env[name] = var


def _targets(ops: list[dict], kind: str, slot: str) -> list[str]:
    cols = []
    for op in ops:
        if op["type"] == kind:
            attrs = {a["name"]: proto.attr_value(a) for a in op["attrs"]}
            args = [v["arguments"] for v in op["inputs" if kind == "fetch" else "outputs"] if v["parameter"] == slot]
            cols.append((int(attrs.get("col", len(cols))), args[0][0]))
    return [n for _, n in sorted(cols)]


def _control_ops(ops: list[dict]) -> set:
    return {op["type"] for op in ops} & set(_CONTROL)


def _all_ops(blocks: list[dict]) -> list[dict]:
    return [op for b in blocks for op in b["ops"]]


def _replay(ops: list[dict], ctx: "_Ctx") -> None:
    """Rebuild `ops` into the current block of the program being built (sub-blocks through _CONTROL)."""
    for op in ops:
        if op["type"] in _FEED_FETCH:
            continue
        view = _OpView(op, ctx.env, ctx.where, ctx.api, ctx.version)
        if op["type"] in _CONTROL:
            _CONTROL[op["type"]](view, ctx)
            continue
        try:
            results = _ADAPTERS[op["type"]](view)
        except UnsupportedAPIError:
            raise
        except (ValueError, TypeError, RuntimeError, IndexError) as e:  # a registry op rejected the inputs
            if str(e).startswith(ctx.api):
                raise
            outs = [n for names in view.outputs.values() for n in names]
            raise InvalidArgumentError(f"{ctx.api}: op {op['type']!r} (outputs {outs}) of the model {ctx.where} "
                                       f"cannot be rebuilt: {e}") from e
        block = ctx.program.current_block()
        for slot, outs in results.items():
            outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
            for name, out in zip(view.outputs.get(slot, []), outs):
                _bind(block, ctx.env, name, out)


class _Ctx:
    """What replaying a ProgramDesc needs: the program being built, the name -> Variable map, the decoded
    blocks and block 0's VarDescs."""

    def __init__(self, program: Program, env: dict, blocks: list, vardescs: dict, where: str, api: str,
                 version: int = 0) -> None:
        self.program, self.env, self.blocks, self.vardescs, self.where, self.api = (
            program, env, blocks, vardescs, where, api)
        self.version = version

    def sub_ops(self, view: _OpView) -> list[dict]:
        return self.blocks[int(view.attr("sub_block"))]["ops"]

    def placeholder(self, name: str) -> None:
        """An output of a conditional_block that no earlier op produced: an empty value of its VarDesc's
        dtype and rank, which the block overwrites when it runs (select_input then never picks it)."""
        vd = next((v for b in self.blocks for v in b["vars"] if v["name"] == name), None)
        dtype, dims = proto.tensor_desc(vd["type"])[:2] if vd is not None else (None, [])
        out = _op("fill_constant")([max(d, 0) for d in dims] or [0], dtype or "float32", 0.0)
        _bind(self.program.current_block(), self.env, name, out)


def _conditional_block(o: _OpView, ctx: _Ctx) -> None:
    """conditional_block: run the sub-block when Cond (a one-element bool) is true; the variables it writes
    keep their values otherwise (fluid's ConditionalBlock)."""
    from paddle_compat.engine.ops.control_flow import ConditionalBlock

    if not o.attr("is_scalar_condition", False):
        raise o.unsupported("is_scalar_condition=False (run when every Cond tensor is non-empty: IfElse's "
                            "LoD-splitting form) is not supported")
    for name in o.outputs.get("Out", []):
        if name not in ctx.env:
            ctx.placeholder(name)
    with ConditionalBlock([o.x("Cond")], is_scalar_condition=True).block():
        _replay(ctx.sub_ops(o), ctx)


def _while(o: _OpView, ctx: _Ctx) -> None:
    """while: run the sub-block while Condition is true; the sub-block updates Condition and the carried
    variables (fluid's While)."""
    from paddle_compat.engine.ops.control_flow import While

    with While(o.x("Condition"), is_test=bool(o.attr("is_test", False))).block():
        _replay(ctx.sub_ops(o), ctx)


def _select_input(o: _OpView) -> dict:
    from paddle_compat.engine.ops.control_flow import select_input

    return {"Out": select_input(o.xs("X"), o.x("Mask"))}


def _write_to_array(o: _OpView) -> dict:
    """write_to_array updates its array in place (the array variable is rebound, so a loop carries it)."""
    from paddle_compat.engine.ops.control_flow import array_write

    (name,) = o.outputs["Out"]
    array_write(o.x("X"), o.x("I"), array=o._env[name])
    return {}


def _read_from_array(o: _OpView) -> dict:
    from paddle_compat.engine.ops.control_flow import array_read

    return {"Out": array_read(o.x("X"), o.x("I"))}


_CONTROL: dict[str, Callable[[_OpView, _Ctx], None]] = {"conditional_block": _conditional_block, "while": _while}
_ADAPTERS.update({"write_to_array": _write_to_array, "read_from_array": _read_from_array,
                  "increment": lambda o: {"Out": _op("increment")(o.x(), float(o.attr("step", 1.0)))}})
_ADAPTERS["select_input"] = _select_input
_ADAPTERS["logical_not"] = _unary("logical_not")
SUPPORTED_OP_TYPES = tuple(sorted(set(_ADAPTERS) | set(_CONTROL)))


def _declare_vars(block: Any, block0: dict, env: dict[str, Variable], where: str, api: str) -> None:
    """Block 0's persistable tensors as placeholders (Parameters where the VarDesc says is_parameter) and its tensor
    arrays as empty arrays, into env."""
    for vd in block0["vars"]:
        kind = vd["type"]["type"]
        if not vd["persistable"] or kind in proto.FEED_FETCH_KINDS or vd["name"] in env:
            continue
        dtype, dims, _ = proto.tensor_desc(vd["type"])
        if dtype is None:
            raise UnsupportedAPIError(api, f"the model {where} has persistable variable {vd['name']!r} of "
                                           f"type {proto.VAR_TYPE_NAMES.get(kind, kind)}")
        if vd["is_parameter"]:
            v = block.create_parameter(vd["name"], dims, dtype, trainable=not vd["stop_gradient"])
        else:
            v = block.create_var(name=vd["name"], shape=dims, dtype=dtype, persistable=True, stop_gradient=True)
        env[vd["name"]] = v
    for vd in block0["vars"]:  # tensor arrays exist before any op writes them (fluid's create_array)
        if vd["type"]["type"] == proto.LOD_TENSOR_ARRAY and vd["name"] not in env:
            from paddle_compat.engine.ops.control_flow import create_array

            dtype = proto.tensor_desc(vd["type"])[0] or "float32"
            arr = create_array(dtype)
            _bind(block, env, vd["name"], arr)
            env[vd["name"]].type = arr.type


def program_from_desc(desc: dict, where: str, api: str) -> tuple[Program, list[str], list[str]]:
    """(program, feed target names, fetch target names) from a decoded ProgramDesc (proto.parse_program_desc)."""
    blocks = desc["blocks"]
    block0 = blocks[0]
    ops = block0["ops"]
    missing = sorted({op["type"] for op in _all_ops(blocks)} - set(_ADAPTERS) - set(_CONTROL) - set(_FEED_FETCH))
    if missing:
        raise UnsupportedAPIError(api, f"the model {where} uses op type(s) {', '.join(missing)}, which "
                                       f"paddle_compat cannot load from a Paddle ProgramDesc yet")
    feed_names, fetch_names = _targets(ops, "feed", "Out"), _targets(ops, "fetch", "X")
    vardescs = {v["name"]: v for v in block0["vars"]}
    program = Program()
    program._is_test = True
    with static_guard(), program_guard(program, Program()), unique_name.guard(_TMP_PREFIX):
        block = program.global_block()
        env: dict[str, Variable] = {}
        for name in feed_names:
            vd = vardescs.get(name)
            if vd is None:
                raise ValueError(f"{api}: the model {where} feeds {name!r}, which has no VarDesc")
            dtype, dims, lod = proto.tensor_desc(vd["type"])
            env[name] = block.create_var(name=name, shape=dims, dtype=dtype or "float32", stop_gradient=True,
                                         lod_level=lod, is_data=True, need_check_feed=bool(vd["need_check_feed"]))
        _declare_vars(block, block0, env, where, api)
        _replay(ops, _Ctx(program, env, blocks, vardescs, where, api))
    for name in fetch_names:
        if name not in env:
            raise ValueError(f"{api}: the model {where} fetches {name!r}, which no op produces")
    from paddle_compat.engine.static.io import add_feed_fetch_ops

    add_feed_fetch_ops(program, feed_names, fetch_names)  # the model's own feed / fetch ops, listed as Paddle does
    return program, feed_names, fetch_names


# --- a whole program (Program.parse_from_string): forward, backward and optimizer ops -------------------------
# OpRole bits (framework/op_proto_maker.h): Backward 1, Optimize 2, LRSched 16, Loss 256
_ROLE_BACKWARD, _ROLE_OPTIMIZE, _ROLE_LOSS = 1, 2, 256


def _role(op: dict) -> int:
    return int(next((proto.attr_value(a) for a in op["attrs"] if a["name"] == "op_role"), 0))


def _sgd(o: _OpView) -> dict:
    return {"ParamOut": _op("sgd")(o.x("Param"), o.x("Grad"), o.x("LearningRate"))}


def _momentum(o: _OpView) -> dict:
    """Paddle's momentum op; VelocityOut is Velocity, updated in place by the registry op."""
    return {"ParamOut": _op("momentum")(o.x("Param"), o.x("Grad"), o.x("Velocity"), o.x("LearningRate"),
                                        mu=float(o.attr("mu", 0.9)), use_nesterov=bool(o.attr("use_nesterov", False)),
                                        regularization_method=o.attr("regularization_method", ""),
                                        regularization_coeff=float(o.attr("regularization_coeff", 0.0)))}


def _adam(o: _OpView) -> dict:
    """Paddle's adam op (Moment1Out ... Beta2PowOut are its inputs, updated in place by the registry op); a 1.8
    program's kernel adds the plain epsilon (see update_ops.adam), a 2.x one the scaled epsilon."""
    o.no_tensor_inputs("Beta1Tensor", "Beta2Tensor")
    return {"ParamOut": _op("adam")(o.x("Param"), o.x("Grad"), o.x("Moment1"), o.x("Moment2"), o.x("Beta1Pow"),
                                    o.x("Beta2Pow"), o.x("LearningRate"), beta1=float(o.attr("beta1", 0.9)),
                                    beta2=float(o.attr("beta2", 0.999)), epsilon=float(o.attr("epsilon", 1e-8)),
                                    lazy_mode=bool(o.attr("lazy_mode", False)),
                                    scaled_epsilon=o.version >= 2000000)}


def _random(kind: str) -> Callable[[_OpView], dict]:
    """A startup program's initializers (uniform_random, gaussian_random, truncated_gaussian_random)."""
    def adapter(o: _OpView) -> dict:
        o.no_tensor_inputs("ShapeTensor", "ShapeTensorList")
        shape, dtype, seed = list(o.attr("shape")), proto.DTYPE_NAMES.get(o.attr("dtype", 5)), int(o.attr("seed", 0))
        if kind == "uniform_random":
            return {"Out": _op(kind)(shape, dtype, float(o.attr("min", -1.0)), float(o.attr("max", 1.0)), seed)}
        return {"Out": _op(kind)(shape, float(o.attr("mean", 0.0)), float(o.attr("std", 1.0)), seed, dtype)}
    return adapter


def _cross_entropy2(o: _OpView) -> dict:
    return {"Y": _op("cross_entropy2")(o.x(), o.x("Label"), ignore_index=int(o.attr("ignore_index", -100)))}


def _softmax_with_cross_entropy(o: _OpView) -> dict:
    loss, softmax = _op("softmax_with_cross_entropy")(
        o.x("Logits"), o.x("Label"), soft_label=bool(o.attr("soft_label", False)),
        ignore_index=int(o.attr("ignore_index", -100)), numeric_stable_mode=bool(o.attr("numeric_stable_mode", True)),
        return_softmax=True, axis=int(o.attr("axis", -1)))
    return {"Loss": loss, "Softmax": softmax}


def _accuracy(o: _OpView) -> dict:
    """accuracy reads the top_k of the scores (Out, Indices) and the Label; our op takes the scores: those the
    top_k op that produced Indices read."""
    idx = o.x("Indices").node
    topk = idx.args[0] if idx.op == "call_function" and idx.args and isinstance(idx.args[0], type(idx)) else None
    scores = topk.args[0] if topk is not None and topk.args and isinstance(topk.args[0], type(idx)) else None
    var = o._env.get(scores.meta.get("var_name")) if scores is not None else None
    if var is None or var.node is not scores:
        raise o.unsupported("its Indices do not come from a top_k op of this program")
    k = int(o.x("Indices").shape[-1])
    return {"Accuracy": _op("accuracy")(var, o.x("Label"), k=k)}


# optimizer and initializer ops: replayed only in whole programs (not in SUPPORTED_OP_TYPES, the inference ops)
_PROGRAM_ADAPTERS: dict[str, Callable[[_OpView], dict]] = {
    "sgd": _sgd, "momentum": _momentum, "adam": _adam, "cross_entropy2": _cross_entropy2,
    "softmax_with_cross_entropy": _softmax_with_cross_entropy, "accuracy": _accuracy,
    **{k: _random(k) for k in ("uniform_random", "gaussian_random", "truncated_gaussian_random")}}
_ADAPTERS.update(_PROGRAM_ADAPTERS)


def _append_backward(ops: list[dict], env: dict[str, Variable], where: str, api: str) -> None:
    """The `*_grad` ops of one backward as our append_backward of its loss: the loss is the variable whose
    `@GRAD` the backward's loss op (fill_constant, role Backward|Loss) writes; the parameters differentiated are
    the variables whose `@GRAD` some backward op writes. Their gradients get Paddle's names (`w@GRAD`)."""
    from paddle_compat.engine.static.backward import append_backward

    seeds = [n for op in ops if _role(op) & _ROLE_LOSS for v in op["outputs"] for n in v["arguments"]]
    written = {n for op in ops for v in op["outputs"] for n in v["arguments"]}
    if len(seeds) != 1 or not seeds[0].endswith("@GRAD") or seeds[0][:-5] not in env:
        raise UnsupportedAPIError(api, f"the program {where} has backward ops without one loss@GRAD fill "
                                       f"(found {seeds}); only a backward appended by append_backward / minimize "
                                       "can be rebuilt")
    params = [v for name, v in env.items() if name + "@GRAD" in written and getattr(v, "trainable", False)]
    for p, g in append_backward(env[seeds[0][:-5]], parameter_list=params):
        env[g.name] = g


def program_from_main_desc(desc: dict, where: str, api: str) -> Program:
    """A runnable Program from a whole ProgramDesc (a main or startup program real Paddle serialized): variables
    nobody writes and that are not persistable become data variables (fed), persistables come from the Scope,
    forward ops are replayed, a backward is appended as one append_backward (see _append_backward) and the
    optimizer ops after it are replayed (sgd, momentum, adam); a startup program's initializers too."""
    from paddle_compat.engine.framework.dispatch import role_guard
    from paddle_compat.engine.framework.program import ROLE_OPTIMIZE

    blocks = desc["blocks"]
    block0 = blocks[0]
    ops = block0["ops"]
    backward = [op for op in ops if _role(op) & _ROLE_BACKWARD]
    rest = [op for op in ops if not _role(op) & _ROLE_BACKWARD]
    sub_ops = [op for b in blocks[1:] for op in b["ops"]]
    known = set(_ADAPTERS) | set(_CONTROL) | set(_FEED_FETCH)
    missing = sorted({op["type"] for op in rest + sub_ops} - known)
    if missing:
        raise UnsupportedAPIError(api, f"the program {where} uses op type(s) {', '.join(missing)}, which "
                                       f"paddle_compat cannot rebuild from a Paddle ProgramDesc yet")
    grads = {n for op in backward for v in op["outputs"] for n in v["arguments"]}
    written = {n for op in ops + sub_ops for v in op["outputs"] for n in v["arguments"]}
    read = {n for op in ops + sub_ops for v in op["inputs"] for n in v["arguments"]}
    vars0 = [dict(vd, is_parameter=vd["is_parameter"] or vd["name"] + "@GRAD" in grads) for vd in block0["vars"]]
    program = Program()
    with static_guard(), program_guard(program, Program()), unique_name.guard(_TMP_PREFIX):
        block = program.global_block()
        env: dict[str, Variable] = {}
        for vd in vars0:
            name = vd["name"]
            if vd["persistable"] or name in written or name not in read or vd["type"]["type"] != proto.LOD_TENSOR:
                continue
            dtype, dims, lod = proto.tensor_desc(vd["type"])
            env[name] = block.create_var(name=name, shape=dims, dtype=dtype or "float32", stop_gradient=True,
                                         lod_level=lod, is_data=True, need_check_feed=bool(vd["need_check_feed"]))
        # persistables an op writes before any op reads them (a startup program's) are that op's outputs, made
        # persistable after the replay; the others are placeholders filled from the Scope
        first: dict[str, str] = {}
        for op in ops:
            for key in ("inputs", "outputs"):
                for v in op[key]:
                    for n in v["arguments"]:
                        first.setdefault(n, key)
        produced = {vd["name"] for vd in vars0 if vd["persistable"] and first.get(vd["name"]) == "outputs"}
        _declare_vars(block, dict(block0, vars=[vd for vd in vars0 if vd["name"] not in produced]), env, where, api)
        ctx = _Ctx(program, env, blocks, {v["name"]: v for v in vars0}, where, api,
                   int((desc.get("version") or {}).get("version", 0)))
        first_bw = next((i for i, op in enumerate(ops) if _role(op) & _ROLE_BACKWARD), len(ops))
        _replay(ops[:first_bw], ctx)
        if backward:
            _append_backward(backward, env, where, api)
        with role_guard(ROLE_OPTIMIZE):
            _replay([op for op in ops[first_bw:] if not _role(op) & _ROLE_BACKWARD], ctx)
        for name in produced & set(block.vars):
            block.vars[name].persistable = True
    program._bump()
    return program
