"""fluid.layers.rnn with RNNCell / GRUCell / LSTMCell (1.8's BasicGRUUnit / BasicLSTMUnit math).

In static mode `rnn` records the cell once into a StaticRNN step, as Paddle 1.8 does (its time length may be
unknown until the program runs); in dygraph it calls the cell step by step. With `sequence_length`, states stop
changing past each sequence's end (the step outputs there are the cell's outputs)."""

from __future__ import annotations

from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export


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
    """Paddle 1.8's GRUCell: a wrapper of fluid.contrib's BasicGRUUnit(name, ...) (fluid/contrib_rnn.py), so its
    parameters are `GRUCell/BasicGRUUnit_0.w_0` (gates), `.w_1` (candidate), `.b_0`, `.b_1`, made on the first
    call; r, u = act_g([x, h] W_g + b_g); c = act([x, r * h] W_c + b_c); h' = u * h + (1 - u) * c."""

    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None, activation=None,
                 dtype="float32", name="GRUCell"):
        from paddle_compat.fluid.contrib_rnn import BasicGRUUnit

        self.hidden_size = hidden_size
        self.gru_unit = BasicGRUUnit(name, hidden_size, param_attr, bias_attr, gate_activation, activation, dtype)

    def call(self, inputs, states):
        new_hidden = self.gru_unit(inputs, states)
        return new_hidden, new_hidden

    @property
    def state_shape(self):
        return [self.hidden_size]


class LSTMCell(RNNCell):
    """Paddle 1.8's LSTMCell: a wrapper of fluid.contrib's BasicLSTMUnit(name, ..., forget_bias) (parameters
    `LSTMCell/BasicLSTMUnit_0.w_0` / `.b_0`); i, j, f, o = [x, h] W + b;
    c' = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j); h' = tanh(c') * sigmoid(o)."""

    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None, activation=None,
                 forget_bias=1.0, dtype="float32", name="LSTMCell"):
        from paddle_compat.fluid.contrib_rnn import BasicLSTMUnit

        self.hidden_size = hidden_size
        self.lstm_unit = BasicLSTMUnit(name, hidden_size, param_attr, bias_attr, gate_activation, activation,
                                       forget_bias, dtype)

    def call(self, inputs, states):
        pre_hidden, pre_cell = states
        new_hidden, new_cell = self.lstm_unit(inputs, pre_hidden, pre_cell)
        return new_hidden, [new_hidden, new_cell]

    @property
    def state_shape(self):
        return [[self.hidden_size], [self.hidden_size]]


def _step(cell, inputs, flat_in, t_axis, t, states, sequence_length, kwargs):
    """One time step: the cell on inputs[t]; with sequence_length, states past a sequence's end keep their value
    (Paddle's step mask; the outputs stay the cell's). t is an int."""
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
    return out, new_states


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False, is_reverse=False, **kwargs):
    """Returns (outputs [batch, time, ...] (or time-major), final_states). Static mode records the cell once in a
    StaticRNN step, as Paddle 1.8 does (_rnn_static); dygraph runs it step by step."""
    if not isinstance(cell, RNNCell):
        raise TypeError("fluid.layers.rnn: cell must be an instance of RNNCell")
    if MODE.static:
        return _rnn_static(cell, inputs, initial_states, sequence_length, time_major, is_reverse, kwargs)
    flat_in = _flat(inputs)
    t_axis = 0 if time_major else 1
    steps = flat_in[0].shape[t_axis]
    if initial_states is None:
        initial_states = cell.get_initial_states(flat_in[0], batch_dim_idx=1 if time_major else 0)
    states = initial_states
    outs = {}
    for t in (range(steps - 1, -1, -1) if is_reverse else range(steps)):
        outs[t], states = _step(cell, inputs, flat_in, t_axis, t, states, sequence_length, kwargs)
    seq = [outs[t] for t in range(steps)]
    flat_outs = [P("paddle.stack")([_flat(o)[k] for o in seq], axis=t_axis) for k in range(len(_flat(seq[0])))]
    return _pack(seq[0], flat_outs), states


def _rnn_static(cell, inputs, initial_states, sequence_length, time_major, is_reverse, kwargs):
    """Paddle 1.8's static rnn (fluid/layers/rnn.py): the inputs go time-major into a StaticRNN whose step calls
    cell.call once (a cell that makes parameters in `call` makes them once, shared by every step); with
    sequence_length, a [time, batch] sequence_mask keeps each sequence's states past its end (the step outputs
    there are the cell's outputs, not zeros); final states are the last step's."""
    fl = "paddle.fluid.layers."

    def transpose_batch_time(x):
        return P(fl + "transpose")(x, [1, 0] + list(range(2, len(x.shape))))

    def maybe_copy(state, new_state, step_mask):
        ew_mul, ew_sub = P(fl + "elementwise_mul"), P(fl + "elementwise_sub")
        return ew_sub(ew_mul(new_state, step_mask, axis=0),
                      ew_mul(state, P(fl + "scale")(step_mask, 1.0, -1.0), axis=0))

    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=_flat(inputs)[0], batch_dim_idx=1 if time_major else 0)
    for s in _flat(initial_states):
        s.stop_gradient = False
    if not time_major:
        inputs = _pack(inputs, [transpose_batch_time(x) for x in _flat(inputs)])
    mask = None
    if sequence_length is not None:
        max_seq_len = P(fl + "shape")(_flat(inputs)[0])[0]
        mask = P(fl + "sequence_mask")(sequence_length, maxlen=max_seq_len, dtype=_flat(initial_states)[0].dtype)
        mask = P(fl + "transpose")(mask, [1, 0])
    if is_reverse:
        inputs = _pack(inputs, [P(fl + "reverse")(x, axis=[0]) for x in _flat(inputs)])
        mask = P(fl + "reverse")(mask, axis=[0]) if mask is not None else None
    srnn = P(fl + "StaticRNN")()
    with srnn.step():
        step_in = _pack(inputs, [srnn.step_input(x) for x in _flat(inputs)])
        states = _pack(initial_states, [srnn.memory(init=x) for x in _flat(initial_states)])
        outputs, new_states = cell.call(step_in, states, **kwargs)
        if mask is not None:
            step_mask = srnn.step_input(mask)
            new_states = _pack(new_states, [maybe_copy(o, n, step_mask)
                                            for o, n in zip(_flat(states), _flat(new_states))])
        for o, n in zip(_flat(states), _flat(new_states)):
            srnn.update_memory(o, n)
        flat_outputs = _flat(outputs)
        for x in flat_outputs + _flat(new_states):
            srnn.step_output(x)
    res = srnn()
    res = list(res) if isinstance(res, (list, tuple)) else [res]
    final_outputs = res[:len(flat_outputs)]
    final_states = _pack(new_states, [x[-1] for x in res[len(flat_outputs):]])
    if is_reverse:
        final_outputs = [P(fl + "reverse")(x, axis=[0]) for x in final_outputs]
    if not time_major:
        final_outputs = [transpose_batch_time(x) for x in final_outputs]
    return _pack(outputs, final_outputs), final_states


for _o in (RNNCell, GRUCell, LSTMCell, rnn):
    export(_o, f"paddle.fluid.layers.{_o.__name__}")
