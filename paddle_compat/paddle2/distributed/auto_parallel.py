"""Paddle 2.6's dygraph auto-parallel API on torch.distributed.tensor (DTensor / DeviceMesh).

- `ProcessMesh`, `Shard` / `Replicate` / `Partial` (`Placement`), `ReduceType`, `DistAttr`: Paddle's objects, with
  its argument checks, attributes and strings (`Shard(dim=1)`, `Partial(reduce_type=SUM)`, a mesh prints as
  `shape [2, 3], process_ids [...], dim_nams [...]` -- Paddle's spelling -- and as `{shape: [2,3], ...}` when it is
  the one a tensor reports).
- A distributed tensor is our `paddle.Tensor` whose torch value is a `DTensor` on the mesh's `DeviceMesh`: its
  `shape` is the global shape, `numpy()` the global value, `_local_value()` this rank's piece, and every op runs
  through DTensor's sharding propagation (torch's counterpart of Paddle's SPMD rules; `Partial` results are
  reduced when a later op needs them). A dense tensor mixed with a distributed one counts as replicated, as in
  Paddle (DTensor's implicit replication, switched on with the first distributed tensor).
- `shard_tensor` slices this rank's piece of `data` locally (no communication, as Paddle: every rank passes the
  same global value); a `Partial(sum)` piece is the value on the mesh dim's first process and zeros elsewhere.
- One process (no launcher): a world of one, a gloo process group on an in-memory store, so meshes of one
  process work with no environment; a mesh naming more processes than the job has is a clear error.
  Several processes: torchrun / `paddle.distributed.launch` / `spawn`, the job's default group (gloo on CPU).

Not mapped: static-graph annotation (`shard_tensor` on a static Variable, `reshard` inside a program) and
resharding between two different meshes (torch's DTensor has no cross-mesh redistribute); both raise naming it.
"""

from __future__ import annotations

import copy
import enum
import weakref
from typing import Any, Callable

import numpy as np
import torch

from paddle_compat.engine.core.dist_tensor import is_dtensor as _is_dtensor
from paddle_compat.engine.core.errors import InvalidArgumentError, UnimplementedError, UnsupportedAPIError
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.engine.framework.tensor import DIST_REPR, PRINT_OPTIONS

# ------------------------------------------------------------------------------------------------ placements


class ReduceType(enum.Enum):
    """`paddle.distributed.ReduceType`: how a `Partial` tensor's pieces combine (kRedSum=0 ... kRedAll=6)."""

    kRedSum = 0  # noqa: N815 - Paddle's names
    kRedMax = 1  # noqa: N815
    kRedMin = 2  # noqa: N815
    kRedProd = 3  # noqa: N815
    kRedAvg = 4  # noqa: N815
    kRedAny = 5  # noqa: N815
    kRedAll = 6  # noqa: N815

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    def __hash__(self) -> int:  # as Paddle's pybind enum: hash(x) == hash(int(x)), though x != int(x)
        return hash(self.value)


_REDUCE_NAMES = {ReduceType.kRedSum: "SUM", ReduceType.kRedMax: "MAX", ReduceType.kRedMin: "MIN",
                 ReduceType.kRedProd: "PRODUCT", ReduceType.kRedAvg: "AVG", ReduceType.kRedAny: "ANY",
                 ReduceType.kRedAll: "ALL"}
# torch's Partial reduce ops; ANY / ALL (boolean reductions) have none
_TORCH_REDUCE = {ReduceType.kRedSum: "sum", ReduceType.kRedMax: "max", ReduceType.kRedMin: "min",
                 ReduceType.kRedProd: "product", ReduceType.kRedAvg: "avg"}


class Placement:
    """`paddle.distributed.Placement`: the base of Shard, Replicate and Partial."""

    def is_shard(self, dim: int | None = None) -> bool:
        return False

    def is_replicated(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False

    def __ne__(self, other: Any) -> bool:
        return not self == other

    def __repr__(self) -> str:
        # NOTE: Paddle's pybind objects have the default object repr; only str() gives "Shard(dim=1)". Ours repr
        # the same text as str (printing a list of placements stays readable).
        return str(self)


class Shard(Placement):
    """`paddle.distributed.Shard(dim)`: split the tensor's dimension `dim` over one mesh dimension."""

    def __init__(self, dim: int, /) -> None:
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            raise TypeError("__init__(): incompatible constructor arguments. The following argument types are "
                            f"supported:\n    1. paddle.distributed.Shard(arg0: int)\n\nInvoked with: {dim!r}")
        self._dim = int(dim)

    def get_dim(self) -> int:
        return self._dim

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self._dim

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Shard) and other._dim == self._dim

    def __hash__(self) -> int:
        return hash(("Shard", self._dim))

    def __str__(self) -> str:
        return f"Shard(dim={self._dim})"


