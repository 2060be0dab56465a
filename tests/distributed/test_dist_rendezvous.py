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
