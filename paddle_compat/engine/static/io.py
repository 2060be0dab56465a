"""Saving and loading static programs and their persistable variables.

Two formats:
- **Persistables** use Paddle's own binary LoDTensor format (`save_combine`: for each variable, sorted by
  name: uint32 version, uint64 LoD level count, then uint32 version, int32 size of a TensorDesc protobuf
  message, the message (field 1 data_type, field 2 dims), and the raw little-endian data). The two-field
  TensorDesc message is encoded and decoded by hand, so no protobuf package is needed, and `.pdiparams`
  written here hold the same bytes Paddle writes.
- **Programs** we write (`.pdmodel`, `__model__`, serialize_program) are a JSON description of our fx graph:
  per node the Paddle op type, its arguments (references to other nodes, numbers, strings, dtypes) and the
  variable names; per variable its shape, dtype and flags. Loading maps each op type back to the registry
  entry (registry.OPS), so a program file never carries code. Model files hold no protobuf ProgramDesc;
  `program.desc.serialize_to_string()` gives one (engine/static/program_desc.py), with this JSON in a field of its own.
- **Programs real Paddle wrote** (fluid 1.x `save_inference_model`'s `__model__`, 2.x `.pdmodel`) are read
  too: a model file that does not start with '{' is decoded as a protobuf ProgramDesc (engine/static/proto.py)
  and rebuilt op by op through the registry (engine/static/pdmodel.py, which lists the op types it maps; others
  raise UnsupportedAPIError naming the op type and the file). load_inference_model and
  fluid.io.load_inference_model then read the parameters from the combined file or, in a fluid-style
  directory without params_filename, from one file per persistable variable.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import operator
import os
import struct
import warnings
from typing import Any, Iterator

import numpy as np
import torch
import torch.fx as fx

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidValueError, UnimplementedError
from paddle_compat.engine.framework.program import Parameter, Program, Variable, VarType, default_main_program
from paddle_compat.engine.framework.scope import global_scope
from paddle_compat.engine.static.checkpoint_files import check_files, is_journal, write_files
from paddle_compat.engine.static.serialization import NAME_TABLE, CorruptFileError, atomic_write, is_temporary
from paddle_compat.engine.framework import registry
from paddle_compat.engine.ops import feed_fetch  # noqa: F401 - feed_fetch registers the feed / fetch ops
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static import proto

FORMAT = "paddle_compat.program/1"

# --- Paddle's LoDTensor binary format --------------------------------------------------------------------
_PROTO_DTYPES = {"bool": 0, "int16": 1, "int32": 2, "int64": 3, "float16": 4, "float32": 5, "float64": 6,
                 "uint8": 20, "int8": 21, "complex64": 23, "complex128": 24}
_PROTO_TO_NP = {v: k for k, v in _PROTO_DTYPES.items()}


_varint, _read_varint = proto.encode_varint, proto.read_varint


def tensor_to_bytes(arr: np.ndarray, lod: list | None = None) -> bytes:
    arr = np.ascontiguousarray(arr)
    name = arr.dtype.name
    if name not in _PROTO_DTYPES:
        raise TypeError(f"save: dtype {name} cannot be stored in Paddle's tensor format")
    desc = b"\x08" + _varint(_PROTO_DTYPES[name])
    for d in arr.shape:
        desc += b"\x10" + _varint(int(d))
    out = [struct.pack("<I", 0), struct.pack("<Q", len(lod or []))]
    for level in lod or []:
        data = np.asarray(level, dtype=np.uint64).tobytes()
        out += [struct.pack("<Q", len(data)), data]
    out += [struct.pack("<I", 0), struct.pack("<i", len(desc)), desc, arr.astype(arr.dtype.newbyteorder("<")).tobytes()]
    return b"".join(out)


def tensor_from_bytes(buf: bytes, pos: int = 0) -> tuple[np.ndarray, int]:
    (version,) = struct.unpack_from("<I", buf, pos)
    if version != 0:
        raise ValueError(f"load: unsupported LoDTensor version {version} (the file is not a Paddle tensor file)")
    (nlod,) = struct.unpack_from("<Q", buf, pos + 4)
    pos += 12
    for _ in range(nlod):
        (size,) = struct.unpack_from("<Q", buf, pos)
        pos += 8 + size
    (_tver, dsize) = struct.unpack_from("<Ii", buf, pos)
    pos += 8
    desc_end = pos + dsize
    dtype, dims = 5, []
    while pos < desc_end:
        tag, pos = _read_varint(buf, pos)
        val, pos = _read_varint(buf, pos)
        if tag == 0x08:
            dtype = val
        elif tag == 0x10:
            dims.append(val if val < (1 << 63) else val - (1 << 64))
    npdt = np.dtype(_PROTO_TO_NP[dtype]).newbyteorder("<")
    count = int(np.prod(dims)) if dims else 1
    arr = np.frombuffer(buf, dtype=npdt, count=count, offset=pos).reshape(dims).astype(npdt.newbyteorder("="))
    return arr, pos + count * npdt.itemsize


def _persistable_names(program: Program) -> list[str]:
    return sorted(v.name for v in program.global_block().vars.values() if _is_persistable(v))


def _scope_array(name: str, scope: Any) -> np.ndarray:
    t = scope._get(name)
    if t is None:
        raise ValueError(f"save: persistable variable {name!r} has no value in the scope; run the startup "
                         "program (or load the parameters) first")
    return t.detach().cpu().numpy()


def _pack(names: list[str], scope: Any) -> bytes:
    return b"".join(tensor_to_bytes(_scope_array(n, scope)) for n in names)


def read_tensor(data: bytes, pos: int, name: str, api: str, where: str, note: str = "") -> tuple[np.ndarray, int]:
    """`tensor_from_bytes`, with a bad file reported as CorruptFileError naming the API, the file and the
    variable (not a bare struct.error / ValueError)."""
    try:
        return tensor_from_bytes(data, pos)
    except (struct.error, ValueError, IndexError, KeyError, MemoryError) as e:
        raise CorruptFileError(f"{api}: {where} is truncated or corrupted at variable {name!r} (byte {pos} of "
                               f"{len(data)}{note}): {type(e).__name__}: {e}") from None


def set_loaded(program: Program | None, arrays: dict[str, np.ndarray], scope: Any, api: str) -> None:
    """Put loaded values into the scope once they all fit: each must have the shape the program declares for
    its variable (when all its dims are known). Checked in the program's variable order, as Paddle does, so the
    error names the variable Paddle names; nothing is set if one does not fit."""
    block = program.global_block() if program is not None else None
    for name, v in (block.vars.items() if block is not None else ()):
        arr = arrays.get(name)
        if arr is not None and list(v.shape) and -1 not in v.shape and list(arr.shape) != list(v.shape):
            raise InvalidValueError(
                f"Variable's shape does not match, the Program requires a parameter with the shape of "
                f"({tuple(v.shape)}), while the loaded parameter (namely [ {name} ]) has a shape of  ({arr.shape}). "
                f"({api})")
    for name, arr in arrays.items():
        scope.var(name).get_tensor().set(arr)


def _unpack(names: list[str], data: bytes, scope: Any, program: Program | None = None, api: str = "load",
            where: str = "the parameter data") -> None:
    """The persistables `names` (sorted), one after the other in Paddle's tensor format (a combined file)."""
    pos = 0
    arrays = {}
    for n in names:
        if pos >= len(data):
            raise CorruptFileError(f"{api}: {where} ends before variable {n!r}; it holds fewer variables than the "
                                   f"program's {len(names)} persistables (or it is truncated)")
        arrays[n], pos = read_tensor(data, pos, n, api, where, f"; it may hold fewer variables than the program's "
                                                               f"{len(names)} persistables")
    if pos != len(data):
        raise CorruptFileError(f"{api}: {where} holds more data than the program's {len(names)} persistables")
    set_loaded(program, arrays, scope, api)


