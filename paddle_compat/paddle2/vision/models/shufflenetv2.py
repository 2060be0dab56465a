"""paddle.vision.models.ShuffleNetV2 and shufflenet_v2_x0_25 .. x2_0, shufflenet_v2_swish."""

from paddle_compat.paddle2.vision.models._layers import P, AdaptiveAvgPool2D, Layer, Linear, MaxPool2D, ReLU, Swish
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values
from paddle_compat.paddle2.vision.ops import ConvNormActivation

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
model_urls = {arch: (f"{_HAPI}{arch}.pdparams", md5) for arch, md5 in (
    ("shufflenet_v2_x0_25", "1e509b4c140eeb096bb16e214796d03b"),
    ("shufflenet_v2_x0_33", "3d7b3ab0eaa5c0927ff1026d31b729bd"),
    ("shufflenet_v2_x0_5", "5e5cee182a7793c4e4c73949b1a71bd4"),
    ("shufflenet_v2_x1_0", "122d42478b9e81eb49f8a9ede327b1a4"),
    ("shufflenet_v2_x1_5", "faced5827380d73531d0ee027c67826d"),
    ("shufflenet_v2_x2_0", "cd3dddcd8305e7bcd8ad14d1c69a5784"),
    ("shufflenet_v2_swish", "adde0aa3b023e5b0c94a68be1c394b84"))}


def create_activation_layer(act):
    """The activation class for 'relu' / 'swish' (None for None)."""
    table = {"swish": Swish, "relu": ReLU, None: None}
    if act not in table:
        raise RuntimeError(f"The activation function is not supported: {act}")
    return table[act]


def channel_shuffle(x, groups):
    """Interleave the channels of NCHW x across `groups` groups."""
    n, c, h, w = x.shape[0:4]
    x = P("reshape")(x, shape=[n, groups, c // groups, h, w])
    return P("reshape")(P("transpose")(x, perm=[0, 2, 1, 3, 4]), shape=[n, c, h, w])


def _cna(cin, cout, k, stride, groups, act):
    return ConvNormActivation(cin, cout, kernel_size=k, stride=stride, padding=(k - 1) // 2, groups=groups,
                              activation_layer=act)


class InvertedResidual(Layer):
    """Split channels in half; the second half goes 1x1, 3x3 depthwise, 1x1; concat and shuffle."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = _cna(in_channels // 2, half, 1, 1, 1, activation_layer)
        self._conv_dw = _cna(half, half, 3, stride, half, None)
        self._conv_linear = _cna(half, half, 1, 1, 1, activation_layer)

    def forward(self, inputs):
        half = inputs.shape[1] // 2
        x1, x2 = P("split")(inputs, num_or_sections=[half, half], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(P("concat")([x1, x2], axis=1), 2)


class InvertedResidualDS(Layer):
    """The downsampling unit: both branches strided (3x3 depthwise then 1x1), concat and shuffle."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = _cna(in_channels, in_channels, 3, stride, in_channels, None)
        self._conv_linear_1 = _cna(in_channels, half, 1, 1, 1, activation_layer)
        self._conv_pw_2 = _cna(in_channels, half, 1, 1, 1, activation_layer)
        self._conv_dw_2 = _cna(half, half, 3, stride, half, None)
        self._conv_linear_2 = _cna(half, half, 1, 1, 1, activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(P("concat")([x1, x2], axis=1), 2)


_STAGE_OUT = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512], 0.5: [-1, 24, 48, 96, 192, 1024],
              1.0: [-1, 24, 116, 232, 464, 1024], 1.5: [-1, 24, 176, 352, 704, 1024],
              2.0: [-1, 24, 224, 488, 976, 2048]}


class ShuffleNetV2(Layer):
    """ShuffleNetV2(scale=1.0, act='relu', num_classes=1000, with_pool=True): _conv1, _max_pool, blocks named
    '2_1' .. '4_4', _last_conv, _pool2d_avg, _fc."""

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        act_layer = create_activation_layer(act)
        if scale not in _STAGE_OUT:
            raise NotImplementedError("This scale size:[" + str(scale) + "] is not implemented!")
        ch = _STAGE_OUT[scale]
        self._conv1 = _cna(3, ch[1], 3, 2, 1, act_layer)
        self._max_pool = MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                block = (InvertedResidualDS(ch[stage + 1], ch[stage + 2], 2, act_layer) if i == 0
                         else InvertedResidual(ch[stage + 2], ch[stage + 2], 1, act_layer))
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = _cna(ch[-2], ch[-1], 1, 1, 1, act_layer)
        if with_pool:
            self._pool2d_avg = AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = ch[-1]
            self._fc = Linear(ch[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(P("flatten")(x, start_axis=1, stop_axis=-1))
        return x


def _constructor(arch, scale, act="relu"):
    return constructor(arch, lambda **kw: ShuffleNetV2(scale=scale, act=act, **kw), model_urls,
                       doc=f"ShuffleNetV2(scale={scale}, act={act!r}, **kwargs)")


shufflenet_v2_x0_25 = _constructor("shufflenet_v2_x0_25", 0.25)
shufflenet_v2_x0_33 = _constructor("shufflenet_v2_x0_33", 0.33)
shufflenet_v2_x0_5 = _constructor("shufflenet_v2_x0_5", 0.5)
shufflenet_v2_x1_0 = _constructor("shufflenet_v2_x1_0", 1.0)
shufflenet_v2_x1_5 = _constructor("shufflenet_v2_x1_5", 1.5)
shufflenet_v2_x2_0 = _constructor("shufflenet_v2_x2_0", 2.0)
shufflenet_v2_swish = _constructor("shufflenet_v2_swish", 1.0, "swish")

register("shufflenetv2", ShuffleNetV2, shufflenet_v2_x0_25, shufflenet_v2_x0_33, shufflenet_v2_x0_5,
         shufflenet_v2_x1_0, shufflenet_v2_x1_5, shufflenet_v2_x2_0, shufflenet_v2_swish)
register("shufflenetv2", InvertedResidual, InvertedResidualDS, channel_shuffle, create_activation_layer, public=False)
register_values("shufflenetv2", model_urls=model_urls)
