"""Parameter-free layers, built from one table, and the small parameterized ones (Linear, Embedding,
Bilinear, PReLU, Pad*, HSigmoidLoss) and Identity / Softmax2D.

Each table row says: the layer's name, the public function it calls, its constructor parameters with
Paddle's defaults (in Paddle's order), the names of its forward inputs, whether it passes
`training=self.training`, and fixed / renamed keywords. The generated class has Paddle's exact
constructor signature (inspect.signature shows it) and forwards the stored values by keyword.
"""

from __future__ import annotations

import inspect
from typing import Any

import torch

from paddle_compat.engine.framework.dispatch import body_shortcut
from paddle_compat.engine.framework.lookup import F, api
from paddle_compat.engine.ops.common import paddle_hard_sigmoid_
from paddle_compat.engine.ops.nn_functional.common import linear_op
from paddle_compat.paddle2.nn.layer import FRESH_OUTPUTS, INPLACE_ACTIVATIONS, Layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static import initializer as I

REQUIRED = inspect.Parameter.empty
_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


class FunctionalLayer(Layer):
    """Base of the table-made layers: `forward(*inputs)` calls the row's public function."""

    _fn = ""
    _params: tuple = ()
    _inputs: tuple = ("x",)
    _training = False
    _fixed: dict = {}
    _rename: dict = {}

    _defaults: dict | None = None  # every parameter with its default (REQUIRED when none), in order

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        cfg = dict(self._defaults)
        names = list(cfg)
        ok = len(args) <= len(names) and all(k in cfg for k in kwargs) and not any(
            k in kwargs for k in names[:len(args)])
        if ok:  # a plain bind: inspect's costs a few times this per layer (PaddleTest builds one per call)
            cfg.update(zip(names, args))
            cfg.update(kwargs)
            ok = all(v is not REQUIRED for v in cfg.values())
        if not ok:  # inspect's bind, for its message
            try:
                bound = type(self).__signature__.bind(*args, **kwargs)
            except TypeError as e:
                raise TypeError(f"paddle.nn.{type(self).__name__}(): {e}") from None
            bound.apply_defaults()
            cfg = dict(bound.arguments)
        self._name = cfg.pop("name", None)
        self._cfg = cfg

    def _cfg_key(self, name: str) -> str | None:
        """The constructor argument a Paddle attribute names: Paddle keeps them as `p` / `axis` / `mode`
        (Dropout) or `_axis` / `_negative_slope` (most others); both spellings read and write it."""
        cfg = self.__dict__.get("_cfg")
        if cfg is None:
            return None
        key = name[1:] if name.startswith("_") and name[1:] in cfg else name
        return key if key in cfg else None

    def __getattr__(self, name: str) -> Any:
        key = self._cfg_key(name)
        if key is not None:
            return self.__dict__["_cfg"][key]
        return super().__getattr__(name)

    def __setattr__(self, name: str, value: Any) -> None:
        # model code sets e.g. `dropout.p = 0.0` after construction; forward reads the new value, as Paddle's does
        key = self._cfg_key(name)
        if key is not None:
            self.__dict__["_cfg"][key] = value
            return
        super().__setattr__(name, value)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        fn = api(self._fn, f"paddle.nn.{type(self).__name__}") if "." in self._fn else \
            F(self._fn, f"paddle.nn.{type(self).__name__}")
        kw = {self._rename.get(k, k): v for k, v in self._cfg.items()}
        kw.update(self._fixed)
        if self._training:
            kw["training"] = self.training
        kw.update(kwargs)
        return fn(*inputs, **kw)

    def extra_repr(self) -> str:
        keys = self._cfg if self._repr_keys is None else self._repr_keys
        return ", ".join(f"{k}={self._cfg[k]}" for k in keys)

    _repr_keys: tuple | None = None


