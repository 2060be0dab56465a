"""fluid.contrib.decoder (Paddle 1.8): InitState, StateCell, TrainingDecoder, BeamSearchDecoder.

A StateCell names a cell's step inputs and hidden states; its updater (`@cell.state_updater`) reads them with
get_input / get_state and writes the new states with set_state. Inside a decoder the states live where the
decoder keeps them:
- TrainingDecoder runs the cell in a fluid.layers.DynamicRNN over LoD step inputs: a state is an RNN memory
  (initialised from InitState, reordered by sequence length when need_reorder) updated every step.
- BeamSearchDecoder runs it in a While loop, one beam-search step per iteration: every state, the ids, the
  scores and any extra input (input_var_dict) are tensor arrays indexed by the step counter; their first entry
  is written before the loop (in the parent block), and at the end of an iteration that did not stop early
  the counter advances and each value registered with update_array is written at the new step. `decoder()`
  backtracks the ids / scores arrays with beam_search_decode.
Built from our fluid.layers (control flow and tensor arrays: engine/ops/control_flow.py, which carries the LoD that
sequence_expand needs through the arrays). tests/fluid/test_fluidtests18.py (cases contrib_training_decoder,
contrib_beam_search_decoder) compares with real 1.8.5.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.program import Variable, default_main_program
from paddle_compat.engine.ops.control_flow import P, _in_parent_block
from paddle_compat.engine.framework.registry import export

_TRAINING, _BEAM_SEARCH = 1, 2
_MOD = "paddle.fluid.contrib.decoder"


def _L(name: str) -> Any:
    return P(f"paddle.fluid.layers.{name}")


class InitState:
    """A hidden state's initial value: `init`, or a `value`-filled tensor shaped like `init_boot` (batch dim
    from it, `shape` for the rest); need_reorder sorts it as the decoder's length-sorted batch."""

    def __init__(self, init: Any = None, shape: Any = None, value: float = 0.0, init_boot: Any = None,
                 need_reorder: bool = False, dtype: Any = "float32") -> None:
        if init is None:
            if init_boot is None:
                raise ValueError("init_boot must be provided to infer the shape of InitState .\n")
            init = _L("fill_constant_batch_size_like")(input=init_boot, value=value, shape=shape, dtype=dtype)
        self._init = init
        self._shape, self._value, self._need_reorder, self._dtype = shape, value, need_reorder, dtype

    @property
    def value(self) -> Any:
        return self._init

    @property
    def need_reorder(self) -> bool:
        return self._need_reorder


def _new_array(init: Any, api: str) -> Any:
    """A tensor array in the parent block holding `init` at index 0."""
    L = _L
    with _in_parent_block(api):
        array = L("create_array")(init.dtype)
        L("array_write")(init, i=L("fill_constant")(shape=[1], dtype="int64", value=0, force_cpu=True),
                         array=array)
    return array


class _MemoryState:
    def __init__(self, rnn: Any, init_state: InitState) -> None:
        self._rnn = rnn
        self._mem = rnn.memory(init=init_state.value, need_reorder=init_state.need_reorder)

    def get_state(self) -> Any:
        return self._mem

    def update_state(self, state: Any) -> None:
        self._rnn.update_memory(self._mem, state)


class _ArrayState:
    def __init__(self, init_state: InitState) -> None:
        L = _L
        with _in_parent_block("StateCell"):
            self._counter = L("fill_constant")(shape=[1], dtype="int64", value=0, force_cpu=True)
            self._counter.stop_gradient = True
            self._array = L("create_array")(init_state.value.dtype)
            L("array_write")(init_state.value, i=self._counter, array=self._array)

    def get_state(self) -> Any:
        return _L("array_read")(array=self._array, i=self._counter)

    def update_state(self, state: Any) -> None:
        _L("increment")(x=self._counter, value=1, in_place=True)
        _L("array_write")(state, array=self._array, i=self._counter)


