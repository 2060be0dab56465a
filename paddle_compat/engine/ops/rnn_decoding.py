"""fluid 1.x recurrent layers: `fluid.layers.lstm` (the cudnn_lstm op: torch's multi-layer LSTM math over
Paddle's flat weight) and `fluid.layers.dynamic_lstmp` (the LoD lstmp op: LSTM with a recurrent projection).

cudnn_lstm weight layout (what Paddle hands cuDNN, and what paddle.nn.LSTM flattens into): one 1-D parameter,
first every weight matrix in (layer, direction) order, each layer/direction as W_ih [4H, in] then W_hh [4H, H]
(gates i, f, g, o, row-major), then every bias in the same order, b_ih [4H] then b_hh [4H]. Input, out are
time-major [T, B, *]; init_h / init_c / last_h / last_c are [layers * dirs, B, H].
Paddle 1.8.5 has no CPU kernel for cudnn_lstm; we run it on CPU and CUDA (DESIGN: make documented APIs work).

lstmp (Paddle's kernel, quirks kept): gates (candidate, input, forget, output) as in the lstm op, peepholes in
bias[4H:7H]; the recurrent input is the previous projection r [B, P] (h_0 is an initial *projection*, [B, P]);
c is clipped to [-cell_clip, cell_clip] when cell_clip > 0; r = act(h @ ProjWeight) where act is
`cell_activation` whenever `proj_activation` is not identity (Paddle's kernel reads the wrong attribute),
then clipped to [-proj_clip, proj_clip] when proj_clip > 0."""

from __future__ import annotations


import torch

from paddle_compat.engine.core import dtype as _dtm
from paddle_compat.engine.core import eager_kernels
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.ops.sequence import _act, _attach, _static_only, lod_of, lstm_acts, lstm_recurrence
from paddle_compat.engine.framework.lod import LOD_ATTR

# Only the fluid 1.x surface calls these (paddle_compat/_export.py keeps 1.8's shapes for them at API level 2.6).
FLUID_ONLY = True

# ------------------------------------------------------------------------------------------------
# cudnn_lstm


def cudnn_lstm_weight_sizes(input_size: int, hidden_size: int, num_layers: int, is_bidirec: bool):
    """Shapes of the pieces of the flat weight, in storage order (all matrices, then all biases)."""
    dirs = 2 if is_bidirec else 1
    mats, biases = [], []
    for layer in range(num_layers):
        in_size = input_size if layer == 0 else hidden_size * dirs
        for _ in range(dirs):
            mats += [(4 * hidden_size, in_size), (4 * hidden_size, hidden_size)]
            biases += [(4 * hidden_size,), (4 * hidden_size,)]
    return mats, biases


def _cudnn_lstm_infer(input, init_h, init_c, w, max_len, hidden_size, num_layers, is_bidirec=False,
                      dropout_prob=0.0, seed=-1, is_test=False):
    dirs = 2 if is_bidirec else 1
    s = Spec((input.shape[0], input.shape[1], hidden_size * dirs), input.dtype)
    hs = Spec((num_layers * dirs, input.shape[1], hidden_size), input.dtype)
    return [s, hs, hs]


@op("cudnn_lstm", infer=_cudnn_lstm_infer, random=True, is_test_attr="is_test")
def cudnn_lstm_op(input, init_h, init_c, w, max_len, hidden_size, num_layers, is_bidirec=False,
                  dropout_prob=0.0, seed=-1, is_test=False):
    api = "fluid.layers.lstm"
    if input.dim() != 3:
        raise InvalidArgumentError(f"{api}: input must be [seq_len, batch, input_size], got {list(input.shape)}")
    dirs = 2 if is_bidirec else 1
    want = [num_layers * dirs, input.shape[1], hidden_size]
    for nm, t in (("init_h", init_h), ("init_c", init_c)):
        if list(t.shape) != want:
            raise InvalidArgumentError(f"{api}: {nm} must have shape {want} ([num_layers * directions, batch, "
                                       f"hidden_size]), got {list(t.shape)}")
    mats, biases = cudnn_lstm_weight_sizes(input.shape[2], hidden_size, num_layers, is_bidirec)
    total = sum(a * b for a, b in mats) + sum(b[0] for b in biases)
    if w.numel() != total:
        raise InvalidArgumentError(f"{api}: weight W has {w.numel()} elements, expected {total}")
    pieces, off = [], 0
    for shp in mats + biases:
        n = 1
        for s in shp:
            n *= s
        pieces.append(w[off:off + n].reshape(shp))
        off += n
    nm = len(mats)
    flat = []  # torch order per (layer, dir): w_ih, w_hh, b_ih, b_hh
    for k in range(0, nm, 2):
        flat += [pieces[k], pieces[k + 1], pieces[nm + k], pieces[nm + k + 1]]
    lstm = eager_kernels.kernel("lstm")  # under torch.compile: the fused kernel, not per-step ops
    train = not is_test  # also without dropout: cuDNN's RNN backward needs the training-mode forward
    if train and dropout_prob > 0 and seed is not None and seed >= 0:
        with torch.random.fork_rng(devices=[input.device.index or 0] if input.is_cuda else []):
            torch.manual_seed(seed)
            out, h, c = lstm(input, (init_h, init_c), flat, True, num_layers, float(dropout_prob), True,
                                   bool(is_bidirec), False)
    else:
        out, h, c = lstm(input, (init_h, init_c), flat, True, num_layers, float(dropout_prob), train,
                               bool(is_bidirec), False)
    return out, h, c


