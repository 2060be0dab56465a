"""Static graphs: Program, Block, Variable, Parameter and the Operator view.

A Block owns a `torch.fx.Graph`. Recording an op appends a `call_function` node whose target is the op's
registry body (so a GraphModule built from the graph runs as plain Python calling torch), and whose meta
carries the Paddle view: `op_type`, `attrs`, `role` (forward / backward / optimize / loss_grad / lr) and
the names of the variables it writes. Values are SSA: a Variable points at the node that currently holds
its value, and an op that writes an existing variable (an optimizer's `ParamOut = Param`, `assign(x,
output=v)`) moves that pointer, keeping the name. Variables with no producing op (feeds, parameters,
other persistables) are `placeholder` nodes; the Executor fills them from the feed or the Scope.
"""

from __future__ import annotations

import contextlib
import copy
import sys
from typing import Any, Iterator

import torch.fx as fx

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.mode import static_entry_point
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.tensor import TensorMethods

ROLE_FORWARD = "forward"
ROLE_BACKWARD = "backward"
ROLE_LOSS_GRAD = "loss_grad"
ROLE_OPTIMIZE = "optimize"
ROLE_LR = "lr_sched"
NON_FORWARD_ROLES = (ROLE_BACKWARD, ROLE_LOSS_GRAD, ROLE_OPTIMIZE, ROLE_LR)


class VarType:
    """The subset of `core.VarDesc.VarType` scripts compare against."""

    LOD_TENSOR = "LOD_TENSOR"
    SELECTED_ROWS = "SELECTED_ROWS"
    LOD_TENSOR_ARRAY = "LOD_TENSOR_ARRAY"
    FEED_MINIBATCH = "FEED_MINIBATCH"
    FETCH_LIST = "FETCH_LIST"
    RAW = "RAW"
    READER = "READER"
    BOOL = _dt.DTYPES["bool"]
    INT16 = _dt.DTYPES["int16"]
    INT32 = _dt.DTYPES["int32"]
    INT64 = _dt.DTYPES["int64"]
    FP16 = _dt.DTYPES["float16"]
    FP32 = _dt.DTYPES["float32"]
    FP64 = _dt.DTYPES["float64"]
    UINT8 = _dt.DTYPES["uint8"]
    INT8 = _dt.DTYPES["int8"]
    BF16 = _dt.DTYPES["bfloat16"]
    COMPLEX64 = _dt.DTYPES["complex64"]
    COMPLEX128 = _dt.DTYPES["complex128"]


def _user_frame() -> str:
    """The first stack frame outside paddle_compat: where the user recorded the op (for error messages).
    Walks the frames themselves (the 29 innermost callers): traceback.extract_stack also reads every
    frame's source line, a large share of recording an op (issue 15 item 1)."""
    f = sys._getframe(1)
    for _ in range(29):
        if f is None:
            break
        code = f.f_code
        if "paddle_compat" not in code.co_filename and "/shims/paddle" not in code.co_filename:
            return f'File "{code.co_filename}", line {f.f_lineno}, in {code.co_name}'
        f = f.f_back
    return ""


