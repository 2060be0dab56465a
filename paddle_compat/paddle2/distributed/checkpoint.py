"""`paddle.distributed.save_state_dict` / `load_state_dict`: Paddle 2.6.2's distributed checkpoint.

Format (Paddle's): a directory with, per save, one `{rank}_{id}.distcp` file per process (`paddle.save` of
{key: this rank's local piece}) and one `{id}.metadata` file (a pickled `Metadata`: for every key the pieces
(global offset, local shape) and which file holds each piece). The metadata classes live at Paddle's module path
(`paddle.distributed.checkpoint.metadata`) so the pickles read both ways.

Saving: every rank writes its pieces (a replicated tensor: each rank writes it, the metadata points at the first);
the coordinator rank writes the metadata. Loading: each rank works out which stored pieces overlap its own piece of
each tensor and copies those parts in place, so a checkpoint saved with one placement (or number of processes)
loads into another. As in Paddle 2.6.2, a sharded dim must split evenly over its mesh dim (saving and loading
assert it). A `Partial` tensor is reduced before it is saved (Paddle 2.6.2 saves each rank's unreduced piece,
which a later load cannot tell from a replicated one).

NOTE: each rank reads the files it needs itself, so every rank must see the checkpoint directory (one machine, or
a shared file system); Paddle reads each file on one rank and broadcasts the pieces.
"""

from __future__ import annotations

import io
import os
import pickle
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Tuple

import torch

from paddle_compat.engine.framework.registry import export, partial

_META_MODULE = "paddle.distributed.checkpoint.metadata"


@dataclass
class LocalTensorMetadata:
    """Where a local piece lies in the global tensor."""

    global_offset: Tuple[int]
    local_shape: Tuple[int]


@dataclass(frozen=True)
class LocalTensorIndex:
    """The identifier of a stored piece: the key and its global offset."""

    tensor_key: str
    global_offset: Tuple[int]


@dataclass
class Metadata:
    state_dict_metadata: Dict[str, List[LocalTensorMetadata]] = None
    storage_metadata: Dict[LocalTensorIndex, str] = None


for _c in (LocalTensorMetadata, LocalTensorIndex, Metadata):
    _c.__module__ = _META_MODULE  # pickled under Paddle's path: Paddle reads our metadata and we read its
    export(_c, f"{_META_MODULE}.{_c.__name__}")


def _meta_loads(data: bytes, where: str) -> Metadata:
    from paddle_compat.engine.static.serialization import SafeUnpickler

    classes = {c.__name__: c for c in (LocalTensorMetadata, LocalTensorIndex, Metadata)}

    class _U(SafeUnpickler):
        def find_class(self, module: str, name: str) -> Any:
            if module == _META_MODULE and name in classes:
                return classes[name]
            return super().find_class(module, name)

    u = _U(io.BytesIO(data), encoding="latin1")
    u.api, u.where = "paddle.distributed.load_state_dict", where
    return u.load()


# ------------------------------------------------------------------------------------------------ helpers


def _world() -> tuple[int, int]:
    from paddle_compat.engine.parallel import collective

    return collective.rank(), collective.world_size()


def _all_gather_object(obj: Any, group: Any) -> list:
    from paddle_compat.paddle2.distributed.collective_more import all_gather_object

    out: list = []
    all_gather_object(out, obj, group)
    return out


