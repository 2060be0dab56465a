"""fluid.layers.rnn with RNNCell / GRUCell / LSTMCell (1.8's BasicGRUUnit / BasicLSTMUnit math).

`rnn` unrolls the cell over the time axis in Python when the time length is known (the recorded program is
straight-line), and runs it in a while_loop when it is not (static mode, a [None, None, D] input); with
`sequence_length`, states stop changing past each sequence's end and outputs there are zeros, as Paddle's step
mask does."""

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


def _step(cell, inputs, flat_in, t_axis, t, states, sequence_length, kwargs):
    """One time step: the cell on inputs[t]; with sequence_length, states past a sequence's end keep their value
    and its outputs are zeros (Paddle's step mask). t is an int (unrolled) or an int64 [1] Variable (loop)."""
    if isinstance(t, int):
        step_x = [P("paddle.squeeze")(P("paddle.slice")(x, [t_axis], [t], [t + 1]), [t_axis]) for x in flat_in]
    else:
        step_x = [P("paddle.squeeze")(P("paddle.gather")(x, t, axis=t_axis), [t_axis]) for x in flat_in]
    out, new_states = cell(_pack(inputs, step_x), states, **kwargs)
    if sequence_length is not None:
        tt = t if not isinstance(t, int) else P("paddle.fluid.layers.fill_constant")([1], "int64", t)
        m = P("paddle.cast")(P("paddle.unsqueeze")(P("paddle.less_than")(
            P("paddle.expand_as")(tt, sequence_length), P("paddle.cast")(sequence_length, "int64")), [1]),
            flat_in[0].dtype)  # [batch, 1]
        new_flat = [P("paddle.add")(P("paddle.multiply")(n, m), P("paddle.multiply")(o, P("paddle.scale")(m, -1.0,
                                                                                                          bias=1.0)))
                    for n, o in zip(_flat(new_states), _flat(states))]
        new_states = _pack(new_states, new_flat)
        out = _pack(out, [P("paddle.multiply")(x, m) for x in _flat(out)])
    return out, new_states


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False, is_reverse=False, **kwargs):
    """Returns (outputs [batch, time, ...] (or time-major), final_states). A known time length is unrolled; an
    unknown one (static mode, e.g. fluid.data(shape=[None, None, D])) runs in a while_loop over the fed length."""
    if not isinstance(cell, RNNCell):
        raise TypeError("fluid.layers.rnn: cell must be an instance of RNNCell")
    flat_in = _flat(inputs)
    t_axis = 0 if time_major else 1
    steps = flat_in[0].shape[t_axis]
    if initial_states is None:
        initial_states = cell.get_initial_states(flat_in[0], batch_dim_idx=1 if time_major else 0)
    if steps < 0:
        return _rnn_loop(cell, inputs, flat_in, t_axis, initial_states, sequence_length, is_reverse, kwargs)
    states = initial_states
    outs = {}
    for t in (range(steps - 1, -1, -1) if is_reverse else range(steps)):
        outs[t], states = _step(cell, inputs, flat_in, t_axis, t, states, sequence_length, kwargs)
    seq = [outs[t] for t in range(steps)]
    flat_outs = [P("paddle.stack")([_flat(o)[k] for o in seq], axis=t_axis) for k in range(len(_flat(seq[0])))]
    return _pack(seq[0], flat_outs), states


def _rnn_loop(cell, inputs, flat_in, t_axis, initial_states, sequence_length, is_reverse, kwargs):
    """The time length is only known when the program runs: the first step (it creates the cell's parameters
    and fixes the outputs' structure) is recorded once, the others in a while_loop that appends each step's
    outputs along the time axis (in front of them when is_reverse). Gradients flow through the loop."""
    fill = P("paddle.fluid.layers.fill_constant")
    n = P("paddle.cast")(P("paddle.slice")(P("paddle.shape")(flat_in[0]), [0], [t_axis], [t_axis + 1]), "int64")
    first = P("paddle.scale")(n, 1.0, bias=-1.0) if is_reverse else fill([1], "int64", 0)
    out, states = _step(cell, inputs, flat_in, t_axis, first, initial_states, sequence_length, kwargs)
    acc = [P("paddle.unsqueeze")(o, [t_axis]) for o in _flat(out)]
    flat_states = _flat(states)
    k_out = len(acc)

    def cond(i, *rest):
        return P("paddle.less_than")(i, n)

    def body(i, *rest):
        acc_i, st = list(rest[:k_out]), _pack(states, list(rest[k_out:]))
        t = P("paddle.subtract")(P("paddle.scale")(n, 1.0, bias=-1.0), i) if is_reverse else i
        o, new_st = _step(cell, inputs, flat_in, t_axis, t, st, sequence_length, kwargs)
        new_acc = [P("paddle.concat")([P("paddle.unsqueeze")(x, [t_axis]), a] if is_reverse else
                                      [a, P("paddle.unsqueeze")(x, [t_axis])], axis=t_axis)
                   for a, x in zip(acc_i, _flat(o))]
        return [P("paddle.scale")(i, 1.0, bias=1.0)] + new_acc + _flat(new_st)

    res = P("paddle.static.nn.while_loop")(cond, body, [fill([1], "int64", 1)] + acc + flat_states)
    return _pack(out, list(res[1:1 + k_out])), _pack(states, list(res[1 + k_out:]))


for _o in (RNNCell, GRUCell, LSTMCell, rnn):
    export(_o, f"paddle.fluid.layers.{_o.__name__}")