def _make(name: str, fn: str, params: tuple = (), inputs: tuple = ("x",), training: bool = False,
          fixed: dict | None = None, rename: dict | None = None, with_name: bool = True) -> type:
    sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for p in params:
        pname, default = p if isinstance(p, tuple) else (p, REQUIRED)
        sig_params.append(inspect.Parameter(pname, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
    if with_name:
        sig_params.append(inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None))
    full = inspect.Signature(sig_params)
    cls = type(name, (FunctionalLayer,), {
        "_fn": fn, "_params": tuple(params), "_inputs": inputs, "_training": training, "_fixed": fixed or {},
        "_rename": rename or {}, "__module__": __name__,
        "__doc__": f"paddle.nn.{name}{str(full).replace('(self, ', '(')}: calls {fn}.",
    })
    cls.__signature__ = inspect.Signature(sig_params[1:])
    cls._defaults = {p.name: p.default for p in sig_params[1:]}
    cls.__init__.__signature__ = full  # type: ignore[attr-defined]
    return cls


_NCHW, _NCDHW = ("data_format", "NCHW"), ("data_format", "NCDHW")
_RED = ("reduction", "mean")
# name: (function, params, inputs, training, fixed, rename, with_name)
TABLE: dict[str, tuple] = {
    # activations
    "ReLU": ("relu", ()), "ReLU6": ("relu6", ()), "ELU": ("elu", (("alpha", 1.0),)),
    "SELU": ("selu", (("scale", _SELU_SCALE), ("alpha", _SELU_ALPHA))),
    "GELU": ("gelu", (("approximate", False),)), "LeakyReLU": ("leaky_relu", (("negative_slope", 0.01),)),
    "Sigmoid": ("sigmoid", ()), "Hardsigmoid": ("hardsigmoid", ()), "Hardswish": ("hardswish", ()),
    "Hardtanh": ("hardtanh", (("min", -1.0), ("max", 1.0))), "Hardshrink": ("hardshrink", (("threshold", 0.5),)),
    "Softshrink": ("softshrink", (("threshold", 0.5),)), "Tanh": ("paddle.tanh", ()),
    "Tanhshrink": ("tanhshrink", ()), "Softplus": ("softplus", (("beta", 1), ("threshold", 20))),
    "Softsign": ("softsign", ()), "Swish": ("swish", ()), "LogSigmoid": ("log_sigmoid", ()),
    "Softmax": ("softmax", (("axis", -1),)), "LogSoftmax": ("log_softmax", (("axis", -1),)),
    "ThresholdedReLU": ("thresholded_relu", (("threshold", 1.0),)),
    "Maxout": ("maxout", ("groups", ("axis", 1))),
    # losses
    "MSELoss": ("mse_loss", (_RED,), ("input", "label"), False, None, None, False),
    "L1Loss": ("l1_loss", (_RED,), ("input", "label")),
    "BCELoss": ("binary_cross_entropy", (("weight", None), _RED), ("input", "label")),
    "BCEWithLogitsLoss": ("binary_cross_entropy_with_logits", (("weight", None), _RED, ("pos_weight", None)),
                          ("logit", "label")),
    "CrossEntropyLoss": ("cross_entropy", (("weight", None), ("ignore_index", -100), _RED, ("soft_label", False),
                                           ("axis", -1), ("use_softmax", True)), ("input", "label")),
    "NLLLoss": ("nll_loss", (("weight", None), ("ignore_index", -100), _RED), ("input", "label")),
    "KLDivLoss": ("kl_div", (_RED,), ("input", "label"), False, None, None, False),
    "SmoothL1Loss": ("smooth_l1_loss", (_RED, ("delta", 1.0)), ("input", "label")),
    "MarginRankingLoss": ("margin_ranking_loss", (("margin", 0.0), _RED), ("input", "other", "label")),
    "CTCLoss": ("ctc_loss", (("blank", 0), _RED), ("log_probs", "labels", "input_lengths", "label_lengths"),
                False, None, None, False),
    # pooling
    "MaxPool1D": ("max_pool1d", ("kernel_size", ("stride", None), ("padding", 0), ("return_mask", False),
                                 ("ceil_mode", False))),
    "MaxPool2D": ("max_pool2d", ("kernel_size", ("stride", None), ("padding", 0), ("ceil_mode", False),
                                 ("return_mask", False), _NCHW)),
    "MaxPool3D": ("max_pool3d", ("kernel_size", ("stride", None), ("padding", 0), ("ceil_mode", False),
                                 ("return_mask", False), _NCDHW)),
    "AvgPool1D": ("avg_pool1d", ("kernel_size", ("stride", None), ("padding", 0), ("exclusive", True),
                                 ("ceil_mode", False))),
    "AvgPool2D": ("avg_pool2d", ("kernel_size", ("stride", None), ("padding", 0), ("ceil_mode", False),
                                 ("exclusive", True), ("divisor_override", None), _NCHW)),
    "AvgPool3D": ("avg_pool3d", ("kernel_size", ("stride", None), ("padding", 0), ("ceil_mode", False),
                                 ("exclusive", True), ("divisor_override", None), _NCDHW)),
    "AdaptiveAvgPool1D": ("adaptive_avg_pool1d", ("output_size",)),
    "AdaptiveAvgPool2D": ("adaptive_avg_pool2d", ("output_size", _NCHW)),
    "AdaptiveAvgPool3D": ("adaptive_avg_pool3d", ("output_size", _NCDHW)),
    "AdaptiveMaxPool1D": ("adaptive_max_pool1d", ("output_size", ("return_mask", False))),
    "AdaptiveMaxPool2D": ("adaptive_max_pool2d", ("output_size", ("return_mask", False))),
    "AdaptiveMaxPool3D": ("adaptive_max_pool3d", ("output_size", ("return_mask", False))),
    # shape, dropout, resampling, distance
    "Flatten": ("paddle.flatten", (("start_axis", 1), ("stop_axis", -1)), ("x",), False, None, None, False),
    "Dropout": ("dropout", (("p", 0.5), ("axis", None), ("mode", "upscale_in_train")), ("x",), True),
    "Dropout2D": ("dropout2d", (("p", 0.5), _NCHW), ("x",), True),
    "Dropout3D": ("dropout3d", (("p", 0.5), _NCDHW), ("x",), True),
    "AlphaDropout": ("alpha_dropout", (("p", 0.5),), ("x",), True),
    "Upsample": ("interpolate", (("size", None), ("scale_factor", None), ("mode", "nearest"),
                                 ("align_corners", False), ("align_mode", 0), _NCHW)),
    "UpsamplingNearest2D": ("interpolate", (("size", None), ("scale_factor", None), _NCHW), ("x",), False,
                            {"mode": "nearest"}),
    "UpsamplingBilinear2D": ("interpolate", (("size", None), ("scale_factor", None), _NCHW), ("x",), False,
                             {"mode": "bilinear", "align_corners": True}),
    "PixelShuffle": ("pixel_shuffle", ("upscale_factor", _NCHW)),
    "CosineSimilarity": ("cosine_similarity", (("axis", 1), ("eps", 1e-8)), ("x1", "x2"), False, None, None,
                         False),
    "PairwiseDistance": ("pairwise_distance", (("p", 2.0), ("epsilon", 1e-6), ("keepdim", False)), ("x", "y")),
    # (2.x additions) activations
    "CELU": ("celu", (("alpha", 1.0),)), "Silu": ("silu", ()), "Mish": ("mish", ()), "GLU": ("glu", (("axis", -1),)),
    "RReLU": ("rrelu", (("lower", 1.0 / 8.0), ("upper", 1.0 / 3.0)), ("x",), True),
    # losses
    "CosineEmbeddingLoss": ("cosine_embedding_loss", (("margin", 0), _RED), ("input1", "input2", "label")),
    "HingeEmbeddingLoss": ("hinge_embedding_loss", (("margin", 1.0), _RED), ("input", "label")),
    "SoftMarginLoss": ("soft_margin_loss", (_RED,), ("input", "label")),
    "MultiLabelSoftMarginLoss": ("multi_label_soft_margin_loss", (("weight", None), _RED), ("input", "label")),
    "MultiMarginLoss": ("multi_margin_loss", (("p", 1), ("margin", 1.0), ("weight", None), _RED), ("input", "label")),
    "TripletMarginLoss": ("triplet_margin_loss", (("margin", 1.0), ("p", 2.0), ("epsilon", 1e-6), ("swap", False),
                                                  _RED), ("input", "positive", "negative")),
    "TripletMarginWithDistanceLoss": ("triplet_margin_with_distance_loss", (("distance_function", None),
                                      ("margin", 1.0), ("swap", False), _RED), ("input", "positive", "negative")),
    "PoissonNLLLoss": ("poisson_nll_loss", (("log_input", True), ("full", False), ("epsilon", 1e-8), _RED),
                       ("input", "label")),
    "GaussianNLLLoss": ("gaussian_nll_loss", (("full", False), ("epsilon", 1e-6), _RED),
                        ("input", "label", "variance")),
    "RNNTLoss": ("rnnt_loss", (("blank", 0), ("fastemit_lambda", 0.001), _RED),
                 ("input", "label", "input_lengths", "label_lengths")),
    # shape, pixels, padding, unpooling
    "Unflatten": ("paddle.unflatten", ("axis", "shape"), ("input",)),
    "Fold": ("fold", ("output_sizes", "kernel_sizes", ("dilations", 1), ("paddings", 0), ("strides", 1)),
             ("input",)),
    "Unfold": ("unfold", ("kernel_sizes", ("dilations", 1), ("paddings", 0), ("strides", 1)), ("input",)),
    "ChannelShuffle": ("channel_shuffle", ("groups", _NCHW)),
    "PixelUnshuffle": ("pixel_unshuffle", ("downscale_factor", _NCHW)),
    "ZeroPad2D": ("zeropad2d", ("padding", _NCHW)),
    "MaxUnPool1D": ("max_unpool1d", ("kernel_size", ("stride", None), ("padding", 0), ("data_format", "NCL"),
                                     ("output_size", None)), ("x", "indices")),
    "MaxUnPool2D": ("max_unpool2d", ("kernel_size", ("stride", None), ("padding", 0), _NCHW, ("output_size", None)),
                    ("x", "indices")),
    "MaxUnPool3D": ("max_unpool3d", ("kernel_size", ("stride", None), ("padding", 0), _NCDHW,
                                     ("output_size", None)), ("x", "indices")),
}

# Paddle's extra_repr shows only these (pooling: kernel_size, stride, padding; Flatten: nothing)
_REPR_KEYS = {n: ("kernel_size", "stride", "padding") for n in TABLE if "Pool" in n and "Adaptive" not in n}
_REPR_KEYS["Flatten"] = ()

for _name, _row in TABLE.items():
    _row = tuple(_row) + (("x",), False, None, None, True)[len(_row) - 2:]
    _cls = _make(_name, *_row)
    if _name in _REPR_KEYS:
        _cls._repr_keys = _REPR_KEYS[_name]
    globals()[_name] = _cls
    export(_cls, f"paddle.nn.{_name}")


# --- layers with parameters or their own argument handling --------------------------------------------
class Linear(Layer):
    """y = x W + b, W of shape [in_features, out_features] (Paddle's layout); default init Xavier / 0."""

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, bias_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._in_features, self._out_features = in_features, out_features
        self.weight = self.create_parameter([in_features, out_features], weight_attr, is_bias=False)
        self.bias = self.create_parameter([out_features], bias_attr, is_bias=True)
        self.name = name

    def forward(self, input: Any) -> Any:  # noqa: A002
        out = body_shortcut(linear_op, input, self.weight, self.bias)
        return out if out is not None else F("linear")(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self._in_features}, out_features={self._out_features}, dtype={self._dtype}"


class Embedding(Layer):
    """weight [num_embeddings, embedding_dim]; a padding_idx row gets zero output (and zero gradient)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None, sparse: bool = False,
                 weight_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        if num_embeddings <= 0 or embedding_dim <= 0:
            raise ValueError(f"paddle.nn.Embedding: num_embeddings ({num_embeddings}) and embedding_dim "
                             f"({embedding_dim}) must be positive")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"paddle.nn.Embedding: padding_idx must be within [-{num_embeddings}, "
                             f"{num_embeddings}), got {padding_idx}")
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._padding_idx = -1 if padding_idx is None else (padding_idx if padding_idx >= 0
                                                            else num_embeddings + padding_idx)
        self._sparse = sparse
        self.weight = self.create_parameter([num_embeddings, embedding_dim], weight_attr, is_bias=False)
        if sparse:  # its gradient is a SelectedRows in Paddle (Optimizer._selected_rows)
            self.weight._selected_rows_grad = True

    def forward(self, x: Any) -> Any:
        return F("embedding")(x, weight=self.weight, padding_idx=None if self._padding_idx == -1
                              else self._padding_idx, sparse=self._sparse)

    def extra_repr(self) -> str:
        pad = f", padding_idx={self._padding_idx}" if self._padding_idx != -1 else ""
        return f"{self._num_embeddings}, {self._embedding_dim}{pad}, sparse={self._sparse}"


class Bilinear(Layer):
    """out[:, k] = x1 W_k x2^T + b_k; weight [out, in1, in2], bias [1, out]."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self.weight = self.create_parameter([out_features, in1_features, in2_features], weight_attr)
        self.bias = self.create_parameter([1, out_features], bias_attr, is_bias=True)

    def forward(self, x1: Any, x2: Any) -> Any:
        return F("bilinear")(x1, x2, self.weight, self.bias)


class PReLU(Layer):
    """weight [num_parameters] initialised to `init` (0.25)."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, weight_attr: Any = None,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self._data_format = data_format
        self._weight = self.create_parameter([num_parameters], weight_attr, default_initializer=I.Constant(init))

    def forward(self, x: Any) -> Any:
        return F("prelu")(x, self._weight, data_format=self._data_format)


class _PadNd(Layer):
    _n = 1
    _default_format = "NCL"

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str | None = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._pad = [padding] * (2 * self._n) if isinstance(padding, int) else padding
        self._mode, self._value = mode, value
        self._data_format = data_format or self._default_format

    def forward(self, x: Any) -> Any:
        return F("pad")(x, pad=self._pad, mode=self._mode, value=self._value, data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"padding={self._pad}, mode={self._mode}, value={self._value}, data_format={self._data_format}"


class Pad1D(_PadNd):
    """paddle.nn.Pad1D(padding, mode='constant', value=0.0, data_format='NCL', name=None)"""


class Pad2D(_PadNd):
    """paddle.nn.Pad2D(padding, mode='constant', value=0.0, data_format='NCHW', name=None)"""

    _n, _default_format = 2, "NCHW"


class Pad3D(_PadNd):
    """paddle.nn.Pad3D(padding, mode='constant', value=0.0, data_format='NCDHW', name=None)"""

    _n, _default_format = 3, "NCDHW"


class Identity(Layer):
    """paddle.nn.Identity(*args, **kwargs): returns its input (the arguments are accepted and ignored)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:  # noqa: A002 - Paddle's name
        return input


class Softmax2D(Layer):
    """Softmax over the channel axis of a [C, H, W] or [N, C, H, W] input."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Any) -> Any:
        if len(x.shape) not in (3, 4):
            raise ValueError(f"paddle.nn.Softmax2D: Softmax2D requires a 3D or 4D tensor as input. Received: "
                             f"{len(x.shape)}D.")
        return F("softmax", "paddle.nn.Softmax2D")(x, axis=-3)


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid: weight [num_classes - 1, feature_size], bias [num_classes - 1, 1]."""

    def __init__(self, feature_size: int, num_classes: int, weight_attr: Any = None, bias_attr: Any = None,
                 is_custom: bool = False, is_sparse: bool = False, name: str | None = None) -> None:
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError("paddle.nn.HSigmoidLoss: num_classes must not be less than 2 with default tree")
        self._num_classes, self._is_custom, self._is_sparse = num_classes, is_custom, is_sparse
        rows = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([rows, feature_size], weight_attr)
        self.bias = self.create_parameter([rows, 1], bias_attr, is_bias=True)

    def forward(self, input: Any, label: Any, path_table: Any = None, path_code: Any = None) -> Any:  # noqa: A002
        return F("hsigmoid_loss")(input, label, self._num_classes, self.weight, self.bias, path_table=path_table,
                                  path_code=path_code, is_sparse=self._is_sparse)


def _leaky_relu_(cfg: dict, t: torch.Tensor) -> Any:
    slope = cfg["negative_slope"]
    return type(slope) in (int, float) and torch.nn.functional.leaky_relu(t, slope, inplace=True)


# each activation layer's call as the in-place form of its op body's kernel, given the layer's settings: the same
# bits into its input's buffer (layer.activate_in_place); Linear's output is a new tensor
_INTO = {
    "ReLU": lambda cfg, t: torch.relu_(t), "Sigmoid": lambda cfg, t: torch.sigmoid_(t),
    "Tanh": lambda cfg, t: torch.tanh_(t), "ReLU6": lambda cfg, t: torch.nn.functional.relu6(t, inplace=True),
    "Silu": lambda cfg, t: torch.nn.functional.silu(t, inplace=True),
    "Swish": lambda cfg, t: torch.nn.functional.silu(t, inplace=True),
    "Hardswish": lambda cfg, t: torch.nn.functional.hardswish(t, inplace=True),
    "Hardsigmoid": lambda cfg, t: paddle_hard_sigmoid_(t),
    "GELU": lambda cfg, t: torch._C._nn.gelu_(t, approximate="tanh" if cfg["approximate"] else "none"),
    "LeakyReLU": _leaky_relu_,
}
for _name, _into in _INTO.items():
    INPLACE_ACTIVATIONS[globals()[_name]] = lambda layer, t, into=_into: into(layer.__dict__["_cfg"], t) is t
FRESH_OUTPUTS.add(Linear)


for _cls in (Linear, Embedding, Bilinear, PReLU, Pad1D, Pad2D, Pad3D, HSigmoidLoss, Identity, Softmax2D):
    export(_cls, f"paddle.nn.{_cls.__name__}")