# --- program <-> JSON --------------------------------------------------------------------------------------
def _enc(a: Any, consts: dict) -> Any:
    if isinstance(a, fx.Node):
        if a.op == "get_attr":
            return {"$const": a.target}
        return {"$node": a.name}
    if isinstance(a, bool) or a is None or isinstance(a, (int, float, str)):
        if isinstance(a, float) and (a != a or a in (float("inf"), float("-inf"))):
            return {"$float": repr(a)}
        return a
    if isinstance(a, tuple):
        return {"$tuple": [_enc(x, consts) for x in a]}
    if isinstance(a, list):
        return [_enc(x, consts) for x in a]
    if isinstance(a, dict):
        return {"$dict": [[k, _enc(v, consts)] for k, v in a.items()]}
    if isinstance(a, torch.dtype):
        return {"$dtype": str(a).replace("torch.", "")}
    if isinstance(a, _dt.DType):
        return {"$dtype": a.name}
    if isinstance(a, torch.device):
        return {"$device": str(a)}
    if isinstance(a, slice):
        return {"$slice": [_enc(a.start, consts), _enc(a.stop, consts), _enc(a.step, consts)]}
    if a is Ellipsis:
        return {"$ellipsis": True}
    if isinstance(a, (np.generic,)):
        return _enc(a.item(), consts)
    raise UnimplementedError(f"serialize_program: cannot store an argument of type {type(a).__name__}")


def _dec(a: Any, nodes: dict, block: Any) -> Any:
    if isinstance(a, list):
        return [_dec(x, nodes, block) for x in a]
    if not isinstance(a, dict):
        return a
    if "$node" in a:
        return nodes[a["$node"]]
    if "$const" in a:
        return nodes["$const:" + a["$const"]]
    if "$tuple" in a:
        return tuple(_dec(x, nodes, block) for x in a["$tuple"])
    if "$dict" in a:
        return {k: _dec(v, nodes, block) for k, v in a["$dict"]}
    if "$dtype" in a:
        return getattr(torch, a["$dtype"])
    if "$device" in a:
        return torch.device(a["$device"])
    if "$slice" in a:
        return slice(*[_dec(x, nodes, block) for x in a["$slice"]])
    if "$ellipsis" in a:
        return Ellipsis
    if "$float" in a:
        return float(a["$float"])
    raise ValueError(f"deserialize_program: unknown value {a!r}")


def _enc_const(v: Any) -> dict:
    if isinstance(v, torch.Tensor):
        arr = v.detach().cpu().numpy()
        return {"array": base64.b64encode(np.ascontiguousarray(arr).tobytes()).decode(), "dtype": arr.dtype.name,
                "shape": list(arr.shape)}
    if isinstance(v, fx.GraphModule):  # a control-flow sub-block (While, cond, StaticRNN / DynamicRNN step)
        targets = [n.target for n in v.graph.nodes if n.op == "get_attr"]
        return {"graph": _encode_nodes(v.graph, keep_output=True),
                "consts": {t: _enc_const(getattr(v, t)) for t in dict.fromkeys(targets)}}
    raise UnimplementedError(f"serialize_program: cannot store a constant of type {type(v).__name__}")


def _dec_const(c: dict) -> Any:
    if "graph" in c:
        root = torch.nn.Module()
        for k, cc in c["consts"].items():
            setattr(root, k, _dec_const(cc))
        g = fx.Graph()
        _decode_nodes(g, c["graph"], {}, None)
        return fx.GraphModule(root, g, class_name="block")
    arr = np.frombuffer(base64.b64decode(c["array"]), dtype=c["dtype"]).reshape(c["shape"])
    return torch.from_numpy(arr.copy())


def _safe_attr(v: Any) -> Any:
    try:
        return _enc(v, {})
    except UnimplementedError:
        return {"$repr": repr(v)}


