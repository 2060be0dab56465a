"""fluid.contrib BasicGRUUnit / BasicLSTMUnit and basic_gru / basic_lstm (Paddle 1.8's contrib.layers.rnn_impl):
cells composed of fluid.layers (one [input + hidden, k * hidden] matmul per gate group), and multi-layer,
optionally bidirectional, masked RNNs over them with fluid.layers.StaticRNN.

Parameters are created on the first call, named after the unit's scope, e.g.
`basic_lstm_layers_0/BasicLSTMUnit_0.w_0`; named ParamAttrs get `_fw_w_<layer>` / `_bw_w_<layer>` (and `_gate` /
`_candidate` for the GRU's two weights) appended, as Paddle does. Kept quirk: basic_lstm's backward units take
param_attr as their bias_attr when bias_attr has no name."""

from __future__ import annotations

import copy
from typing import Any

from paddle_compat.engine.framework import unique_name
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export

L = "paddle.fluid.layers."


def _l(name: str):
    return P(L + name)


def _suffixed(attr: Any, suffix: str) -> Any:
    if attr is not None and getattr(attr, "name", None) is not None:
        attr = copy.deepcopy(attr)
        attr.name += suffix
    return attr


class _BasicUnit(Layer):
    def __init__(self, name_scope, hidden_size, param_attr=None, bias_attr=None, gate_activation=None,
                 activation=None, dtype="float32"):
        super().__init__(name_scope, dtype)
        self.__dict__["_full_name"] = unique_name.generate(name_scope + "/" + type(self).__name__)
        self._name = name_scope
        self._hiden_size = hidden_size
        self._param_attr = param_attr
        self._bias_attr = bias_attr
        self._gate_activation = gate_activation or _l("sigmoid")
        self._activation = activation or _l("tanh")

    def _gates(self, input, hidden, weight, bias):  # noqa: A002
        x = _l("matmul")(x=_l("concat")([input, hidden], 1), y=weight)
        return _l("elementwise_add")(x, bias)


class BasicGRUUnit(_BasicUnit):
    """fluid.contrib.BasicGRUUnit(name_scope, hidden_size, ...): forward(input, pre_hidden) -> new hidden
    (r, u gates from one matmul; candidate from [input, r * pre_hidden]; u * pre + (1 - u) * c)."""

    def _build(self, input_size: int) -> None:
        h = self._hiden_size
        self._gate_weight = self.create_parameter([input_size + h, 2 * h], _suffixed(self._param_attr, "_gate"))
        self._candidate_weight = self.create_parameter([input_size + h, h],
                                                       _suffixed(self._param_attr, "_candidate"))
        self._gate_bias = self.create_parameter([2 * h], _suffixed(self._bias_attr, "_gate"), is_bias=True)
        self._candidate_bias = self.create_parameter([h], _suffixed(self._bias_attr, "_candidate"), is_bias=True)

    def forward(self, input, pre_hidden):  # noqa: A002
        if "_gate_weight" not in self._parameters:
            self._build(int(input.shape[-1]))
        gate = self._gate_activation(self._gates(input, pre_hidden, self._gate_weight, self._gate_bias))
        r, u = _l("split")(gate, num_or_sections=2, dim=1)
        c = self._activation(self._gates(input, r * pre_hidden, self._candidate_weight, self._candidate_bias))
        return u * pre_hidden + (1 - u) * c


class BasicLSTMUnit(_BasicUnit):
    """fluid.contrib.BasicLSTMUnit(name_scope, hidden_size, ..., forget_bias=1.0): forward(input, pre_hidden,
    pre_cell) -> (new_hidden, new_cell); gates i, j, f, o; c = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j)
    (the gate_activation / activation arguments are stored but, as in Paddle, the cell uses sigmoid / tanh)."""

    def __init__(self, name_scope, hidden_size, param_attr=None, bias_attr=None, gate_activation=None,
                 activation=None, forget_bias=1.0, dtype="float32"):
        super().__init__(name_scope, hidden_size, param_attr, bias_attr, gate_activation, activation, dtype)
        self._forget_bias = _l("fill_constant")([1], dtype=dtype, value=forget_bias)
        self._forget_bias.stop_gradient = False

    def forward(self, input, pre_hidden, pre_cell):  # noqa: A002
        if "_weight" not in self._parameters:
            h = self._hiden_size
            self._weight = self.create_parameter([int(input.shape[-1]) + h, 4 * h], self._param_attr)
            self._bias = self.create_parameter([4 * h], self._bias_attr, is_bias=True)
        i, j, f, o = _l("split")(self._gates(input, pre_hidden, self._weight, self._bias), num_or_sections=4, dim=-1)
        sig, tanh, add, mul = _l("sigmoid"), _l("tanh"), _l("elementwise_add"), _l("elementwise_mul")
        new_cell = add(mul(pre_cell, sig(add(f, self._forget_bias))), mul(sig(i), tanh(j)))
        return tanh(new_cell) * sig(o), new_cell


