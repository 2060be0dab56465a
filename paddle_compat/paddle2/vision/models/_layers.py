"""The layer classes and functions the model definitions use (one import line for every model file)."""

from paddle_compat.engine.framework.lookup import F, P  # noqa: F401
from paddle_compat.paddle2.nn.common import (  # noqa: F401
    AdaptiveAvgPool2D, AvgPool2D, Dropout, Hardsigmoid, Hardswish, Linear, MaxPool2D, ReLU, ReLU6, Sigmoid, Swish)
from paddle_compat.paddle2.nn.container import LayerList, Sequential  # noqa: F401
from paddle_compat.paddle2.nn.conv import Conv2D  # noqa: F401
from paddle_compat.paddle2.nn.layer import Layer, add_then, call_then  # noqa: F401
from paddle_compat.paddle2.nn.norm import BatchNorm, BatchNorm2D  # noqa: F401
from paddle_compat.engine.static.initializer import Uniform
from paddle_compat.engine.static.param import ParamAttr  # noqa: F401


def uniform_attr(stdv: float) -> ParamAttr:
    """A ParamAttr initialised Uniform(-stdv, stdv), as several Paddle models set their weights."""
    return ParamAttr(initializer=Uniform(-stdv, stdv))
