"""The weights both sides give a vision model before comparing outputs (numpy only, no paddle import).

tools/oracle/rec_models26.py sets them in real Paddle 2.6.2; tests/vision/test_models.py sets the same ones
here. Each tensor's values depend only on its state_dict key and shape (a RandomState seeded from the key's
crc32), so no weights file is committed. Scales keep activations finite through 150 layers: convolution and
linear weights have variance 1/fan_in, batch-norm statistics and affine terms stay near 1 and 0."""

import zlib

import numpy as np


def weight_for(key, shape):
    rs = np.random.RandomState(zlib.crc32(key.encode()))
    shape = tuple(int(s) for s in shape)
    if key.endswith("_variance"):
        v = rs.uniform(0.5, 1.5, shape)
    elif key.endswith("_mean"):
        v = rs.uniform(-0.1, 0.1, shape)
    elif len(shape) >= 2:
        fan_in = int(np.prod(shape[1:])) if len(shape) > 2 else shape[0]
        v = rs.uniform(-1.0, 1.0, shape) * np.sqrt(3.0 / fan_in)
    elif key.endswith("weight"):
        v = rs.uniform(0.5, 1.0, shape)
    else:
        v = rs.uniform(-0.1, 0.1, shape)
    return v.astype("float32")


def model_input(shape):
    return np.random.RandomState(0).uniform(-1.0, 1.0, shape).astype("float32")


def summarize(out):
    """A small fingerprint of an output: 24 values spread over it, its sum and its absolute sum (float64)."""
    flat = np.asarray(out, dtype="float64").reshape(-1)
    idx = np.linspace(0, flat.size - 1, min(24, flat.size)).astype("int64")
    return np.concatenate([flat[idx], [flat.sum(), np.abs(flat).sum()]])
