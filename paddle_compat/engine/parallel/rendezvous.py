"""The trainers' rendezvous, bounded by the configured timeout, with the faults named.

`init_process_group` (called by engine/parallel/collective.ensure_initialized) replaces torch's env:// rendezvous:

1. the store: torch's own env:// logic (`torch.distributed.rendezvous`: rank 0 hosts a TCPStore at
   MASTER_ADDR:MASTER_PORT unless torchrun's agent hosts it; the others connect), or the fluid parameter
   server's store. It runs in a helper thread that is given the timeout plus a few seconds: a TCPStore
   client whose connection is accepted by a program that is not a store (anything else listening on the port)
   waits for an answer forever, whatever its timeout, and trainer 1 used to hang there (rank 0, which serves
   the store, is bounded by torch). A port that rank 0 cannot bind is named as taken. Steps 1 and 2 share one
   deadline: the timeout.
2. for trainers started by hand (not by torchrun, whose agent sets them consistently), every trainer
   publishes its RANK and WORLD_SIZE in the store and reads the others': a world-size mismatch or two trainers
   with one RANK are named at once, instead of surfacing later as a lost connection; a trainer that never
   comes is named when the timeout expires.
3. `torch.distributed.init_process_group` with that store (its own waits use the same timeout).
"""

from __future__ import annotations

import datetime
import os
import threading
import time
from typing import Any, Callable

from paddle_compat.engine.core.errors import InvalidArgumentError, UnavailableError

SLACK_S = 0.5  # beyond the deadline before the helper thread is given up: torch's own error comes first
_KEY = "paddle_compat/rendezvous"


