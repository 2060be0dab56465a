"""A minimal protobuf reader for Paddle's `ProgramDesc` (the `__model__` / `.pdmodel` files real Paddle writes).

No protobuf package is needed: the wire format is decoded by hand (varint, 64-bit, length-delimited and
32-bit fields; packed and unpacked repeated scalars), and the messages of Paddle's
`paddle/fluid/framework/framework.proto` that a program file holds are described by the `SCHEMA` table
below (field number -> name, kind, repeated). The field numbers are those of framework.proto; they did
not change between Paddle 1.8 and 2.6 (protobuf only ever adds fields), so one table reads both.

`parse_program_desc(data)` returns plain dicts: every field of the schema is present (repeated fields as
lists, absent scalars as their proto default, absent messages as None); unknown fields are skipped, as
protobuf does.
"""

from __future__ import annotations

import struct
from typing import Any

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5

# VarType.Type values that are tensor element types, by our dtype names (framework.proto VarType.Type).
DTYPE_NAMES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32", 6: "float64",
               20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64", 24: "complex128"}
# VarType.Type values that are variable kinds
LOD_TENSOR, SELECTED_ROWS, FEED_MINIBATCH, FETCH_LIST, LOD_TENSOR_ARRAY, FEED_LIST = 7, 8, 9, 10, 13, 28
FEED_FETCH_KINDS = (FEED_MINIBATCH, FETCH_LIST, FEED_LIST)  # the `feed` / `fetch` holder variables
VAR_TYPE_NAMES = {7: "LOD_TENSOR", 8: "SELECTED_ROWS", 9: "FEED_MINIBATCH", 10: "FETCH_LIST",
                  11: "STEP_SCOPES", 12: "LOD_RANK_TABLE", 13: "LOD_TENSOR_ARRAY", 14: "PLACE_LIST",
                  15: "READER", 17: "RAW", 18: "TUPLE", 25: "STRING", 26: "STRINGS", 27: "VOCAB",
                  28: "FEED_LIST", 29: "PSTRING", 30: "SPARSE_COO", 31: "SPARSE_CSR"}

R = True  # marks a repeated field in SCHEMA

# message name -> {field number: (field name, kind[, repeated][, default])}
# kinds: int32 / int64 / enum (signed varints), bool, float (32-bit), double (64-bit), string, or a message name
SCHEMA: dict[str, dict[int, tuple]] = {
    "Version": {1: ("version", "int64")},
    "Complex": {1: ("r", "double"), 2: ("i", "double")},
    "Scalar": {1: ("type", "enum"), 2: ("b", "bool"), 3: ("i", "int64"), 4: ("r", "double"), 5: ("c", "Complex")},
    "OpDesc.Attr": {
        1: ("name", "string"), 2: ("type", "enum"), 3: ("i", "int32"), 4: ("f", "float"), 5: ("s", "string"),
        6: ("ints", "int32", R), 7: ("floats", "float", R), 8: ("strings", "string", R), 10: ("b", "bool"),
        11: ("bools", "bool", R), 12: ("block_idx", "int32"), 13: ("l", "int64"), 14: ("blocks_idx", "int32", R),
        15: ("longs", "int64", R), 16: ("float64s", "double", R), 17: ("var_name", "string"),
        18: ("vars_name", "string", R), 19: ("float64", "double"), 20: ("scalar", "Scalar"),
        21: ("scalars", "Scalar", R)},
    "OpDesc.Var": {1: ("parameter", "string"), 2: ("arguments", "string", R)},
    "OpDesc": {3: ("type", "string"), 1: ("inputs", "OpDesc.Var", R), 2: ("outputs", "OpDesc.Var", R),
               4: ("attrs", "OpDesc.Attr", R), 5: ("is_target", "bool")},
    "VarType.TensorDesc": {1: ("data_type", "enum"), 2: ("dims", "int64", R)},
    "VarType.LoDTensorDesc": {1: ("tensor", "VarType.TensorDesc"), 2: ("lod_level", "int32")},
    "VarType.ReaderDesc": {1: ("lod_tensor", "VarType.LoDTensorDesc", R)},
    "VarType.Tuple": {1: ("element_type", "enum", R)},
    "VarType": {1: ("type", "enum"), 2: ("selected_rows", "VarType.TensorDesc"),
                3: ("lod_tensor", "VarType.LoDTensorDesc"), 4: ("tensor_array", "VarType.LoDTensorDesc"),
                5: ("reader", "VarType.ReaderDesc"), 7: ("tuple", "VarType.Tuple"),
                8: ("string", "VarType.TensorDesc"), 9: ("strings", "VarType.TensorDesc"),
                10: ("vocab", "VarType.TensorDesc"), 11: ("sparse_coo", "VarType.TensorDesc"),
                12: ("sparse_csr", "VarType.TensorDesc")},
    "VarDesc.Attr": {1: ("name", "string"), 2: ("type", "enum"), 3: ("i", "int32"), 4: ("s", "string"),
                     5: ("ints", "int32", R)},
    "VarDesc": {1: ("name", "string"), 2: ("type", "VarType"), 3: ("persistable", "bool"),
                4: ("need_check_feed", "bool"), 5: ("is_parameter", "bool"), 6: ("stop_gradient", "bool"),
                7: ("attrs", "VarDesc.Attr", R)},
    "BlockDesc": {1: ("idx", "int32"), 2: ("parent_idx", "int32"), 3: ("vars", "VarDesc", R),
                  4: ("ops", "OpDesc", R), 5: ("forward_block_idx", "int32", False, -1)},
    "OpVersion": {1: ("version", "int32")},
    "OpVersionMap.OpVersionPair": {1: ("op_name", "string"), 2: ("op_version", "OpVersion")},
    "OpVersionMap": {1: ("pair", "OpVersionMap.OpVersionPair", R)},
    "ProgramDesc": {1: ("blocks", "BlockDesc", R), 4: ("version", "Version"),
                    5: ("op_version_map", "OpVersionMap")},
}