def _encode_nodes(graph: fx.Graph, keep_output: bool = False) -> list:
    """The nodes of a recorded graph (the global block's, or a sub-block's GraphModule with its output node)."""
    nodes = []
    for n in graph.nodes:
        if n.op == "output":
            if keep_output:
                nodes.append({"op": "output", "name": n.name, "args": _enc(tuple(n.args), {})})
            continue
        rec: dict[str, Any] = {"op": n.op, "name": n.name}
        meta = {k: n.meta[k] for k in ("var_name", "out_names", "in_names", "paddle_type", "role", "needs_grad",
                                       "const", "grad_of", "op_listing")
                if k in n.meta}
        rec["meta"] = meta
        if n.op == "call_function":
            if n.target is operator.getitem:
                rec["type"] = "$getitem"
            else:
                opdef = n.meta.get("opdef")
                if opdef is None or registry.OPS.get(opdef.type) is not opdef:
                    raise UnimplementedError(
                        f"serialize_program: node {n.name!r} ({getattr(n.target, '__name__', n.target)}) is not a "
                        "registry op (backward / optimizer internals cannot be saved; save a program cloned "
                        "with for_test=True)")
                rec["type"] = opdef.type
                rec["attrs"] = {k: _safe_attr(v) for k, v in n.meta.get("attrs", {}).items()}
            rec["args"] = _enc(tuple(n.args), {})
            rec["kwargs"] = _enc(dict(n.kwargs), {})
        elif n.op == "get_attr":
            rec["target"] = n.target
        nodes.append(rec)
    return nodes


def _decode_nodes(g: fx.Graph, recs: list, nodes: dict, block: Any) -> dict:
    for rec in recs:
        if rec["op"] == "output":
            g.output(_dec(rec["args"], nodes, block)[0])
            continue
        if rec["op"] == "placeholder":
            n = g.placeholder(rec["name"])
        elif rec["op"] == "get_attr":
            n = g.get_attr(rec["target"])
            nodes["$const:" + rec["target"]] = n
        else:
            args = _dec(rec["args"], nodes, block)
            kwargs = _dec(rec["kwargs"], nodes, block)
            if rec["type"] == "$getitem":
                n = g.create_node("call_function", operator.getitem, args, kwargs, name=rec["name"])
                n.meta.update(op_type=None)
            else:
                opdef = registry.OPS.get(rec["type"])
                if opdef is None:
                    raise UnimplementedError(f"deserialize_program: op type {rec['type']!r} is not known to "
                                             "paddle_compat")
                n = g.create_node("call_function", opdef.impl, args, kwargs, name=rec["name"])
                n.meta.update(op_type=opdef.type, opdef=opdef,
                              attrs={k: _dec(v, nodes, block) if not (isinstance(v, dict) and "$repr" in v)
                                     else v["$repr"] for k, v in rec.get("attrs", {}).items()})
        n.meta.update(rec.get("meta", {}))
        n.meta.setdefault("op_type", None)
        nodes[rec["name"]] = n
    return nodes


def program_to_dict(program: Program) -> dict:
    """The global block; control-flow sub-blocks are stored inside it, as the GraphModules its ops run."""
    block = program.global_block()
    nodes = _encode_nodes(block.graph)
    var_recs = []
    for name, v in block.vars.items():
        r = {"name": name, "shape": list(v.shape), "dtype": v.dtype.name, "persistable": bool(v.persistable),
             "stop_gradient": bool(v.stop_gradient), "lod_level": int(v.lod_level), "is_data": bool(v.is_data),
             "need_check_feed": bool(v.need_check_feed), "node": v.node.name if v.node is not None else None}
        if v.type != VarType.LOD_TENSOR:
            r["type"] = v.type
        if isinstance(v, Parameter):
            r.update(parameter=True, trainable=bool(v.trainable), need_clip=bool(v.need_clip),
                     learning_rate=float(v.optimize_attr.get("learning_rate", 1.0)))
        var_recs.append(r)
    consts = {k: _enc_const(v) for k, v in block._consts.items()}
    return {"format": FORMAT, "random_seed": program.random_seed, "is_test": bool(program._is_test),
            "blocks": [{"idx": 0, "parent_idx": -1, "nodes": nodes, "vars": var_recs, "consts": consts}]}


def program_from_dict(d: dict) -> Program:
    if d.get("format") != FORMAT:
        raise ValueError(f"deserialize_program: not a paddle_compat program (format {d.get('format')!r}, "
                         f"expected {FORMAT!r})")
    program = Program()
    program.random_seed = d.get("random_seed", 0)
    program._is_test = d.get("is_test", False)
    b = d["blocks"][0]
    block = program.global_block()
    g = block.graph
    for k, c in b["consts"].items():
        block._consts[k] = _dec_const(c)
    nodes = _decode_nodes(g, b["nodes"], {}, block)
    for r in b["vars"]:
        node = nodes.get(r["node"]) if r["node"] else None
        common = dict(lod_level=r["lod_level"], is_data=r["is_data"], need_check_feed=r["need_check_feed"])
        if r.get("parameter"):
            v = Parameter(block, r["name"], r["shape"], r["dtype"], node=node, trainable=r["trainable"],
                          optimize_attr={"learning_rate": r["learning_rate"]}, need_clip=r["need_clip"], **common)
        else:
            v = Variable(block, r["name"], r["shape"], r["dtype"], node=node, persistable=r["persistable"],
                         stop_gradient=r["stop_gradient"], **common)
        v.type = getattr(VarType, r.get("type", VarType.LOD_TENSOR))
        block.vars[r["name"]] = v
    program._bump()
    return program


def serialize_program_desc(program: Program, extra: dict | None = None) -> bytes:
    d = program_to_dict(program)
    if extra:
        d.update(extra)
    return json.dumps(d, separators=(",", ":")).encode()


def deserialize_program_desc(data: bytes) -> Program:
    """Our JSON program, or (bytes not starting with '{') a protobuf ProgramDesc written by real Paddle."""
    if isinstance(data, str):
        return program_from_dict(json.loads(data))
    return _program_from_bytes(data, "(bytes)", "paddle.static.deserialize_program")[0]


