"""fluid 1.x ops without a 2.x counterpart: hash (Paddle's XXH64 values), center_loss (with the in-forward
center update), similarity_focus, filter_by_instag (LoD), sample_logits (sampled softmax), inplace_abn. Semantics follow Paddle 1.8's kernels."""

from __future__ import annotations

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export, op

I64 = _dt.to_dtype("int64")
F32 = _dt.to_dtype("float32")

# --- hash: XXH64 (xxHash 64-bit) over each row's bytes, vectorized over rows --------------------------------

_P1, _P2, _P3, _P4, _P5 = (np.uint64(v) for v in (
    11400714785074694791, 14029467366897019727, 1609587929392839161, 9650029242287828579, 2870177450012600261))


def _rotl(x, r):
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


def _round(acc, lane):
    return _rotl(acc + lane * _P2, 31) * _P1


def xxh64_rows(data: np.ndarray, seed: int) -> np.ndarray:
    """XXH64 of every row of `data` (uint8 [rows, nbytes]) with `seed`; uint64 [rows]."""
    rows, n = data.shape
    data = np.ascontiguousarray(data)
    s = np.uint64(seed)
    with np.errstate(over="ignore"):
        pos = 0
        if n >= 32:
            v = [np.full(rows, s + _P1 + _P2, np.uint64), np.full(rows, s + _P2, np.uint64),
                 np.full(rows, s, np.uint64), np.full(rows, s - _P1, np.uint64)]
            while pos + 32 <= n:
                lanes = data[:, pos:pos + 32].copy().view("<u8")
                v = [_round(v[i], lanes[:, i]) for i in range(4)]
                pos += 32
            h = _rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)
            for vi in v:
                h = (h ^ _round(np.zeros(rows, np.uint64), vi)) * _P1 + _P4
        else:
            h = np.full(rows, s + _P5, np.uint64)
        h = h + np.uint64(n)
        while pos + 8 <= n:
            h = _rotl(h ^ _round(np.zeros(rows, np.uint64), data[:, pos:pos + 8].copy().view("<u8")[:, 0]), 27) \
                * _P1 + _P4
            pos += 8
        if pos + 4 <= n:
            k = data[:, pos:pos + 4].copy().view("<u4")[:, 0].astype(np.uint64)
            h = _rotl(h ^ (k * _P1), 23) * _P2 + _P3
            pos += 4
        while pos < n:
            h = _rotl(h ^ (data[:, pos].astype(np.uint64) * _P5), 11) * _P1
            pos += 1
        h ^= h >> np.uint64(33)
        h *= _P2
        h ^= h >> np.uint64(29)
        h *= _P3
        h ^= h >> np.uint64(32)
    return h


def _hash_infer(x, num_hash=1, mod_by=100000):
    return Spec((x.shape[0], int(num_hash), 1), x.dtype)


@op("hash", infer=_hash_infer, differentiable=False)
def hash_op(x, num_hash=1, mod_by=100000):
    """Out[i, j, 0] = XXH64(bytes of row i, seed=j) % mod_by, in x's dtype (Paddle's hash kernel)."""
    if x.dim() != 2:
        raise InvalidArgumentError(
            f"fluid.layers.hash: input must be 2-D [N, D] (int32 / int64), but its shape is {list(x.shape)}")
    if x.dtype not in (torch.int32, torch.int64):
        raise InvalidArgumentError(f"fluid.layers.hash: input dtype must be int32 or int64, but got {x.dtype}")
    rows = x.detach().cpu().contiguous().numpy()
    raw = rows.astype(rows.dtype.newbyteorder("<"), copy=False).view(np.uint8).reshape(rows.shape[0], -1)
    mod = np.uint64(int(mod_by))
    out = np.stack([xxh64_rows(raw, j) % mod for j in range(int(num_hash))], axis=1)
    return torch.from_numpy(out.astype(rows.dtype)).reshape(rows.shape[0], int(num_hash), 1).to(x.device)


# --- center_loss -----------------------------------------------------------------------------------------------


