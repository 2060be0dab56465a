"""Common functional ops: the dropout family, linear / bilinear, pad, label_smooth, unfold, cosine_similarity."""

from __future__ import annotations

import weakref

import torch

from paddle_compat.engine.core import paddle_rng as _prng
from paddle_compat.engine.core.gemm import dense
from paddle_compat.engine.ops.common import as_int_list, scalar_shape
from paddle_compat.engine.framework.registry import export, op


@op("dropout", random=True, is_test_attr="is_test")
def dropout_op(x, dropout_prob=0.5, is_test=False, mode="downgrade_in_infer", axis=None, seed=None):
    """Paddle's two modes: `upscale_in_train` (x*mask/(1-p) in training, x at inference) and
    `downgrade_in_infer` (x*mask in training, x*(1-p) at inference)."""
    p = float(dropout_prob)
    if mode not in ("upscale_in_train", "downgrade_in_infer"):
        raise ValueError(f"dropout: mode should be 'upscale_in_train' or 'downgrade_in_infer', got {mode!r}")
    if is_test:
        return x if mode == "upscale_in_train" else x * (1.0 - p)
    if p == 0.0:
        return x.clone()
    if axis is None:
        mask_shape = x.shape
    else:
        axes = [axis] if isinstance(axis, int) else list(axis)
        mask_shape = [d if i in axes else 1 for i, d in enumerate(x.shape)]
    if p == 1.0:
        return x * 0.0
    if _prng.ON:  # Paddle's own stream (use_paddle_rng); an op seed only where fluid's dropout gave one
        mask = _prng.t_keep_mask(list(mask_shape), p, int(seed or 0) if axis is None else 0, x.device).to(x.dtype)
    else:
        mask = (torch.rand(mask_shape, device=x.device, dtype=x.dtype) >= p).to(x.dtype)
    if mode != "upscale_in_train":
        return x * mask
    # Paddle's kernel divides by 1 - p; its Python path for `axis` scales by 1 / (1 - p) first
    return x * mask / (1.0 - p) if axis is None else x * (1.0 / (1.0 - p)) * mask


def _check_p(api: str, p):
    """A probability: a number in [0, 1], or (as Paddle accepts) a one-element Tensor / Variable, which the op
    reads when it runs."""
    from paddle_compat.engine.framework.tensor import is_tensor

    if is_tensor(p):
        if list(p.shape) not in ([1], []):
            raise TypeError(f"{api}: Required p.shape == [1] if type(p) is Tensor, but received p.shape = "
                            f"{list(p.shape)}")
        return p
    if not isinstance(p, (float, int)) or isinstance(p, bool):
        raise TypeError(f"{api}: p argument should be a number or Tensor, but got {type(p).__name__}")
    if not 0 <= float(p) <= 1:
        raise ValueError(f"{api}: p argument should between 0 and 1, but got {p}")
    return float(p)


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """paddle.nn.functional.dropout: 2.x spells the inference-scaling mode `downscale_in_infer`."""
    p = _check_p("paddle.nn.functional.dropout", p)
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("paddle.nn.functional.dropout: mode argument should be 'downscale_in_infer' or "
                         f"'upscale_in_train', but got {mode!r}")
    if axis is not None and not isinstance(axis, (int, list, tuple)):
        raise TypeError("paddle.nn.functional.dropout: datatype of axis argument should be int or list")
    if isinstance(p, float) and p == 0:  # Paddle's fast path: the input itself
        return x
    mode = "downgrade_in_infer" if mode == "downscale_in_infer" else mode
    return dropout_op(x, dropout_prob=p, is_test=not training, mode=mode, axis=axis)


def _dropout_nd(n: int):
    formats = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}[n]
    api = f"paddle.nn.functional.dropout{n}d"

    def fn(x, p=0.5, training=True, data_format=formats[0], name=None):
        if len(x.shape) != n + 2:
            raise ValueError(f"{api}: dimensions of x should be {n + 2}, but received {len(x.shape)} != {n + 2}")
        if data_format not in formats:
            raise ValueError(f"{api}: Attr(data_format) should be {formats[0]!r} or {formats[1]!r}. "
                             f"Received Attr(data_format): {data_format}.")
        axis = [0, 1] if data_format == formats[0] else [0, n + 1]
        return dropout(x, p=p, axis=axis, training=training, mode="upscale_in_train", name=name)

    fn.__name__ = fn.__qualname__ = f"dropout{n}d"
    fn.__doc__ = f"{api}: drops whole channels (the mask covers the batch and channel axes)."
    return export(fn, api)