# --- inference programs -------------------------------------------------------------------------------------
def _as_list(v: Any) -> list:
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _check_vars(vs: Any, what: str, api: str) -> list:
    vs = _as_list(vs)
    for v in vs:
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: {what} must be Variables (or a list of them), but received {type(v).__name__}")
    return vs


def normalize_program(program: Program, feed_vars: Any, fetch_vars: Any) -> Program:
    """paddle.static.normalize_program (what save_inference_model / serialize_program save): as Paddle 2.4 / 2.6,
    each non-bool fetch target first gets a `scale(1.0)` op named `save_infer_model/scale_<i>` appended to the
    program itself (an activation's output as a target would otherwise be pruned), whose outputs are the
    normalized program's fetch targets; then a for_test clone pruned to what they need."""
    return _normalize(program, feed_vars, fetch_vars, "paddle.static.normalize_program")[0]


def _normalize(program: Program, feed_vars: Any, fetch_vars: Any, api: str) -> tuple[Program, list]:
    """(normalized program, its fetch targets): see normalize_program."""
    from paddle_compat.engine.core.mode import static_guard
    from paddle_compat.engine.framework.dispatch import layer_helper
    from paddle_compat.engine.framework.program import program_guard
    from paddle_compat.engine.framework.registry import OPS

    if not isinstance(program, Program):
        raise TypeError(f"{api}: program type must be `fluid.Program`, but received `{type(program).__name__}`")
    feed_vars = _check_vars(feed_vars, "feed_vars", api)
    fetch_vars = _check_vars(fetch_vars, "fetch_vars", api)
    block = program.global_block()
    targets = []
    with static_guard(), program_guard(program):  # jit.save calls it from dygraph code: leave the mode as it was
        for i, v in enumerate(fetch_vars):
            if v.name not in block.vars:
                raise ValueError(f"{api}: fetch variable {v.name!r} is not in the program")
            if v.dtype.name != "bool":
                with layer_helper("scale", f"save_infer_model/scale_{i}"):
                    v = OPS["scale"].public(block.vars[v.name], 1.0)
            targets.append(v)
    prog = _prune_program(program, feed_vars, targets, api)
    add_feed_fetch_ops(prog, [v.name for v in feed_vars], [v.name for v in targets])
    return prog, targets


_HOLDER_TYPES = (VarType.FEED_MINIBATCH, VarType.FETCH_LIST)


def add_feed_fetch_ops(program: Program, feed_names: list[str], fetch_names: list[str]) -> None:
    """Paddle's feed / fetch ops (engine/ops/feed_fetch.py) in block 0 of a saved or normalized program, as
    save_inference_model / normalize_program write them: the `feed` (FEED_MINIBATCH) and `fetch` (FETCH_LIST)
    persistable holder variables; a `feed` op per feed target, each prepended (so the last target's op comes
    first); a `fetch` op per fetch target, appended. Ops of a program that already has them are replaced."""
    block = program.global_block()
    g = block.graph
    for n in list(g.nodes):
        if n.op == "call_function" and n.meta.get("op_type") in ("feed", "fetch"):
            g.erase_node(n)
    for holder, kind in (("feed", VarType.FEED_MINIBATCH), ("fetch", VarType.FETCH_LIST)):
        if holder not in block.vars:  # no graph node: nothing reads or writes it when the program runs
            block.vars[holder] = Variable(block, holder, (), None, persistable=True, type=kind)

    def node(opdef: Any, value: Any, col: int, out_name: str, in_name: str) -> fx.Node:
        n = g.call_function(opdef.impl, (value,), {"col": col})
        n.meta.update(op_type=opdef.type, opdef=opdef, attrs={"col": col}, role="forward", out_names=[out_name],
                      in_names=[in_name])
        return n

    first = next((n for n in g.nodes if n.op not in ("placeholder", "get_attr")), None)
    for col, name in enumerate(feed_names):
        v = block.vars[name]
        ph = next((n for n in g.nodes if n.op == "placeholder" and n.meta.get("var_name") == name), v.node)
        with g.inserting_before(first) if first is not None else contextlib.nullcontext():
            first = node(registry.OPS["feed"], ph, col, name, "feed")
    last = next((n for n in reversed(g.nodes) if n.op == "output"), None)
    for col, name in enumerate(fetch_names):
        with g.inserting_before(last) if last is not None else contextlib.nullcontext():
            node(registry.OPS["fetch"], block.vars[name].node, col, "fetch", name)
    program._bump()


def _prune_program(program: Program, feed_vars: Any, fetch_vars: Any,
                   api: str = "paddle.static.normalize_program") -> Program:
    """A for_test clone of program pruned to what fetch_vars need."""
    feed_vars = _check_vars(feed_vars, "feed_vars", api)
    fetch_vars = _check_vars(fetch_vars, "fetch_vars", api)
    prog = program.clone(for_test=True)
    block = prog.global_block()
    g = block.graph
    targets = []
    for v in fetch_vars:
        if v.name not in block.vars:
            raise ValueError(f"{api}: fetch variable {v.name!r} is not in the program")
        targets.append(block.vars[v.name].node)
    keep: set = set()
    stack = list(targets)
    while stack:
        n = stack.pop()
        if n in keep:
            continue
        keep.add(n)
        stack.extend(n.all_input_nodes)
    feed_names = {v.name for v in feed_vars}
    for n in reversed(list(g.nodes)):
        if n in keep or n.op == "output":
            continue
        if n.op == "placeholder" and n.meta.get("var_name") in feed_names:
            continue
        if not n.users:
            g.erase_node(n)
    alive = set(g.nodes)
    for name in list(block.vars):
        v = block.vars[name]
        if v.node is None or v.node not in alive:
            del block.vars[name]
    prog._bump()
    return prog


def _program_arg(kwargs: dict) -> Program:
    p = kwargs.get("program")
    return p if p is not None else default_main_program()


