"""fluid.layer_helper.LayerHelper and `append_op`: the way 1.x custom layers (and Paddle's own tests) build ops by
Paddle op type, `helper.append_op(type="elementwise_add", inputs={"X": [x], "Y": [y]}, outputs={"Out": [out]},
attrs={"axis": 1})`.

An appended op runs through the registry op that implements it: the op types real model files use go through
the adapters of engine/static/pdmodel.py (one per Paddle op type: slots and attributes -> registry op); any other
registry op whose parameters are named after the slots (`X` -> `x`) and attributes is called directly. The
result is then given the name of the output variable the caller made with `create_variable_for_type_inference`
(a static SSA rename), so later ops, fetches and `Executor.run` find it by that name. In dygraph the op runs
eagerly and the output placeholder tensors take its values."""

from __future__ import annotations

import copy
import inspect
from typing import Any

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import layer_helper, rebind
from paddle_compat.engine.framework.program import (APPEND_OP, Parameter, Variable, default_main_program,
                                             default_startup_program)
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework import registry
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static import pdmodel
from paddle_compat.engine.static.initializer import ConstantInitializer, XavierInitializer
from paddle_compat.engine.static.param import ParamAttr, create_parameter_impl

_API = "fluid.layer_helper.LayerHelper.append_op"


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return list(v) if isinstance(v, (list, tuple)) else [v]


class _LiveOp(pdmodel._OpView):
    """An op described by live Variables (or dygraph Tensors) instead of an OpDesc."""

    def __init__(self, type: str, inputs: dict, outputs: dict, attrs: dict) -> None:  # noqa: A002
        self.type = type
        self._vals = {slot: _as_list(v) for slot, v in (inputs or {}).items()}
        self.inputs = {slot: [getattr(x, "name", None) or f"{slot}_{i}" for i, x in enumerate(vs)]
                       for slot, vs in self._vals.items()}
        self.outputs = {slot: _as_list(v) for slot, v in (outputs or {}).items()}
        self.attrs = dict(attrs or {})
        self._where, self._api = "appended by append_op", _API

    def unsupported(self, detail: str) -> UnsupportedAPIError:
        return UnsupportedAPIError(_API, f"op {self.type!r}: {detail}")

    def xs(self, slot: str) -> list:
        return list(self._vals.get(slot, []))


def _direct(o: _LiveOp) -> dict:
    """A registry op whose parameters are the op's slots (case-insensitive) and attributes, with one output slot."""
    opdef = registry.OPS[o.type]
    slots = {s.lower(): s for s in o._vals}
    args: dict[str, Any] = {}
    for p in opdef.signature.parameters.values():
        if p.name.lower() in slots:
            vs = o._vals[slots[p.name.lower()]]
            args[p.name] = vs[0] if len(vs) == 1 else vs
        elif p.name in o.attrs:
            args[p.name] = o.attrs[p.name]
        elif p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD:
            raise o.unsupported(f"cannot map it to the registry op: its parameter {p.name!r} is neither an input "
                                f"slot ({sorted(o._vals)}) nor an attribute ({sorted(o.attrs)})")
    out = opdef.public(**args)
    slots_out = list(o.outputs)
    if isinstance(out, (list, tuple)) and len(slots_out) == len(out) and len(out) > 1:
        return dict(zip(slots_out, out))
    if len(slots_out) != 1:
        raise o.unsupported(f"it has output slots {slots_out}; only single-output ops map directly")
    return {slots_out[0]: out}


def bind_output(target: Variable, out: Variable) -> None:
    """`target` (made by create_var: a placeholder) now names the value `out` holds; its unused placeholder goes."""
    old = target.node
    if out.name == target.name:
        return
    sg = target.stop_gradient
    rebind(target, out)
    target.stop_gradient = sg
    if old is not None and old.op == "placeholder" and not old.users:  # its create_var placeholder: unused now
        old.graph.erase_node(old)


