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
- float32 CPU tensors, x of 2 or more dims, w a matrix, at least GEMM_MIN multiply-adds;
- no gradient is recorded through the product (inference: no_grad, or inputs that need none): oneDNN's linear has no
  backward in torch, and the training step's products keep aten's, whose backward is torch's own.
"""

from __future__ import annotations

import os

import torch

GEMM_MIN = 1 << 23  # multiply-adds: below this, oneDNN's fixed cost per call outweighs its faster kernel


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


def dense(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x @ w for x [..., K] and w [K, N] (torch.matmul's result: shape [..., N], contiguous), by oneDNN where the
    module docstring says, else torch.matmul."""
    if ONEDNN[0] and w.dim() == 2 and x.dim() >= 2 and x.dtype == torch.float32 == w.dtype and x.is_cpu and w.is_cpu \
            and x.shape[-1] == w.shape[0] and x.numel() * w.shape[1] >= GEMM_MIN \
            and not (torch.is_grad_enabled() and (x.requires_grad or w.requires_grad)):
        return _onednn(x, w)
    return torch.matmul(x, w)


# 1x1 convolutions (engine/ops/nn_functional/conv.py torch_conv): ATen's GEMM form multiplies each sample's [in, H * W]
# by the filters, a thin product where the output has few pixels; oneDNN's convolution, which multiplies the whole
# batch at once, is faster there on a CPU where neither gives Paddle's bits (the `ONEDNN` decision above). Measured on
# an AMD EPYC inside ResNet-50 and MobileNetV2 (bench/bench_models.py shapes): 7x7 and 4x4 outputs of 32M or more
# multiply-adds ran in 0.74-0.89 of the GEMM form's time, while at 14x14 and larger, or below 32M multiply-adds (every
# MobileNetV3-small convolution), the GEMM form was as fast or faster (oneDNN up to 2.4x its time).
CONV1X1_ONEDNN_PIXELS = 64
CONV1X1_ONEDNN_MIN = 1 << 25


def conv1x1_onednn(batch: int, cin: int, cout: int, pixels: int) -> bool:
    """Whether a float32 1x1 convolution of `pixels` output pixels per sample runs faster as oneDNN's convolution than
    as the GEMM form on this CPU (the rule above)."""
    return ONEDNN[0] and pixels <= CONV1X1_ONEDNN_PIXELS and batch * cin * cout * pixels >= CONV1X1_ONEDNN_MIN

