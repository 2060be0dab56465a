"""fluid.layers decoding helpers of Paddle 1.8 (layers/rnn.py): Decoder, DecodeHelper, TrainingHelper,
GreedyEmbeddingHelper, SampleEmbeddingHelper and BasicDecoder.

They compose registry ops only, so a decoder step records in static mode and runs in dygraph. `Decoder` is the
one base class of paddle.nn.decode (BeamSearchDecoder derives from it there); a BasicDecoder runs under
paddle.nn.dynamic_decode in dygraph (it does not track its own finished flags, so dynamic_decode ORs them and
counts lengths), or step by step (initialize / step) in either mode."""

from __future__ import annotations

from paddle_compat.engine.core.dtype import dtype_name as _dtype_name

import collections

from paddle_compat.paddle2.nn.decode import Decoder, _map
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export


def _fl(name):
    return P(f"paddle.fluid.layers.{name}")


class DecodeHelper:
    """Interface: initialize() -> (initial_inputs, initial_finished); sample(time, outputs, states) -> sample_ids;
    next_inputs(time, outputs, states, sample_ids) -> (finished, next_inputs, next_states)."""

    def initialize(self):
        pass

    def sample(self, time, outputs, states):
        pass

    def next_inputs(self, time, outputs, states, sample_ids):
        pass


class TrainingHelper(DecodeHelper):
    """Teacher forcing: the step-t input is inputs[:, t] (inputs[t] when time_major); a sequence is finished once
    time + 1 >= its length; sample ids are the argmax of the outputs."""

    def __init__(self, inputs, sequence_length, time_major=False):
        self.inputs = inputs
        self.sequence_length = sequence_length
        self.time_major = time_major
        # one step of zero padding on the time axis, so slicing time + 1 never runs out of range (as Paddle)
        self.inputs_ = _map(lambda x: _fl("pad")(
            x, paddings=([0, 1] + [0, 0] * (len(x.shape) - 1)) if time_major
            else ([0, 0, 0, 1] + [0, 0] * (len(x.shape) - 2))), self.inputs)

    def initialize(self):
        init_finished = _fl("equal")(self.sequence_length,
                                     _fl("fill_constant")([1], self.sequence_length.dtype, 0))
        init_inputs = _map(lambda x: _fl("squeeze")(_fl("slice")(x, [0 if self.time_major else 1], [0], [1]),
                                                    [0 if self.time_major else 1]), self.inputs)
        return init_inputs, init_finished

    def sample(self, time, outputs, states):
        return _fl("argmax")(outputs, axis=-1)

    def next_inputs(self, time, outputs, states, sample_ids):
        if _dtype_name(time.dtype) != "int32":
            time = _fl("cast")(time, "int32")
        if self.sequence_length.dtype != time.dtype:
            self.sequence_length = _fl("cast")(self.sequence_length, time.dtype)
        next_time = P("paddle.add")(time, _fl("fill_constant")([1], time.dtype, 1))
        finished = _fl("less_equal")(self.sequence_length, next_time)
        axis = 0 if self.time_major else 1
        # x[:, next_time] (a gather: the slice bound is a tensor, and the gathered dim stays known statically)
        next_inputs = _map(lambda x: _fl("squeeze")(P("paddle.gather")(x, next_time, axis=axis), [axis]),
                           self.inputs_)
        return finished, next_inputs, states


class GreedyEmbeddingHelper(DecodeHelper):
    """Feeds back embedding_fn(argmax(outputs)); a sequence finishes when it emits end_token."""

    def __init__(self, embedding_fn, start_tokens, end_token):
        self.embedding_fn = embedding_fn
        self.start_tokens = start_tokens
        self.end_token = _fl("fill_constant")([1], "int64", end_token)

    def initialize(self):
        init_finished = _fl("fill_constant_batch_size_like")(self.start_tokens, [-1], "bool", False)
        return self.embedding_fn(self.start_tokens), init_finished

    def sample(self, time, outputs, states):
        return _fl("argmax")(outputs, axis=-1)

    def next_inputs(self, time, outputs, states, sample_ids):
        finished = _fl("equal")(sample_ids, self.end_token)
        return finished, self.embedding_fn(sample_ids), states


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """Like GreedyEmbeddingHelper, but samples ids from softmax(outputs / softmax_temperature) (sampling_id)."""

    def __init__(self, embedding_fn, start_tokens, end_token, softmax_temperature=None, seed=None):
        super().__init__(embedding_fn, start_tokens, end_token)
        self.softmax_temperature = (_fl("fill_constant")([1], "float32", softmax_temperature)
                                    if softmax_temperature is not None else None)
        self.seed = seed

    def sample(self, time, outputs, states):
        logits = (P("paddle.divide")(outputs, self.softmax_temperature) if self.softmax_temperature is not None
                  else outputs)
        probs = _fl("softmax")(logits)
        probs.stop_gradient = True
        return _fl("sampling_id")(probs, seed=self.seed or 0, dtype=self.start_tokens.dtype)


class BasicDecoder(Decoder):
    """cell + DecodeHelper (+ output_fn): step returns (OutputWrapper(cell_outputs, sample_ids), next_states,
    next_inputs, finished)."""

    class OutputWrapper(collections.namedtuple("OutputWrapper", ("cell_outputs", "sample_ids"))):
        pass

    def __init__(self, cell, helper, output_fn=None):
        self.cell = cell
        self.helper = helper
        self.output_fn = output_fn

    def initialize(self, initial_cell_states):
        initial_inputs, initial_finished = self.helper.initialize()
        return initial_inputs, initial_cell_states, initial_finished

    def step(self, time, inputs, states, **kwargs):
        cell_outputs, cell_states = self.cell(inputs, states, **kwargs)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        sample_ids = self.helper.sample(time=time, outputs=cell_outputs, states=cell_states)
        sample_ids.stop_gradient = True
        finished, next_inputs, next_states = self.helper.next_inputs(time=time, outputs=cell_outputs,
                                                                     states=cell_states, sample_ids=sample_ids)
        return self.OutputWrapper(cell_outputs, sample_ids), next_states, next_inputs, finished


for _c in (Decoder, DecodeHelper, TrainingHelper, GreedyEmbeddingHelper, SampleEmbeddingHelper, BasicDecoder):
    export(_c, f"paddle.fluid.layers.{_c.__name__}")