# ------------------------------------------------------------------------------------------------
# lstmp


def _lstmp_infer(x, offs, weight, proj_weight, bias, h0, c0, use_peepholes, is_reverse, gate_activation,
                 cell_activation, candidate_activation, proj_activation, cell_clip, proj_clip):
    return [Spec((-1, proj_weight.shape[1]), x.dtype), Spec((-1, proj_weight.shape[0]), x.dtype)]


@op("lstmp", infer=_lstmp_infer)
def lstmp_op(x, offs, weight, proj_weight, bias, h0, c0, use_peepholes, is_reverse, gate_activation,
             cell_activation, candidate_activation, proj_activation, cell_clip, proj_clip):
    api = "fluid.layers.dynamic_lstmp"
    acts = lstm_acts(gate_activation, cell_activation, candidate_activation, api)
    # Paddle 1.8.5's kernel applies the cell activation to the projection unless proj_activation is identity
    pa = acts[1] if _act(proj_activation, api) is not _act("identity", api) else None

    def project(h):
        rn = h @ proj_weight
        rn = pa(rn) if pa is not None else rn
        return rn.clamp(-proj_clip, proj_clip) if proj_clip and proj_clip > 0 else rn

    return lstm_recurrence(x, offs, weight, bias, h0, c0, use_peepholes, is_reverse, acts, api, project=project,
                           cell_clip=cell_clip)


# ------------------------------------------------------------------------------------------------
# beam_search / beam_search_decode (Paddle's LoD bookkeeping).
# NOTE: these read two LoD levels. The static LoD machinery carries only the last level (sequence.py), so the
# full LoD also rides on the runtime tensors as `_paddle_lod` (a list of offset lists): the Executor sets it on
# fed LoDTensors (engine/static/executor.py to_feed_tensor) and beam_search / beam_search_decode set it on their
# outputs; tensor arrays hold the same objects, so array_read / array_write keep it.
# tests/fluid/test_decode18.py::test_beam_search_two_level_lod shows a two-level feed.

_I32, _I64 = _dtm.to_dtype("int32"), _dtm.to_dtype("int64")


def _rt_lod(t):
    return getattr(t, LOD_ATTR, None) if isinstance(t, torch.Tensor) else None


def _set_lod(t, lod):
    setattr(t, LOD_ATTR, [list(map(int, lv)) for lv in lod])
    return t


def _abs_offsets(lod):
    """Paddle's ToAbsOffset: every level as row offsets of the innermost level."""
    out = [list(lv) for lv in lod]
    for i in range(len(out) - 2, -1, -1):
        out[i] = [out[i + 1][k] for k in out[i]]
    return out


def _beam_search_infer(pre_ids, pre_scores, ids, scores, offs, beam_size, end_id, level=0, is_accumulated=True):
    return [Spec((-1, 1), pre_ids.dtype), Spec((-1, 1), pre_scores.dtype), Spec((-1,), _I32), Spec((-1,), _I64)]