def _basic_rnn(lstm: bool, input, inits, hidden_size, num_layers, sequence_length, dropout_prob, bidirectional,  # noqa: A002
               batch_first, param_attr, bias_attr, gate_activation, activation, dtype, name, forget_bias):
    """The shared driver of basic_gru (one state) and basic_lstm (hidden and cell)."""

    def units(direction: str, tag: str, scope: str) -> list:
        out = []
        for i in range(num_layers):
            pa = _suffixed(param_attr, f"_{tag}_w_{i}")
            if bias_attr is not None and bias_attr.name is not None:
                ba = _suffixed(bias_attr, f"_{tag}_b_{i}")
            else:
                ba = param_attr if (lstm and direction == "bw") else bias_attr
            if lstm:
                out.append(BasicLSTMUnit(f"{name}_{scope}{i}", hidden_size, param_attr=pa, bias_attr=ba,
                                         gate_activation=gate_activation, activation=activation,
                                         forget_bias=forget_bias, dtype=dtype))
            else:
                out.append(BasicGRUUnit(f"{name}_{scope}{i}", hidden_size, pa, ba, gate_activation, activation,
                                        dtype))
        return out

    fw_units = units("fw", "fw", "layers_")
    bw_units = units("bw", "bw", "reverse_layers_") if bidirectional else None
    if batch_first:
        input = _l("transpose")(input, [1, 0, 2])
    mask = None
    if sequence_length is not None:
        mask = _l("sequence_mask")(sequence_length, maxlen=_l("shape")(input)[0], dtype="float32")
        mask = _l("transpose")(mask, [1, 0])
    dirs = 2 if bidirectional else 1
    n_states = 2 if lstm else 1
    if inits[0] is not None:
        inits = [_l("reshape")(s, shape=[num_layers, dirs, -1, hidden_size]) for s in inits]

    def one_direction(rnn_input, unit_list, mask, d):
        rnn = _l("StaticRNN")()
        # the initial states of this direction, sliced before the step block (memories start from outer values)
        starts = [[s[i, d] for s in inits] for i in range(num_layers)] if inits[0] is not None else None
        with rnn.step():
            step_input = rnn.step_input(rnn_input)
            step_mask = rnn.step_input(mask) if mask is not None else None
            for i in range(num_layers):
                if starts is not None:
                    pre = [rnn.memory(init=s) for s in starts[i]]
                else:
                    pre = [rnn.memory(batch_ref=rnn_input, shape=[-1, hidden_size], ref_batch_dim_idx=1)
                           for _ in range(n_states)]
                new = unit_list[i](step_input, *pre)
                new = list(new) if lstm else [new]
                if step_mask is not None:
                    new = [_l("elementwise_mul")(s, step_mask, axis=0)
                           - _l("elementwise_mul")(p, step_mask - 1, axis=0) for s, p in zip(new, pre)]
                for p, s in zip(pre, new):
                    rnn.update_memory(p, s)
                for s in new:
                    rnn.step_output(s)
                step_input = new[0]
                if dropout_prob is not None and dropout_prob > 0.0:
                    kw = {"dropout_implementation": "upscale_in_train"} if lstm else {}
                    step_input = _l("dropout")(step_input, dropout_prob=dropout_prob, **kw)
            rnn.step_output(step_input)
        outs = rnn()
        lasts = []
        for k in range(n_states):
            last = _l("concat")([outs[i * n_states + k][-1] for i in range(num_layers)], axis=0)
            lasts.append(_l("reshape")(last, shape=[num_layers, -1, hidden_size]))
        return outs[-1], lasts

    out, lasts = one_direction(input, fw_units, mask, 0)
    if bidirectional:
        bw_mask = _l("reverse")(mask, axis=[0]) if mask is not None else None
        bw_out, bw_lasts = one_direction(_l("reverse")(input, axis=[0]), bw_units, bw_mask, 1)
        out = _l("concat")([out, _l("reverse")(bw_out, axis=[0])], axis=2)
        lasts = [_l("reshape")(_l("concat")([f, b], axis=1), shape=[num_layers * dirs, -1, hidden_size])
                 for f, b in zip(lasts, bw_lasts)]
    if batch_first:
        out = _l("transpose")(out, [1, 0, 2])
    return (out, *lasts)


def basic_gru(input, init_hidden, hidden_size, num_layers=1, sequence_length=None, dropout_prob=0.0,  # noqa: A002
              bidirectional=False, batch_first=True, param_attr=None, bias_attr=None, gate_activation=None,
              activation=None, dtype="float32", name="basic_gru"):
    """-> (rnn_out [batch, time, hidden * dirs] (time-major without batch_first), last_hidden
    [layers * dirs, batch, hidden])."""
    return _basic_rnn(False, input, [init_hidden], hidden_size, num_layers, sequence_length, dropout_prob,
                      bidirectional, batch_first, param_attr, bias_attr, gate_activation, activation, dtype, name,
                      None)


def basic_lstm(input, init_hidden, init_cell, hidden_size, num_layers=1, sequence_length=None, dropout_prob=0.0,  # noqa: A002
               bidirectional=False, batch_first=True, param_attr=None, bias_attr=None, gate_activation=None,
               activation=None, forget_bias=1.0, dtype="float32", name="basic_lstm"):
    """-> (rnn_out, last_hidden, last_cell); the last two [layers * dirs, batch, hidden]."""
    inits = [init_hidden, init_cell] if init_hidden is not None else [None, None]
    return _basic_rnn(True, input, inits, hidden_size, num_layers, sequence_length, dropout_prob, bidirectional,
                      batch_first, param_attr, bias_attr, gate_activation, activation, dtype, name, forget_bias)


for _obj in (BasicGRUUnit, BasicLSTMUnit, basic_gru, basic_lstm):
    export(_obj, f"paddle.fluid.contrib.{_obj.__name__}", f"paddle.fluid.contrib.layers.{_obj.__name__}",
           f"paddle.fluid.contrib.layers.rnn_impl.{_obj.__name__}")