class StateCell:
    """StateCell(inputs={name: Variable or None}, states={name: InitState}, out_state=name)."""

    def __init__(self, inputs: dict, states: dict, out_state: str, name: str | None = None) -> None:
        self._cur_states: dict = {}
        self._state_names: list = []
        for state_name, state in states.items():
            if not isinstance(state, InitState):
                raise ValueError("state must be an InitState object.")
            self._cur_states[state_name] = state
            self._state_names.append(state_name)
        self._inputs = inputs
        self._cur_decoder_obj: Any = None
        self._in_decoder = False
        self._states_holder: dict = {}
        self._switched_decoder = False
        self._state_updater: Any = None
        self._out_state = out_state
        if out_state not in self._cur_states:
            raise ValueError("out_state must be one state in states")

    def _enter_decoder(self, decoder_obj: Any) -> None:
        if self._in_decoder or self._cur_decoder_obj is not None:
            raise ValueError("StateCell has already entered a decoder.")
        self._in_decoder, self._cur_decoder_obj, self._switched_decoder = True, decoder_obj, False

    def _leave_decoder(self, decoder_obj: Any) -> None:
        if not self._in_decoder:
            raise ValueError("StateCell not in decoder, invalid leaving operation.")
        if self._cur_decoder_obj is not decoder_obj:
            raise ValueError("Inconsistent decoder object in StateCell.")
        self._in_decoder, self._cur_decoder_obj, self._switched_decoder = False, None, False

    def _switch_decoder(self) -> None:
        """First use inside a decoder: each state becomes the decoder's (an RNN memory or a step array)."""
        if not self._in_decoder:
            raise ValueError("StateCell must be enter a decoder.")
        if self._switched_decoder:
            raise ValueError("StateCell already done switching.")
        dec = self._cur_decoder_obj
        for state_name in self._state_names:
            holders = self._states_holder.setdefault(state_name, {})
            if id(dec) not in holders:
                state = self._cur_states[state_name]
                if not isinstance(state, InitState):
                    raise ValueError(f"Current type of state is {type(state)}, should be an InitState object.")
                if dec.type == _TRAINING:
                    holders[id(dec)] = _MemoryState(dec.dynamic_rnn, state)
                elif dec.type == _BEAM_SEARCH:
                    holders[id(dec)] = _ArrayState(state)
                else:
                    raise ValueError("Unknown decoder type, only support [TRAINING, BEAM_SEARCH]")
            self._cur_states[state_name] = holders[id(dec)].get_state()
        self._switched_decoder = True

    def _ensure_switched(self) -> None:
        if self._in_decoder and not self._switched_decoder:
            self._switch_decoder()

    def get_state(self, state_name: str) -> Any:
        self._ensure_switched()
        if state_name not in self._cur_states:
            raise ValueError(f"Unknown state {state_name}. Please make sure _switch_decoder() invoked.")
        return self._cur_states[state_name]

    def get_input(self, input_name: str) -> Any:
        if input_name not in self._inputs or self._inputs[input_name] is None:
            raise ValueError(f"Invalid input {input_name}.")
        return self._inputs[input_name]

    def set_state(self, state_name: str, state_value: Any) -> None:
        self._cur_states[state_name] = state_value

    def state_updater(self, updater: Any) -> Any:
        """Set the function (taking this StateCell) that computes the new states from the inputs and states."""
        self._state_updater = updater

        def _decorator(state_cell: Any) -> None:
            if state_cell == self:
                raise TypeError("Updater should only accept a StateCell object as argument.")
            updater(state_cell)

        return _decorator

    def compute_state(self, inputs: dict) -> None:
        self._ensure_switched()
        for input_name, input_value in inputs.items():
            if input_name not in self._inputs:
                raise ValueError(f"Unknown input {input_name}. Please make sure {input_name} in input place holder.")
            self._inputs[input_name] = input_value
        if self._state_updater is None:
            raise ValueError("StateCell.compute_state: no updater is set; decorate a function with "
                             "@state_cell.state_updater first")
        self._state_updater(self)

    def update_states(self) -> None:
        self._ensure_switched()
        for state_name, holders in self._states_holder.items():
            if id(self._cur_decoder_obj) not in holders:
                raise ValueError("Unknown decoder object, please make sure switch_decoder been invoked.")
            holders[id(self._cur_decoder_obj)].update_state(self._cur_states[state_name])

    def out_state(self) -> Any:
        return self._cur_states[self._out_state]