def _piece(val: Any) -> tuple[tuple | None, tuple | None, torch.Tensor | None]:
    """(local shape, global offset, local torch tensor) of a Tensor on this rank; (None, None, None) when this
    rank holds no piece of it (its mesh does not contain this rank)."""
    from paddle_compat.paddle2.distributed.auto_parallel import _is_dtensor

    t = val._t
    if not _is_dtensor(t):
        return tuple(t.shape), tuple([0] * t.dim()), t
    if t.device_mesh.get_coordinate() is None:
        return None, None, None
    from torch.distributed.tensor._utils import compute_local_shape_and_global_offset

    from torch.distributed.tensor import Shard as TShard

    for p, n in zip(t.placements, t.device_mesh.shape):
        if isinstance(p, TShard):  # Paddle 2.6.2 asserts even pieces (tests/goldens/autopar26_2ranks.json)
            i = p.dim
            assert t.shape[i] % n == 0, f"i:{i}, global_shape[i]:{t.shape[i]}, process_mesh.shape[dim]:{n}"
    shape, offset = compute_local_shape_and_global_offset(t.shape, t.device_mesh, t.placements)
    return tuple(shape), tuple(offset), t.to_local()


def _check_state_dict(state_dict: Any, api: str) -> None:
    from paddle_compat.engine.framework.tensor import Tensor

    assert isinstance(state_dict, dict), "The state_dict should be a dictionary."
    for key, val in state_dict.items():
        assert isinstance(val, Tensor), (f"Only support dygraph Tensor now, but is {val}" if "load" in api else
                                         "Only support dygraph Tensor now, support static DistributedTensor later")


# ------------------------------------------------------------------------------------------------ save


def save_state_dict(state_dict: dict, path: str, process_group: Any = None, coordinator_rank: int = 0) -> None:
    """Save `state_dict` ({key: Tensor, dense or distributed}) into the directory `path`."""
    from paddle_compat.paddle2.distributed.auto_parallel import _is_dtensor
    from paddle_compat.engine.static.serialization import atomic_write, save

    _check_state_dict(state_dict, "save")
    os.makedirs(path, exist_ok=True)
    rank, world = _world()
    use_dist = world > 1
    unique_id = 0
    while os.path.exists(os.path.join(path, f"{rank}_{unique_id}.distcp")):
        unique_id += 1
    file_name = f"{rank}_{unique_id}.distcp"
    if use_dist:
        ids = _all_gather_object(unique_id, process_group)
        for i in ids[1:]:
            assert i == ids[0], f"id:{i} !=  all_unique_id[0]:{file_name}"
        keys = _all_gather_object(list(state_dict.keys()), process_group)
        for k in keys[1:]:
            assert k == keys[0], f"keys:{k} != first_keys: {keys[0]}"
    local: dict = {}
    local_meta: dict = {}
    local_storage: dict = {}
    from paddle_compat.engine.framework.tensor import Tensor

    for key, val in state_dict.items():
        t = val._t
        if _is_dtensor(t) and any(p.is_partial() for p in t.placements):
            from torch.distributed.tensor import Replicate as TReplicate

            t = t.redistribute(t.device_mesh, [TReplicate() if p.is_partial() else p for p in t.placements])
            val = Tensor._wrap(t)
        shape, offset, piece = _piece(val)
        if shape is None:
            continue
        local[key] = Tensor._wrap(piece.detach())
        local_meta[key] = LocalTensorMetadata(offset, shape)
        local_storage[LocalTensorIndex(key, tuple(offset))] = file_name
    metas = _all_gather_object(local_meta, process_group) if use_dist else [local_meta]
    stores = _all_gather_object(local_storage, process_group) if use_dist else [local_storage]
    merged: dict = {}
    for m in metas:
        for k, v in m.items():
            merged.setdefault(k, [])
            if v not in merged[k]:
                merged[k].append(v)
    storage: dict = {}
    for s in stores:
        for k, v in s.items():
            storage.setdefault(k, v)
    # every rank's data file first, the metadata that names them last: a save killed part way leaves no metadata
    # naming a missing or partial file (the loader reads a checkpoint through its metadata only)
    save(local, os.path.join(path, file_name))
    if use_dist:
        from paddle_compat.paddle2.distributed.collective import barrier

        barrier(process_group)
    if coordinator_rank == rank:
        meta = Metadata(state_dict_metadata=merged, storage_metadata=storage)
        atomic_write(os.path.join(path, f"{unique_id}.metadata"), pickle.dumps(meta, protocol=4))


