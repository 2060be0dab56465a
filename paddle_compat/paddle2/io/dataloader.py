"""paddle.io: datasets, samplers and DataLoader.

With `num_workers` > 0 the samples are read and collated in worker processes (torch's DataLoader machinery:
forked workers, shared-memory tensors, `worker_init_fn`, `timeout`, `prefetch_factor`, `persistent_workers`),
and batches arrive in sampler order, so the result equals num_workers=0; `get_worker_info()` tells a worker
its id, as in Paddle. An IterableDataset is iterated by each worker in full unless it shards itself with
`get_worker_info()` (Paddle's rule).

Collation follows Paddle's default_collate_fn: a batch of samples that are tuples / lists of fields becomes a
list with one stacked Tensor per field; dict samples become dicts; numbers become int64 / float32 (Python
float -> float32) tensors of shape [batch]; numpy arrays and Tensors are stacked.

In dygraph (return_list) each batch lands on the loader's place, as Paddle's reader puts it: `places[0]`, or
the current place (gpu:0 on a GPU machine) when `places` is None; numpy arrays a custom collate_fn returns
become Tensors there too."""

from __future__ import annotations

import bisect
import math
from typing import Any, Iterator

import numpy as np
import torch
import torch.utils.data as _tud

from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export


class Dataset:
    def __getitem__(self, idx: int) -> Any:
        raise NotImplementedError(f"'{type(self).__name__}' not implement in function __getitem__")

    def __len__(self) -> int:
        raise NotImplementedError(f"'{type(self).__name__}' not implement in function __len__")


class IterableDataset(Dataset):
    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError(f"'{type(self).__name__}' not implement in function __iter__")

    def __getitem__(self, idx: int) -> Any:
        raise RuntimeError(f"'{type(self).__name__}' should not be called for IterableDataset")

    def __len__(self) -> int:
        raise RuntimeError(f"'{type(self).__name__}' should not be called for IterableDataset")


class TensorDataset(Dataset):
    def __init__(self, tensors: list) -> None:
        n = tensors[0].shape[0]
        for t in tensors:
            if t.shape[0] != n:
                raise ValueError("paddle.io.TensorDataset: tensors not have same shape of the 1st dimension")
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class ComposeDataset(Dataset):
    def __init__(self, datasets: list) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("paddle.io.ComposeDataset: input datasets should not be empty")
        for d in self.datasets[1:]:
            if len(d) != len(self.datasets[0]):
                raise ValueError("paddle.io.ComposeDataset: lengths of datasets should be same")

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx: int) -> tuple:
        out: list = []
        for d in self.datasets:
            s = d[idx]
            out.extend(s if isinstance(s, (list, tuple)) else [s])
        return tuple(out)


class ChainDataset(IterableDataset):
    def __init__(self, datasets: list) -> None:
        self.datasets = list(datasets)

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            yield from d


class Subset(Dataset):
    def __init__(self, dataset: Dataset, indices: list) -> None:
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, idx: int) -> Any:
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    def __init__(self, datasets: list) -> None:
        self.datasets = list(datasets)
        self.cumulative_sizes = list(np.cumsum([len(d) for d in self.datasets]))

    def __len__(self) -> int:
        return int(self.cumulative_sizes[-1]) if self.cumulative_sizes else 0

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            idx += len(self)
        i = bisect.bisect_right(self.cumulative_sizes, idx)
        start = 0 if i == 0 else int(self.cumulative_sizes[i - 1])
        return self.datasets[i][idx - start]


def random_split(dataset: Dataset, lengths: list, generator: Any = None) -> list:
    if sum(lengths) != len(dataset):
        raise ValueError("paddle.io.random_split: sum of input lengths does not equal the length of the input dataset")
    perm = np.random.permutation(len(dataset)).tolist()
    out, off = [], 0
    for n in lengths:
        out.append(Subset(dataset, perm[off:off + n]))
        off += n
    return out


# --- samplers ----------------------------------------------------------------------------------------------
class Sampler:
    def __init__(self, data_source: Any = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.data_source)