def append_op(type: str, inputs: dict | None = None, outputs: dict | None = None, attrs: dict | None = None,  # noqa: A002
              **kwargs: Any) -> Any:
    """Block.append_op's arguments: run the op of that Paddle type; its outputs take the given variables' names."""
    o = _LiveOp(type, inputs or {}, outputs or {}, attrs or {})
    adapter = pdmodel._ADAPTERS.get(type)
    if adapter is None and type not in registry.OPS:
        raise UnsupportedAPIError(_API, f"op type {type!r} has no implementation here; ops of these types can be "
                                        f"appended: {', '.join(pdmodel.SUPPORTED_OP_TYPES)} and the registry's ops")
    results = adapter(o) if adapter is not None else _direct(o)
    for slot, outs in results.items():
        outs = _as_list(outs)
        for target, out in zip(o.outputs.get(slot, []), outs):
            if isinstance(target, Variable) and isinstance(out, Variable):
                bind_output(target, out)
            elif isinstance(target, Tensor) and isinstance(out, Tensor):
                target._t = out._t
            elif not isinstance(target, (Variable, Tensor)):
                raise InvalidArgumentError(f"{_API}: output {slot} of op {type!r} must be a Variable made by "
                                           f"create_variable_for_type_inference, got {type(target).__name__}")
    return o


