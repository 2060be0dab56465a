"""`Program.desc`, `Program.parse_from_string` and `fluid.core.ProgramDesc`: Paddle's protobuf ProgramDesc.

`program.desc` is a view with the C++ desc's methods (`serialize_to_string()`, `num_blocks()`,
`block(i).op_size()`, `.op(i).type()`, `.input(slot)`, `.attr(name)`, `.var(name).shape()`, and the setters
Paddle's test_protobuf_descs.py drives: `append_block`, `var(name)` (creates), `set_shape`, `append_op`,
`set_input`, `_set_attr`, `_remove_op`, ...) over a ProgramDesc dict (the shape engine/static/proto.py decodes):
- of one of our Programs: its blocks' variables (VarDesc: name, kind, dtype, dims, lod_level, persistable,
  need_check_feed) and `block.ops` as Paddle lists them (op type, input / output variable names, the attributes
  that are plain values, `sub_block` of control flow, and `op_role`). Our ops do not know Paddle's slot names,
  so an op's inputs are one slot `X` and its outputs one slot `Out`, unless it recorded its slots; the
  backward's `*_grad` ops have no inputs or outputs listed (one autograd node computes them all,
  engine/static/backward.py). Changing this view does not change the Program (there is no _sync_with_cpp back);
- of a program parsed from bytes: the parsed ProgramDesc itself, until the program is changed.
`serialize_to_string()` writes that dict as protobuf bytes real Paddle 1.8.5 parses
(tests/fluid/test_desc18.py), plus, in a field Paddle does not know (OURS_FIELD, kept and ignored by protobuf
readers), our own program description (engine/static/io.py's JSON), so `parse_from_string` of our bytes rebuilds
the very graph. Bytes real Paddle wrote are rebuilt from their ops (engine/static/pdmodel.py `program_from_main_desc`:
forward ops through the registry, the `*_grad` ops as one append_backward of the loss whose `@GRAD` the
backward's fill_constant seeds, then the optimizer ops).
"""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import NotFoundError
from paddle_compat.engine.framework.program import (ROLE_BACKWARD, ROLE_FORWARD, ROLE_LOSS_GRAD, ROLE_LR, ROLE_OPTIMIZE,
                                             Parameter, Program, VarType)
from paddle_compat.engine.static import proto

# a field number framework.proto does not use: our JSON program (protobuf readers keep unknown fields and skip them)
OURS_FIELD = 1536
# Paddle's OpRole values (framework/op_proto_maker.h)
ROLE_CODES = {ROLE_FORWARD: 0, ROLE_BACKWARD: 1, ROLE_OPTIMIZE: 2, ROLE_LR: 16, ROLE_LOSS_GRAD: 257}
_KIND_CODES = {name: code for code, name in proto.VAR_TYPE_NAMES.items()}  # VarType.LOD_TENSOR -> 7, ...
_DTYPE_CODES = {name: code for code, name in proto.DTYPE_NAMES.items()}
_INT32 = (-(1 << 31), (1 << 31) - 1)
# ProgramDesc.version of the programs Paddle 1.8.5 writes (its version number, 1.8.5 -> 1008005)
PADDLE_VERSION = 1008005


def _attr(name: str, v: Any) -> dict | None:
    """An OpDesc.Attr for a plain value (AttrType: 0 INT, 1 FLOAT, 2 STRING, 3 INTS, 4 FLOATS, 5 STRINGS,
    6 BOOLEAN, 7 BOOLEANS, 9 LONG, 11 LONGS); None for values a ProgramDesc cannot hold."""
    if isinstance(v, bool):
        return {"name": name, "type": 6, "b": v}
    if isinstance(v, int):
        return {"name": name, "type": 0, "i": v} if _INT32[0] <= v <= _INT32[1] else {"name": name, "type": 9, "l": v}
    if isinstance(v, float):
        return {"name": name, "type": 1, "f": v}
    if isinstance(v, str):
        return {"name": name, "type": 2, "s": v}
    if isinstance(v, (list, tuple)):
        items = list(v)
        if all(isinstance(x, bool) for x in items) and items:
            return {"name": name, "type": 7, "bools": items}
        if all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            if all(_INT32[0] <= x <= _INT32[1] for x in items):
                return {"name": name, "type": 3, "ints": items}
            return {"name": name, "type": 11, "longs": items}
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
            return {"name": name, "type": 4, "floats": [float(x) for x in items]}
        if all(isinstance(x, str) for x in items):
            return {"name": name, "type": 5, "strings": items}
    return None


