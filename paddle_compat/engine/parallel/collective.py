"""Cross-process collectives used by data parallelism (static replicas, dygraph DataParallel, SyncBatchNorm).

One process (no torchrun, WORLD_SIZE unset or 1): every call is the identity, so in-process data parallelism
needs nothing else. Under torchrun (or Paddle's own launch variables) the torch.distributed process group is
created on first use (gloo on CPU, NCCL on CUDA), destroyed at exit, and every call does the real work:

- `all_reduce_sum_` / `all_reduce_`: in place, optionally bucketed (BuildStrategy.fuse_all_reduce_ops): tensors
  of one dtype and device are flattened into buckets of at most `bucket_bytes` and reduced one bucket per call,
  which is Paddle's coalesce_grad_tensor + fuse_all_reduce_op pass and DDP's bucketing. Elementwise sums do not
  depend on the packing, so bucketed and unbucketed results are bit-identical.
- `reduce_to_owners_` / `broadcast_from_owners_`: ReduceStrategy.Reduce. Owners are picked the way Paddle's
  ReduceSSAGraphBuilder does (greedy: the rank with the smallest element count so far, in gradient order),
  not round-robin (reference/strategy_semantics.md 2.7).
- (BuildStrategy.num_trainers / trainer_id against torchrun's WORLD_SIZE / RANK: engine/core/launch_env.py
  `resolve_trainers`, which BuildStrategy reads below this layer.)

Faults: the group is created with a timeout (PADDLE_PG_TIMEOUT in ms as in Paddle, or PADDLE_COMPAT_DIST_TIMEOUT
in seconds; default 300 s), and a collective that fails because a peer died (gloo reports the closed
connection at once) raises UnavailableError naming the operation, this trainer and the likely cause, so the
surviving processes stop with a clear message instead of hanging. See tests/distributed/test_faults.py.
"""

from __future__ import annotations

import atexit
import os
from typing import Any, Callable, Sequence

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError, UnavailableError
from paddle_compat.engine.core.launch_env import _int_env, env_local_rank, env_rank, env_world_size
from paddle_compat.engine.static import executor

DEFAULT_BUCKET_BYTES = 32 * 1024 * 1024  # Paddle's FLAGS_fuse_parameter_memory_size is unset by default; DDP: 25 MB
DEFAULT_TIMEOUT_S = 300.0

_state: dict[str, Any] = {"atexit": False, "backend": None}


# ------------------------------------------------------------------------------------------------
# environment (no process group needed)


def timeout_seconds() -> float:
    ms = _int_env("PADDLE_PG_TIMEOUT")
    if ms is not None:
        return ms / 1000.0
    s = os.environ.get("PADDLE_COMPAT_DIST_TIMEOUT")
    return float(s) if s else DEFAULT_TIMEOUT_S


def default_backend() -> str:
    """gloo on CPU, NCCL on CUDA (PADDLE_COMPAT_DIST_BACKEND overrides; PADDLE_DISTRI_BACKEND is Paddle's).

    A trainer whose place is a GPU gets torch's per-device pair "cpu:gloo,cuda:nccl": CUDA tensors go through
    NCCL and CPU tensors (a fluid script run with CPUPlace on a GPU machine) through gloo."""
    b = os.environ.get("PADDLE_COMPAT_DIST_BACKEND") or os.environ.get("PADDLE_DISTRI_BACKEND")
    if b and b != "auto":
        b = b.lower()
        if b in ("bkcl", "xccl", "heter"):
            raise UnavailableError(f"paddle.distributed: backend {b!r} is not available under torch; use gloo or nccl")
        return b
    from paddle_compat.engine.core.place import get_device_place

    return "cpu:gloo,cuda:nccl" if torch.cuda.is_available() and get_device_place().kind == "gpu" else "gloo"


# ------------------------------------------------------------------------------------------------
# the process group


def _dist():
    import torch.distributed as dist

    return dist


def is_initialized() -> bool:
    dist = _dist()
    return dist.is_available() and dist.is_initialized()