class Variable(TensorMethods):
    """A static-graph variable: name, shape (-1 for unknown dims), dtype, flags, and its current fx node."""

    def __init__(self, block: "Block", name: str, shape: Any, dtype: Any, node: fx.Node | None = None,
                 persistable: bool = False, stop_gradient: bool = False, lod_level: int = 0,
                 is_data: bool = False, need_check_feed: bool = False, type: str = VarType.LOD_TENSOR,  # noqa: A002
                 **kwargs: Any) -> None:
        self.block = block
        self.name = name
        self._shape = tuple(int(-1 if d is None else d) for d in shape) if shape is not None else ()
        self._dtype = _dt.to_dtype(dtype) if dtype is not None else _dt.default_float()
        self.node = node
        self.persistable = persistable
        self._stop_gradient = stop_gradient
        self.lod_level = lod_level
        self.is_data = is_data
        self.need_check_feed = need_check_feed
        self.type = type
        self.error_clip = kwargs.get("error_clip")

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def dim(self) -> int:
        return len(self._shape)

    @property
    def stop_gradient(self) -> bool:
        return self._stop_gradient

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        """On a computed variable, Paddle prunes the backward at it: we route every consumer through a
        `detach` node (and undo that when it is set back to False)."""
        value = bool(value)
        if value == self._stop_gradient:
            return
        self._stop_gradient = value
        node = self.node
        if node is None or node.op == "placeholder":
            return
        g = node.graph
        if value:
            with g.inserting_after(node):
                d = g.call_function(_detach, (node,))
            node.replace_all_uses_with(d, delete_user_cb=lambda u: u is not d)
            d.meta.update(var_name=self.name, op_type=None, role=node.meta.get("role", ROLE_FORWARD))
            self.node = d
        elif node.target is _detach:
            src = node.args[0]
            node.replace_all_uses_with(src)
            g.erase_node(node)
            self.node = src
        self.block.program._bump()

    @property
    def size(self):
        from paddle_compat.engine.framework.registry import OPS

        return OPS["size"].public(self)

    @property
    def program(self) -> "Program":
        return self.block.program

    @property
    def desc(self) -> Any:
        """Paddle's VarDesc of this variable (name(), type(), dtype(), shape(), lod_level(), persistable())."""
        return PROGRAM_DESC["var"](self)

    def desc_str(self) -> str:
        return (f"var {self.name} : {self.type}.shape{self._shape}.dtype({self._dtype})"
                f".stop_gradient({self.stop_gradient})")

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        s = self.desc_str()
        if with_details:
            s += f"\nis_data: {self.is_data}\npersistable: {self.persistable}\nlod_level: {self.lod_level}"
        return s

    def __repr__(self) -> str:
        return self.desc_str()

    __str__ = __repr__

    def __hash__(self) -> int:
        return id(self)

    def __bool__(self) -> bool:
        """True, as in Paddle 1.8.5 and 2.6.2 (scripts write `out + prev if prev else out` as a None check). A
        Python `if` on a value computed by the graph therefore cannot branch on it: use static control flow
        (paddle.static.nn.cond / while_loop), as in Paddle."""
        return True

    def __len__(self) -> int:
        if not self._shape or self._shape[0] < 0:
            raise TypeError(f"len() of Variable {self.name!r} with unknown first dimension {self._shape}")
        return self._shape[0]

    def item(self, *args: Any) -> "Variable":
        """Paddle 2.4 / 2.6 static `Variable.item()`: the variable itself (there is no value to read while
        building; dygraph-style code such as `[x.item() for x in paddle.linspace(0, p, n)]` keeps working),
        after checking that it has at most one dimension."""
        if len(self._shape) > 1:
            raise TypeError(f"Required input var should be 1-D Variable, but received {self._shape}")
        return self

    def numpy(self):
        raise TypeError(
            f"Variable {self.name!r} has no value in static mode; fetch it with exe.run(fetch_list=[...])"
        )

    def __deepcopy__(self, memo: dict) -> "Variable":
        return self

    def detach(self):
        from paddle_compat.engine.framework.registry import OPS

        out = OPS["assign"].public(self)
        out.stop_gradient = True
        return out

    def get_value(self, scope=None):
        from paddle_compat.engine.framework.scope import global_scope

        sv = (scope or global_scope()).find_var(self.name)
        if sv is None:
            raise ValueError(f"Variable {self.name!r} is not found in the scope; run the startup program first")
        return sv.get_tensor()

    def set_value(self, value, scope=None) -> None:
        """Variable.set_value: `value` (an ndarray or anything with __array__) into this variable's tensor in
        `scope` (default the global scope), where it must already exist with the same shape (Paddle's checks
        and messages; a static Variable as value is a TypeError, as in 2.6.2)."""
        import numpy as np

        from paddle_compat.engine.framework.scope import Scope, global_scope

        if not (isinstance(value, np.ndarray) or hasattr(value, "__array__")):
            raise TypeError(f"`value` should be `numpy.ndarray` or `LoDTensor`, but received {type(value)}.")
        if scope is not None and not isinstance(scope, Scope):
            raise TypeError(f"`scope` should be None or `paddle.static.Scope` type, but received {type(scope)}.")
        sv = (scope or global_scope()).find_var(self.name)
        if sv is None:
            raise ValueError(f"Can not find Variable '{self.name}' in the Scope.")
        t = sv.get_tensor()
        if hasattr(value, "shape") and t._t is not None:
            vshape = value.shape() if callable(value.shape) else value.shape
            if list(t.shape()) != list(vshape):
                raise ValueError(f"{self.name} expected a shape {list(t.shape())}, but the received shape is "
                                 f"{list(vshape)}.")
        t.set(value)

    def _set_error_clip(self, error_clip: Any) -> None:
        """fluid: clip this variable's gradient (fluid.clip.ErrorClipByValue, with error_clip_callback)."""
        self.error_clip = error_clip