def _var_desc(v: Any) -> dict:
    kind = _KIND_CODES.get(v.type, proto.LOD_TENSOR)
    tensor = {"data_type": _DTYPE_CODES.get(v.dtype.name, 5), "dims": [int(d) for d in v.shape]}
    vt: dict[str, Any] = {"type": kind}
    if kind == proto.SELECTED_ROWS:
        vt["selected_rows"] = tensor
    elif kind == proto.LOD_TENSOR_ARRAY:
        vt["tensor_array"] = {"tensor": tensor, "lod_level": int(v.lod_level)}
    elif kind == proto.LOD_TENSOR:
        vt["lod_tensor"] = {"tensor": tensor, "lod_level": int(v.lod_level)}
    return {"name": v.name, "type": vt, "persistable": bool(v.persistable), "need_check_feed": bool(v.need_check_feed),
            "is_parameter": isinstance(v, Parameter), "stop_gradient": bool(v.stop_gradient)}


def _op_desc(op: Any) -> dict:
    node = op.node
    role = node.meta.get("role", ROLE_FORWARD)
    listed = op.type != (node.meta.get("paddle_type") or node.meta.get("op_type"))  # one of the backward's *_grad ops
    ins = [] if listed else op.input_arg_names
    outs = [] if listed else op.output_arg_names
    slots = node.meta.get("input_slots")
    if slots and len(slots) == len(ins):
        inputs = [{"parameter": s, "arguments": [a]} for s, a in zip(slots, ins)]
    else:
        inputs = [{"parameter": "X", "arguments": ins}] if ins else []
    attrs = [] if listed else [a for k, v in sorted(op.attrs.items()) if (a := _attr(k, v)) is not None]
    sub = _sub_block(op)
    if sub is not None:
        attrs.append({"name": "sub_block", "type": 8, "block_idx": sub})
    attrs.append({"name": "op_role", "type": 0, "i": ROLE_CODES.get(role, 0)})
    attrs += [{"name": k, "type": 2, "s": op.attr(k)} for k in ("op_namescope", "op_device")]
    return {"type": op.type, "inputs": inputs, "outputs": [{"parameter": "Out", "arguments": outs}] if outs else [],
            "attrs": attrs}


def _sub_block(op: Any) -> int | None:
    """The block a control-flow op runs: its compiled sub-graph (engine/ops/control_flow.py compile_block) is a constant
    of the op's block named after the sub-block (`block_<idx>`)."""
    for n in op.node.all_input_nodes:
        if n.op == "get_attr":
            kind = type(op.block._consts.get(n.target)).__name__
            if kind.startswith("block_") and kind[6:].isdigit():
                return int(kind[6:])
    return None


def program_desc_dict(program: Program) -> dict:
    """The ProgramDesc of one of our Programs (see the module docstring for what it holds)."""
    blocks = [{"idx": b.idx, "parent_idx": b.parent_idx, "vars": [_var_desc(v) for v in b.vars.values()],
               "ops": [_op_desc(op) for op in b.ops], "forward_block_idx": -1} for b in program.blocks]
    return {"blocks": blocks, "version": {"version": PADDLE_VERSION}}


def _ours_json(program: Program) -> bytes | None:
    from paddle_compat.engine.core.errors import UnimplementedError
    from paddle_compat.engine.static.io import serialize_program_desc

    try:
        return serialize_program_desc(program)
    except (UnimplementedError, TypeError, ValueError):  # a node our JSON cannot hold: the protobuf part only
        return None


# --- views with the C++ desc's methods ------------------------------------------------------------------------
def _name(n: Any) -> str:
    return n.decode() if isinstance(n, bytes) else str(n)


