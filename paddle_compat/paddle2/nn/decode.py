"""BeamSearchDecoder and dynamic_decode (dygraph, and a While loop in static mode), with Paddle's beam bookkeeping: beams start with log-probs
[0, -1e9, ...], finished beams can only emit `end_token` (at no cost), the top `beam_size` of
beam_size * vocab candidates are kept (parent beam = index // vocab, token = index % vocab), and `finalize`
backtracks with gather_tree. The per-step selection is one op (`beam_search_decode_step`)."""

from __future__ import annotations

import collections
import warnings
from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.dtype import dtype_name as _dtype_name
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.lookup import F, P
from paddle_compat.engine.framework.registry import export, op

KINF = 1e9


def _map(fn: Any, *structs: Any) -> Any:
    s0 = structs[0]
    if isinstance(s0, tuple) and hasattr(s0, "_fields"):
        return type(s0)(*[_map(fn, *xs) for xs in zip(*structs)])
    if isinstance(s0, (list, tuple)):
        return type(s0)(_map(fn, *xs) for xs in zip(*structs))
    return fn(*structs)


@op("beam_search_decode_step", differentiable=False)
def beam_search_decode_step(logits, log_probs, finished, lengths, beam_size, end_token):
    """logits [B, beam, V]; returns topk scores, token ids, parent beams, next log-probs, finished, lengths."""
    b, k, v = logits.shape
    step = torch.log_softmax(logits, dim=-1)
    noend = torch.full((v,), -KINF, dtype=step.dtype, device=step.device)
    noend[end_token] = 0.0
    fin = finished.to(step.dtype).unsqueeze(-1)
    step = fin * noend + step * (1.0 - fin)
    total = (step + log_probs.unsqueeze(-1)).reshape(b, k * v)
    scores, idx = torch.topk(total, beam_size, dim=-1)
    parents = torch.div(idx, v, rounding_mode="floor")
    tokens = idx % v
    next_fin = torch.gather(finished, 1, parents)
    next_len = torch.gather(lengths, 1, parents) + (~next_fin).to(lengths.dtype)
    next_fin = next_fin | (tokens == end_token)
    return scores, tokens, parents, scores.clone(), next_fin, next_len


class Decoder:
    def initialize(self, inits: Any) -> Any:
        raise NotImplementedError

    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> Any:
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        return False