dropout2d = _dropout_nd(2)
dropout3d = _dropout_nd(3)

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@op("alpha_dropout", random=True, is_test_attr="is_test")
def alpha_dropout_op(x, p=0.5, is_test=False):
    """Dropped units take SELU's negative saturation value; a, b keep mean and variance."""
    if is_test or p == 0:
        return x
    if p == 1:  # Paddle: paddle.scale(x, scale=0.0) (a, b below are undefined at p = 1)
        return x * 0.0
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    if _prng.ON:  # Paddle's own stream (use_paddle_rng)
        keep = _prng.t_keep_mask(list(x.shape), p, device=x.device).to(x.dtype)
    else:
        keep = (torch.rand(x.shape, device=x.device, dtype=x.dtype) >= p).to(x.dtype)
    return a * (x * keep + alpha_p * (1 - keep)) + b


def alpha_dropout(x, p=0.5, training=True, name=None):
    """paddle.nn.functional.alpha_dropout"""
    p = _check_p("paddle.nn.functional.alpha_dropout", p)
    if not training:
        return x
    return alpha_dropout_op(x, p=p, is_test=False)


export(alpha_dropout, "paddle.nn.functional.alpha_dropout")


def fluid_dropout(x, dropout_prob, is_test=False, seed=None, name=None,
                  dropout_implementation="downgrade_in_infer"):
    """fluid.layers.dropout (1.8 default: downgrade_in_infer)."""
    return dropout_op(x, dropout_prob=dropout_prob, is_test=is_test, mode=dropout_implementation, seed=seed)


export(dropout, "paddle.nn.functional.dropout")
export(fluid_dropout, "paddle.fluid.layers.dropout")


@op("linear")
def linear_op(x, weight, bias=None, name=None):
    """y = x @ W + b with Paddle's [in, out] weight layout. Under paddle.amp.auto_cast the matmul runs in the low
    dtype and the bias follows it, so the output is low precision as Paddle's."""
    out = dense(x, weight)
    if bias is None:
        return out
    # into the matmul's own fresh result (its backward does not read it): the add's kernel without a new buffer,
    # whose page faults cost about what the add does on a large activation
    bias = bias if bias.dtype == out.dtype else bias.to(out.dtype)
    if bias.dim() == 1 and out.dim() >= 1 and bias.shape[0] == out.shape[-1]:
        return out.add_(bias)
    return out + bias


def same_bits(verdicts: dict, key: tuple, fast, slow, *like: torch.Tensor) -> bool:
    """Whether `fast(*args)` gives `slow(*args)`'s values, element for element, decided once per `key` (what fixes
    the kernels' order of additions: shapes, dtype, threads) on data drawn from a private generator in the shapes,
    dtypes and device of `like`: never the caller's values, which can be degenerate (zero-initialized weights make
    any two orders of additions agree), and never the global random state. A kernel's order of additions does not
    depend on the data, so one random draw tells two orders apart."""
    verdict = verdicts.get(key)
    if verdict is None:
        gen = torch.Generator().manual_seed(20240601)
        args = [torch.randn(t.shape, generator=gen).to(dtype=t.dtype, device=t.device) for t in like]
        try:
            got, want = list(fast(*args)), list(slow(*args))
            verdict = len(got) == len(want) and all(torch.equal(a, b) for a, b in zip(got, want))
        except Exception:  # noqa: BLE001 - a kernel that cannot run here is not the same
            verdict = False
        if len(verdicts) >= 1024:  # bounded: shapes come and go
            verdicts.clear()
        verdicts[key] = verdict
    return verdict


# (rows, in features, out features of each, dtype, threads) -> whether one matmul of the concatenated weights gives
# each projection's bits (an inner product's order of additions is the GEMM kernel's, which does not depend on the
# number of columns in the kernels measured, but this is not promised)
_CONCAT_SAME: dict = {}