def serialize_program(feed_vars: Any, fetch_vars: Any, **kwargs: Any) -> bytes:
    prog, targets = _normalize(_program_arg(kwargs), feed_vars, fetch_vars, "paddle.static.serialize_program")
    return serialize_program_desc(prog, {"feed_names": [v.name for v in _as_list(feed_vars)],
                                         "fetch_names": [v.name for v in targets]})


def deserialize_program(data: bytes) -> Program:
    return deserialize_program_desc(data)


def serialize_persistables(feed_vars: Any, fetch_vars: Any, executor: Any, **kwargs: Any) -> bytes:
    prog = _normalize(_program_arg(kwargs), feed_vars, fetch_vars, "paddle.static.serialize_persistables")[0]
    return _pack(_persistable_names(prog), global_scope())


def deserialize_persistables(program: Program, data: bytes, executor: Any) -> None:
    _unpack(_persistable_names(program), data, global_scope(), program, "paddle.static.deserialize_persistables")


def save_to_file(path: str, content: bytes) -> None:
    if not isinstance(content, bytes):
        raise ValueError(f"paddle.static.save_to_file: content must be bytes, but received {type(content).__name__}")
    atomic_write(path, content)


def load_from_file(path: str) -> bytes:
    if not os.path.exists(path):
        raise ValueError(f"paddle.static.load_from_file: the file {path!r} does not exist")
    with open(path, "rb") as f:
        return f.read()


def _prefix_paths(path_prefix: str, api: str) -> tuple[str, str]:
    if not isinstance(path_prefix, str) or not path_prefix:
        raise ValueError(f"{api}: path_prefix should be a non-empty string, but received {path_prefix!r}")
    if os.path.isdir(path_prefix):
        raise ValueError(f"{api}: path_prefix {path_prefix!r} is a directory; give 'dirname/file_prefix'")
    return path_prefix + ".pdmodel", path_prefix + ".pdiparams"


def save_inference_model(path_prefix: str, feed_vars: Any, fetch_vars: Any, executor: Any, **kwargs: Any) -> None:
    """paddle.static.save_inference_model: `<prefix>.pdmodel` (our JSON program, pruned for inference)
    and `<prefix>.pdiparams` (Paddle's binary tensor format, persistables sorted by name)."""
    model_path, params_path = _prefix_paths(path_prefix, "paddle.static.save_inference_model")
    prog, targets = _normalize(_program_arg(kwargs), feed_vars, fetch_vars, "paddle.static.save_inference_model")
    extra = {"feed_names": [v.name for v in _as_list(feed_vars)], "fetch_names": [v.name for v in targets]}
    params = _pack(_persistable_names(prog), global_scope())
    write_files([(model_path, serialize_program_desc(prog, extra)), (params_path, params)])


def _program_from_bytes(data: bytes, where: str, api: str) -> tuple[Program, list[str], list[str]]:
    """(program, feed names, fetch names) from model bytes: our JSON program, or the protobuf ProgramDesc
    real Paddle writes (`__model__` / `.pdmodel`, see engine/static/pdmodel.py); told apart by content."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{api}: the model should be bytes, but received {type(data).__name__}")
    data = bytes(data)
    # our programs are JSON objects. A ProgramDesc never starts with '{' (a start-group tag), but its first
    # byte is usually 0x0A ('\n') and the next one may be '{' (a block of 123 bytes): never strip '\n'
    if data.lstrip(b" \t\r")[:1] == b"{":
        try:
            d = json.loads(data.decode())
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"{api}: {where} is not a valid paddle_compat program ({e})") from None
        prog = program_from_dict(d)
        return prog, list(d.get("feed_names", [])), list(d.get("fetch_names", []))
    from paddle_compat.engine.static import pdmodel, proto

    try:
        desc = proto.parse_program_desc(data)
    except proto.DecodeError as e:
        raise ValueError(f"{api}: {where} is neither a program saved by paddle_compat nor a Paddle "
                         f"ProgramDesc ({e})") from None
    return pdmodel.program_from_desc(desc, where, api)


def _read_program(model_path: str, api: str) -> tuple[Program, list[str], list[str]]:
    if not os.path.exists(model_path):
        raise ValueError(f"{api}: there is no model file {model_path!r}")
    return _program_from_bytes(load_from_file(model_path), repr(model_path), api)


def _load_from_memory(model: Any, params: Any, api: str) -> list:
    """path_prefix / dirname None: model_filename and params_filename hold the model and parameter bytes."""
    if params is None:
        raise ValueError(f"{api}: params_filename cannot be None when the path is None (it should hold the "
                         "parameter bytes)")
    prog, feeds, fetches = _program_from_bytes(model, "(model bytes)", api)
    names = _persistable_names(prog)
    if names:
        _unpack(names, bytes(params), global_scope(), prog, api, "the parameter bytes")
    block = prog.global_block()
    return [prog, feeds, [block.vars[n] for n in fetches]]


def _load_model(model_path: str, params_path: str | None, api: str, params_dir: str | None = None) -> list:
    """Reads the program, then its persistables: from one combined file (`params_path`), or one file per
    variable in `params_dir` (fluid 1.x default), or not at all."""
    if params_path is not None:
        check_files([model_path, params_path], api)
    prog, feeds, fetches = _read_program(model_path, api)
    names = _persistable_names(prog)
    if names and params_path is not None:
        if not os.path.exists(params_path):
            raise ValueError(f"{api}: there is no parameter file {params_path!r}")
        _unpack(names, load_from_file(params_path), global_scope(), prog, api, f"the file {params_path!r}")
    elif names and params_dir is not None:
        _load_vars(params_dir, prog, None, _is_persistable, None, api, also=[model_path])
    block = prog.global_block()
    return [prog, feeds, [block.vars[n] for n in fetches]]


def _legacy_file(dirname: str, filename: str, suffix: str) -> str:
    """Paddle 2.x's legacy spelling: `dirname/filename<suffix>` if it exists, else `dirname/filename`."""
    p = os.path.join(dirname, filename + suffix)
    return p if os.path.exists(p) else os.path.join(dirname, filename)


