"""paddle.vision.models: every model and constructor of Paddle 2.6.2 with Paddle's sublayer names (so
state_dict keys, shapes and `.pdparams` files match), initialisers and forward arithmetic; `pretrained=True`
loads Paddle's published weights through paddle.utils.download (Paddle's URLs, md5s and cache folder)."""

from paddle_compat.paddle2.vision.models import (  # noqa: F401 - each module registers its exports
    alexnet, densenet, googlenet, inceptionv3, lenet, mobilenetv1, mobilenetv2, mobilenetv3, resnet, shufflenetv2,
    squeezenet, vgg)
