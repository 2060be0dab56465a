"""Products of activations by a weight (`dense(x, w)`, x [..., K] @ w [K, N]) by the GEMM that suits this CPU.

Paddle's CPU kernels multiply with MKL's sgemm, as torch's aten::mm does, and on an Intel CPU the two give the same
bits (the goldens recorded on an Intel Xeon replay bit for bit). On another vendor's CPU they do not: MKL chooses its
kernels per CPU, and on an AMD EPYC real Paddle 2.6.2's MKL and torch's add in other orders (every product measured,
from 64 x 64 x 64 up to BERT's, differs in the last places; tests/goldens/README.md, conv1x1_26). There no GEMM keeps
Paddle's bits, and the fastest one is the right choice: oneDNN's matmul (`torch.ops.mkldnn._linear_pointwise`, which
reads the [K, N] weight through its transposed view, without a copy) runs the products of a transformer 30-45% faster
than MKL's sgemm on that EPYC (ViT-S: 200 x 384 x 1536 in 1.2 ms against 2.0 ms; BERT: 128 x 768 x 2304 in 2.6 ms
against 4.6 ms), at a fixed cost of about 15 us a call that makes it slower below about 8M multiply-adds.

So `dense` runs oneDNN where all of this holds, and torch.matmul everywhere else:
- the CPU is not an Intel one (`/proc/cpuinfo` vendor_id other than GenuineIntel, and known), and torch has oneDNN;
  `PADDLE_COMPAT_GEMM=mkl` or `=onednn` decides instead (`ONEDNN` holds the decision);
- float32 CPU tensors, x of 2 or more dims, w a matrix;
- inference (no gradient recorded through the product) from GEMM_MIN multiply-adds: oneDNN's linear called as it is;
- training (a gradient recorded) from TRAIN_GEMM_MIN: through the op `paddle_compat::onednn_dense`, whose backward
  multiplies by oneDNN too: the input's gradient g @ w^T always, the weight's x^T @ g where w has more columns than
  rows (N > K), aten's mm otherwise (measured alone on the EPYC: x^T @ g took 0.70-0.86 of MKL's time with N > K,
  1.01-1.35 with N <= K). torch's oneDNN linear has no backward of its own; the op's backward is written with `dense`
  again, so a double backward differentiates it. The op's dispatch costs about 35 us a call more than aten's, and a
  whole forward + backward, timed interleaved with aten's, came out 0.86-0.91 of it from 118M multiply-adds up but
  0.98-1.09 from 19M to 75M: hence the higher threshold. In bench/bench_models.py's training steps: BERT-base 0.95
  -> 0.86 and ViT-S 0.98 -> 0.92 of torch eager's time (dygraph), the LSTM language model 0.95 -> 0.91;
- under torch.compile the product is the custom op with or without a gradient, from GEMM_MIN: inductor has no
  lowering for oneDNN's linear on a plain weight (it asserts), and the custom op stays an opaque call in the compiled
  graph. There AOTAutograd traces the op's backward into the compiled backward graph, so a product costs oneDNN's
  calls and the op's dispatch (about 12 us a call), not the eager autograd round trip that sets TRAIN_GEMM_MIN. In
  bench/bench_models.py's compiler rows, timed in one process against the same program compiled with TRAIN_GEMM_MIN
  (paired blocks, 15 repeats): BERT-base 0.92 of its time (its 768 x 768 products, 75M multiply-adds, now on oneDNN),
  ViT-S 0.98, the LSTM language model 0.99 (no product in between).
- under torch.compile also below GEMM_MIN, where the product reads and writes at least SKINNY_MIN elements (x, w
  and the result: 2 MiB of float32): a few rows times a large weight (a classifier's head, the one position a
  transformer's last layer computes on the compiler path, engine/passes/read_positions.py) or the outer product of
  two such. Those are memory-bound, and oneDNN's kernels
  stream the weight faster than MKL's: measured alone on the EPYC with the caches flushed, 2 x 768 x 3072 took 0.46
  ms against 0.64 (its input's gradient 0.41 against 0.86, its weight's 0.58 against 1.09), 4 x 650 x 10000 0.38 of
  MKL's time; below about 2^19 elements (2 x 512 x 512, 32 x 256 x 256) MKL's was as fast or faster. Not in eager
  inference: there such a product would take other bits than the same product recording a gradient (aten's below
  TRAIN_GEMM_MIN), and a dygraph model's output would no longer equal its saved inference model's
  (tests/inference/test_inference.py, GoogLeNet's heads).
"""

from __future__ import annotations

import os

import torch

GEMM_MIN = 1 << 23  # multiply-adds: below this, oneDNN's fixed cost per call outweighs its faster kernel
SKINNY_MIN = 1 << 19  # elements a product reads and writes (x, w, result): from here, compiled, oneDNN's
TRAIN_GEMM_MIN = 96 << 20  # the same with a gradient recorded (module docstring: measured forward + backward)


