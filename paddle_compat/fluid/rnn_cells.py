"""fluid.layers.rnn with RNNCell / GRUCell / LSTMCell (1.8's BasicGRUUnit / BasicLSTMUnit math).

`rnn` unrolls the cell over the time axis in Python (the time length must be known in static mode, so the
recorded program is straight-line); with `sequence_length`, states stop changing past each sequence's end
and outputs there are zeros, as Paddle's step mask does."""

from __future__ import annotations

from paddle_compat.framework.dispatch import layer_helper
from paddle_compat.ops.control_flow import P
from paddle_compat.ops.registry import export


def _flat(x):
    return [y for e in x for y in _flat(e)] if isinstance(x, (list, tuple)) else [x]


def _pack(like, flat):
    it = iter(flat)

    def rec(s):
        if isinstance(s, (list, tuple)):
            return type(s)(rec(e) for e in s)
        return next(it)

    return rec(like)


class RNNCell:
    """Base class: `call(inputs, states) -> (outputs, new_states)`; `state_shape` gives per-state shapes."""

    def __call__(self, inputs, states, **kwargs):
        return self.call(inputs, states, **kwargs)

    def call(self, inputs, states, **kwargs):
        raise NotImplementedError("RNNCell must implement the call function.")

    def get_initial_states(self, batch_ref, shape=None, dtype="float32", init_value=0, batch_dim_idx=0):
        shape = self.state_shape if shape is None else shape
        if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (list, tuple)):
            return [self.get_initial_states(batch_ref, s, dtype, init_value, batch_dim_idx) for s in shape]
        ref_dim = batch_ref.shape[batch_dim_idx]
        if ref_dim >= 0:
            return P("paddle.full")([ref_dim] + list(shape), init_value, dtype)
        return P("paddle.fluid.layers.fill_constant_batch_size_like")(batch_ref, [-1] + list(shape), dtype,
                                                                      init_value, input_dim_idx=batch_dim_idx)

    @property
    def state_shape(self):
        raise NotImplementedError


class GRUCell(RNNCell):
    """r, u = sigmoid([x, h] W_g + b_g); c = tanh([x, r * h] W_c + b_c); h' = u * h + (1 - u) * c."""

    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None, activation=None,
                 dtype="float32", name="GRUCell"):
        self.hidden_size, self.param_attr, self.bias_attr = hidden_size, param_attr, bias_attr
        self.gate_act = gate_activation or P("paddle.nn.functional.sigmoid")
        self.act = activation or P("paddle.tanh")
        self.dtype, self.name, self._params = dtype, name, None

    def _build(self, in_size):
        from paddle_compat.static.param import create_parameter_impl

        h = self.hidden_size
        with layer_helper(self.name) as prefix:
            self._params = (
                create_parameter_impl([in_size + h, 2 * h], self.dtype, self.param_attr, False, prefix=prefix),
                create_parameter_impl([in_size + h, h], self.dtype, self.param_attr, False, prefix=prefix),
                create_parameter_impl([2 * h], self.dtype, self.bias_attr, True, prefix=prefix),
                create_parameter_impl([h], self.dtype, self.bias_attr, True, prefix=prefix))

    def call(self, inputs, states):
        if self._params is None:
            self._build(inputs.shape[-1])
        gw, cw, gb, cb = self._params
        xh = P("paddle.concat")([inputs, states], axis=1)
        g = P("paddle.matmul")(xh, gw)
        if gb is not None:
            g = P("paddle.add")(g, gb)
        r, u = P("paddle.split")(self.gate_act(g), 2, axis=1)
        c = P("paddle.matmul")(P("paddle.concat")([inputs, P("paddle.multiply")(r, states)], axis=1), cw)
        if cb is not None:
            c = P("paddle.add")(c, cb)
        c = self.act(c)
        new_h = P("paddle.add")(P("paddle.multiply")(u, states),
                                P("paddle.multiply")(P("paddle.scale")(u, -1.0, bias=1.0), c))
        return new_h, new_h

    @property
    def state_shape(self):
        return [self.hidden_size]