_SCALAR_DEFAULTS = {"int32": 0, "int64": 0, "enum": 0, "bool": False, "float": 0.0, "double": 0.0, "string": ""}
_FIXED = {"float": ("<f", 4, _I32), "double": ("<d", 8, _I64)}

# OpDesc.Attr.type (framework.proto AttrType) -> the field holding the value
ATTR_FIELDS = {0: "i", 1: "f", 2: "s", 3: "ints", 4: "floats", 5: "strings", 6: "b", 7: "bools", 8: "block_idx",
               9: "l", 10: "blocks_idx", 11: "longs", 12: "float64s", 13: "var_name", 14: "vars_name",
               15: "float64", 16: "scalar", 17: "scalars"}
BLOCK_ATTR_TYPES = (8, 10)


class DecodeError(ValueError):
    """The bytes are not a well-formed protobuf message of the expected type."""


def encode_varint(n: int) -> bytes:
    """A varint; negative ints as their 64-bit two's complement (10 bytes), as protobuf writes int32/int64."""
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def encode_field(num: int, wire_type: int, payload: bytes) -> bytes:
    """One field: its key, then (length-delimited: the length and) the payload bytes."""
    return encode_varint(num << 3 | wire_type) + (encode_varint(len(payload)) + payload if wire_type == 2 else payload)


def read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        if pos >= len(buf):
            raise DecodeError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise DecodeError("varint longer than 10 bytes")


def _signed(v: int) -> int:
    """int32 / int64 / enum values are two's complement in 64 bits (negative int32 too)."""
    return v - (1 << 64) if v >= 1 << 63 else v


def iter_fields(buf: bytes, start: int = 0, end: int | None = None):
    """Yields (field number, wire type, value): an int for varints, bytes for the other wire types."""
    pos, end = start, len(buf) if end is None else end
    while pos < end:
        key, pos = read_varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == _VARINT:
            val, pos = read_varint(buf, pos)
        elif wt == _LEN:
            n, pos = read_varint(buf, pos)
            val, pos = buf[pos:pos + n], pos + n
        elif wt in (_I64, _I32):
            n = 8 if wt == _I64 else 4
            val, pos = buf[pos:pos + n], pos + n
        else:
            raise DecodeError(f"unsupported wire type {wt} (field {num})")
        if pos > end:
            raise DecodeError(f"field {num} runs past the end of its message")
        yield num, wt, val


def _scalar(kind: str, wt: int, val: Any) -> Any:
    if kind in _FIXED:
        fmt, _, want = _FIXED[kind]
        if wt != want:
            raise DecodeError(f"a {kind} field has wire type {wt}")
        return struct.unpack(fmt, val)[0]
    if kind == "string":
        if wt != _LEN:
            raise DecodeError(f"a string field has wire type {wt}")
        return bytes(val).decode("utf-8", errors="replace")
    if wt != _VARINT:
        raise DecodeError(f"a {kind} field has wire type {wt}")
    return bool(val) if kind == "bool" else _signed(val)


def _packed(kind: str, data: bytes) -> list:
    if kind in _FIXED:
        fmt, size, _ = _FIXED[kind]
        if len(data) % size:
            raise DecodeError(f"packed {kind} field of {len(data)} bytes")
        return [v for (v,) in struct.iter_unpack(fmt, data)]
    out, pos = [], 0
    while pos < len(data):
        v, pos = read_varint(data, pos)
        out.append(bool(v) if kind == "bool" else _signed(v))
    return out