class SequenceSampler(Sampler):
    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))


class RandomSampler(Sampler):
    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None,
                 generator: Any = None) -> None:
        super().__init__(data_source)
        self.replacement, self._num_samples, self.generator = replacement, num_samples, generator
        if not replacement and num_samples is not None:
            raise ValueError("paddle.io.RandomSampler: num_samples should not be specified while replacement is False")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        if self.generator is not None:
            for _ in range(self.num_samples):
                yield next(self.generator)
            return
        if self.replacement:
            yield from np.random.randint(0, n, self.num_samples).tolist()
        else:
            yield from np.random.permutation(n).tolist()

    def __len__(self) -> int:
        return self.num_samples


class WeightedRandomSampler(Sampler):
    def __init__(self, weights: Any, num_samples: int, replacement: bool = True) -> None:
        super().__init__(None)
        w = np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights, dtype="float64").reshape(-1)
        if (w < 0).any():
            raise ValueError("paddle.io.WeightedRandomSampler: weights should be positive")
        if not replacement and num_samples > len(w):
            raise ValueError("paddle.io.WeightedRandomSampler: num_samples should be <= len(weights) without "
                             "replacement")
        self.weights, self.num_samples, self.replacement = w / w.sum(), num_samples, replacement

    def __iter__(self) -> Iterator[int]:
        yield from np.random.choice(len(self.weights), self.num_samples, self.replacement, self.weights).tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    def __init__(self, dataset: Any = None, sampler: Any = None, shuffle: bool = False, batch_size: int = 1,
                 drop_last: bool = False) -> None:
        if dataset is None and sampler is None:
            raise ValueError("paddle.io.BatchSampler: either dataset or sampler should be set")
        if dataset is not None and sampler is not None:
            raise ValueError("paddle.io.BatchSampler: should not set both dataset and sampler")
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"paddle.io.BatchSampler: batch_size should be a positive integer, but got {batch_size}")
        if sampler is None:
            sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        elif shuffle:
            raise ValueError("paddle.io.BatchSampler: shuffle should be False when sampler is set")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list]:
        batch: list = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


class DistributedBatchSampler(BatchSampler):
    """Each rank takes every num_replicas-th sample of the (padded) index list, as Paddle does."""

    def __init__(self, dataset: Any, batch_size: int, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = False, drop_last: bool = False) -> None:
        import os

        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError("paddle.io.DistributedBatchSampler: batch_size should be a positive integer")
        self.dataset, self.batch_size, self.shuffle, self.drop_last = dataset, batch_size, shuffle, drop_last
        self.nranks = num_replicas if num_replicas is not None else int(os.environ.get("PADDLE_TRAINERS_NUM",
                                                                                       os.environ.get("WORLD_SIZE", 1)))
        self.local_rank = rank if rank is not None else int(os.environ.get("PADDLE_TRAINER_ID",
                                                                           os.environ.get("RANK", 0)))
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) * 1.0 / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def __iter__(self) -> Iterator[list]:
        n = len(self.dataset)
        indices = np.arange(n).tolist()
        indices += indices[: self.total_size - len(indices)]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._by_batch(indices)
        batch: list = []
        for i in indices:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = self.num_samples
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size

    def _by_batch(self, indices: list) -> list:
        """Paddle's split: rank r takes batch-sized chunks r, r + nranks, ...; the tail is shared evenly."""
        out: list = []
        last = self.total_size % (self.batch_size * self.nranks)
        last_local = last // self.nranks
        for i in range(self.local_rank * self.batch_size, len(indices) - last, self.batch_size * self.nranks):
            out.extend(indices[i:i + self.batch_size])
        tail = indices[len(indices) - last:]
        out.extend(tail[self.local_rank * last_local:(self.local_rank + 1) * last_local])
        return out

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch


# --- collation and the loader ------------------------------------------------------------------------------
# True while a worker process collates for a loader with use_shared_memory (_WorkerMap / _WorkerIterable)
_SHARED_OUT = [False]