@op("center_loss")
def center_loss_op(x, label, centers, alpha, cluster_num, need_update=True):
    """Loss[i] = 0.5 * |x[i] - C[label[i]]|^2 ([N, 1]) with the centers before the update; when need_update,
    C[k] += alpha * sum_{label[i]=k}(x[i] - C[k]) / (1 + count_k) in place (Paddle's CentersOut = Centers)."""
    lab = label.reshape(-1).long()
    diff = x - centers.index_select(0, lab)
    loss = 0.5 * (diff * diff).sum(dim=1, keepdim=True)
    if need_update:
        with torch.no_grad():
            rate = alpha.reshape(-1)[0] if isinstance(alpha, torch.Tensor) else float(alpha)
            acc = torch.zeros_like(centers).index_add_(0, lab, diff.detach())
            count = torch.zeros(centers.shape[0], dtype=centers.dtype, device=centers.device).index_add_(
                0, lab, torch.ones(lab.shape[0], dtype=centers.dtype, device=centers.device))
            centers.add_(acc * rate / (count + 1.0).unsqueeze(1))
    return loss, diff


# --- similarity_focus ------------------------------------------------------------------------------------------


def _focus_mask(m: np.ndarray) -> np.ndarray:
    """Greedy: visit entries by descending value, take one whose row and column are both still free."""
    a, b = m.shape
    mask = np.zeros((a, b), bool)
    rows, cols = np.zeros(a, bool), np.zeros(b, bool)
    taken = 0
    for flat in np.argsort(-m, axis=None, kind="stable"):
        r, c = divmod(int(flat), b)
        if rows[r] or cols[c]:
            continue
        rows[r] = cols[c] = mask[r, c] = True
        taken += 1
        if taken == min(a, b):
            break
    return mask


@op("similarity_focus", differentiable=False)
def similarity_focus_op(x, axis, indexes):
    """x [N, C, A, B] (4-D); for each index along `axis`, mark the greedy one-per-row-and-column maxima of that
    2-D slice; the output is 1 along `axis` at every marked position (union over indexes), else 0."""
    if x.dim() != 4:
        raise InvalidArgumentError(
            f"fluid.layers.similarity_focus: input must be 4-D, but its shape is {list(x.shape)}")
    xm = x.movedim(axis, 1)
    n, c = xm.shape[0], xm.shape[1]
    for i in indexes:
        if not 0 <= int(i) < c:
            raise InvalidArgumentError(
                f"fluid.layers.similarity_focus: each of indexes must be in [0, {c}) (input.shape[{axis}]), "
                f"but got {i}")
    if x.device.type == "meta":
        return torch.zeros_like(x)
    v = xm.detach().cpu().numpy()
    mask = np.zeros((n,) + v.shape[2:], bool)
    for b in range(n):
        for i in indexes:
            mask[b] |= _focus_mask(v[b, int(i)])
    out = torch.from_numpy(mask).to(device=x.device, dtype=x.dtype).unsqueeze(1).expand(xm.shape)
    return out.movedim(1, axis).contiguous()


def similarity_focus(input, axis, indexes, name=None):
    if axis not in (1, 2, 3):
        raise ValueError("axis must be 1, 2 or 3.")
    if not isinstance(indexes, list):
        raise TypeError(f"fluid.layers.similarity_focus: indexes must be a list, got {type(indexes).__name__}")
    if len(indexes) == 0:
        raise ValueError("indexes can not be empty.")
    with layer_helper("similarity_focus", name):
        return similarity_focus_op(input, axis, [int(i) for i in indexes])


# --- filter_by_instag (LoD) ---------------------------------------------------------------------------------


def _fbi_infer(ins, ins_offs, tag, tag_offs, filter_tag, is_lod, out_val_if_empty=0):
    return [Spec((-1,) + tuple(ins.shape[1:]), ins.dtype), Spec((-1,), I64), Spec((-1, 1), F32),
            Spec((-1, 3), I64), Spec((-1,), I64)]


