"""Helpers of Paddle 1.8's fluid modules that scripts import although no `__all__` lists them (they show in the
modules' `dir()`: reference/surface/paddle_1.8.5_public.json). Each is registered once, at the path where Paddle
defines it (its home); paddle_compat/_export.py binds every other path that re-exports it (`fluid.io.get_logger`
is `fluid.log_helper.get_logger`).

- fluid.executor: as_numpy, dimension_is_compatible_with, dtype_is_compatible_with, check_feed_shape_type,
  has_feed_operators / has_fetch_operators, FetchHandler (Executor.train_from_dataset's fetch_handler);
- fluid.io: get_parameter_value(_by_name), is_belong_to_optimizer; fluid.log_helper.get_logger;
- fluid.framework.generate_control_dev_var_name; fluid.reader.keep_data_loader_order (wrap_decorator is in
  fluid/framework.py, calc_gradient in fluid/misc.py);
- fluid.layers.layer_function_generator: templatedoc / autodoc (docstrings are left as written: Paddle fills them
  from the C++ OpProto, which does not exist here) and generate_activation_fn (the registered op of that type);
- the monkey_patch_* functions: our Tensor and Variable carry their methods from the start, so patching again
  changes nothing (as `fluid.layers.math_op_patch.monkey_patch_variable`).
"""

from __future__ import annotations

import contextlib
import copy
import logging
import random
import sys
from typing import Any, Callable

import numpy as np

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework import registry
from paddle_compat.engine.framework.registry import export, partial

# --- fluid.executor --------------------------------------------------------------------------------------------


def as_numpy(tensor: Any) -> Any:
    """A fetched LoDTensor (or a list / LoDTensorArray of them) as numpy arrays; one that holds LoD raises, as
    its sequence lengths would be lost (fetch it with return_numpy=False)."""
    from paddle_compat.engine.framework.lod import LoDTensor, LoDTensorArray

    if isinstance(tensor, (list, LoDTensorArray)):
        return [as_numpy(t) for t in tensor]
    if not isinstance(tensor, LoDTensor):
        raise TypeError(f"fluid.executor.as_numpy: expected a LoDTensor, a LoDTensorArray or a list of them, got "
                        f"{type(tensor).__name__}")
    if len(tensor.lod()) > 0:
        raise RuntimeError("fluid.executor.as_numpy: Some of your fetched tensors hold LoD information. They can not "
                           "be completely cast to Python ndarray. Please set the parameter 'return_numpy' as "
                           "'False' to return LoDTensor itself directly.")
    return np.array(tensor) if tensor._is_initialized() else None


def dtype_is_compatible_with(first: Any, second: Any) -> bool:
    """Whether two dtypes (Paddle dtypes, numpy dtypes or their names) are the same dtype."""
    from paddle_compat.engine.core import dtype as _dt

    return _dt.to_dtype(first) == _dt.to_dtype(second)


def dimension_is_compatible_with(first: Any, second: Any) -> bool:
    """Whether two shapes agree where both are known (None or a negative dim matches anything)."""
    if len(first) != len(second):
        return False
    return all(a is None or b is None or a < 0 or b < 0 or a == b for a, b in zip(first, second))