def load_inference_model(path_prefix: str, executor: Any, **kwargs: Any) -> list:
    """Returns [program, feed_target_names, fetch_targets], with the parameters loaded into the global scope.

    `path_prefix` reads `<prefix>.pdmodel` + `<prefix>.pdiparams`. With model_filename / params_filename (or
    a directory as path_prefix) it reads a fluid-style directory: `model_filename` (default `__model__`),
    and `params_filename` combined or, without it, one file per persistable variable. The model file may be
    ours or one written by real Paddle (1.x `__model__`, 2.x `.pdmodel`). With path_prefix None,
    model_filename and params_filename hold the model and parameter bytes (Paddle's deprecated form)."""
    api = "paddle.static.load_inference_model"
    model_filename, params_filename = kwargs.get("model_filename"), kwargs.get("params_filename")
    if path_prefix is None:
        return _load_from_memory(model_filename, params_filename, api)
    if model_filename is not None or params_filename is not None or (path_prefix and os.path.isdir(path_prefix)):
        d = path_prefix
        model_path = _legacy_file(d, model_filename, ".pdmodel") if model_filename else os.path.join(d, "__model__")
        if params_filename:
            return _load_model(model_path, _legacy_file(d, params_filename, ".pdiparams"), api)
        return _load_model(model_path, None, api, params_dir=d)
    model_path, params_path = _prefix_paths(path_prefix, api)
    return _load_model(model_path, params_path, api)


# --- fluid 1.x io (directory + file names) ---------------------------------------------------------------------
def _select(program: Program, predicate: Any, vars: Any) -> list[str]:  # noqa: A002
    if vars is not None:
        return sorted(v.name if not isinstance(v, str) else v for v in vars)
    return sorted(v.name for v in program.global_block().vars.values() if predicate(v))


def _is_param(v: Any) -> bool:
    return isinstance(v, Parameter)


def _is_persistable(v: Any) -> bool:
    """Paddle's io.is_persistable: a persistable variable holding a tensor (not the feed / fetch holders)."""
    return bool(v.persistable) and not v.is_data and v.type not in _HOLDER_TYPES


def _valid_program(main_program: Any, api: str) -> Program:
    """1.8.5's fluid.io program argument: None is the default main program; a CompiledProgram gives its Program
    (with Paddle's warning); anything else is a TypeError naming the API."""
    from paddle_compat.engine.static.compiler import CompiledProgram

    if main_program is None:
        return default_main_program()
    if isinstance(main_program, CompiledProgram):
        warnings.warn("The input is a CompiledProgram, this is not recommended.")
        main_program = main_program._program
    if not isinstance(main_program, Program):
        raise TypeError(f"{api}: the type of input main_program is invalid, expected type is fluid.Program, but "
                        f"received {type(main_program).__name__}")
    return main_program


def save_vars(executor: Any, dirname: str, main_program: Program | None = None, vars: Any = None,  # noqa: A002
              predicate: Any = None, filename: str | None = None) -> None:
    program = _valid_program(main_program, "paddle.fluid.io.save_vars")
    write_files(_var_files(dirname, _select(program, predicate or _is_persistable, vars), filename))


def _var_files(dirname: str, names: list[str], filename: str | None) -> Iterator[tuple[str, bytes]]:
    """(path, bytes) of save_vars' files: one combined file, or one per variable (made one at a time)."""
    scope = global_scope()
    if filename is not None:
        yield os.path.join(dirname, filename), _pack(names, scope)
        return
    for n in names:
        yield os.path.join(dirname, n), tensor_to_bytes(_scope_array(n, scope))


def _load_vars(dirname: str, program: Program | None, vars: Any, predicate: Any, filename: str | None,  # noqa: A002
               api: str, also: list[str] = ()) -> None:
    """`also`: other files of the same checkpoint loaded with these (the inference model's program), checked
    with them for a torn save."""
    program = program or default_main_program()
    names = _select(program, predicate or _is_persistable, vars)
    scope = global_scope()
    files = [os.path.join(dirname, filename)] if filename is not None else [os.path.join(dirname, n) for n in names]
    check_files(list(also) + files, api)
    if filename is not None:
        p = os.path.join(dirname, filename)
        if not os.path.exists(p):
            raise ValueError(f"{api}: there is no parameter file {p!r}")
        _unpack(names, load_from_file(p), scope, program, api, f"the file {p!r}")
        return
    arrays = {}
    for n in names:
        p = os.path.join(dirname, n)
        if not os.path.exists(p):
            raise ValueError(f"{api}: there is no file {p!r} for variable {n!r}")
        data = load_from_file(p)
        arrays[n], end = read_tensor(data, 0, n, api, f"the file {p!r}")
        if end != len(data):
            raise CorruptFileError(f"{api}: the file {p!r} of variable {n!r} holds {len(data) - end} bytes after "
                                   "the tensor; it is not a Paddle tensor file")
    set_loaded(program, arrays, scope, api)


def load_vars(executor: Any, dirname: str, main_program: Program | None = None, vars: Any = None,  # noqa: A002
              predicate: Any = None, filename: str | None = None) -> None:
    _load_vars(dirname, main_program, vars, predicate, filename, "paddle.fluid.io.load_vars")


def save_params(executor: Any, dirname: str, main_program: Program | None = None, filename: str | None = None) -> None:
    save_vars(executor, dirname, main_program, None, _is_param, filename)


def load_params(executor: Any, dirname: str, main_program: Program | None = None, filename: str | None = None) -> None:
    _load_vars(dirname, main_program, None, _is_param, filename, "paddle.fluid.io.load_params")


def save_persistables(executor: Any, dirname: str, main_program: Program | None = None,
                      filename: str | None = None) -> None:
    save_vars(executor, dirname, main_program, None, _is_persistable, filename)