def _detach(t):
    return t.detach()


class _PublicVariableMeta(type):
    """Paddle's VariableMetaClass: in dygraph mode a Tensor is an instance of `fluid.Variable` /
    `paddle.static.Variable` (1.8.5 and 2.6.2 both: `isinstance(to_variable(x), fluid.Variable)` is True), in static
    mode only a static Variable is."""

    def __instancecheck__(cls, inst: Any) -> bool:
        if isinstance(inst, Variable):
            return True
        from paddle_compat.engine.core.mode import MODE
        from paddle_compat.engine.framework.tensor import Tensor

        return not MODE.static and isinstance(inst, Tensor)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, Variable)


# The class scripts see at paddle.static.Variable / fluid.Variable / fluid.framework.Variable; our own code checks
# the plain Variable (static graph only).
PublicVariable = _PublicVariableMeta("Variable", (Variable,), {"__module__": "paddle.fluid.framework",
                                                              "__doc__": Variable.__doc__})


class Parameter(Variable):
    """A trainable persistable variable (`fc_0.w_0`)."""

    def __init__(self, block: "Block", name: str, shape: Any, dtype: Any, node: fx.Node | None = None,
                 trainable: bool = True, optimize_attr: dict | None = None, regularizer: Any = None,
                 do_model_average: bool | None = None, need_clip: bool = True, initializer: Any = None,
                 **kwargs: Any) -> None:
        kwargs.setdefault("persistable", True)
        super().__init__(block, name, shape, dtype, node, stop_gradient=not trainable, **kwargs)
        self.trainable = trainable
        self.optimize_attr = optimize_attr or {"learning_rate": 1.0}
        self.regularizer = regularizer
        self.do_model_average = do_model_average
        self.need_clip = need_clip
        self.initializer = initializer
        self.is_distributed = False

    def desc_str(self) -> str:
        return f"param {self.name} : {self.type}.shape{self._shape}.dtype({self._dtype}) trainable({self.trainable})"


class Operator:
    """A read-only Paddle view of one recorded node: `type`, inputs / outputs by var name, attributes."""

    def __init__(self, block: "Block", node: fx.Node, type_override: str | None = None) -> None:
        self.block = block
        self.node = node
        self.type = type_override or node.meta["op_type"]

    @property
    def attrs(self) -> dict[str, Any]:
        return dict(self.node.meta.get("attrs", {}))

    @property
    def desc(self) -> Any:
        """Paddle's OpDesc of this op (type(), input(slot), output(slot), attr(name), attr_names(), ...)."""
        return PROGRAM_DESC["op"](self)

    def attr(self, name: str) -> Any:
        attrs = self.attrs
        if name in attrs:
            return attrs[name]
        if name in _COMMON_ATTRS:
            return self.node.meta.get(name, _COMMON_ATTRS[name])
        raise KeyError(f"Operator {self.type!r} has no attribute {name!r}")

    def has_attr(self, name: str) -> bool:
        return name in self.attrs or name in _COMMON_ATTRS

    def all_attrs(self) -> dict[str, Any]:
        return self.attrs

    def _set_attr(self, name: str, value: Any) -> None:
        self.node.meta.setdefault("attrs", {})[name] = value
        if name in self.node.kwargs:
            kw = dict(self.node.kwargs)
            kw[name] = value
            self.node.kwargs = kw
        self.block.program._bump()

    @property
    def input_arg_names(self) -> list[str]:
        if "in_names" in self.node.meta:  # an input that is no graph value (feed ops read the `feed` holder)
            return list(self.node.meta["in_names"])
        return [n.meta["var_name"] for n in self.node.all_input_nodes if "var_name" in n.meta]

    @property
    def output_arg_names(self) -> list[str]:
        return list(self.node.meta.get("out_names", ()))

    def input(self, name: str) -> list[str]:
        return self.input_arg_names

    def output(self, name: str) -> list[str]:
        return self.output_arg_names

    @property
    def input_names(self) -> list[str]:
        return list(self.node.meta.get("input_slots", ["X"]))

    @property
    def output_names(self) -> list[str]:
        return ["Out"]

    def __repr__(self) -> str:
        return f"{{Out={self.output_arg_names}}} = {self.type}(inputs={self.input_arg_names}, {self.attrs})"


