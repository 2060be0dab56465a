"""`paddle.distributed.spawn`: start `nprocs` trainer processes on this machine running `func(*args)`.

Each child gets torchrun's variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR=127.0.0.1, a free
MASTER_PORT) and Paddle's, so `init_parallel_env()` / DataParallel inside `func` work as under torchrun.
Like Paddle: start method `spawn` by default, `nprocs=-1` means one process per GPU (per CPU core on CPU),
the returned MultiprocessContext keeps `return_queues`, and a failing child terminates the others and
re-raises its traceback in the parent.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import warnings
from typing import Any, Callable

from paddle_compat.engine.framework.registry import export

_SUPPORTED = ("start_method", "ips", "gpus", "xpus", "print_config", "backend")
_DEPRECATED = ("selected_devices", "started_port", "cluster_node_ips", "node_ip", "use_paddlecloud")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _env_list(nprocs: int, options: dict) -> list[dict]:
    import torch

    backend = options.get("backend") or ("nccl" if torch.cuda.is_available() else "gloo")
    if backend not in ("gloo", "nccl"):
        raise ValueError(f"paddle.distributed.spawn: backend {backend!r} is not available under torch; use "
                         "'gloo' or 'nccl'")
    ips = str(options.get("ips") or "127.0.0.1")
    if "," in ips:
        raise ValueError("paddle.distributed.spawn starts processes on this machine only; for several machines "
                         "use torchrun or python -m paddle.distributed.launch on each (README)")
    gpus = options.get("gpus")
    devices = [d.strip() for d in str(gpus).split(",")] if gpus else None
    if backend == "nccl":
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        avail = devices or ([d for d in visible.split(",") if d] if visible else
                            [str(i) for i in range(torch.cuda.device_count())])
        if len(avail) < nprocs:
            raise RuntimeError(f"paddle.distributed.spawn: {nprocs} processes need {nprocs} GPUs, but only "
                               f"{len(avail)} are selected ({','.join(avail) or 'none'})")
        devices = avail[:nprocs]
    port = free_port(ips)
    out = []
    for i in range(nprocs):
        env = {"RANK": str(i), "WORLD_SIZE": str(nprocs), "LOCAL_RANK": str(i), "LOCAL_WORLD_SIZE": str(nprocs),
               "MASTER_ADDR": ips, "MASTER_PORT": str(port)}
        if backend == "nccl":  # the default on a GPU trainer: cpu:gloo,cuda:nccl (collective.default_backend)
            env["FLAGS_selected_gpus"] = devices[i]
        else:
            env.update(PADDLE_COMPAT_DIST_BACKEND="gloo", PADDLE_COMPAT_DIST_DEVICE="cpu")
        out.append(env)
    return out


def _func_wrapper(func: Callable, args: tuple, error_queue: Any, return_queue: Any, env: dict) -> None:
    try:
        for k in ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS", "PADDLE_CURRENT_ENDPOINT"):
            os.environ.pop(k, None)  # the parent's (if any) describe another job
        os.environ.update(env)
        from paddle_compat.engine.core.launch_env import sync_paddle_env

        sync_paddle_env()
        if "FLAGS_selected_gpus" in env:
            import torch

            from paddle_compat.engine.core import place as _place

            dev = int(env["FLAGS_selected_gpus"])
            torch.cuda.set_device(dev)
            _place._current[0] = _place.CUDAPlace(dev)
        return_queue.put(func(*args))
    except KeyboardInterrupt:
        pass
    except Exception:  # noqa: BLE001 - the parent re-raises it
        import traceback

        error_queue.put(traceback.format_exc())
        sys.exit(1)


class MultiprocessContext:
    """The spawned processes; `join()` returns True when all finished, raises when one failed."""

    def __init__(self, processes: list, error_queues: list, return_queues: list) -> None:
        self.processes = processes
        self.error_queues = error_queues
        self.return_queues = return_queues
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def join(self, timeout: float | None = None) -> bool:
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        failed = None
        for s in ready:
            i = self.sentinels.pop(s)
            self.processes[i].join()
            if self.processes[i].exitcode != 0:
                failed = i
                break
        if failed is None:
            return not self.sentinels
        for p in self.processes:
            if p.is_alive():
                p.terminate()
            p.join()
        self._raise(failed)
        return False

    def _raise(self, i: int) -> None:
        if self.error_queues[i].empty():
            code = self.processes[i].exitcode
            if code is not None and code < 0:
                raise Exception(f"Process {i} terminated with signal {signal.Signals(-code).name}.")
            raise Exception(f"Process {i} terminated with exit code {code}.")
        raise Exception("\n\n----------------------------------------------\n"
                        f"Process {i} terminated with the following error:\n"
                        "----------------------------------------------\n\n" + self.error_queues[i].get())


def spawn(func: Callable, args: tuple = (), nprocs: int = -1, join: bool = True, daemon: bool = False,
          **options: Any) -> MultiprocessContext:
    for key in options:
        if key in _DEPRECATED:
            warnings.warn(f"The config option ({key}) of `paddle.distributed.spawn` is deprecated. Please use the "
                          "latest config options stated in the `spawn` API documentation.", DeprecationWarning,
                          stacklevel=2)
        elif key not in _SUPPORTED:
            raise ValueError(f"The config option ({key}) of `paddle.distributed.spawn` is not supported.")
    if nprocs == -1:
        import torch

        from paddle_compat.engine.core.place import get_device

        nprocs = torch.cuda.device_count() if "gpu" in get_device() else multiprocessing.cpu_count()
    if nprocs < 1:
        raise ValueError(f"paddle.distributed.spawn: nprocs should be >= 1, but received {nprocs}")
    envs = _env_list(int(nprocs), options)
    mp = multiprocessing.get_context(options.get("start_method") or "spawn")
    procs, errs, rets = [], [], []
    for env in envs:
        eq, rq = mp.SimpleQueue(), mp.SimpleQueue()
        p = mp.Process(target=_func_wrapper, args=(func, tuple(args), eq, rq, env), daemon=daemon)
        p.start()
        procs.append(p)
        errs.append(eq)
        rets.append(rq)
    ctx = MultiprocessContext(procs, errs, rets)
    if join:
        while not ctx.join():
            pass
    return ctx


export(spawn, "paddle.distributed.spawn")
