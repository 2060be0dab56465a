"""LoD (variable-length sequence) ops: fluid.layers.sequence_*, lod_reset / lod_append, and the ops of the layers with
parameters in fluid/sequence_layers.py (sequence_conv, dynamic_lstm / dynamic_gru, linear_chain_crf, row_conv).

How LoD reaches the program. A sequence batch is one tensor of stacked rows [N, ...] plus offsets
(Paddle's LoD, e.g. [0, 2, 5] for lengths 2 and 3). The offsets of the last LoD level travel as a second,
hidden int64 tensor: a sequence op asks `lod_of(x)`, which finds the offsets variable of the LoD source of x
by walking back through first inputs (Paddle shares LoD from the first input through most ops: embedding,
fc, activations, elementwise), down to a data variable with lod_level > 0; that variable gets a companion
placeholder `<name>@LOD`, and `Executor.run` feeds it from the LoDTensor's lod (`expand_lod_feed`). Ops
that change the LoD (sequence_expand, sequence_unpad, sequence_slice, lod_reset, ...) output new offsets,
attached to their output node (`node.meta["lod_var"]`). Static mode only, as in Paddle 1.8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.program import Variable
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export, op

LOD_SUFFIX = "@LOD"
I64 = _dt.to_dtype("int64")


# ------------------------------------------------------------------------------------------------
# finding / attaching LoD


def _api(name: str) -> str:
    return f"fluid.layers.{name}"


def _static_only(name: str, x: Any) -> None:
    if not MODE.static or not isinstance(x, Variable):
        raise InvalidArgumentError(
            f"{_api(name)}: sequence ops need LoD, which only static programs carry: build the program in static "
            "mode and feed a LoDTensor (fluid.create_lod_tensor) into a data variable with lod_level > 0")


def _first_input_chain(n: Any):
    """The node, its first (non-constant) input, that one's first input, ...: the path along which Paddle's ops
    pass LoD on (bounded, as recorded graphs are)."""
    for _ in range(200):
        if n is None:
            return
        yield n
        n = next((a for a in n.all_input_nodes if a.op != "get_attr"), None)


def lod_of(x: Variable, api: str) -> Variable:
    """The offsets variable ([num_seqs + 1] int64) of the last LoD level of x."""
    if not isinstance(x, Variable):
        raise InvalidArgumentError(
            f"{api}: needs the LoD of its input, which only static programs carry: build the program in static "
            "mode and feed a LoDTensor (fluid.create_lod_tensor) into a data variable with lod_level > 0")
    block = x.block.program.global_block()
    for n in _first_input_chain(x.node):
        if n.meta.get("lod_end"):
            break
        lv = n.meta.get("lod_var")
        if lv is not None:
            return lv
        if n.meta.get("lod_factory") is not None:  # an array_read of a LoD array (engine/ops/control_flow.py)
            lv = n.meta["lod_var"] = n.meta.pop("lod_factory")()
            return lv
        if n.op == "placeholder":
            v = block.vars.get(n.meta.get("var_name", ""))
            if v is not None and v.lod_level > 0:
                lv = block.create_var(name=v.name + LOD_SUFFIX, shape=[-1], dtype="int64", stop_gradient=True)
                lv.is_data = True
                n.meta["lod_var"] = lv
                return lv
            break
    raise InvalidArgumentError(
        f"{api}: input {x.name!r} carries no LoD; feed a LoDTensor into a data variable with lod_level > 0 "
        "(fluid.data(name, shape, dtype, lod_level=1)) or set it with fluid.layers.lod_reset")


def _ends_lod(out: Any) -> Any:
    """Mark outputs with one row per sequence (pooling, padding): their LoD level is consumed."""
    for o in out if isinstance(out, (list, tuple)) else [out]:
        o.node.meta["lod_end"] = True
    return out


def fetch_lod_source(block, name: str) -> tuple | None:
    """Where a fetched variable's LoD comes from, by Paddle's rule that an op keeps its first input's LoD:
    ("feed", data variable name, levels dropped) - the fed LoDTensor's LoD less the levels that pooling ops
    consumed on the way - or ("var", offsets Variable, 0) for the output of a sequence op, or None. The
    Executor attaches it only where the row counts agree. A gradient `X@GRAD` has X's LoD (Paddle's grad kernels
    share it from X)."""
    if "@GRAD" in name and name.split("@GRAD")[0] in block.vars:
        name = name.split("@GRAD")[0]
    v = block.vars.get(name)
    if v is not None and v.node is not None and v.node.meta.get("no_lod"):  # an output Paddle gives no LoD
        return None
    dropped = 0
    for n in _first_input_chain(v.node if v is not None else None):
        if n.op == "placeholder":
            dv = block.vars.get(n.meta.get("var_name", ""))
            return ("feed", dv.name, dropped) if dv is not None and dv.is_data else None
        if n.meta.get("lod_end"):
            dropped += 1
        elif n.meta.get("lod_var") is not None:
            return ("var", n.meta["lod_var"], 0) if not dropped else None
    return None


def _attach(out: Variable, offs: Variable) -> Variable:
    out.node.meta["lod_var"] = offs
    out.lod_level = max(out.lod_level, 1)
    return out


def expand_lod_feed(program, feed: dict) -> dict:
    """Executor hook: add `<name>@LOD` offsets for every LoD variable the program's sequence ops read."""
    if not feed:
        return feed
    from paddle_compat.engine.framework.lod import LoDTensor

    block = program.global_block()
    out = None
    for name, value in feed.items():
        lname = name + LOD_SUFFIX
        if lname not in block.vars or lname in feed:
            continue
        lod = value.lod() if isinstance(value, LoDTensor) else None
        if not lod:
            raise InvalidArgumentError(
                f"Executor.run: variable {name!r} is read by sequence ops and needs LoD: feed a LoDTensor with "
                "lod, e.g. fluid.create_lod_tensor(data, [lengths], place)")
        if out is None:
            out = dict(feed)
        out[lname] = np.asarray(lod[-1], dtype=np.int64)
    return out if out is not None else feed