class BeamSearchDecoder(Decoder):
    OutputWrapper = collections.namedtuple("OutputWrapper", ("scores", "predicted_ids", "parent_ids"))
    StateWrapper = collections.namedtuple("StateWrapper", ("cell_states", "log_probs", "finished", "lengths"))

    def __init__(self, cell: Any, start_token: int, end_token: int, beam_size: int, embedding_fn: Any = None,
                 output_fn: Any = None) -> None:
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = int(start_token), int(end_token), int(beam_size)

    @staticmethod
    def tile_beam_merge_with_batch(x: Any, beam_size: int) -> Any:
        """[batch, ...] -> [batch * beam_size, ...], each row repeated beam_size times consecutively."""
        x = P("unsqueeze")(x, [1])
        x = P("tile")(x, [1, beam_size] + [1] * (len(x.shape) - 2))
        return P("reshape")(x, [-1] + list(x.shape[2:]))

    def _split_batch_beams(self, x: Any) -> Any:
        return P("reshape")(x, [-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x: Any) -> Any:
        return P("reshape")(x, [-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x: Any) -> Any:
        x = P("unsqueeze")(x, [1])
        return P("tile")(x, [1, self.beam_size] + [1] * (len(x.shape) - 2))

    def initialize(self, initial_cell_states: Any) -> tuple:
        from paddle_compat.engine.framework.tensor import Tensor

        first = initial_cell_states
        while isinstance(first, (list, tuple)):
            first = first[0]
        # in a Program the batch size is the runtime one (Paddle: paddle.shape(initial_cell_states)[0])
        self.batch_size = first.shape[0] if isinstance(first, Tensor) else P("shape")(first)[0]
        cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        inputs = P("full")([self.batch_size, self.beam_size], self.start_token, "int64")
        dtype = "float64" if _dt.get_default_dtype() == "float64" else "float32"
        row = np.array([[0.0] + [-KINF] * (self.beam_size - 1)], dtype=dtype)
        log_probs = P("tile")(P("assign")(row), [self.batch_size, 1])
        finished = P("full")([self.batch_size, self.beam_size], False, "bool")
        lengths = P("zeros_like")(inputs)
        if self.embedding_fn is not None:
            inputs = self.embedding_fn(inputs)
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> tuple:
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        vocab = cell_outputs.shape[-1]
        if not 0 <= self.end_token < vocab:  # Paddle fails here too, in Python (noend_array[end_token] = 0)
            raise IndexError(f"paddle.nn.BeamSearchDecoder: end_token {self.end_token} is not one of the {vocab} "
                             "tokens the cell's output scores (list assignment index out of range)")
        scores, tokens, parents, next_lp, next_fin, next_len = beam_search_decode_step(
            cell_outputs, states.log_probs, states.finished, states.lengths, self.beam_size, self.end_token)

        def gather(x: Any) -> Any:  # each beam's state follows its parent beam
            idx = P("reshape")(parents, [-1, self.beam_size] + [1] * (len(x.shape) - 2))
            return P("take_along_axis")(x, idx, 1)

        next_cell_states = _map(gather, next_cell_states)
        out = self.OutputWrapper(scores, tokens, parents)
        state = self.StateWrapper(next_cell_states, next_lp, next_fin, next_len)
        next_inputs = self.embedding_fn(tokens) if self.embedding_fn is not None else tokens
        return out, state, next_inputs, next_fin

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> tuple:
        return F("gather_tree", "paddle.nn.BeamSearchDecoder")(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True


def dynamic_decode(decoder: Decoder, inits: Any = None, max_step_num: int | None = None,
                   output_time_major: bool = False, impute_finished: bool = False, is_test: bool = False,
                   return_length: bool = False, **kwargs: Any) -> tuple:
    """Runs decoder.step until every sequence is finished (or max_step_num + 1 steps), stacks the step outputs
    on a time axis and calls decoder.finalize. In static mode the steps run in a While loop (_static_decode)."""
    if MODE.static:
        return _static_decode(decoder, inits, max_step_num, output_time_major, impute_finished, is_test,
                              return_length, **kwargs)
    inputs, states, finished = decoder.initialize(inits)
    seq_len = P("cast")(P("zeros_like")(finished), "int64")
    steps: list = []
    step = 0
    while not bool(finished._t.all()):
        time = P("full")([1], step, "int64")
        out, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = P("logical_or")(next_finished, finished)
            next_len = P("add")(seq_len, P("cast")(P("logical_not")(finished), "int64"))
            if impute_finished:
                m = P("cast")(finished, "float32")

                def keep(old: Any, new: Any, m: Any = m) -> Any:
                    mm = P("reshape")(m, list(m.shape) + [1] * (len(new.shape) - len(m.shape)))
                    return P("add")(P("multiply")(old, mm), P("multiply")(new, P("scale")(mm, -1.0, 1.0)))

                next_states = _map(keep, states, next_states)
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned `sequence_lengths` would be "
                              "all zeros.", stacklevel=2)
            next_len = getattr(next_states, "lengths", seq_len)
        steps.append(out)
        inputs, states, finished, seq_len = next_inputs, next_states, next_finished, next_len
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    outputs = _map(lambda *xs: P("stack")(list(xs), 0), *steps)
    return _finish(decoder, outputs, states, seq_len, output_time_major, return_length, P("transpose"))


def _finish(decoder: Decoder, outputs: Any, states: Any, lengths: Any, output_time_major: bool,
            return_length: bool, transpose: Any) -> tuple:
    """What both forms of dynamic_decode end with: decoder.finalize (where it has one), batch-major outputs unless
    output_time_major, and the returned tuple."""
    try:
        outputs, states = decoder.finalize(outputs, states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        outputs = _map(lambda x: transpose(x, [1, 0] + list(range(2, len(x.shape)))), outputs)
    return (outputs, states, lengths) if return_length else (outputs, states)


def _static_decode(decoder: Decoder, inits: Any, max_step_num: int | None, output_time_major: bool,
                   impute_finished: bool, is_test: bool, return_length: bool, **kwargs: Any) -> tuple:
    """Paddle 1.8's static dynamic_decode (fluid/layers/rnn.py): one decoder step recorded in the body of a While
    loop, whose condition is `not all(finished) and step <= max_step_num`; the step inputs and states go through
    tensor arrays indexed by the step (kept for the backward; is_test overwrites the initial variables instead),
    the step outputs into arrays made in the parent block once their dtypes are known, stacked on axis 0 after
    the loop. A finished sequence stops counting length; impute_finished keeps its states. Parameters the step
    makes are made once, as in Paddle (tests/fluid/cases_layers18.py dec_*). A decoder that tracks its own finished
    flags (BeamSearchDecoder) gives them and the lengths itself, as in Paddle 2.x (tests/api2x/test_static26.py)."""
    from paddle_compat.fluid.contrib_decoder import _in_parent_block
    from paddle_compat.engine.ops.control_flow import P as exported

    def L(name: str) -> Any:  # noqa: N802
        return exported(f"paddle.fluid.layers.{name}")

    initial_inputs, initial_states, initial_finished = decoder.initialize(inits)
    global_inputs, global_states, global_finished = initial_inputs, initial_states, initial_finished
    global_finished.stop_gradient = True
    step_idx = L("fill_constant")([1], "int64", 0)
    cond = L("logical_not")(L("reduce_all")(initial_finished))
    max_step = L("fill_constant")([1], "int64", max_step_num) if max_step_num is not None else None
    loop = L("While")(cond, is_test=is_test)
    sequence_lengths = L("cast")(L("zeros_like")(initial_finished), "int64")
    sequence_lengths.stop_gradient = True
    if is_test:
        inputs, states = initial_inputs, initial_states
    else:
        inputs_arrays = _map(lambda x: L("array_write")(x, step_idx), initial_inputs)
        states_arrays = _map(lambda x: L("array_write")(x, step_idx), initial_states)

    def maybe_copy(state: Any, new_state: Any, step_mask: Any) -> Any:
        dtype = state.dtype
        is_bool = _dtype_name(dtype) in ("bool", "bool_")
        if is_bool:
            state, new_state = L("cast")(state, "float32"), L("cast")(new_state, "float32")
        if step_mask.dtype != state.dtype:
            step_mask = L("cast")(step_mask, state.dtype)
            step_mask.stop_gradient = True
        new_state = L("elementwise_sub")(L("elementwise_mul")(state, step_mask, axis=0),
                                         L("elementwise_mul")(new_state, L("scale")(step_mask, 1.0, -1.0), axis=0))
        return L("cast")(new_state, dtype) if is_bool else new_state

    def new_array(x: Any) -> Any:
        with _in_parent_block("fluid.layers.dynamic_decode"):
            return L("create_array")(x.dtype)

    with loop.block():
        if not is_test:
            inputs = _map(lambda a: L("array_read")(a, step_idx), inputs_arrays)
            states = _map(lambda a: L("array_read")(a, step_idx), states_arrays)
        outputs, next_states, next_inputs, next_finished = decoder.step(step_idx, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = L("logical_or")(next_finished, global_finished)
            next_lengths = L("elementwise_add")(sequence_lengths,
                                                L("cast")(L("logical_not")(global_finished), sequence_lengths.dtype))
            if impute_finished:
                next_states = _map(lambda x, y: maybe_copy(x, y, global_finished), states, next_states)
        else:  # BeamSearchDecoder: its step keeps finished and the lengths itself (Paddle 2.x's form)
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned `sequence_lengths` would be "
                              "all zeros.", stacklevel=2)
            next_lengths = getattr(next_states, "lengths", sequence_lengths)
        outputs_arrays = _map(new_array, outputs)
        _map(lambda x, a: L("array_write")(x, i=step_idx, array=a), outputs, outputs_arrays)
        L("increment")(step_idx, 1.0, in_place=True)
        if is_test:
            _map(lambda x, g: L("assign")(x, output=g), next_inputs, global_inputs)
            _map(lambda x, g: L("assign")(x, output=g), next_states, global_states)
        else:
            _map(lambda x, a: L("array_write")(x, i=step_idx, array=a), next_inputs, inputs_arrays)
            _map(lambda x, a: L("array_write")(x, i=step_idx, array=a), next_states, states_arrays)
        L("assign")(next_finished, output=global_finished)
        L("assign")(next_lengths, output=sequence_lengths)
        not_done = L("logical_not")(L("reduce_all")(global_finished))
        if max_step is not None:
            L("logical_and")(not_done, L("less_equal")(step_idx, max_step), out=cond)
        else:
            L("assign")(not_done, output=cond)

    final_outputs = _map(lambda a: L("tensor_array_to_tensor")(a, axis=0, use_stack=True)[0], outputs_arrays)
    if is_test:
        final_states = global_states
    else:
        final_states = _map(lambda a: L("array_read")(a, step_idx), states_arrays)
    return _finish(decoder, final_outputs, final_states, sequence_lengths, output_time_major, return_length,
                   L("transpose"))


export(BeamSearchDecoder, "paddle.nn.BeamSearchDecoder")
export(dynamic_decode, "paddle.nn.dynamic_decode")