class TrainingDecoder:
    """Teacher-forced decoding: `with decoder.block():` step_input / static_input, the state cell's
    compute_state / update_states, output(...); `decoder()` gives the outputs as LoD tensors."""

    BEFORE_DECODER, IN_DECODER, AFTER_DECODER = 0, 1, 2

    def __init__(self, state_cell: StateCell, name: str | None = None) -> None:
        self._status = TrainingDecoder.BEFORE_DECODER
        self._dynamic_rnn = _L("DynamicRNN")()
        self._type = _TRAINING
        self._state_cell = state_cell
        state_cell._enter_decoder(self)

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        if self._status != TrainingDecoder.BEFORE_DECODER:
            raise ValueError("decoder.block() can only be invoked once")
        self._status = TrainingDecoder.IN_DECODER
        with self._dynamic_rnn.block():
            yield
        self._status = TrainingDecoder.AFTER_DECODER
        self._state_cell._leave_decoder(self)

    @property
    def state_cell(self) -> StateCell:
        self._assert_in_decoder_block("state_cell")
        return self._state_cell

    @property
    def dynamic_rnn(self) -> Any:
        return self._dynamic_rnn

    @property
    def type(self) -> int:
        return self._type

    def step_input(self, x: Any) -> Any:
        self._assert_in_decoder_block("step_input")
        return self._dynamic_rnn.step_input(x)

    def static_input(self, x: Any) -> Any:
        self._assert_in_decoder_block("static_input")
        return self._dynamic_rnn.static_input(x)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._status != TrainingDecoder.AFTER_DECODER:
            raise ValueError("Output of training decoder can only be visited outside the block.")
        return self._dynamic_rnn(*args, **kwargs)

    def output(self, *outputs: Any) -> None:
        self._assert_in_decoder_block("output")
        self._dynamic_rnn.output(*outputs)

    def _assert_in_decoder_block(self, method: str) -> None:
        if self._status != TrainingDecoder.IN_DECODER:
            raise ValueError(f"{method} should be invoked inside block of TrainingDecoder object.")