# ------------------------------------------------------------------------------------------------
# torch helpers over offsets


def _lens(offs: torch.Tensor) -> torch.Tensor:
    return offs[1:] - offs[:-1]


def _seg(offs: torch.Tensor, n: int) -> torch.Tensor:
    """Sequence id of every row."""
    return torch.repeat_interleave(torch.arange(offs.numel() - 1, device=offs.device), _lens(offs), output_size=n)


def _check_offs(x: torch.Tensor, offs: torch.Tensor, api: str) -> None:
    if offs.numel() < 2 or int(offs[0]) != 0 or int(offs[-1]) != x.shape[0]:
        raise InvalidArgumentError(
            f"{api}: the LoD {offs.tolist()} does not match the input's {x.shape[0]} rows (it must start at 0 and "
            "end at the number of rows)")


def _rows_spec(x, *a, **k):
    return Spec((-1,) + tuple(x.shape[1:]), x.dtype)


def _offs_spec():
    return Spec((-1,), I64)


# ------------------------------------------------------------------------------------------------
# op bodies


@op("sequence_pool", infer=lambda x, offs, pool_type, pad_value=0.0: _rows_spec(x))
def sequence_pool_op(x, offs, pool_type, pad_value=0.0):
    _check_offs(x, offs, _api("sequence_pool"))
    b = offs.numel() - 1
    lens = _lens(offs)
    pt = pool_type.lower()
    shape = (b,) + tuple(x.shape[1:])
    if pt in ("first", "last"):
        idx = offs[:-1] if pt == "first" else (offs[1:] - 1).clamp(min=0)
        out = x[idx]
    else:
        seg = _seg(offs, x.shape[0])
        view = seg.reshape((-1,) + (1,) * (x.dim() - 1)).expand_as(x)
        if pt in ("sum", "average", "sqrt"):
            out = torch.zeros(shape, dtype=x.dtype, device=x.device).index_add(0, seg, x)
            denom = lens.to(x.dtype).clamp(min=1).reshape((-1,) + (1,) * (x.dim() - 1))
            if pt == "average":
                out = out / denom
            elif pt == "sqrt":
                out = out / denom.sqrt()
        elif pt in ("max", "min"):
            out = torch.zeros(shape, dtype=x.dtype, device=x.device).scatter_reduce(
                0, view, x, reduce="amax" if pt == "max" else "amin", include_self=False)
        else:
            raise InvalidArgumentError(
                f"{_api('sequence_pool')}: pool_type must be one of sum, average, sqrt, max, min, first, last; "
                f"got {pool_type!r}")
    empty = (lens == 0).reshape((-1,) + (1,) * (x.dim() - 1))
    return torch.where(empty, torch.full_like(out, float(pad_value)), out)


@op("sequence_softmax", infer=lambda x, offs: Spec(tuple(x.shape), x.dtype))
def sequence_softmax_op(x, offs):
    _check_offs(x, offs, _api("sequence_softmax"))
    flat = x.reshape(-1)
    seg = _seg(offs, flat.numel())
    b = offs.numel() - 1
    mx = torch.zeros(b, dtype=x.dtype, device=x.device).scatter_reduce(0, seg, flat.detach(), "amax",
                                                                      include_self=False)
    e = torch.exp(flat - mx[seg])
    s = torch.zeros(b, dtype=x.dtype, device=x.device).index_add(0, seg, e)
    return (e / s[seg]).reshape(x.shape)


def _repeat_seqs(offs: torch.Tensor, reps: torch.Tensor):
    """Row index and new offsets when sequence i (rows offs[i]:offs[i+1]) is repeated reps[i] times."""
    rows, new_lens = [], []
    for i in range(offs.numel() - 1):
        a, b = int(offs[i]), int(offs[i + 1])
        for _ in range(int(reps[i])):
            rows.append(torch.arange(a, b))
            new_lens.append(b - a)
    idx = torch.cat(rows) if rows else torch.zeros(0, dtype=torch.long)
    new_offs = torch.tensor(np.concatenate([[0], np.cumsum(new_lens)]).astype(np.int64))
    return idx.to(offs.device), new_offs.to(offs.device)


@op("sequence_expand", infer=lambda x, x_offs, y_offs: [_rows_spec(x), _offs_spec()])
def sequence_expand_op(x, x_offs, y_offs):
    """Sequence i of x (row i when x has no LoD) repeated len_y(i) times."""
    if x_offs is None:
        x_offs = torch.arange(x.shape[0] + 1, device=x.device)
    reps = _lens(y_offs)
    if reps.numel() != x_offs.numel() - 1:
        raise InvalidArgumentError(
            f"{_api('sequence_expand')}: x has {x_offs.numel() - 1} sequences but y's LoD level has "
            f"{reps.numel()}")
    idx, new = _repeat_seqs(x_offs, reps)
    return x[idx], new


@op("sequence_expand_as", infer=lambda x, y_offs: _rows_spec(x))
def sequence_expand_as_op(x, y_offs):
    reps = _lens(y_offs)
    if reps.numel() != x.shape[0]:
        raise InvalidArgumentError(
            f"{_api('sequence_expand_as')}: x has {x.shape[0]} rows but y has {reps.numel()} sequences")
    return torch.repeat_interleave(x, reps, dim=0)


def _pad_infer(x, offs, pad_value, maxlen=None):
    return [Spec((-1, maxlen if maxlen else -1) + tuple(x.shape[1:]), x.dtype), Spec((-1,), I64)]


@op("sequence_pad", infer=_pad_infer)
def sequence_pad_op(x, offs, pad_value, maxlen=None):
    _check_offs(x, offs, _api("sequence_pad"))
    lens = _lens(offs)
    b = lens.numel()
    longest = int(lens.max()) if b else 0
    t = longest if maxlen is None or maxlen < 0 else int(maxlen)
    if t < longest:
        raise InvalidArgumentError(
            f"{_api('sequence_pad')}: maxlen {t} is smaller than the longest sequence ({longest})")
    pv = pad_value.reshape(-1).to(x.dtype)
    out = pv.reshape((1, 1) + ((1,) * (x.dim() - 1) if pv.numel() == 1 else tuple(x.shape[1:]))).expand(
        (b, t) + tuple(x.shape[1:])).clone()
    seg = _seg(offs, x.shape[0])
    pos = torch.arange(x.shape[0], device=x.device) - offs[seg]
    out = out.index_put((seg, pos), x)
    return out, lens.to(torch.int64)


