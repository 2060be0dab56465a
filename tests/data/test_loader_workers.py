"""paddle.io.DataLoader with worker processes: every combination of use_shared_memory and persistent_workers gives
the batches the main process builds itself (num_workers=0), for map-style and iterable datasets of numpy, Tensor,
dict and number samples; persistent workers live across epochs, the others are started per epoch."""

from __future__ import annotations

import os

import numpy as np
import pytest


def _datasets():
    import paddle

    class Arrays(paddle.io.Dataset):
        def __len__(self):
            return 10

        def __getitem__(self, i):
            return np.full((2, 3), i, "float32"), np.array([i], "int64")

    class Mixed(paddle.io.Dataset):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            return {"t": paddle.to_tensor(np.arange(4, dtype="float64") * i), "n": i, "f": float(i) / 2}

    class Stream(paddle.io.IterableDataset):
        def __iter__(self):
            info = paddle.io.get_worker_info()
            start, step = (info.id, info.num_workers) if info else (0, 1)
            return (np.array([i, -i], "int32") for i in range(start, 9, step))

    return {"arrays": Arrays(), "mixed": Mixed(), "stream": Stream()}


def _flat(batches):
    out = []
    for b in batches:
        fields = b.values() if isinstance(b, dict) else (b if isinstance(b, (list, tuple)) else [b])
        out.append([(str(f.dtype), f.shape, f.numpy().tolist()) for f in fields])
    return out


@pytest.mark.parametrize("name", ["arrays", "mixed", "stream"])
@pytest.mark.parametrize("shared,persistent", [(True, False), (False, False), (True, True), (False, True)])
def test_workers_give_the_main_process_batches(name, shared, persistent):
    import paddle

    ds = _datasets()[name]
    want = _flat(paddle.io.DataLoader(ds, batch_size=3))
    loader = paddle.io.DataLoader(ds, batch_size=3, num_workers=2, use_shared_memory=shared,
                                  persistent_workers=persistent)
    for _ in range(2):  # two epochs
        got = _flat(loader)
        if name == "stream":  # the workers interleave their shards: compare the samples
            def samples(bs):
                return sorted(row for b in bs for _, _, rows in b for row in rows)

            assert samples(got) == samples(want) and len(samples(got)) == 9
        else:
            assert got == want


class _Pids:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return np.array([os.getpid()], "int64")


@pytest.mark.parametrize("persistent", [True, False])
def test_persistent_workers_outlive_the_epoch(persistent):
    import paddle

    loader = paddle.io.DataLoader(_Pids(), batch_size=1, num_workers=1, persistent_workers=persistent)
    first = {int(b.numpy()[0, 0]) for b in loader}
    second = {int(b.numpy()[0, 0]) for b in loader}
    assert os.getpid() not in first | second
    assert (first == second) is persistent


def test_shared_memory_flag_reaches_the_worker_collate():
    """In a worker, use_shared_memory=True stacks the batch straight into shared memory; False sends numpy arrays
    through the queue. Checked on the worker-side source the loader hands torch's workers."""
    import paddle
    from paddle_compat.paddle2.io import dataloader as D

    ds = _datasets()["arrays"]
    for shared in (True, False):
        src = D._WorkerMap(paddle.io.DataLoader(ds, batch_size=3, use_shared_memory=shared))
        x, y = src[[0, 1, 2]]
        if shared:
            assert x.is_shared() and y.is_shared() and x.shape == (3, 2, 3)
        else:
            assert isinstance(x, np.ndarray) and x.shape == (3, 2, 3) and y.dtype == np.int64
    assert D._SHARED_OUT == [False]


def _reader():
    for i in range(7):
        yield [(np.full([3], i * 10 + k, "float32"), np.array([k], "int64")) for k in range(4)]


@pytest.mark.parametrize("static", [False, True], ids=["dygraph", "static"])
def test_from_generator_in_a_child_gives_the_same_batches(static):
    import paddle

    def batches(multi):
        if static:
            paddle.enable_static()
        try:
            x = paddle.static.data("x", [None, 3], "float32") if static else None
            y = paddle.static.data("y", [None, 1], "int64") if static else None
            loader = paddle.io.DataLoader.from_generator(feed_list=[x, y] if static else None, capacity=4,
                                                         use_multiprocess=multi, return_list=not static)
            loader.set_sample_list_generator(_reader)
            out = []
            for b in loader():
                if static:
                    out.append([np.array(b[0][k]).tolist() for k in ("x", "y")])
                else:
                    out.append([f.numpy().tolist() for f in b])
            return out
        finally:
            paddle.disable_static()

    one = batches(False)
    assert len(one) == 7 and batches(True) == one


def test_from_generator_child_stops_on_reset():
    import paddle

    loader = paddle.io.DataLoader.from_generator(capacity=2, use_multiprocess=True, return_list=True)
    loader.set_sample_list_generator(_reader)
    it = iter(loader())
    first = next(it)
    loader._reset()
    again = next(iter(loader()))
    assert [f.numpy().tolist() for f in again] == [f.numpy().tolist() for f in first]


def test_from_generator_multiprocess_runs_the_reader_elsewhere():
    import paddle

    def pids():
        yield [(np.array([os.getpid()], "int64"),)]

    for multi in (False, True):
        loader = paddle.io.DataLoader.from_generator(capacity=2, use_multiprocess=multi, return_list=True)
        loader.set_sample_list_generator(pids)
        (pid,), = [b for b in loader()]
        assert (int(pid.numpy()[0, 0]) != os.getpid()) is multi


@pytest.mark.parametrize("field,shared", [
    (np.arange(6, dtype="float32").reshape(2, 3), True),
    (np.arange(6, dtype="int64").reshape(2, 3), True),
    (np.array([True, False]), True),
    (np.arange(6, dtype="float64").reshape(2, 3).T, False),  # not C-contiguous: pickled as it is
    (np.array(["a", "b"]), False),  # no torch dtype
    (np.arange(3, dtype="uint32"), False),
], ids=["float32", "int64", "bool", "transposed", "strings", "uint32"])
def test_from_generator_child_arrays_cross_in_shared_memory(field, shared):
    """from_generator(use_multiprocess=True) hands the child's numpy fields to torch's queue as tensors (their
    storage goes through shared memory, as torch's own workers' batches do) and back as numpy arrays of the same
    dtype, shape and values; fields torch cannot hold that way cross as they are."""
    import torch

    from paddle_compat.paddle2.io.dataloader import _from_shared, _to_shared

    sent = _to_shared([field, 7])
    assert isinstance(sent[0], torch.Tensor) is shared and sent[1] == 7
    got = _from_shared(sent)[0]
    assert type(got) is np.ndarray and got.dtype == field.dtype and got.shape == field.shape
    np.testing.assert_array_equal(got, field)
