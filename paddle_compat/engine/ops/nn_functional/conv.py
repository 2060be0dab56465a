"""Convolutions 1-D / 2-D / 3-D and their transposes, with Paddle's layouts and padding forms.

One body factory per family makes the registry ops (`conv1d`, `conv2d`, `conv3d`, `conv1d_transpose`, ...);
the `paddle.nn.functional` functions add the bias as Paddle records it (conv op + elementwise_add on the
channel axis); in a Program the 1-D ones record Paddle's unsqueeze2, conv2d / conv2d_transpose, squeeze2. Weight layouts are Paddle's: conv [out, in/groups, k...], transposed [in, out/groups, k...].
"""

from __future__ import annotations

import contextlib

import torch
import torch.nn.functional as F

from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.gemm import conv1x1_onednn
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import in_layer_helper, layer_helper, plain_dygraph
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.ops.common import FORMATS as _FORMATS
from paddle_compat.engine.ops.common import as_int_list, holds_variable, spatial_unknown
from paddle_compat.engine.ops.common import ntuple as _ntuple
from paddle_compat.engine.framework.registry import OPS, export, op

_TORCH_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_TORCH_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_GEMM_DTYPES = (torch.float32, torch.float64)


def torch_conv(n: int, x, weight, stride, pad, dilation, groups: int):
    """torch's convolution of the conv{n}d op (no bias). A 1x1 2-D convolution of one group on a row-major CPU input
    runs as ATen's GEMM convolution (thnn_conv2d: one GEMM of the filters [out, in] by each sample's [in, H * W],
    strided inputs gathered first), which is Paddle's own CPU algorithm for it (conv_kernel_impl.h: a 1x1 filter at
    stride 1 skips im2col and multiplies the input as it is). oneDNN's kernel reorders the input, the filters and
    the result to and from its blocked layouts at every call: on an Intel Xeon the GEMM form runs these convolutions
    in about half the time (forward, batch 1-16) and a ResNet-50 training step in 0.82-0.91 of the time (the
    exception measured: a 1-pixel input at batch 64, one GEMV per sample, whose forward takes twice oneDNN's); on an
    AMD EPYC, where neither kernel gives Paddle's bits, it is as fast or faster for 13 of the 14 ResNet-50 and
    MobileNet shapes measured alone (oneDNN 0.91-2.26x its time). Inside
    ResNet-50, though, oneDNN won where the output has few pixels (7x7, 4x4): on such a CPU those go to oneDNN
    (engine/core/gemm.py conv1x1_onednn; ResNet-50 inference 1.04 -> 0.95x torch eager, training unchanged). A
    channels-last input (the compiler path's layout where the graph has grouped convolutions) keeps oneDNN, which
    reads it without a reorder; so does a filter with any strides but row-major ones: torch 2.13's GEMM convolution
    returns a wrong filter gradient for a [out, in, 1, 1] filter with channels-last strides, which `is_contiguous`
    accepts (tests/ops/test_conv_gemm.py)."""
    if n == 2 and groups == 1 and weight.shape[2] == weight.shape[3] == 1 and x.device.type == "cpu" \
            and x.dtype in _GEMM_DTYPES and x.is_contiguous() and weight.stride() == (weight.shape[1], 1, 1, 1) \
            and not conv1x1_onednn(x, weight, stride, pad):
        return torch._C._nn.thnn_conv2d(x, weight, [1, 1], None, stride, pad)
    return _TORCH_CONV[n](x, weight, None, stride, pad, dilation, groups)


def conv_padding(padding, kernel: list[int], stride: list[int], dilation: list[int], in_sizes: list[int],
                 channel_last: bool = False):
    """Paddle padding forms -> (torch padding for F.conv, extra F.pad or None).

    int, [p] * n, [before, after] * n, the pair-list form ([[0,0],[0,0],[t,b],[l,r]] NCHW or
    [[0,0],[t,b],[l,r],[0,0]] NHWC), 'SAME' and 'VALID'."""
    n = len(kernel)
    pairs = padding_pairs(padding, kernel, stride, dilation, in_sizes, channel_last)
    return _split_pads(pairs) if pairs is not None else ([0] * n, None)