@op("sequence_unpad", infer=lambda x, length: [Spec((-1,) + tuple(x.shape[2:]), x.dtype), _offs_spec()])
def sequence_unpad_op(x, length):
    lens = length.reshape(-1).long()
    mask = torch.arange(x.shape[1], device=x.device).unsqueeze(0) < lens.unsqueeze(1)
    offs = torch.cat([torch.zeros(1, dtype=torch.long, device=x.device), torch.cumsum(lens, 0)])
    return x[mask], offs


@op("sequence_reverse", infer=lambda x, offs: Spec(tuple(x.shape), x.dtype))
def sequence_reverse_op(x, offs):
    _check_offs(x, offs, _api("sequence_reverse"))
    seg = _seg(offs, x.shape[0])
    p = torch.arange(x.shape[0], device=x.device)
    return x[offs[seg + 1] - 1 - p + offs[seg]]


@op("sequence_concat", infer=lambda xs, offs: [_rows_spec(xs[0]), _offs_spec()])
def sequence_concat_op(xs, offs):
    b = offs[0].numel() - 1
    if any(o.numel() - 1 != b for o in offs):
        raise InvalidArgumentError(f"{_api('sequence_concat')}: all inputs must have the same number of sequences")
    parts, lens = [], []
    for i in range(b):
        n = 0
        for x, o in zip(xs, offs):
            a, e = int(o[i]), int(o[i + 1])
            parts.append(x[a:e])
            n += e - a
        lens.append(n)
    new = torch.tensor(np.concatenate([[0], np.cumsum(lens)]).astype(np.int64), device=xs[0].device)
    return torch.cat(parts, 0), new


@op("sequence_slice", infer=lambda x, offs, offset, length: [_rows_spec(x), _offs_spec()])
def sequence_slice_op(x, offs, offset, length):
    _check_offs(x, offs, _api("sequence_slice"))
    off = offset.reshape(-1).long()
    ln = length.reshape(-1).long()
    rows = []
    for i in range(offs.numel() - 1):
        a, e = int(offs[i]), int(offs[i + 1])
        s, n = int(off[i]), int(ln[i])
        if s < 0 or n < 0 or a + s + n > e:
            raise InvalidArgumentError(
                f"{_api('sequence_slice')}: slice [{s}, {s + n}) is out of sequence {i} of length {e - a}")
        rows.append(torch.arange(a + s, a + s + n))
    idx = torch.cat(rows).to(x.device)
    new = torch.cat([torch.zeros(1, dtype=torch.long, device=x.device), torch.cumsum(ln, 0)])
    return x[idx], new


@op("sequence_enumerate", differentiable=False,
    infer=lambda x, offs, win_size, pad_value=0: Spec((-1, win_size), x.dtype))
def sequence_enumerate_op(x, offs, win_size, pad_value=0):
    _check_offs(x, offs, _api("sequence_enumerate"))
    flat = x.reshape(-1)
    n = flat.numel()
    seg = _seg(offs, n)
    end = offs[seg + 1]
    pos = torch.arange(n, device=x.device).unsqueeze(1) + torch.arange(win_size, device=x.device).unsqueeze(0)
    ok = pos < end.unsqueeze(1)
    vals = flat[pos.clamp(max=max(n - 1, 0))]
    return torch.where(ok, vals, torch.full_like(vals, pad_value))


@op("sequence_conv", infer=lambda x, offs, filter, context_length, context_start, context_stride=1:
    Spec((-1, filter.shape[1]), x.dtype))
def sequence_conv_op(x, offs, filter, context_length, context_start, context_stride=1):  # noqa: A002
    """Context projection (rows p + context_start .. within the sequence, zeros outside) times filter."""
    _check_offs(x, offs, _api("sequence_conv"))
    n, d = x.shape
    seg = _seg(offs, n)
    start, end = offs[seg], offs[seg + 1]
    cols = []
    p = torch.arange(n, device=x.device)
    for k in range(context_length):
        q = p + context_start + k
        ok = (q >= start) & (q < end)
        cols.append(torch.where(ok.unsqueeze(1), x[q.clamp(0, max(n - 1, 0))], torch.zeros_like(x)))
    ctx = torch.cat(cols, 1)
    return ctx @ filter


@op("sequence_reshape", infer=lambda x, offs, new_dim: [Spec((-1, new_dim), x.dtype), _offs_spec()])
def sequence_reshape_op(x, offs, new_dim):
    d = x.shape[1]
    o = offs * d
    if bool((o % new_dim != 0).any()):
        raise InvalidArgumentError(
            f"{_api('sequence_reshape')}: every sequence's size ({_lens(offs).tolist()} rows x {d}) must be "
            f"divisible by new_dim {new_dim}")
    return x.reshape(-1, new_dim), o // new_dim


@op("sequence_scatter", infer=lambda x, index, index_offs, updates: Spec(tuple(x.shape), x.dtype))
def sequence_scatter_op(x, index, index_offs, updates):
    seg = _seg(index_offs, index.shape[0])
    if index_offs.numel() - 1 != x.shape[0]:
        raise InvalidArgumentError(
            f"{_api('sequence_scatter')}: index has {index_offs.numel() - 1} sequences but input has "
            f"{x.shape[0]} rows")
    return x.index_put((seg, index.reshape(-1).long()), updates.reshape(-1).to(x.dtype), accumulate=True)


@op("sequence_mask", differentiable=False,
    infer=lambda x, maxlen=None, dtype="int64": Spec(tuple(x.shape) + (maxlen if isinstance(maxlen, int) and
                                                                         maxlen > 0 else -1,), _dt.to_dtype(dtype)))