class Replicate(Placement):
    """`paddle.distributed.Replicate()`: every process of the mesh dimension holds the whole tensor."""

    def is_replicated(self) -> bool:
        return True

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Replicate)

    def __hash__(self) -> int:
        return hash("Replicate")

    def __str__(self) -> str:
        return "Replicate()"


class Partial(Placement):
    """`paddle.distributed.Partial(reduce_type=ReduceType.kRedSum)`: the tensor is the reduction of the pieces."""

    def __init__(self, reduce_type: ReduceType = ReduceType.kRedSum) -> None:
        if not isinstance(reduce_type, ReduceType):
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types are supported:\n"
                "    1. paddle.distributed.Partial(reduce_type: paddle.distributed.ReduceType = "
                f"<ReduceType.kRedSum: 0>)\n\nInvoked with: {reduce_type!r}")
        self._reduce_type = reduce_type

    def is_partial(self) -> bool:
        return True

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Partial) and other._reduce_type == self._reduce_type

    def __hash__(self) -> int:
        return hash(("Partial", self._reduce_type.value))

    def __str__(self) -> str:
        return f"Partial(reduce_type={_REDUCE_NAMES[self._reduce_type]})"


# ------------------------------------------------------------------------------------------------ ProcessMesh

_unique_ids: dict[str, int] = {}


def _fmt_list(xs: list) -> str:  # Paddle's C++ strings: "[2,4,5]", "[x,y]"
    return "[" + ",".join(str(x) for x in xs) + "]"


class _CoreProcessMesh:
    """The mesh a distributed tensor reports (`x.process_mesh`, `dist_attr.process_mesh`): Paddle's C++
    `core.ProcessMesh`, which prints as `{shape: [2,3], process_ids: [...], dim_names: [x,y]}`."""

    def __init__(self, shape: list, process_ids: list, dim_names: list) -> None:
        self._shape, self._process_ids, self._dim_names = list(shape), list(process_ids), list(dim_names)

    shape = property(lambda self: list(self._shape))
    process_ids = property(lambda self: list(self._process_ids))
    dim_names = property(lambda self: list(self._dim_names))
    ndim = property(lambda self: len(self._shape))
    size = property(lambda self: int(np.prod(self._shape)) if self._shape else 0)

    def dim_size(self, dim: int | str) -> int:
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise InvalidArgumentError(f"Cannot find the dimension of {dim} in this process mesh.")
            dim = self._dim_names.index(dim)
        return self._shape[dim]

    def empty(self) -> bool:
        return not self._shape or not self._process_ids

    def contains(self, process_id: int) -> bool:
        return process_id in self._process_ids

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, _CoreProcessMesh):
            return False
        return self._shape == other._shape and self._process_ids == other._process_ids

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((tuple(self._shape), tuple(self._process_ids)))

    def __str__(self) -> str:
        return (f"{{shape: {_fmt_list(self._shape)}, process_ids: {_fmt_list(self._process_ids)}, "
                f"dim_names: {_fmt_list(self._dim_names)}}}")

    __repr__ = __str__