def bounded(fn: Callable[[], Any], timeout_s: float, describe: Callable[[], str]) -> Any:
    """`fn()` in a daemon thread, waiting at most `timeout_s`; past it, UnavailableError(describe()). The
    thread is left blocked (a C++ call cannot be interrupted); it does not keep the process alive."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["error"] = e

    t = threading.Thread(target=run, name="paddle_compat-rendezvous", daemon=True)
    t.start()
    t.join(timeout_s)
    if t.is_alive():
        raise UnavailableError(describe())
    if "error" in box:
        raise box["error"]
    return box["value"]


def _by_hand() -> bool:
    return os.environ.get("TORCHELASTIC_USE_AGENT_STORE", "").lower() not in ("true", "1")


def _in_use(e: BaseException) -> bool:
    text = str(e).lower()
    return "address already in use" in text or "eaddrinuse" in text or "errno: 98" in text


def create_store(rank: int, world: int, timeout_s: float, where: str, ps_store: str | None) -> Any:
    import torch.distributed as dist

    td = datetime.timedelta(seconds=timeout_s)
    if ps_store:
        host, _, port = ps_store.rpartition(":")

        def make() -> Any:
            return dist.TCPStore(host, int(port), is_master=False, timeout=td)
    else:
        def make() -> Any:
            store, _, _ = next(dist.rendezvous("env://", rank=rank, world_size=world, timeout=td))
            return store

    def stuck() -> str:
        return (f"paddle.distributed: trainer {rank} of {world} could not {where} within {timeout_s:.0f} s: the "
                "address accepted the connection but never answered as a rendezvous store (is another program "
                "listening on that port? every trainer needs the same MASTER_ADDR / MASTER_PORT, and rank 0 must "
                "be able to open it)")

    hosts = rank == 0 and not ps_store and _by_hand()  # rank 0 serves the store: torch bounds its wait itself
    try:
        return make() if hosts else bounded(make, timeout_s + SLACK_S, stuck)
    except UnavailableError:
        raise
    except Exception as e:  # noqa: BLE001 - torch's store errors become one clear error
        if hosts and _in_use(e):
            raise UnavailableError(
                f"paddle.distributed: trainer 0 of {world} cannot host the rendezvous: {where.split(' at ')[-1]} "
                f"is in use by another program; set MASTER_PORT to a free port ({type(e).__name__}: {e})") from e
        if hosts:
            raise UnavailableError(
                f"paddle.distributed: trainer 0 of {world}: the other trainers did not connect to the rendezvous "
                f"within {timeout_s:.0f} s (not started, or started with another MASTER_ADDR / MASTER_PORT) "
                f"({type(e).__name__}: {e})") from e
        raise UnavailableError(
            f"paddle.distributed: trainer {rank} of {world} could not {where} within {timeout_s:.0f} s "
            f"({type(e).__name__}: {e})") from e


def check_world(store: Any, rank: int, world: int, deadline: float, timeout_s: float) -> None:
    """Every trainer agrees on WORLD_SIZE and has its own RANK (trainers started by hand), by `deadline`
    (time.monotonic); see the module docstring."""
    if _by_hand():
        n = store.add(f"{_KEY}/rank/{rank}", 1)
        store.set(f"{_KEY}/world/{rank}", str(world))
        if n > 1:
            raise InvalidArgumentError(
                f"paddle.distributed: two trainers were started with RANK={rank} (PADDLE_TRAINER_ID); give each "
                f"trainer its own rank in 0..{world - 1}")
        missing = []
        for r in range(world):
            key = f"{_KEY}/world/{r}"
            left = deadline - time.monotonic()
            try:
                store.wait([key], datetime.timedelta(seconds=max(left, 0.001)))
            except Exception:  # noqa: BLE001 - torch's timeout error: name who is missing
                missing.append(r)
                continue
            theirs = int(store.get(key))
            if theirs != world:
                if rank == 0:  # the store's host: let the others read the keys before it goes away with us
                    time.sleep(min(2.0, max(deadline - time.monotonic(), 0.0)))
                raise InvalidArgumentError(
                    f"paddle.distributed: world size mismatch: trainer {r} was started with WORLD_SIZE={theirs}, "
                    f"this trainer (rank {rank}) with WORLD_SIZE={world}; start every trainer with the same "
                    "WORLD_SIZE (PADDLE_TRAINERS_NUM)")
        if missing:
            raise UnavailableError(
                f"paddle.distributed: trainer {rank} of {world}: trainer(s) {missing} did not join within "
                f"{timeout_s:.0f} s (not started, or started with another MASTER_ADDR / MASTER_PORT)")


def init_process_group(backend: str, rank: int, world: int, timeout_s: float, where: str,
                       ps_store: str | None = None) -> Any:
    """The bounded rendezvous (module docstring); returns the store."""
    import torch.distributed as dist

    if not 0 <= rank < world:
        raise InvalidArgumentError(
            f"paddle.distributed: RANK={rank} (PADDLE_TRAINER_ID) must be in 0..{world - 1} for WORLD_SIZE={world}")
    deadline = time.monotonic() + timeout_s
    store = create_store(rank, world, timeout_s, where, ps_store)
    attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT")
    if attempt is not None and not _by_hand() and os.environ.get("GROUP_WORLD_SIZE", "1") == "1":
        # NOTE: torchrun's static rendezvous (--master_addr/--master_port) keeps one agent store for every attempt:
        # after a restart (--max-restarts) the gloo / NCCL mesh read the addresses the dead attempt's trainers
        # published and timed out connecting to them. On one node (one agent) every trainer of an attempt has
        # the same restart count: each attempt gets keys of its own (tests/distributed/test_dist_resume.py).
        # Several nodes: the c10d rendezvous makes a new store for every round, and the agents' restart counts
        # differ (an agent whose trainers were stopped by a peer's membership change does not count a restart).
        store = dist.PrefixStore(f"paddle_compat/attempt_{attempt}", store)
    check_world(store, rank, world, deadline, timeout_s)
    try:
        dist.init_process_group(backend=backend, store=store, rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=timeout_s))
    except Exception as e:  # noqa: BLE001 - rendezvous failures become one clear error
        raise UnavailableError(
            f"paddle.distributed: trainer {rank} of {world} could not {where} with backend {backend!r} within "
            f"{timeout_s:.0f} s ({type(e).__name__}: {e})") from e
    return store