def _shared_like(n: int, s: Any, dtype: Any) -> Any:
    """An empty [n, *s.shape] torch tensor in shared memory: a worker's batch handed to the main process without
    the copy into shared memory that sending an ordinary tensor makes (torch's default_collate does the same)."""
    return torch.empty((n,) + tuple(s.shape), dtype=dtype).share_memory_()


def default_collate_fn(batch: list) -> Any:
    s = batch[0]
    if isinstance(s, Tensor):
        if _SHARED_OUT[0] and s._t.device.type == "cpu":
            return Tensor._wrap(torch.stack([b._t for b in batch], out=_shared_like(len(batch), s._t, s._t.dtype)))
        return Tensor._wrap(torch.stack([b._t for b in batch]))
    if isinstance(s, np.ndarray):
        if _SHARED_OUT[0] and s.dtype.kind in "biuf":
            out = _shared_like(len(batch), s, torch.from_numpy(s[:0].reshape(-1)).dtype)
            np.stack(batch, out=out.numpy())
            return Tensor._wrap(out)
        return Tensor._wrap(torch.from_numpy(np.stack(batch)))
    if isinstance(s, (bool, np.bool_)):
        return Tensor._wrap(torch.tensor(batch, dtype=torch.bool))
    if isinstance(s, (int, np.integer)):
        return Tensor._wrap(torch.from_numpy(np.asarray(batch, dtype="int64")))
    if isinstance(s, (float, np.floating)):
        return Tensor._wrap(torch.from_numpy(np.asarray(batch, dtype="float32" if isinstance(s, float) else s.dtype)))
    if isinstance(s, (str, bytes)):
        return list(batch)
    if isinstance(s, dict):
        return {k: default_collate_fn([b[k] for b in batch]) for k in s}
    if isinstance(s, (list, tuple)):
        if any(len(b) != len(s) for b in batch):
            raise RuntimeError("paddle.io.DataLoader: fields number not same among samples in a batch")
        return [default_collate_fn(list(f)) for f in zip(*batch)]
    raise TypeError(f"paddle.io.DataLoader: batch data can only contains: tensor, numpy.ndarray, dict, list, number, "
                    f"but got {type(s).__name__}")


def default_convert_fn(batch: Any) -> Any:
    if isinstance(batch, np.ndarray):
        return Tensor._wrap(torch.from_numpy(batch))
    if isinstance(batch, (list, tuple)):
        return [default_convert_fn(b) for b in batch]
    if isinstance(batch, dict):
        return {k: default_convert_fn(v) for k, v in batch.items()}
    return batch


def _loader_place(places: Any) -> Any:
    from paddle_compat.engine.core.place import to_place

    if isinstance(places, (list, tuple)):
        places = places[0] if places else None
    return to_place(places)


def _map_tree(batch: Any, leaf: Any) -> Any:
    """`leaf` applied to every item of a collated batch that is not a list, tuple or dict (those are kept)."""
    if isinstance(batch, (list, tuple)):
        out = [_map_tree(b, leaf) for b in batch]
        return out if isinstance(batch, list) else tuple(out)
    if isinstance(batch, dict):
        return {k: _map_tree(v, leaf) for k, v in batch.items()}
    return leaf(batch)


def _on_device(batch: Any, device: Any) -> Any:
    """Tensors (and numpy arrays) of a collated batch, moved onto the loader's device."""
    def move(b: Any) -> Any:
        if isinstance(b, Tensor):
            return b if b._t.device == device else Tensor._wrap(b._t.to(device))
        if isinstance(b, np.ndarray):
            return Tensor._wrap(torch.from_numpy(b).to(device))
        return b

    return _map_tree(batch, move)


def _identity(batch: Any) -> Any:
    return batch


def _unwrap(batch: Any) -> Any:
    """A collated batch with our Tensors as torch tensors (they cross from the workers in shared memory)."""
    return _map_tree(batch, lambda b: b._t if isinstance(b, Tensor) else b)


def _rewrap(batch: Any) -> Any:
    return _map_tree(batch, lambda b: Tensor._wrap(b) if isinstance(b, torch.Tensor) else b)


