"""Op bodies only fluid 1.x needs (no 2.x public function computes them): 1.x one_hot / lookup_table
(the trailing [.., 1] index dim is replaced), unique_with_counts (first-occurrence order), crop_tensor,
pad / pad_constant_like, shuffle_channel, space_to_depth, add_position_encoding, 1.x losses, random_crop,
fill_constant_batch_size_like. Registered under Paddle 1.8's op types."""

from __future__ import annotations

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import op


def _squeeze_last(ids: torch.Tensor, api: str) -> torch.Tensor:
    if ids.dim() == 0 or ids.shape[-1] != 1:
        raise InvalidArgumentError(
            f"{api}: the last dimension of input (the ids) must be 1, but its shape is {list(ids.shape)}")
    return ids.squeeze(-1)


@op("one_hot", differentiable=False)
def one_hot(input, depth, allow_out_of_range=False):  # noqa: A002
    """fluid.layers.one_hot: input [.., 1] int -> [.., depth] float32."""
    ids = _squeeze_last(input, "fluid.layers.one_hot").long()
    d = int(depth.reshape(()).item()) if isinstance(depth, torch.Tensor) else int(depth)
    bad = (ids < 0) | (ids >= d)
    if bool(bad.any()):
        if not allow_out_of_range:
            raise InvalidArgumentError(
                f"fluid.layers.one_hot: ids must be in [0, {d}) (depth), but got values outside it")
        ids = torch.where(bad, torch.zeros_like(ids), ids)
        out = torch.nn.functional.one_hot(ids, d).float()
        return out * (~bad).unsqueeze(-1).float()
    return torch.nn.functional.one_hot(ids, d).float()


def _uwc_infer(x, dtype="int32"):
    d = _dt.to_dtype(dtype)
    return [Spec((-1,), x.dtype), Spec(tuple(x.shape), d), Spec((-1,), d)]


@op("unique_with_counts", infer=_uwc_infer, differentiable=False)
def unique_with_counts(x, dtype="int32"):
    """1.x unique: values in order of first occurrence, the index of each x in out, and counts."""
    flat = x.reshape(-1)
    vals, inv, counts = torch.unique(flat, sorted=True, return_inverse=True, return_counts=True)
    first = torch.full((vals.numel(),), flat.numel(), dtype=torch.long, device=x.device)
    first = first.scatter_reduce(0, inv, torch.arange(flat.numel(), device=x.device), reduce="amin")
    order = torch.argsort(first)
    rank = torch.empty_like(order)
    rank[order] = torch.arange(order.numel(), device=x.device)
    td = _dt.to_dtype(dtype).torch
    return vals[order], rank[inv].to(td), counts[order].to(td)


@op("crop_tensor")
def crop_tensor(x, shape=None, offsets=None):
    """Crop `shape` (-1: to the end) starting at `offsets` (default zeros) in every dim."""
    nd = x.dim()
    shp = [int(s) for s in (shape.tolist() if isinstance(shape, torch.Tensor) else shape)] if shape is not None \
        else list(x.shape)
    offs = [int(o) for o in (offsets.tolist() if isinstance(offsets, torch.Tensor) else offsets)] \
        if offsets is not None else [0] * nd
    if len(shp) != nd or len(offs) != nd:
        raise InvalidArgumentError(
            f"fluid.layers.crop_tensor: shape {shp} and offsets {offs} must both have x's rank {nd}")
    idx = []
    for d, (s, o) in enumerate(zip(shp, offs)):
        s = x.shape[d] - o if s == -1 else s
        if o < 0 or o + s > x.shape[d]:
            raise InvalidArgumentError(
                f"fluid.layers.crop_tensor: offset {o} + size {s} exceeds dim {d} of x (shape {list(x.shape)})")
        idx.append(slice(o, o + s))
    return x[tuple(idx)]


@op("pad")
def pad(x, paddings, pad_value=0.0):
    """fluid.layers.pad: paddings = [before_0, after_0, before_1, after_1, ...]."""
    p = [int(v) for v in paddings]
    if len(p) != 2 * x.dim():
        raise InvalidArgumentError(
            f"fluid.layers.pad: paddings must have 2 * rank(x) = {2 * x.dim()} elements, got {len(p)}")
    tp = []
    for d in reversed(range(x.dim())):
        tp += [p[2 * d], p[2 * d + 1]]
    return torch.nn.functional.pad(x, tp, value=float(pad_value))


@op("pad_constant_like")
def pad_constant_like(x, y, pad_value=0.0):
    """Pad y at the end of every dim up to x's shape."""
    tp = []
    for d in reversed(range(y.dim())):
        if x.shape[d] < y.shape[d]:
            raise InvalidArgumentError(
                f"fluid.layers.pad_constant_like: x's shape {list(x.shape)} must be >= y's {list(y.shape)}")
        tp += [0, x.shape[d] - y.shape[d]]
    return torch.nn.functional.pad(y, tp, value=float(pad_value))


