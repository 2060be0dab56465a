"""LinearLR, CosineAnnealingWarmRestarts, LBFGS and the ReduceLROnPlateau callback against real Paddle 2.6.2
(tests/goldens/optim2x26 from tools/oracle/rec_cases26.py on optim2x26_cases.py), and SubsetRandomSampler,
VisualDL / WandbCallback without their packages."""

from __future__ import annotations

import sys

import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("optim2x26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "optim2x26", rtol=1e-6, atol=1e-9)


def test_scheduler_and_lbfgs_errors():
    import paddle

    with pytest.raises(ValueError, match="LinearLR: `start_factor`"):
        paddle.optimizer.lr.LinearLR(0.1, 5, start_factor=0)
    with pytest.raises(ValueError, match="CosineAnnealingWarmRestarts: Expected positive integer T_0"):
        paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.1, T_0=0)
    w = paddle.create_parameter([2], "float32")
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        paddle.optimizer.LBFGS(parameters=[w], line_search_fn="armijo")
    with pytest.raises(NotImplementedError, match="does not use this way to minimize"):
        paddle.optimizer.LBFGS(parameters=[w]).minimize(paddle.sum(w))
    sched = paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.1, T_0=2)
    opt = paddle.optimizer.SGD(sched, parameters=[w])
    sched.step()
    assert opt.get_lr() == sched()


def test_subset_random_sampler():
    import paddle

    paddle.seed(3)
    s = paddle.io.SubsetRandomSampler([10, 20, 30, 40, 50])
    first = list(s)
    assert sorted(first) == [10, 20, 30, 40, 50] and len(s) == 5
    paddle.seed(3)
    assert list(s) == first  # paddle.seed makes it reproducible
    orders = {tuple(s) for _ in range(30)}
    assert len(orders) > 10
    with pytest.raises(ValueError, match="should be greater than 0"):
        paddle.io.SubsetRandomSampler([])
    ds = paddle.io.TensorDataset([paddle.arange(6, dtype="float32").reshape([6, 1])])
    loader = paddle.io.DataLoader(ds, batch_sampler=paddle.io.BatchSampler(sampler=paddle.io.SubsetRandomSampler(
        [0, 2, 4]), batch_size=2))
    got = sorted(float(v) for (b,) in loader for v in b.numpy().reshape(-1))
    assert got == [0.0, 2.0, 4.0]


def test_visualdl_and_wandb_need_their_packages():
    import paddle

    for mod in ("visualdl", "wandb"):
        try:
            __import__(mod)
            pytest.skip(f"{mod} is installed")
        except ImportError:
            pass
    cb = paddle.callbacks.VisualDL(log_dir="vdl_log")
    cb.set_params({"epochs": 1, "metrics": ["loss"], "steps": 1})
    cb.on_train_begin()
    cb.on_epoch_begin(0)
    with pytest.raises(ImportError, match="pip install visualdl"):
        cb.on_train_batch_end(0, {"loss": [0.5]})
    with pytest.raises(ImportError, match="pip install wandb"):
        paddle.callbacks.WandbCallback(project="p")


def test_visualdl_writes_scalars_through_its_writer(monkeypatch):
    import types

    import paddle

    written = []

    class Writer:
        def __init__(self, logdir):
            self.logdir = logdir

        def add_scalar(self, tag, step, value):
            written.append((tag, step, value))

        def close(self):
            written.append("closed")

    monkeypatch.setitem(sys.modules, "visualdl", types.SimpleNamespace(LogWriter=Writer))
    cb = paddle.callbacks.VisualDL(log_dir="vdl_log")
    cb.set_params({"epochs": 1, "metrics": ["loss", "acc"], "steps": 2})
    cb.on_train_begin()
    cb.on_epoch_begin(0)
    cb.on_train_batch_end(0, {"loss": [0.5], "acc": 0.25})
    cb.on_train_batch_end(1, {"loss": [0.4], "acc": "n/a"})
    cb.on_eval_begin({"metrics": ["loss"]})
    cb.on_eval_end({"loss": [0.3]})
    cb.on_train_end()
    assert written == [("train/loss", 1, 0.5), ("train/acc", 1, 0.25), ("train/loss", 2, 0.4), ("eval/loss", 0, 0.3),
                       "closed"]


@pytest.mark.parametrize("steps", [0, -3, 2.5])
def test_linear_warmup_steps_must_be_a_positive_integer(steps):
    """Paddle 2.4's assertion (PaddleTest optimizer/test_lr_warmup.py checks its words)."""
    import paddle

    with pytest.raises(AssertionError, match="'warmup_steps' must be a positive integer"):
        paddle.optimizer.lr.LinearWarmup(0.1, warmup_steps=steps, start_lr=0.0, end_lr=0.1)
