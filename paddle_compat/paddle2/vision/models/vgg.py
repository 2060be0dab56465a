"""paddle.vision.models.VGG / vgg11 / vgg13 / vgg16 / vgg19 (optionally with batch norm)."""

from paddle_compat.paddle2.vision.models._layers import (
    P, AdaptiveAvgPool2D, BatchNorm2D, Conv2D, Dropout, Layer, Linear, MaxPool2D, ReLU, Sequential)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values

model_urls = {"vgg16": ("https://paddle-hapi.bj.bcebos.com/models/vgg16.pdparams", "89bbffc0f87d260be9b8cdc169c991c4"),
              "vgg19": ("https://paddle-hapi.bj.bcebos.com/models/vgg19.pdparams", "23b18bb13d8894f60f54e642be79a0dd")}

cfgs = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


class VGG(Layer):
    """VGG(features, num_classes=1000, with_pool=True): features, 7x7 adaptive average pool, then a
    4096-4096-num_classes classifier with ReLU and Dropout (classifier.{0,3,6})."""

    def __init__(self, features, num_classes=1000, with_pool=True):
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = Sequential(Linear(512 * 7 * 7, 4096), ReLU(), Dropout(), Linear(4096, 4096), ReLU(),
                                         Dropout(), Linear(4096, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(P("flatten")(x, 1))
        return x


def make_layers(cfg, batch_norm=False):
    """The features Sequential for a cfg list: 3x3 convs (with BatchNorm2D when batch_norm) and 2x2 max pools."""
    layers, cin = [], 3
    for v in cfg:
        if v == "M":
            layers.append(MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(Conv2D(cin, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(BatchNorm2D(v))
        layers.append(ReLU())
        cin = v
    return Sequential(*layers)


def _constructor(depth, cfg):
    return constructor(f"vgg{depth}", lambda batch_norm, **kw: VGG(make_layers(cfgs[cfg], batch_norm), **kw),
                       model_urls, arch=lambda a: f"vgg{depth}" + ("_bn" if a["batch_norm"] else ""),
                       defaults={"batch_norm": False}, doc=f"VGG(make_layers(cfgs[{cfg!r}], batch_norm), **kwargs)")


vgg11, vgg13, vgg16, vgg19 = (_constructor(d, c) for d, c in ((11, "A"), (13, "B"), (16, "D"), (19, "E")))

register("vgg", VGG, vgg11, vgg13, vgg16, vgg19)
register("vgg", make_layers, public=False)
register_values("vgg", cfgs=cfgs, model_urls=model_urls)
