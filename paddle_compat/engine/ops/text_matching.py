"""Op bodies of fluid.contrib's LoD text-matching layers (1.8.5 contrib/layers/nn.py): match_matrix_tensor,
sequence_topk_avg_pooling and var_conv_2d."""

from __future__ import annotations

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import op
from paddle_compat.engine.ops.sequence import _check_offs, _lens, _offs_spec

_API = "fluid.contrib.match_matrix_tensor"


@op("match_matrix_tensor", infer=lambda x, y, w, x_offs, y_offs, dim_t: Spec((-1, 1), x.dtype))
def match_matrix_tensor_op(x, y, w, x_offs, y_offs, dim_t):
    """Per sequence pair b and channel t: x_b @ W[:, t, :] @ y_b^T ([len_x, len_y]), laid out [t][i][j] in one
    column; the sequences follow each other."""
    _check_offs(x, x_offs, _API)
    _check_offs(y, y_offs, _API)
    xw = (x @ w.reshape(w.shape[0], -1)).reshape(x.shape[0], dim_t, w.shape[2])  # [Nx, t, d]
    outs = []
    for b in range(x_offs.numel() - 1):
        xs = xw[int(x_offs[b]):int(x_offs[b + 1])]  # [lx, t, d]
        ys = y[int(y_offs[b]):int(y_offs[b + 1])]  # [ly, d]
        outs.append(torch.einsum("itd,jd->tij", xs, ys).reshape(-1))
    return torch.cat(outs).reshape(-1, 1)


@op("match_matrix_tensor_lod", differentiable=False, infer=lambda x_offs, y_offs, dim_t: _offs_spec())
def match_matrix_tensor_lod_op(x_offs, y_offs, dim_t):
    """Out's LoD: sequence b holds dim_t * len_x * len_y rows."""
    if x_offs.numel() != y_offs.numel():
        raise InvalidArgumentError(f"{_API}: x and y must hold the same number of sequences, got "
                                   f"{x_offs.numel() - 1} and {y_offs.numel() - 1}")
    sizes = dim_t * _lens(x_offs) * _lens(y_offs)
    return torch.cat([x_offs.new_zeros(1), torch.cumsum(sizes, 0)])


_TOPK_API = "fluid.contrib.sequence_topk_avg_pooling"


def _images(api: str, ch_name: str, channels: int, x_offs, row_offs, col_offs):
    """(b, rows_b, cols_b) per sequence of an input whose sequence b is a [channels, rows_b, cols_b] image, the
    sizes from row's and col's LoD; raises when the counts disagree."""
    if not (x_offs.numel() == row_offs.numel() == col_offs.numel()):
        raise InvalidArgumentError(f"{api}: input, row and col must hold the same number of sequences, got "
                                   f"{x_offs.numel() - 1}, {row_offs.numel() - 1} and {col_offs.numel() - 1}")
    for b in range(x_offs.numel() - 1):
        rows, cols = int(row_offs[b + 1] - row_offs[b]), int(col_offs[b + 1] - col_offs[b])
        n = int(x_offs[b + 1] - x_offs[b])
        if n != channels * rows * cols:
            raise InvalidArgumentError(f"{api}: sequence {b} of input holds {n} values, but {ch_name} * rows * cols "
                                       f"= {channels} * {rows} * {cols}")
        yield b, rows, cols


@op("sequence_topk_avg_pooling",
    infer=lambda x, x_offs, row_offs, col_offs, topks, channel_num: Spec((-1, channel_num * len(topks)), x.dtype))
def sequence_topk_avg_pooling_op(x, x_offs, row_offs, col_offs, topks, channel_num):
    """Sequence b of x holds [channel_num, rows_b, cols_b] values; every (row, channel) gives, per k of topks, the
    sum of its k largest values divided by k (fewer than k columns: the missing ones count as 0).
    -> [sum rows_b, channel_num * len(topks)], laid out [channel][k] per row."""
    max_k = int(topks[-1])
    ks = torch.tensor([int(k) for k in topks], device=x.device)
    outs = []
    for b, rows, cols in _images(_TOPK_API, "channel_num", channel_num, x_offs, row_offs, col_offs):
        v = x[int(x_offs[b]):int(x_offs[b + 1])].reshape(channel_num, rows, cols)
        top = torch.sort(v, dim=-1, descending=True).values[..., :max_k]
        top = torch.nn.functional.pad(top, (0, max_k - top.shape[-1]))
        avg = torch.cumsum(top, -1)[..., ks - 1] / ks.to(x.dtype)  # [channel, rows, k]
        outs.append(avg.permute(1, 0, 2).reshape(rows, -1))
    return torch.cat(outs)


_CONV_API = "fluid.contrib.var_conv_2d"


def _conv_out_len(n: torch.Tensor, stride: int) -> torch.Tensor:
    return torch.where(n > 0, (n - 1) // stride + 1, torch.zeros_like(n))


@op("var_conv_2d", infer=lambda x, w, *a: Spec((-1, 1), x.dtype))
def var_conv_2d_op(x, w, x_offs, row_offs, col_offs, in_ch, kh, kw, sh, sw):
    """Sequence b of x is an [in_ch, rows_b, cols_b] image; convolve it with W [out_ch, in_ch*kh*kw] (windows
    starting kh//2, kw//2 before each output position, zeros outside) at stride (sh, sw): -> out_ch *
    ((rows-1)//sh+1) * ((cols-1)//sw+1) values per sequence, in one column."""
    weight = w.reshape(w.shape[0], in_ch, kh, kw)
    outs = []
    for b, h, wd in _images(_CONV_API, "input_channel", in_ch, x_offs, row_offs, col_offs):
        if h == 0 or wd == 0:
            continue
        img = x[int(x_offs[b]):int(x_offs[b + 1])].reshape(1, in_ch, h, wd)
        y = torch.nn.functional.conv2d(img, weight, stride=(sh, sw), padding=(kh // 2, kw // 2))
        outs.append(y[0, :, :(h - 1) // sh + 1, :(wd - 1) // sw + 1].reshape(-1))
    return torch.cat(outs).reshape(-1, 1) if outs else x.new_zeros((0, 1))


@op("var_conv_2d_lod", differentiable=False, infer=lambda *a: _offs_spec())
def var_conv_2d_lod_op(row_offs, col_offs, out_ch, sh, sw):
    """Out's LoD: sequence b holds out_ch * out_rows * out_cols values."""
    sizes = out_ch * _conv_out_len(_lens(row_offs), sh) * _conv_out_len(_lens(col_offs), sw)
    return torch.cat([row_offs.new_zeros(1), torch.cumsum(sizes, 0)])