class ProcessMesh(_CoreProcessMesh):
    """`paddle.distributed.ProcessMesh(mesh, dim_names=None)`: the Cartesian topology of the processes.

    `shape=` / `process_ids=` instead of `mesh` are Paddle's compatibility spelling. Used as a context manager it
    is the current mesh (Paddle's static annotation; nothing is annotated here)."""

    def __init__(self, mesh: Any = None, dim_names: list | None = None, shape: list | None = None,
                 process_ids: list | None = None) -> None:
        if mesh is None:
            assert shape is not None
            assert process_ids is not None
            mesh = np.array(process_ids).reshape(shape)
        if not isinstance(mesh, (list, np.ndarray)):
            raise ValueError("The mesh must be an instance of list or np.ndarray.")
        if isinstance(mesh, list):
            mesh = np.array(mesh)
        if dim_names is not None and not isinstance(dim_names, list):
            raise ValueError("The dim_names must be an instance of list.")
        self._mesh = mesh
        shape_ = list(mesh.shape)
        ids = mesh.flatten().tolist()
        assert all(isinstance(p, int) for p in ids), "All elements of the mesh must be integer"
        assert min(ids) >= 0, "All elements of the mesh must be >= 0."
        assert len(set(ids)) == len(ids), "All elements of the mesh must be unique."
        if dim_names is not None:
            assert len(dim_names) == len(shape_), "The length of dims_names must be same as the shape of the mesh."
            names = copy.deepcopy(dim_names)
        else:
            names = ["d" + str(i) for i in range(len(shape_))]
        assert len(set(names)) == len(names), f"All dim_names {dim_names} must be unique."
        super().__init__(shape_, ids, names)
        key = f"shape {shape_}, process_ids {ids}"
        self._unique_id = _unique_ids.setdefault(key, len(_unique_ids) + 1)

    mesh = property(lambda self: self._mesh, doc="the mesh as a numpy array")
    unique_id = property(lambda self: self._unique_id, doc="one id per (shape, process_ids)")

    def __getitem__(self, index: Any) -> "ProcessMesh":
        if isinstance(index, tuple):
            names = [self._dim_names[i] for i, item in enumerate(index) if isinstance(item, slice)]
            sub = self._mesh[index]
            return ProcessMesh(sub, names) if sub.shape else ProcessMesh([sub])
        if isinstance(index, slice):
            return ProcessMesh(self._mesh[index], self._dim_names)
        sub = self._mesh[index]
        return ProcessMesh(sub, self._dim_names[1:]) if sub.shape else ProcessMesh([sub])

    def get_dim_size(self, dim_name: str) -> int:
        assert dim_name in self._dim_names
        return self._shape[self._dim_names.index(dim_name)]

    def get_mesh_with_dim(self, dim_name: str) -> "ProcessMesh":
        assert dim_name in self._dim_names, f"{dim_name} is not a valid dim name."
        axis = self._dim_names.index(dim_name)
        order = [axis] + [i for i in range(len(self._dim_names)) if i != axis]
        return ProcessMesh(self._mesh.transpose(order), [dim_name] + [d for d in self._dim_names if d != dim_name])

    def __enter__(self) -> None:
        _current_mesh.append(self)

    def __exit__(self, *exc: Any) -> None:
        _current_mesh.pop()

    def __deepcopy__(self, memo: dict) -> "ProcessMesh":
        if id(self) not in memo:
            memo[id(self)] = ProcessMesh(np.array(self._mesh), self.dim_names)
        return memo[id(self)]

    __hash__ = _CoreProcessMesh.__hash__

    def __str__(self) -> str:
        return f"shape {self.shape}, process_ids {self.process_ids}, dim_nams {self.dim_names}"  # sic, Paddle's

    def __repr__(self) -> str:
        return f"ProcessMesh({self.__str__()})"


_current_mesh: list = []


def _core_mesh(pm: _CoreProcessMesh) -> _CoreProcessMesh:
    return _CoreProcessMesh(pm.shape, pm.process_ids, pm.dim_names)


# ------------------------------------------------------------------------------------------------ DistAttr


class TensorDistAttr:
    """A tensor's distributed attributes (`x.dist_attr`): mesh, dims_mapping (tensor dim -> mesh dim or -1) and
    the partial mesh dims, printed as Paddle's C++ TensorDistAttr."""

    def __init__(self, process_mesh: _CoreProcessMesh | None = None, dims_mapping: list | None = None,
                 partial_status: dict | None = None) -> None:
        self.process_mesh = process_mesh
        self.dims_mapping = list(dims_mapping or [])
        self.batch_dim = 0
        self.chunk_id = 0
        self._partial = dict(partial_status or {})  # mesh dim -> ReduceType
        self._annotated: dict[str, bool] = {}

    @property
    def dynamic_dims(self) -> list:
        return [False] * len(self.dims_mapping)

    @property
    def annotated(self) -> dict:
        return dict(self._annotated)

    def mark_annotated(self, name: str) -> None:
        self._annotated[name] = True

    def is_annotated(self, name: str) -> bool:
        return self._annotated.get(name, False)

    def clear_annotated(self) -> None:
        self._annotated.clear()

    def _is_partial(self) -> bool:
        return bool(self._partial)

    def _partial_dims(self) -> set:
        return set(self._partial)

    def _set_partial_dims(self, dims: list) -> None:
        self._partial = {int(d): ReduceType.kRedSum for d in dims}

    def _clean_partial_dims(self, dims: list) -> None:
        for d in dims:
            self._partial.pop(int(d), None)

    def _clean_partial_status(self) -> None:
        self._partial.clear()

    def __str__(self) -> str:
        ann = ",".join(f"{k}: {int(v)}" for k, v in sorted(self._annotated.items()))
        part = "".join(f"Partial(dims:{d}, {_REDUCE_NAMES[t]}), " for d, t in sorted(self._partial.items()))
        return (f"{{process_mesh: {self.process_mesh}, dims_mappings: {_fmt_list(self.dims_mapping)}, "
                f"batch_dim: {self.batch_dim}, chunk_id: {self.chunk_id}, "
                f"dynamic_dims: {_fmt_list([0] * len(self.dims_mapping))}, annotated: [{ann}], partial: [{part}].}}")

    __repr__ = __str__


