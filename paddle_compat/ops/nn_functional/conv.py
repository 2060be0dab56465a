"""Convolution ops (the core `conv2d` op; the breadth lives beside it)."""

from __future__ import annotations

import torch.nn.functional as F

from paddle_compat.ops.common import as_int_list
from paddle_compat.ops.registry import export, op


def _pair(v, n: int = 2) -> list[int]:
    vals = as_int_list(v)
    return vals * n if len(vals) == 1 else vals


def conv_padding(padding, kernel: list[int], stride: list[int], dilation: list[int], in_sizes: list[int],
                 channel_last: bool = False):
    """Paddle padding forms -> (torch padding for F.conv, extra F.pad or None).

    int, [p] * n, [before, after] * n, the 4-element NCHW pair-list form, 'SAME' and 'VALID'."""
    n = len(kernel)
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [0] * n, None
        if mode != "SAME":
            raise ValueError(f"padding should be 'SAME', 'VALID' or numbers, got {padding!r}")
        pads = []
        for size, k, s, d in zip(in_sizes, kernel, stride, dilation):
            out = (size + s - 1) // s
            total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
            pads.append((total // 2, total - total // 2))
        return _split_pads(pads)
    if isinstance(padding, (list, tuple)) and padding and isinstance(padding[0], (list, tuple)):
        pairs = [tuple(p) for p in padding]
        pairs = pairs[1:-1] if channel_last else pairs[2:]
        return _split_pads(pairs)
    vals = as_int_list(padding)
    if len(vals) == 1:
        return vals * n, None
    if len(vals) == n:
        return vals, None
    if len(vals) == 2 * n:
        return _split_pads([(vals[2 * i], vals[2 * i + 1]) for i in range(n)])
    raise ValueError(f"padding {padding!r} does not fit a {n}-D convolution")


def _split_pads(pairs):
    if all(a == b for a, b in pairs):
        return [a for a, _ in pairs], None
    flat = []
    for a, b in reversed(pairs):
        flat += [a, b]
    return [0] * len(pairs), flat


@op("conv2d")
def conv2d_op(x, weight, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW"):
    channel_last = data_format == "NHWC"
    if channel_last:
        x = x.permute(0, 3, 1, 2)
    s, d = _pair(stride), _pair(dilation)
    pad, extra = conv_padding(padding, list(weight.shape[2:]), s, d, list(x.shape[2:]))
    if extra is not None:
        x = F.pad(x, extra)
    out = F.conv2d(x, weight, None, s, pad, d, int(groups))
    return out.permute(0, 2, 3, 1) if channel_last else out





def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW", name=None):
    """paddle.nn.functional.conv2d: the conv2d op plus an elementwise_add of the bias on the channel axis."""
    from paddle_compat.ops.tensor.math import elementwise_add

    if x.ndim != 4:
        raise ValueError(f"paddle.nn.functional.conv2d: input should be 4-D, but received shape {list(x.shape)}")
    out = conv2d_op(x, weight, stride=stride, padding=padding, dilation=dilation, groups=groups,
                    data_format=data_format)
    if bias is not None:
        out = elementwise_add(out, bias, axis=1 if data_format == "NCHW" else -1)
    return out


export(conv2d, "paddle.nn.functional.conv2d")