def sequence_mask_op(x, maxlen=None, dtype="int64"):
    m = int(maxlen.reshape(-1)[0]) if isinstance(maxlen, torch.Tensor) else maxlen
    if m is None or m < 0:
        m = int(x.max()) if x.numel() else 0
    r = torch.arange(m, device=x.device)
    return (r < x.unsqueeze(-1)).to(_dt.to_dtype(dtype).torch)


@op("lod_offsets_from_lengths", differentiable=False, infer=lambda y: _offs_spec())
def offsets_from_values(y):
    """lod_reset(x, y) with y without LoD: y holds the target offsets themselves."""
    return y.reshape(-1).long()


_ACTS = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "relu": torch.relu, "identity": lambda t: t}


def _act(name: str, api: str):
    if name not in _ACTS:
        raise InvalidArgumentError(f"{api}: activation must be one of {sorted(_ACTS)}, got {name!r}")
    return _ACTS[name]


def _batch_layout(offs: torch.Tensor, n: int, is_reverse: bool):
    seg = _seg(offs, n)
    lens = _lens(offs)
    pos = torch.arange(n, device=offs.device) - offs[seg]
    if is_reverse:
        pos = lens[seg] - 1 - pos
    return seg, pos, lens, int(lens.max()) if lens.numel() else 0


def _lstm_infer(x, offs, weight, bias, h0, c0, use_peepholes, is_reverse, gate_activation, cell_activation,
                candidate_activation):
    s = Spec((-1, weight.shape[0]), x.dtype)
    return [s, s]


def lstm_recurrence(x, offs, weight, bias, h0, c0, use_peepholes, is_reverse, acts, api, project=None,
                    cell_clip=None):
    """Paddle's lstm / lstmp recurrence over LoD sequences: gates ordered (candidate, input, forget, output),
    peepholes in bias[4H:7H]. acts = (gate, cell, candidate) activations; project(h) (lstmp) maps each hidden
    state to the recurrent output r, which feeds the next step through weight [R, 4H]. Returns (r, c) rows."""
    _check_offs(x, offs, api)
    hid = weight.shape[1] // 4
    ga, ca, na = acts
    seg, pos, lens, t_max = _batch_layout(offs, x.shape[0], is_reverse)
    b = lens.numel()
    bias = bias.reshape(-1)
    xp = torch.zeros(b, t_max, 4 * hid, dtype=x.dtype, device=x.device).index_put((seg, pos), x + bias[:4 * hid])
    r = h0 if h0 is not None else torch.zeros(b, weight.shape[0], dtype=x.dtype, device=x.device)
    c = c0 if c0 is not None else torch.zeros(b, hid, dtype=x.dtype, device=x.device)
    if use_peepholes:
        wic, wfc, woc = bias[4 * hid:5 * hid], bias[5 * hid:6 * hid], bias[6 * hid:7 * hid]
    # NOTE: Paddle 1.8's CPU lstm / lstmp gradient, in its AVX kernel (float32, hidden size a multiple of 8,
    # no cell_clip; the path every AVX machine takes), adds nothing for the cell's own use: the
    # output h = o * act(c) and the output-gate peephole c * w_oc send no gradient to c, and the Cell output
    # takes none either (below), so the candidate, input and forget gates get no gradient at all there; only
    # the output gate learns. Its scalar kernel (other sizes) computes the full gradient. We follow the code:
    # the same values forward, the same gradients (golden zoo18_lstm_train, tests/zoo18/test_zoo18_classes.py).
    avx = x.dtype == torch.float32 and hid % 8 == 0 and not (cell_clip and cell_clip > 0)
    rs, cs = [], []
    for t in range(t_max):
        g = xp[:, t] + r @ weight
        cand, ig, fg, og = g.split(hid, 1)
        cand = na(cand)
        ig = ga(ig + c * wic) if use_peepholes else ga(ig)
        fg = ga(fg + c * wfc) if use_peepholes else ga(fg)
        cn = cand * ig + c * fg
        if cell_clip and cell_clip > 0:
            cn = cn.clamp(-cell_clip, cell_clip)
        cu = cn.detach() if avx else cn  # the cell as the output path sees it (see the NOTE above)
        og = ga(og + cu * woc) if use_peepholes else ga(og)
        rn = og * ca(cu)
        if project is not None:
            rn = project(rn)
        m = (t < lens).unsqueeze(1)
        r, c = torch.where(m, rn, r), torch.where(m, cn, c)
        rs.append(r)
        cs.append(c)
    if not rs:
        return x.new_zeros(0, weight.shape[0]), x.new_zeros(0, hid)
    # NOTE: Paddle's lstm_grad / lstmp_grad take Hidden@GRAD (Projection@GRAD) only, never Cell@GRAD: a loss
    # on the Cell output sends no gradient back (golden zoo18_classes lstm_h6_cell_in_loss).
    return torch.stack(rs, 1)[seg, pos], torch.stack(cs, 1)[seg, pos].detach()


def lstm_acts(gate_activation, cell_activation, candidate_activation, api):
    return _act(gate_activation, api), _act(cell_activation, api), _act(candidate_activation, api)


@op("dynamic_lstm", infer=_lstm_infer)
def dynamic_lstm_op(x, offs, weight, bias, h0, c0, use_peepholes, is_reverse, gate_activation, cell_activation,
                    candidate_activation):
    api = _api("dynamic_lstm")
    return lstm_recurrence(x, offs, weight, bias, h0, c0, use_peepholes, is_reverse,
                           lstm_acts(gate_activation, cell_activation, candidate_activation, api), api)


@op("dynamic_gru", infer=lambda x, offs, weight, bias, h0, is_reverse, gate_activation, candidate_activation,
    origin_mode: Spec((-1, weight.shape[0]), x.dtype))