def check_feed_shape_type(var: Any, feed: Any, num_places: int = 1) -> bool:
    """Raise ValueError when the value fed to `var` (a LoDTensor or array) has another rank, a known dim that
    differs (the batch dim split over `num_places` devices), or another dtype; True otherwise."""
    from paddle_compat.engine.core import dtype as _dt

    if not getattr(var, "need_check_feed", False):
        return True
    arr = np.asarray(feed)
    shape = list(arr.shape)
    if shape and num_places > 1 and not feed_has_lod(feed):
        shape[0] = -(-shape[0] // num_places)
    if not dimension_is_compatible_with(shape, list(var.shape)):
        raise ValueError(f"The fed Variable {var.name!r} should have dimensions = {len(var.shape)}, shape = "
                         f"{tuple(var.shape)!r}, but received fed shape {tuple(shape)!r} on each device")
    if not dtype_is_compatible_with(arr.dtype, var.dtype):
        raise ValueError(f"The data type of fed Variable {var.name!r} must be {_dt.to_dtype(var.dtype).name!r}, "
                         f"but received {_dt.to_dtype(arr.dtype).name!r}")
    return True


def feed_has_lod(feed: Any) -> bool:
    lod = getattr(feed, "lod", None)
    return bool(lod()) if callable(lod) else False


def _holder_ops(block: Any, op_type: str, targets: Any, endpoint: Any, what: str) -> bool:
    """Whether `block` holds `op_type` ops; each must read / write one of `targets` (names), and there must be one
    per target, or Paddle's error is raised."""
    ops = [op for op in block.ops if op.type == op_type]
    for op in ops:
        name = endpoint(op)
        if name not in targets:
            raise Exception(f"'{what}' does not have {name} variable")
    if ops and len(ops) != len(targets):
        raise Exception(f"{op_type.capitalize()} operators in program desc do not match '{what}'")
    return bool(ops)


def has_feed_operators(block: Any, feed_targets: Any, feed_holder_name: str) -> bool:
    """Whether `block` starts with feed ops, each feeding one of `feed_targets` (names) from `feed_holder_name`;
    feed ops that do not match the targets raise. Programs recorded here hold no feed ops (Executor.run feeds
    variables directly), so this is False unless a loaded program carries them."""
    return _holder_ops(block, "feed", feed_targets, lambda op: op.output("Out")[0], "feed_targets")


def has_fetch_operators(block: Any, fetch_targets: Any, fetch_holder_name: str) -> bool:
    """Whether `block` holds fetch ops for `fetch_targets` (Variables); fetch ops that do not match raise."""
    names = [getattr(v, "name", v) for v in fetch_targets]
    return _holder_ops(block, "fetch", names, lambda op: op.input("X")[0], "fetch_targets")


class FetchHandler:
    """Executor.train_from_dataset(fetch_handler=...): every `period_secs` seconds, `handler` gets a dict of the
    numpy values of `var_dict`'s variables (by its keys). Subclass it and override handler."""

    def __init__(self, var_dict: dict | None = None, period_secs: float = 60) -> None:
        if var_dict is None:
            raise AssertionError("fluid.executor.FetchHandler: var_dict should not be None")
        self.var_dict = var_dict
        self.period_secs = period_secs

    def handler(self, res_dict: dict) -> None:
        for key, value in res_dict.items():
            if type(value) is np.ndarray:
                sys.stdout.write(f"{key}[0]: {value[0]} ")
        sys.stdout.write("\n")

    @staticmethod
    def help() -> None:
        print("class FetchHandlerExample(FetchHandler):\n    def handler(self, res_dict):\n"
              "        print(res_dict['auc'])\n\nhandler = FetchHandlerExample(var_dict={'auc': auc_var})")


for _f in (as_numpy, dtype_is_compatible_with, dimension_is_compatible_with, check_feed_shape_type,
           has_feed_operators, has_fetch_operators, FetchHandler):
    export(_f, f"paddle.fluid.executor.{_f.__name__}")

# --- fluid.io, fluid.log_helper ----------------------------------------------------------------------------------


def get_parameter_value(para: Any, executor: Any) -> np.ndarray:
    """The value of parameter `para` in the executor's scope, as a numpy array."""
    from paddle_compat.engine.framework.eager_parameter import is_parameter

    if not is_parameter(para):
        raise AssertionError("The input variable is not parameter.")
    return _scope_value(para.name, executor)


def get_parameter_value_by_name(name: str, executor: Any, program: Any = None) -> np.ndarray:
    """get_parameter_value of the parameter called `name` in `program` (default: the default main program)."""
    from paddle_compat.engine.framework.program import default_main_program

    program = default_main_program() if program is None else program
    return get_parameter_value(program.global_block().var(name), executor)


def _scope_value(name: str, executor: Any) -> np.ndarray:
    from paddle_compat.engine.framework.scope import global_scope

    var = global_scope().find_var(name)  # where Executor.run (Paddle's way to read it) takes it from
    if var is None or not var.get_tensor()._is_initialized():
        raise RuntimeError(f"fluid.io.get_parameter_value: parameter {name!r} has no value in the scope; run the "
                           "startup program first")
    return np.array(var.get_tensor())


def is_belong_to_optimizer(var: Any) -> bool:
    """A persistable variable that is neither a parameter nor a fed one (an optimizer's accumulator, a lr)."""
    from paddle_compat.paddle2.distributed.model_parallel import is_persistable
    from paddle_compat.engine.framework.program import Parameter

    if isinstance(var, Parameter) or getattr(var, "need_check_feed", False):
        return False
    return is_persistable(var)


def get_logger(name: str, level: int, fmt: str | None = None) -> logging.Logger:
    """logging.getLogger(name) at `level`, with a stream handler formatted by `fmt`, not propagating."""
    logger = logging.getLogger(name)
    logger.setLevel(level)
    handler = logging.StreamHandler()
    if fmt:
        handler.setFormatter(logging.Formatter(fmt=fmt))
    logger.addHandler(handler)
    logger.propagate = False
    return logger


for _f in (get_parameter_value, get_parameter_value_by_name, is_belong_to_optimizer):
    export(_f, f"paddle.fluid.io.{_f.__name__}")
export(get_logger, "paddle.fluid.log_helper.get_logger")

# --- fluid.framework, fluid.reader ---------------------------------------

CONTROL_DEP_VAR_PREFIX = "__control_var"


def generate_control_dev_var_name() -> str:
    """A fresh name for a control-dependency variable (`__control_var@<random>`)."""
    return f"{CONTROL_DEP_VAR_PREFIX}@{random.random()}"


_KEEP_ORDER = [True]


def keep_data_loader_order(*args: bool) -> Any:
    """Get (no argument) or set whether multi-place DataLoaders keep the batch order. The loaders here always
    deliver batches in order; the flag is kept for scripts that read it back."""
    if not args:
        return _KEEP_ORDER[0]
    if len(args) != 1 or not isinstance(args[0], bool):
        raise AssertionError("fluid.reader.keep_data_loader_order: takes one bool")
    _KEEP_ORDER[0] = args[0]
    return None


export(CONTROL_DEP_VAR_PREFIX, "paddle.fluid.framework.CONTROL_DEP_VAR_PREFIX")
export(generate_control_dev_var_name, "paddle.fluid.framework.generate_control_dev_var_name")
export(keep_data_loader_order, "paddle.fluid.reader.keep_data_loader_order")

# --- fluid.layers.layer_function_generator --------------------------------------------------------------------

_GEN = "paddle.fluid.layers.layer_function_generator"


def templatedoc(op_type: str | None = None) -> Callable:
    """Decorator filling a layer's docstring template from its op's C++ OpProto; there is none here, so the
    function is returned with its docstring as written."""
    return lambda func: func


def autodoc(comment: str = "") -> Callable:
    """Decorator generating a layer's docstring from its op's OpProto; the docstring is left as written here."""
    return lambda func: func


def generate_activation_fn(op_type: str) -> Callable:
    """`func(x, name=None)` running the activation op `op_type` (the registered op of that type)."""
    opdef = registry.OPS.get(op_type)
    if opdef is None:
        raise UnsupportedAPIError(f"{_GEN}.generate_activation_fn", f"op type {op_type!r} is not implemented")

    def func(x: Any, name: str | None = None) -> Any:
        return opdef.public(x)

    func.__name__ = func.__qualname__ = op_type
    func.__doc__ = opdef.impl.__doc__
    return func


for _f in (templatedoc, autodoc, generate_activation_fn):
    export(_f, f"{_GEN}.{_f.__name__}")
partial(f"{_GEN}.templatedoc", "the docstring is left as written (no C++ OpProto to fill it from)")
partial(f"{_GEN}.autodoc", "the docstring is left as written (no C++ OpProto to generate it from)")

# --- the monkey patches ------------------------------------------------------------------------------------------


def monkey_patch_varbase() -> None:
    """The dygraph Tensor carries its methods (backward, numpy, gradient, ...) from the start: nothing to patch."""


def monkey_patch_math_varbase() -> None:
    """The dygraph Tensor carries its operator methods from the start: nothing to patch."""


export(monkey_patch_varbase, "paddle.fluid.monkey_patch_varbase",
       "paddle.fluid.dygraph.varbase_patch_methods.monkey_patch_varbase")
export(monkey_patch_math_varbase, "paddle.fluid.dygraph.math_op_patch.monkey_patch_math_varbase",
       "paddle.monkey_patch_math_tensor")

# --- fluid.layers.control_flow / loss: registered ops under their 1.8 helper names --------------------------------


def cross_entropy2(input: Any, label: Any, ignore_index: int = -100) -> Any:  # noqa: A002 - Paddle's name
    """fluid.layers.loss.cross_entropy2: -log(input[label]) per row of probabilities (hard labels)."""
    return registry.OPS["cross_entropy2"].public(input, label, soft_label=False, ignore_index=ignore_index)


export(cross_entropy2, "paddle.fluid.layers.loss.cross_entropy2")


@registry.after_load
def _control_flow_ops() -> None:
    for op_type in ("split_lod_tensor", "merge_lod_tensor", "select_input"):
        export(registry.OPS[op_type].public, f"paddle.fluid.layers.control_flow.{op_type}")

# --- what cannot work here, with the reason (registered at the home path: every re-export raises the same) -------
_IR = ("Paddle's C++ IR graph (core.Graph over a ProgramDesc), which the slim quantization passes rewrite; programs "
       "here are torch.fx graphs: read their ops with program.global_block().ops")
_PSERVER = ("parameter-server ops (send / recv / listen_and_serv) are not implemented: DistributeTranspiler's "
            "'nccl2' mode and fleet's collective mode train data-parallel without servers")
_FEED_OPS = ("programs here hold no feed / fetch ops: Executor.run feeds and fetches variables by name, and "
             "save_inference_model records the feed and fetch names itself")
UNSUPPORTED_HOMES = {
    "paddle.fluid.framework.IrGraph": ("class", _IR),
    "paddle.fluid.framework.IrNode": ("class", _IR),
    "paddle.fluid.framework.IrOpNode": ("class", _IR),
    "paddle.fluid.framework.IrVarNode": ("class", _IR),
    "paddle.fluid.framework.get_all_op_protos": (
        "function", "ops are torch functions here, without Paddle's C++ OpProto descriptions "
                    "(OpProtoHolder.instance().op_proto_map lists the op types)"),
    "paddle.fluid.dygraph.tracer.Tracer": (
        "class", "Paddle's C++ dygraph tracer: dygraph ops run on torch autograd here, under fluid.dygraph.guard()"),
    "paddle.fluid.dygraph.static_runner.StaticModelRunner": (
        "class", "deprecated in Paddle 1.8; load the saved inference model with fluid.io.load_inference_model and "
                 "run it with an Executor"),
    "paddle.fluid.dygraph.nn.RowConv": (
        "class", "Paddle 1.8.5's own RowConv asserts 'RowConv is not supported by dynamic graph mode yet!'; use "
                 "fluid.layers.row_conv in a static program"),
    "paddle.fluid.dygraph.nn.SequenceConv": (
        "class", "Paddle 1.8.5's own SequenceConv asserts it is not supported by dynamic graph mode (dygraph tensors "
                 "carry no LoD); use fluid.layers.sequence_conv in a static program"),
    "paddle.fluid.io.prepend_feed_ops": ("function", _FEED_OPS),
    "paddle.fluid.io.append_fetch_ops": ("function", _FEED_OPS),
    "paddle.fluid.layers.io.Send": ("function", _PSERVER),
    "paddle.fluid.layers.io.Recv": ("function", _PSERVER),
    "paddle.fluid.layers.io.ListenAndServ": ("class", _PSERVER),
    "paddle.fluid.layers.io.BlockGuardServ": ("class", _PSERVER),
}


def _register_unsupported(table: dict) -> None:
    from paddle_compat._export import unsupported_stub

    for path, (kind, detail) in table.items():
        export(unsupported_stub(path, kind, detail), path)


_register_unsupported(UNSUPPORTED_HOMES)

# --- fluid.unique_name, fluid.reader, fluid.framework, fluid.dygraph.base: small objects --------------------------


class _CurrentGenerator:
    """fluid.unique_name.generator: Paddle rebinds this module global on switch() / guard(); here it stands for
    whichever generator is current, so `generator('fc')` and `generator.ids` follow switch() the same way."""

    def __call__(self, key: str) -> str:
        from paddle_compat.engine.framework import unique_name

        return unique_name._gen[0](key)

    def __getattr__(self, name: str) -> Any:
        from paddle_compat.engine.framework import unique_name

        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(unique_name._gen[0], name)


class DygraphParameterNameChecker:
    """Calling it with a name answers whether that name was seen before (and remembers it)."""

    def __init__(self) -> None:
        self._name_set: set = set()

    def __call__(self, name: str) -> bool:
        if name in self._name_set:
            return True
        self._name_set.add(name)
        return False


def _unique_name_objects() -> None:
    from paddle_compat.engine.framework.program import _PublicVariableMeta
    from paddle_compat.engine.framework.unique_name import UniqueNameGenerator

    export(_CurrentGenerator(), "paddle.fluid.unique_name.generator")
    export(DygraphParameterNameChecker, "paddle.fluid.unique_name.DygraphParameterNameChecker")
    export(DygraphParameterNameChecker(), "paddle.fluid.unique_name.dygraph_parameter_name_checker")
    export(UniqueNameGenerator(), "paddle.fluid.reader.data_loader_unique_name_generator")
    export(_PublicVariableMeta, "paddle.fluid.framework.VariableMetaClass")  # type(fluid.Variable), as in Paddle


_unique_name_objects()


@contextlib.contextmanager
def param_guard(parameters: Any) -> Any:
    """Paddle swaps a Layer's dygraph parameters for static Parameters while dygraph-to-static builds a program;
    paddle_compat's to_static traces the Layer with its own parameters, so there is nothing to swap."""
    yield


export(param_guard, "paddle.fluid.dygraph.base.param_guard")

# --- fluid.data_feeder: the converters DataFeeder is built on ------------------------------------------------------


def _converter_base() -> type:
    from paddle_compat.fluid.reader import _Converter

    return _Converter


class DataToLoDTensorConverter(_converter_base()):  # type: ignore[misc]
    """One feed variable's column: feed(sample_item) per sample, then done() -> a LoDTensor of the variable's
    dtype and shape (sequences flattened lod_level deep, their lengths kept), after which it starts empty again."""

    def done(self, name: str = "the fed variable") -> Any:
        try:
            return super().done(name)
        finally:
            self.data, self.lod = [], [[] for _ in range(self.lod_level)]


class BatchedTensorProvider:
    """Called, yields one list of LoDTensors (one per variable of `feed_list`, lod_level 0) for every `batch_size`
    samples of `generator()`; a last smaller batch unless drop_last."""

    def __init__(self, feed_list: list, place: Any, batch_size: int, generator: Callable, drop_last: bool) -> None:
        self.place, self.batch_size, self.generator, self.drop_last = place, batch_size, generator, drop_last
        self.converters = []
        for var in feed_list:
            if getattr(var, "lod_level", 0) != 0:
                raise AssertionError("BatchedTensorProvider: lod_level must be 0")
            self.converters.append(DataToLoDTensorConverter(place, 0, var.shape, var.dtype))

    def _done(self) -> list:
        return [c.done() for c in self.converters]

    def __call__(self) -> Any:
        count = 0
        for sample in self.generator():
            for item, converter in zip(sample, self.converters):
                converter.data.append(item)
            count += 1
            if count == self.batch_size:
                count = 0
                yield self._done()
        if count and not self.drop_last:
            yield self._done()
        for c in self.converters:
            c.data = []


export(DataToLoDTensorConverter, "paddle.fluid.data_feeder.DataToLoDTensorConverter")
export(BatchedTensorProvider, "paddle.fluid.data_feeder.BatchedTensorProvider")


class DistributedMode:
    """The parameter-server training modes (DistributeTranspiler, fleet): constants only here."""

    SYNC = 0
    ASYNC = 1
    HALF_ASYNC = 2
    GEO = 3


export(DistributedMode, "paddle.fluid.transpiler.distribute_transpiler.DistributedMode")

# --- fluid.dygraph.layer_object_helper ---------------------------------------------------------------------------


def _layer_helper() -> type:
    from paddle_compat.engine.static.layer_helper import LayerHelper

    return LayerHelper


class LayerObjectHelper(_layer_helper()):  # type: ignore[misc]
    """The helper a 1.8 dygraph Layer keeps as `self._helper`: LayerHelper named after the layer's full name
    (parameters `<full_name>.w_N`), whose methods take the inputs, attributes and activation as arguments instead
    of reading them from the layer's keyword arguments."""

    def __init__(self, name: str) -> None:
        super().__init__(name, name=name)

    def _multiple_input(self, inputs_in: Any) -> list:
        inputs = list(inputs_in) if isinstance(inputs_in, (list, tuple)) else [inputs_in]
        if not inputs:
            raise ValueError(f"parameter number mismatch in {self.name}")
        return inputs

    def _input(self, inputs_in: Any) -> Any:
        inputs = self._multiple_input(inputs_in)
        if len(inputs) != 1:
            raise ValueError(f"{self.layer_type} layer only takes one input in")
        return inputs[0]

    def _multiple_param_attr(self, length: int, param_attr_in: Any = None) -> list:
        from paddle_compat.engine.static.param import ParamAttr

        attr = ParamAttr._to_attr(param_attr_in)
        attrs = list(attr) if isinstance(attr, (list, tuple)) else [attr]
        if len(attrs) == 1 and length != 1:
            attrs = [attrs[0]] + [copy.deepcopy(attrs[0]) for _ in range(length - 1)]
        if len(attrs) != length:
            raise ValueError(f"parameter number mismatch in {self.name}")
        return attrs

    def iter_inputs_and_params(self, inputs_in: Any, param_attr_in: Any = None) -> Any:
        inputs = self._multiple_input(inputs_in)
        yield from zip(inputs, self._multiple_param_attr(len(inputs), param_attr_in))

    def input_dtype(self, inputs_in: Any) -> Any:  # type: ignore[override]
        dtype = None
        for each in self._multiple_input(inputs_in if inputs_in is not None else []):
            if dtype is None:
                dtype = each.dtype
            elif dtype != each.dtype:
                raise ValueError(f"Data Type mismatch: {dtype} to {each.dtype} in {self.name}")
        return dtype

    def append_activation(self, input_var: Any, act: Any = None, use_cudnn: Any = None,  # type: ignore[override]
                          use_mkl_dnn: Any = None) -> Any:
        return self._activate(input_var, act, f" in {self.name}")

    def is_instance(self, param: Any, cls: type) -> None:  # type: ignore[override]
        if not isinstance(param, cls):
            raise TypeError(f"The input {param} parameter of method {self.layer_type} must be {cls}, in layer "
                            f"{self.name}")


export(LayerObjectHelper, "paddle.fluid.dygraph.layer_object_helper.LayerObjectHelper")