def _to_numpy(b: Any) -> Any:
    """use_shared_memory=False: a worker's torch tensor as a numpy array, which crosses to the main process pickled
    through the queue (torch sends a tensor through shared memory); the loader turns it back into a Tensor."""
    if isinstance(b, torch.Tensor) and b.device.type == "cpu" and b.dtype in _NUMPY_DTYPES:
        return b.numpy()
    return b


_NUMPY_DTYPES = {getattr(torch, n) for n in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16",
                                             "float32", "float64", "complex64", "complex128")}


def _worker_out(batch: Any, shared: bool) -> Any:
    batch = _unwrap(batch)
    return batch if shared else _map_tree(batch, _to_numpy)


class _WorkerMap:
    """Map-style source for torch's workers: item = one batch of sample indices -> our collated batch."""

    def __init__(self, loader: "DataLoader") -> None:
        self.dataset, self.collate = loader.dataset, loader._collate()
        self.batched = loader.batch_sampler is not None
        self.shared = getattr(loader, "use_shared_memory", True)

    def __getitem__(self, idx: Any) -> Any:
        _SHARED_OUT[0] = self.shared
        try:
            if self.batched:
                return _worker_out(self.collate([self.dataset[i] for i in idx]), self.shared)
            return _worker_out(self.collate(self.dataset[idx]), self.shared)
        finally:
            _SHARED_OUT[0] = False

    def __len__(self) -> int:
        return len(self.dataset)


class _WorkerIterable(_tud.IterableDataset):
    """Iterable source for torch's workers: each worker batches its own pass over the dataset."""

    def __init__(self, loader: "DataLoader") -> None:
        self.loader = loader
        self.dataset = loader.dataset

    def __iter__(self) -> Iterator[Any]:
        # runs in a worker process only, so the flag holds for all its batches
        shared = _SHARED_OUT[0] = getattr(self.loader, "use_shared_memory", True)
        return (_worker_out(b, shared) for b in self.loader._batches())


class WorkerInfo:
    """What `paddle.io.get_worker_info()` returns inside a worker process."""

    def __init__(self, id: int, num_workers: int, seed: int, dataset: Any) -> None:  # noqa: A002
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


# The loaders of the fluid 1.x readers, registered by the modules that define them (this package sits below them):
# "non_iterable" (fluid/reader.py NonIterableGeneratorLoader: start() / reset()), "feed_batches" (fluid/reader.py:
# DataFeeder's conversion of samples for static feed variables), "dataset" (paddle2/distributed/fleet_dataset.py
# DatasetLoader: DataLoader.from_dataset).
LOADERS: dict[str, Any] = {}