@op("beam_search", differentiable=False, infer=_beam_search_infer)
def beam_search_op(pre_ids, pre_scores, ids, scores, offs, beam_size, end_id, level=0, is_accumulated=True):
    """One step: per source, the top beam_size (prefix, candidate) items; outputs grouped by prefix row."""
    import math

    api = "fluid.layers.beam_search"
    lod = _rt_lod(scores) or _rt_lod(pre_scores) or _rt_lod(pre_ids)
    if lod is None:
        if offs is None:
            raise InvalidArgumentError(f"{api}: scores carry no LoD; feed pre_ids / pre_scores as LoDTensors (or "
                                       "pass the outputs of the previous beam_search)")
        lod = [offs.tolist()]
    if level >= len(lod):
        raise InvalidArgumentError(f"{api}: level {level} is out of range for a LoD with {len(lod)} level(s)")
    high = _abs_offsets(lod)[level]
    n = scores.shape[0]
    if high[-1] != n or pre_ids.numel() < n:
        raise InvalidArgumentError(f"{api}: the LoD {lod} does not match scores' {n} rows (pre_ids has "
                                   f"{pre_ids.numel()} rows)")
    pid = pre_ids.reshape(-1).tolist()
    psc = pre_scores.reshape(-1).tolist()
    sc = scores.reshape(n, -1).tolist()
    idv = ids.reshape(n, -1).tolist() if ids is not None else None
    width = len(sc[0]) if n else 0

    def less(a, b):  # Paddle's Item::operator<: by score, then by row offset
        return a[2] < b[2] or (a[2] == b[2] and a[0] < b[0])

    def insert(top, item):  # Paddle's Insert (ties with the last entry replace it)
        if len(top) < beam_size:
            top.append(None)
        elif less(item, top[beam_size - 1]):
            return
        for k in range(len(top) - 2, -1, -1):
            if less(top[k], item):
                top[k + 1] = top[k]
            else:
                top[k + 1] = item
                return
        top[0] = item

    by_row = [[] for _ in range(high[-1])]
    for s in range(len(high) - 1):
        top = []
        for r in range(high[s], high[s + 1]):
            if pid[r] == end_id:
                insert(top, (r, end_id, psc[r]))
                continue
            for d in range(width):
                cid = int(idv[r][d]) if idv is not None else d
                if is_accumulated:
                    score = sc[r][d]
                else:
                    score = psc[r] + (math.log(sc[r][d]) if sc[r][d] > 0 else float("-inf"))
                insert(top, (r, cid, float(torch.tensor(score, dtype=torch.float32))))
        for it in top:
            by_row[it[0]].append(it)
    for s in range(len(high) - 1):  # prune sources whose every branch had already ended
        rows = range(high[s], high[s + 1])
        if all(it[1] == end_id and pid[r] == end_id for r in rows for it in by_row[r]):
            for r in rows:
                by_row[r] = []
    low, sel_ids, sel_sc, parents = [0], [], [], []
    for r, items in enumerate(by_row):
        for it in items:
            sel_ids.append(it[1])
            sel_sc.append(it[2])
            parents.append(r)
        low.append(len(sel_ids))
    dev = scores.device
    out_ids = torch.tensor(sel_ids, dtype=pre_ids.dtype, device=dev).reshape(-1, 1)
    out_sc = torch.tensor(sel_sc, dtype=pre_scores.dtype, device=dev).reshape(-1, 1)
    out_lod = [high, low]
    return (_set_lod(out_ids, out_lod), _set_lod(out_sc, out_lod),
            torch.tensor(parents, dtype=torch.int32, device=dev), torch.tensor(low, dtype=torch.int64, device=dev))


def beam_search(pre_ids, pre_scores, ids, scores, beam_size, end_id, level=0, is_accumulated=True, name=None,
                return_parent_idx=False):
    """Returns (selected_ids, selected_scores[, parent_idx]); outputs carry the 2-level LoD
    [source -> prefixes, prefix -> selected items]."""
    api = "fluid.layers.beam_search"
    _static_only("beam_search", scores)
    for nm, v in (("pre_ids", pre_ids), ("pre_scores", pre_scores), ("scores", scores)):
        if v is None:
            raise ValueError(f"{api}: {nm} must be a Variable, got None")
    if not isinstance(beam_size, int) or beam_size <= 0:
        raise ValueError(f"{api}: beam_size must be a positive int, got {beam_size!r}")
    try:
        offs = lod_of(scores, api)
    except InvalidArgumentError:
        offs = None
    with layer_helper("beam_search", name):
        sid, ssc, parent, low = beam_search_op(pre_ids, pre_scores, ids, scores, offs, beam_size, int(end_id),
                                               level=int(level), is_accumulated=bool(is_accumulated))
    _attach(sid, low)
    _attach(ssc, low)
    parent.node.meta["no_lod"] = True  # Paddle 1.8's parent_idx carries no LoD (tests/fluid/cases_layers18.py)
    return (sid, ssc, parent) if return_parent_idx else (sid, ssc)


