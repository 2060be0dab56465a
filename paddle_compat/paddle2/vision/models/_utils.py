"""What the paddle.vision.models modules share: where a name is exported, pretrained weights, channel rounding."""

from __future__ import annotations

import collections
import inspect
from typing import Any, Callable

from paddle_compat.paddle2.nn.common import Linear
from paddle_compat.paddle2.nn.container import LayerDict
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.ops.tensor.manipulation import flatten

_MODELS = "paddle.vision.models"


def register(module: str, *objs: Any, public: bool = True) -> None:
    """Export each object at paddle.vision.models.<module>.<Name>; public ones (the 2.6.2 surface) also at
    paddle.vision.models.<Name> and paddle.vision.<Name>, where real Paddle has them too."""
    for obj in objs:
        name = obj.__name__
        paths = [f"{_MODELS}.{module}.{name}"]
        if public:
            paths += [f"{_MODELS}.{name}", f"paddle.vision.{name}"]
        export(obj, *paths)


def register_values(module: str, **values: Any) -> None:
    """Export module-level data (model_urls, cfgs) at paddle.vision.models.<module>.<name>."""
    for name, value in values.items():
        export(value, f"{_MODELS}.{module}.{name}")


def make_divisible(v: float, divisor: int = 8, min_value: int | None = None) -> int:
    """The nearest multiple of `divisor` (at least min_value), bumped up once if that loses over 10% of v."""
    floor = divisor if min_value is None else min_value
    out = max(floor, int(v + divisor / 2) // divisor * divisor)
    return out + divisor if out < 0.9 * v else out


def load_pretrained(model: Any, arch: str, urls: dict, api: str) -> Any:
    """Set Paddle's published ImageNet weights for `arch` (downloaded once into Paddle's weights cache,
    ~/.cache/paddle/hapi/weights, md5-checked; used offline when the file is already there)."""
    if arch not in urls:
        # Paddle asserts here; the type stays AssertionError so scripts that catch it behave the same.
        raise AssertionError(f"{api}: {arch} model do not have a pretrained model now, you should set "
                             f"pretrained=False")
    from paddle_compat.engine.static.serialization import load
    from paddle_compat.paddle2.utils.download import get_weights_path_from_url

    url, md5 = urls[arch]
    model.set_state_dict(load(get_weights_path_from_url(url, md5)))
    return model


def constructor(name: str, make: Callable, urls: dict, arch: Callable[[dict], str] | None = None,
                defaults: dict | None = None, fixed: dict | None = None, doc: str = "") -> Callable:
    """A constructor `name(pretrained=False, <defaults>, **kwargs)` as Paddle writes them: make(**arguments),
    with `fixed` arguments forced (resnext's groups / width), then Paddle's published weights for
    arch(arguments) (default: `name`) when pretrained."""
    P = inspect.Parameter
    sig = inspect.Signature([P("pretrained", P.POSITIONAL_OR_KEYWORD, default=False)]
                            + [P(k, P.POSITIONAL_OR_KEYWORD, default=v) for k, v in (defaults or {}).items()]
                            + [P("kwargs", P.VAR_KEYWORD)])

    def build(*args: Any, **kwargs: Any) -> Any:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        pretrained = arguments.pop("pretrained")
        arguments.update(arguments.pop("kwargs"), **(fixed or {}))
        model = make(**arguments)
        if pretrained:
            load_pretrained(model, arch(arguments) if arch else name, urls, f"{_MODELS}.{name}")
        return model

    build.__name__ = build.__qualname__ = name
    build.__signature__ = sig  # type: ignore[attr-defined]
    build.__doc__ = f"paddle.vision.models.{name}: {doc}; pretrained=True loads Paddle's published weights."
    return build


class IntermediateLayerGetter(LayerDict):
    """paddle.vision.models._utils.IntermediateLayerGetter(model, return_layers): the model's direct children
    up to the last one named in return_layers; forward returns {new_name: activation} (an OrderedDict)."""

    def __init__(self, model: Any, return_layers: dict) -> None:
        if not set(return_layers).issubset(n for n, _ in model.named_children()):
            raise ValueError("return_layers are not present in model")
        layers, left = collections.OrderedDict(), {str(k) for k in return_layers}
        for name, child in model.named_children():
            layers[name] = child
            left.discard(name)
            if not left:
                break
        super().__init__(layers)
        self.return_layers = {str(k): str(v) for k, v in return_layers.items()}

    def forward(self, x: Any) -> Any:
        out = collections.OrderedDict()
        for name, layer in self.items():
            subs = layer.sublayers()
            if x.ndim == 4 and isinstance(subs[0] if subs else layer, Linear):
                x = flatten(x, 1)
            x = layer(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out


export(IntermediateLayerGetter, f"{_MODELS}._utils.IntermediateLayerGetter")