class AttrType:
    """`fluid.core.AttrType` (framework.proto)."""

    INT, FLOAT, STRING, INTS, FLOATS, STRINGS, BOOLEAN, BOOLEANS, BLOCK, LONG, BLOCKS, LONGS = range(12)


class _View:
    """A view of one message of a ProgramDesc dict; views of the same message are equal (C++: the same object).
    A change through a view drops the desc's cached bytes (and our JSON program, which no longer matches)."""

    def __init__(self, d: dict, owner: "ProgramDesc") -> None:
        self._d, self._owner = d, owner

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other._d is self._d

    def __hash__(self) -> int:
        return id(self._d)

    def _changed(self) -> None:
        self._owner._bytes = None
        self._owner._ours = None


def _new_var(name: str) -> dict:
    return {"name": name, "type": {"type": proto.LOD_TENSOR, "lod_tensor": {"tensor": {"data_type": 5, "dims": []},
                                                                           "lod_level": 0}},
            "persistable": False, "need_check_feed": False}


class VarDesc(_View):
    def name(self) -> str:
        return self._d["name"]

    def type(self) -> Any:  # noqa: A003 - Paddle's method name
        code = self._d["type"]["type"]
        return getattr(VarType, proto.VAR_TYPE_NAMES.get(code, "RAW"), VarType.RAW)

    def dtype(self) -> Any:
        dtype = proto.tensor_desc(self._d["type"])[0]
        return _dt.to_dtype(dtype) if dtype else None

    def shape(self) -> list[int]:
        return proto.tensor_desc(self._d["type"])[1]

    def lod_level(self) -> int:
        return proto.tensor_desc(self._d["type"])[2]

    def persistable(self) -> bool:
        return bool(self._d["persistable"])

    def need_check_feed(self) -> bool:
        return bool(self._d["need_check_feed"])

    # --- changes (the C++ VarDesc setters) ---
    def _lod_tensor(self) -> dict:
        """The LoDTensorDesc-like holder of this kind ({"tensor": TensorDesc, "lod_level"})."""
        vt = self._d["type"]
        kind = vt["type"]
        empty = {"tensor": {"data_type": 5, "dims": []}, "lod_level": 0}
        if kind == proto.SELECTED_ROWS:
            holder = {"tensor": vt.setdefault("selected_rows", {"data_type": 5, "dims": []}), "lod_level": 0}
            return holder
        key = "tensor_array" if kind == proto.LOD_TENSOR_ARRAY else "lod_tensor"
        if vt.get(key) is None:
            vt[key] = empty
        return vt[key]

    def set_type(self, var_type: Any) -> None:
        old = proto.tensor_desc(self._d["type"])
        kind = _KIND_CODES.get(var_type, getattr(var_type, "value", var_type))
        self._d["type"] = {"type": int(kind)}
        if old[0] is not None:
            h = self._lod_tensor()
            h["tensor"].update(data_type=_DTYPE_CODES[old[0]], dims=list(old[1]))
        self._changed()

    def set_shape(self, dims: Any) -> None:
        self._lod_tensor()["tensor"]["dims"] = [int(d) for d in dims]
        self._changed()

    def set_dtype(self, dtype: Any) -> None:
        self._lod_tensor()["tensor"]["data_type"] = _DTYPE_CODES[_dt.to_dtype(dtype).name]
        self._changed()

    def set_lod_level(self, lod_level: int) -> None:
        self._lod_tensor()["lod_level"] = int(lod_level)
        self._changed()

    def set_persistable(self, persistable: bool) -> None:
        self._d["persistable"] = bool(persistable)
        self._changed()

    def set_need_check_feed(self, need: bool) -> None:
        self._d["need_check_feed"] = bool(need)
        self._changed()

    # a READER's per-slot descs
    def _reader(self, n: int | None = None) -> list:
        r = self._d["type"].setdefault("reader", {"lod_tensor": []})
        if r is None:
            r = self._d["type"]["reader"] = {"lod_tensor": []}
        while n is not None and len(r["lod_tensor"]) < n:
            r["lod_tensor"].append({"tensor": {"data_type": 5, "dims": []}, "lod_level": 0})
        return r["lod_tensor"]

    def set_shapes(self, shapes: Any) -> None:
        for t, dims in zip(self._reader(len(shapes)), shapes):
            t["tensor"]["dims"] = [int(d) for d in dims]
        self._changed()

    def shapes(self) -> list[list[int]]:
        return [list(t["tensor"]["dims"]) for t in self._reader()]

    def set_dtypes(self, dtypes: Any) -> None:
        for t, dt in zip(self._reader(len(dtypes)), dtypes):
            t["tensor"]["data_type"] = _DTYPE_CODES[_dt.to_dtype(dt).name]
        self._changed()

    def dtypes(self) -> list:
        return [_dt.to_dtype(proto.DTYPE_NAMES[t["tensor"]["data_type"]]) for t in self._reader()]

    def set_lod_levels(self, levels: Any) -> None:
        for t, lv in zip(self._reader(len(levels)), levels):
            t["lod_level"] = int(lv)
        self._changed()

    def lod_levels(self) -> list[int]:
        return [int(t["lod_level"]) for t in self._reader()]

    def __repr__(self) -> str:
        return f"VarDesc({self.name()!r})"


