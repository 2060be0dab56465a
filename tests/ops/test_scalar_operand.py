"""engine/ops/common.scalar_operand: a Python float operand as a cached 0-d tensor of the other operand's dtype gives
the bits the Python float gives (torch rounds the float to that dtype either way), for the ops that use it: the
batched Momentum update's mu (tests/ops/test_optimizer_bits.py) and hard_sigmoid's forward (here); and it hands back
everything it does not take unchanged."""

from __future__ import annotations

import pytest
import torch

from paddle_compat.engine.ops import common

# float32 cannot hold most of these: each is rounded to the tensor's dtype as torch rounds a Python float
VALUES = [0.9, 0.1666667, 0.2, 0.5, 1.0 - 0.9, 1e39, 1e-46, -0.0, 0.0, -0.0, float("inf"), float("nan")]
OPS = {"mul": torch.mul, "add": torch.add, "sub": torch.sub, "div": torch.div}


def _bits(t):
    return t.view(torch.int32 if t.dtype == torch.float32 else torch.int64)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("op", sorted(OPS))
def test_scalar_operand_gives_the_python_floats_bits(op, dtype):
    x = torch.randn(257, generator=torch.Generator().manual_seed(0), dtype=dtype) * 3
    x[:4] = torch.tensor([0.0, -0.0, float("inf"), float("nan")], dtype=dtype)
    for v in VALUES:
        s = common.scalar_operand(v, x)
        assert isinstance(s, torch.Tensor) and s.dim() == 0 and s.dtype == dtype, v
        assert torch.equal(_bits(OPS[op](x, s)), _bits(OPS[op](x, v))), (op, v)
        assert common.scalar_operand(v, x) is s or v != v  # made once (a NaN key never hits)


@pytest.mark.parametrize("case", ["int", "tensor", "float16", "int64", "meta"])
def test_scalar_operand_hands_back_what_it_does_not_take(case):
    v, like = {"int": (2, torch.ones(3)), "tensor": (torch.tensor(0.5), torch.ones(3)),
               "float16": (0.9, torch.ones(3, dtype=torch.float16)), "int64": (0.9, torch.ones(3, dtype=torch.int64)),
               "meta": (0.9, torch.ones(3, device="meta"))}[case]
    assert common.scalar_operand(v, like) is v


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("slope,offset", [(0.2, 0.5), (0.1666667, 0.5), (0.3, 0.1)])
def test_hard_sigmoid_forward_keeps_the_bits(slope, offset, dtype):
    x = torch.linspace(-6, 6, 1001, dtype=dtype).requires_grad_(True)
    got = common.paddle_hard_sigmoid(x, slope, offset)
    assert got.grad_fn is not None  # the _HardSigmoid path
    want = torch.clamp(x.detach() * slope + offset, 0.0, 1.0)
    assert torch.equal(_bits(got.detach()), _bits(want))
