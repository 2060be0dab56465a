"""`paddle.distributed.gloo_init_parallel_env` / `gloo_barrier` / `gloo_release`: a CPU barrier among
`rank_num` processes that is independent of the training process group, over a torch TCPStore served by rank 0
at `server_endpoint` ("ip:port"). Initialisation waits for every rank (as Paddle's gloo context does) within
the parallel environment's timeout; each barrier is one generation of a shared counter."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.parallel import collective


class GlooContext:
    """One rank's view of the barrier group."""

    def __init__(self, rank_id: int, rank_num: int, server_endpoint: str) -> None:
        import torch.distributed as dist

        api = "paddle.distributed.gloo_init_parallel_env"
        assert rank_num >= 2, "rank_num should greater than or equal to 2 for parallel environment initialzation."
        if not 0 <= rank_id < rank_num:
            raise ValueError(f"{api}: rank_id should be in [0, {rank_num}), but received {rank_id}")
        host, _, port = str(server_endpoint).rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"{api}: server_endpoint should be 'ip:port', but received {server_endpoint!r}")
        timeout = timedelta(seconds=collective.timeout_seconds())
        self.rank, self.size, self._generation = rank_id, rank_num, 0
        self._store: Any = dist.TCPStore(host, int(port), rank_num, rank_id == 0, timeout=timeout,
                                         wait_for_workers=True)
        self.barrier()  # every rank has joined

    def barrier(self) -> None:
        self._generation += 1
        key = f"paddle_compat/gloo_barrier/{self._generation}"
        if self._store.add(key, 1) == self.size:  # the last to arrive opens the barrier
            self._store.set(f"{key}/done", "1")
        self._store.wait([f"{key}/done"])

    def release(self) -> None:
        self._store = None


_CTX: list[GlooContext | None] = [None]


def gloo_init_parallel_env(rank_id: int, rank_num: int, server_endpoint: str) -> None:
    _CTX[0] = GlooContext(rank_id, rank_num, server_endpoint)


def gloo_barrier() -> None:
    assert _CTX[0] is not None, "gloo context is not initialzed."
    _CTX[0].barrier()


def gloo_release() -> None:
    if _CTX[0] is not None:
        _CTX[0].release()
        _CTX[0] = None


for _fn in (gloo_init_parallel_env, gloo_barrier, gloo_release):
    export(_fn, f"paddle.distributed.{_fn.__name__}")
