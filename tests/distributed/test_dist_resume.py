"""Issue 27 item 4: a legacy trainer killed with SIGKILL resumes, and nothing is lost.

Two gloo trainers on this machine run _dist_resume.py (checkpoints every 3 steps with fleet's / Paddle's public
save calls, Adam state and the data loader's position included) under a launcher that may restart the job once.
A fault-injection variable makes one trainer SIGKILL itself once; the launcher restarts both, both resume from the
last complete checkpoint, and the final parameters and optimizer state equal, bit for bit, those of an
uninterrupted run started beside it.

- torchrun --nproc_per_node 2 --max-restarts 1, fluid 1.x fleet (fleet.save_persistables /
  fluid.io.load_persistables): trainer 1 dies in step 7; both resume from step 6.
- python -m paddle.distributed.launch --nproc_per_node 2 --max_restart 1, 2.x static fleet (paddle.static.save /
  load): trainer 0 dies while writing step 6's checkpoint; both resume from step 3 (the torn one is ignored).
- two `paddle.distributed.launch --nnodes 2 --rank R --master 127.0.0.1:P --max_restart 1` agents standing for two
  machines (torchrun's c10d rendezvous underneath, README "Restarts"): trainer 1 dies in step 7; both nodes
  restart their trainer and resume from step 6.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from _dist_util import HERE, clean_env, free_port

TIMEOUT_S = 150  # per launcher run; both runs of a test go side by side


def _launch(launcher: str, flavour: str, root: str, kill: str | None) -> list[subprocess.Popen]:
    """The job's launcher processes: one, or one per node for `paddle_launch_2nodes` (two agents on this machine
    standing for two machines, one trainer each, meeting at the c10d rendezvous as on a cluster)."""
    ck, out = os.path.join(root, "ckpt"), os.path.join(root, "out")
    os.makedirs(ck)
    os.makedirs(out)
    if launcher == "torchrun":
        cmds = [[sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--max-restarts", "1",
                 "--master_addr", "127.0.0.1", "--master_port", str(free_port()), "--monitor_interval", "0.2"]]
    elif launcher == "paddle_launch":
        cmds = [[sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2", "--max_restart", "1"]]
    else:
        master = f"127.0.0.1:{free_port()}"
        cmds = [[sys.executable, "-m", "paddle.distributed.launch", "--nnodes", "2", "--rank", str(node),
                 "--master", master, "--nproc_per_node", "1", "--max_restart", "1", "--job_id", "resume27"]
                for node in (0, 1)]
    env = clean_env(PADDLE_COMPAT_DIST_TIMEOUT="20", **({"RESUME_TEST_KILL": kill} if kill else {}))
    return [subprocess.Popen(cmd + ["_dist_resume.py", flavour, ck, out], cwd=HERE, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True) for cmd in cmds]


def _finish(proc: subprocess.Popen) -> str:
    try:
        out, _ = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"the launcher did not finish within {TIMEOUT_S} s:\n{out[-4000:]}")
    assert proc.returncode == 0, out[-6000:]
    return out


def _final(root: str, rank: int) -> dict:
    with np.load(os.path.join(root, "out", f"final{rank}.npz")) as f:
        return {k: f[k] for k in f.files}


def _log(root: str, rank: int) -> list[str]:
    with open(os.path.join(root, "out", f"log{rank}.txt")) as f:
        return f.read().splitlines()


CASES = [
    # (launcher, flavour, kill, the line of the dead trainer, the checkpoint both resume from: step, epoch, batch)
    ("torchrun", "fluid18", "1:7", "SIGKILL in step 7", (6, 1, 1)),
    ("paddle_launch", "static2x", "0:save6", "SIGKILL while saving the checkpoint of step 6", (3, 0, 3)),
    ("paddle_launch_2nodes", "fluid18", "1:7", "SIGKILL in step 7", (6, 1, 1)),
]


@pytest.mark.parametrize("launcher,flavour,kill,death,resume", CASES, ids=[c[0] for c in CASES])
def test_killed_trainer_resumes_and_nothing_is_lost(tmp_path, launcher, flavour, kill, death, resume):
    clean, faulted = str(tmp_path / "clean"), str(tmp_path / "faulted")
    procs = _launch(launcher, flavour, clean, None) + _launch(launcher, flavour, faulted, kill)
    try:
        for p in procs:
            _finish(p)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    dead = int(kill.split(":")[0])
    assert os.path.exists(os.path.join(faulted, "out", "killed"))
    step, epoch, batch = resume
    for rank in (0, 1):
        log = _log(faulted, rank)
        assert log[0] == "start step=0 epoch=0 batch=0 from=None", log
        if rank == dead:
            assert log[1] == death, log
        # the restarted job: both trainers resume from the last complete checkpoint (parameters, Adam state and
        # the loader's position), and train to the end
        resumed = [ln for ln in log if ln.startswith("start step=") and "from=None" not in ln]
        assert resumed == [f"start step={step} epoch={epoch} batch={batch} from="
                           f"{os.path.join(faulted, 'ckpt', f'step_{step}')}"], log
        assert log[-1] == _log(clean, rank)[-1] == "done step=11 epoch=2 batch=1", log
    # the final parameters and optimizer state equal those of the uninterrupted run, bit for bit
    want = _final(clean, 0)
    assert any(k.endswith("moment1_0") for k in want) and any("beta1_pow" in k for k in want), sorted(want)
    for rank in (0, 1):
        got = _final(faulted, rank)
        assert sorted(got) == sorted(want)
        for k in want:
            np.testing.assert_array_equal(got[k], want[k], err_msg=f"{k} on trainer {rank}")
        assert all(np.array_equal(_final(clean, rank)[k], want[k]) for k in want)  # the trainers agree


@pytest.mark.parametrize("argv,want,env", [
    (["--nproc_per_node", "2", "--max_restart", "1", "t.py"],
     ["--master_addr", "127.0.0.1", "--max_restarts", "1"], {}),
    (["--nnodes", "2", "--master", "10.0.0.1:8090", "--max_restart", "3", "t.py"],
     ["--rdzv_backend", "c10d", "--rdzv_endpoint", "10.0.0.1:8090", "--max_restarts", "3"],
     {"TORCH_DISABLE_SHARE_RDZV_TCP_STORE": "1"}),
    (["--ips", "10.0.0.1,10.0.0.2", "--host", "10.0.0.2", "--max_restart", "1", "t.py"],
     ["--rdzv_backend", "c10d", "--rdzv_endpoint", "10.0.0.1:6070"], {"TORCH_DISABLE_SHARE_RDZV_TCP_STORE": "1"}),
    (["--nnodes", "2", "--master", "10.0.0.1:8090", "t.py"], ["--master_addr", "10.0.0.1", "--max_restarts", "0"],
     {}),
], ids=["one_node", "nodes_restart", "ips_restart", "nodes_no_restart"])
def test_launch_restarts_across_machines_with_c10d(argv, want, env):
    """paddle.distributed.launch --max_restart on several nodes: torchrun's c10d rendezvous (README, Restarts)."""
    from paddle_compat.paddle2.distributed.launch import torchrun_argv

    out, got_env = torchrun_argv(argv)
    for i in range(0, len(want), 2):
        assert out[out.index(want[i]) + 1] == want[i + 1], (want[i], out)
    assert ("--master_addr" in out) != ("--rdzv_backend" in out)
    assert got_env == env