@op("filter_by_instag", infer=_fbi_infer)
def filter_by_instag_op(ins, ins_offs, tag, tag_offs, filter_tag, is_lod, out_val_if_empty=0):
    """Keep the instances having a tag in filter_tag. Returns (out, out offsets, loss weight [K, 1] float32 of
    ones, index map [K, 3] = (out start, ins start, rows), the loss weight's offsets 0..K (one row per sequence, as
    Paddle's kernel gives LossWeight)); with nothing kept: one row of out_val_if_empty, weight 0 and map
    [[0, 1, 1]] (Paddle's kernel)."""
    dev = ins.device
    t_offs = tag_offs.detach().cpu().tolist()
    tags = tag.detach().reshape(-1).cpu().tolist()
    wanted = set(filter_tag.detach().reshape(-1).cpu().tolist())
    n_ins = len(t_offs) - 1
    if is_lod:
        i_offs = ins_offs.detach().cpu().tolist()
    else:
        i_offs = list(range(ins.shape[0] + 1))
    if len(i_offs) - 1 != n_ins:
        raise InvalidArgumentError(
            f"fluid.layers.filter_by_instag: ins has {len(i_offs) - 1} instances but ins_tag's LoD has {n_ins}")
    keep = [i for i in range(n_ins) if any(t in wanted for t in tags[t_offs[i]:t_offs[i + 1]])]
    if not keep:
        out = torch.full((1,) + tuple(ins.shape[1:]), float(out_val_if_empty), dtype=ins.dtype, device=dev)
        return (out, torch.tensor([0, 1], dtype=torch.int64, device=dev),
                torch.zeros(1, 1, dtype=torch.float32, device=dev),
                torch.tensor([[0, 1, 1]], dtype=torch.int64, device=dev),
                torch.tensor([0, 1], dtype=torch.int64, device=dev))
    rows, offs, mmap = [], [0], []
    for i in keep:
        s, e = i_offs[i], i_offs[i + 1]
        mmap.append([offs[-1], s, e - s])
        rows.extend(range(s, e))
        offs.append(offs[-1] + e - s)
    out = ins.index_select(0, torch.tensor(rows, dtype=torch.int64, device=dev))
    return (out, torch.tensor(offs, dtype=torch.int64, device=dev),
            torch.ones(len(keep), 1, dtype=torch.float32, device=dev),
            torch.tensor(mmap, dtype=torch.int64, device=dev), torch.arange(len(keep) + 1, device=dev))


def filter_by_instag(ins, ins_tag, filter_tag, is_lod, out_val_if_empty=0):
    """fluid.layers.filter_by_instag -> [out (LoD: one sequence per kept instance), loss_weight [K, 1]]."""
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.ops.sequence import _attach, lod_of

    api = "fluid.layers.filter_by_instag"
    if not MODE.static or not isinstance(ins, Variable):
        raise InvalidArgumentError(f"{api}: needs the LoD of ins_tag, which only static programs carry: build the "
                                   "program in static mode and feed LoDTensors (fluid.create_lod_tensor)")
    with layer_helper("filter_by_instag"):
        out, offs, w, _, w_offs = filter_by_instag_op(ins, lod_of(ins, api) if is_lod else None, ins_tag,
                                                      lod_of(ins_tag, api), filter_tag, bool(is_lod),
                                                      out_val_if_empty)
    return [_attach(out, offs), _attach(w, w_offs)]


# --- sampled softmax ------------------------------------------------------------------------------------------


def _sl_infer(logits, labels, customized_samples, customized_probabilities, num_samples, use_customized_samples,
              remove_accidental_hits=True, seed=0):
    k = labels.shape[1] + int(num_samples) if len(labels.shape) == 2 else -1
    return [Spec((logits.shape[0], k), I64), Spec((logits.shape[0], k), logits.dtype),
            Spec((logits.shape[0], k), logits.dtype), Spec((logits.shape[0], labels.shape[1]), I64)]


def _log_uniform_samples(num_classes: int, num_samples: int, seed: int):
    """Paddle's LogUniformSampler with unique draws: `num_samples` distinct classes and the number of tries."""
    gen = np.random.RandomState(seed if seed else None)
    log_range = np.log(num_classes + 1.0)
    got: list = []
    seen: set = set()
    tries = 0
    while len(got) < num_samples:
        draws = (np.exp(gen.uniform(0.0, 1.0, size=2 * num_samples) * log_range) - 1.0).astype(np.int64) \
            % num_classes
        for v in draws.tolist():
            if len(got) == num_samples:
                break
            tries += 1
            if v not in seen:
                seen.add(v)
                got.append(v)
    return got, tries