class LayerHelper:
    """fluid.layer_helper.LayerHelper(layer_type, **kwargs): parameters named `<name>.w_N` / `.b_N`,
    temporaries `<name>.tmp_N`, ops appended by Paddle op type, the layer's `act` / `bias_attr` applied."""

    def __init__(self, layer_type: str, **kwargs: Any) -> None:
        self.kwargs = kwargs
        if kwargs.get("name") is None:
            kwargs["name"] = unique_name.generate(layer_type)
        self._name = kwargs["name"]
        self._layer_type = layer_type

    @property
    def name(self) -> str:
        return self._name

    @property
    def layer_type(self) -> str:
        return self._layer_type

    @property
    def main_program(self):
        return default_main_program()

    @property
    def startup_program(self):
        return default_startup_program()

    # --- inputs and attributes ---------------------------------------------------------------------------
    def to_variable(self, value: Any, name: str | None = None) -> Any:
        if isinstance(value, (Variable, Tensor)):
            return value
        from paddle_compat.engine.framework.tensor import to_tensor

        return to_tensor(value)

    def multiple_input(self, input_param_name: str = "input") -> list:
        return [self.to_variable(v) for v in _as_list(self.kwargs.get(input_param_name, []))]

    def input(self, input_param_name: str = "input") -> Any:
        ins = self.multiple_input(input_param_name)
        if len(ins) != 1:
            raise ValueError(f"{self.layer_type} layer only takes one input, got {len(ins)}")
        return ins[0]

    @property
    def param_attr(self) -> Any:
        return ParamAttr._to_attr(self.kwargs.get("param_attr"))

    @property
    def bias_attr(self) -> Any:
        return ParamAttr._to_attr(self.kwargs.get("bias_attr"))

    def multiple_param_attr(self, length: int) -> list:
        attrs = self.param_attr
        attrs = [attrs] if isinstance(attrs, ParamAttr) else list(attrs)
        if len(attrs) not in (1, length):
            raise ValueError("parameter number mismatch")
        if len(attrs) == 1 and length != 1:
            attrs = [copy.deepcopy(attrs[0]) for _ in range(length)]
        return attrs

    def iter_inputs_and_params(self, input_param_name: str = "input"):
        ins = self.multiple_input(input_param_name)
        yield from zip(ins, self.multiple_param_attr(len(ins)))

    def input_dtype(self, input_param_name: str = "input") -> Any:
        dtype = None
        for v in self.multiple_input(input_param_name):
            if dtype is None:
                dtype = v.dtype
            elif dtype != v.dtype:
                raise ValueError(f"Data Type mismatch: {dtype} to {v.dtype}")
        return dtype

    def is_instance(self, param_name: str, cls: type) -> None:
        if not isinstance(self.kwargs.get(param_name), cls):
            raise TypeError(f"The input {param_name} parameter of method {self.layer_type} must be {cls.__name__}")

    # --- variables and parameters ---------------------------------------------------------------------------
    def create_parameter(self, attr: Any, shape: Any, dtype: Any = None, is_bias: bool = False,
                         default_initializer: Any = None, stop_gradient: bool = False, type: Any = None) -> Any:  # noqa: A002
        pattr = ParamAttr._to_attr(copy.deepcopy(attr))
        if pattr is False:
            return None
        if default_initializer is None and pattr.initializer is None:
            if not _dt.to_dtype(dtype or "float32").torch.is_floating_point:
                raise TypeError("Can not create parameter with default initializer when dtype is not float type. "
                                "Set default_initializer to fit the parameter dtype!")
            default_initializer = ConstantInitializer(0.0) if is_bias else XavierInitializer()
        return create_parameter_impl(shape, dtype, pattr, is_bias, default_initializer, prefix=self.name,
                                     stop_gradient=stop_gradient)

    def get_parameter(self, name: str) -> Any:
        p = self.main_program.global_block().vars.get(name)
        if not isinstance(p, Parameter):
            raise ValueError(f"no Parameter name {name} found")
        return p

    def create_variable_for_type_inference(self, dtype: Any, stop_gradient: bool = False) -> Any:
        name = unique_name.generate_with_ignorable_key(f"{self.name}.tmp")
        if not MODE.static:
            t = Tensor(None, dtype=dtype, name=name)
            return t
        return self.main_program.current_block().create_var(name=name, dtype=dtype, stop_gradient=stop_gradient)

    create_tmp_variable = create_variable_for_type_inference

    def create_variable(self, *args: Any, **kwargs: Any) -> Any:
        return self.main_program.current_block().create_var(*args, **kwargs)

    def create_global_variable(self, persistable: bool = False, *args: Any, **kwargs: Any) -> Any:
        return self.main_program.global_block().create_var(*args, persistable=persistable, **kwargs)

    def create_or_get_global_variable(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, bool]:
        block = self.main_program.global_block()
        if name in block.vars:
            return block.vars[name], False
        return self.create_global_variable(name=name, *args, **kwargs), True

    def set_variable_initializer(self, var: Any, initializer: Any) -> Any:
        """The startup program fills `var` (made persistable) with `initializer`."""
        if MODE.static:
            var.persistable = True
        return initializer(var, self.startup_program.global_block() if MODE.static else None)

    # --- ops --------------------------------------------------------------------------------------------------
    def append_op(self, *args: Any, **kwargs: Any) -> Any:
        with layer_helper(self.layer_type, self.name):
            return append_op(*args, **kwargs)

    def append_bias_op(self, input_var: Any, dim_start: int = 1, dim_end: int | None = None) -> Any:
        battr = self.bias_attr
        if not battr:
            return input_var
        b = self.create_parameter(battr, list(input_var.shape[dim_start:dim_end]), input_var.dtype, is_bias=True)
        with layer_helper(self.layer_type, self.name):
            return P("paddle.fluid.layers.elementwise_add")(input_var, b, axis=dim_start)

    def append_activation(self, input_var: Any) -> Any:
        return self._activate(input_var, self.kwargs.get("act"))

    def _activate(self, input_var: Any, act: Any, where: str = "") -> Any:
        """input_var through the activation `act` (a name; None: as it is), recorded under this helper's name."""
        if act is None:
            return input_var
        if not isinstance(act, str):
            raise TypeError(f"{act} should be unicode or str{where}")
        from paddle_compat.engine.ops.nn_functional.activation import act_layer

        with layer_helper(self.layer_type, self.name):
            return act_layer(input_var, act)


export(LayerHelper, "paddle.fluid.layer_helper.LayerHelper", "paddle.fluid.layers.utils.LayerHelper")
APPEND_OP.append(append_op)