class DataLoader:
    def __init__(self, dataset: Any, feed_list: Any = None, places: Any = None, return_list: bool = True,
                 batch_sampler: Any = None, batch_size: int | None = 1, shuffle: bool = False, drop_last: bool = False,
                 collate_fn: Any = None, num_workers: int = 0, use_buffer_reader: bool = True,
                 prefetch_factor: int = 2, use_shared_memory: bool = True, timeout: int = 0,
                 worker_init_fn: Any = None, persistent_workers: bool = False) -> None:
        if num_workers < 0:
            raise ValueError("paddle.io.DataLoader: num_workers should be a non-negative value")
        if timeout < 0:
            raise ValueError("paddle.io.DataLoader: timeout should be a non-negative value")
        self.dataset, self.feed_list, self.return_list = dataset, feed_list, return_list
        self.collate_fn, self.num_workers = collate_fn, num_workers
        self._iterable_ds = isinstance(dataset, IterableDataset)
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError("paddle.io.DataLoader: batch_size/shuffle/drop_last should not be set when "
                                 "batch_sampler is given")
            self.batch_sampler = batch_sampler
            self.batch_size = getattr(batch_sampler, "batch_size", None)
        elif batch_size is None:
            self.batch_sampler, self.batch_size = None, None
        else:
            if self._iterable_ds:
                if shuffle:
                    raise ValueError("paddle.io.DataLoader: IterableDataset not support shuffle, but got shuffle=True")
                self.batch_sampler = None
            else:
                self.batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size, shuffle=shuffle,
                                                  drop_last=drop_last)
            self.batch_size = batch_size
        self.drop_last = drop_last
        self._device = _loader_place(places).torch_device()
        self.use_shared_memory = bool(use_shared_memory)
        self._workers = dict(worker_init_fn=worker_init_fn, timeout=timeout, persistent_workers=persistent_workers,
                             prefetch_factor=prefetch_factor)
        self._pool: Any = None  # torch's DataLoader over the worker processes, built on first iteration

    def __len__(self) -> int:
        if self._iterable_ds:
            raise ValueError("paddle.io.DataLoader: IterableDataset has no length")
        if self.batch_sampler is None:
            return len(self.dataset)
        return len(self.batch_sampler)

    def _finish(self, batch: Any) -> Any:
        if self.return_list or not self.feed_list:
            return _on_device(batch, self._device)
        names = [v.name if not isinstance(v, str) else v for v in self.feed_list]
        fields = batch if isinstance(batch, (list, tuple)) else [batch]
        return [{n: (f.numpy() if isinstance(f, Tensor) else f) for n, f in zip(names, fields)}]

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers > 0:
            if self._pool is None:
                self._pool = self._worker_loader()
            for b in self._pool:
                yield self._finish(_rewrap(b))
            return
        yield from (self._finish(b) for b in self._batches())

    def __call__(self) -> Iterator[Any]:
        """`for data in loader():` -- the 2.x tutorials' loop (Paddle's DataLoader is callable too)."""
        return self.__iter__()

    def _collate(self) -> Any:
        return self.collate_fn or (default_collate_fn if self.batch_size is not None else default_convert_fn)

    def _worker_loader(self) -> Any:
        """torch's DataLoader whose workers each produce whole collated batches of ours (as torch tensors)."""
        opts = dict(num_workers=self.num_workers, collate_fn=_identity, **self._workers)
        if self._iterable_ds:
            return _tud.DataLoader(_WorkerIterable(self), batch_size=None, **opts)
        sampler = self.batch_sampler if self.batch_sampler is not None else range(len(self.dataset))
        return _tud.DataLoader(_WorkerMap(self), batch_size=None, sampler=sampler, **opts)

    def _batches(self) -> Iterator[Any]:
        """The collated batches, in this process."""
        collate = self._collate()
        if self._iterable_ds:
            if self.batch_size is None:
                for s in self.dataset:
                    yield collate(s)
                return
            buf: list = []
            for s in self.dataset:
                buf.append(s)
                if len(buf) == self.batch_size:
                    yield collate(buf)
                    buf = []
            if buf and not self.drop_last:
                yield collate(buf)
            return
        if self.batch_sampler is None:
            for i in range(len(self.dataset)):
                yield collate(self.dataset[i])
            return
        for idx in self.batch_sampler:
            yield collate([self.dataset[i] for i in idx])

    @staticmethod
    def from_generator(feed_list: Any = None, capacity: Any = None, use_double_buffer: bool = True,
                       iterable: bool = True, return_list: bool = False, use_multiprocess: bool = False,
                       drop_last: bool = True) -> "GeneratorLoader":
        if not iterable:  # start() / exe.run() until EOFException / reset(): the fluid 1.x reader (fluid/reader.py)
            return LOADERS["non_iterable"](feed_list, capacity or 1)  # type: ignore[return-value]
        return GeneratorLoader(feed_list, return_list, iterable, drop_last, use_multiprocess)

    @staticmethod
    def from_dataset(dataset: Any, places: Any, drop_last: bool = True) -> Any:
        """Iterate a fluid.dataset (QueueDataset / InMemoryDataset): one [feed dict] per batch."""
        return LOADERS["dataset"](dataset, places, drop_last)