class OpDesc(_View):
    def type(self) -> str:  # noqa: A003 - Paddle's method name
        return self._d["type"]

    def _slots(self, key: str) -> dict[str, list[str]]:
        return {v["parameter"]: list(v["arguments"]) for v in self._d[key]}

    def input(self, name: str) -> list[str]:  # noqa: A003 - Paddle's method name
        return self._slots("inputs").get(name, [])

    def output(self, name: str) -> list[str]:
        return self._slots("outputs").get(name, [])

    def input_names(self) -> list[str]:
        return list(self._slots("inputs"))

    def output_names(self) -> list[str]:
        return list(self._slots("outputs"))

    def input_arg_names(self) -> list[str]:
        return [a for args in self._slots("inputs").values() for a in args]

    def output_arg_names(self) -> list[str]:
        return [a for args in self._slots("outputs").values() for a in args]

    def attr_names(self) -> list[str]:
        return [a["name"] for a in self._d["attrs"]]

    def has_attr(self, name: str) -> bool:
        return name in self.attr_names()

    def _find(self, name: str) -> dict:
        for a in self._d["attrs"]:
            if a["name"] == name:
                return a
        raise NotFoundError(f"OpDesc.attr: op {self.type()!r} has no attribute {name!r}")

    def attr(self, name: str) -> Any:
        return proto.attr_value(self._find(name))

    def attr_type(self, name: str) -> int:
        return int(self._find(name)["type"])

    def _block_attr_id(self, name: str) -> int:
        return int(self._find(name)["block_idx"])

    # --- changes (the C++ OpDesc setters) ---
    def set_type(self, op_type: str) -> None:
        self._d["type"] = str(op_type)
        self._changed()

    def _set_slot(self, key: str, slot: str, names: Any) -> None:
        names = [_name(n) for n in names]
        for v in self._d[key]:
            if v["parameter"] == slot:
                v["arguments"] = names
                break
        else:
            self._d[key].append({"parameter": slot, "arguments": names})
        self._changed()

    def set_input(self, slot: str, names: Any) -> None:
        self._set_slot("inputs", slot, names)

    def set_output(self, slot: str, names: Any) -> None:
        self._set_slot("outputs", slot, names)

    def _put_attr(self, a: dict) -> None:
        self._d["attrs"] = [x for x in self._d["attrs"] if x["name"] != a["name"]] + [a]
        self._changed()

    def _set_attr(self, name: str, value: Any) -> None:
        """As 1.8.5's binding: a Python bool (and a list of them) is stored as an INT (INTS), which its op checker
        would turn into the BOOLEAN an op declares."""
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(x, bool) for x in value):
            value = [int(x) for x in value]
        a = _attr(name, value)
        if a is None:
            raise TypeError(f"OpDesc._set_attr: attribute {name!r} of op {self.type()!r}: a value of type "
                            f"{type(value).__name__} cannot be an OpDesc attribute")
        self._put_attr(a)

    set_attr = _set_attr

    def set_block_attr(self, name: str, block: "BlockDesc") -> None:
        self._put_attr({"name": name, "type": AttrType.BLOCK, "block_idx": block.id})

    def remove_attr(self, name: str) -> None:
        self._d["attrs"] = [x for x in self._d["attrs"] if x["name"] != name]
        self._changed()

    def check_attrs(self) -> None:
        from paddle_compat.engine.core.errors import UnsupportedAPIError

        raise UnsupportedAPIError("OpDesc.check_attrs", "the C++ op registry's attribute defaults are not "
                                                        "available (ops here are registry functions, not OpProtos)")

    def __repr__(self) -> str:
        return f"OpDesc({self.type()!r})"


