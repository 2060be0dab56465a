"""Two fluid 1.8 ops with training-time quirks: data_norm and nce.

data_norm: y = (x - BatchSum / BatchSize) * sqrt(BatchSize / BatchSquareSum) per column of a 2-D input (then
* scale_w + bias with enable_scale_and_shift). With slot_dim > 0 the columns form slots of slot_dim; a slot of a
row whose first value is 0 (|v| < 1e-7) stays 0. The three statistics are trainable parameters whose
"gradients" are batch statistics, as Paddle's grad kernel writes them: N, sum(x) and sum((x - mean)^2) +
N * epsilon; with slot_dim the means over the k rows where the slot shows (1, mean(x), mean((x - mean)^2) +
k * epsilon; zeros when it never shows). The optimizer then applies them like any gradient.

nce: noise-contrastive estimation with Paddle's samplers reproduced exactly (the C++ engines and libstdc++'s
distributions): uniform and log-uniform draw from std::mt19937_64, custom_dist from std::mt19937 with Walker's
alias tables; a sampler is seeded afresh on every run (seed 0: a random seed, from the Executor's generator
here). Per row: the true labels, then num_neg_samples sampled labels; logits o = sigmoid(x . W[label] + b[label]);
cost = sum(-log(o / (o + k P(label)))) over true labels + sum(-log(k P / (o + k P))) over samples (times the
sample weight), where k = num_neg_samples; its gradient is the exact derivative, which is what Paddle's grad
kernel computes."""

from __future__ import annotations

import math

import numpy as np
import torch

from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import op

# ------------------------------------------------------------------------------------------------ data_norm

_MIN_PRECISION = 1e-7


class _DataNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, size, total, square, scale_w, bias, epsilon, slot_dim):
        means = total / size
        scales = torch.sqrt(size / square)
        norm = (x - means) * scales
        mask = None
        if slot_dim > 0:
            first = x[:, ::slot_dim].abs() >= _MIN_PRECISION
            mask = first.repeat_interleave(slot_dim, dim=1)[:, : x.shape[1]].to(x.dtype)
            norm = norm * mask
        y = norm
        if scale_w is not None:
            y = norm * scale_w + bias
            if mask is not None:
                y = y * mask
        ctx.save_for_backward(x, means, scales, norm, scale_w, mask)
        ctx.epsilon, ctx.slot_dim = epsilon, slot_dim
        return y

    @staticmethod
    def backward(ctx, dy):
        x, means, scales, norm, scale_w, mask = ctx.saved_tensors
        n = x.shape[0]
        dyn = dy * mask if mask is not None else dy
        dx = dyn * scales * (scale_w if scale_w is not None else 1.0)
        dev = (x - means) ** 2
        if mask is None:
            d_size = torch.full_like(means, float(n))
            d_sum = x.sum(0)
            d_sq = dev.sum(0) + n * ctx.epsilon
        else:
            count = mask.sum(0)
            shown = count > 0
            safe = count.clamp(min=1.0)
            d_size = shown.to(x.dtype)
            d_sum = torch.where(shown, (x * mask).sum(0) / safe, torch.zeros_like(count))
            d_sq = torch.where(shown, (dev * mask).sum(0) / safe + count * ctx.epsilon, torch.zeros_like(count))
        d_w = d_b = None
        if scale_w is not None:
            d_w = (dyn * norm).sum(0)
            d_b = dyn.sum(0)
        return dx, d_size, d_sum, d_sq, d_w, d_b, None, None


@op("data_norm", infer=lambda x, batch_size, batch_sum, batch_square_sum, scale_w, bias, epsilon, slot_dim:
    Spec(tuple(x.shape), x.dtype))
def data_norm_op(x, batch_size, batch_sum, batch_square_sum, scale_w, bias, epsilon, slot_dim):
    return _DataNorm.apply(x, batch_size, batch_sum, batch_square_sum, scale_w, bias, float(epsilon), int(slot_dim))


# ------------------------------------------------------------------------------------------------ samplers


class MersenneTwister:
    """std::mt19937 (w=32) / std::mt19937_64 (w=64), seeded as the C++ constructors do."""

    _P = {32: (624, 397, 0x9908B0DF, 11, 0xFFFFFFFF, 7, 0x9D2C5680, 15, 0xEFC60000, 18, 1812433253, 31),
          64: (312, 156, 0xB5026F5AA96619E9, 29, 0x5555555555555555, 17, 0x71D67FFFEDA60000, 37,
               0xFFF7EEE000000000, 43, 6364136223846793005, 31)}

    def __init__(self, seed: int, w: int = 32) -> None:
        self.w = w
        (self.n, self.m, self.a, self.u, self.d, self.s, self.b, self.t, self.c, self.l, f, r) = self._P[w]
        self.mask = (1 << w) - 1
        self.lower = (1 << r) - 1
        self.upper = self.mask & ~self.lower
        self.mt = [seed & self.mask]
        for i in range(1, self.n):
            prev = self.mt[-1]
            self.mt.append((f * (prev ^ (prev >> (w - 2))) + i) & self.mask)
        self.i = self.n

    def _twist(self) -> None:
        mt, n, m = self.mt, self.n, self.m
        for k in range(n):
            y = (mt[k] & self.upper) | (mt[(k + 1) % n] & self.lower)
            mt[k] = mt[(k + m) % n] ^ (y >> 1) ^ (self.a if y & 1 else 0)
        self.i = 0

    def __call__(self) -> int:
        if self.i >= self.n:
            self._twist()
        y = self.mt[self.i]
        self.i += 1
        y ^= (y >> self.u) & self.d
        y ^= (y << self.s) & self.b
        y ^= (y << self.t) & self.c
        y ^= y >> self.l
        return y & self.mask