class DataLoaderBase:
    """fluid.reader.DataLoaderBase (1.8): the abstract loader; iterating it raises NotImplementedError."""

    def __init__(self) -> None:
        self._places = None

    def __call__(self) -> Any:
        return self

    def next(self) -> Any:
        return self.__next__()

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError()

    def __next__(self) -> Any:
        raise NotImplementedError()

    @classmethod
    def _check_input_array(cls, item: Any) -> np.ndarray:
        """One field of a batch as a regular ndarray; ragged nested lists raise Paddle's TypeError."""
        try:
            arr = np.asarray(item)
        except ValueError:  # numpy >= 1.24 refuses ragged lists instead of making an object array
            arr = np.empty(0, dtype=object)
        if arr.dtype == object:
            raise TypeError(
                "\n\tFaild to convert input data to a regular ndarray :\n\t* Usually this means the input data "
                "contains nested lists with different lengths. \n\t* Check the reader function passed to "
                "'decorate_batch_generator' to locate the data causes this issue.\n\t* Please consider using "
                "'fluid.create_lod_tensor' to convert it to a LoD-Tensor.")
        return arr


class GeneratorLoader(DataLoaderBase):
    """DataLoader.from_generator: feeds batches built by a sample / sample-list / batch generator."""

    def __init__(self, feed_list: Any, return_list: bool, iterable: bool, drop_last: bool,
                 use_multiprocess: bool = False) -> None:
        super().__init__()
        self.feed_list, self.return_list, self.iterable, self.drop_last = feed_list, return_list, iterable, drop_last
        self.use_multiprocess = use_multiprocess
        self._batches: Any = None
        if not iterable:
            from paddle_compat.engine.core.errors import UnsupportedAPIError

            raise UnsupportedAPIError("paddle.io.DataLoader.from_generator(iterable=False)",
                                      "non-iterable readers (start/reset with py_reader ops) are not supported; "
                                      "use iterable=True")

    def set_sample_generator(self, reader: Any, batch_size: int, drop_last: bool = True, places: Any = None) -> "GeneratorLoader":
        def batches() -> Iterator[list]:
            buf: list = []
            for s in reader():
                buf.append(s)
                if len(buf) == batch_size:
                    yield buf
                    buf = []
            if buf and not drop_last:
                yield buf

        return self.set_sample_list_generator(batches, places)

    def _static_feed_vars(self) -> list:
        """The feed variables, when they are static-graph Variables (DataFeeder then converts the samples)."""
        fl = self.feed_list or []
        return list(fl) if fl and all(hasattr(v, "lod_level") and hasattr(v, "node") for v in fl) else []

    def set_sample_list_generator(self, reader: Any, places: Any = None) -> "GeneratorLoader":
        self._places = places
        feed_vars = self._static_feed_vars()
        if feed_vars:  # as Paddle: DataFeeder gives each variable its dtype, shape and LoD
            feed_batches = LOADERS["feed_batches"]
            self._batches = lambda: feed_batches(feed_vars, reader)
            return self

        def batches() -> Iterator[list]:
            for samples in reader():
                fields = list(zip(*[s if isinstance(s, (list, tuple)) else (s,) for s in samples]))
                yield [np.stack([np.asarray(x) for x in f]) for f in fields]

        self._batches = batches
        return self

    def set_batch_generator(self, reader: Any, places: Any = None) -> "GeneratorLoader":
        self._places = places

        def batches() -> Iterator[list]:
            for b in reader():
                items = b if isinstance(b, (list, tuple)) else [b]
                yield [x.numpy() if hasattr(x, "numpy") else self._check_input_array(x) for x in items]

        self._batches = batches
        return self

    def __iter__(self) -> Iterator[Any]:
        if self._batches is None:
            raise RuntimeError("DataLoader.from_generator: set a generator first (set_sample_generator, "
                               "set_sample_list_generator or set_batch_generator)")
        from paddle_compat.engine.core.mode import MODE

        self._live = batches = _in_child(self._batches) if self.use_multiprocess else self._batches()
        if not MODE.static:
            for fields in batches:
                yield [Tensor(f) for f in fields]
            return
        # static: one entry per place (Paddle's reader gives every place its own batch), a feed dict or, with
        # return_list, a list of LoDTensors; with drop_last, the batches left at the end that cannot fill every
        # place are dropped
        from paddle_compat.engine.framework.lod import LoDTensor

        names = [v.name if not isinstance(v, str) else v for v in (self.feed_list or [])]
        places = self._places
        n = len(places) if isinstance(places, (list, tuple)) and places else 1
        group: list = []
        for fields in batches:
            if self.return_list:
                group.append([f if isinstance(f, LoDTensor) else LoDTensor(np.asarray(f)) for f in fields])
            else:
                group.append(dict(zip(names, fields)))
            if len(group) == n:
                yield group
                group = []
        if group and not self.drop_last:
            yield group

    def __call__(self) -> Iterator[Any]:
        return self.__iter__()

    def _reset(self) -> None:
        """GeneratorLoader._reset (1.8.5): end the pass in progress, closing the user's generator (its `finally`
        blocks run); the next iteration starts a new pass from the generator's first batch."""
        live, self._live = getattr(self, "_live", None), None
        if live is not None:
            live.close()