def decode(buf: bytes, message: str) -> dict:
    """Decode one message of SCHEMA[message] into a dict with every schema field present."""
    fields = SCHEMA[message]
    out: dict[str, Any] = {}
    for spec in fields.values():
        name, kind = spec[0], spec[1]
        repeated = len(spec) > 2 and spec[2]
        if repeated:
            out[name] = []
        elif len(spec) > 3:
            out[name] = spec[3]
        else:
            out[name] = _SCALAR_DEFAULTS.get(kind)
    for num, wt, val in iter_fields(buf):
        spec = fields.get(num)
        if spec is None:
            continue  # unknown field (a newer Paddle): skipped, as protobuf does
        name, kind = spec[0], spec[1]
        repeated = len(spec) > 2 and spec[2]
        if kind in SCHEMA:
            if wt != _LEN:
                raise DecodeError(f"{message}.{name} (a message) has wire type {wt}")
            v = decode(val, kind)
            if repeated:
                out[name].append(v)
            else:
                out[name] = v
        elif repeated and wt == _LEN and kind != "string":
            out[name].extend(_packed(kind, val))
        elif repeated:
            out[name].append(_scalar(kind, wt, val))
        else:
            out[name] = _scalar(kind, wt, val)
    return out


def _encode_scalar(kind: str, num: int, v: Any) -> bytes:
    if kind in _FIXED:
        fmt, _, wt = _FIXED[kind]
        return encode_field(num, wt, struct.pack(fmt, v))
    if kind == "string":
        return encode_field(num, _LEN, v.encode("utf-8") if isinstance(v, str) else bytes(v))
    return encode_field(num, _VARINT, encode_varint(int(v)))


def encode(msg: dict, message: str) -> bytes:
    """The inverse of `decode`: one message of SCHEMA[message] from a dict (missing or None fields are left out,
    repeated scalars unpacked as proto2 writes them). Fields are written in field-number order."""
    out = bytearray()
    for num, spec in sorted(SCHEMA[message].items()):
        name, kind = spec[0], spec[1]
        repeated = len(spec) > 2 and spec[2]
        v = msg.get(name)
        if v is None:
            continue
        for item in (v if repeated else [v]):
            if kind in SCHEMA:
                out += encode_field(num, _LEN, encode(item, kind))
            else:
                out += _encode_scalar(kind, num, item)
    return bytes(out)


def parse_program_desc(data: bytes) -> dict:
    """A ProgramDesc from a real Paddle `__model__` / `.pdmodel` file."""
    try:
        prog = decode(bytes(data), "ProgramDesc")
    except (DecodeError, struct.error, IndexError) as e:
        raise DecodeError(f"not a Paddle ProgramDesc: {e}") from None
    if not prog["blocks"]:
        raise DecodeError("not a Paddle ProgramDesc: it has no blocks")
    return prog


def attr_value(attr: dict) -> Any:
    """The Python value of one OpDesc.Attr, read from the field its AttrType names."""
    field = ATTR_FIELDS.get(attr["type"])
    if field is None:
        raise DecodeError(f"attribute {attr['name']!r} has unknown type {attr['type']}")
    v = attr[field]
    if field == "scalar":
        return _scalar_value(v)
    if field == "scalars":
        return [_scalar_value(s) for s in v]
    return v


def _scalar_value(s: dict | None) -> Any:
    if s is None:
        return None
    if s["type"] == 1:
        return s["b"]
    if s["type"] == 2:
        return s["i"]
    if s["type"] == 3:
        return s["r"]
    c = s["c"] or {"r": 0.0, "i": 0.0}
    return complex(c["r"], c["i"])


def tensor_desc(var_type: dict) -> tuple[str | None, list[int], int]:
    """(dtype name, dims with -1 for unknown, lod_level) of a VarType; dtype None for non-tensor kinds."""
    if var_type["type"] == LOD_TENSOR and var_type["lod_tensor"] is not None:
        t, lod = var_type["lod_tensor"]["tensor"], var_type["lod_tensor"]["lod_level"]
    elif var_type["type"] == SELECTED_ROWS and var_type["selected_rows"] is not None:
        t, lod = var_type["selected_rows"], 0
    elif var_type["type"] == LOD_TENSOR_ARRAY and var_type["tensor_array"] is not None:
        t, lod = var_type["tensor_array"]["tensor"], var_type["tensor_array"]["lod_level"]
    else:
        return None, [], 0
    if t is None:
        return None, [], lod
    return DTYPE_NAMES.get(t["data_type"]), list(t["dims"]), lod