def _bsd_infer(ids, scores, beam_size, end_id):
    return [Spec((-1,), _I64), Spec((-1,), scores._elem_spec.dtype if hasattr(scores, "_elem_spec") else
                                    _dtm.to_dtype("float32")), Spec((-1,), _I64)]


@op("beam_search_decode", differentiable=False, infer=_bsd_infer)
def beam_search_decode_op(ids, scores, beam_size, end_id):
    """Backtrack every source's hypotheses through the step arrays (Paddle's BeamSearchDecoder::Backtrace)."""
    api = "fluid.layers.beam_search_decode"
    ids, scores = list(ids), list(scores)
    if not ids:
        raise InvalidArgumentError(f"{api}: Input(Ids) should not be empty")
    if len(ids) != len(scores):
        raise InvalidArgumentError(f"{api}: ids has {len(ids)} steps but scores has {len(scores)}")
    lods = []
    for k, t in enumerate(ids):
        lod = _rt_lod(t) or _rt_lod(scores[k])
        if lod is None or len(lod) < 2:
            raise InvalidArgumentError(
                f"{api}: step {k} of ids carries no 2-level LoD; write beam_search outputs (and the initial ids, fed "
                "as a LoDTensor with 2 LoD levels) into the arrays")
        lods.append(lod)
    src_num = len(lods[0][0]) - 1
    sent = [[([], []) for _ in range(beam_size)] for _ in range(src_num)]
    prefix = [[] for _ in range(src_num)]
    for step in range(len(ids) - 1, -1, -1):
        cid = ids[step].reshape(-1).tolist()
        csc = scores[step].reshape(-1).tolist()
        lsrc, lsent = lods[step][0], lods[step][1]
        for s in range(src_num):
            sv, pv = sent[s], prefix[s]
            start, end = lsrc[s], lsrc[s + 1]
            if not pv:
                for p in range(start, end):
                    for c in range(lsent[p], lsent[p + 1]):
                        pv.append(p)
                        if len(pv) > beam_size:
                            raise InvalidArgumentError(f"{api}: more than beam_size={beam_size} candidates for "
                                                       f"source {s} at step {step}")
                        sv[len(pv) - 1][0].append(cid[c])
                        sv[len(pv) - 1][1].append(csc[c])
            else:
                cstart = lsent[start]
                p = start
                num = lsent[p + 1] - lsent[p]
                for i, c in enumerate(pv):
                    if cid[c] != end_id or not sv[i][0]:
                        sv[i][0].append(cid[c])
                        sv[i][1].append(csc[c])
                    while cstart + num <= c:
                        p += 1
                        num += lsent[p + 1] - lsent[p]
                    pv[i] = p
    src_lod, sent_lod, out_ids, out_sc = [0], [0], [], []
    for s in range(src_num):
        order = sorted(sent[s], key=lambda w: -w[1][0] if w[1] else float("inf"))  # by final score
        for w_ids, w_sc in order:
            out_ids += w_ids[::-1]
            out_sc += w_sc[::-1]
            sent_lod.append(sent_lod[-1] + len(w_ids))
        src_lod.append(src_lod[-1] + len(order))
    dev = ids[0].device
    lod = [src_lod, sent_lod]
    oi = _set_lod(torch.tensor(out_ids, dtype=torch.int64, device=dev), lod)
    os_ = _set_lod(torch.tensor(out_sc, dtype=scores[0].dtype, device=dev), lod)
    return oi, os_, torch.tensor(sent_lod, dtype=torch.int64, device=dev)


def beam_search_decode(ids, scores, beam_size, end_id, name=None):
    """ids / scores: LoDTensorArrays of the per-step beam_search outputs; returns (sentence_ids, sentence_scores),
    1-D, with the 2-level LoD [source -> hypotheses, hypothesis -> words]."""
    _static_only("beam_search_decode", ids)
    with layer_helper("beam_search_decode", name):
        si, ss, offs = beam_search_decode_op(ids, scores, int(beam_size), int(end_id))
    return _attach(si, offs), _attach(ss, offs)