class DistAttr(TensorDistAttr):
    """`paddle.distributed.DistAttr(mesh, sharding_specs)`: sharding given as one mesh dim name (or None) per
    tensor dim."""

    def __init__(self, mesh: ProcessMesh, sharding_specs: list) -> None:
        if not isinstance(mesh, _CoreProcessMesh):
            raise ValueError("The mesh must be an instance of paddle.distributed.ProcessMesh.")
        if not isinstance(sharding_specs, list):
            raise ValueError("The sharding_specs must be an instance of list.")
        assert all(isinstance(d, str) or d is None for d in sharding_specs), \
            "The dimension name in sharding_specs must be an instance of str."
        self._sharding_specs = sharding_specs
        super().__init__(_core_mesh(mesh), [mesh.dim_names.index(d) if d is not None else -1
                                            for d in sharding_specs])
        self.mark_annotated("process_mesh")
        self.mark_annotated("dims_mapping")

    @property
    def sharding_specs(self) -> list:
        return self._sharding_specs


# ------------------------------------------------------------------------------------------------ torch glue

_state: dict[str, Any] = {"meshes": {}, "implicit": False}


def _ensure_world() -> None:
    """The default process group DTensor needs: the launcher's job, or else a world of one process."""
    import torch.distributed as tdist

    from paddle_compat.engine.parallel import collective

    if collective.ensure_initialized():
        return
    if not tdist.is_available():
        raise UnsupportedAPIError("paddle.distributed.shard_tensor", "this torch build has no torch.distributed")
    # One process, no launcher: gloo (and NCCL for CUDA tensors) over an in-memory store; no port, no environment.
    tdist.init_process_group(collective.default_backend(), store=tdist.HashStore(), rank=0, world_size=1)
    _state["own_world"] = True  # paddle.distributed.is_initialized() stays False, as in Paddle (env.py)
    collective._state["backend"] = collective.default_backend()
    if not collective._state["atexit"]:
        import atexit

        collective._state["atexit"] = True
        atexit.register(collective.destroy)


def _device_mesh(pm: _CoreProcessMesh, device_type: str, api: str):
    """The torch DeviceMesh of a ProcessMesh (one per mesh and device type; creating one is collective)."""
    from torch.distributed.device_mesh import DeviceMesh

    key = (device_type, tuple(pm.shape), tuple(pm.process_ids), tuple(pm.dim_names))
    dm = _state["meshes"].get(key)
    if dm is None:
        _ensure_world()
        import torch.distributed as tdist

        world = tdist.get_world_size()
        if max(pm.process_ids) >= world:
            raise InvalidArgumentError(
                f"{api}: the ProcessMesh {pm} names process {max(pm.process_ids)}, but this job has {world} "
                f"process(es) (ranks 0..{world - 1}); start {max(pm.process_ids) + 1} processes with "
                "python -m paddle.distributed.launch --nproc_per_node N, torchrun or paddle.distributed.spawn")
        dm = DeviceMesh(device_type, torch.tensor(np.asarray(pm.process_ids).reshape(pm.shape)),
                        mesh_dim_names=tuple(pm.dim_names))
        _state["meshes"][key] = dm
    if not _state["implicit"]:
        # Paddle treats a dense input of an op with distributed inputs as replicated; DTensor does so with this
        from torch.distributed.tensor import DTensor

        DTensor._op_dispatcher._allow_implicit_replication = True
        _state["implicit"] = True
    return dm