def load_persistables(executor: Any, dirname: str, main_program: Program | None = None,
                      filename: str | None = None) -> None:
    _load_vars(dirname, main_program, None, _is_persistable, filename, "paddle.fluid.io.load_persistables")


def fluid_save_inference_model(dirname: str, feeded_var_names: list, target_vars: Any, executor: Any,
                               main_program: Program | None = None, model_filename: str | None = None,
                               params_filename: str | None = None, export_for_deployment: bool = True,
                               program_only: bool = False) -> list:
    """fluid.io.save_inference_model (1.x): `dirname/__model__` + one file per parameter (or params_filename)."""
    program = _valid_program(main_program, "paddle.fluid.io.save_inference_model")
    block = program.global_block()
    if isinstance(feeded_var_names, str):
        feeded_var_names = [feeded_var_names]
    feed_vars = [block.var(n) for n in feeded_var_names]
    if any(op.type == "auc" for op in block.ops):
        warnings.warn("please ensure that you have set the auc states to zeros before saving inference model")
    # as 1.8.5: every target becomes a `scale(1.0)` appended to the program itself (an activation's output as a
    # target would otherwise be pruned), named save_infer_model/scale_<i>.tmp_<k>; those are the fetch targets
    from paddle_compat.engine.framework.dispatch import layer_helper
    from paddle_compat.engine.framework.program import program_guard
    from paddle_compat.engine.framework.registry import OPS

    targets = []
    with program_guard(program):
        for i, v in enumerate(_as_list(target_vars)):
            if isinstance(v, Variable):
                v = block.vars.get(v.name, v)  # by name, as Paddle's op descs: a target of the program it was cloned from
                with layer_helper("scale", f"save_infer_model/scale_{i}"):
                    v = OPS["scale"].public(v, 1.0)
            targets.append(v)
    prog = _prune_program(program, feed_vars, targets)
    add_feed_fetch_ops(prog, list(feeded_var_names), [v.name for v in targets])
    extra = {"feed_names": list(feeded_var_names), "fetch_names": [v.name for v in targets]}
    os.makedirs(dirname, exist_ok=True)
    model = [(os.path.join(dirname, model_filename or "__model__"), serialize_program_desc(prog, extra))]
    if program_only:
        write_files(model)
    else:  # the program and its parameters are one checkpoint
        write_files(itertools.chain(model, _var_files(dirname, _select(prog, _is_persistable, None),
                                                      params_filename)))
    return [v.name for v in targets]


def fluid_load_inference_model(dirname: str, executor: Any, model_filename: str | None = None,
                               params_filename: str | None = None, pserver_endpoints: Any = None) -> list:
    """fluid.io.load_inference_model (1.x): `dirname/model_filename` (default `__model__`, ours or real
    Paddle's ProgramDesc) and the persistables from `params_filename` or one file per variable; with
    dirname None, model_filename and params_filename are the model and parameter bytes."""
    if dirname is None:
        return _load_from_memory(model_filename, params_filename, "paddle.fluid.io.load_inference_model")
    model_path = os.path.join(dirname, model_filename or "__model__")
    api = "paddle.fluid.io.load_inference_model"
    check_files([model_path], api)
    prog, feeds, fetches = _load_model(model_path, None, api)
    _load_vars(dirname, prog, None, _is_persistable, params_filename, api, also=[model_path])
    return [prog, feeds, fetches]


# --- paddle.static.save / load: .pdparams / .pdopt / .pdmodel ----------------------------------------------
def save(program: Program, model_path: str, protocol: int = 4, **configs: Any) -> None:
    base = model_path
    if os.path.basename(base) == "":
        raise ValueError(f"paddle.static.save: model_path {model_path!r} must be 'dirname/filename'")
    scope = global_scope()
    block = program.global_block()
    params = {v.name: _scope_array(v.name, scope) for v in block.vars.values() if isinstance(v, Parameter)}
    opt = {v.name: _scope_array(v.name, scope) for v in block.vars.values()
           if v.persistable and not isinstance(v, Parameter) and not v.is_data and scope._get(v.name) is not None}
    from paddle_compat.engine.static.serialization import pickle_data

    write_files([(base + ".pdparams", pickle_data(params, protocol)), (base + ".pdopt", pickle_data(opt, protocol)),
                 (base + ".pdmodel", serialize_program_desc(program.clone(for_test=True)))])


def load_program_state(model_path: str, var_list: Any = None) -> dict:
    from paddle_compat.engine.static.serialization import safe_loads

    base = model_path[:-9] if model_path.endswith(".pdparams") else model_path
    out: dict = {}
    if os.path.exists(base + ".pdparams"):
        check_files([base + sfx for sfx in (".pdparams", ".pdopt") if os.path.exists(base + sfx)],
                    "paddle.static.load_program_state")
        for suffix in (".pdparams", ".pdopt"):
            if os.path.exists(base + suffix):
                d = safe_loads(load_from_file(base + suffix), "paddle.static.load_program_state",
                               f"the file {base + suffix!r}")
                d.pop(NAME_TABLE, None)
                out.update({k: np.asarray(v) for k, v in d.items() if isinstance(v, np.ndarray)})
    elif os.path.isdir(model_path):
        names = [f for f in sorted(os.listdir(model_path))  # not the journal, nor a killed save's temporaries
                 if not is_journal(f) and not is_temporary(f)]
        check_files([os.path.join(model_path, f) for f in names], "paddle.static.load_program_state")
        for f in names:
            p = os.path.join(model_path, f)
            try:
                out[f] = tensor_from_bytes(load_from_file(p))[0]
            except Exception:  # noqa: BLE001 - not a tensor file (e.g. __model__)
                continue
    elif os.path.isfile(model_path):  # a combined file (save_vars / save_persistables with filename=)
        if var_list is None:
            raise ValueError("paddle.static.load_program_state: var_list can not be None when model_path is a file "
                             "type")
        names = sorted({v.name if not isinstance(v, str) else v for v in var_list})
        api = "paddle.static.load_program_state"
        check_files([model_path], api)
        data, pos = load_from_file(model_path), 0
        for n in names:
            out[n], pos = read_tensor(data, pos, n, api, f"the file {model_path!r}",
                                      f"; var_list names {len(names)} variables")
        if pos != len(data):
            raise CorruptFileError(f"{api}: the file {model_path!r} holds more data than the {len(names)} variables "
                                   "of var_list")
    else:
        raise ValueError(f"paddle.static.load_program_state: {base}.pdparams does not exist")
    if var_list is not None:
        names = {v.name if not isinstance(v, str) else v for v in var_list}
        out = {k: v for k, v in out.items() if k in names}
    return out