# Attributes every Paddle op carries (OpProtoAndCheckerMaker), with their values outside any guard; an op recorded
# under device_guard / name_scope keeps its own in node.meta (dispatch.record)
_COMMON_ATTRS = {"op_device": "", "op_namescope": "/", "op_callstack": [], "with_quant_attr": False}

# gradient op types that are not `<op>_grad` in Paddle (block.ops lists the backward node as these)
_GRAD_OP_TYPES = {"cross_entropy2": "cross_entropy_grad2"}

# Block.append_op's implementation (the fluid layer registers it: ops are run by Paddle op type there)
APPEND_OP: list = []
# Program.desc, Program.parse_from_string, Operator.desc, Variable.desc: {"program": program -> ProgramDesc view,
# "parse": bytes -> Program, "op": Operator -> OpDesc view, "var": Variable -> VarDesc view}, registered by
# engine/static/program_desc.py (the protobuf codec lives in engine/static/)
PROGRAM_DESC: dict = {}


class Block:
    def __init__(self, program: "Program", idx: int, parent_idx: int = -1) -> None:
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.graph = fx.Graph()
        self.vars: dict[str, Variable] = {}
        self._consts: dict[str, Any] = {}  # values fx cannot print, read by get_attr nodes
        # sub-blocks: (frozen outer variable, placeholder) per outer value read here; see _outer_input
        self._captures: list[tuple[Variable, fx.Node]] = []
        self._capture_map: dict[fx.Node, fx.Node] = {}

    def _outer_input(self, v: "Variable") -> fx.Node:
        """A value of an ancestor block read inside this sub-block becomes an explicit input: a placeholder
        of this block's graph (one per outer value). The control-flow op that runs the compiled sub-block
        (engine/ops/control_flow.py) passes the outer values in `_captures` order, so the parent graph stays a
        straight-line fx graph and autograd differentiates through the sub-block call."""
        ph = self._capture_map.get(v.node)
        if ph is not None:
            return ph
        b: Block = self
        while b.parent_idx >= 0 and v.node.graph is not b.graph:
            b = self.program.blocks[b.parent_idx]
        if b is self or v.node.graph is not b.graph:
            raise ValueError(
                f"variable {v.name!r} (block {v.block.idx}) is used in block {self.idx}, which is not inside "
                "the block that defines it; values computed inside a control-flow block must be returned "
                "from it (cond / while_loop outputs, StaticRNN step_output, array_write) to be used outside"
            )
        snap = copy.copy(v)  # freezes the outer value read now (the outer variable may be rebound later)
        g = self.graph
        first = next((n for n in g.nodes if n.op != "placeholder"), None)
        with g.inserting_before(first) if first is not None else contextlib.nullcontext():
            ph = g.placeholder(_fx_name(v.name))
        ph.meta.update(var_name=v.name, op_type=None, role=ROLE_FORWARD, outer=True)
        self._capture_map[v.node] = ph
        self._captures.append((snap, ph))
        return ph

    # --- variables --------------------------------------------------------------------------------
    def var(self, name: str) -> Variable:
        if not isinstance(name, str):
            raise TypeError(f"var require string as parameter, but get {type(name)} instead.")
        v = self.vars.get(name)
        if v is None:
            raise ValueError(f"var {name} not in this block")
        return v

    def has_var(self, name: str) -> bool:
        return name in self.vars

    def _find_var_recursive(self, name: str) -> Variable | None:
        b: Block | None = self
        while b is not None:
            if name in b.vars:
                return b.vars[name]
            b = self.program.blocks[b.parent_idx] if b.parent_idx >= 0 else None
        return None

    def _var_recursive(self, name: str) -> Variable:
        v = self._find_var_recursive(name)
        if v is None:
            raise ValueError(f"Var {name} is not found recursively")
        return v

    def create_var(self, name: str | None = None, shape: Any = None, dtype: Any = None,
                   persistable: bool = False, stop_gradient: bool = False, **kwargs: Any) -> Variable:
        """A variable with no producing op: a placeholder fed by the Executor or read from the Scope."""
        name = name or unique_name.generate("_generated_var")
        if name in self.vars:
            return self.vars[name]
        v = Variable(self, name, shape if shape is not None else (), dtype, persistable=persistable,
                     stop_gradient=stop_gradient, **kwargs)
        self._add_placeholder(v)
        self.vars[name] = v
        return v

    def create_parameter(self, name: str, shape: Any, dtype: Any, **kwargs: Any) -> Parameter:
        if name in self.vars:
            existing = self.vars[name]
            if isinstance(existing, Parameter):
                return existing
        p = Parameter(self, name, shape, dtype, **kwargs)
        self._add_placeholder(p)
        self.vars[name] = p
        return p

    def _add_placeholder(self, v: Variable) -> None:
        g = self.graph
        first = next((n for n in g.nodes if n.op != "placeholder"), None)
        ctx = g.inserting_before(first) if first is not None else contextlib.nullcontext()
        with ctx:
            node = g.placeholder(_fx_name(v.name))
        node.meta.update(var_name=v.name, op_type=None, role=ROLE_FORWARD)
        v.node = node
        self.program._bump()

    def all_parameters(self) -> list[Parameter]:
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def iter_parameters(self) -> Iterator[Parameter]:
        return iter(self.all_parameters())

    # --- ops ---------------------------------------------------------------------------------------
    @property
    def ops(self) -> list[Operator]:
        out: list[Operator] = []
        for n in self.graph.nodes:
            t = n.meta.get("op_type")
            if n.op != "call_function" or not t:
                continue
            if n.meta.get("role") == ROLE_BACKWARD and "grad_of" in n.meta:
                listing = n.meta.get("op_listing") or [_GRAD_OP_TYPES.get(g, f"{g}_grad") for g in n.meta["grad_of"]]
                out.extend(Operator(self, n, t) for t in listing)
                continue
            out.append(Operator(self, n, n.meta.get("paddle_type")))  # paddle_type: Paddle's op for ours (x[0]: slice)
        return out

    def append_op(self, type: str, inputs: Any = None, outputs: Any = None, attrs: Any = None,  # noqa: A002
                  **kwargs: Any) -> Any:
        """Paddle's Block.append_op: run the op of that type (engine/static/layer_helper.py, registered in APPEND_OP)
        and name its results after `outputs`."""
        if not APPEND_OP:
            raise RuntimeError("Block.append_op: paddle_compat.fluid is not loaded")
        with program_guard(self.program):
            return APPEND_OP[0](type, inputs, outputs, attrs, **kwargs)

    def _remove_op(self, index: int) -> None:
        """Paddle's Block._remove_op. An op that wrote an existing variable (an initializer called on a parameter,
        `assign(x, output=v)`) goes alone: its readers read the variable's value from before it, as in Paddle, where
        they read the variable; any other op goes with the ops that read its outputs."""
        op = self.ops[index]
        node, name = op.node, op.node.meta.get("var_name")
        prev = None
        if name is not None:
            cur = node.prev
            while cur.op != "root" and prev is None:
                if cur.meta.get("var_name") == name:
                    prev = cur
                cur = cur.prev
        if prev is None:
            _erase_with_users(self.graph, node)
        else:
            node.replace_all_uses_with(prev)
            for v in self.vars.values():
                if v.node is node:
                    v.node = prev
            self.graph.erase_node(node)
        self.program._bump()

    def _sync_with_cpp(self) -> None:
        pass

    def __repr__(self) -> str:
        return self.to_string()

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        lines = [f"{{ // block {self.idx}"]
        lines += ["    " + v.to_string(throw_on_error, with_details) for v in self.vars.values()]
        lines += ["    " + repr(op) for op in self.ops]
        lines.append("}")
        return "\n".join(lines)