def ensure_initialized(backend: str | None = None) -> bool:
    """Create the default process group if a launcher started several trainers; True when one exists.

    Reads torchrun's MASTER_ADDR / MASTER_PORT / RANK / WORLD_SIZE; with only Paddle's launch variables the
    first entry of PADDLE_TRAINER_ENDPOINTS is the rendezvous address (trainer 0 serves it)."""
    if is_initialized():
        return True
    if env_world_size() <= 1:
        return False
    dist = _dist()
    if not dist.is_available():
        raise UnavailableError("paddle.distributed: this torch build has no torch.distributed support")
    from paddle_compat.engine.core.launch_env import check_env, sync_paddle_env

    sync_paddle_env()
    check_env()
    ps_store = os.environ.get("PADDLE_COMPAT_PS_STORE")  # fluid pserver mode: server 0 hosts the store
    if ps_store and not os.environ.get("MASTER_ADDR"):
        where = (f"reach the parameter server {ps_store} (it hosts the trainers' rendezvous; start it with "
                 "TRAINING_ROLE=PSERVER, e.g. through python -m paddle.distributed.launch_ps)")
    else:
        ps_store = None
        if not os.environ.get("MASTER_ADDR") or not os.environ.get("MASTER_PORT"):
            eps = [e for e in os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]
            if not eps:
                raise InvalidArgumentError(
                    "paddle.distributed: WORLD_SIZE/PADDLE_TRAINERS_NUM > 1 but neither MASTER_ADDR/MASTER_PORT "
                    "nor PADDLE_TRAINER_ENDPOINTS is set; launch with torchrun or python -m paddle.distributed.launch"
                )
            host, _, port = eps[0].rpartition(":")
            os.environ.setdefault("MASTER_ADDR", host)
            os.environ.setdefault("MASTER_PORT", port)
        where = f"join the process group at {os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')}"
    backend = backend or default_backend()
    if "nccl" in backend:
        from paddle_compat.engine.core.place import get_device_place

        p = get_device_place()
        torch.cuda.set_device(p.device_id if p.kind == "gpu" else env_local_rank())
    from paddle_compat.engine.parallel.rendezvous import init_process_group  # bounded by the timeout, faults named

    store = init_process_group(backend, env_rank(), env_world_size(), timeout_seconds(), where, ps_store)
    if ps_store:
        _state["ps_store"] = store
    _state["backend"] = backend
    _install_sync_bn_default()
    if not _state["atexit"]:
        _state["atexit"] = True
        atexit.register(destroy)
    return True


def trainer_done() -> None:
    """Tell the fluid parameter servers this trainer has finished (once; exe.close() or exit)."""
    store = _state.pop("ps_store", None)
    if store is not None:
        try:
            from paddle_compat.engine.parallel.pserver import DONE_KEY

            store.add(DONE_KEY, 1)
        except Exception:  # noqa: BLE001 - the servers may already be gone
            pass


# At exit, gloo ranks wait for each other this long before tearing their groups down (then go on regardless).
EXIT_BARRIER_SECONDS = 60


def destroy() -> None:
    """Destroy the default process group (registered with atexit when the group is created). Under gloo the ranks
    first meet at a barrier: a rank that tore its connections down while a peer still talked to it aborted the
    process now and then ("terminate called without an active exception", about 1 run in 4 of a 2-D mesh script
    on 4 processes over 2 cores). The barrier is bounded (monitored_barrier), so a rank whose peers died exits."""
    trainer_done()
    if is_initialized():
        dist = _dist()
        try:
            if dist.get_world_size() > 1 and dist.get_backend() == "gloo":
                import datetime

                dist.monitored_barrier(timeout=datetime.timedelta(seconds=EXIT_BARRIER_SECONDS))
        except Exception:  # noqa: BLE001 - a peer gone or stuck: tear down anyway
            pass
        try:
            dist.destroy_process_group()
        except Exception:  # noqa: BLE001 - best effort at interpreter exit
            pass


def is_distributed() -> bool:
    return ensure_initialized() and _dist().get_world_size() > 1


def world_size() -> int:
    """Number of trainer processes (creates the process group on first use under a launcher)."""
    return _dist().get_world_size() if ensure_initialized() else 1


def rank() -> int:
    return _dist().get_rank() if ensure_initialized() else 0


def _guard(what: str, fn: Callable[[], Any]) -> Any:
    """Run one collective; a failure (a dead peer, a timeout) becomes a clear UnavailableError."""
    try:
        return fn()
    except (RuntimeError, ConnectionError, TimeoutError) as e:
        r, n = env_rank(), env_world_size()
        text = str(e).strip()
        first = text.splitlines()[0] if text else repr(e)
        lost = isinstance(e, (ConnectionError, TimeoutError)) or any(
            k in text.lower() for k in ("connection", "closed", "reset by peer", "timed out", "timeout", "socket",
                                        "broken pipe", "unavailable", "abort"))
        if not lost:
            raise UnavailableError(f"paddle.distributed {what} failed on trainer {r} of {n}: {first}") from e
        raise UnavailableError(
            f"paddle.distributed {what}: trainer {r} of {n} lost contact with the other trainers "
            f"({type(e).__name__}: {first}). Another trainer process has probably died or stopped; this trainer "
            f"stops too (timeout {timeout_seconds():.0f} s)"
        ) from e


# ------------------------------------------------------------------------------------------------
# collectives

_OPS = {"sum": "SUM", "max": "MAX", "min": "MIN", "prod": "PRODUCT", "avg": "SUM"}