def dynamic_gru_op(x, offs, weight, bias, h0, is_reverse, gate_activation, candidate_activation, origin_mode):
    """Paddle's gru op: gates (update, reset, candidate); the [H, 3H] weight's memory holds the [H, 2H] gate
    weights followed by the [H, H] candidate weights."""
    api = _api("dynamic_gru")
    _check_offs(x, offs, api)
    hid = weight.shape[0]
    ga, na = _act(gate_activation, api), _act(candidate_activation, api)
    flat = weight.reshape(-1)
    w_gate = flat[:2 * hid * hid].reshape(hid, 2 * hid)
    w_cand = flat[2 * hid * hid:].reshape(hid, hid)
    seg, pos, lens, t_max = _batch_layout(offs, x.shape[0], is_reverse)
    b = lens.numel()
    xb = x + (bias.reshape(-1) if bias is not None else 0)
    xp = torch.zeros(b, t_max, 3 * hid, dtype=x.dtype, device=x.device).index_put((seg, pos), xb)
    h = h0 if h0 is not None else torch.zeros(b, hid, dtype=x.dtype, device=x.device)
    hs = []
    for t in range(t_max):
        xt = xp[:, t]
        gates = xt[:, :2 * hid] + h @ w_gate
        u, r = ga(gates[:, :hid]), ga(gates[:, hid:])
        cand = na(xt[:, 2 * hid:] + (r * h) @ w_cand)
        hn = u * h + (1 - u) * cand if origin_mode else (1 - u) * h + u * cand
        h = torch.where((t < lens).unsqueeze(1), hn, h)
        hs.append(h)
    if not hs:
        return x.new_zeros(0, hid)
    return torch.stack(hs, 1)[seg, pos]


# ------------------------------------------------------------------------------------------------
# fluid.layers adapters


def sequence_pool(input, pool_type, is_test=False, pad_value=0.0):  # noqa: A002
    _static_only("sequence_pool", input)
    return _ends_lod(sequence_pool_op(input, lod_of(input, _api("sequence_pool")), pool_type, pad_value))


def sequence_first_step(input):  # noqa: A002
    return sequence_pool(input, "first")


def sequence_last_step(input):  # noqa: A002
    return sequence_pool(input, "last")


def sequence_softmax(input, use_cudnn=False, name=None):  # noqa: A002
    _static_only("sequence_softmax", input)
    return _attach(sequence_softmax_op(input, lod_of(input, _api("sequence_softmax"))),
                   lod_of(input, _api("sequence_softmax")))


@op("lod_level_offsets", differentiable=False, infer=lambda y, level: Spec((-1,), I64))
def lod_level_offsets(y, level):
    """The offsets of LoD level `level` of a fed LoDTensor (its full LoD rides on the runtime tensor)."""
    from paddle_compat.engine.ops.control_flow import LOD_ATTR

    lod = getattr(y, LOD_ATTR, None)
    if not lod or not -len(lod) <= level < len(lod):
        raise InvalidArgumentError(
            f"{_api('sequence_expand')}: ref_level {level} needs y fed as a LoDTensor with that LoD level, but y "
            f"has {len(lod) if lod else 0} level(s) at run time")
    return torch.tensor(lod[level], dtype=torch.int64, device=y.device)


def sequence_expand(x, y, ref_level=-1, name=None):
    _static_only("sequence_expand", x)
    try:
        x_offs = lod_of(x, "")
    except InvalidArgumentError:
        x_offs = None
    if ref_level == -1 or (y.lod_level > 0 and ref_level == y.lod_level - 1):
        y_offs = lod_of(y, _api("sequence_expand"))
    else:  # an upper level of y: read from the fed LoDTensor's full LoD (only the last level travels statically)
        if not -max(y.lod_level, 1) <= ref_level < max(y.lod_level, 1):
            raise InvalidArgumentError(f"{_api('sequence_expand')}: ref_level must be in [-1, {y.lod_level}) for y "
                                       f"of lod_level {y.lod_level}, got {ref_level}")
        y_offs = lod_level_offsets(y, int(ref_level))
    out, offs = sequence_expand_op(x, x_offs, y_offs)
    # Paddle: the output has LoD only when x has (rows of a LoD-less x are repeated, no sequences made)
    return _attach(out, offs) if x_offs is not None else _ends_lod(out)


def sequence_expand_as(x, y, name=None):
    _static_only("sequence_expand_as", x)
    offs = lod_of(y, _api("sequence_expand_as"))
    return _attach(sequence_expand_as_op(x, offs), offs)


def sequence_pad(x, pad_value, maxlen=None, name=None):
    _static_only("sequence_pad", x)
    return _ends_lod(sequence_pad_op(x, lod_of(x, _api("sequence_pad")), pad_value, maxlen))


def sequence_unpad(x, length, name=None):
    _static_only("sequence_unpad", x)
    out, offs = sequence_unpad_op(x, length)
    return _attach(out, offs)


def sequence_reverse(x, name=None):
    _static_only("sequence_reverse", x)
    offs = lod_of(x, _api("sequence_reverse"))
    return _attach(sequence_reverse_op(x, offs), offs)


def sequence_concat(input, name=None):  # noqa: A002
    _static_only("sequence_concat", input[0])
    out, offs = sequence_concat_op(list(input), [lod_of(x, _api("sequence_concat")) for x in input])
    return _attach(out, offs)


def sequence_slice(input, offset, length, name=None):  # noqa: A002
    _static_only("sequence_slice", input)
    out, offs = sequence_slice_op(input, lod_of(input, _api("sequence_slice")), offset, length)
    return _attach(out, offs)


def sequence_enumerate(input, win_size, pad_value=0, name=None):  # noqa: A002
    _static_only("sequence_enumerate", input)
    offs = lod_of(input, _api("sequence_enumerate"))
    return _attach(sequence_enumerate_op(input, offs, win_size, pad_value), offs)


def sequence_reshape(input, new_dim):  # noqa: A002
    _static_only("sequence_reshape", input)
    out, offs = sequence_reshape_op(input, lod_of(input, _api("sequence_reshape")), new_dim)
    return _attach(out, offs)


