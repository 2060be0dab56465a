"""Recurrent layers with Paddle's gate order, weight layout and names.

Cells hold `weight_ih` [G*hidden, input], `weight_hh` [G*hidden, hidden], `bias_ih`, `bias_hh` (G = 1 / 4 / 3),
initialised Uniform(-1/sqrt(hidden), 1/sqrt(hidden)). Gates: LSTM i, f, c~, o; GRU r, z, c~ with
h = (h_prev - c~) * z + c~. SimpleRNN / LSTM / GRU are lists of RNN / BiRNN wrappers (sublayer keys `0.cell`,
`0.cell_fw`, ...) that also expose every weight under Paddle's flat names (`weight_ih_l0`,
`bias_hh_l1_reverse`), so their state_dict holds both spellings, as Paddle's does.

Everything is composed from public registry ops, so the layers run eagerly or record a static program (the
time loop unrolls over the known number of steps).
"""

from __future__ import annotations

import math
from typing import Any

from paddle_compat.engine.framework.lookup import F, P
from paddle_compat.paddle2.nn.container import LayerList
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.core import eager_kernels
from paddle_compat.engine.framework import registry
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static import initializer as I

_TORCH_RNN = {"LSTM": "lstm", "GRU": "gru", "RNN_TANH": "rnn_tanh", "RNN_RELU": "rnn_relu"}

if "rnn" not in registry.OPS:
    @registry.op("rnn", is_test_attr="is_test")
    def rnn_op(x, pre_states, weights, mode="LSTM", num_layers=1, is_bidirec=False, dropout_prob=0.0,
               is_test=False, time_major=False):
        """Paddle's fused `rnn` op (what SimpleRNN / LSTM / GRU run without sequence_length): all layers and
        directions in one torch kernel. Gate order and weight layout are the same in Paddle and torch
        (LSTM i, f, c~, o; GRU r, z, c~ with the reset gate applied to W_hh h + b_hh)."""
        fn = eager_kernels.kernel(_TORCH_RNN[mode])  # under torch.compile: the fused kernel, not per-step ops
        if pre_states is None:  # zero states [layers * directions, batch, hidden]
            z = x.new_zeros(int(num_layers) * (2 if is_bidirec else 1), x.shape[1 if time_major else 0],
                            weights[1].shape[1])
            pre_states = [z, z]
        args = (float(dropout_prob), not is_test, bool(is_bidirec), not time_major)
        if mode == "LSTM":
            out, h, c = fn(x, (pre_states[0], pre_states[1]), list(weights), True, int(num_layers), *args)
            return out, h, c
        out, h = fn(x, pre_states[0], list(weights), True, int(num_layers), *args)
        return out, h


def _map(fn: Any, *structs: Any) -> Any:
    s0 = structs[0]
    if isinstance(s0, (list, tuple)):
        return type(s0)(_map(fn, *xs) for xs in zip(*structs))
    return fn(*structs)


def _flatten(s: Any) -> list:
    if isinstance(s, (list, tuple)):
        return [x for y in s for x in _flatten(y)]
    return [s]