export(beam_search, "paddle.fluid.layers.beam_search")
export(beam_search_decode, "paddle.fluid.layers.beam_search_decode")


# ------------------------------------------------------------------------------------------------
# lod_rank_table / reorder_lod_tensor_by_rank. A rank table is an int64 [n, 2] tensor of (index, length) rows,
# sorted by length, longest first (stable), as Paddle's LoDRankTable items.


def _x_lod(x, offs):
    lod = _rt_lod(x)
    if lod is None and offs is not None:
        lod = [offs.tolist()]
    return lod


@op("lod_rank_table", differentiable=False, infer=lambda x, offs, level=0: Spec((-1, 2), _I64))
def lod_rank_table_op(x, offs, level=0):
    api = "fluid.layers.lod_rank_table"
    lod = _x_lod(x, offs)
    if not lod or level >= len(lod):
        raise InvalidArgumentError(f"{api}: level {level} is out of range for the LoD of x "
                                   f"({0 if not lod else len(lod)} level(s))")
    v = lod[level]
    items = sorted(((i, v[i + 1] - v[i]) for i in range(len(v) - 1)), key=lambda it: -it[1])
    out = torch.tensor(items, dtype=torch.int64, device=x.device).reshape(-1, 2)
    return _set_lod(out, lod[:level]) if level else out


def lod_rank_table(x, level=0):
    """The sequences of x's LoD level `level`, ranked by length (longest first)."""
    api = "fluid.layers.lod_rank_table"
    _static_only("lod_rank_table", x)
    offs = lod_of(x, api)
    with layer_helper("lod_rank_table"):
        return lod_rank_table_op(x, offs, level=int(level))


def _reorder_infer(x, rank_table, offs):
    return [Spec(tuple(x.shape), x.dtype), Spec((-1,), _I64)]


@op("reorder_lod_tensor_by_rank", infer=_reorder_infer)
def reorder_lod_tensor_by_rank_op(x, rank_table, offs):
    """Rows (x without LoD) or level-0 sequences of x, in the rank table's order; the LoD follows."""
    api = "fluid.layers.reorder_lod_tensor_by_rank"
    order = rank_table[:, 0].tolist()
    lod = _x_lod(x, offs)
    if not lod:
        if any(i >= x.shape[0] for i in order):
            raise InvalidArgumentError(f"{api}: the rank table indexes {max(order) + 1} items but x has "
                                       f"{x.shape[0]} rows")
        idx = torch.tensor(order, dtype=torch.int64, device=x.device)
        return x.index_select(0, idx), torch.zeros(0, dtype=torch.int64, device=x.device)
    if len(order) != len(lod[0]) - 1:
        raise InvalidArgumentError(f"{api}: the rank table has {len(order)} items but x has {len(lod[0]) - 1} "
                                   "sequences at LoD level 0")
    new = [[0] for _ in lod]
    rows = []
    for i in order:
        lo, hi = i, i + 1
        for k, lv in enumerate(lod):
            for j in range(lo, hi):
                new[k].append(new[k][-1] + lv[j + 1] - lv[j])
            lo, hi = lv[lo], lv[hi]
        rows.append(torch.arange(lo, hi, device=x.device))
    idx = torch.cat(rows) if rows else torch.zeros(0, dtype=torch.int64, device=x.device)
    out = _set_lod(x.index_select(0, idx), new)
    return out, torch.tensor(new[-1], dtype=torch.int64, device=x.device)


def reorder_lod_tensor_by_rank(x, rank_table):
    api = "fluid.layers.reorder_lod_tensor_by_rank"
    _static_only("reorder_lod_tensor_by_rank", x)
    try:
        offs = lod_of(x, api)
    except InvalidArgumentError:
        offs = None
    with layer_helper("reorder_lod_tensor_by_rank"):
        out, new_offs = reorder_lod_tensor_by_rank_op(x, rank_table, offs)
    return _attach(out, new_offs) if offs is not None else out


export(lod_rank_table, "paddle.fluid.layers.lod_rank_table", "paddle.fluid.layers.control_flow.lod_rank_table")
export(reorder_lod_tensor_by_rank, "paddle.fluid.layers.reorder_lod_tensor_by_rank")