def _linears(x: torch.Tensor, *wb: torch.Tensor) -> list:
    n = len(wb) // 2
    return [linear_op.__paddle_op__.impl(x, w, b) for w, b in zip(wb[:n], wb[n:])]


def _concat_linears(x: torch.Tensor, *wb: torch.Tensor) -> tuple:
    n = len(wb) // 2
    return dense(x, torch.cat(wb[:n], 1)).add_(torch.cat(wb[n:])).split([w.shape[1] for w in wb[:n]], -1)


def one_gemm_same(verdicts: dict, key, x: torch.Tensor, weights: list, biases: list) -> bool:
    """Whether one GEMM of the weights concatenated gives each projection's bits for inputs like x (same_bits)."""
    return same_bits(verdicts, key, _concat_linears, _linears, x, *weights, *biases)


def concat_gemm(x: torch.Tensor, weights: list, biases: list, holder: dict) -> tuple | None:
    """(x @ the weights concatenated along their out dim, the biases concatenated): linear_many's one GEMM before its
    bias add, for a caller that adds the bias itself (MultiHeadAttention writes q / k / v in the attention's layouts
    by that add). None where the one GEMM does not give each projection's bits (same_bits, once per shape and thread
    count; the projections then run one by one). The concatenation is kept in `holder` (the calling layer's) while
    the weights are the same tensors at the same versions."""
    sizes = [w.shape[1] for w in weights]
    key = (x.numel() // max(x.shape[-1], 1), x.shape[-1], tuple(sizes), x.dtype, x.device.type,
           torch.get_num_threads())
    if not one_gemm_same(_CONCAT_SAME, key, x, weights, biases):
        return None
    tensors = (*weights, *biases)
    version = tuple(t._version for t in tensors)
    cached = holder.get("concat")  # (weak references to the tensors, their versions, the concatenations)
    if cached is None or cached[1] != version or any(r() is not t for r, t in zip(cached[0], tensors)):
        cached = holder["concat"] = ([weakref.ref(t) for t in tensors], version, torch.cat(weights, 1),
                                     torch.cat(biases))
    return dense(x, cached[2]), cached[3]


def linear_many(x: torch.Tensor, weights: list, biases: list, holder: dict) -> list:
    """[linear_op(x, w, b) for each (w, b)] as one matmul of the weights concatenated along their out dim (concat_gemm),
    then the results split (each made contiguous, as its own linear's would be): an inference call's q / k / v
    projections (paddle.nn.MultiHeadAttention) as one GEMM, one by one where that would give other bits."""
    gemm = concat_gemm(x, weights, biases, holder)
    if gemm is None:
        return [linear_op.__paddle_op__.impl(x, w, b) for w, b in zip(weights, biases)]
    out = gemm[0].add_(gemm[1])
    return [t.contiguous() for t in out.split([w.shape[1] for w in weights], -1)]


def _heads_by_adds(out: torch.Tensor, bias: torch.Tensor, h: int, d: int, scale: float) -> tuple:
    """attention_heads' q / k transposed / v from the GEMM `out` [B, T, 3 * H * D] by three bias adds, each writing
    its layout."""
    b, t = out.shape[0], out.shape[1]
    o = out.view(b, t, 3, h, d)
    bias = bias.view(3, h, 1, d)
    q = torch.add(o[:, :, 0].transpose(1, 2), bias[0], out=out.new_empty(b, h, t, d))
    kt = torch.add(o[:, :, 1].permute(0, 2, 3, 1), bias[1].transpose(-1, -2), out=out.new_empty(b, h, d, t))
    v = torch.add(o[:, :, 2].transpose(1, 2), bias[2], out=out.new_empty(b, h, t, d))
    q.mul_(scale).add_(0.0)  # P("scale")'s x * scale + 0.0 (its bias)
    return q, kt, v


def _heads_by_kernel(out: torch.Tensor, bias: torch.Tensor, h: int, d: int, scale: float) -> tuple:
    """The same values by torch's own kernel for this step of nn.MultiheadAttention (one pass: q + its bias, times
    1 / sqrt(D), and k and v plus theirs, written as [B, H, T, D]), q's + 0.0 added; k transposed as a view, which
    the product's batched matmul reads with its transpose flag, as Paddle's matmul_v2 with transpose_y does (no copy
    into [B, H, D, T]; same_bits checks that the product is the same)."""
    q, k, v = torch._transform_bias_rescale_qkv(out, bias, h)
    return q.add_(0.0), k.transpose(-1, -2), v