def uniform_int(engine: MersenneTwister, hi: int) -> int:
    """libstdc++'s std::uniform_int_distribution<int>(0, hi) on a 32 / 64-bit engine (rejection, then divide)."""
    urng_range = engine.mask
    span = hi + 1
    scaling = urng_range // span
    past = span * scaling
    while True:
        r = engine()
        if r < past:
            return r // scaling


def uniform_real(engine: MersenneTwister) -> float:
    """libstdc++'s std::uniform_real_distribution<double>(0, 1) (generate_canonical<double, 53>)."""
    r = float(engine.mask + 1)
    calls = max(1, (53 + engine.w - 1) // engine.w)
    total, scale = 0.0, 1.0
    for _ in range(calls):
        total += float(engine()) * scale
        scale *= r
    out = total / scale
    return math.nextafter(1.0, 0.0) if out >= 1.0 else out


class _Sampler:
    def __init__(self, kind: int, num_classes: int, seed: int, custom=None) -> None:
        self.kind, self.range = kind, num_classes - 1
        self.engine = MersenneTwister(seed, 32 if kind == 2 else 64)
        self.custom = custom
        self.log_range = math.log(self.range + 1)

    def sample(self) -> int:
        if self.kind == 0:
            return uniform_int(self.engine, self.range)
        if self.kind == 1:
            return (int(math.exp(uniform_real(self.engine) * self.log_range)) - 1) % self.range
        probs, alias, alias_probs = self.custom
        idx = uniform_int(self.engine, self.range)
        p = uniform_real(self.engine)
        if p > alias_probs[idx]:
            return idx if alias[idx] == -1 else int(alias[idx])
        return idx

    def probability(self, value: int) -> float:
        if self.kind == 0:
            return float(np.float32(1.0 / (self.range + 1)))
        if self.kind == 1:
            return float(np.float32(math.log((value + 2.0) / (value + 1.0)) / self.log_range))
        return float(self.custom[0][value])


def alias_tables(custom_dist, n: int) -> tuple[list, list]:
    """Walker's alias tables (alias index, alias probability) of a distribution over n classes, built in the
    order Paddle's nce layer builds them (so sampling picks the same classes)."""
    alias_probs, alias = [0.0] * n, [0] * n
    bigs, littles = [], []
    for i in range(n):
        p = custom_dist[i] * n
        if p - 1.0 > 0:
            bigs.append((i, p))
        elif 1.0 - p > 0:
            littles.append((i, p))
        else:
            alias_probs[i], alias[i] = p, -1
    while bigs and littles:
        big, little = bigs.pop(0), littles.pop(0)
        alias_probs[little[0]], alias[little[0]] = little[1], big[0]
        left = big[1] + little[1] - 1
        if left - 1.0 > 0:
            bigs.append((big[0], left))
        elif 1.0 - left > 0:
            littles.append((big[0], left))
        else:
            alias_probs[big[0]], alias[big[0]] = left, -1
    for rest in (bigs, littles):
        if rest:
            alias_probs[rest[0][0]], alias[rest[0][0]] = 1.0, -1
    return alias, alias_probs


def _nce_infer(input, label, weight, bias, sample_weight, custom_probs, custom_alias, custom_alias_probs,
               num_total_classes, num_neg_samples, sampler, seed):
    return Spec((input.shape[0], 1), input.dtype)


@op("nce", infer=_nce_infer, random=True)
def nce_op(input, label, weight, bias, sample_weight, custom_probs, custom_alias, custom_alias_probs,
           num_total_classes, num_neg_samples, sampler, seed):
    """-> Cost [N, 1] (the sum over true and sampled labels; the layer divides by num_neg_samples + 1)."""
    if seed == 0:
        seed = int(torch.randint(1, 2 ** 31 - 1, (), generator=RUNTIME.generator))
    custom = None
    if sampler == 2:
        custom = (custom_probs.detach().cpu().numpy().reshape(-1), custom_alias.cpu().numpy().reshape(-1),
                  custom_alias_probs.detach().cpu().numpy().reshape(-1))
    smp = _Sampler(int(sampler), int(num_total_classes), int(seed) & 0xFFFFFFFF, custom)
    lab = label.reshape(label.shape[0], -1).cpu().numpy().astype(np.int64)
    n, n_true = lab.shape
    rows = [list(r) + [smp.sample() for _ in range(num_neg_samples)] for r in lab.tolist()]
    labels = torch.tensor(rows, dtype=torch.int64, device=input.device)
    if int(labels.min()) < 0 or int(labels.max()) >= num_total_classes:
        raise ValueError(f"fluid.layers.nce: every label must be in [0, {num_total_classes}), got "
                         f"{sorted(set(lab.reshape(-1).tolist()))}")
    logits = torch.einsum("nd,nkd->nk", input, weight[labels])
    if bias is not None:
        logits = logits + bias.reshape(-1)[labels]
    o = torch.sigmoid(logits)
    k = float(num_neg_samples)
    b = torch.tensor([[smp.probability(int(v)) * k for v in r] for r in rows], dtype=input.dtype,
                     device=input.device)
    is_true = torch.arange(labels.shape[1], device=input.device) < n_true
    cost = torch.where(is_true, -torch.log(o / (o + b)), -torch.log(b / (o + b)))
    if sample_weight is not None:
        cost = cost * sample_weight.reshape(-1, 1)
    return cost.sum(1, keepdim=True)