def _check_placements(placements: Any, mesh: _CoreProcessMesh, ndim: int, api: str) -> list:
    if isinstance(placements, Placement):
        placements = [placements]  # Paddle accepts a single placement as well
    if not isinstance(placements, (list, tuple)):
        raise InvalidArgumentError(f"{api}: placements must be a list of paddle.distributed.Placement (Shard, "
                                   f"Replicate, Partial), got {type(placements).__name__}")
    for i, p in enumerate(placements):
        if not isinstance(p, Placement):
            raise InvalidArgumentError(f"{api}: argument placements must be list of Placement, but got "
                                       f"{type(p).__name__} at pos {i}")
    if any(not p.is_replicated() for p in placements[mesh.ndim:]):
        raise InvalidArgumentError(f"{api}: {len(placements)} placements for a ProcessMesh of {mesh.ndim} "
                                   f"dimension(s) {mesh}; give one placement per mesh dimension")
    # Paddle maps only the Shards onto the mesh: missing placements are Replicate, surplus Replicates are ignored
    out = list(placements[:mesh.ndim]) + [Replicate()] * (mesh.ndim - len(placements))
    seen: dict[int, int] = {}
    for i, p in enumerate(out):
        if isinstance(p, Shard):
            d = p.get_dim()
            if not -ndim <= d < ndim:
                raise InvalidArgumentError(f"{api}: Shard(dim={d}) on a tensor of {ndim} dimension(s); the dim "
                                           f"must be in [{-ndim}, {ndim})")
            d %= ndim
            if d in seen:
                raise InvalidArgumentError(
                    f"{api}: Tensor dim {d} is already sharded on mesh dim {seen[d]}; sharding one tensor dim over "
                    "two mesh dims is not supported (as in Paddle 2.6.2)")
            seen[d] = i
            out[i] = Shard(d)
    return out


def _to_torch_placements(placements: list, api: str) -> tuple:
    from torch.distributed.tensor import Partial as TPartial
    from torch.distributed.tensor import Replicate as TReplicate
    from torch.distributed.tensor import Shard as TShard

    res = []
    for p in placements:
        if isinstance(p, Shard):
            res.append(TShard(p.get_dim()))
        elif isinstance(p, Partial):
            op = _TORCH_REDUCE.get(p._reduce_type)
            if op is None:
                raise UnimplementedError(f"{api}: {p} has no torch counterpart (DTensor's Partial reduces by sum, "
                                         "avg, max, min or product)")
            res.append(TPartial(op))
        else:
            res.append(TReplicate())
    return tuple(res)


def _from_torch_placements(placements: tuple) -> list:
    from torch.distributed.tensor import Partial as TPartial
    from torch.distributed.tensor import Shard as TShard

    back = {v: k for k, v in _TORCH_REDUCE.items()}
    out: list[Placement] = []
    for p in placements:
        if isinstance(p, TShard):
            out.append(Shard(p.dim))
        elif isinstance(p, TPartial):
            out.append(Partial(back.get(p.reduce_op, ReduceType.kRedSum)))
        else:
            out.append(Replicate())
    return out


def _mesh_of(dt: Any) -> _CoreProcessMesh:
    dm = dt.device_mesh
    ids = dm.mesh.flatten().tolist()
    names = list(dm.mesh_dim_names or [f"d{i}" for i in range(dm.mesh.dim())])
    return _CoreProcessMesh(list(dm.mesh.shape), ids, names)


def _make_dtensor(t: torch.Tensor, mesh: _CoreProcessMesh, placements: list, api: str):
    """This rank's piece of the global value `t` (sliced locally, as Paddle does) as a DTensor."""
    from torch.distributed.tensor import DTensor
    from torch.distributed.tensor._utils import compute_local_shape_and_global_offset

    dm = _device_mesh(mesh, t.device.type, api)
    tpl = _to_torch_placements(placements, api)
    local_shape, offset = compute_local_shape_and_global_offset(t.shape, dm, tpl)
    local = t
    for d, (n, o) in enumerate(zip(local_shape, offset)):
        if n != t.shape[d] or o != 0:
            local = local.narrow(d, o, n)
    local = local.detach().clone().contiguous()
    coord = dm.get_coordinate()
    for i, p in enumerate(placements):
        # NOTE: a Partial(sum) piece is the whole value on the first process of that mesh dim and zeros on the
        # others (so the reduction gives the value), as Paddle 2.6.2 makes it (tests/goldens/autopar26_2ranks.json,
        # p_local); the other reductions of equal pieces give the value already.
        if isinstance(p, Partial) and p._reduce_type == ReduceType.kRedSum and coord is not None and coord[i] != 0:
            local.zero_()
    return DTensor.from_local(local, dm, tpl, run_check=False, shape=t.shape, stride=t.contiguous().stride())


# The placements list shard_tensor was given, per DTensor it made: Paddle reports it as given (`[]`, or the one
# Replicate per tensor dim shard_layer passes) until an op makes a new tensor. tests/goldens/autopar26.json.
# (keyed by id with a weak reference: a tensor's == is elementwise, so no WeakKeyDictionary)
_GIVEN: dict[int, tuple] = {}