def padding_pairs(padding, kernel, stride, dilation, in_sizes, channel_last=False) -> list[tuple[int, int]]:
    """Paddle padding forms -> one (before, after) pair per spatial dim."""
    n = len(kernel)
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * n
        if mode != "SAME":
            raise ValueError(f"Unknown padding: '{padding}'. It can only be 'SAME' or 'VALID'.")
        pads = []
        for size, k, s, d in zip(in_sizes, kernel, stride, dilation):
            out = (size + s - 1) // s
            total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
            pads.append((total // 2, total - total // 2))
        return pads
    if isinstance(padding, (list, tuple)) and padding and isinstance(padding[0], (list, tuple)):
        pairs = [tuple(as_int_list(p)) for p in padding]
        if len(pairs) != n + 2:
            raise ValueError(f"padding {padding!r} should have {n + 2} pairs for a {n}-D input")
        batch_chan = [pairs[0], pairs[-1]] if channel_last else pairs[:2]
        if any(p != (0, 0) for p in batch_chan):
            raise ValueError(f"Non-zero padding({padding}) in the batch or channel dimensions is not supported.")
        return pairs[1:-1] if channel_last else pairs[2:]
    vals = as_int_list(padding)
    if len(vals) == 1:
        return [(vals[0], vals[0])] * n
    if len(vals) == n:
        return [(v, v) for v in vals]
    if len(vals) == 2 * n:
        return [(vals[2 * i], vals[2 * i + 1]) for i in range(n)]
    raise ValueError(f"padding {padding!r} does not fit a {n}-D convolution")


def c_div(a: int, b: int) -> int:
    """a / b as C++ integer division (truncates toward zero), the way Paddle's shape functions compute."""
    return -(-a // b) if a < 0 else a // b


def window_outputs(api: str, sizes, window, stride, pairs, ceil_mode: bool = False, allow_empty: bool = True,
                   ) -> list[int]:
    """Paddle's output size per spatial dim, (in + pad_before + pad_after - window [+ stride - 1]) / stride + 1
    in C integer division: a window wider than the padded input by less than the stride still gives one output
    (InceptionV3's 3x3 stride-2 conv on a 2x2 map is 1x1), whose window reads past the input; that part reads as
    padding. Pairs whose window overhangs the padded input grow their after-padding in place so torch, which
    needs every window inside, computes the same outputs. A size below 0 (0 when not allow_empty) is an error,
    in Paddle's words."""
    outs = []
    for i, (size, w, st) in enumerate(zip(sizes, window, stride)):
        a, b = pairs[i]
        o = c_div(size + a + b - w + (st - 1 if ceil_mode else 0), st) + 1
        if o < 0 or (o == 0 and not allow_empty):
            raise ValueError(f"{api}: the output size must be greater than 0. But received: output_size = {o} due "
                             f"to the settings of input_size({size}), padding({a},{b}), kernel size({w}) and "
                             f"stride({st}). Please check again!")
        outs.append(o)
        over = (o - 1) * st + w - (size + a + b)
        if o > 0 and over > 0:
            pairs[i] = (a, b + over)
    return outs


def _split_pads(pairs):
    if all(a == b for a, b in pairs):
        return [a for a, _ in pairs], None
    flat = []
    for a, b in reversed(pairs):
        flat += [a, b]
    return [0] * len(pairs), flat


def check_format(api: str, n: int, data_format: str) -> bool:
    """Validate data_format for an n-D spatial op; True when channels are last."""
    formats = _FORMATS[n]
    if data_format not in formats:
        raise ValueError(f"{api}: Attr(data_format) should be {formats[0]!r} or {formats[1]!r}. "
                         f"Received Attr(data_format): {data_format}.")
    return data_format == formats[1]


def _conv_geometry(api: str, n: int, x, weight, stride, padding, dilation, groups, channel_last: bool):
    """The conv op's stride, dilation, (before, after) padding pairs and output sizes for a channel-first input x,
    with Paddle's checks in its words (the conv{n}d body, and ConvShortcut's arguments)."""
    s, d = _ntuple(stride, n, "stride", api), _ntuple(dilation, n, "dilation", api)
    if x.shape[1] != weight.shape[1] * int(groups):
        raise ValueError(f"{api}: the channel dimension of the input ({x.shape[1]}) should equal the weight's "
                         f"in_channels/groups ({weight.shape[1]}) times groups ({groups}); input shape "
                         f"{list(x.shape)}, weight shape {list(weight.shape)}")
    k, sizes = list(weight.shape[2:]), list(x.shape[2:])
    pairs = padding_pairs(padding, k, s, [1] * n if isinstance(padding, str) else d, sizes, channel_last)
    if isinstance(padding, str) and padding.upper() == "SAME":
        d = [1] * n  # Paddle ignores dilation with padding='SAME'
    outs = window_outputs(api, sizes, [(kk - 1) * dd + 1 for kk, dd in zip(k, d)], s, pairs)
    return s, d, pairs, outs


def _conv_body(n: int):
    api = f"paddle.nn.functional.conv{n}d"

    def body(x, weight, stride=1, padding=0, dilation=1, groups=1, data_format=_FORMATS[n][0]):
        channel_last = check_format(api, n, data_format)
        if x.dim() != n + 2:
            raise ValueError(f"{api}: input should be {n + 2}-D, but received shape {list(x.shape)}")
        if channel_last:
            x = x.movedim(-1, 1)
        s, d, pairs, outs = _conv_geometry(api, n, x, weight, stride, padding, dilation, groups, channel_last)
        if 0 in outs:  # Paddle 2.6 returns an empty output here (and crashes on a negative size)
            shape = [x.shape[0], weight.shape[0]] + outs
            return (x.sum() * 0 + weight.sum() * 0).expand(shape[:1] + shape[2:] + shape[1:2] if channel_last
                                                           else shape)
        pad, extra = _split_pads(pairs)
        if extra is not None:
            x = F.pad(x, extra)
        out = torch_conv(n, x, weight, s, pad, d, int(groups))
        return out.movedim(1, -1) if channel_last else out

    return body


def _conv_t_body(n: int):
    api = f"paddle.nn.functional.conv{n}d_transpose"

    def body(x, weight, stride=1, padding=0, output_padding=0, groups=1, dilation=1, output_size=None,
             data_format=_FORMATS[n][0]):
        channel_last = check_format(api, n, data_format)
        if x.dim() != n + 2:
            raise ValueError(f"{api}: input should be {n + 2}-D, but received shape {list(x.shape)}")
        if channel_last:
            x = x.movedim(-1, 1)
        if x.shape[1] != weight.shape[0]:
            raise ValueError(f"{api}: the channel dimension of the input ({x.shape[1]}) should equal the weight's "
                             f"first dimension; weight shape {list(weight.shape)}")
        s, d = _ntuple(stride, n, "stride", api), _ntuple(dilation, n, "dilation", api)
        k = list(weight.shape[2:])
        same = isinstance(padding, str) and padding.upper() == "SAME"
        if same:
            d = [1] * n
        pairs = padding_pairs(padding, k, s, d, list(x.shape[2:]), channel_last)
        out = _TORCH_CONV_T[n](x, weight, None, s, 0, 0, int(groups), d)
        full = list(out.shape[2:])
        sizes = [f - a - b for f, (a, b) in zip(full, pairs)]
        if output_size is not None:
            if as_int_list(output_padding) not in ([0], [0] * n):
                raise ValueError(f"{api}: output_padding option is mutually exclusive with output_size")
            want = _ntuple(output_size, n, "output_size", api)
            for i, (w, sz) in enumerate(zip(want, sizes)):
                if not sz <= w < sz + s[i]:
                    raise ValueError(f"{api}: output_size {want} is not reachable from input {list(x.shape)}: "
                                     f"dim {i} should be in [{sz}, {sz + s[i]})")
            sizes = want
        else:
            op_ = _ntuple(output_padding, n, "output_padding", api)
            for i, o in enumerate(op_):
                if o >= max(s[i], d[i]):
                    raise ValueError(f"{api}: output_padding ({o}) must be smaller than stride or dilation")
            sizes = [sz + o for sz, o in zip(sizes, op_)]
        need = [max(a + sz - f, 0) for (a, _), sz, f in zip(pairs, sizes, full)]
        if any(need):
            flat = []
            for v in reversed(need):
                flat += [0, v]
            out = F.pad(out, flat)
        idx = [slice(None), slice(None)] + [slice(a, a + sz) for (a, _), sz in zip(pairs, sizes)]
        out = out[tuple(idx)]
        return out.movedim(1, -1) if channel_last else out

    return body


conv1d_op = op("conv1d")(_conv_body(1))
conv2d_op = op("conv2d")(_conv_body(2))
conv3d_op = op("conv3d")(_conv_body(3))


def _conv_t_infer(n: int):
    """output_size given as a Variable (or holding one): the spatial output dims are unknown (-1) until the
    program runs, as in Paddle; the rest is checked on the output_size=None shapes."""
    def infer(x, weight, stride=1, padding=0, output_padding=0, groups=1, dilation=1, output_size=None,
              data_format=_FORMATS[n][0]):
        from paddle_compat.engine.ops.tensor._helpers import default_infer

        kwargs = dict(stride=stride, padding=padding, output_padding=output_padding, groups=groups,
                      dilation=dilation, output_size=output_size, data_format=data_format)
        opdef = OPS[f"conv{n}d_transpose"]
        if not holds_variable(output_size):
            return default_infer(opdef, (x, weight), kwargs)
        kwargs["output_size"] = None
        out = default_infer(opdef, (x, weight), kwargs)
        return spatial_unknown(out, n + 1 if data_format == _FORMATS[n][1] else 1)

    return infer


conv1d_transpose_op = op("conv1d_transpose", infer=_conv_t_infer(1))(_conv_t_body(1))
conv2d_transpose_op = op("conv2d_transpose", infer=_conv_t_infer(2))(_conv_t_body(2))
conv3d_transpose_op = op("conv3d_transpose", infer=_conv_t_infer(3))(_conv_t_body(3))
# the op Paddle's F.conv2d_transpose / conv1d_transpose record for a depthwise transposed convolution (CPU: no cuDNN):
# conv2d_transpose's arithmetic under Paddle's type (the forward one is engine/ops/fused.py's depthwise_conv2d)
depthwise_conv2d_transpose_op = op("depthwise_conv2d_transpose", infer=_conv_t_infer(2))(_conv_t_body(2))


def _depthwise(x, weight, groups, channel_last: bool, transposed: bool) -> bool:
    """Whether Paddle's 2.x F.conv2d / conv2d_transpose / conv1d_transpose record the depthwise op (2.4 and 2.6 alike,
    on a build without cuDNN, as the oracle's): groups equal to the input channels (not 1), and the filters a multiple
    of them (transposed: one output channel per group); never inside a fluid / static.nn layer."""
    if not MODE.static or in_layer_helper() or type(groups) is not int:
        return False
    c = x.shape[-1 if channel_last else 1]
    if c != groups or c == 1:
        return False
    return weight.shape[1] == 1 if transposed else weight.shape[0] % c == 0


_FROM_LAYER = [False]  # a paddle.nn Conv layer is calling F.conv*d (its positive channel_dim: see _add_bias)


@contextlib.contextmanager
def called_by_layer():
    """paddle.nn.Conv2D / Conv3D call F.conv2d / conv3d inside this: Paddle's layers pass _conv_nd a positive
    channel_dim, so a channel-last bias is reshaped too; F.conv2d's own channel_dim is -1 there (no reshape)."""
    prev = _FROM_LAYER[0]
    _FROM_LAYER[0] = True
    try:
        yield
    finally:
        _FROM_LAYER[0] = prev


def _add_bias(out, bias, channel_last: bool, n: int = 1):
    """The bias on the channel axis as Paddle's _conv_nd adds it (F.conv2d / conv3d, and F.conv2d_transpose at API
    level 2.6): elementwise_add(axis=1) in Paddle 2.4; in a Program at API level 2.6, Paddle 2.6's reshape2 of the
    bias to [1, C, 1, 1] ([1, 1, 1, C] channel-last) and an elementwise_add with axis -1 (its own LayerHelper names
    the reshape: reshape2_0.tmp_0). Channel-last, only the Layers reshape (`called_by_layer`)."""
    if bias is None:
        return out
    if MODE.static and n > 1 and LEVEL.zero_d and len(bias.shape) < len(out.shape) and (
            not channel_last or _FROM_LAYER[0]):  # zero_d: 2.6, not in fluid
        nd = len(out.shape)
        ch = nd - 1 if channel_last else 1
        with layer_helper("reshape2"):
            bias = OPS["reshape2"].public(bias, [1] * ch + list(bias.shape) + [1] * (nd - len(bias.shape) - ch))
        return OPS["elementwise_add"].public(out, bias, axis=-1)
    return OPS["elementwise_add"].public(out, bias, axis=-1 if channel_last else 1)


def _add_with_axis(out, bias, channel_last: bool):
    """The bias as Paddle's `_add_with_axis` adds it (conv1d / conv3d_transpose, 2.4's conv2d_transpose): one
    elementwise_add on the channel axis whose LayerHelper gives the output its generated name (`elementwise_add_0`,
    no `.tmp_0`); inside a fluid / static.nn layer the layer's own name (`conv2d_transpose_0.tmp_1`)."""
    if bias is None:
        return out
    name = unique_name.generate("elementwise_add") if MODE.static and not in_layer_helper() else None
    return OPS["elementwise_add"].public(out, bias, axis=-1 if channel_last else 1, name=name)


def pad_1d_as_2d(padding, channel_last: bool = False, length_first: bool = False):
    """A 1-D API's padding in the form Paddle's conv1d / pool1d give their 2-D op, which sees a size-1 axis before the
    length ([p] -> [0, p], [a, b] -> [0, 0, a, b]; conv1d_transpose adds the axis after the length: length_first), or
    None for a form not translated (a tensor: the 1-D op itself is recorded)."""
    if isinstance(padding, str):
        return padding
    try:
        if isinstance(padding, (list, tuple)) and padding and isinstance(padding[0], (list, tuple)):
            pairs = [as_int_list(p) for p in padding]
            if len(pairs) != 3 or any(len(p) != 2 for p in pairs) or \
                    pairs[0] != [0, 0] or pairs[2 if channel_last else 1] != [0, 0]:
                return None
            pads = pairs[1 if channel_last else 2]
        elif isinstance(padding, (int, list, tuple)) and not isinstance(padding, bool):
            pads = as_int_list(padding)
        else:
            return None
    except Exception:  # noqa: BLE001 - a form the 1-D op itself checks
        return None
    if len(pads) not in (1, 2):
        return None
    zeros = [0] * len(pads)
    return pads + zeros if length_first else zeros + pads


def _conv1d_as_paddle(x, weight, bias, stride, padding, dilation, groups, data_format):
    """F.conv1d in a Program as Paddle records it: (2.6: assign of the weight,) unsqueeze2 of the weight and of x,
    conv2d, the bias's elementwise_add, squeeze2; None where the 1-D op itself is recorded."""
    from paddle_compat.engine.framework.infer import infer_outputs
    from paddle_compat.engine.framework.lookup import P

    channel_last = data_format == "NLC"
    pad = pad_1d_as_2d(padding, channel_last)
    if pad is None or in_layer_helper():
        return None
    api = "paddle.nn.functional.conv1d"
    kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups, data_format=data_format)
    infer_outputs(OPS["conv1d"], (x, weight), kw)  # the 1-D op's checks: its errors name F.conv1d
    try:
        s, d = [1] + _ntuple(stride, 1, "stride", api), [1] + _ntuple(dilation, 1, "dilation", api)
    except Exception:  # noqa: BLE001 - a tensor stride: the 1-D op
        return None
    if LEVEL.zero_d:  # Paddle 2.6 copies the weight first (2.4 does not)
        weight = P("assign")(weight)
    weight = P("unsqueeze")(weight, axis=[-2])
    axis = -3 if channel_last else -2
    x = P("unsqueeze")(x, axis=[axis])
    out = conv2d_op(x, weight, stride=s, padding=pad, dilation=d, groups=groups,
                    data_format="NHWC" if channel_last else "NCHW")
    return P("squeeze")(_add_with_axis(out, bias, channel_last), axis=[axis])


def _conv1d_t_as_paddle(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size, data_format):
    """F.conv1d_transpose in a Program as Paddle 2.4 / 2.6 record it: unsqueeze2 of x and of the weight (a size-1
    axis after the length), conv2d_transpose, the bias's elementwise_add, squeeze2; None where the 1-D op itself is
    recorded."""
    from paddle_compat.engine.framework.infer import infer_outputs
    from paddle_compat.engine.framework.lookup import P

    channel_last = data_format == "NLC"
    pad = pad_1d_as_2d(padding, channel_last, length_first=True)
    if pad is None or in_layer_helper() or holds_variable(output_size):
        return None
    api = "paddle.nn.functional.conv1d_transpose"
    kw = dict(stride=stride, padding=padding, output_padding=output_padding, groups=groups, dilation=dilation,
              output_size=output_size, data_format=data_format)
    infer_outputs(OPS["conv1d_transpose"], (x, weight), kw)  # the 1-D op's checks: its errors name the API
    try:
        kw2 = dict(stride=_ntuple(stride, 1, "stride", api) + [1], padding=pad,
                   output_padding=_ntuple(output_padding, 1, "output_padding", api) + [0], groups=groups,
                   dilation=_ntuple(dilation, 1, "dilation", api) + [1],
                   output_size=None if output_size is None else _ntuple(output_size, 1, "output_size", api) + [1],
                   data_format="NHWC" if channel_last else "NCHW")
    except Exception:  # noqa: BLE001 - a tensor stride: the 1-D op
        return None
    axis = -2 if channel_last else -1
    x = P("unsqueeze")(x, axis=[axis])
    weight = P("unsqueeze")(weight, axis=[-1])
    conv = depthwise_conv2d_transpose_op if _depthwise(x, weight, groups, channel_last, True) else conv2d_transpose_op
    out = conv(x, weight, **kw2)
    return P("squeeze")(_add_with_axis(out, bias, channel_last), axis=[axis])


def _layer_conv_args(n: int, x, weight, stride, padding, dilation, groups, data_format):
    """The (stride, padding, dilation, groups) with which the conv{n}d op's body calls torch's conv on `x`, found by
    the body's own steps; None where the body does more than that one call (channel-last, an extra F.pad, an empty
    output) or raises (then the op says why, in Paddle's words)."""
    api = f"paddle.nn.functional.conv{n}d"
    try:
        if check_format(api, n, data_format) or x.dim() != n + 2:
            return None
        s, d, pairs, outs = _conv_geometry(api, n, x, weight, stride, padding, dilation, groups, False)
    except Exception:  # noqa: BLE001 - the op raises Paddle's error
        return None
    if 0 in outs:
        return None
    pad, extra = _split_pads(pairs)
    return None if extra is not None else (s, pad, d, int(groups))


def _copied(v):
    return list(v) if type(v) is list else v


class ConvShortcut:
    """A paddle.nn Conv1D / 2D / 3D layer's dygraph call as its ops compute it (F.conv{n}d: the conv op's body, one
    torch conv, then elementwise_add's body, torch.add of the bias reshaped to [C, 1, ...]), without the per-call
    argument handling: the torch arguments are found once per input shape and layer settings by the body's own
    steps (`_layer_conv_args`). Returns None (the layer then calls F.conv{n}d) unless `plain_dygraph(x)`, and
    where the body would do more or torch raises. Same kernels, same bits, same autograd graph
    (tests/nn/test_layer_shortcuts.py)."""

    __slots__ = ("key", "args")

    def __init__(self) -> None:
        self.key, self.args = None, None

    def __call__(self, n: int, x, weight, bias, stride, padding, dilation, groups, data_format):
        if not plain_dygraph(x):
            return None
        xt = x._t
        key = (xt.shape, stride, padding, dilation, groups, data_format)
        if key != self.key:
            self.args = _layer_conv_args(n, xt, weight._t, stride, padding, dilation, groups, data_format)
            self.key = (xt.shape, _copied(stride), _copied(padding), _copied(dilation), groups, data_format)
        if self.args is None or (bias is not None and len(bias._t.shape) != 1):
            return None
        try:
            out = torch_conv(n, xt, weight._t, *self.args)
            if bias is not None:
                b = bias._t.reshape([bias._t.shape[0]] + [1] * n)  # broadcast_align's reshape (axis 1)
                # into the conv's own fresh result (its backward does not read it): the add's kernel, no new buffer
                out = out.add_(b) if b.dtype == out.dtype else torch.add(out, b)
        except Exception:  # noqa: BLE001 - the op path raises Paddle's error
            return None
        return Tensor._wrap(out)


def _make_conv(n: int):
    conv = {1: conv1d_op, 2: conv2d_op, 3: conv3d_op}[n]
    api = f"paddle.nn.functional.conv{n}d"

    def fn(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format=_FORMATS[n][0],
           name=None):
        channel_last = check_format(api, n, data_format)
        if n == 1 and MODE.static:
            got = _conv1d_as_paddle(x, weight, bias, stride, padding, dilation, groups, data_format)
            if got is not None:
                return got
        # Paddle's _conv_nd names the conv's output and the biased one after one LayerHelper: conv2d_0.tmp_0 / tmp_1
        dw = n == 2 and _depthwise(x, weight, groups, channel_last, False)
        with layer_helper("depthwise_conv2d" if dw else f"conv{n}d") if MODE.static and n > 1 else \
                contextlib.nullcontext():
            out = (OPS["depthwise_conv2d"].public if dw else conv)(
                x, weight, stride=stride, padding=padding, dilation=dilation, groups=groups, data_format=data_format)
            return _add_bias(out, bias, channel_last, n)

    fn.__name__ = fn.__qualname__ = f"conv{n}d"
    fn.__doc__ = f"{api}: the conv{n}d op plus an elementwise_add of the bias on the channel axis."
    return export(fn, api)


def _make_conv_t(n: int):
    conv = {1: conv1d_transpose_op, 2: conv2d_transpose_op, 3: conv3d_transpose_op}[n]
    api = f"paddle.nn.functional.conv{n}d_transpose"

    def run(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size, data_format):
        channel_last = check_format(api, n, data_format)
        if n == 1 and MODE.static:
            got = _conv1d_t_as_paddle(x, weight, bias, stride, padding, output_padding, groups, dilation,
                                      output_size, data_format)
            if got is not None:
                return got
        # Paddle 2.6's conv2d_transpose names both outputs after its LayerHelper (conv2d_transpose_1.tmp_0 / tmp_1),
        # reshaping the bias unless channel-last; 2.4's (and conv3d_transpose) adds it with _add_with_axis
        level26 = MODE.static and n == 2 and LEVEL.zero_d and not in_layer_helper()
        dw = n == 2 and _depthwise(x, weight, groups, channel_last, True)
        with layer_helper(f"{'depthwise_' if dw else ''}conv{n}d_transpose") if level26 else contextlib.nullcontext():
            out = (depthwise_conv2d_transpose_op if dw else conv)(
                x, weight, stride=stride, padding=padding, output_padding=output_padding, groups=groups,
                dilation=dilation, output_size=output_size, data_format=data_format)
            if level26:
                return _add_bias(out, bias, channel_last, n) if not channel_last else \
                    OPS["elementwise_add"].public(out, bias, axis=-1) if bias is not None else out
            return _add_with_axis(out, bias, channel_last)

    if n == 2:  # NOTE: Paddle's conv2d_transpose alone takes dilation before groups
        def fn(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1, output_size=None,
               data_format="NCHW", name=None):
            return run(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size, data_format)
    else:
        def fn(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1, output_size=None,
               data_format=_FORMATS[n][0], name=None):
            return run(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size, data_format)

    fn.__name__ = fn.__qualname__ = f"conv{n}d_transpose"
    fn.__doc__ = f"{api}: weight [in, out/groups, k...]; the transposed-conv op plus the bias."
    return export(fn, api)


conv1d, conv2d, conv3d = (_make_conv(n) for n in (1, 2, 3))
conv1d_transpose, conv2d_transpose, conv3d_transpose = (_make_conv_t(n) for n in (1, 2, 3))