def set_program_state(program: Program, state_dict: dict) -> None:
    scope = global_scope()
    block = program.global_block()
    unused = []
    for name, value in state_dict.items():
        v = block.vars.get(name)
        if v is None or not v.persistable:
            unused.append(name)
            continue
        arr = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
        if list(arr.shape) != list(v.shape):
            raise ValueError(f"paddle.static.set_program_state: variable {name!r} expects shape {list(v.shape)}, "
                             f"but the state holds {list(arr.shape)}")
        scope.var(name).get_tensor().set(arr.astype(v.dtype.numpy))
    if unused:
        import warnings

        warnings.warn(f"paddle.static.set_program_state: these variables are not used: {sorted(unused)}",
                      stacklevel=2)


def load(program: Program, model_path: str, executor: Any = None, var_list: Any = None) -> None:
    state = load_program_state(model_path, var_list)
    block = program.global_block()
    missing = [v.name for v in block.vars.values()
               if isinstance(v, Parameter) and v.name not in state and (var_list is None)]
    if missing:
        raise RuntimeError(f"paddle.static.load: parameters {missing} are not found in {model_path}.pdparams")
    set_program_state(program, {k: v for k, v in state.items() if k in block.vars})


# --- InputSpec, device_guard (py_func: fluid/py_func.py) ------------------------------------------------------------------------
class InputSpec:
    """paddle.static.InputSpec(shape, dtype='float32', name=None)"""

    def __init__(self, shape: Any, dtype: Any = "float32", name: str | None = None, stop_gradient: bool = False) -> None:
        if not isinstance(shape, (list, tuple)):
            raise TypeError(f"InputSpec: shape should be a list or tuple, but received {type(shape).__name__}")
        self.shape = tuple(-1 if s is None else int(s) for s in shape)
        self.dtype = _dt.to_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> "InputSpec":
        return cls(list(tensor.shape), tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray: np.ndarray, name: str | None = None) -> "InputSpec":
        return cls(list(ndarray.shape), ndarray.dtype.name, name)

    def batch(self, batch_size: Any) -> "InputSpec":
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"InputSpec.batch: length of batch_size should be 1, but received {len(batch_size)}")
            batch_size = batch_size[0]
        self.shape = (int(batch_size),) + self.shape
        return self

    def unbatch(self) -> "InputSpec":
        if not self.shape:
            raise ValueError("InputSpec.unbatch: not support to unbatch a InputSpec when len(shape) == 0")
        self.shape = self.shape[1:]
        return self

    def _create_feed_layer(self) -> Variable:
        from paddle_compat.engine.static.param import data

        return data(self.name, list(self.shape), self.dtype)

    def __repr__(self) -> str:
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, stop_gradient={self.stop_gradient})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, InputSpec) and (self.shape, self.dtype, self.name) == \
            (other.shape, other.dtype, other.name)

    def __hash__(self) -> int:
        return hash((self.shape, self.name))




@contextlib.contextmanager
def device_guard(device: str | None = None) -> Iterator[None]:
    """paddle.static.device_guard: ops recorded inside carry `op_device` = device, as in Paddle; they still run on
    the Executor's place (Paddle too runs an op without a kernel for that device on CPU)."""
    if device is not None:
        d = device.split(":")[0]
        if d == "cpu" and ":" in device:
            raise ValueError("paddle.static.device_guard: Should not set device id for cpu.")
        if d not in ("cpu", "gpu", "xpu", "npu"):
            raise ValueError(f"paddle.static.device_guard: the device should be 'cpu', 'gpu' or 'gpu:x', "
                             f"but received {device!r}")
    from paddle_compat.engine.framework.program import OP_DEVICE

    old = OP_DEVICE[0]
    OP_DEVICE[0] = device or ""  # what Paddle records as each op's `op_device`
    try:
        yield
    finally:
        OP_DEVICE[0] = old


for _n, _o in {"save": save, "load": load, "save_inference_model": save_inference_model,
               "load_inference_model": load_inference_model, "serialize_program": serialize_program,
               "deserialize_program": deserialize_program, "serialize_persistables": serialize_persistables,
               "deserialize_persistables": deserialize_persistables, "save_to_file": save_to_file,
               "load_from_file": load_from_file, "load_program_state": load_program_state,
               "set_program_state": set_program_state, "InputSpec": InputSpec,
               "device_guard": device_guard, "normalize_program": normalize_program}.items():
    export(_o, f"paddle.static.{_n}")
export(InputSpec, "paddle.jit.InputSpec")
export(device_guard, "paddle.fluid.device_guard")

export(load_program_state, "paddle.fluid.io.load_program_state", "paddle.fluid.load_program_state")
export(set_program_state, "paddle.fluid.io.set_program_state", "paddle.fluid.set_program_state")
for _n, _o in {"save_params": save_params, "load_params": load_params, "save_persistables": save_persistables,
               "load_persistables": load_persistables, "save_vars": save_vars, "load_vars": load_vars,
               "save_inference_model": fluid_save_inference_model,
               "load_inference_model": fluid_load_inference_model}.items():
    export(_o, f"paddle.fluid.io.{_n}")
export(save, "paddle.fluid.save")
export(load, "paddle.fluid.load")

