"""Cases of paddle.nn.utils / paddle.nn.initializer shared by tools/oracle/rec_nn26_utils.py (real Paddle 2.6.2)
and tests/api2x/test_nn_utils.py (paddle_compat). Pure data + numpy: no paddle import here.

Each hook case: (id, layer constructor over `nn`, the utils call over `U` and `layer`, input shape)."""
import numpy as np

WEIGHT_NORM = [
    ("wn_linear_dim0", "nn.Linear(3, 4)", "U.weight_norm(layer)", [2, 3]),
    ("wn_linear_dim1", "nn.Linear(3, 4)", "U.weight_norm(layer, dim=1)", [2, 3]),
    ("wn_linear_dimnone", "nn.Linear(3, 4)", "U.weight_norm(layer, dim=None)", [2, 3]),
    ("wn_conv_dim0", "nn.Conv2D(2, 3, 2)", "U.weight_norm(layer)", [1, 2, 3, 3]),
    ("wn_conv_dim2", "nn.Conv2D(2, 3, 2)", "U.weight_norm(layer, dim=2)", [1, 2, 3, 3]),
    ("wn_conv_dimneg", "nn.Conv2D(2, 3, 2)", "U.weight_norm(layer, dim=-1)", [1, 2, 3, 3]),
    ("wn_layernorm_dim0", "nn.LayerNorm(4)", "U.weight_norm(layer)", [2, 4]),  # a 1-D weight: g = |v| per element
]
SPECTRAL_NORM = [
    ("sn_linear", "nn.Linear(3, 4)", "U.spectral_norm(layer, n_power_iterations=2)", [2, 3]),
    ("sn_conv", "nn.Conv2D(2, 3, 2)", "U.spectral_norm(layer)", [1, 2, 3, 3]),
    ("sn_convt", "nn.Conv2DTranspose(2, 3, 2)", "U.spectral_norm(layer, eps=1e-4)", [1, 2, 2, 2]),
    ("sn_conv_dim1", "nn.Conv2D(2, 3, 2)", "U.spectral_norm(layer, dim=1, n_power_iterations=3)", [1, 2, 3, 3]),
]
CLIP_NORM_TYPES = [2.0, 1.0, float("inf"), 0]
BILINEAR_SHAPES = [[2, 2, 4, 4], [1, 1, 3, 3], [1, 2, 5, 5]]
DIRAC = [([4, 2, 3], 1), ([4, 4, 3, 3], 2), ([2, 2, 3, 3, 3], 1), ([6, 2, 2, 2], 3)]
GAINS = [("sigmoid", None), ("tanh", None), ("relu", None), ("leaky_relu", None), ("leaky_relu", 0.2),
         ("selu", None), ("conv2d_transpose", None), ("linear", None)]


def values(case_id, shape, scale=0.5):
    rng = np.random.RandomState(sum(map(ord, case_id)) % (2 ** 31))
    return (rng.standard_normal(shape) * scale).astype("float32")


def loss_weights(shape):
    n = int(np.prod(shape)) if len(shape) else 1
    return np.cos(np.arange(n, dtype="float64")).astype("float32").reshape(shape)