class BeamSearchDecoder:
    """Beam search over a StateCell in a While loop of at most max_len steps (see the module docstring);
    `decode()` sets up the standard step (embedding of the previous ids, the cell, a softmax fc over the
    dictionary, topk, beam_search), `decoder()` returns (translation_ids, translation_scores)."""

    BEFORE_BEAM_SEARCH_DECODER, IN_BEAM_SEARCH_DECODER, AFTER_BEAM_SEARCH_DECODER = 0, 1, 2

    def __init__(self, state_cell: StateCell, init_ids: Any, init_scores: Any, target_dict_dim: int, word_dim: int,
                 input_var_dict: dict | None = None, topk_size: int = 50, sparse_emb: bool = True,
                 max_len: int = 100, beam_size: int = 1, end_id: int = 1, name: str | None = None) -> None:
        L = _L
        self._counter = L("zeros")(shape=[1], dtype="int64")
        self._counter.stop_gradient = True
        self._type = _BEAM_SEARCH
        self._max_len = L("fill_constant")(shape=[1], dtype="int64", value=max_len)
        self._cond = L("less_than")(x=self._counter, y=L("fill_constant")(shape=[1], dtype="int64", value=max_len))
        self._while_op = L("While")(self._cond)
        self._state_cell = state_cell
        state_cell._enter_decoder(self)
        self._status = BeamSearchDecoder.BEFORE_BEAM_SEARCH_DECODER
        self._array_dict: dict = {}
        self._array_link: list = []
        self._ids_array: Any = None
        self._scores_array: Any = None
        self._beam_size, self._end_id = beam_size, end_id
        self._init_ids, self._init_scores = init_ids, init_scores
        self._target_dict_dim, self._topk_size, self._sparse_emb = target_dict_dim, topk_size, sparse_emb
        self._word_dim = word_dim
        self._input_var_dict = input_var_dict if input_var_dict is not None else {}

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        if self._status != BeamSearchDecoder.BEFORE_BEAM_SEARCH_DECODER:
            raise ValueError("block() can only be invoke once.")
        self._status = BeamSearchDecoder.IN_BEAM_SEARCH_DECODER
        L = _L
        with self._while_op.block():
            yield
            # unless the step stopped early: next step, store what update_array registered, check the length
            with L("Switch")() as switch:
                with switch.case(self._cond):
                    L("increment")(x=self._counter, value=1.0, in_place=True)
                    for value, array in self._array_link:
                        L("array_write")(x=value, i=self._counter, array=array)
                    L("less_than")(x=self._counter, y=self._max_len, cond=self._cond)
        self._status = BeamSearchDecoder.AFTER_BEAM_SEARCH_DECODER
        self._state_cell._leave_decoder(self)

    @property
    def type(self) -> int:
        return self._type

    def early_stop(self) -> None:
        """End the decoding after this step (a `break`)."""
        _L("fill_constant")(shape=[1], value=0, dtype="bool", force_cpu=True, out=self._cond)

    def decode(self) -> None:
        L = _L
        with self.block():
            prev_ids = self.read_array(init=self._init_ids, is_ids=True)
            prev_scores = self.read_array(init=self._init_scores, is_scores=True)
            prev_ids_embedding = L("embedding")(input=prev_ids, size=[self._target_dict_dim, self._word_dim],
                                                dtype="float32", is_sparse=self._sparse_emb)
            feed_dict, update_dict = {}, {}
            for var_name, init_var in self._input_var_dict.items():
                if var_name not in self.state_cell._inputs:
                    raise ValueError("Variable " + var_name + " not found in StateCell!\n")
                read_var = self.read_array(init=init_var)
                update_dict[var_name] = read_var
                feed_dict[var_name] = L("sequence_expand")(read_var, prev_scores)
            for state_name in self._state_cell._state_names:
                prev_state = self.state_cell.get_state(state_name)
                self.state_cell.set_state(state_name, L("sequence_expand")(prev_state, prev_scores))
            for input_name in self._state_cell._inputs:
                if input_name not in feed_dict:
                    feed_dict[input_name] = prev_ids_embedding
            self.state_cell.compute_state(inputs=feed_dict)
            current_state = self.state_cell.out_state()
            current_state_with_lod = L("lod_reset")(x=current_state, y=prev_scores)
            scores = L("fc")(input=current_state_with_lod, size=self._target_dict_dim, act="softmax")
            topk_scores, topk_indices = L("topk")(scores, k=self._topk_size)
            accu_scores = L("elementwise_add")(x=L("log")(x=topk_scores),
                                               y=L("reshape")(prev_scores, shape=[-1]), axis=0)
            # NOTE: end_id=1 here whatever the decoder's end_id, as in Paddle 1.8.5 (the decoder's end_id is used
            # by beam_search_decode only)
            selected_ids, selected_scores = L("beam_search")(prev_ids, prev_scores, topk_indices, accu_scores,
                                                             self._beam_size, end_id=1, level=0)
            with L("Switch")() as switch:
                with switch.case(L("is_empty")(selected_ids)):
                    self.early_stop()
                with switch.default():
                    self.state_cell.update_states()
                    self.update_array(prev_ids, selected_ids)
                    self.update_array(prev_scores, selected_scores)
                    for update_name, var_to_update in update_dict.items():
                        self.update_array(var_to_update, feed_dict[update_name])

    def read_array(self, init: Any, is_ids: bool = False, is_scores: bool = False) -> Any:
        """This step's value of an array whose first entry is `init` (written before the loop)."""
        self._assert_in_decoder_block("read_array")
        if is_ids and is_scores:
            raise ValueError("Shouldn't mark current array be ids array andscores array at the same time.")
        if not isinstance(init, Variable):
            raise TypeError("The input argument `init` must be a Variable.")
        array = _new_array(init, "BeamSearchDecoder.read_array")
        if is_ids:
            self._ids_array = array
        elif is_scores:
            self._scores_array = array
        read_value = _L("array_read")(array=array, i=self._counter)
        self._array_dict[read_value.name] = array
        return read_value

    def update_array(self, array: Any, value: Any) -> None:
        """Store `value` as the next step's entry of the array `array` was read from (read_array)."""
        self._assert_in_decoder_block("update_array")
        if not isinstance(array, Variable):
            raise TypeError("The input argument `array` of  must be a Variable.")
        if not isinstance(value, Variable):
            raise TypeError("The input argument `value` of must be a Variable.")
        target = self._array_dict.get(array.name)
        if target is None:
            raise ValueError("Please invoke read_array before update_array.")
        self._array_link.append((value, target))

    def __call__(self) -> Any:
        if self._status != BeamSearchDecoder.AFTER_BEAM_SEARCH_DECODER:
            raise ValueError("Output of BeamSearchDecoder object can only be visited outside the block.")
        if self._ids_array is None or self._scores_array is None:
            raise InvalidArgumentError("BeamSearchDecoder: no ids / scores arrays were read (call read_array with "
                                       "is_ids=True and is_scores=True inside the block, or use decode())")
        return _L("beam_search_decode")(ids=self._ids_array, scores=self._scores_array, beam_size=self._beam_size,
                                        end_id=self._end_id)

    @property
    def state_cell(self) -> StateCell:
        self._assert_in_decoder_block("state_cell")
        return self._state_cell

    def _parent_block(self) -> Any:
        prog = default_main_program()
        idx = prog.current_block().parent_idx
        if idx < 0:
            raise ValueError(f"Invalid block with index {idx}.")
        return prog.block(idx)

    def _assert_in_decoder_block(self, method: str) -> None:
        if self._status != BeamSearchDecoder.IN_BEAM_SEARCH_DECODER:
            raise ValueError(f"{method} should be invoked inside block of BeamSearchDecoder object.")


for _cls in (InitState, StateCell, TrainingDecoder, BeamSearchDecoder):
    export(_cls, f"paddle.fluid.contrib.{_cls.__name__}", f"{_MOD}.{_cls.__name__}",
           f"{_MOD}.beam_search_decoder.{_cls.__name__}")