def _wrap_like(value: Any, dt: Any):
    from paddle_compat.engine.framework.tensor import Tensor
    from paddle_compat.engine.framework.eager_parameter import EagerParameter

    if isinstance(value, EagerParameter):
        # Paddle rebuilds the parameter (EagerParamBase.from_tensor with its attributes): still trainable
        p = EagerParameter._wrap(dt.requires_grad_(value.trainable and dt.is_floating_point()))
        for attr in ("name", "persistable", "trainable", "optimize_attr", "regularizer", "need_clip",
                     "do_model_average"):
            setattr(p, attr, getattr(value, attr))
        p.is_distributed = True
        return p
    # NOTE: Paddle 2.6.2 builds the result with paddle.Tensor(tensor, process_mesh=..., placements=...), whose new
    # autograd meta has stop_gradient=True: `stop_gradient=False` only takes effect for parameters (rebuilt with
    # their attributes, trainable ones stay trainable). tests/goldens/autopar26.json, case tensor_sg.
    return Tensor._wrap(dt)


# ------------------------------------------------------------------------------------------------ the API


def _dygraph_only(api: str) -> None:
    from paddle_compat.engine.core.mode import MODE

    if MODE.static:
        raise UnsupportedAPIError(api, "in static graph mode (Paddle's static auto-parallel annotation is not "
                                  "provided); call it in dygraph mode, or convert with paddle.distributed.to_static")


def _check_mesh(mesh: Any, api: str, arg: str = "mesh") -> None:
    if not isinstance(mesh, _CoreProcessMesh):
        raise InvalidArgumentError(f"{api}: argument {arg} must be paddle.distributed.ProcessMesh, but got "
                                   f"{type(mesh).__name__}")


def shard_tensor(data: Any, mesh: ProcessMesh, placements: list, dtype: Any = None, place: Any = None,
                 stop_gradient: bool = True):
    """A distributed tensor of `data` (scalar, list, ndarray or Tensor) placed on `mesh` by `placements`."""
    api = "paddle.distributed.shard_tensor"
    _dygraph_only(api)
    _check_mesh(mesh, api)
    from paddle_compat.engine.framework.tensor import Tensor, to_tensor

    if isinstance(data, Tensor) and _is_dtensor(data._t):
        data = Tensor._wrap(data._t.full_tensor())
    tensor = to_tensor(data, dtype=dtype, place=place, stop_gradient=True)
    pl = _check_placements(placements, mesh, tensor.ndim, api)
    dt = _make_dtensor(tensor._t, mesh, pl, api)
    if list(placements) != pl:
        key = id(dt)
        _GIVEN[key] = (weakref.ref(dt, lambda _r, k=key: _GIVEN.pop(k, None)), list(placements))
    return _wrap_like(data, dt)


def dtensor_from_fn(fn: Callable, mesh: ProcessMesh, placements: list, *args: Any, **kwargs: Any):
    """`shard_tensor(fn(*args, **kwargs), mesh, placements)`."""
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def reshard(dist_tensor: Any, mesh: ProcessMesh, placements: list):
    """The distributed tensor placed anew on `mesh` (communication as needed: all-gather, all-reduce, ...)."""
    api = "paddle.distributed.reshard"
    _dygraph_only(api)
    _check_mesh(mesh, api)
    from paddle_compat.engine.framework.tensor import Tensor

    if not isinstance(dist_tensor, Tensor) or not _is_dtensor(dist_tensor._t):
        raise InvalidArgumentError(f"{api}: the input tensor of ReshardFunction should be a distributed tensor "
                                   "(made by paddle.distributed.shard_tensor); got a dense one")
    dt = dist_tensor._t
    pl = _check_placements(placements, mesh, dt.dim(), api)
    if _mesh_of(dt) != mesh:
        raise UnimplementedError(f"{api}: resharding from ProcessMesh {_mesh_of(dt)} to another mesh {mesh} is not "
                                 "supported (torch's DTensor redistributes within one mesh)")
    out = dt.redistribute(_device_mesh(mesh, dt.device.type, api), _to_torch_placements(pl, api))
    return Tensor._wrap(out)


# --- Tensor attributes (paddle.Tensor.is_dist / placements / process_mesh / dist_attr / _local_value)


def _is_dist(self) -> bool:
    return _is_dtensor(self._t)