def _with_product(heads: tuple) -> tuple:
    return (*heads, torch.matmul(heads[0], heads[1]))


def heads_kernel_same(verdicts: dict, key, out: torch.Tensor, bias: torch.Tensor, args: tuple) -> bool:
    """Whether _heads_by_kernel gives _heads_by_adds' heads and the same product q @ k transposed for a GEMM result like
    `out` and `bias`, `args` (heads, head size, scale) (same_bits)."""
    return same_bits(verdicts, key, lambda o, c: _with_product(_heads_by_kernel(o, c, *args)),
                     lambda o, c: _with_product(_heads_by_adds(o, c, *args)), out, bias)


# (B, T, H, D, scale, dtype, device, threads) -> whether _heads_by_kernel gives _heads_by_adds' values, and the
# attention's product q @ k transposed the same bits from either layout of k
_KERNEL_SAME: dict = {}


def attention_heads(x: torch.Tensor, weights: list, biases: list, holder: dict, num_heads: int, head_dim: int,
                    scale: float) -> tuple | None:
    """Self-attention's q / k / v in inference from one GEMM (concat_gemm) of x [B, T, E]: (q * scale + 0.0, k
    transposed, v) in the layouts the attention's batched matmuls read: q and v [B, H, T, D] contiguous, k either
    written [B, H, D, T] or a transposed view of [B, H, T, D]. The values of the projections, reshapes, transposes
    and P("scale") op by op, bit for bit: the same GEMM and the same adds, each written once instead of split, made
    contiguous, scaled into a new buffer and copied again by torch.matmul. Written in one pass by torch's kernel
    where that gives these values and the same product (its 1 / sqrt(D) is Paddle's scale; same_bits), else by three
    adds. None where the one GEMM would give other bits (the caller then runs the ops)."""
    if x.dim() != 3 or len(weights) != 3 or not x.is_floating_point() or \
            any(w.dim() != 2 or w.shape != (x.shape[2], num_heads * head_dim) for w in weights) or \
            any(b.shape != (num_heads * head_dim,) for b in biases):
        return None
    gemm = concat_gemm(x, weights, biases, holder)
    if gemm is None:
        return None
    out, bias = gemm
    args = (num_heads, head_dim, scale)
    key = (*out.shape[:2], *args, out.dtype, out.device.type, torch.get_num_threads())
    by_kernel = heads_kernel_same(_KERNEL_SAME, key, out, bias, args)
    return (_heads_by_kernel if by_kernel else _heads_by_adds)(out, bias, *args)


_BY_WEIGHTS: dict = {}  # weights' ids -> concat_gemm's holder, for the static plans' nodes


def _holder(weights: list, biases: list) -> dict:
    """The holder of a static plan's node (a plan reads its parameters from the scope at every run: the same tensors
    while they are not replaced)."""
    key = tuple(id(t) for t in (*weights, *biases))
    holder = _BY_WEIGHTS.get(key)
    if holder is None:
        if len(_BY_WEIGHTS) >= 256:  # bounded: plans and scopes come and go
            _BY_WEIGHTS.clear()
        holder = _BY_WEIGHTS[key] = {}
    return holder


def multi_linear(x: torch.Tensor, weights: list, biases: list) -> tuple:
    """The fuse_multi_linear pass's node (engine/passes/fuse_multi_linear.py): linear_many."""
    return tuple(linear_many(x, list(weights), list(biases), _holder(weights, biases)))


def concat_linear(x: torch.Tensor, weights: list, biases: list) -> tuple:
    """The compiler path's projections of one input (engine/passes/fuse_multi_linear.py fuse_projections): x times the
    weights concatenated along their out dim, plus the biases concatenated, split back into each projection's
    result; differentiable, so a training graph's backward runs one GEMM for the input's gradient and one for the
    weights' instead of one per projection."""
    return tuple(_concat_linears(x, *weights, *biases))


