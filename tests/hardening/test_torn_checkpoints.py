"""A checkpoint of many files is never torn (issue 27 item 2): a save SIGKILLed part way leaves the complete old
checkpoint, the complete new one, or files that loading refuses with an error naming them, never a mix that
loads. tests/hardening/_torn_driver.py saves an old checkpoint (all values 1.0), then forks a child that saves a
new one (all 2.0) into the same place and is killed at a point of the save (before the i-th rename or fsync,
before the journal is removed, between the two save_dygraph calls, or from outside after 0.05 / 0.3 / 0.8 s),
and loads what is left with our loaders. One driver process runs every case (it imports paddle once).

Savers: fluid.io save_persistables / save_params / save_vars (one file per variable), fluid.io
save_inference_model, paddle.static.save, fluid.save_dygraph (.pdparams + .pdopt), paddle.jit.save,
paddle.Model.save. paddle.distributed.save_state_dict writes its data file before the metadata that names it
(test_distributed_metadata_is_written_last)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from ._common import ROOT

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_torn_driver.py")
SAVERS = ["save_persistables", "save_params", "save_vars", "save_inference_model", "paddle.static.save",
          "save_dygraph", "paddle.jit.save", "Model.save"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("torn"))
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{os.path.join(ROOT, 'shims')}", CUDA_VISIBLE_DEVICES="",
               OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, DRIVER, root], capture_output=True, text=True, env=env, timeout=1200)
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0, proc.stderr[-3000:]
    out: dict = {}
    for r in rows:
        out.setdefault(r["saver"], []).append(r)
    return out


@pytest.mark.parametrize("saver", SAVERS)
def test_a_killed_save_leaves_old_new_or_an_error_naming_the_files(results, saver):
    rows = results[saver]
    assert rows, saver
    for r in rows:
        where = f"{saver} killed at {r['point']}: {r['outcome']} {r['detail']}"
        assert r["outcome"] in ("old", "new", "error"), where  # never "mixed": a torn checkpoint that loaded
        if not r["killed"]:  # the point was never reached (e.g. a journal a one-file save does not write)
            assert r["outcome"] == "new", where
        if r["outcome"] == "error":
            assert re.search(r"is torn: .* new values are in .* and the old ones in ", r["detail"]), where
            assert re.search(r"\('[^']+'", r["detail"]), where  # the files are named
    outcomes = {r["outcome"] for r in rows}
    assert "old" in outcomes and ("new" in outcomes or "error" in outcomes), (saver, rows)
    assert "error" in outcomes, f"{saver}: no kill point fell between two renames ({rows})"


def test_distributed_metadata_is_written_last(tmp_path, monkeypatch):
    """save_state_dict: the data file, then the metadata; a save killed before the metadata leaves a checkpoint
    the loader reads as the previous one (it reads through metadata only)."""
    import paddle

    from paddle_compat.engine.static import serialization

    order = []
    real = serialization.commit_temp
    monkeypatch.setattr(serialization, "commit_temp",
                        lambda tmp, target, **k: (order.append(os.path.basename(target)), real(tmp, target, **k)))
    paddle.distributed.save_state_dict({"w": paddle.ones([3])}, str(tmp_path))
    assert order == ["0_0.distcp", "0.metadata"]


# --- the journal, step by step (no subprocess) ------------------------------------------------------------------
def _files(d, value, names=("a", "b", "c")):
    from paddle_compat.engine.static.io import tensor_to_bytes

    return [(os.path.join(d, n), tensor_to_bytes(np.full([4], value, "float32"))) for n in names]


def _kill_after_renames(monkeypatch, k):
    """os.replace raises (as a kill would stop the save) after the journal and k file renames."""
    from paddle_compat.engine.static import serialization

    real, n = serialization.commit_temp, [0]

    def commit(tmp, target, **kw):
        if os.path.basename(target) != "__paddle_compat_journal__":
            if n[0] == k:
                raise KeyboardInterrupt("killed")
            n[0] += 1
        return real(tmp, target, **kw)
    monkeypatch.setattr(serialization, "commit_temp", commit)


@pytest.mark.parametrize("renamed", [0, 1, 2, 3])
def test_the_journal_tells_a_torn_save(tmp_path, monkeypatch, renamed):
    from paddle_compat.engine.static import checkpoint_files as cf
    from paddle_compat.engine.static.serialization import CorruptFileError

    d = str(tmp_path)
    cf.write_files(_files(d, 1.0))
    assert not os.path.exists(os.path.join(d, cf.JOURNAL))  # a completed save leaves no journal
    paths = [p for p, _ in _files(d, 0.0)]
    if renamed < 3:
        _kill_after_renames(monkeypatch, renamed)
        with pytest.raises(KeyboardInterrupt):
            cf.write_files(_files(d, 2.0))
        monkeypatch.undo()
    else:  # all renamed, killed before the journal is dropped
        monkeypatch.setattr(cf, "_write_journal", lambda d, e, real=cf._write_journal: e and real(d, e))
        cf.write_files(_files(d, 2.0))
        monkeypatch.undo()
    assert os.path.exists(os.path.join(d, cf.JOURNAL))
    if renamed in (0, 3):
        cf.check_files(paths, "load")  # all old, or all new: loads
    else:
        with pytest.raises(CorruptFileError, match=r"is torn: .* new values are in .*'a'.* and the old ones in .*'c'"):
            cf.check_files(paths, "load")
    cf.check_files(paths[-1:], "load")  # one file alone is never torn
    cf.write_files(_files(d, 3.0))  # the next complete save repairs the checkpoint and drops the journal
    cf.check_files(paths, "load")
    assert not os.path.exists(os.path.join(d, cf.JOURNAL))


def test_the_journal_is_a_paddle_tensor_file(tmp_path, monkeypatch):
    """Real Paddle's load_program_state(dirname) loads every file of the directory as a variable: the journal
    is a uint8 tensor of JSON, so a directory a killed save left still loads there (1.8.5 checked by hand:
    49 variables, the journal as uint8); ours leaves it out."""
    from paddle import fluid

    from paddle_compat.engine.static import checkpoint_files as cf
    from paddle_compat.engine.static.io import tensor_from_bytes

    from paddle_compat.engine.static.serialization import CorruptFileError

    d = str(tmp_path)
    cf.write_files(_files(d, 1.0))
    _kill_after_renames(monkeypatch, 3)  # every file renamed in, killed before the journal is dropped
    monkeypatch.setattr(cf, "_write_journal", lambda d, e, real=cf._write_journal: e and real(d, e))
    cf.write_files(_files(d, 2.0))
    monkeypatch.undo()
    arr, _ = tensor_from_bytes(open(os.path.join(d, cf.JOURNAL), "rb").read())
    doc = json.loads(arr.tobytes())
    assert arr.dtype == np.uint8 and sorted(doc["files"]) == ["a", "b", "c"]
    state = fluid.io.load_program_state(d)
    assert sorted(state) == ["a", "b", "c"] and state["a"].tolist() == [2.0] * 4
    (tmp_path / "a").write_bytes(_files(d, 1.0)[0][1])  # now torn: 'a' old, 'b' and 'c' new
    with pytest.raises(CorruptFileError, match=r"new values are in 2 files \('b', 'c'\) and the old ones in 1 file"):
        fluid.io.load_program_state(d)


def test_save_dygraph_pair(tmp_path):
    """The .pdparams / .pdopt pair: complete pairs load in either order; a params save not followed by the
    optimizer's (a script killed between the calls, or a params-only save beside an older .pdopt) is refused."""
    import paddle
    from paddle import fluid

    from paddle_compat.engine.static import checkpoint_files as cf
    from paddle_compat.engine.static.serialization import CorruptFileError

    p = str(tmp_path / "m")
    with fluid.dygraph.guard(fluid.CPUPlace()):
        net = fluid.dygraph.Linear(2, 2)
        opt = fluid.optimizer.AdamOptimizer(0.1, parameter_list=net.parameters())
        net(paddle.ones([1, 2])).mean().backward()
        opt.minimize(net(paddle.ones([1, 2])).mean())
        for order in ("params_first", "opt_first", "params_first"):
            pair = [net.state_dict(), opt.state_dict()]
            for state in pair if order == "params_first" else pair[::-1]:
                fluid.save_dygraph(state, p)
            fluid.load_dygraph(p)
            assert not os.path.exists(tmp_path / cf.JOURNAL)
        fluid.save_dygraph(net.state_dict(), p)  # no .pdopt after it
        with pytest.raises(CorruptFileError, match=r"new values are in 1 file \('m.pdparams'\) and the old ones in 1 file \('m.pdopt'\)"):
            fluid.load_dygraph(p)
        fluid.save_dygraph(opt.state_dict(), p)
        assert fluid.load_dygraph(p)[1] is not None
