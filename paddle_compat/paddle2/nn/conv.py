"""Conv1D/2D/3D and their transposes. Weight [out, in/groups, *k] (transposed: [in, out/groups, *k]);
default weight init Normal(0, sqrt(2 / (prod(k) * in_channels))), bias 0, as Paddle's _ConvNd."""

from __future__ import annotations

import math
from typing import Any

from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.lookup import F
from paddle_compat.engine.ops.nn_functional.conv import ConvShortcut, called_by_layer
from paddle_compat.paddle2.nn.layer import FRESH_OUTPUTS, Layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static import initializer as I

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _ntuple(v: Any, n: int, what: str, api: str) -> list[int]:
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) != n:
        raise ValueError(f"{api}: {what} should be an int or a list of {n} ints, got {v}")
    return [int(x) for x in v]


class _ConvNd(Layer):
    _dims = 2
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros", weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str | None = None, output_padding: Any = 0) -> None:
        super().__init__()
        api = f"paddle.nn.{type(self).__name__}"
        n = self._dims
        data_format = data_format or _FORMATS[n][0]
        if data_format not in _FORMATS[n]:
            raise ValueError(f"{api}: data_format must be one of {_FORMATS[n]}, but got {data_format!r}")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"{api}: padding_mode must be one of zeros, reflect, replicate, circular, "
                             f"but got {padding_mode!r}")
        if groups <= 0 or in_channels % groups:
            raise ValueError(f"{api}: in_channels ({in_channels}) must be divisible by groups ({groups})")
        if not self._transposed and out_channels % groups:
            raise ValueError(f"{api}: out_channels ({out_channels}) must be divisible by groups ({groups})")
        self._in_channels, self._out_channels, self._groups = in_channels, out_channels, groups
        self._kernel_size = _ntuple(kernel_size, n, "kernel_size", api)
        self._stride, self._dilation = stride, dilation
        self._padding, self._padding_mode = padding, padding_mode
        self._output_padding = output_padding
        self._data_format = data_format
        self.__dict__["_shortcut"] = ConvShortcut()  # the dygraph call without per-call argument handling
        if self._transposed:
            shape = [in_channels, out_channels // groups] + self._kernel_size
        else:
            shape = [out_channels, in_channels // groups] + self._kernel_size
        if weight_attr is False:  # Paddle 2.6 asserts the same
            raise ValueError(f"{api}: weight_attr should not be False in Conv: a convolution needs its weight "
                             "(bias_attr=False leaves out the bias)")
        fan = math.prod(self._kernel_size) * in_channels
        self.weight = self.create_parameter(shape, weight_attr,
                                            default_initializer=I.Normal(0.0, (2.0 / fan) ** 0.5))
        self.bias = self.create_parameter([out_channels], bias_attr, is_bias=True)
        self._reversed_padding = None
        if padding_mode != "zeros":
            p = _ntuple(padding, n, "padding", api) if not isinstance(padding, str) else None
            if p is None:
                raise ValueError(f"{api}: padding_mode {padding_mode!r} needs numeric padding")
            self._reversed_padding = [x for v in reversed(p) for x in (v, v)]  # F.pad order: last dim first

    def _fn(self) -> str:
        return f"conv{self._dims}d" + ("_transpose" if self._transposed else "")

    def forward(self, x: Any, output_size: Any = None) -> Any:
        if not self._transposed and self._reversed_padding is None:
            p = self.__dict__["_parameters"]  # dict lookups: Layer.__getattr__ costs ~1 us a name
            w = p.get("weight")
            out = None if w is None else self._shortcut(self._dims, x, w, p.get("bias"), self._stride, self._padding,
                                                        self._dilation, self._groups, self._data_format)
            if out is not None:
                return out
        fn = F(self._fn(), f"paddle.nn.{type(self).__name__}")
        if self._transposed:
            return fn(x, self.weight, bias=self.bias, stride=self._stride, padding=self._padding,
                      output_padding=self._output_padding, groups=self._groups, dilation=self._dilation,
                      output_size=output_size, data_format=self._data_format)
        padding = self._padding
        if self._reversed_padding is not None:
            mode = {"replicate": "replicate", "reflect": "reflect", "circular": "circular"}[self._padding_mode]
            x = F("pad")(x, self._reversed_padding, mode=mode, data_format=self._data_format)
            padding = 0
        if not MODE.static:
            return fn(x, self.weight, bias=self.bias, stride=self._stride, padding=padding, dilation=self._dilation,
                      groups=self._groups, data_format=self._data_format)
        with called_by_layer():  # in a Program: Paddle's layer reshapes a channel-last bias, F.conv2d does not
            return fn(x, self.weight, bias=self.bias, stride=self._stride, padding=padding,
                      dilation=self._dilation, groups=self._groups, data_format=self._data_format)

    def extra_repr(self) -> str:
        n = self._dims
        stride = [self._stride] * n if isinstance(self._stride, int) else list(self._stride)
        dilation = [self._dilation] * n if isinstance(self._dilation, int) else list(self._dilation)
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if stride != [1] * n:
            s += f", stride={stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self._transposed and self._output_padding != 0:
            s += f", output_padding={self._output_padding}"
        if dilation != [1] * n:
            s += f", dilation={dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


def _conv_cls(n: int) -> type:
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format=_FORMATS[n][0]):
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         padding_mode, weight_attr, bias_attr, data_format)

    return type(f"Conv{n}D", (_ConvNd,), {"_dims": n, "__init__": __init__, "__module__": __name__,
                                          "__doc__": f"paddle.nn.Conv{n}D"})


def _convt_cls(n: int) -> type:
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 dilation=1, weight_attr=None, bias_attr=None, data_format=_FORMATS[n][0]):
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         "zeros", weight_attr, bias_attr, data_format, output_padding)

    return type(f"Conv{n}DTranspose", (_ConvNd,), {"_dims": n, "_transposed": True, "__init__": __init__,
                                                   "__module__": __name__,
                                                   "__doc__": f"paddle.nn.Conv{n}DTranspose"})


for _n in (1, 2, 3):
    for _cls in (_conv_cls(_n), _convt_cls(_n)):
        globals()[_cls.__name__] = _cls
        export(_cls, f"paddle.nn.{_cls.__name__}")
        FRESH_OUTPUTS.add(_cls)  # a convolution's output is a new tensor (layer.activate_in_place)
