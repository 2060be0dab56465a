"""paddle.batch and paddle.reader: the 1.x reader decorators (also at paddle.reader.decorator and fluid.io).

A reader is a function with no arguments that returns an iterable of samples; a decorator takes readers and
returns a new one. Each decorated reader starts afresh on every call, as in Paddle. Threads back buffered and
xmap_readers; multiprocess_reader runs one forked process per reader (the readers are closures, which only
fork can hand over) and, with use_pipe=True, passes samples as JSON as Paddle does (tuples arrive as lists).
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import queue
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any

from paddle_compat.engine.framework.registry import export

Reader = Callable[[], Any]
_END = object()


def batch(reader: Reader, batch_size: int, drop_last: bool = False) -> Reader:
    """Lists of `batch_size` consecutive samples; the last, shorter one unless drop_last."""
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError("batch_size should be a positive integeral value, "
                         f"but got batch_size={batch_size}")

    def batch_reader() -> Iterator[list]:
        buf: list = []
        for sample in reader():
            buf.append(sample)
            if len(buf) == batch_size:
                yield buf
                buf = []
        if buf and not drop_last:
            yield buf

    return batch_reader


def cache(reader: Reader) -> Reader:
    """Reads `reader` once, now, and replays its samples from memory."""
    samples = tuple(reader())

    def cached() -> Iterator[Any]:
        yield from samples

    return cached


def map_readers(func: Callable, *readers: Reader) -> Reader:
    """func applied to the samples of the readers taken together (stops at the shortest)."""
    def mapped() -> Iterator[Any]:
        yield from map(func, *[r() for r in readers])

    return mapped


def shuffle(reader: Reader, buf_size: int) -> Reader:
    """Shuffles within consecutive windows of buf_size samples (Python's `random`)."""
    def shuffled() -> Iterator[Any]:
        buf: list = []
        for sample in reader():
            buf.append(sample)
            if len(buf) >= buf_size:
                random.shuffle(buf)
                yield from buf
                buf = []
        if buf:
            random.shuffle(buf)
            yield from buf

    return shuffled


def chain(*readers: Reader) -> Reader:
    """The samples of each reader in turn."""
    def chained() -> Iterator[Any]:
        yield from itertools.chain(*[r() for r in readers])

    return chained


class ComposeNotAligned(ValueError):
    """compose(check_alignment=True): the readers yield different numbers of samples."""


def compose(*readers: Reader, **kwargs: Any) -> Reader:
    """One flat tuple per step from the readers' samples together (a tuple sample contributes its items).
    check_alignment (default True) raises ComposeNotAligned when a reader ends before the others; with False
    the longer readers' tail is dropped."""
    check_alignment = kwargs.pop("check_alignment", True)
    if kwargs:
        raise TypeError(f"paddle.reader.compose got unexpected keyword arguments {sorted(kwargs)}")

    def flat(outputs: tuple) -> tuple:
        return sum((o if isinstance(o, tuple) else (o,) for o in outputs), ())

    def composed() -> Iterator[tuple]:
        its = [r() for r in readers]
        if not check_alignment:
            for outputs in zip(*its):
                yield flat(outputs)
            return
        for outputs in itertools.zip_longest(*its, fillvalue=_END):
            if any(o is _END for o in outputs):
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield flat(outputs)

    return composed


def _thread(target: Callable, *args: Any) -> threading.Thread:
    t = threading.Thread(target=target, args=args, daemon=True)
    t.start()
    return t


def buffered(reader: Reader, size: int) -> Reader:
    """Reads ahead into a queue of `size` samples in a thread."""
    def fill(it: Any, q: queue.Queue) -> None:
        try:
            for sample in it:
                q.put(sample)
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            q.put(_Failure(e))
        q.put(_END)

    def buffered_reader() -> Iterator[Any]:
        q: queue.Queue = queue.Queue(maxsize=size)
        _thread(fill, reader(), q)
        while (item := q.get()) is not _END:
            if isinstance(item, _Failure):
                raise item.error
            yield item

    return buffered_reader


class _Failure:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def firstn(reader: Reader, n: int) -> Reader:
    """At most the first n samples."""
    def first() -> Iterator[Any]:
        yield from itertools.islice(reader(), max(int(n), 0))

    return first


def xmap_readers(mapper: Callable, reader: Reader, process_num: int, buffer_size: int, order: bool = False) -> Reader:
    """mapper applied to the samples by process_num threads; order=True keeps the reader's order."""
    def read(in_q: queue.Queue) -> None:
        try:
            for i, sample in enumerate(reader()):
                in_q.put((i, sample))
        except BaseException as e:  # noqa: BLE001
            in_q.put((-1, _Failure(e)))
        for _ in range(process_num):
            in_q.put(_END)

    def work(in_q: queue.Queue, out_q: queue.Queue) -> None:
        while (item := in_q.get()) is not _END:
            i, sample = item
            try:
                out_q.put((i, sample if isinstance(sample, _Failure) else mapper(sample)))
            except BaseException as e:  # noqa: BLE001
                out_q.put((i, _Failure(e)))
        out_q.put(_END)

    def xreader() -> Iterator[Any]:
        in_q: queue.Queue = queue.Queue(buffer_size)
        out_q: queue.Queue = queue.Queue(buffer_size)
        _thread(read, in_q)
        for _ in range(process_num):
            _thread(work, in_q, out_q)
        pending: dict = {}
        nxt, finished = 0, 0
        while finished < process_num:
            item = out_q.get()
            if item is _END:
                finished += 1
                continue
            i, value = item
            if isinstance(value, _Failure):
                raise value.error
            if not order:
                yield value
                continue
            pending[i] = value
            while nxt in pending:
                yield pending.pop(nxt)
                nxt += 1

    return xreader


def multiprocess_reader(readers: list, use_pipe: bool = True, queue_size: int = 1000) -> Reader:
    """Each reader runs in a forked process; their samples are merged (pipes: in turn; queue: as they come)."""
    if not isinstance(readers, list) or not readers:
        raise TypeError("paddle.reader.multiprocess_reader: readers should be a non-empty list of readers, "
                        f"got {readers!r}")
    ctx = multiprocessing.get_context("fork")

    def to_queue(r: Reader, q: Any) -> None:
        try:
            for sample in r():
                if sample is None:
                    raise ValueError("sample has None")
                q.put(sample)
            q.put(None)
        except BaseException:
            q.put("")
            raise

    def to_pipe(r: Reader, conn: Any) -> None:
        try:
            for sample in r():
                if sample is None:
                    raise ValueError("sample has None!")
                conn.send(json.dumps(sample))
            conn.send(json.dumps(None))
        except BaseException:
            conn.send(json.dumps(""))
            raise
        finally:
            conn.close()

    def queue_reader() -> Iterator[Any]:
        q = ctx.Queue(queue_size)
        procs = [ctx.Process(target=to_queue, args=(r, q), daemon=True) for r in readers]
        for p in procs:
            p.start()
        done = 0
        while done < len(readers):
            sample = q.get()
            if sample is None:
                done += 1
            elif isinstance(sample, str) and sample == "":
                raise ValueError("multiprocess reader raises an exception")
            else:
                yield sample
        for p in procs:
            p.join()

    def pipe_reader() -> Iterator[Any]:
        conns, procs = [], []
        for r in readers:
            parent, child = ctx.Pipe()
            conns.append(parent)
            procs.append(ctx.Process(target=to_pipe, args=(r, child), daemon=True))
            procs[-1].start()
            child.close()
        while conns:
            for conn in list(conns):
                sample = json.loads(conn.recv())
                if sample is None or sample == "":
                    conn.close()
                    conns.remove(conn)
                    if sample == "":
                        raise ValueError("multiprocess reader raises an exception")
                else:
                    yield sample
        for p in procs:
            p.join()

    return pipe_reader if use_pipe else queue_reader


def distributed_batch_reader(batch_reader: Reader) -> Reader:
    """fluid.contrib.distributed_batch_reader: each trainer (PADDLE_TRAINER_ID of PADDLE_TRAINERS_NUM) takes
    its own batch of every group of PADDLE_TRAINERS_NUM consecutive batches; an incomplete last group is
    dropped."""
    import os

    trainers = int(os.environ.get("PADDLE_TRAINERS_NUM", 1))
    trainer_id = int(os.getenv("PADDLE_TRAINER_ID", 0))
    if trainer_id >= trainers:
        raise ValueError(f"distributed_batch_reader: PADDLE_TRAINER_ID ({trainer_id}) must be less than "
                         f"PADDLE_TRAINERS_NUM ({trainers})")

    def reader() -> Iterator[Any]:
        if trainers == 1:
            yield from batch_reader()
            return
        print(f"start data reader (trainers_num: {trainers}, trainer_id: {trainer_id})")
        group: list = []
        for data in batch_reader():
            group.append(data)
            if len(group) == trainers:
                yield group[trainer_id]
                group = []

    return reader


_DECORATORS = (cache, map_readers, buffered, compose, chain, shuffle, ComposeNotAligned, firstn, xmap_readers,
               multiprocess_reader)
for _obj in _DECORATORS:
    export(_obj, f"paddle.reader.{_obj.__name__}", f"paddle.reader.decorator.{_obj.__name__}")
export(batch, "paddle.batch", "paddle.batch.batch", "paddle.fluid.io.batch")
export(distributed_batch_reader, "paddle.fluid.contrib.distributed_batch_reader",
       "paddle.fluid.contrib.reader.distributed_batch_reader",
       "paddle.fluid.contrib.reader.distributed_reader.distributed_batch_reader")
