"""`python -m paddle.distributed.launch_ps --worker_num W --server_num S script.py args`: Paddle 1.8's parameter-server
launcher, with its options and environment (paddle/distributed/launch_ps.py):

- S server processes: TRAINING_ROLE=PSERVER, PADDLE_PSERVERS_IP_PORT_LIST, PADDLE_PORT, POD_IP, PADDLE_TRAINERS_NUM;
- W trainer processes: TRAINING_ROLE=TRAINER, PADDLE_PSERVERS_IP_PORT_LIST, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ID.

It waits for the trainers, then stops the servers; the exit status is the first failing trainer's. With
--log_dir each process writes serverlog.N / workerlog.N there (Paddle's default is "logs"; pass --log_dir ""
to keep the output on the console). What the servers do here: engine/parallel/pserver.py.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Sequence


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m paddle.distributed.launch_ps",
                                description="Start parameter servers and trainers (paddle_compat)")
    a = p.add_argument
    a("--cluster_node_ips", default="127.0.0.1", help="node ips (single node only here)")
    a("--node_ip", default="127.0.0.1", help="this node's ip")
    a("--start_port", type=int, default=6170, help="the first server's port")
    a("--print_config", type=bool, default=True)
    a("--endpoints", default="", help="server endpoints ip:port,... (default: node_ip:start_port + i)")
    a("--worker_num", type=int, default=2, help="number of trainers")
    a("--server_num", type=int, default=2, help="number of servers")
    a("--log_dir", default="logs", help="directory for serverlog.N / workerlog.N ('' for the console)")
    a("training_script")
    a("training_script_args", nargs=argparse.REMAINDER)
    return p


def processes(args: argparse.Namespace) -> list[tuple[str, dict[str, str]]]:
    """(log name, environment additions) per process: the servers first, as Paddle starts them."""
    eps = args.endpoints or ",".join(f"{args.node_ip}:{args.start_port + i}" for i in range(args.server_num))
    ep_list = [e for e in eps.split(",") if e]
    if len(ep_list) != args.server_num:
        raise ValueError(f"--endpoints lists {len(ep_list)} servers but --server_num is {args.server_num}")
    out = []
    for i, ep in enumerate(ep_list):
        ip, _, port = ep.rpartition(":")
        out.append((f"serverlog.{i}", {"PADDLE_PSERVERS_IP_PORT_LIST": eps, "PADDLE_PORT": port,
                                       "TRAINING_ROLE": "PSERVER", "PADDLE_TRAINERS_NUM": str(args.worker_num),
                                       "POD_IP": ip}))
    for i in range(args.worker_num):
        out.append((f"workerlog.{i}", {"PADDLE_PSERVERS_IP_PORT_LIST": eps, "PADDLE_TRAINERS_NUM": str(args.worker_num),
                                       "TRAINING_ROLE": "TRAINER", "PADDLE_TRAINER_ID": str(i)}))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.server_num < 1 or args.worker_num < 1:
        print("paddle.distributed.launch_ps: --server_num and --worker_num must be >= 1", file=sys.stderr)
        sys.exit(2)
    try:
        plan = processes(args)
    except ValueError as e:
        print(f"paddle.distributed.launch_ps: {e}", file=sys.stderr)
        sys.exit(2)
    base = {k: v for k, v in os.environ.items() if k not in ("http_proxy", "https_proxy")}
    for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT", "PADDLE_TRAINER_ENDPOINTS"):
        base.pop(k, None)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    procs, logs = [], []
    for name, extra in plan:
        log = open(os.path.join(args.log_dir, name), "w") if args.log_dir else None  # noqa: SIM115
        logs.append(log)
        cmd = [sys.executable, "-u", args.training_script, *args.training_script_args]
        procs.append(subprocess.Popen(cmd, env={**base, **extra}, stdout=log, stderr=log))
    rc = 0
    for p in procs[args.server_num:]:
        code = p.wait()
        rc = rc or code
    print("all workers exit, going to finish parameter server", file=sys.stderr)
    for p in procs[:args.server_num]:
        try:
            p.wait(timeout=10)  # our servers return once every trainer has reported
        except subprocess.TimeoutExpired:
            p.terminate()
    for log in logs:
        if log is not None:
            log.close()
    sys.exit(rc)


if __name__ == "__main__":
    main()