def _reduce_op(op: str):
    dist = _dist()
    try:
        return getattr(dist.ReduceOp, _OPS[op])
    except KeyError:
        raise InvalidArgumentError(f"paddle.distributed: unknown reduce op {op!r}; expected one of {sorted(_OPS)}") \
            from None


def _buckets(tensors: Sequence[torch.Tensor], bucket_bytes: int) -> list[list[int]]:
    """Indices grouped by (dtype, device), in order, each group cut at `bucket_bytes`."""
    groups: dict[tuple, list[list[int]]] = {}
    sizes: dict[tuple, int] = {}
    for i, t in enumerate(tensors):
        key = (t.dtype, t.device)
        nbytes = t.numel() * t.element_size()
        if key not in groups or (sizes[key] + nbytes > bucket_bytes and groups[key][-1]):
            groups.setdefault(key, []).append([])
            sizes[key] = 0
        groups[key][-1].append(i)
        sizes[key] += nbytes
    return [b for bs in groups.values() for b in bs]


def all_reduce_(tensors: Sequence[torch.Tensor], op: str = "sum", bucket_bytes: int | None = None,
                group: Any = None) -> None:
    """Reduce each tensor over all processes, in place; `op` sum / max / min / prod / avg.

    bucket_bytes: None reduces tensor by tensor; an int flattens tensors of one dtype and device into buckets
    of at most that many bytes (one collective per bucket)."""
    if not is_distributed():
        return
    dist = _dist()
    rop = _reduce_op(op)
    n = dist.get_world_size(group) if group is not None else dist.get_world_size()
    tensors = list(tensors)
    if bucket_bytes is None:
        for t in tensors:
            _guard(f"all_reduce({op})", lambda t=t: dist.all_reduce(t, op=rop, group=group))
            if op == "avg":
                t.div_(n)
        return
    from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

    for idx in _buckets(tensors, bucket_bytes):
        ts = [tensors[i] for i in idx]
        flat = _flatten_dense_tensors(ts) if len(ts) > 1 else ts[0].reshape(-1).clone()
        _guard(f"all_reduce({op}) of a fused bucket", lambda flat=flat: dist.all_reduce(flat, op=rop, group=group))
        if op == "avg":
            flat.div_(n)
        for t, r in zip(ts, _unflatten_dense_tensors(flat, ts) if len(ts) > 1 else [flat.view_as(ts[0])]):
            t.copy_(r)


def all_reduce_sum_(tensors: Sequence[torch.Tensor], bucket_bytes: int | None = None) -> None:
    """Sum each tensor over all processes, in place (identity in one process)."""
    all_reduce_(tensors, "sum", bucket_bytes)


def broadcast_(tensors: Sequence[torch.Tensor], src: int = 0, group: Any = None) -> None:
    if not is_distributed():
        return
    dist = _dist()
    for t in tensors:
        _guard(f"broadcast(src={src})", lambda t=t: dist.broadcast(t, src=src, group=group))


def assign_owners(numels: Sequence[int], nranks: int) -> list[int]:
    """Paddle's Reduce-mode placement (ReduceSSAGraphBuilder::GetAppropriateDeviceID): each gradient, in
    order, goes to the rank holding the fewest elements so far (ties: the lowest rank)."""
    load = [0] * max(1, nranks)
    owners = []
    for n in numels:
        r = min(range(len(load)), key=lambda i: (load[i], i))
        owners.append(r)
        load[r] += int(n)
    return owners


def reduce_to_owners_(tensors: Sequence[torch.Tensor], owners: Sequence[int] | None = None) -> list[int]:
    """Sum each tensor onto its owner rank (ReduceStrategy.Reduce); returns the owners. On other ranks the
    tensor's content afterwards is unspecified, as with Paddle's reduce op handle."""
    tensors = list(tensors)
    if owners is None:
        owners = assign_owners([t.numel() for t in tensors], world_size())
    if not is_distributed():
        return list(owners)
    dist = _dist()
    for t, o in zip(tensors, owners):
        _guard(f"reduce(dst={o})", lambda t=t, o=o: dist.reduce(t, dst=o, op=dist.ReduceOp.SUM))
    return list(owners)


def broadcast_from_owners_(tensors: Sequence[torch.Tensor], owners: Sequence[int]) -> None:
    """After the owners updated their tensors (Reduce mode), copy each one to every rank."""
    if not is_distributed():
        return
    dist = _dist()
    for t, o in zip(tensors, owners):
        _guard(f"broadcast(src={o})", lambda t=t, o=o: dist.broadcast(t, src=o))