def _placements(self):
    t = self._t
    if not _is_dtensor(t):
        return None
    given = _GIVEN.get(id(t))
    if given is not None and given[0]() is t:
        return list(given[1])
    return _from_torch_placements(t.placements)


def _process_mesh(self):
    return _mesh_of(self._t) if _is_dtensor(self._t) else None


def _dist_attr(self):
    t = self._t
    if not _is_dtensor(t):
        return None
    dims = [-1] * t.dim()
    part = {}
    for i, p in enumerate(_from_torch_placements(t.placements)):
        if isinstance(p, Shard):
            dims[p.get_dim()] = i
        elif isinstance(p, Partial):
            part[i] = p._reduce_type
    attr = TensorDistAttr(_mesh_of(t), dims, part)
    attr.mark_annotated("process_mesh")
    attr.mark_annotated("dims_mapping")
    return attr


def _local_value(self):
    from paddle_compat.engine.framework.tensor import Tensor

    return Tensor._wrap(self._t.to_local()) if _is_dtensor(self._t) else self


_is_dist.__name__ = "is_dist"
_local_value.__name__ = "_local_value"
export(_is_dist, "paddle.Tensor.is_dist")
export(_local_value, "paddle.Tensor._local_value")
export(property(_placements), "paddle.Tensor.placements")
export(property(_process_mesh), "paddle.Tensor.process_mesh")
export(property(_dist_attr), "paddle.Tensor.dist_attr")


def dist_repr(x: Any) -> str:
    """Paddle's string of a distributed tensor: the global value after the mesh and placements."""
    with np.printoptions(**PRINT_OPTIONS):
        body = np.array2string(x.numpy(), separator=", ", prefix="       ")
    pl = "[" + ", ".join(str(p) for p in _placements(x)) + "]"
    return (f"Tensor(shape={x.shape}, dtype={x.dtype.name}, place={x.place}, stop_gradient={x.stop_gradient}, "
            f"process_mesh={_process_mesh(x)}, placements={pl}, GlobalDenseTensor=\n       {body})")


DIST_REPR.append(dist_repr)


# --- layers and optimizers


def shard_layer(layer: Any, process_mesh: ProcessMesh, shard_fn: Callable | None = None,
                input_fn: Callable | None = None, output_fn: Callable | None = None):
    """Make every parameter and buffer of `layer` distributed: `shard_fn(name, sublayer, mesh)` places those it
    wants, the rest are replicated; `input_fn` / `output_fn` become forward pre / post hooks."""
    if process_mesh is None:
        raise ValueError("The argument `process_mesh` cannot be empty.")
    if not isinstance(process_mesh, ProcessMesh):
        raise ValueError("The argument `process_mesh` is not `dist.ProcessMesh` type.")
    from paddle_compat.engine.core.mode import MODE

    if MODE.static:
        raise NotImplementedError("`paddle.distributed.shard_layer` only supports dynamic graph mode now. It will be "
                                  "supported for static graph mode later.")

    def replicate(sub: Any) -> None:
        for key, p in list(sub._parameters.items()):
            if p is not None and not _is_dtensor(p._t):  # NOTE: one Replicate per tensor dim, as Paddle passes
                sub.add_parameter(key, shard_tensor(p, process_mesh, [Replicate()] * p.ndim))
        for key, b in list(sub._buffers.items()):
            if b is not None and not _is_dtensor(b._t):
                sub.register_buffer(key, shard_tensor(b, process_mesh, [Replicate()] * b.ndim),
                                    persistable=key not in getattr(sub, "_non_persistable_buffer_names_set", ()))

    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        replicate(sub)
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(lambda _, inputs, outputs: output_fn(outputs, process_mesh))
    return layer


def _replicate_dense_params(layer: Any) -> None:
    """Make the dense parameters of a layer that has distributed ones replicated on that mesh, in place (the
    parameter objects stay; their values become DTensors). Paddle's auto-parallel completion gives every parameter
    of the converted program such a replicated dist attr."""
    params = list(layer.parameters())
    mesh = next((_mesh_of(p._t) for p in params if _is_dtensor(p._t)), None)
    if mesh is None:
        return
    for p in params:
        if not _is_dtensor(p._t):
            t = _make_dtensor(p._t.detach(), mesh, [Replicate()] * mesh.ndim, "paddle.distributed.to_static")
            p._t = t.requires_grad_(not p.stop_gradient and t.is_floating_point())


