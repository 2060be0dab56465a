"""paddle.vision.models.ResNet and its constructors: resnet18..152, resnext50/101/152 (32x4d, 64x4d),
wide_resnet50_2 / wide_resnet101_2."""

import functools

from paddle_compat.paddle2.vision.models._layers import (
    P, AdaptiveAvgPool2D, BatchNorm2D, Conv2D, Layer, Linear, MaxPool2D, ReLU, Sequential, add_then, call_then)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
model_urls = {arch: (f"{_HAPI}{arch}.pdparams", md5) for arch, md5 in (
    ("resnet18", "cf548f46534aa3560945be4b95cd11c4"), ("resnet34", "8d2275cf8706028345f78ac0e1d31969"),
    ("resnet50", "ca6f485ee1ab0492d38f323885b0ad80"), ("resnet101", "02f35f034ca3858e1e54d4036443c92d"),
    ("resnet152", "7ad16a2f1e7333859ff986138630fd7a"), ("resnext50_32x4d", "dc47483169be7d6f018fcbb7baf8775d"),
    ("resnext50_64x4d", "063d4b483e12b06388529450ad7576db"), ("resnext101_32x4d", "967b090039f9de2c8d06fe994fb9095f"),
    ("resnext101_64x4d", "98e04e7ca616a066699230d769d03008"), ("resnext152_32x4d", "18ff0beee21f2efc99c4b31786107121"),
    ("resnext152_64x4d", "77c4af00ca42c405fa7f841841959379"), ("wide_resnet50_2", "0282f804d73debdab289bd9fea3fa6dc"),
    ("wide_resnet101_2", "d4360a2d23657f059216f5d5a1a9ac93"))}


class BasicBlock(Layer):
    """Two 3x3 conv-bn pairs plus the identity (or `downsample`): conv1, bn1, conv2, bn2."""

    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        norm_layer = norm_layer or BatchNorm2D
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        self.conv1 = Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm_layer(planes)
        self.relu = ReLU()
        self.conv2 = Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = call_then(self.bn1, self.relu, self.conv1(x))  # in inference the activations in place (nn/layer.py)
        h = self.conv2(out)
        out = self.bn2(h)
        identity = x if self.downsample is None else self.downsample(x)
        return add_then(self.bn2, h, out, identity, self.relu)


class BottleneckBlock(Layer):
    """1x1 reduce, 3x3 (grouped, dilated), 1x1 expand (x4), each with batch norm, plus the identity."""

    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        norm_layer = norm_layer or BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm_layer(width)
        self.conv2 = Conv2D(width, width, 3, padding=dilation, stride=stride, groups=groups, dilation=dilation,
                            bias_attr=False)
        self.bn2 = norm_layer(width)
        self.conv3 = Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = call_then(self.bn1, self.relu, self.conv1(x))  # in inference the activations in place (nn/layer.py)
        out = call_then(self.bn2, self.relu, self.conv2(out))
        h = self.conv3(out)
        out = self.bn3(h)
        identity = x if self.downsample is None else self.downsample(x)
        return add_then(self.bn3, h, out, identity, self.relu)


_DEPTHS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3]}


class ResNet(Layer):
    """ResNet(block, depth=50, width=64, num_classes=1000, with_pool=True, groups=1): conv1/bn1/maxpool stem,
    layer1..layer4 of `block`s, average pool and fc."""

    def __init__(self, block, depth=50, width=64, num_classes=1000, with_pool=True, groups=1):
        super().__init__()
        layers = _DEPTHS[depth]
        self.groups = groups
        self.base_width = width
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._norm_layer = BatchNorm2D
        self.inplanes = 64
        self.dilation = 1
        self.conv1 = Conv2D(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias_attr=False)
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = ReLU()
        self.maxpool = MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        norm_layer = self._norm_layer
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = Sequential(
                Conv2D(self.inplanes, planes * block.expansion, 1, stride=stride, bias_attr=False),
                norm_layer(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width, previous_dilation,
                        norm_layer)]
        self.inplanes = planes * block.expansion
        layers += [block(self.inplanes, planes, groups=self.groups, base_width=self.base_width, norm_layer=norm_layer)
                   for _ in range(1, blocks)]
        return Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(call_then(self.bn1, self.relu, self.conv1(x)))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.fc(P("flatten")(x, 1))
        return x


def _constructor(arch, block, depth, **fixed):
    return constructor(arch, functools.partial(ResNet, block, depth), model_urls, fixed=fixed,
                       doc=f"ResNet({block.__name__}, {depth}" + "".join(f", {k}={v}" for k, v in fixed.items()) + ")")


resnet18 = _constructor("resnet18", BasicBlock, 18)
resnet34 = _constructor("resnet34", BasicBlock, 34)
resnet50 = _constructor("resnet50", BottleneckBlock, 50)
resnet101 = _constructor("resnet101", BottleneckBlock, 101)
resnet152 = _constructor("resnet152", BottleneckBlock, 152)
resnext50_32x4d = _constructor("resnext50_32x4d", BottleneckBlock, 50, groups=32, width=4)
resnext50_64x4d = _constructor("resnext50_64x4d", BottleneckBlock, 50, groups=64, width=4)
resnext101_32x4d = _constructor("resnext101_32x4d", BottleneckBlock, 101, groups=32, width=4)
resnext101_64x4d = _constructor("resnext101_64x4d", BottleneckBlock, 101, groups=64, width=4)
resnext152_32x4d = _constructor("resnext152_32x4d", BottleneckBlock, 152, groups=32, width=4)
resnext152_64x4d = _constructor("resnext152_64x4d", BottleneckBlock, 152, groups=64, width=4)
wide_resnet50_2 = _constructor("wide_resnet50_2", BottleneckBlock, 50, width=128)
wide_resnet101_2 = _constructor("wide_resnet101_2", BottleneckBlock, 101, width=128)

register("resnet", ResNet, resnet18, resnet34, resnet50, resnet101, resnet152, resnext50_32x4d, resnext50_64x4d,
         resnext101_32x4d, resnext101_64x4d, resnext152_32x4d, resnext152_64x4d, wide_resnet50_2, wide_resnet101_2)
register("resnet", BasicBlock, BottleneckBlock, public=False)
register_values("resnet", model_urls=model_urls)