class RNNCellBase(Layer):
    """Base of the cells: `get_initial_states` builds zero (or `init_value`) states shaped like `state_shape`."""

    def get_initial_states(self, batch_ref: Any, shape: Any = None, dtype: Any = None, init_value: float = 0.0,
                           batch_dim_idx: int = 0) -> Any:
        batch = batch_ref.shape[batch_dim_idx]
        shape = self.state_shape if shape is None else shape
        if dtype is None:  # Paddle: the cell's state_dtype, else the default float type (not batch_ref's)
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                from paddle_compat.engine.core.dtype import default_float

                dtype = default_float()

        def make(s: Any) -> Any:
            s = list(s)[1:] if len(s) and s[0] == -1 else s  # a leading -1 is the batch dim (else prepended)
            if batch >= 0:
                return P("full")([batch] + list(s), init_value, dtype)
            # unknown batch (static program): a [batch] vector shaped like the reference, tiled out
            axes = [i for i in range(len(batch_ref.shape)) if i != batch_dim_idx]
            col = P("full_like")(P("sum")(batch_ref, axis=axes), init_value, dtype)
            return P("tile")(P("reshape")(col, [-1] + [1] * len(s)), [1] + list(s))

        if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (list, tuple)):
            return type(shape)(make(s) for s in shape)
        return make(shape)

    @property
    def state_shape(self) -> Any:
        raise NotImplementedError("Please add implementaion for `state_shape` in the used cell.")

    @property
    def state_dtype(self) -> Any:
        raise NotImplementedError("Please add implementaion for `state_dtype` in the used cell.")

    def _weights(self, gates: int, input_size: int, hidden_size: int, weight_ih_attr: Any, weight_hh_attr: Any,
                 bias_ih_attr: Any, bias_hh_attr: Any) -> None:
        if hidden_size <= 0:
            raise ValueError(f"paddle.nn.{type(self).__name__}: hidden_size of cell must be greater than 0, "
                             f"but now equals to {hidden_size}")
        std = 1.0 / math.sqrt(hidden_size)
        init = I.Uniform(-std, std)
        self.weight_ih = self.create_parameter([gates * hidden_size, input_size], weight_ih_attr,
                                               default_initializer=init)
        self.weight_hh = self.create_parameter([gates * hidden_size, hidden_size], weight_hh_attr,
                                               default_initializer=init)
        self.bias_ih = self.create_parameter([gates * hidden_size], bias_ih_attr, is_bias=True,
                                             default_initializer=init)
        self.bias_hh = self.create_parameter([gates * hidden_size], bias_hh_attr, is_bias=True,
                                             default_initializer=init)
        self.input_size, self.hidden_size = input_size, hidden_size

    def _proj(self, x: Any, w: Any, b: Any) -> Any:
        out = P("matmul")(x, w, transpose_y=True)
        return out if b is None else P("add")(out, b)


class SimpleRNNCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh", weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        if activation not in ("tanh", "relu"):
            raise ValueError(f"paddle.nn.SimpleRNNCell: activation for SimpleRNNCell should be tanh or relu, "
                             f"but get {activation}")
        self._weights(1, input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.activation = activation

    @property
    def state_shape(self) -> Any:
        return (self.hidden_size,)

    def forward(self, inputs: Any, states: Any = None) -> tuple:
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = P("add")(self._proj(inputs, self.weight_ih, self.bias_ih), self._proj(states, self.weight_hh, self.bias_hh))
        h = P("tanh")(h) if self.activation == "tanh" else F("relu")(h)
        return h, h

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class LSTMCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self._weights(4, input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)

    @property
    def state_shape(self) -> Any:
        return ((self.hidden_size,), (self.hidden_size,))

    def forward(self, inputs: Any, states: Any = None) -> tuple:
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_h, pre_c = states
        gates = P("add")(self._proj(inputs, self.weight_ih, self.bias_ih), self._proj(pre_h, self.weight_hh,
                                                                                       self.bias_hh))
        i, f, c, o = P("split")(gates, 4, -1)
        sig = F("sigmoid")
        c = P("add")(P("multiply")(sig(f), pre_c), P("multiply")(sig(i), P("tanh")(c)))
        h = P("multiply")(sig(o), P("tanh")(c))
        return h, (h, c)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self._weights(3, input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)

    @property
    def state_shape(self) -> Any:
        return (self.hidden_size,)

    def forward(self, inputs: Any, states: Any = None) -> tuple:
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        x_r, x_z, x_c = P("split")(self._proj(inputs, self.weight_ih, self.bias_ih), 3, -1)
        h_r, h_z, h_c = P("split")(self._proj(states, self.weight_hh, self.bias_hh), 3, -1)
        sig = F("sigmoid")
        r = sig(P("add")(x_r, h_r))
        z = sig(P("add")(x_z, h_z))
        c = P("tanh")(P("add")(x_c, P("multiply")(r, h_c)))
        h = P("add")(P("multiply")(P("subtract")(states, c), z), c)
        return h, h

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


def _step_mask(sequence_length: Any, steps: int, dtype: Any) -> Any:
    """[time, batch] float mask: 1 where t < sequence_length[b]."""
    t = P("unsqueeze")(P("arange")(0, steps, 1, "int64"), [1])
    lens = P("unsqueeze")(P("cast")(sequence_length, "int64"), [0])
    return P("cast")(P("less_than")(t, lens), dtype)


def _rnn_loop(cell: Any, inputs: Any, initial_states: Any, sequence_length: Any, time_major: bool, is_reverse: bool,
              zero_padded_outputs: bool = False, **kwargs: Any) -> tuple:
    """Paddle's dynamic RNN loop: states stop updating after each sequence's length (new * m + old * (1 - m))."""
    x = inputs if time_major else P("transpose")(inputs, [1, 0] + list(range(2, len(inputs.shape))))
    steps = x.shape[0]
    if steps < 0:
        raise ValueError("paddle.nn.RNN: the number of time steps must be known")
    if initial_states is None:
        initial_states = cell.get_initial_states(x, cell.state_shape, batch_dim_idx=1)
    masks = None
    if sequence_length is not None:
        masks = P("unbind")(_step_mask(sequence_length, steps, x.dtype), 0)
    xs = P("unbind")(x, 0)
    order = list(range(steps))[::-1] if is_reverse else list(range(steps))
    states = initial_states
    outs: list = [None] * steps
    for t in order:
        out, new_states = cell(xs[t], states, **kwargs)
        if masks is not None:
            m = P("unsqueeze")(masks[t], [1])
            one_minus = P("scale")(m, scale=-1.0, bias=1.0)
            new_states = _map(lambda old, new: P("add")(P("multiply")(new, m), P("multiply")(old, one_minus)),
                              states, new_states)
            if zero_padded_outputs:
                out = P("multiply")(out, m)
        states = new_states
        outs[t] = out
    y = P("stack")(outs, 0)
    if not time_major:
        y = P("transpose")(y, [1, 0] + list(range(2, len(y.shape))))
    return y, states


class RNN(Layer):
    """Wraps a cell into a loop over time: forward(inputs, initial_states=None, sequence_length=None)."""

    def __init__(self, cell: Layer, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell = cell
        if not hasattr(cell, "call"):
            self.cell.call = cell.forward
        self.is_reverse, self.time_major = is_reverse, time_major

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None, **kwargs: Any) -> tuple:
        return _rnn_loop(self.cell, inputs, initial_states, sequence_length, self.time_major, self.is_reverse,
                         zero_padded_outputs=kwargs.pop("_zero_padded_outputs", False), **kwargs)


class BiRNN(Layer):
    """Forward and backward cells over the same inputs; outputs concatenated on the last axis."""

    def __init__(self, cell_fw: Layer, cell_bw: Layer, time_major: bool = False) -> None:
        super().__init__()
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"paddle.nn.BiRNN: input size of forward cell({cell_fw.input_size}) does not equals "
                             f"that of backward cell({cell_bw.input_size})")
        self.time_major = time_major

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None, **kwargs: Any) -> tuple:
        if initial_states is None:
            initial_states = (None, None)
        elif not isinstance(initial_states, (list, tuple)) or len(initial_states) != 2:
            raise ValueError("paddle.nn.BiRNN: length of initial_states should be 2 when it is a list/tuple")
        zp = kwargs.pop("_zero_padded_outputs", False)
        out_fw, st_fw = _rnn_loop(self.cell_fw, inputs, initial_states[0], sequence_length, self.time_major, False,
                                  zp, **kwargs)
        out_bw, st_bw = _rnn_loop(self.cell_bw, inputs, initial_states[1], sequence_length, self.time_major, True,
                                  zp, **kwargs)
        return P("concat")([out_fw, out_bw], -1), (st_fw, st_bw)