def _erase_with_users(graph: fx.Graph, node: fx.Node) -> None:
    for u in list(node.users):
        _erase_with_users(graph, u)
    graph.erase_node(node)


def _fx_name(name: str) -> str:
    s = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return s if s and not s[0].isdigit() else "v_" + s


class Program:
    def __init__(self) -> None:
        self.blocks = [Block(self, 0)]
        self.current_block_idx = 0
        self.random_seed = 0
        self._version = 0
        self._exec_cache: dict[Any, Any] = {}
        self._is_test = False
        self.lr_sheduler = None  # Paddle's spelling: the Executor steps it into the lr variable each run
        self._appending_grad_times = 0

    def _bump(self) -> None:
        self._version += 1
        if self._exec_cache:
            self._exec_cache.clear()

    # --- blocks ------------------------------------------------------------------------------------
    def global_block(self) -> Block:
        return self.blocks[0]

    def current_block(self) -> Block:
        return self.blocks[self.current_block_idx]

    def block(self, index: int) -> Block:
        return self.blocks[index]

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def _create_block(self, parent_idx: int | None = None) -> Block:
        parent = self.current_block_idx if parent_idx is None else parent_idx
        b = Block(self, len(self.blocks), parent)
        self.blocks.append(b)
        self.current_block_idx = b.idx
        return b

    def _rollback(self) -> None:
        self.current_block_idx = self.current_block().parent_idx

    # --- queries -----------------------------------------------------------------------------------
    def list_vars(self) -> Iterator[Variable]:
        for b in self.blocks:
            yield from b.vars.values()

    def all_parameters(self) -> list[Parameter]:
        return [p for b in self.blocks for p in b.all_parameters()]

    @property
    def desc(self) -> Any:
        """Paddle's ProgramDesc of this program (`serialize_to_string()` gives its protobuf bytes; changing the desc
        does not change the program)."""
        return PROGRAM_DESC["program"](self)

    @staticmethod
    def parse_from_string(binary_str: Any) -> "Program":
        """A Program from ProgramDesc bytes (`program.desc.serialize_to_string()`, ours or real Paddle's)."""
        return PROGRAM_DESC["parse"](binary_str)

    def global_seed(self, seed: int = 0) -> None:
        self.random_seed = seed

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        return "\n".join(b.to_string(throw_on_error, with_details) for b in self.blocks)

    def __str__(self) -> str:
        return self.to_string()

    def state_dict(self, mode: str = "all", scope=None) -> dict:
        from paddle_compat.engine.framework.scope import global_scope

        scope = scope or global_scope()
        out = {}
        for v in self.list_vars():
            if not v.persistable:
                continue
            if mode == "param" and not isinstance(v, Parameter):
                continue
            if mode == "opt" and isinstance(v, Parameter):
                continue
            sv = scope.find_var(v.name)
            if sv is not None and sv.is_initialized():
                out[v.name] = sv.get_tensor()
        return out

    def set_state_dict(self, state_dict: dict, scope=None) -> None:
        from paddle_compat.engine.framework.scope import global_scope

        scope = scope or global_scope()
        for name, value in state_dict.items():
            if name not in self.global_block().vars:
                continue
            scope.var(name).get_tensor().set(value.numpy() if hasattr(value, "numpy") else value)

    # --- clone -------------------------------------------------------------------------------------
    def clone(self, for_test: bool = False) -> "Program":
        """Copy the program; `for_test=True` drops backward / optimizer ops and switches dropout and
        batch_norm (every op with an `is_test_attr`) to inference behaviour."""
        new = Program()
        new.random_seed = self.random_seed
        new.lr_sheduler = self.lr_sheduler
        new._appending_grad_times = self._appending_grad_times
        new.blocks = []
        for b in self.blocks:
            nb = Block(new, b.idx, b.parent_idx)
            val_map: dict[fx.Node, fx.Node] = {}
            nb.graph.graph_copy(b.graph, val_map)
            nb._consts = dict(b._consts)
            for name, v in b.vars.items():
                nv = copy.copy(v)
                nv.block = nb
                nv.node = val_map.get(v.node) if v.node is not None else None
                nb.vars[name] = nv
            new.blocks.append(nb)
        if for_test:
            new._is_test = True
            for nb in new.blocks:
                _prune_for_test(nb)
        new._bump()
        return new

    def _prune(self, targets: Any) -> "Program":
        return self.clone()

    def _inference_optimize(self, prune_read_op: bool = True) -> "Program":
        return self.clone(for_test=True)