class _ShardOptimizer:
    """What `shard_optimizer` returns: the optimizer, whose accumulators are made distributed before each step.

    As Paddle 2.6.2: with no `shard_fn` an accumulator of a distributed parameter takes the parameter's mesh and
    placements (the beta-power scalars are replicated on that mesh); `shard_fn(name, param, accumulator)` returns
    the distributed accumulator to use instead."""

    def __init__(self, optimizer: Any, shard_fn: Callable | None = None) -> None:
        from paddle_compat.paddle2.optimizer.optimizer import SGD, AdamW

        assert optimizer is not None, "The argument `optimizer` cannot be empty."
        assert isinstance(optimizer, (AdamW, SGD)), \
            "`paddle.distributed.ShardOptimizer` only supports AdamW and SGD optimizer for now."
        self._inner_opt = optimizer
        self._shard_fn = shard_fn

    def _params(self) -> list:
        out = []
        for p in self._inner_opt._parameter_list or []:
            out.extend(p["params"] if isinstance(p, dict) else [p])
        return out

    def _shard_accumulator(self, param: Any) -> None:
        opt = self._inner_opt
        opt._create_accumulators([param])
        for key, store in opt._accumulators.items():
            acc = store.get(param.name)
            if acc is None or _is_dtensor(acc._t):
                continue
            if self._shard_fn is not None:
                store[param.name] = self._shard_fn(key, param, acc)
            elif _is_dtensor(param._t):
                mesh = _mesh_of(param._t)
                pl = _placements(param) if "beta" not in key else [Replicate()] * mesh.ndim
                new = shard_tensor(acc, mesh, pl)
                new.name, new.persistable = acc.name, acc.persistable
                store[param.name] = new

    def step(self) -> None:
        for p in self._params():
            if not p.stop_gradient and p.grad is not None:
                g = p._grad_tensor()
                if not _is_dtensor(p._t) and _is_dtensor(g):
                    # A dense parameter used with distributed tensors got a distributed gradient: the parameter
                    # becomes replicated on that mesh (what shard_layer would have made it), so that its value,
                    # gradient and accumulators agree from now on.
                    from torch.distributed.tensor import DTensor
                    from torch.distributed.tensor import Replicate as TReplicate

                    rep = (TReplicate(),) * g.device_mesh.ndim
                    t = DTensor.from_local(p._t.detach(), g.device_mesh, rep, run_check=False)
                    t.requires_grad_(True)
                    t.grad = g.redistribute(g.device_mesh, rep)
                    p._t = t
                self._shard_accumulator(p)
        self._inner_opt.step()

    def state_dict(self) -> dict:
        """The optimizer's state dict; before the first step the states are created (and distributed) first, as
        Paddle does, so that a checkpoint can be loaded into them."""
        params = [p for p in self._params() if not p.stop_gradient]
        if all(p.grad is None for p in params) and not any(
                _is_dtensor(v._t) for store in self._inner_opt._accumulators.values() for v in store.values()):
            for p in params:
                self._shard_accumulator(p)
        return self._inner_opt.state_dict()

    def __getattr__(self, item: str) -> Any:
        return getattr(self._inner_opt, item)


def shard_optimizer(optimizer: Any, shard_fn: Callable | None = None):
    """Wrap `optimizer` (AdamW or SGD, as Paddle 2.6.2 allows) for distributed parameters."""
    return _ShardOptimizer(optimizer, shard_fn)


export(ReduceType, "paddle.distributed.ReduceType")
export(Placement, "paddle.distributed.Placement")
export(Shard, "paddle.distributed.Shard")
export(Replicate, "paddle.distributed.Replicate")
export(Partial, "paddle.distributed.Partial")
export(ProcessMesh, "paddle.distributed.ProcessMesh")
export(DistAttr, "paddle.distributed.DistAttr")
export(shard_tensor, "paddle.distributed.shard_tensor")
export(dtensor_from_fn, "paddle.distributed.dtensor_from_fn")
export(reshard, "paddle.distributed.reshard")
export(shard_layer, "paddle.distributed.shard_layer")
export(shard_optimizer, "paddle.distributed.shard_optimizer")
partial("paddle.distributed.shard_tensor", "dygraph only: a static Variable raises (Paddle's static auto-parallel "
        "annotation is not provided); a mesh naming more processes than the job has raises")
partial("paddle.distributed.reshard", "dygraph, within one ProcessMesh: resharding to another mesh raises "
        "(torch's DTensor has no cross-mesh redistribute)")
partial("paddle.distributed.Partial", "ReduceType.kRedAny / kRedAll partials raise when a tensor is made with them "
        "(torch's DTensor has no boolean reductions)")