class RNNBase(LayerList):
    """SimpleRNN / LSTM / GRU: stacked (bi)directional layers with Paddle's state layout
    [num_layers * num_directions, batch, hidden]."""

    _cell_cls: type = SimpleRNNCell
    _mode = "RNN_TANH"

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, cell_kwargs: dict | None = None) -> None:
        super().__init__()
        bidirect = direction in ("bidirect", "bidirectional")
        if direction not in ("forward", "bidirect", "bidirectional"):
            raise ValueError(f"paddle.nn.{type(self).__name__}: direction should be forward or bidirect (or "
                             f"bidirectional), received direction = {direction}")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.num_directions = num_layers, 2 if bidirect else 1
        self.time_major, self.dropout = time_major, dropout
        self.state_components = 2 if mode == "LSTM" else 1
        kw = dict(weight_ih_attr=weight_ih_attr, weight_hh_attr=weight_hh_attr, bias_ih_attr=bias_ih_attr,
                  bias_hh_attr=bias_hh_attr, **(cell_kwargs or {}))
        for i in range(num_layers):
            in_size = input_size if i == 0 else hidden_size * self.num_directions
            if bidirect:
                self.append(BiRNN(self._cell_cls(in_size, hidden_size, **kw),
                                  self._cell_cls(in_size, hidden_size, **kw), time_major))
            else:
                self.append(RNN(self._cell_cls(in_size, hidden_size, **kw), False, time_major))
        # Paddle's flat names for the same parameters come first in state_dict
        flat = {}
        for i, layer in enumerate(self):
            cells = [layer.cell_fw, layer.cell_bw] if bidirect else [layer.cell]
            for d, cell in enumerate(cells):
                suffix = "_reverse" if d == 1 else ""
                for pname in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                    flat[f"{pname}_l{i}{suffix}"] = getattr(cell, pname)
        params = self._parameters
        for k, v in flat.items():
            params[k] = v

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None) -> tuple:
        batch_idx = 1 if self.time_major else 0
        nd = self.num_directions
        weights = []
        for layer in self:
            for cell in ([layer.cell_fw, layer.cell_bw] if nd == 2 else [layer.cell]):
                weights += [cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh]
        if sequence_length is None and all(w is not None for w in weights):
            comps = None if initial_states is None else \
                (list(initial_states) if self.state_components == 2 else [initial_states])
            res = registry.OPS["rnn"].public(inputs, comps, weights, mode=self.mode, num_layers=self.num_layers,
                                             is_bidirec=nd == 2, dropout_prob=self.dropout,
                                             is_test=not self.training, time_major=self.time_major)
            return res[0], (tuple(res[1:]) if self.state_components == 2 else res[1])
        if initial_states is None:
            first = self[0].cell_fw if nd == 2 else self[0].cell
            z = first.get_initial_states(inputs, (self.hidden_size,), dtype=inputs.dtype, batch_dim_idx=batch_idx)
            zeros = P("stack")([z] * (self.num_layers * nd), 0)
            initial_states = (zeros, zeros) if self.state_components == 2 else zeros
        comps = list(initial_states) if self.state_components == 2 else [initial_states]
        per_comp = [P("unbind")(c, 0) for c in comps]

        def layer_states(i: int, d: int) -> Any:
            k = i * nd + d
            return tuple(pc[k] for pc in per_comp) if self.state_components == 2 else per_comp[0][k]

        x = inputs
        finals: list = []
        for i, layer in enumerate(self):
            if i > 0 and self.dropout > 0:
                x = F("dropout")(x, self.dropout, training=self.training, mode="upscale_in_train")
            init = (layer_states(i, 0), layer_states(i, 1)) if nd == 2 else layer_states(i, 0)
            x, st = layer(x, init, sequence_length, _zero_padded_outputs=True)
            finals.extend(st if nd == 2 else [st])
        if self.state_components == 2:
            final = tuple(P("stack")([s[c] for s in finals], 0) for c in range(2))
        else:
            final = P("stack")(finals, 0)
        return x, final

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.num_directions == 2:
            s += ", direction=bidirect"
        return s


class SimpleRNN(RNNBase):
    _cell_cls = SimpleRNNCell

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, activation: str = "tanh", weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        mode = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(activation)
        if mode is None:
            raise ValueError(f"paddle.nn.SimpleRNN: unknown activation '{activation}'")
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr, {"activation": activation})


class LSTM(RNNBase):
    _cell_cls = LSTMCell

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr)


class GRU(RNNBase):
    _cell_cls = GRUCell

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr)


for _cls in (RNNCellBase, SimpleRNNCell, LSTMCell, GRUCell, RNN, BiRNN, SimpleRNN, LSTM, GRU):
    export(_cls, f"paddle.nn.{_cls.__name__}")