def sequence_scatter(input, index, updates, name=None):  # noqa: A002
    _static_only("sequence_scatter", index)
    return sequence_scatter_op(input, index, lod_of(index, _api("sequence_scatter")), updates)


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    return sequence_mask_op(x, maxlen, dtype)


def lod_reset(x, y=None, target_lod=None):
    """Give x the LoD of y (y's own LoD, else y's values as offsets) or the constant target_lod."""
    _static_only("lod_reset", x)
    out = P("paddle.assign")(x)
    if y is not None:
        try:
            offs = lod_of(y, "")
        except InvalidArgumentError:
            offs = offsets_from_values(y)
    elif target_lod is not None:
        offs = P("paddle.assign")(np.asarray(target_lod, dtype=np.int64))
    else:
        raise ValueError("fluid.layers.lod_reset: y and target_lod should not be both none.")
    return _attach(out, offs)


def lod_append(x, level):
    """Append a LoD level (we carry the last level, so the appended one becomes the one sequence ops see)."""
    _static_only("lod_append", x)
    if isinstance(level, Variable):
        return lod_reset(x, y=level)
    return lod_reset(x, target_lod=list(level))


for _fn in (sequence_pool, sequence_first_step, sequence_last_step, sequence_softmax, sequence_expand,
            sequence_expand_as, sequence_pad, sequence_unpad, sequence_reverse, sequence_concat, sequence_slice,
            sequence_enumerate, sequence_reshape, sequence_scatter, sequence_mask, lod_reset,
            lod_append):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")


@op("im2sequence", infer=lambda input, kernels, strides, paddings, image_size=None, out_stride=(1, 1): [
    Spec((-1, input.shape[1] * kernels[0] * kernels[1]), input.dtype), _offs_spec()])
