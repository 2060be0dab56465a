"""fluid 1.x parameter-server training (DistributeTranspiler mode "pserver", sync_mode=True) without servers.

In Paddle's synchronous pserver mode every trainer sends its gradients to the servers, which sum them, scale by
1 / trainers, run the optimizer and send the parameters back: every trainer then holds the same parameters,
updated with the mean gradient. That is exactly what collective data parallelism computes, so here:

- the **trainer program** is the original program; `Executor.run` runs it as data parallel over this process's
  place and all trainers (`CompiledProgram.with_data_parallel(loss_name=<its loss>)`, gradients averaged with
  an all-reduce, the optimizer applied on every trainer, parameters broadcast from trainer 0 at the start);
- the **pserver program** keeps its role as the rendezvous: server 0 (the first endpoint of `pservers`) hosts
  the trainers' torch.distributed store at its endpoint, and `exe.run(pserver_program)` returns when every
  trainer has finished (`exe.close()` or process exit), as Paddle's blocking server loop does.

Launch as with Paddle: `python -m paddle.distributed.launch_ps --worker_num 2 --server_num 1 train.py` (the
variables TRAINING_ROLE, PADDLE_PSERVERS_IP_PORT_LIST, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ID, PADDLE_PORT,
POD_IP), or any launcher that sets them. Asynchronous, half-async and geo modes update parameters with stale
gradients on purpose; their numbers cannot be reproduced by synchronous collectives, so they raise.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from paddle_compat.engine.core.errors import InvalidArgumentError

STORE_ENV = "PADDLE_COMPAT_PS_STORE"  # host:port of the store server 0 hosts, for the trainers
DONE_KEY = "paddle_compat/pserver/trainers_done"


def split_endpoint(ep: str, api: str) -> tuple[str, int]:
    host, _, port = ep.strip().rpartition(":")
    if not host or not port.isdigit():
        raise InvalidArgumentError(f"{api}: endpoint {ep!r} should be ip:port")
    return host, int(port)


def trainer_setup(endpoints: list[str], trainers: int, trainer_id: int, api: str) -> None:
    """A trainer's rendezvous: torchrun's variables when present, else the store on the first pserver."""
    for name, value in (("PADDLE_TRAINERS_NUM", trainers), ("PADDLE_TRAINER_ID", trainer_id)):
        have = os.environ.get(name)
        if have not in (None, "") and int(have) != value:
            raise InvalidArgumentError(f"{api}.transpile: {name}={have} in the environment, but transpile() was "
                                       f"given {value}")
        os.environ[name] = str(value)
    if not os.environ.get("MASTER_ADDR"):
        split_endpoint(endpoints[0], api)
        os.environ[STORE_ENV] = endpoints[0]


def loss_name_of(program: Any) -> str:
    """The loss the program's backward starts from (its `loss@GRAD` seed)."""
    from paddle_compat.engine.framework.program import ROLE_LOSS_GRAD

    for n in program.global_block().graph.nodes:
        if n.meta.get("role") == ROLE_LOSS_GRAD and str(n.meta.get("var_name", "")).endswith("@GRAD"):
            return n.meta["var_name"][: -len("@GRAD")]
    raise InvalidArgumentError("DistributeTranspiler (pserver mode): the trainer program has no backward; call "
                               "optimizer.minimize(loss) before transpile()")


def run_trainer_program(exe: Any, program: Any, feed: Any, fetch_list: Any, scope: Any, return_numpy: bool) -> list:
    """Executor.run of a pserver-mode trainer program: data parallel over this place and every trainer."""
    cache = program.__dict__.setdefault("_ps_compiled", {})
    compiled = cache.get(repr(exe.place))
    if compiled is None:
        from paddle_compat.engine.static.compiler import CompiledProgram
        from paddle_compat.engine.static.strategy import BuildStrategy

        info = program._ps_trainer
        bs = BuildStrategy()
        bs.num_trainers, bs.trainer_id = info["trainers"], info["trainer_id"]
        compiled = CompiledProgram(program).with_data_parallel(loss_name=loss_name_of(program), build_strategy=bs,
                                                               places=[exe.place])
        cache[repr(exe.place)] = compiled
    return exe.run(compiled, feed=feed, fetch_list=fetch_list, scope=scope, return_numpy=return_numpy)


def serve(program: Any) -> list:
    """exe.run(pserver_program): host (server 0) or reach the trainers' store, and wait until all are done."""
    import datetime

    import torch.distributed as dist

    from paddle_compat.engine.parallel.collective import timeout_seconds

    info = program._ps_server
    host, port = split_endpoint(info["first"], "DistributeTranspiler.get_pserver_program")
    timeout = datetime.timedelta(seconds=max(timeout_seconds(), 60.0))
    is_master = info["endpoint"] == info["first"]
    store = dist.TCPStore(host, port, is_master=is_master, timeout=timeout, wait_for_workers=False)
    print(f"paddle_compat: parameter server {info['endpoint']}: {info['trainers']} trainer(s) average their "
          "gradients among themselves (synchronous pserver training); waiting for them to finish",
          file=sys.stderr, flush=True)
    while store.add(DONE_KEY, 0) < info["trainers"]:
        time.sleep(0.2)
    if is_master:
        time.sleep(0.5)  # let the last trainer's own store calls finish before the server goes away
    return []