# ------------------------------------------------------------------------------------------------ load


def _overlap(cur: LocalTensorMetadata, stored: LocalTensorMetadata):
    """(offsets in cur, offsets in stored, lengths) of the overlap, or None."""
    c_off, s_off, lens = [], [], []
    for cl, co, sl, so in zip(cur.local_shape, cur.global_offset, stored.local_shape, stored.global_offset):
        begin, end = max(co, so), min(co + cl, so + sl)
        if end <= begin:
            return None
        c_off.append(begin - co)
        s_off.append(begin - so)
        lens.append(end - begin)
    return c_off, s_off, lens


def _slices(offsets: list, lengths: list) -> tuple:
    return tuple(slice(o, o + n) for o, n in zip(offsets, lengths))


def load_state_dict(state_dict: dict, path: str, process_group: Any = None, coordinator_rank: int = 0) -> None:
    """Load the checkpoint in `path` into the tensors of `state_dict`, in place (each rank its own pieces)."""
    from paddle_compat.engine.static.serialization import load

    def load_from_file(p: str) -> bytes:
        with open(p, "rb") as f:
            return f.read()

    _check_state_dict(state_dict, "load")
    rank, world = _world()
    if world > 1:
        from paddle_compat.paddle2.distributed.collective import barrier

        barrier(process_group)
    files = os.listdir(path)
    meta_files = sorted(f for f in files if f.endswith(".metadata"))
    assert len(meta_files) > 0, f"No metadata file found in the checkpoint directory:{path}."
    stored: dict = {}
    where: dict = {}
    for mf in meta_files:
        meta = _meta_loads(load_from_file(os.path.join(path, mf)), f"the file {os.path.join(path, mf)!r}")
        for key, pieces in meta.state_dict_metadata.items():
            stored.setdefault(key, []).extend(pieces)
        for idx, fname in meta.storage_metadata.items():
            assert idx not in where, (f"Duplicate tensor_key:{idx} found. Check whether the metadata_file:{mf} "
                                      "contains the same tensor metadata.")
            where[idx] = fname
    missing = set(state_dict) - {i.tensor_key for i in where}
    if missing:
        warnings.warn(f"Missing keys:{missing}, check whether the checkpoint is complete.")
    cache: dict = {}
    for key, val in state_dict.items():
        shape, offset, piece = _piece(val)
        if shape is None:
            continue
        assert key in stored, f"tensor_key:{key} not found in storage_state_dict_metadata:{stored}."
        cur = LocalTensorMetadata(offset, shape)
        for sm in stored[key]:
            ov = _overlap(cur, sm) if len(shape) else ([], [], [])
            if ov is None:
                continue
            fname = where[LocalTensorIndex(key, tuple(sm.global_offset))]
            if fname not in cache:
                fpath = os.path.join(path, fname)
                if not os.path.exists(fpath):
                    raise FileNotFoundError(
                        f"paddle.distributed.load_state_dict: rank {rank} needs {fpath!r} (piece of {key!r} at "
                        f"offset {tuple(sm.global_offset)}), which it cannot read; every rank must see the whole "
                        "checkpoint directory (a shared file system)")
                cache[fname] = load(fpath)
            src = cache[fname][key]
            src = src._t if hasattr(src, "_t") else torch.as_tensor(src)
            c_off, s_off, lens = ov
            with torch.no_grad():
                piece[_slices(c_off, lens)].copy_(src[_slices(s_off, lens)].to(piece.dtype))


export(save_state_dict, "paddle.distributed.save_state_dict", "paddle.distributed.checkpoint.save_state_dict")
export(load_state_dict, "paddle.distributed.load_state_dict", "paddle.distributed.checkpoint.load_state_dict")
partial("paddle.distributed.load_state_dict", "each rank reads the checkpoint files it needs itself (every rank must "
        "see the directory: one machine or a shared file system); Paddle reads each file once and broadcasts")