class _GeneratorSource(_tud.IterableDataset):
    def __init__(self, make: Any) -> None:
        self.make = make

    def __iter__(self) -> Iterator[Any]:
        return iter(self.make())


# numpy dtypes a batch array crosses from the child in shared memory as (a torch tensor's storage, as torch's own
# workers send theirs); other fields are pickled through the queue's pipe
_SHARED_DTYPES = frozenset(np.dtype(t) for t in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16",
                                                 "float32", "float64", "complex64", "complex128"))


def _to_shared(batch: Any) -> Any:
    """In the child: the batch's numpy arrays as tensors on their memory (torch's queue moves a tensor's storage to
    shared memory instead of pickling its bytes through the pipe)."""
    if not isinstance(batch, list):
        return batch
    return [torch.from_numpy(f) if type(f) is np.ndarray and f.dtype in _SHARED_DTYPES and f.flags.c_contiguous
            and f.flags.writeable else f for f in batch]


def _from_shared(batch: Any) -> Any:
    """In the training process: _to_shared undone, each tensor back to the numpy array over the same memory."""
    return [f.numpy() if isinstance(f, torch.Tensor) else f for f in batch] if isinstance(batch, list) else batch


def _in_child(make: Any) -> Iterator[Any]:
    """from_generator(use_multiprocess=True), as Paddle's: the generator runs (user reader, transforms, batching) in
    a child process that keeps two batches ahead of the training loop; the batches come back in order, their arrays
    through shared memory (_to_shared). Closing this generator (GeneratorLoader._reset, or the end of the pass)
    stops the child."""
    it = iter(_tud.DataLoader(_GeneratorSource(make), batch_size=None, num_workers=1, collate_fn=_to_shared))
    try:
        for batch in it:
            yield _from_shared(batch)
    finally:
        stop = getattr(it, "_shutdown_workers", None)
        if stop is not None:
            stop()


def get_worker_info() -> WorkerInfo | None:
    """Inside a DataLoader worker process: its id, the number of workers, its seed and its dataset copy; None in
    the main process."""
    info = _tud.get_worker_info()
    if info is None:
        return None
    return WorkerInfo(info.id, info.num_workers, info.seed, getattr(info.dataset, "dataset", info.dataset))


for _cls in (Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset, Subset, ConcatDataset, Sampler,
             SequenceSampler, RandomSampler, WeightedRandomSampler, BatchSampler, DistributedBatchSampler, DataLoader):
    export(_cls, f"paddle.io.{_cls.__name__}")
export(random_split, "paddle.io.random_split")
export(get_worker_info, "paddle.io.get_worker_info")
export(DataLoader, "paddle.fluid.io.DataLoader", "paddle.fluid.reader.DataLoader")
export(DataLoaderBase, "paddle.fluid.reader.DataLoaderBase")
export(GeneratorLoader, "paddle.fluid.reader.GeneratorLoader")