def multi_head_inputs(x: torch.Tensor, weights: list, biases: list, num_heads: int, head_dim: int,
                      scale: float) -> tuple:
    """The fuse_multi_linear pass's attention node: attention_heads, or where the one GEMM would give other bits, the
    ops it stands for one by one (each projection, its heads' reshape and transpose, q's scale; k transposed as the
    matmul's transpose_y would)."""
    heads = attention_heads(x, list(weights), list(biases), _holder(weights, biases), num_heads, head_dim, scale)
    if heads is not None:
        return heads
    from paddle_compat.engine.ops.tensor.math import scale as scale_op

    b, t = x.shape[0], x.shape[1]
    q, k, v = (linear_op.__paddle_op__.impl(x, w, bias).reshape(b, t, num_heads, head_dim).transpose(1, 2)
               for w, bias in zip(weights, biases))
    return scale_op.__paddle_op__.impl(q, scale=scale), k.transpose(-1, -2), v


def linear(x, weight, bias=None, name=None):
    """paddle.nn.functional.linear (and nn.Linear): the `linear` op in dygraph; in a Program Paddle's two ops
    (2.4 and 2.6 agree), matmul_v2 -> `linear_N.tmp_0` and elementwise_add of the bias on the last axis ->
    `linear_N.tmp_1`, so scripts that fetch or look up those names find them."""
    from paddle_compat.engine.core.mode import MODE

    if not MODE.static:
        return linear_op(x, weight, bias, name=name)
    from paddle_compat.engine.framework.dispatch import layer_helper
    from paddle_compat.engine.ops.tensor.math import elementwise_add, matmul

    with layer_helper("linear", name):
        out = matmul(x, weight)
        if bias is not None:
            out = elementwise_add(out, bias, axis=len(x.shape) - 1)
    return out


export(linear, "paddle.nn.functional.linear")


@op("bilinear_tensor_product", exports=("paddle.nn.functional.bilinear",))
def bilinear(x1, x2, weight, bias=None, name=None):
    """out[n, o] = x1[n] @ weight[o] @ x2[n] + bias[0, o]; weight [out, in1, in2], bias [1, out]."""
    if weight.dim() != 3 or weight.shape[1] != x1.shape[-1] or weight.shape[2] != x2.shape[-1]:
        raise ValueError(f"paddle.nn.functional.bilinear: weight should be [out_features, {x1.shape[-1]}, "
                         f"{x2.shape[-1]}], but received {list(weight.shape)}")
    out = torch.einsum("ni,oij,nj->no", x1, weight, x2)
    return out + bias.reshape(1, -1) if bias is not None else out


_PAD_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}
_PAD_SIDES = (("width", "pad_left", "pad_right"), ("height", "pad_top", "pad_bottom"),
              ("depth", "pad_front", "pad_back"))


def _pad_type(a: dict) -> str | None:
    """Paddle records `pad` for mode 'constant' with a value per side of every dim, pad3d otherwise."""
    x, pads = a.get("x"), a.get("pad")
    if a.get("mode", "constant") == "constant" and isinstance(pads, (list, tuple)) and len(pads) == 2 * len(x.shape):
        return "pad"
    return None


def _pad_compose(x, pad, mode="constant", value=0.0, data_format="NCHW", name=None):
    """F.pad of a 3-D / 4-D input in a Program as Paddle 2.4 / 2.6 record it: unsqueeze2 to 5-D, pad3d with
    [0, 0, 0, 0] + pad (pad + [0, 0]) in NCDHW / NDHWC, squeeze2 back (squeeze_0.tmp_0)."""
    from paddle_compat.engine.framework.dispatch import record_op
    from paddle_compat.engine.framework.lookup import P

    nd, fmt = len(x.shape), str(data_format).upper()
    if not isinstance(pad, (list, tuple)) or not all(type(p) is int for p in pad) or nd not in (3, 4) or \
            fmt not in _PAD_FORMATS[nd] or len(pad) != 2 * (nd - 2) or _pad_type({"x": x, "pad": pad, "mode": mode}):
        return NotImplemented  # one op (the body raises the errors)
    first = fmt[1] == "C"
    pads, dims = ([0, 0, 0, 0] + list(pad), [3, 4] if first else [2, 3]) if nd == 3 else \
        (list(pad) + [0, 0], [2] if first else [1])
    out = record_op(pad3d, (P("unsqueeze")(x, axis=dims), pads),
                    {"mode": mode, "value": value, "data_format": "NCDHW" if first else "NDHWC", "name": name})
    return P("squeeze")(out, axis=dims)