@op("sample_logits", infer=_sl_infer, random=True)
def sample_logits_op(logits, labels, customized_samples, customized_probabilities, num_samples,
                     use_customized_samples, remove_accidental_hits=True, seed=0):
    """Returns (samples [N, T+S], probabilities, sampled logits = logits[samples] - log(prob) with accidental hits
    of a true label among the sampled ones at -1e20, sampled labels [N, T] = 0..T-1). Without customized samples,
    S distinct classes are drawn log-uniformly (shared by the batch) and probabilities are Paddle's
    1 - (1 - p)^tries (p * S when no draw repeated)."""
    n, c = logits.shape
    t = labels.shape[1]
    dev = logits.device
    if use_customized_samples:
        samples = customized_samples.to(device=dev, dtype=torch.int64)
        probs = customized_probabilities.to(device=dev, dtype=logits.dtype)
    else:
        lab = labels.to(torch.int64)
        if dev.type == "meta":
            samples = torch.zeros(n, t + int(num_samples), dtype=torch.int64, device=dev)
        else:
            drawn, tries = _log_uniform_samples(c, int(num_samples), int(seed))
            samples = torch.cat([lab, torch.tensor(drawn, dtype=torch.int64, device=dev).expand(n, -1)], dim=1)
        sv = samples.to(torch.float64)
        p = torch.log((sv + 2.0) / (sv + 1.0)) / np.log(c + 1.0)
        if dev.type != "meta":
            p = p * int(num_samples) if tries == int(num_samples) else -torch.expm1(tries * torch.log1p(-p))
        probs = p.to(logits.dtype)
    sampled = logits.gather(1, samples) - torch.log(probs)
    if remove_accidental_hits:
        hit = (samples[:, t:].unsqueeze(2) == samples[:, :t].unsqueeze(1)).any(dim=2)
        hit = torch.cat([torch.zeros(n, t, dtype=torch.bool, device=dev), hit], dim=1)
        sampled = torch.where(hit, sampled - 1e20, sampled)
    sampled_labels = torch.arange(t, dtype=torch.int64, device=dev).expand(n, t)
    return samples, probs, sampled, sampled_labels


def sampled_softmax_with_cross_entropy(logits, label, num_samples, num_true=1, remove_accidental_hits=True,
                                       use_customized_samples=False, customized_samples=None,
                                       customized_probabilities=None, seed=0):
    """Loss [N, 1] of softmax over the true classes plus num_samples sampled classes (soft label spread over
    the num_true true columns), divided by num_true."""
    api = "fluid.layers.sampled_softmax_with_cross_entropy"
    if use_customized_samples and (customized_samples is None or customized_probabilities is None):
        raise ValueError(f"{api}: use_customized_samples=True needs customized_samples and "
                         "customized_probabilities")
    if len(logits.shape) != 2 or len(label.shape) != 2:
        raise InvalidArgumentError(f"{api}: logits must be [N, K] and label [N, num_true], but got "
                                   f"{list(logits.shape)} and {list(label.shape)}")
    with layer_helper("sample_logits"):
        _, _, sampled, sampled_label = sample_logits_op(
            logits, label, customized_samples if use_customized_samples else None,
            customized_probabilities if use_customized_samples else None, int(num_samples),
            bool(use_customized_samples), bool(remove_accidental_hits), int(seed))
        depth = int(num_samples) + int(label.shape[1])
        soft = P("paddle.sum")(P("paddle.nn.functional.one_hot")(sampled_label, depth), axis=1)
        loss = P("paddle.nn.functional.softmax_with_cross_entropy")(sampled, P("paddle.cast")(soft, logits.dtype),
                                                                   soft_label=True)
        return P("paddle.scale")(loss, scale=1.0 / num_true)


# --- inplace_abn ------------------------------------------------------------------------------------------------


for _fn in (similarity_focus, filter_by_instag, sampled_softmax_with_cross_entropy):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")


def hash(input, hash_size, num_hash=1, name=None):
    """fluid.layers.hash: [N, D] int32/int64 -> [N, num_hash, 1], XXH64 of each row (seed j) % hash_size.
    (Paddle 1.8.5's layer wrongly rejects every hash_size in its type check; the op itself is what we follow.)"""
    if not isinstance(hash_size, (int, np.integer)) or isinstance(hash_size, bool):
        raise TypeError(f"fluid.layers.hash: hash_size must be an int, got {type(hash_size).__name__}")
    if not isinstance(num_hash, (int, np.integer)) or isinstance(num_hash, bool):
        raise TypeError(f"fluid.layers.hash: num_hash must be an int, got {type(num_hash).__name__}")
    with layer_helper("hash", name):
        return hash_op(input, int(num_hash), int(hash_size))


export(hash, "paddle.fluid.layers.hash")
