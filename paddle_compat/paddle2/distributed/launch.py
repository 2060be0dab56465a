"""`python -m paddle.distributed.launch ... script.py args`: a thin front to torchrun (torch.distributed.run).

Paddle's launch options are translated to torchrun's; everything after the script goes to the script.

    --nproc_per_node N              --nproc_per_node N (default: the number of --devices, else GPUs, else 1)
    --devices/--gpus/--selected_gpus 0,1   CUDA_VISIBLE_DEVICES=0,1 for the trainers (+ nproc_per_node)
    --nnodes N | --ips ip1,ip2      --nnodes (len(ips) with --ips)
    --rank R | --host ip            --node_rank (with --ips: the index of --host, or of a local address)
    --master ip:port                --master_addr ip --master_port port (with --ips: ips[0]:--start_port)
    --log_dir D                     --log_dir D --tee 3 (each trainer's output also in D)
    --job_id J                      --rdzv_id J
    --max_restart K                 --max_restarts K (several nodes: with the c10d rendezvous at --master, and
                                    TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1, so every node restarts together)

Without --master on one node the rendezvous is 127.0.0.1 on a free port. `--run_mode ps` (parameter
servers: use Paddle 1.8's `python -m paddle.distributed.launch_ps`), elastic and auto-parallel options are not
supported and say so.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import Sequence

from paddle_compat.engine.core.errors import UnsupportedAPIError

_UNSUPPORTED = ("--servers", "--trainers", "--trainer_num", "--server_num", "--elastic_level", "--elastic_timeout",
                "--auto_parallel_config", "--auto_tuner_json")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m paddle.distributed.launch",
                                description="Start data-parallel trainers with torchrun (paddle_compat)")
    a = p.add_argument
    a("--master", default=None, help="rendezvous address ip:port (multi-node)")
    a("--rank", type=int, default=-1, help="the node rank")
    a("--nnodes", default=None, help="number of nodes")
    a("--nproc_per_node", type=int, default=None, help="trainer processes per node")
    a("--devices", "--gpus", "--npus", "--xpus", "--selected_gpus", dest="devices", default=None,
      help="devices to use, e.g. 0,1")
    a("--ips", "--cluster_node_ips", dest="ips", default=None, help="node ips (legacy), e.g. ip1,ip2")
    a("--host", "--node_ip", dest="host", default=None, help="this node's ip (with --ips)")
    a("--start_port", "--started_port", dest="start_port", type=int, default=6070, help="port with --ips")
    a("--log_dir", default=None, help="directory for each trainer's log")
    a("--run_mode", default="collective", help="collective only")
    a("--job_id", default="default", help="job id")
    a("--max_restart", type=int, default=0, help="restarts on failure")
    a("--log_level", default="INFO")
    a("--legacy", default=None)
    a("--log_overwrite", default=None)
    a("--sort_ip", default=None)
    a("--enable_gpu_log", default=None)
    a("--use_paddlecloud", action="store_true")
    a("training_script", help="the training script")
    a("training_script_args", nargs=argparse.REMAINDER)
    return p


def _local_addresses() -> set[str]:
    out = {"127.0.0.1", "localhost", socket.gethostname()}
    try:
        out.update(i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None))
    except OSError:
        pass
    return out


def torchrun_argv(argv: Sequence[str], cuda_count: int = 0) -> tuple[list[str], dict[str, str]]:
    """(torchrun arguments, environment additions) for Paddle launch arguments `argv`."""
    for bad in _UNSUPPORTED:
        if any(x == bad or x.startswith(bad + "=") for x in argv):
            raise UnsupportedAPIError("paddle.distributed.launch", f"option {bad} (parameter-server, elastic and "
                                      "auto-parallel launches) is not supported; collective data parallel only")
    args = _parser().parse_args(list(argv))
    if args.run_mode != "collective":
        raise UnsupportedAPIError("paddle.distributed.launch", f"--run_mode {args.run_mode}: only collective "
                                  "(data-parallel) training runs on torch.distributed; fluid parameter-server "
                                  "scripts run with python -m paddle.distributed.launch_ps")
    env: dict[str, str] = {}
    devices = [d.strip() for d in args.devices.split(",") if d.strip()] if args.devices else None
    if devices and cuda_count:
        env["CUDA_VISIBLE_DEVICES"] = ",".join(devices)
    nproc = args.nproc_per_node or (len(devices) if devices else (cuda_count or 1))
    ips = [i.strip() for i in args.ips.split(",") if i.strip()] if args.ips else None
    nnodes = str(args.nnodes) if args.nnodes else str(len(ips) if ips else 1)
    node_rank = args.rank
    if node_rank < 0 and ips and len(ips) > 1:
        mine = {args.host} if args.host else _local_addresses()
        hits = [i for i, ip in enumerate(ips) if ip in mine]
        if len(hits) != 1:
            raise ValueError(f"paddle.distributed.launch: cannot tell which of --ips {ips} is this node; pass "
                             "--host <this node's ip> or --rank <node index>")
        node_rank = hits[0]
    node_rank = max(node_rank, 0)
    if args.master:
        if "://" in args.master:
            raise UnsupportedAPIError("paddle.distributed.launch", f"--master {args.master}: only ip:port "
                                      "rendezvous is supported (no etcd)")
        host, _, port = args.master.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"paddle.distributed.launch: --master should be ip:port, got {args.master!r}")
    elif ips and len(ips) > 1:
        host, port = ips[0], str(args.start_port)
    elif nnodes not in ("1", "1:1"):
        raise ValueError("paddle.distributed.launch: several nodes need --master ip:port (the same on every node)")
    else:
        from paddle_compat.paddle2.distributed.spawn import free_port

        host, port = "127.0.0.1", str(free_port())
    out = ["--nnodes", nnodes, "--nproc_per_node", str(nproc), "--node_rank", str(node_rank)]
    if args.max_restart > 0 and nnodes not in ("1", "1:1"):
        # restarts across machines: the c10d rendezvous (every node's agent rendezvous again after a failure),
        # with a fresh store for each round's trainers (torchrun's shared store keeps the dead round's addresses,
        # and the agents' restart counts differ, so no key prefix can tell the rounds apart: README, Restarts)
        out += ["--rdzv_backend", "c10d", "--rdzv_endpoint", f"{host}:{port}"]
        env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] = "1"
    else:
        out += ["--master_addr", host, "--master_port", port]
    out += ["--max_restarts", str(args.max_restart), "--rdzv_id", args.job_id]
    if args.log_dir:
        out += ["--log_dir", args.log_dir, "--tee", "3"]
    out += [args.training_script] + list(args.training_script_args)
    return out, env


def main(argv: Sequence[str] | None = None) -> None:
    import torch
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    from torch.distributed.run import main as torchrun_main

    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        targs, env = torchrun_argv(argv, torch.cuda.device_count() if torch.cuda.is_available() else 0)
    except (ValueError, UnsupportedAPIError) as e:
        print(f"paddle.distributed.launch: {e}", file=sys.stderr)
        sys.exit(2)
    os.environ.update(env)
    for k in ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS", "PADDLE_CURRENT_ENDPOINT"):
        os.environ.pop(k, None)  # each trainer gets its own from torchrun's RANK / WORLD_SIZE
    try:
        torchrun_main(targs)
    except ChildFailedError as e:
        print(f"paddle.distributed.launch: a trainer failed:\n{e.format_msg() if hasattr(e, 'format_msg') else e}",
              file=sys.stderr)
        sys.exit(1)