class BlockDesc(_View):
    @property
    def id(self) -> int:  # noqa: A003 - Paddle's attribute name
        return int(self._d["idx"])

    @property
    def parent(self) -> int:
        return int(self._d["parent_idx"])

    def op_size(self) -> int:
        return len(self._d["ops"])

    def op(self, i: int) -> OpDesc:
        return OpDesc(self._d["ops"][i], self._owner)

    def all_vars(self) -> list[VarDesc]:
        return [VarDesc(v, self._owner) for v in self._d["vars"]]

    def has_var(self, name: Any) -> bool:
        return any(v["name"] == _name(name) for v in self._d["vars"])

    def find_var(self, name: Any) -> VarDesc | None:
        n = _name(name)
        return next((VarDesc(v, self._owner) for v in self._d["vars"] if v["name"] == n), None)

    def _parent_block(self) -> "BlockDesc | None":
        return self._owner.block(self.parent) if self.parent >= 0 else None

    def find_var_recursive(self, name: Any) -> VarDesc | None:
        b: BlockDesc | None = self
        while b is not None:
            v = b.find_var(name)
            if v is not None:
                return v
            b = b._parent_block()
        return None

    def has_var_recursive(self, name: Any) -> bool:
        return self.find_var_recursive(name) is not None

    def var(self, name: Any) -> VarDesc:
        """The variable of that name, created (a float32 LoDTensor) if the block has none, as the C++ BlockDesc."""
        v = self.find_var(name)
        if v is None:
            d = _new_var(_name(name))
            self._d["vars"].append(d)
            self._changed()
            v = VarDesc(d, self._owner)
        return v

    def _remove_var(self, name: Any) -> None:
        self._d["vars"] = [v for v in self._d["vars"] if v["name"] != _name(name)]
        self._changed()

    def _insert_op(self, index: int) -> OpDesc:
        d = {"type": "", "inputs": [], "outputs": [], "attrs": []}
        self._d["ops"].insert(index, d)
        self._changed()
        return OpDesc(d, self._owner)

    def append_op(self) -> OpDesc:
        return self._insert_op(len(self._d["ops"]))

    def _prepend_op(self) -> OpDesc:
        return self._insert_op(0)

    def _remove_op(self, start: int, end: int) -> None:
        del self._d["ops"][start:end]
        self._changed()

    def serialize_to_string(self) -> bytes:
        return proto.encode(self._d, "BlockDesc")

    def __repr__(self) -> str:
        return f"BlockDesc({self.id})"