def _prune_for_test(block: Block) -> None:
    g = block.graph
    for n in reversed(list(g.nodes)):
        if n.meta.get("role") in NON_FORWARD_ROLES and n.op == "call_function":
            _erase_with_users(g, n)
    alive = set(g.nodes)
    for name in list(block.vars):
        v = block.vars[name]
        if v.node is not None and v.node not in alive:
            # a var last written by an optimizer op (e.g. a parameter) falls back to its placeholder
            ph = next((n for n in g.nodes if n.op == "placeholder" and n.meta.get("var_name") == name), None)
            if ph is None:
                del block.vars[name]
            else:
                v.node = ph
    _switch_to_test(g)
    for key, c in list(block._consts.items()):
        if isinstance(c, fx.GraphModule):  # a control-flow sub-block compiled at record time
            block._consts[key] = _test_copy(c)


def _switch_to_test(graph: fx.Graph) -> bool:
    """Set every op's `is_test_attr` (dropout, batch_norm, ...) to inference; True if anything changed."""
    changed = False
    for n in graph.nodes:
        opdef = n.meta.get("opdef")
        if opdef is not None and opdef.is_test_attr:
            n.kwargs = {**n.kwargs, opdef.is_test_attr: True}
            n.meta.setdefault("attrs", {})["is_test"] = True
            changed = True
    return changed