@op("pad3d", exports=("paddle.nn.functional.pad",), paddle_type=_pad_type, compose=_pad_compose)
def pad(x, pad, mode="constant", value=0.0, data_format="NCHW", name=None):
    """Paddle's pad: with mode 'constant' and 2 * ndim values, pads every dim in order
    ([d0_before, d0_after, d1_before, ...]); otherwise pads the spatial dims of a 3-D / 4-D / 5-D input,
    last spatial dim first ([left, right, top, bottom, front, back]) as torch does."""
    api = "paddle.nn.functional.pad"
    if mode not in ("reflect", "replicate", "constant", "circular"):
        raise ValueError(f"{api}: mode should be one of constant, reflect, replicate, circular, but got {mode}.")
    fmt = str(data_format).upper()
    if fmt not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"{api}: data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, NDHWC], "
                         f"but got {data_format}")
    pads = as_int_list(pad)
    nd = x.dim()
    if mode == "constant" and len(pads) == 2 * nd:
        flat = []
        for i in reversed(range(nd)):
            flat += [pads[2 * i], pads[2 * i + 1]]
        return torch.nn.functional.pad(x, flat, value=float(value))
    if nd not in _PAD_FORMATS:
        raise ValueError(f"{api}: input tesor dimension must be in [3, 4, 5] but got {nd}")
    if fmt not in _PAD_FORMATS[nd]:
        raise ValueError(f"{api}: input tensor dimension is {nd}, it's data format should be in "
                         f"{list(_PAD_FORMATS[nd])} but got {data_format}")
    if len(pads) != 2 * (nd - 2):
        raise ValueError(f"{api}: pad should have {2 * (nd - 2)} values for a {nd}-D input in mode {mode!r} "
                         f"(or {2 * nd} in mode 'constant'), but got {pads}")
    channel_last = fmt[-1] == "C"
    if channel_last:
        x = x.movedim(-1, 1)
    if mode == "constant":
        out = torch.nn.functional.pad(x, pads, value=float(value))
    else:
        if mode == "reflect":  # Paddle's check, in Paddle's words (torch's names its own argument numbers)
            for k, (dim, lo, hi) in enumerate(_PAD_SIDES[: nd - 2]):
                size = x.shape[-1 - k]
                for side, amount in ((lo, pads[2 * k]), (hi, pads[2 * k + 1])):
                    if amount >= size:
                        raise ValueError(f"{api}: the {dim} of Input(X)'s dimension should be greater than "
                                         f"{side} in reflect mode, but received {dim}({size}) and {side}({amount})")
        out = _circular_pad(x, pads) if mode == "circular" else torch.nn.functional.pad(x, pads, mode=mode)
    return out.movedim(1, -1) if channel_last else out


pad3d = pad.__paddle_op__