def im2sequence_op(input, kernels, strides, paddings, image_size=None, out_stride=(1, 1)):  # noqa: A002
    """Each image's patches (row-major output positions, each C x kh x kw) as one sequence. With image_size
    [N, 2] (real h, w of padded images; Paddle uses it for batches of more than one image) an image keeps the
    top-left output positions its real size, divided by out_stride (rounded up), would give."""
    up, left, down, right = paddings
    x = torch.nn.functional.pad(input, [left, right, up, down])
    cols = torch.nn.functional.unfold(x, kernels, stride=strides)  # [N, C*kh*kw, L]
    n, d, length = cols.shape
    if image_size is None or n == 1:
        offs = torch.arange(n + 1, device=input.device, dtype=torch.int64) * length
        return cols.transpose(1, 2).reshape(n * length, d), offs
    oh = (input.shape[2] + up + down - kernels[0]) // strides[0] + 1
    ow = (input.shape[3] + left + right - kernels[1]) // strides[1] + 1
    grid = cols.transpose(1, 2).reshape(n, oh, ow, d)
    rows, counts = [], []
    for i, (h, w) in enumerate(image_size.reshape(n, 2).tolist()):
        h, w = -(-int(h) // out_stride[0]), -(-int(w) // out_stride[1])
        kh = (h + up + down - kernels[0]) // strides[0] + 1
        kw = (w + left + right - kernels[1]) // strides[1] + 1
        rows.append(grid[i, :kh, :kw].reshape(-1, d))
        counts.append(kh * kw)
    offs = torch.tensor([0] + np.cumsum(counts).tolist(), dtype=torch.int64, device=input.device)
    return torch.cat(rows), offs


def im2sequence(input, filter_size=1, stride=1, padding=0, input_image_size=None, out_stride=1,  # noqa: A002
                name=None):
    _static_only("im2sequence", input)
    two = lambda v: [int(v), int(v)] if isinstance(v, int) else [int(a) for a in v]  # noqa: E731
    pad = [int(padding)] * 4 if isinstance(padding, int) else [int(p) for p in padding]
    if len(pad) == 2:
        pad = [pad[0], pad[1], pad[0], pad[1]]
    out, offs = im2sequence_op(input, tuple(two(filter_size)), tuple(two(stride)), tuple(pad), input_image_size,
                               tuple(two(out_stride)))
    return _attach(out, offs)


@op("ctc_greedy_decoder", differentiable=False,
    infer=lambda x, offs, blank: [Spec((-1, 1), I64), _offs_spec()])
def ctc_greedy_decoder_op(x, offs, blank):
    """argmax per row, merge repeats, drop blanks, per sequence; all empty -> the single row [-1]."""
    ids = x.argmax(1).tolist()
    o = offs.tolist()
    out, lens = [], []
    for i in range(len(o) - 1):
        kept = _ctc_collapse(ids[o[i]:o[i + 1]], blank)
        out += kept
        lens.append(len(kept))
    if not out:
        return torch.full((1, 1), -1, dtype=torch.int64), torch.tensor([0, 1], dtype=torch.int64)
    new = torch.tensor(np.concatenate([[0], np.cumsum(lens)]).astype(np.int64))
    return torch.tensor(out, dtype=torch.int64).reshape(-1, 1), new


def _ctc_collapse(ids: list, blank: int) -> list:
    """Paddle's ctc_align: merge repeated ids, then drop blanks."""
    kept, prev = [], None
    for t in ids:
        if t != prev and t != blank:
            kept.append(t)
        prev = t
    return kept


@op("ctc_align_padded", differentiable=False,
    infer=lambda x, length, blank, padding_value: [Spec((x.shape[0], x.shape[1]), I64), Spec((x.shape[0], 1), I64)])
def ctc_align_padded_op(x, length, blank, padding_value):
    """[B, T, C] scores and [B, 1] lengths -> the collapsed ids of each row, padded to T, and their counts."""
    ids = x.argmax(-1).tolist()
    lens = length.reshape(-1).tolist()
    out = torch.full((x.shape[0], x.shape[1]), int(padding_value), dtype=torch.int64)
    counts = []
    for b, (row, n) in enumerate(zip(ids, lens)):
        kept = _ctc_collapse(row[:int(n)], blank)
        out[b, :len(kept)] = torch.tensor(kept, dtype=torch.int64)
        counts.append(len(kept))
    return out.to(x.device), torch.tensor(counts, dtype=torch.int64, device=x.device).reshape(-1, 1)


def ctc_greedy_decoder(input, blank, input_length=None, padding_value=0, name=None):  # noqa: A002
    if input_length is not None:  # the padded form: ([B, T] ids padded with padding_value, [B, 1] lengths)
        if len(input.shape) != 3:
            raise InvalidArgumentError(f"{_api('ctc_greedy_decoder')}: with input_length, input must be "
                                       f"[batch, max_len, num_classes], got shape {list(input.shape)}")
        return ctc_align_padded_op(input, input_length, int(blank), int(padding_value))
    _static_only("ctc_greedy_decoder", input)
    out, offs = ctc_greedy_decoder_op(input, lod_of(input, _api("ctc_greedy_decoder")), int(blank))
    return _attach(out, offs)


export(im2sequence, "paddle.fluid.layers.im2sequence")
export(ctc_greedy_decoder, "paddle.fluid.layers.ctc_greedy_decoder")


def warpctc(input, label, blank=0, norm_by_times=False, input_length=None, label_length=None):  # noqa: A002
    """LoD input [Lp, num_classes + 1] (logits) and label [Lg, 1] int32 -> loss [batch, 1]: both padded with
    sequence_pad, then paddle.nn.functional.ctc_loss (Paddle's warpctc op) with reduction='none'. The padded form
    (input_length / label_length given): time-major logits [T, B, C] and labels [B, L], in dygraph too."""
    if input_length is None:
        _static_only("warpctc", input)
        logits, input_length = sequence_pad(input, P("paddle.fluid.layers.fill_constant")([1], input.dtype, 0.0))
        lab, label_length = sequence_pad(label, P("paddle.fluid.layers.fill_constant")([1], label.dtype, 0))
        lab = P("paddle.squeeze")(lab, [2])
        logits = P("paddle.transpose")(logits, [1, 0, 2])
    else:
        logits, lab = input, label
    loss = P("paddle.nn.functional.ctc_loss")(logits, lab, input_length, label_length, blank=int(blank),
                                              reduction="none", norm_by_times=bool(norm_by_times))
    return P("paddle.reshape")(loss, [-1, 1])


export(warpctc, "paddle.fluid.layers.warpctc")


@op("linear_chain_crf", infer=lambda emission, offs, transition, label: Spec((-1, 1), emission.dtype))
def linear_chain_crf_op(emission, offs, transition, label):
    """Per sequence: log Z - score(label path); transition rows: start, end, then the [D, D] matrix."""
    start, end, trans = transition[0], transition[1], transition[2:]
    lab = label.reshape(-1).long()
    o = offs.tolist()
    out = []
    for i in range(len(o) - 1):
        a, b = o[i], o[i + 1]
        e = emission[a:b]
        y = lab[a:b]
        alpha = start + e[0]
        for t in range(1, b - a):
            alpha = torch.logsumexp(alpha.unsqueeze(1) + trans, 0) + e[t]
        log_z = torch.logsumexp(alpha + end, 0)
        score = start[y[0]] + e[torch.arange(b - a), y].sum() + end[y[-1]]
        if b - a > 1:
            score = score + trans[y[:-1], y[1:]].sum()
        out.append(log_z - score)
    return torch.stack(out).reshape(-1, 1)


@op("crf_decoding", differentiable=False, infer=lambda emission, offs, transition, label=None: Spec((-1, 1), I64))
def crf_decoding_op(emission, offs, transition, label=None):
    """Viterbi path per sequence (with label: 1 where the path equals the label, else 0)."""
    start, end, trans = transition[0], transition[1], transition[2:]
    o = offs.tolist()
    paths = []
    for i in range(len(o) - 1):
        e = emission[o[i]:o[i + 1]]
        score = start + e[0]
        back = []
        for t in range(1, e.shape[0]):
            cand = score.unsqueeze(1) + trans
            score, idx = cand.max(0)
            score = score + e[t]
            back.append(idx)
        best = int(torch.argmax(score + end))
        path = [best]
        for idx in reversed(back):
            best = int(idx[best])
            path.append(best)
        paths.extend(reversed(path))
    res = torch.tensor(paths, dtype=torch.int64, device=emission.device).reshape(-1, 1)
    if label is not None:
        res = (res == label.reshape(-1, 1).long()).to(torch.int64)
    return res


def _unpad(x, length):
    """Padded [B, T, ...] rows and [B] / [B, 1] lengths -> (the valid rows [sum(length), ...], LoD offsets)."""
    n = length.reshape(-1).long()
    keep = torch.arange(x.shape[1], device=x.device).unsqueeze(0) < n.unsqueeze(1)
    return x[keep], torch.cat([n.new_zeros(1), torch.cumsum(n, 0)])


@op("linear_chain_crf_padded", infer=lambda emission, length, transition, label: Spec((emission.shape[0], 1),
                                                                                      emission.dtype))
def linear_chain_crf_padded_op(emission, length, transition, label):
    e, offs = _unpad(emission, length)
    lab, _ = _unpad(label.reshape(label.shape[0], label.shape[1]), length)
    return _CRF_NLL(e, offs, transition, lab)


@op("crf_decoding_padded", differentiable=False,
    infer=lambda emission, length, transition, label=None: Spec((emission.shape[0], emission.shape[1]), I64))
def crf_decoding_padded_op(emission, length, transition, label=None):
    """[B, T] Viterbi paths (with label: 1 where the path equals the label), 0 past each row's length."""
    e, offs = _unpad(emission, length)
    lab = _unpad(label.reshape(label.shape[0], label.shape[1]), length)[0] if label is not None else None
    flat = _CRF_DECODE(e, offs, transition, lab).reshape(-1)
    n = length.reshape(-1).long()
    keep = torch.arange(emission.shape[1], device=emission.device).unsqueeze(0) < n.unsqueeze(1)
    return torch.zeros(keep.shape, dtype=torch.int64, device=emission.device).masked_scatter(keep, flat)


_CRF_NLL = linear_chain_crf_op.__paddle_op__.impl  # the torch bodies the padded forms share
_CRF_DECODE = crf_decoding_op.__paddle_op__.impl




@op("row_conv", infer=lambda x, offs, filter: _rows_spec(x) if offs is not None else Spec(tuple(x.shape), x.dtype))
def row_conv_op(x, offs, filter):  # noqa: A002
    """Lookahead convolution (DeepSpeech2): out[t] = sum_j x[t + j] * filter[j] over j = 0..k, within each
    sequence: LoD rows [T, D] with offsets, or padded [B, T, D] (offs None)."""
    k = filter.shape[0]
    if offs is None:
        t = x.shape[1]
        out = x * filter[0]
        for j in range(1, min(k, t)):
            out = out + torch.nn.functional.pad(x[:, j:] * filter[j], (0, 0, 0, j))
        return out
    _check_offs(x, offs, _api("row_conv"))
    n = x.shape[0]
    seg = _seg(offs, n)
    rows = torch.arange(n, device=x.device)
    out = x * filter[0]
    for j in range(1, k):
        src = (rows + j).clamp(max=max(n - 1, 0))
        ok = ((rows + j) < offs[1:][seg]).unsqueeze(1)
        out = out + torch.where(ok, x[src] * filter[j], torch.zeros_like(x))
    return out




# chunk_eval: (num_tag_types, begin, inside, end, single) per scheme, as Paddle's chunk_eval_op.h
_CHUNK_SCHEMES = {"IOB": (2, 0, 1, -1, -1), "IOE": (2, -1, 0, 1, -1), "IOBES": (4, 0, 1, 2, 3),
                  "plain": (1, -1, -1, -1, -1)}


def _chunk_end(pt, pty, t, ty, other, b, i, e, s):
    if pty == other:
        return False
    if ty == other or ty != pty:
        return True
    if pt in (b, i):
        return t in (b, s)
    return pt in (e, s)


def _chunk_begin(pt, pty, t, ty, other, b, i, e, s):
    if pty == other:
        return ty != other
    if ty == other:
        return False
    if ty != pty or t in (b, s):
        return True
    if t in (i, e):
        return pt in (e, s)
    return False


def _segments(labels, num_chunk_types, scheme):
    n_tag, b, i, e, s = _CHUNK_SCHEMES[scheme]
    other = num_chunk_types
    out, start, in_chunk, tag, typ = [], 0, False, -1, other
    for k, lab in enumerate(labels):
        pt, pty = tag, typ
        tag, typ = lab % n_tag, lab // n_tag
        if in_chunk and _chunk_end(pt, pty, tag, typ, other, b, i, e, s):
            out.append((start, k - 1, pty))
            in_chunk = False
        if _chunk_begin(pt, pty, tag, typ, other, b, i, e, s):
            start, in_chunk = k, True
    if in_chunk:
        out.append((start, len(labels) - 1, typ))
    return out


def _chunk_infer(input, label, offs, num_chunk_types, scheme, excluded):  # noqa: A002
    f, i64 = _dt.to_dtype("float32"), I64
    return [Spec((1,), f), Spec((1,), f), Spec((1,), f), Spec((1,), i64), Spec((1,), i64), Spec((1,), i64)]


@op("chunk_eval", differentiable=False, infer=_chunk_infer)
def chunk_eval_op(input, label, offs, num_chunk_types, scheme, excluded):  # noqa: A002
    """Chunks (start, end, type) of every sequence of the predicted and the true tags, compared exactly."""
    pred = input.reshape(-1).tolist()
    gold = label.reshape(-1).tolist()
    o = offs.tolist()
    n_inf = n_lab = n_ok = 0
    limit = num_chunk_types * _CHUNK_SCHEMES[scheme][0]
    for a, b in zip(o[:-1], o[1:]):
        if any(v > limit or v < 0 for v in pred[a:b] + gold[a:b]):
            raise InvalidArgumentError(f"{_api('chunk_eval')}: a tag is outside [0, {limit}] (num_chunk_types x "
                                       f"tag types of {scheme}, the last one meaning 'other')")
        ps = {c for c in _segments(pred[a:b], num_chunk_types, scheme) if c[2] not in excluded}
        gs = {c for c in _segments(gold[a:b], num_chunk_types, scheme) if c[2] not in excluded}
        n_inf, n_lab, n_ok = n_inf + len(ps), n_lab + len(gs), n_ok + len(ps & gs)
    p = n_ok / n_inf if n_inf else 0.0
    r = n_ok / n_lab if n_lab else 0.0
    f1 = 2 * p * r / (p + r) if n_ok else 0.0
    dev = input.device
    f32 = [torch.tensor([v], dtype=torch.float32, device=dev) for v in (p, r, f1)]
    return (*f32, *[torch.tensor([v], dtype=torch.int64, device=dev) for v in (n_inf, n_lab, n_ok)])


def chunk_eval(input, label, chunk_scheme, num_chunk_types, excluded_chunk_types=None, seq_length=None):  # noqa: A002
    """-> (precision, recall, f1_score, num_infer_chunks, num_label_chunks, num_correct_chunks). LoD tags
    [N, 1] (static mode), or padded [B, T] with seq_length [B]."""
    if chunk_scheme not in _CHUNK_SCHEMES:
        raise InvalidArgumentError(f"{_api('chunk_eval')}: chunk_scheme must be one of {sorted(_CHUNK_SCHEMES)}, "
                                   f"got {chunk_scheme!r}")
    excluded = tuple(int(c) for c in (excluded_chunk_types or ()))
    if seq_length is not None:
        inp, offs = sequence_unpad_op(input, seq_length)
        lab, _ = sequence_unpad_op(label, seq_length)
        return chunk_eval_op(inp, lab, offs, int(num_chunk_types), chunk_scheme, excluded)
    _static_only("chunk_eval", input)
    return chunk_eval_op(input, label, lod_of(input, _api("chunk_eval")), int(num_chunk_types), chunk_scheme,
                         excluded)


export(chunk_eval, "paddle.fluid.layers.chunk_eval")
