"""paddle.save / paddle.load against files written by real Paddle 2.6.2 (tests/goldens/nn26_saveload/), and
our own files against the report real Paddle produced when it loaded them (nn26_saveload_ours_check.json,
recorded by tools/oracle/check_nn26_ours.sh)."""

from __future__ import annotations

import json
import os
import pickle

import numpy as np
import pytest
import torch

from tests.conftest import GOLDENS, load_golden
from tests.nn.saveload_cases import write_our_files

D = os.path.join(GOLDENS, "nn26_saveload")


def describe(obj):
    """Same structure as tools/oracle/rec_nn26_saveload.py::describe (run there on real Paddle)."""
    import paddle

    if isinstance(obj, paddle.Tensor):
        return {"type": "Tensor", "name": obj.name, "shape": list(obj.shape), "dtype": str(obj.dtype),
                "sum": float(obj.numpy().astype("float64").sum())}
    if isinstance(obj, np.ndarray):
        return {"type": "ndarray", "shape": list(obj.shape), "dtype": str(obj.dtype),
                "sum": float(obj.astype("float64").sum())}
    if isinstance(obj, dict):
        return {"type": type(obj).__name__, "items": {str(k): describe(v) for k, v in obj.items()}}
    if isinstance(obj, (list, tuple)):
        return {"type": type(obj).__name__, "items": [describe(v) for v in obj]}
    return {"type": type(obj).__name__, "value": obj}


def _same(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        assert sorted(a) == sorted(b), path
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-5, abs=1e-6), path
    else:
        assert a == b, path


def test_load_files_written_by_real_paddle():
    import paddle

    meta, g = load_golden("nn26_saveload")
    for f, want in meta["loaded"].items():
        _same(describe(paddle.load(os.path.join(D, f))), want, f)
    sd = paddle.load(os.path.join(D, "net.pdparams"))
    assert {k: v.name for k, v in sd.items()} == meta["net_state_dict_names"]
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    net.set_state_dict(sd)
    for k, v in net.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), g["final__" + k])
    opt = paddle.optimizer.Adam(learning_rate=paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5),
                                parameters=net.parameters())
    net(paddle.to_tensor(g["x"])).mean().backward()
    opt.step()  # creates the accumulators, then load Paddle's over them
    opt.set_state_dict(paddle.load(os.path.join(D, "adam.pdopt")))
    assert sorted(opt.state_dict()) == meta["opt_state_dict_keys"]
    for k, v in opt.state_dict().items():
        if k != "LR_Scheduler":
            np.testing.assert_array_equal(v.numpy(), g["opt__" + k])
    assert opt.state_dict()["LR_Scheduler"] == meta["lr_scheduler_state"]
    arrs = paddle.load(os.path.join(D, "net.pdparams"), return_numpy=True)
    assert isinstance(arrs["0.weight"], np.ndarray)


@pytest.mark.skipif(torch.cuda.is_available(),
                    reason="the recorded sums are of parameters drawn from the CPU random generator")
def test_our_files_match_what_real_paddle_loaded(tmp_path):
    import paddle

    with open(os.path.join(GOLDENS, "nn26_saveload_ours_check.json"), encoding="utf-8") as f:
        report = json.load(f)
    write_our_files(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == sorted(report)
    for f, want in report.items():
        assert "error" not in want, want
        want = {k: v for k, v in want.items() if k != "set_state_dict_ok"}
        _same(describe(paddle.load(str(tmp_path / f))), want, f)
    assert report["ours_net.pdparams"]["set_state_dict_ok"] is True


def test_atomic_save_keeps_old_file_on_crash(tmp_path, monkeypatch):
    import paddle

    path = str(tmp_path / "m.pdparams")
    paddle.save({"w": paddle.to_tensor([1.0, 2.0])}, path)
    before = open(path, "rb").read()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        paddle.save({"w": paddle.to_tensor(np.zeros(1000, "float32"))}, path)
    monkeypatch.undo()
    assert open(path, "rb").read() == before
    assert os.listdir(tmp_path) == ["m.pdparams"]  # the temporary file was removed


def test_load_refuses_code(tmp_path):
    import paddle

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    p = tmp_path / "evil.pdparams"
    p.write_bytes(pickle.dumps({"w": Evil()}))
    with pytest.raises(pickle.UnpicklingError, match="not data"):
        paddle.load(str(p))
    with pytest.raises(ValueError, match="does not exist"):
        paddle.load(str(tmp_path / "missing.pdparams"))