class ProgramDesc:
    """`fluid.core.ProgramDesc`: `ProgramDesc()` (one empty block), `ProgramDesc(bytes)` (parsed protobuf bytes),
    `ProgramDesc(desc)` (a copy); also `program.desc` of a Program. Views of its blocks, ops and variables read
    and change it as the C++ desc's methods do (a changed desc does not change the Program it came from)."""

    def __init__(self, data: Any = None, _desc: dict | None = None, _ours: bytes | None = None) -> None:
        if _desc is not None:
            self._desc, self._ours, self._bytes = _desc, _ours, None
            return
        if isinstance(data, ProgramDesc):  # core.ProgramDesc(desc): a copy
            data = data.serialize_to_string()
        if data is None:
            self._desc = {"blocks": [{"idx": 0, "parent_idx": -1, "vars": [], "ops": [], "forward_block_idx": -1}],
                          "version": {"version": PADDLE_VERSION}}
            self._bytes = self._ours = None
            return
        data = bytes(data)
        if data[:1] == b"{":  # a program file we wrote (save_inference_model's __model__): our JSON program
            from paddle_compat.engine.static.io import deserialize_program_desc

            self._desc, self._ours = program_desc_dict(deserialize_program_desc(data.decode())), data
            self._bytes = None
            return
        self._bytes = data
        self._desc = proto.parse_program_desc(self._bytes)
        self._ours = _extension(self._bytes)

    def num_blocks(self) -> int:
        return len(self._desc["blocks"])

    def block(self, i: int) -> BlockDesc:
        return BlockDesc(self._desc["blocks"][i], self)

    def append_block(self, parent: BlockDesc) -> BlockDesc:
        d = {"idx": len(self._desc["blocks"]), "parent_idx": parent.id, "vars": [], "ops": [], "forward_block_idx": -1}
        self._desc["blocks"].append(d)
        self._bytes = self._ours = None
        return BlockDesc(d, self)

    def serialize_to_string(self) -> bytes:
        if self._bytes is None:
            body = proto.encode(self._desc, "ProgramDesc")
            if self._ours is not None:
                body += proto.encode_field(OURS_FIELD, 2, self._ours)
            self._bytes = body
        return self._bytes

    def _version(self) -> int:
        return int((self._desc.get("version") or {}).get("version", 0))

    def _set_version(self, version: int = PADDLE_VERSION) -> None:
        self._desc["version"] = {"version": int(version)}
        self._bytes = None

    def flush(self) -> None:
        """The C++ desc writes its pending edits into the protobuf; here they are written when serialized."""

    def _targets(self, kind: str, key: str, slot: str) -> list[str]:
        cols = []
        for op in self._desc["blocks"][0]["ops"]:
            if op["type"] == kind:
                col = next((proto.attr_value(a) for a in op["attrs"] if a["name"] == "col"), len(cols))
                args = [v["arguments"] for v in op[key] if v["parameter"] == slot]
                cols.append((int(col), args[0][0] if args and args[0] else ""))
        return [n for _, n in sorted(cols)]

    def get_feed_target_names(self) -> list[str]:
        return self._targets("feed", "outputs", "Out")

    def get_fetch_target_names(self) -> list[str]:
        return self._targets("fetch", "inputs", "X")

    def __repr__(self) -> str:
        return f"ProgramDesc({self.num_blocks()} blocks)"


def _extension(data: bytes) -> bytes | None:
    for num, wt, val in proto.iter_fields(data):
        if num == OURS_FIELD and wt == 2:
            return bytes(val)
    return None


def program_desc(program: Program) -> ProgramDesc:
    """`program.desc`: the parsed desc of a program read by parse_from_string (while unchanged), else one built
    from the program (cached per program version)."""
    parsed = getattr(program, "_parsed_desc", None)
    if parsed is not None and parsed[1] == program._version:
        return parsed[0]
    cached = getattr(program, "_desc_cache", None)
    if cached is not None and cached[1] == program._version:
        return cached[0]
    desc = ProgramDesc(_desc=program_desc_dict(program), _ours=_ours_json(program))
    program._desc_cache = (desc, program._version)
    return desc


def parse_from_string(binary_str: Any) -> Program:
    """`fluid.Program.parse_from_string`: a Program from ProgramDesc bytes (ours, or written by real Paddle)."""
    if isinstance(binary_str, str):
        binary_str = binary_str.encode("latin-1")
    desc = ProgramDesc(binary_str)
    if desc._ours is not None:
        from paddle_compat.engine.static.io import deserialize_program_desc

        program = deserialize_program_desc(desc._ours.decode())
    else:
        from paddle_compat.engine.static.pdmodel import program_from_main_desc

        program = program_from_main_desc(desc._desc, "(Program.parse_from_string)",
                                         "fluid.Program.parse_from_string")
    program._parsed_desc = (desc, program._version)
    return program


from paddle_compat.engine.framework.program import PROGRAM_DESC  # noqa: E402

def _op_view(op: Any) -> OpDesc:
    return OpDesc(_op_desc(op), ProgramDesc())


def _var_view(v: Any) -> VarDesc:
    return VarDesc(_var_desc(v), ProgramDesc())


PROGRAM_DESC.update(program=program_desc, parse=parse_from_string, op=_op_view, var=_var_view)
