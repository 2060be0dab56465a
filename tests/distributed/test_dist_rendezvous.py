"""Trainers started by hand: every rendezvous fault ends within the configured timeout with an error naming it
(an unrelated program on MASTER_PORT, a world-size mismatch, an out-of-range rank, a missing trainer).
Loopback addresses only; every process is bounded by a subprocess timeout. A good start by hand:
test_dist_faults.py."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading

import pytest

from _dist_util import HERE, clean_env, free_port

TIMEOUT_S = 3  # PADDLE_COMPAT_DIST_TIMEOUT for these trainers


def _start(port, rank, world):
    env = clean_env(RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK="0", MASTER_ADDR="127.0.0.1",
                    MASTER_PORT=str(port), PADDLE_COMPAT_DIST_TIMEOUT=str(TIMEOUT_S))
    return subprocess.Popen([sys.executable, "_dist_rendezvous.py"], cwd=HERE, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(procs):
    outs = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=120)
            outs.append((p.returncode, out + err))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    return outs


def _failed_in_time(rc, out, pattern):
    assert rc == 3, out[-3000:]
    m = re.search(r"ERROR after ([\d.]+) s: (\w+): (.*)", out)
    assert m and re.search(pattern, m.group(3)), out[-3000:]
    assert float(m.group(1)) < TIMEOUT_S + 10, m.group(0)  # bounded by the timeout (a hang never returns)


@pytest.fixture
def squatter():
    """An unrelated program listening on the port: it accepts connections and never answers."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    conns, stop = [], threading.Event()

    def accept():
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                conns.append(srv.accept()[0])
            except OSError:
                pass

    th = threading.Thread(target=accept, daemon=True)
    th.start()
    yield srv.getsockname()[1]
    stop.set()
    th.join(5)
    for c in conns:
        c.close()
    srv.close()


def test_unrelated_program_on_the_port(squatter):
    (rc0, out0), (rc1, out1) = _finish([_start(squatter, 0, 2), _start(squatter, 1, 2)])
    _failed_in_time(rc0, out0, r"trainer 0 of 2 cannot host the rendezvous: 127\.0\.0\.1:\d+ is in use by another "
                               r"program; set MASTER_PORT to a free port")
    _failed_in_time(rc1, out1, rf"trainer 1 of 2 could not join the process group at 127\.0\.0\.1:{squatter} within "
                               rf"{TIMEOUT_S} s: the address accepted the connection but never answered")


def test_world_size_mismatch():
    port = free_port()
    for rc, out in _finish([_start(port, 0, 2), _start(port, 1, 3)]):
        _failed_in_time(rc, out, r"world size mismatch: trainer \d was started with WORLD_SIZE=[23], this trainer "
                                 r"\(rank \d\) with WORLD_SIZE=[23]")


def test_missing_trainer_and_bad_rank():
    port = free_port()
    (rc0, out0), (rc2, out2) = _finish([_start(port, 0, 2), _start(free_port(), 2, 2)])
    _failed_in_time(rc0, out0, rf"trainer 0 of 2: the other trainers did not connect to the rendezvous within "
                               rf"{TIMEOUT_S} s")
    _failed_in_time(rc2, out2, r"RANK=2 \(PADDLE_TRAINER_ID\) must be in 0\.\.1 for WORLD_SIZE=2")


# the store check in one process, on a HashStore: (case, what the other trainers wrote, this rank, world, regex)
STORE_CASES = [
    ("agree", {0: 2}, 1, 2, None),
    ("mismatch", {0: 3}, 1, 2, r"world size mismatch: trainer 0 was started with WORLD_SIZE=3, this trainer \(rank 1\) "
                               r"with WORLD_SIZE=2"),
    ("duplicate_rank", {1: 2}, 1, 2, r"two trainers were started with RANK=1 \(PADDLE_TRAINER_ID\)"),
    ("missing", {}, 0, 3, r"trainer 0 of 3: trainer\(s\) \[1, 2\] did not join within 3 s"),
]


@pytest.mark.parametrize("others,rank,world,pattern", [c[1:] for c in STORE_CASES], ids=[c[0] for c in STORE_CASES])
def test_world_check_through_the_store(monkeypatch, others, rank, world, pattern):
    import time

    import torch.distributed as dist

    from paddle_compat.engine.core.errors import EnforceNotMet
    from paddle_compat.engine.parallel.rendezvous import _KEY, check_world

    monkeypatch.delenv("TORCHELASTIC_USE_AGENT_STORE", raising=False)
    store = dist.HashStore()
    for r, w in others.items():
        store.add(f"{_KEY}/rank/{r}", 1)
        store.set(f"{_KEY}/world/{r}", str(w))
    if pattern is None:
        check_world(store, rank, world, time.monotonic() + 5, 5)
        return
    with pytest.raises(EnforceNotMet, match=pattern):
        check_world(store, rank, world, time.monotonic() + 0.2, TIMEOUT_S)


def test_bounded_gives_up_on_a_call_that_never_returns():
    import threading

    from paddle_compat.engine.core.errors import UnavailableError
    from paddle_compat.engine.parallel.rendezvous import bounded

    never = threading.Event()
    with pytest.raises(UnavailableError, match="stuck: named"):
        bounded(never.wait, 0.2, lambda: "stuck: named")
    never.set()
    assert bounded(lambda: 7, 5, lambda: "") == 7
    with pytest.raises(KeyError):
        bounded(lambda: {}["x"], 5, lambda: "")