@op("shuffle_channel")
def shuffle_channel(x, group):
    n, c, h, w = x.shape
    if c % group:
        raise InvalidArgumentError(f"fluid.layers.shuffle_channel: channels {c} must be divisible by group {group}")
    return x.reshape(n, group, c // group, h, w).transpose(1, 2).reshape(n, c, h, w)


@op("space_to_depth")
def space_to_depth(x, blocksize):
    """Paddle 1.8's kernel (darknet's reorg): input element (n, k, j, i) with k = off * C/b^2 + c goes to
    row j*b + off//b, col i*b + off%b of channel c of an [N, C/b^2, H*b, W*b] buffer, read back as
    [N, C*b^2, H/b, W/b]. (Not the depth-to-space inverse the docs describe; we follow the code.)"""
    n, c, h, w = x.shape
    b = int(blocksize)
    if h % b or w % b:
        raise InvalidArgumentError(
            f"fluid.layers.space_to_depth: height {h} and width {w} must be divisible by blocksize {b}")
    if c % (b * b):
        raise InvalidArgumentError(
            f"fluid.layers.space_to_depth: channels {c} must be divisible by blocksize^2 = {b * b}")
    oc = c // (b * b)
    y = x.reshape(n, b, b, oc, h, w).permute(0, 3, 4, 1, 5, 2).reshape(n, oc, h * b, w * b)
    return y.reshape(n, c * b * b, h // b, w // b)


@op("add_position_encoding")
def add_position_encoding(input, alpha, beta):  # noqa: A002
    """out = alpha * input + beta * PE, PE[t, 2k] = sin(t / 10000^(k / (half - 1))), cos on the second half."""
    n, t, d = input.shape
    half = d // 2
    pos = torch.arange(t, dtype=input.dtype, device=input.device).unsqueeze(1)
    k = torch.arange(half, dtype=input.dtype, device=input.device)
    denom = torch.pow(torch.tensor(10000.0, dtype=input.dtype), k / max(half - 1, 1))
    ang = pos / denom
    pe = torch.cat([torch.sin(ang), torch.cos(ang)], 1)
    return alpha * input + beta * pe.unsqueeze(0)


@op("bpr_loss")
def bpr_loss(input, label):  # noqa: A002
    """-mean_j log(sigmoid(x[label] - x[j])) over the other classes j; output [N, 1]."""
    lab = _squeeze_last(label, "fluid.layers.bpr_loss").long()
    pos = input.gather(1, lab.unsqueeze(1))
    diff = torch.nn.functional.logsigmoid(pos - input)
    mask = torch.ones_like(input).scatter(1, lab.unsqueeze(1), 0.0)
    return -(diff * mask).sum(1, keepdim=True) / (input.shape[1] - 1)


@op("rank_loss")
def rank_loss(label, left, right):
    d = left - right
    return torch.log1p(torch.exp(d)) - label * d


@op("smooth_l1_loss")
def smooth_l1_loss(x, y, inside_weight=None, outside_weight=None, sigma=None):
    s2 = (1.0 if sigma is None else float(sigma)) ** 2
    d = x - y
    if inside_weight is not None:
        d = d * inside_weight
    a = d.abs()
    v = torch.where(a < 1.0 / s2, 0.5 * s2 * d * d, a - 0.5 / s2)
    if outside_weight is not None:
        v = v * outside_weight
    return v.reshape(v.shape[0], -1).sum(1, keepdim=True)


@op("fluid_sigmoid_focal_loss")  # 1.x semantics; 2.x F.sigmoid_focal_loss owns the type
def sigmoid_focal_loss(x, label, fg_num, gamma=2.0, alpha=0.25):
    """label [N, 1] in 0..C (0 = background); x [N, C]; normalized by fg_num."""
    n, c = x.shape
    lab = label.reshape(-1, 1).long()
    cls = torch.arange(1, c + 1, device=x.device).unsqueeze(0)
    pos = (lab == cls).to(x.dtype)
    neg = ((lab != cls) & (lab != -1)).to(x.dtype)
    p = torch.sigmoid(x)
    fg = fg_num.reshape(()).to(x.dtype).clamp(min=1.0)
    term_pos = torch.pow(1 - p, gamma) * torch.nn.functional.logsigmoid(x)
    term_neg = torch.pow(p, gamma) * torch.nn.functional.logsigmoid(-x)
    return -(pos * alpha * term_pos + neg * (1 - alpha) * term_neg) / fg


@op("random_crop", random=True, differentiable=False)
def random_crop(x, shape, seed=None):
    """Crop the trailing dims of x to `shape` at one random offset per instance."""
    shp = [int(s) for s in shape]
    k = len(shp)
    lead = x.shape[: x.dim() - k]
    flat = x.reshape((-1,) + tuple(x.shape[x.dim() - k:]))
    gen = RUNTIME.generator
    outs = []
    for inst in flat:
        idx = []
        for d, s in enumerate(shp):
            hi = inst.shape[d] - s
            if hi < 0:
                raise InvalidArgumentError(f"fluid.layers.random_crop: crop shape {shp} exceeds input {list(x.shape)}")
            o = int(torch.randint(0, hi + 1, (1,), generator=gen).item()) if hi else 0
            idx.append(slice(o, o + s))
        outs.append(inst[tuple(idx)])
    return torch.stack(outs).reshape(tuple(lead) + tuple(shp))


@op("fill_constant_batch_size_like", differentiable=False)
def fill_constant_batch_size_like(input, shape, dtype, value, input_dim_idx=0, output_dim_idx=0,  # noqa: A002
                                  force_cpu=False):
    shp = [int(s) for s in shape]
    shp[output_dim_idx] = input.shape[input_dim_idx]
    return torch.full(shp, value, dtype=_dt.to_dtype(dtype).torch, device=input.device)


@op("sampling_id", random=True, differentiable=False)
def sampling_id(x, min=0.0, max=1.0, seed=0, dtype="float32"):  # noqa: A002
    """One category per row of the probability matrix x, drawn by inverse CDF with u ~ U(min, max)."""
    u = torch.rand(x.shape[0], 1, generator=RUNTIME.generator, dtype=x.dtype, device=x.device) * (max - min) + min
    cdf = torch.cumsum(x, 1)
    idx = (cdf < u).sum(1).clamp(max=x.shape[1] - 1)
    return idx.to(torch.int64)


@op("gru_unit")
def gru_unit_op(input, hidden_prev, weight, bias, activation="tanh", gate_activation="sigmoid",  # noqa: A002
                origin_mode=False):
    """Paddle's gru_unit: gates (update, reset, candidate); weight memory = [H, 2H] gate weights then [H, H]
    candidate weights. Returns (hidden, reset_hidden_prev, gate)."""
    acts = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "relu": torch.relu, "identity": lambda t: t}
    hid = hidden_prev.shape[1]
    flat = weight.reshape(-1)
    x = input + (bias.reshape(1, -1) if bias is not None else 0)
    g = x[:, :2 * hid] + hidden_prev @ flat[:2 * hid * hid].reshape(hid, 2 * hid)
    u, r = acts[gate_activation](g[:, :hid]), acts[gate_activation](g[:, hid:])
    rh = r * hidden_prev
    c = acts[activation](x[:, 2 * hid:] + rh @ flat[2 * hid * hid:].reshape(hid, hid))
    h = u * hidden_prev + (1 - u) * c if origin_mode else (1 - u) * hidden_prev + u * c
    return h, rh, torch.cat([u, r, c], 1)


@op("edit_distance", differentiable=False,
    infer=lambda hyps, hyp_offs, refs, ref_offs, normalized=True, ignored_tokens=None:
    [Spec((-1, 1), _dt.to_dtype("float32")), Spec((1,), _dt.to_dtype("int64"))])
def edit_distance_op(hyps, hyp_offs, refs, ref_offs, normalized=True, ignored_tokens=None):
    """Levenshtein distance per sequence pair (divided by the reference length when normalized)."""
    ign = set(ignored_tokens or ())
    h_all, r_all = hyps.reshape(-1).tolist(), refs.reshape(-1).tolist()
    ho, ro = hyp_offs.tolist(), ref_offs.tolist()
    if len(ho) != len(ro):
        raise InvalidArgumentError("fluid.layers.edit_distance: input and label must have the same number of "
                                   f"sequences, got {len(ho) - 1} and {len(ro) - 1}")
    out = []
    for i in range(len(ho) - 1):
        a = [t for t in h_all[ho[i]:ho[i + 1]] if t not in ign]
        b = [t for t in r_all[ro[i]:ro[i + 1]] if t not in ign]
        prev = list(range(len(b) + 1))
        for x_ in a:
            cur = [prev[0] + 1]
            for j, y_ in enumerate(b):
                cur.append(min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (x_ != y_)))
            prev = cur
        d = float(prev[-1])
        out.append(d / len(b) if normalized and b else d)
    return (torch.tensor(out, dtype=torch.float32, device=hyps.device).reshape(-1, 1),
            torch.tensor([len(ho) - 1], dtype=torch.int64))


@op("teacher_student_sigmoid_loss")
def teacher_student_sigmoid_loss_op(input, label, soft_max_up_bound=15.0, soft_max_lower_bound=-15.0):  # noqa: A002
    """label < -1: click 0, no teacher; -1 <= label < 0: click 1, no teacher; 0 <= label < 1: click 0 with
    teacher score label; label >= 1: click 1 with teacher score label - 1 (the bounds only clip gradients)."""
    x = input
    base = torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))
    click = ((label >= -1.0) & (label < 0.0)) | (label >= 1.0)
    teacher = label >= 0.0
    z = torch.where(label >= 1.0, label - 1.0, label)
    out = base - x * click.to(x.dtype)
    return out + torch.where(teacher, base - x * z, torch.zeros_like(x))


@op("cvm")
def cvm_op(input, cvm, use_cvm=True):  # noqa: A002
    """continuous_value_model: columns 0, 1 are show / click; use_cvm -> log(show + 1),
    log(click + 1) - log(show + 1), rest unchanged; else drop them."""
    if not use_cvm:
        return input[:, 2:]
    s = torch.log(input[:, :1] + 1)
    c = torch.log(input[:, 1:2] + 1) - s
    return torch.cat([s, c, input[:, 2:]], 1)