def sync_gradients_(grads: Sequence[torch.Tensor], reduce_strategy: Any = 0, fuse: bool = True,
                    bucket_bytes: int = DEFAULT_BUCKET_BYTES) -> None:
    """Sum gradients over all processes in place, as BuildStrategy asks.

    AllReduce (0): one all-reduce per gradient, or per bucket when `fuse` (fuse_all_reduce_ops).
    Reduce (1): each gradient is reduced to its owner (greedy by numel), then broadcast from it; every rank
    then runs the same optimizer update on the same summed gradient, which is what Paddle's reduce +
    owner-update + parameter broadcast produces (the update is deterministic)."""
    grads = [g for g in grads if g is not None]
    if not grads or not is_distributed():
        return
    if int(reduce_strategy) == 1:
        owners = reduce_to_owners_(grads)
        broadcast_from_owners_(grads, owners)
    else:
        all_reduce_(grads, "sum", bucket_bytes if fuse else None)


def barrier() -> None:
    if is_distributed():
        dist = _dist()
        _guard("barrier", lambda: dist.barrier())


def all_gather(t: torch.Tensor) -> list[torch.Tensor]:
    """One tensor per rank (a list of one in a single process)."""
    if not is_distributed():
        return [t.clone()]
    dist = _dist()
    out = [torch.empty_like(t) for _ in range(dist.get_world_size())]
    _guard("all_gather", lambda: dist.all_gather(out, t.contiguous()))
    return out


# ------------------------------------------------------------------------------------------------
# BuildStrategy.num_trainers / trainer_id under a launcher


# ------------------------------------------------------------------------------------------------
# differentiable all-reduce (SyncBatchNorm statistics)


class _AllReduceSum(torch.autograd.Function):
    """y = sum over processes of x. Each process's loss depends on y, so dL/dx on every process is the sum of
    all processes' dL_q/dy: the backward is an all-reduce too (torch's SyncBatchNorm does the same)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, group: Any) -> torch.Tensor:
        ctx.group = group
        y = x.clone()
        all_reduce_([y], "sum", group=group)
        return y

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple[torch.Tensor, None]:
        g = g.contiguous().clone()
        all_reduce_([g], "sum", group=ctx.group)
        return g, None


def all_reduce_sum_differentiable(x: torch.Tensor, group: Any = None) -> torch.Tensor:
    """Out-of-place sum over processes that autograd can differentiate (identity in one process)."""
    if not is_distributed():
        return x
    return _AllReduceSum.apply(x, group)


def sync_bn_stats(local_sum: torch.Tensor, local_sqsum: torch.Tensor, count: torch.Tensor,
                  group: Any = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The SYNC_BN callback across processes (engine/ops/fused.py sync_batch_norm): global (sum, sqsum, count) in
    one differentiable all-reduce. Static runners compose it after their in-process reduction."""
    c = local_sum.numel()
    packed = torch.cat([local_sum.reshape(-1), local_sqsum.reshape(-1), count.reshape(1).to(local_sum.dtype)])
    out = all_reduce_sum_differentiable(packed, group)
    return out[:c].view_as(local_sum), out[c:2 * c].view_as(local_sqsum), out[2 * c].reshape(count.shape)


def _install_sync_bn_default() -> None:
    """Static programs with BuildStrategy.sync_batch_norm run `sync_batch_norm` nodes, whose statistics come
    from the thread-local callback of engine/ops/fused.py (None: local batch_norm). Once a process group exists,
    the default for every thread becomes the cross-process all-reduce, so a trainer with one place shares
    statistics with the other trainers. The in-process runner still installs its own per-thread callback
    for several places per process (those reduce within the process only; README, known gaps)."""
    try:
        from paddle_compat.engine.ops import fused
    except ImportError:
        return
    fused._SyncBNContext.callback = staticmethod(sync_bn_stats)


def broadcast_persistables_(owner: Any, scope: Any, names: Sequence[str]) -> None:
    """Static data parallel across trainers: before a persistable is first used, copy trainer 0's value to
    every trainer (Paddle's ParallelExecutor does this at construction when num_trainers > 1:
    BCastParamsToDevices over the flat NCCL communicator), so trainers whose startup programs drew
    different random values still train one model. `owner` (the runner) remembers what was sent; every
    trainer sees the same programs in the same order, so the names agree."""
    done = owner.__dict__.setdefault("_bcast_persistables", set())
    todo = [n for n in names if n not in done]
    if not todo or not is_distributed():
        done.update(todo)
        return
    tensors = []
    for n in todo:
        v = scope.find_var(n)
        t = None if v is None else v.get_tensor()._t
        if t is None:
            raise UnavailableError(f"data parallel: persistable {n!r} is not initialized on trainer {rank()}; run "
                                   "the startup program on every trainer before the first run")
        tensors.append(t)
    with torch.no_grad():
        broadcast_(tensors, src=0)
    done.update(todo)


executor.CLOSE_HOOKS.append(trainer_done)