class LSTMCell(RNNCell):
    """i, j, f, o = [x, h] W + b; c' = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j); h' = tanh(c') * sigmoid(o)."""

    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None, activation=None,
                 forget_bias=1.0, dtype="float32", name="LSTMCell"):
        self.hidden_size, self.param_attr, self.bias_attr = hidden_size, param_attr, bias_attr
        self.gate_act = gate_activation or P("paddle.nn.functional.sigmoid")
        self.act = activation or P("paddle.tanh")
        self.forget_bias, self.dtype, self.name, self._params = float(forget_bias), dtype, name, None

    def call(self, inputs, states):
        from paddle_compat.static.param import create_parameter_impl

        h_prev, c_prev = states
        if self._params is None:
            h = self.hidden_size
            with layer_helper(self.name) as prefix:
                self._params = (
                    create_parameter_impl([inputs.shape[-1] + h, 4 * h], self.dtype, self.param_attr, False,
                                          prefix=prefix),
                    create_parameter_impl([4 * h], self.dtype, self.bias_attr, True, prefix=prefix))
        w, b = self._params
        g = P("paddle.matmul")(P("paddle.concat")([inputs, h_prev], axis=1), w)
        if b is not None:
            g = P("paddle.add")(g, b)
        i, j, f, o = P("paddle.split")(g, 4, axis=1)
        c = P("paddle.add")(P("paddle.multiply")(c_prev, self.gate_act(P("paddle.scale")(f, 1.0,
                                                                                          bias=self.forget_bias))),
                            P("paddle.multiply")(self.gate_act(i), self.act(j)))
        h = P("paddle.multiply")(self.act(c), self.gate_act(o))
        return h, [h, c]

    @property
    def state_shape(self):
        return [[self.hidden_size], [self.hidden_size]]


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False, is_reverse=False, **kwargs):
    """Returns (outputs [batch, time, ...] (or time-major), final_states)."""
    if not isinstance(cell, RNNCell):
        raise TypeError("fluid.layers.rnn: cell must be an instance of RNNCell")
    flat_in = _flat(inputs)
    t_axis = 0 if time_major else 1
    steps = flat_in[0].shape[t_axis]
    if steps < 0:
        raise ValueError("fluid.layers.rnn: the time dimension of inputs must be known (it is unrolled), got "
                         f"shape {list(flat_in[0].shape)}")
    if initial_states is None:
        initial_states = cell.get_initial_states(flat_in[0], batch_dim_idx=1 if time_major else 0)
    states = initial_states
    mask = None
    if sequence_length is not None:
        mask = P("paddle.cast")(P("paddle.fluid.layers.sequence_mask")(sequence_length, maxlen=steps), flat_in[0].dtype)
    order = range(steps - 1, -1, -1) if is_reverse else range(steps)
    outs = {}
    for t in order:
        step_in = _pack(inputs, [P("paddle.squeeze")(P("paddle.slice")(x, [t_axis], [t], [t + 1]), [t_axis])
                                 for x in flat_in])
        out, new_states = cell(step_in, states, **kwargs)
        if mask is not None:
            m = P("paddle.slice")(mask, [1], [t], [t + 1])  # [batch, 1]
            new_flat = [P("paddle.add")(P("paddle.multiply")(n, m),
                                        P("paddle.multiply")(o, P("paddle.scale")(m, -1.0, bias=1.0)))
                        for n, o in zip(_flat(new_states), _flat(states))]
            new_states = _pack(new_states, new_flat)
            out = _pack(out, [P("paddle.multiply")(x, m) for x in _flat(out)])
        states = new_states
        outs[t] = out
    seq = [outs[t] for t in range(steps)]
    flat_outs = [P("paddle.stack")([_flat(o)[k] for o in seq], axis=t_axis) for k in range(len(_flat(seq[0])))]
    return _pack(seq[0], flat_outs), states


for _o in (RNNCell, GRUCell, LSTMCell, rnn):
    export(_o, f"paddle.fluid.layers.{_o.__name__}")