def _circular_pad(x, pads: list[int]):
    """Paddle's circular pad3d: out[i] = x[(i - before) mod size] per spatial dim, so a pad wider than the input
    wraps around as often as it needs (torch's circular mode refuses to wrap more than once)."""
    for k in range(len(pads) // 2):
        dim = x.dim() - 1 - k
        before, after = pads[2 * k], pads[2 * k + 1]
        size = x.shape[dim]
        idx = torch.remainder(torch.arange(-before, size + after, device=x.device), size)
        x = x.index_select(dim, idx)
    return x


@op("label_smooth", exports=("paddle.nn.functional.label_smooth",))
def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    if not 0.0 <= float(epsilon) <= 1.0:
        raise ValueError("paddle.nn.functional.label_smooth: The value of epsilon must be between 0 and 1, "
                         f"but received {epsilon}")
    if prior_dist is not None:
        return (1 - epsilon) * label + epsilon * prior_dist.reshape(-1)
    return (1 - epsilon) * label + epsilon / label.shape[-1]


def _pairs(v, n: int, what: str, api: str) -> list[int]:
    vals = as_int_list(v)
    if len(vals) == 1:
        return vals * n
    if len(vals) != n:
        raise ValueError(f"{api}: {what} should be an int or a list of {n} ints, but got {v}")
    return vals


@op("unfold", exports=("paddle.nn.functional.unfold",))
def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """im2col: [N, C, H, W] -> [N, C*kh*kw, L]; paddings is 1, 2 or 4 ints ([top, left, bottom, right])."""
    api = "paddle.nn.functional.unfold"
    if x.dim() != 4:
        raise ValueError(f"{api}: input should be 4-D [N, C, H, W], but received shape {list(x.shape)}")
    k = _pairs(kernel_sizes, 2, "kernel_sizes", api)
    s = _pairs(strides, 2, "strides", api)
    d = _pairs(dilations, 2, "dilations", api)
    p = as_int_list(paddings)
    if len(p) == 1:
        p = p * 4
    elif len(p) == 2:
        p = [p[0], p[1], p[0], p[1]]
    elif len(p) != 4:
        raise ValueError(f"{api}: paddings should be an int, a list of 2 ints or a list of 4 ints, but got {paddings}")
    if p[0] != p[2] or p[1] != p[3]:
        x = torch.nn.functional.pad(x, [p[1], p[3], p[0], p[2]])
        p = [0, 0, 0, 0]
    return torch.nn.functional.unfold(x, k, dilation=d, padding=(p[0], p[1]), stride=s)


@op("cosine_similarity", exports=("paddle.nn.functional.cosine_similarity",))
def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    w12 = torch.sum(x1 * x2, dim=axis)
    w1 = torch.sum(x1 * x1, dim=axis)
    w2 = torch.sum(x2 * x2, dim=axis)
    n12 = torch.sqrt(torch.clamp(w1 * w2, min=eps * eps))
    return scalar_shape(w12 / n12)  # two vectors: the sums reduce every axis, [1] at 2.4, 0-D at level 2.6


@op("fold", exports=("paddle.nn.functional.fold",))
def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """col2im, the inverse layout of unfold: [N, C*kh*kw, L] -> [N, C, H, W], overlapping values summed.
    Paddle's fold pads symmetrically: four paddings [top, left, bottom, right] must repeat the first two."""
    api = "paddle.nn.functional.fold"
    if x.dim() != 3:
        raise ValueError(f"{api}: input should be the format of [N, C, L], but received shape {list(x.shape)}")
    out_hw = _pairs(output_sizes, 2, "output_sizes", api)
    k = _pairs(kernel_sizes, 2, "kernel_sizes", api)
    s = _pairs(strides, 2, "strides", api)
    d = _pairs(dilations, 2, "dilations", api)
    p = as_int_list(paddings)
    if len(p) not in (1, 2, 4):
        raise ValueError(f"{api}: paddings should either be an integer or a list of 2 or 4 integers, but got "
                         f"{paddings}")
    if len(p) == 4 and (p[0] != p[2] or p[1] != p[3]):
        raise ValueError(f"{api}: Output_height and padding(padding_up, padding_down) are inconsistent: Paddle's fold "
                         f"pads symmetrically, but got paddings {p}")
    p = p * 2 if len(p) == 1 else p[:2]
    if x.shape[1] % (k[0] * k[1]):
        raise ValueError(f"{api}: the second dim of x ({x.shape[1]}) should be divisible by kernel_sizes[0] * "
                         f"kernel_sizes[1] ({k[0] * k[1]})")
    blocks = [(out_hw[i] + 2 * p[i] - (d[i] * (k[i] - 1) + 1)) // s[i] + 1 for i in range(2)]
    if blocks[0] * blocks[1] != x.shape[2]:
        raise ValueError(f"{api}: the last dim of x ({x.shape[2]}) should equal the number of sliding blocks "
                         f"{blocks[0]} * {blocks[1]} for output_sizes {out_hw}")
    return torch.nn.functional.fold(x, out_hw, k, dilation=d, padding=p, stride=s)


def zeropad2d(x, padding, data_format="NCHW", name=None):
    """pad with zeros; padding is an int or [left, right, top, bottom]."""
    if isinstance(padding, int):
        padding = [padding] * 4
    return pad(x, pad=padding, mode="constant", value=0.0, data_format=data_format, name=name)


export(zeropad2d, "paddle.nn.functional.zeropad2d")