def _test_copy(gm: fx.GraphModule) -> fx.GraphModule:
    """An inference copy of a sub-block module (nested sub-blocks included); the original stays as it was."""
    gm = copy.deepcopy(gm)
    for name, sub in list(vars(gm).items()):
        if isinstance(sub, fx.GraphModule):
            setattr(gm, name, _test_copy(sub))
    for name, sub in list(gm.named_children()):
        if isinstance(sub, fx.GraphModule):
            setattr(gm, name, _test_copy(sub))
    if _switch_to_test(gm.graph):
        gm.recompile()
    return gm


# --- default programs ------------------------------------------------------------------------------
_main = [Program()]
_startup = [Program()]


def default_main_program() -> Program:
    return _main[0]


def default_startup_program() -> Program:
    return _startup[0]


def switch_main_program(p: Program) -> Program:
    old = _main[0]
    _main[0] = p
    return old


def switch_startup_program(p: Program) -> Program:
    old = _startup[0]
    _startup[0] = p
    return old


@contextlib.contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None) -> Iterator[None]:
    if not isinstance(main_program, Program):
        raise TypeError(
            f"The type of main_program in program_guard must be Program, but received {type(main_program).__name__}"
        )
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(
            f"The type of startup_program in program_guard must be Program, but received "
            f"{type(startup_program).__name__}"
        )
    static_entry_point()
    old_main = switch_main_program(main_program)
    old_startup = switch_startup_program(startup_program) if startup_program is not None else None
    try:
        yield
    finally:
        switch_main_program(old_main)
        if old_startup is not None:
            switch_startup_program(old_startup)


class _NameScope:
    """Paddle's NameScope tree: a repeated prefix under one parent gets `_1`, `_2`, ... (framework.py)."""

    def __init__(self, name: str = "", parent: "_NameScope | None" = None) -> None:
        self.name, self.parent = name, parent
        self.children: dict[str, list] = {}

    def child(self, prefix: str) -> "_NameScope":
        kids = self.children.setdefault(prefix, [])
        kid = _NameScope(prefix if not kids else f"{prefix}_{len(kids)}", self)
        kids.append(kid)
        return kid


_NAME_SCOPE = [_NameScope()]
# paddle.static.device_guard's device ("" outside any guard): recorded on each op as its `op_device` attribute
OP_DEVICE = [""]


def full_name_scope() -> str:
    """The `op_namescope` attribute of an op recorded now: "/" at the top, "/blk/" inside name_scope('blk')."""
    scope, name = _NAME_SCOPE[0], ""
    while scope is not None:
        name = scope.name + "/" + name
        scope = scope.parent
    return name


@contextlib.contextmanager
def name_scope(prefix: str | None = None) -> Iterator[None]:
    """paddle.static.name_scope / fluid.name_scope: ops recorded inside carry `op_namescope` '/prefix/'."""
    from paddle_compat.engine.core.mode import MODE

    if not MODE.static and (MODE.explicit or MODE.dygraph_used):  # Paddle: nothing in dygraph
        yield
        return
    if not prefix:
        raise AssertionError("namescope prefix can not be empty.")
    outer = _NAME_SCOPE[0]
    _NAME_SCOPE[0] = outer.child(prefix)
    try:
        yield
    finally:
        _NAME_SCOPE[0] = outer


def user_frame() -> str:
    return _user_frame()