def cpu_vendor() -> str:
    """This machine's CPU vendor id from /proc/cpuinfo (GenuineIntel, AuthenticAMD; "" where it does not say)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return ""


def _decide() -> bool:
    env = os.environ.get("PADDLE_COMPAT_GEMM", "").strip().lower()
    wanted = env == "onednn" if env in ("mkl", "onednn") else cpu_vendor() not in ("", "GenuineIntel")
    return wanted and torch.backends.mkldnn.is_available()


ONEDNN: list[bool] = [_decide()]  # a list: the tests switch it


def _onednn(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.ops.mkldnn._linear_pointwise(x, w.t(), None, "none", [], "")


@torch.library.custom_op("paddle_compat::onednn_dense", mutates_args=())
def onednn_dense(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x [M, K] @ w [K, N] by oneDNN's matmul, with a backward (module docstring). Matrices only: oneDNN returns a
    batch's product as a view of its matrix, which autograd would forbid in-place ops on (a bias added in place)."""
    return _onednn(x, w)


@onednn_dense.register_fake
def _onednn_dense_shape(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x.new_empty((x.shape[0], w.shape[1]))


def _onednn_dense_save(ctx, inputs, output) -> None:
    ctx.save_for_backward(*inputs)


def _onednn_dense_backward(ctx, g: torch.Tensor):
    x, w = ctx.saved_tensors
    g = g.contiguous()  # an expanded gradient (a sum's) has stride 0, which oneDNN would read as it is
    gx = dense(g, w.t()) if ctx.needs_input_grad[0] else None
    gw = None
    if ctx.needs_input_grad[1]:
        gw = dense(x.t(), g) if w.shape[1] > w.shape[0] else torch.matmul(x.t(), g)
    return gx, gw


onednn_dense.register_autograd(_onednn_dense_backward, setup_context=_onednn_dense_save)


def _by_op(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x [..., K] @ w through the custom op, which takes matrices: x's leading dims flattened, then restored by a view
    of the op's fresh result (a view autograd allows in-place ops on)."""
    y = onednn_dense(x.reshape(-1, x.shape[-1]), w)
    return y if x.dim() == 2 else y.view(*x.shape[:-1], y.shape[1])


def dense(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x @ w for x [..., K] and w [K, N] (torch.matmul's result: shape [..., N], contiguous), by oneDNN where the
    module docstring says, else torch.matmul."""
    if ONEDNN[0] and w.dim() == 2 and x.dim() >= 2 and x.dtype == torch.float32 == w.dtype and x.is_cpu and w.is_cpu \
            and x.shape[-1] == w.shape[0]:
        training = torch.is_grad_enabled() and (x.requires_grad or w.requires_grad)
        compiling = torch.compiler.is_compiling()
        eager_training = training and not compiling
        macs = x.numel() * w.shape[1]
        if macs >= (TRAIN_GEMM_MIN if eager_training else GEMM_MIN) or \
                (compiling and x.numel() + w.numel() + macs // max(w.shape[0], 1) >= SKINNY_MIN):
            return _by_op(x, w) if training or compiling else _onednn(x, w)
    return torch.matmul(x, w)


# 1x1 convolutions (engine/ops/nn_functional/conv.py torch_conv): ATen's GEMM form multiplies each sample's [in, H * W]
# by the filters, a thin product where the output has few pixels; oneDNN's convolution, which multiplies the whole
# batch at once, is faster there on a CPU where neither gives Paddle's bits (the `ONEDNN` decision above). Measured on
# an AMD EPYC inside ResNet-50 and MobileNetV2 (bench/bench_models.py shapes): 7x7 and 4x4 outputs of 32M or more
# multiply-adds ran in 0.74-0.89 of the GEMM form's time, while at 14x14 and larger, or below 32M multiply-adds (every
# MobileNetV3-small convolution), the GEMM form was as fast or faster (oneDNN up to 2.4x its time).
CONV1X1_ONEDNN_PIXELS = 64
CONV1X1_ONEDNN_MIN = 1 << 25


def conv1x1_onednn(x: torch.Tensor, weight: torch.Tensor, stride, pad) -> bool:
    """Whether the float32 1x1 convolution of x [N, C, H, W] by weight [out, C, 1, 1] (torch's stride and padding
    pairs) runs faster as oneDNN's convolution than as the GEMM form on this CPU (the rule above)."""
    if not ONEDNN[0] or x.dtype != torch.float32:
        return False
    pixels = ((x.shape[2] + 2 * pad[0] - 1) // stride[0] + 1) * ((x.shape[3] + 2 * pad[1] - 1) // stride[1] + 1)
    return pixels <= CONV1X1_ONEDNN_PIXELS and x.shape[0] * x.shape[1] * weight.shape[0] * pixels >= CONV1X1_ONEDNN_MIN
