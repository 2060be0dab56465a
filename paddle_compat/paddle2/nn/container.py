"""Sequential, LayerList, ParameterList, LayerDict. Sublayers are keyed '0', '1', ... so state_dict keys
are Paddle's (`0.weight`)."""

from __future__ import annotations

import collections
from typing import Any, Iterable, Iterator

from paddle_compat.paddle2.nn.layer import Layer, activate_in_place
from paddle_compat.engine.framework.registry import export


class Sequential(Layer):
    """Sequential(*layers) or Sequential(('name', layer), ...)."""

    def __init__(self, *layers: Any) -> None:
        super().__init__()
        if layers and isinstance(layers[0], (list, tuple)) and len(layers[0]) == 2 and isinstance(layers[0][0], str):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for i, layer in enumerate(layers):
                self.add_sublayer(str(i), layer)

    def __getitem__(self, name: Any) -> Any:
        if isinstance(name, slice):
            return self.__class__(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if not -n <= name < n:
            raise IndexError(f"Sequential: index {name} is out of range for {n} sublayers")
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name: Any, layer: Layer) -> None:
        self._sub_layers[str(name)] = layer

    def __delitem__(self, name: Any) -> None:
        del self._sub_layers[str(name)]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def forward(self, input: Any) -> Any:  # noqa: A002
        before = given = None
        for layer in self._sub_layers.values():
            # in inference an activation after a conv / norm / linear runs in place (layer.activate_in_place)
            if before is None or not activate_in_place(before, given, layer, input):
                given, input = input, layer(input)
            before = layer
        return input


class LayerList(Layer):
    def __init__(self, sublayers: Iterable[Layer] | None = None) -> None:
        super().__init__()
        for i, layer in enumerate(sublayers or []):
            self.add_sublayer(str(i), layer)

    def _abs(self, idx: int) -> int:
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(f"LayerList: index {idx} is out of range for {n} sublayers")
        return idx + n if idx < 0 else idx

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return self.__class__(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(self._abs(idx))]

    def __setitem__(self, idx: int, sublayer: Layer) -> None:
        setattr(self, str(self._abs(idx)), sublayer)

    def __delitem__(self, idx: Any) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(self._abs(idx)))
        layers = list(self._sub_layers.values())
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def append(self, sublayer: Layer) -> "LayerList":
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index: int, sublayer: Layer) -> None:
        layers = list(self._sub_layers.values())
        layers.insert(index, sublayer)
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def extend(self, sublayers: Iterable[Layer]) -> "LayerList":
        for layer in sublayers:
            self.append(layer)
        return self


class ParameterList(Layer):
    def __init__(self, parameters: Iterable[Any] | None = None) -> None:
        super().__init__()
        for i, p in enumerate(parameters or []):
            self.add_parameter(str(i), p)

    def __getitem__(self, idx: int) -> Any:
        return list(self._parameters.values())[idx]

    def __setitem__(self, idx: int, param: Any) -> None:
        self._parameters[str(idx)] = param

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._parameters.values())

    def append(self, parameter: Any) -> "ParameterList":
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class LayerDict(Layer):
    def __init__(self, sublayers: Any = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self._sub_layers[key]

    def __setitem__(self, key: str, sublayer: Layer) -> None:
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sub_layers)

    def __contains__(self, key: str) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        self._sub_layers.clear()

    def pop(self, key: str) -> Layer:
        return self._sub_layers.pop(key)

    def keys(self):
        return self._sub_layers.keys()

    def items(self):
        return self._sub_layers.items()

    def values(self):
        return self._sub_layers.values()

    def update(self, sublayers: Any) -> None:
        items = sublayers.items() if isinstance(sublayers, (dict, collections.OrderedDict, LayerDict)) else sublayers
        for k, v in items:
            self.add_sublayer(k, v)


for _cls in (Sequential, LayerList, ParameterList, LayerDict):
    export(_cls, f"paddle.nn.{_cls.__name__}")
export(Sequential, "paddle.fluid.dygraph.Sequential")
export(LayerList, "paddle.fluid.dygraph.LayerList")
export(ParameterList, "paddle.fluid.dygraph.ParameterList")
