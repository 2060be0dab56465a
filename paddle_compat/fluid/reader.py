"""The fluid 1.x non-iterable reader family and DataFeedDesc.

py_reader / create_py_reader_by_data return a reader bound to data variables; `read_file(reader)` gives those
variables to build the network on; `reader.decorate_paddle_reader(...)` (or decorate_tensor_provider /
decorate_sample_generator / decorate_sample_list_generator / decorate_batch_generator) sets the source;
`reader.start()` begins a pass and every `exe.run(program)` that reads the variables and is not fed them takes
the next batch; at the end of the pass exe.run raises `fluid.core.EOFException` and `reader.reset()` readies the
next pass. The batches come from DataLoader.from_generator's GeneratorLoader (paddle_compat/paddle2/io/dataloader.py),
extended here to keep LoD for variables with lod_level > 0. The reader is found through its data variables'
placeholder nodes (meta "py_reader"), so clones of the program (clone(for_test=True)) read from it too, as a
cloned read op does in Paddle. Batches are produced synchronously: capacity and double buffering change nothing.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE, static_entry_point
from paddle_compat.engine.framework import unique_name
from paddle_compat.paddle2.io.dataloader import GeneratorLoader
from paddle_compat.engine.framework.registry import export


class EOFException(Exception):
    """fluid.core.EOFException: the started reader of a program has no batch left (call reader.reset())."""


class _Converter:
    """One feed variable's column of a minibatch (Paddle's DataToLoDTensorConverter): sequences are flattened
    lod_level deep, their lengths kept per level; the leaves become one array of the variable's dtype, reshaped
    to the variable's shape when their ranks differ and the shape has at most one unknown dimension."""

    def __init__(self, place: Any, lod_level: int, shape: Any, dtype: Any) -> None:
        self.place, self.lod_level = place, lod_level
        shape = [int(d) for d in shape] if shape is not None else None
        self.shape = shape if shape is None or sum(1 for d in shape if d < 0) <= 1 else None
        self.dtype = dtype.numpy if hasattr(dtype, "numpy") else _dt.to_dtype(dtype).numpy
        self.data: list = []
        self.lod: list = [[] for _ in range(lod_level)]

    def feed(self, data: Any, level: int = 0) -> None:
        if level == self.lod_level:
            self.data.append(data)
            return
        self.lod[level].append(len(data))
        for item in data:
            self.feed(item, level + 1)

    def done(self, name: str) -> Any:
        from paddle_compat.engine.framework.lod import LoDTensor

        try:
            arr = np.array(self.data, dtype=self.dtype)
        except ValueError as e:
            raise ValueError(f"DataFeeder: the items fed to {name!r} do not form one {self.dtype} array "
                             f"(different lengths at lod_level {self.lod_level}?): {e}") from None
        if self.shape and arr.ndim != len(self.shape):
            try:
                arr = arr.reshape(self.shape)
            except ValueError:
                raise ValueError(f"Reshape error. What is defined in data layer is {self.shape}, but receive "
                                 f"{list(arr.shape)} (variable {name!r})") from None
        t = LoDTensor()
        t.set(arr, self.place)
        if self.lod_level > 0:
            t.set_recursive_sequence_lengths(self.lod)
        return t


class FieldCountError(InvalidArgumentError, AssertionError):
    """A sample with another number of fields than feed variables (Paddle asserts it: AssertionError)."""


class DataFeeder:
    """fluid.DataFeeder(feed_list, place, program=None): minibatch rows (one tuple per sample, one item per
    feed variable) to a feed dict of LoDTensors, as Paddle 1.8: a variable with lod_level n takes n levels of
    nested sequences and gets their lengths as its LoD."""

    def __init__(self, feed_list: list, place: Any, program: Any = None) -> None:
        from paddle_compat.engine.framework.program import Variable, default_main_program

        program = program or default_main_program()
        self.feed_dtypes, self.feed_names, self.feed_shapes, self.feed_lod_level = [], [], [], []
        for v in feed_list:
            if isinstance(v, str):
                v = program.global_block().var(v)
            if not isinstance(v, Variable):
                raise TypeError(f"DataFeeder: Feed list should contain a list of variable, got {type(v).__name__}")
            self.feed_dtypes.append(v.dtype)
            self.feed_names.append(v.name)
            self.feed_lod_level.append(int(v.lod_level))
            self.feed_shapes.append(list(v.shape))
        self.place = place

    def feed(self, iterable: Any) -> dict:
        conv = [_Converter(self.place, lod, shape, dtype)
                for lod, shape, dtype in zip(self.feed_lod_level, self.feed_shapes, self.feed_dtypes)]
        for sample in iterable:
            if len(sample) != len(conv):
                raise FieldCountError(f"DataFeeder: The number of fields in data ({len(sample)}) does not match "
                                 f"len(feed_list) ({len(conv)}): {self.feed_names}")
            for c, item in zip(conv, sample):
                c.feed(item)
        return {name: c.done(name) for name, c in zip(self.feed_names, conv)}

    def _num_places(self, num_places: Any) -> int:
        if num_places is not None:
            return int(num_places)
        from paddle_compat.engine.parallel.places import resolve_places

        return len(resolve_places(None, self.place))

    def feed_parallel(self, iterable: Any, num_places: Any = None) -> Iterator[dict]:
        """One feed dict per place from a list of minibatches (one per place)."""
        batches = list(iterable)
        n = self._num_places(num_places)
        if len(batches) != n:
            raise ValueError("feed_parallel takes multiple mini-batches. Each mini-batch will be feed on each "
                             f"device. The number of devices ({n}) and number of mini-batches ({len(batches)}) "
                             "must be same.")
        for batch in batches:
            yield self.feed(batch)

    def decorate_reader(self, reader: Any, multi_devices: bool, num_places: Any = None,
                        drop_last: bool = True) -> Any:
        def single() -> Iterator[Any]:
            for batch in reader():
                yield self.feed(batch)

        def multi() -> Iterator[Any]:
            n = self._num_places(num_places)
            group: list = []
            for batch in reader():
                group.append(batch)
                if len(group) == n:
                    yield list(self.feed_parallel(group, n))
                    group = []
            if group and not drop_last:
                raise ValueError("The data batch which cannot fit for devices will be dropped is not "
                                 "implementation. Other strategies are not implemented")

        return multi if multi_devices else single


def feed_batches(feed_vars: list, reader: Any) -> Iterator[list]:
    """Each minibatch of a sample-list reader as one LoDTensor per variable (DataFeeder's conversion)."""
    from paddle_compat.engine.core.place import CPUPlace

    feeder = DataFeeder(feed_vars, CPUPlace())
    for samples in reader():
        samples = [s if isinstance(s, (list, tuple)) else (s,) for s in samples]
        if samples and len(samples[0]) != len(feed_vars):
            raise InvalidArgumentError(
                f"DataLoader / py_reader: each sample has {len(samples[0])} fields but the reader feeds "
                f"{len(feed_vars)} variables ({[v.name for v in feed_vars]})")
        fed = feeder.feed(samples)
        yield [fed[v.name] for v in feed_vars]


class _ReaderLoader(GeneratorLoader):
    """GeneratorLoader feeding the reader's variables (DataFeeder's conversion: dtype, shape, LoD)."""

    def __init__(self, feed_vars: list) -> None:
        super().__init__(feed_vars, False, True, True)
        self._vars = feed_vars

    def set_batch_generator(self, reader: Any, places: Any = None) -> _ReaderLoader:
        from paddle_compat.engine.framework.lod import LoDTensor

        def batches() -> Iterator[list]:
            for b in reader():
                items = list(b) if isinstance(b, (list, tuple)) else [b]
                if len(items) != len(self._vars):
                    raise InvalidArgumentError(
                        f"py_reader: a batch has {len(items)} fields but the reader feeds {len(self._vars)} "
                        f"variables ({[v.name for v in self._vars]})")
                yield [x if isinstance(x, LoDTensor) else (x.numpy() if hasattr(x, "numpy") else np.asarray(x))
                       for x in items]

        self._batches = batches
        return self


# NOTE: a program run that reads an unstarted reader waits this long for a first push to its queue (another
# thread may be about to feed it) before saying the reader is not started (tests/fluid/test_misc18.py).
QUEUE_GRACE_S = 0.5


class LoDTensorBlockingQueue:
    """`reader.queue`: the bounded queue a reader with no decorated source reads its batches from. push(batch)
    (a LoDTensorArray or list: one LoDTensor / array per variable) blocks while the queue is full and returns
    False once it is closed; the program's next run takes the oldest batch, blocking while the queue is empty,
    and ends the pass (fluid.core.EOFException) once the queue is closed and empty."""

    def __init__(self, capacity: int) -> None:
        import threading

        self._capacity = max(int(capacity or 1), 1)
        self._items: list = []
        self._closed = self._pushed = False
        self._cond = threading.Condition()

    def push(self, lod_tensor_vec: Any) -> bool:
        with self._cond:
            while len(self._items) >= self._capacity and not self._closed:
                self._cond.wait()
            if self._closed:
                return False
            self._items.append(list(lod_tensor_vec))
            self._pushed = True
            self._cond.notify_all()
            return True

    def pop(self) -> Any:
        """The oldest batch (waiting for one); None once the queue is closed and empty."""
        with self._cond:
            self._cond.wait_for(lambda: self._items or self._closed)
            if not self._items:
                return None
            item = self._items.pop(0)
            self._cond.notify_all()
            return item

    def used(self, wait: float = 0.0) -> bool:
        """Whether anything was pushed or the queue closed, waiting up to `wait` seconds for it."""
        with self._cond:
            return bool(self._cond.wait_for(lambda: self._items or self._closed or self._pushed, wait))


    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    kill = close

    def reopen(self) -> None:
        with self._cond:
            self._items, self._closed, self._pushed = [], False, False

    def size(self) -> int:
        return len(self._items)

    def capacity(self) -> int:
        return self._capacity

    def is_closed(self) -> bool:
        return self._closed

    def wait_for_inited(self, timeout_ms: int = 0) -> bool:
        return True


class PyReader18:
    """What fluid.layers.py_reader / create_py_reader_by_data return (Paddle's reader Variable). Batches come
    from the decorated source once start() is called, else from `queue`."""

    def __init__(self, name: str, feed_vars: list, capacity: int = 1) -> None:
        self.name = name
        self._vars = list(feed_vars)
        self._loader = _ReaderLoader(self._vars)
        self._exhausted = False
        self._queue = LoDTensorBlockingQueue(capacity)
        self._queue_mode = False  # start() with no decorated source: batches come from self.queue
        # as 1.8.5's py_reader: start() runs the decorated source in `thread`, which pushes its batches into
        # `queue` until the source ends or `exited` is set (reset() sets it and joins the thread)
        self.thread: threading.Thread | None = None
        self.exited = False
        self._error: BaseException | None = None
        self._started = False
        ref = weakref.ref(self)
        for v in self._vars:
            v.node.meta["py_reader"] = ref

    @property
    def queue(self) -> LoDTensorBlockingQueue:
        return self._queue

    @property
    def iterable(self) -> bool:
        return False

    # --- sources ---------------------------------------------------------------------------------------
    def decorate_paddle_reader(self, paddle_reader: Any, places: Any = None) -> None:
        """A reader yielding lists of samples (e.g. paddle.batch(...)); each sample a tuple of fields."""
        self._loader.set_sample_list_generator(paddle_reader)

    decorate_sample_list_generator = decorate_paddle_reader

    def decorate_tensor_provider(self, reader: Any, places: Any = None) -> None:
        """A reader yielding whole batches: one numpy array / LoDTensor per variable."""
        self._loader.set_batch_generator(reader)

    decorate_batch_generator = decorate_tensor_provider

    def decorate_sample_generator(self, sample_generator: Any, batch_size: int, drop_last: bool = True,
                                  places: Any = None) -> None:
        self._loader.set_sample_generator(sample_generator, batch_size, drop_last)

    # --- passes ---------------------------------------------------------------------------------------
    def start(self) -> None:
        if self._loader._batches is None:  # fed through self.queue
            self._queue_mode = True
            return
        if self._started:
            raise RuntimeError(f"py_reader {self.name!r} is already started: call reset() after the pass ends "
                               "(fluid.core.EOFException) before start() again")
        self._started = True
        self._error = None
        batches, queue = self._loader._batches, self._queue

        def provide() -> None:
            try:
                for fields in batches():
                    if self.exited or not queue.push(fields) or self.exited:
                        break
            except BaseException as e:  # noqa: BLE001 - handed to the reading run, as Paddle kills the queue
                self._error = e
            finally:
                queue.close()

        self.thread = threading.Thread(target=provide, name=f"py_reader {self.name}", daemon=True)
        self.thread.start()

    def reset(self) -> None:
        if self.thread is not None:
            self.exited = True
            self._queue.close()  # wakes a provider waiting on a full queue
            self.thread.join()
            self.exited = False
        self._started = False
        self._exhausted = False
        self._queue.reopen()
        self._queue_mode = False

    def _next(self) -> dict:
        if self._exhausted:
            raise EOFException(f"py_reader {self.name!r} has no more data: call reader.reset() and start()")
        if self._started:
            fields = self._queue.pop()
            if fields is None:
                self._exhausted = True
                if self._error is not None:
                    err, self._error = self._error, None
                    raise err
                raise EOFException(f"py_reader {self.name!r} has no more data: call reader.reset() and start()")
            return dict(zip((v.name for v in self._vars), fields))
        if self._loader._batches is None and (self._queue_mode or self._queue.used(QUEUE_GRACE_S)):
            self._queue_mode = True
            fields = self._queue.pop()
            if fields is None:
                self._exhausted = True
                raise EOFException(f"py_reader {self.name!r}: its queue is closed and empty; call reader.reset()")
            if len(fields) != len(self._vars):
                raise InvalidArgumentError(f"py_reader {self.name!r}: a pushed batch has {len(fields)} fields but "
                                           f"the reader feeds {len(self._vars)} variables")
            return dict(zip((v.name for v in self._vars), fields))
        raise RuntimeError(
            f"Executor.run: the program reads {[v.name for v in self._vars]} from py_reader {self.name!r}, "
            "which is not started: call reader.start() before the pass, or feed these variables")

    def __repr__(self) -> str:
        return f"py_reader({self.name!r}, vars={[v.name for v in self._vars]})"


class NonIterableGeneratorLoader(PyReader18):
    """DataLoader.from_generator(iterable=False): the same reader, with the loader's set_* method names; a pass is
    start() ... exe.run(program) until fluid.core.EOFException ... reset()."""

    def __init__(self, feed_list: list, capacity: int = 1) -> None:
        if not MODE.static:
            raise RuntimeError("DataLoader.from_generator(iterable=False) feeds a static program; call "
                               "paddle.enable_static() (or use iterable=True)")
        if not feed_list:
            raise ValueError("DataLoader.from_generator(iterable=False) needs feed_list (the data variables to feed)")
        for v in feed_list:
            if getattr(v, "node", None) is None or v.node.op != "placeholder":
                raise InvalidArgumentError(f"DataLoader.from_generator: {getattr(v, 'name', v)!r} in feed_list is "
                                           "not a data variable (make it with fluid.data / paddle.static.data)")
        _install_hook()
        super().__init__(unique_name.generate("generator_loader"), list(feed_list), capacity)

    def set_sample_generator(self, reader: Any, batch_size: int, drop_last: bool = True,
                             places: Any = None) -> NonIterableGeneratorLoader:
        self.decorate_sample_generator(reader, batch_size, drop_last)
        return self

    def set_sample_list_generator(self, reader: Any, places: Any = None) -> NonIterableGeneratorLoader:
        self.decorate_paddle_reader(reader)
        return self

    def set_batch_generator(self, reader: Any, places: Any = None) -> NonIterableGeneratorLoader:
        self.decorate_tensor_provider(reader)
        return self

    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("DataLoader.from_generator(iterable=False) is not iterable: call start(), run the program "
                           "until fluid.core.EOFException, then reset()")


_CACHE: weakref.WeakKeyDictionary[Any, tuple] = weakref.WeakKeyDictionary()


def _readers_of(program: Any) -> list:
    hit = _CACHE.get(program)
    if hit is not None and hit[0] == program._version:
        return hit[1]
    refs = []
    for n in program.global_block().graph.nodes:
        r = n.meta.get("py_reader") if n.op == "placeholder" else None
        if r is not None and r not in refs:
            refs.append(r)
    _CACHE[program] = (program._version, refs)
    return refs


def feed_from_readers(program: Any, feed: dict) -> dict:
    """Executor feed hook: the next batch of every reader the program reads and the feed does not cover."""
    for ref in _readers_of(program):
        reader = ref()
        if reader is None or all(v.name in feed for v in reader._vars):
            continue
        feed = {**feed, **reader._next()}
    return feed


def feeds_per_place_from_readers(compiled: Any, exe: Any, feed: Any) -> Any:
    """Data-parallel feed hook: as in Paddle, each place reads its own batch, so a run takes one batch per place
    from every reader the feed does not cover (a list of feed dicts, one per place). The end of the pass
    (EOFException) comes when the reader has fewer batches left than there are places; those are dropped."""
    from paddle_compat.engine.parallel.places import resolve_places

    if feed is not None and not isinstance(feed, dict):
        return feed
    feed = feed or {}
    readers = [r for r in (ref() for ref in _readers_of(compiled._program))
               if r is not None and not all(v.name in feed for v in r._vars)]
    if not readers:
        return feed
    nplaces = len(resolve_places(compiled._places, exe.place))
    per_place = [dict(feed) for _ in range(nplaces)]
    for reader in readers:
        for f in per_place:
            f.update(reader._next())
    return per_place


def _install_hook() -> None:
    from paddle_compat.engine.static import executor

    if feed_from_readers not in executor.FEED_HOOKS:
        executor.FEED_HOOKS.append(feed_from_readers)
        executor.DP_FEED_HOOKS.append(feeds_per_place_from_readers)


def _static(api: str) -> None:
    static_entry_point()  # 1.8 builds programs by default: a script that never chose dygraph is in static mode
    if not MODE.static:
        raise RuntimeError(f"fluid.layers.{api} builds a static program reader; call paddle.enable_static() "
                           "(in dygraph, iterate a paddle.io.DataLoader instead)")


def py_reader(capacity, shapes, dtypes, lod_levels=None, name=None, use_double_buffer=True):
    """A reader feeding new data variables of `shapes` (batch dim included, -1 for unknown) / `dtypes`."""
    from paddle_compat.engine.static.param import data

    _static("py_reader")
    if len(shapes) != len(dtypes):
        raise ValueError(f"fluid.layers.py_reader: shapes ({len(shapes)}) and dtypes ({len(dtypes)}) must have the "
                         "same length")
    lod_levels = list(lod_levels) if lod_levels is not None else [0] * len(shapes)
    if len(lod_levels) != len(shapes):
        raise ValueError(f"fluid.layers.py_reader: lod_levels ({len(lod_levels)}) must have one entry per shape "
                         f"({len(shapes)})")
    rname = name or unique_name.generate("create_py_reader")
    feed_vars = [data(unique_name.generate(f"{rname}_out"), list(s), d, int(ll))
                 for s, d, ll in zip(shapes, dtypes, lod_levels)]
    _install_hook()
    return PyReader18(rname, feed_vars, capacity)


def create_py_reader_by_data(capacity, feed_list, name=None, use_double_buffer=True):
    """A reader feeding the given data variables (read_file returns them)."""
    _static("create_py_reader_by_data")
    for v in feed_list:
        if v.node is None or v.node.op != "placeholder":
            raise InvalidArgumentError(
                f"fluid.layers.create_py_reader_by_data: {getattr(v, 'name', v)!r} in feed_list is not a data "
                "variable (make it with fluid.data / fluid.layers.data)")
    _install_hook()
    return PyReader18(name or unique_name.generate("create_py_reader"), list(feed_list), capacity)


def double_buffer(reader, place=None, name=None):
    """Batches are produced synchronously on demand, so the double-buffered reader is the reader itself."""
    if not isinstance(reader, PyReader18):
        raise TypeError(f"fluid.layers.double_buffer: reader must come from py_reader / create_py_reader_by_data, "
                        f"got {type(reader).__name__}")
    return reader


def read_file(reader):
    """The reader's data variables (one variable alone, as Paddle)."""
    if not isinstance(reader, PyReader18):
        raise TypeError(f"fluid.layers.read_file: reader must come from py_reader / create_py_reader_by_data, "
                        f"got {type(reader).__name__}")
    return reader._vars[0] if len(reader._vars) == 1 else list(reader._vars)


class PyReader:
    """fluid.io.PyReader(feed_list=None, capacity=None, use_double_buffer=True, iterable=True, return_list=False):
    DataLoader.from_generator under its 1.x name, with the decorate_* source methods."""

    def __init__(self, feed_list=None, capacity=None, use_double_buffer=True, iterable=True, return_list=False):
        from paddle_compat.paddle2.io.dataloader import DataLoader

        self._loader = DataLoader.from_generator(feed_list, capacity, use_double_buffer, iterable, return_list)

    @property
    def queue(self) -> Any:
        q = getattr(self._loader, "queue", None)
        if q is None:
            raise AttributeError("PyReader.queue: an iterable PyReader (iterable=True) has no queue to push to; "
                                 "use iterable=False")
        return q

    @property
    def iterable(self) -> bool:
        return self._loader.iterable

    def __iter__(self) -> Iterator[Any]:
        return iter(self._loader)

    def __call__(self) -> Iterator[Any]:
        return iter(self._loader)

    def _non_iterable(self, api: str) -> Any:
        if self._loader.iterable:
            raise RuntimeError(f"PyReader.{api}() cannot be called when PyReader is iterable")
        return self._loader

    def start(self) -> None:
        self._non_iterable("start").start()

    def reset(self) -> None:
        self._non_iterable("reset").reset()

    def decorate_sample_generator(self, sample_generator, batch_size, drop_last=True, places=None) -> None:
        self._loader.set_sample_generator(sample_generator, batch_size, drop_last, places)

    def decorate_sample_list_generator(self, reader, places=None) -> None:
        self._loader.set_sample_list_generator(reader, places)

    def decorate_batch_generator(self, reader, places=None) -> None:
        self._loader.set_batch_generator(reader, places)


def default_collate_fn(batch: list) -> list:
    """fluid.io.default_collate_fn (1.8): one stacked numpy array per field of the samples."""
    if isinstance(batch[0], np.ndarray):
        return [np.stack(batch, axis=0)]
    return [np.stack(field, axis=0) for field in zip(*batch)]


def get_program_parameter(program: Any) -> list:
    """fluid.io.get_program_parameter: the program's parameters."""
    from paddle_compat.engine.static.io import _is_param

    return [v for v in program.list_vars() if _is_param(v)]


def get_program_persistable_vars(program: Any) -> list:
    """fluid.io.get_program_persistable_vars: the program's persistable variables (parameters, optimizer
    state, ...), not its data variables."""
    from paddle_compat.engine.static.io import _is_persistable

    return [v for v in program.list_vars() if _is_persistable(v)]


export(get_program_parameter, "paddle.fluid.io.get_program_parameter")
export(get_program_persistable_vars, "paddle.fluid.io.get_program_persistable_vars")
export(DataFeeder, "paddle.fluid.DataFeeder", "paddle.fluid.data_feeder.DataFeeder")
export(PyReader, "paddle.fluid.io.PyReader", "paddle.fluid.reader.PyReader")
export(default_collate_fn, "paddle.fluid.io.default_collate_fn", "paddle.fluid.reader.default_collate_fn")


for _fn in (py_reader, create_py_reader_by_data, double_buffer, read_file):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
export(EOFException, "paddle.fluid.core.EOFException")


# --- DataFeedDesc: protobuf text format of paddle.framework.DataFeedDesc (data_feed.proto) ------------------------

# message -> [(field, kind, repeated)] in field-number order; kind: str / int / bool / a message name
_SCHEMA = {
    "DataFeedDesc": [("name", "str", False), ("batch_size", "int", False), ("multi_slot_desc", "MultiSlotDesc", False),
                     ("pipe_command", "str", False), ("thread_num", "int", False), ("rank_offset", "str", False),
                     ("pv_batch_size", "int", False)],
    "MultiSlotDesc": [("slots", "Slot", True)],
    "Slot": [("name", "str", False), ("type", "str", False), ("is_dense", "bool", False), ("is_used", "bool", False),
             ("shape", "int", True)],
}
_DEFAULTS = {"batch_size": 32, "pv_batch_size": 32, "is_dense": False, "is_used": False, "thread_num": 0}


class _Msg:
    """A proto2 message: attribute access with defaults; `_set` keeps which fields are present."""

    def __init__(self, kind: str) -> None:
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_values", {})

    def _field(self, name: str) -> tuple:
        for f in _SCHEMA[self._kind]:
            if f[0] == name:
                return f
        raise AttributeError(f'Message type "paddle.framework.{self._kind}" has no field named "{name}"')

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        _, kind, rep = self._field(name)
        vals = self._values
        if rep:
            return vals.setdefault(name, [])
        if name in vals:
            return vals[name]
        if kind in _SCHEMA:
            return vals.setdefault(name, _Msg(kind))
        return _DEFAULTS.get(name, "" if kind == "str" else 0)

    def __setattr__(self, name: str, value: Any) -> None:
        _, kind, rep = self._field(name)
        if rep or kind in _SCHEMA:
            raise AttributeError(f"assignment to the {'repeated' if rep else 'message'} field {name!r} is not allowed")
        self._values[name] = _check_scalar(kind, value, name)

    def _lines(self, indent: str) -> list:
        out = []
        for name, kind, rep in _SCHEMA[self._kind]:
            if name not in self._values:
                continue
            for v in (self._values[name] if rep else [self._values[name]]):
                if kind in _SCHEMA:
                    out += [f"{indent}{name} {{"] + v._lines(indent + "  ") + [f"{indent}}}"]
                else:
                    out.append(f"{indent}{name}: {_format(kind, v)}")
        return out


def _check_scalar(kind: str, value: Any, name: str) -> Any:
    ok = {"str": isinstance(value, str), "bool": isinstance(value, bool),
          "int": isinstance(value, (int, np.integer)) and not isinstance(value, bool)}[kind]
    if not ok:
        raise TypeError(f"DataFeedDesc: field {name!r} expects {kind}, got {value!r}")
    return int(value) if kind == "int" else value


def _format(kind: str, v: Any) -> str:
    if kind == "bool":
        return "true" if v else "false"
    if kind == "int":
        return str(int(v))
    esc = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return f'"{esc}"'


def _tokens(text: str) -> Iterator[tuple]:
    import re

    pat = re.compile(r'\s+|#[^\n]*|(?P<str>"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')|(?P<p>[{}:;,<>])|'
                     r"(?P<w>[-+\w.]+)|(?P<bad>.)")
    line = 1
    for m in pat.finditer(text):
        kind = m.lastgroup
        if kind == "bad":
            raise ValueError(f"{line}: DataFeedDesc: unexpected character {m.group()!r}")
        if kind is not None:
            yield kind, m.group(), line
        line += m.group().count("\n")


def _unquote(s: str) -> str:
    import codecs

    return codecs.decode(s[1:-1].encode("latin-1", "backslashreplace"), "unicode_escape")


def _parse(msg: _Msg, toks: list, pos: int, closing: str | None) -> int:
    while pos < len(toks):
        kind, tok, line = toks[pos]
        if closing is not None and tok == closing:
            return pos + 1
        if kind != "w":
            raise ValueError(f"{line}: DataFeedDesc: expected a field name, got {tok!r}")
        try:
            _, fkind, rep = msg._field(tok)
        except AttributeError as e:
            raise ValueError(f"{line}: {e}") from None
        pos += 1
        if fkind in _SCHEMA:
            if pos < len(toks) and toks[pos][1] == ":":
                pos += 1
            if pos >= len(toks) or toks[pos][1] not in ("{", "<"):
                raise ValueError(f"{line}: DataFeedDesc: expected '{{' after {tok!r}")
            sub = _Msg(fkind)
            pos = _parse(sub, toks, pos + 1, "}" if toks[pos][1] == "{" else ">")
            if rep:
                msg._values.setdefault(tok, []).append(sub)
            else:
                msg._values[tok] = sub
        else:
            if pos >= len(toks) or toks[pos][1] != ":":
                raise ValueError(f"{line}: DataFeedDesc: expected ':' after {tok!r}")
            if pos + 1 >= len(toks):
                raise ValueError(f"{line}: DataFeedDesc: missing value of {tok!r}")
            vkind, v, vline = toks[pos + 1]
            pos += 2
            try:
                if fkind == "str":
                    if vkind != "str":
                        raise ValueError
                    val: Any = _unquote(v)
                elif fkind == "bool":
                    if v not in ("true", "false", "True", "False", "t", "f", "1", "0"):
                        raise ValueError
                    val = v in ("true", "True", "t", "1")
                else:
                    val = int(v, 0)
            except ValueError:
                raise ValueError(f"{vline}: DataFeedDesc: invalid {fkind} value {v!r} for field {tok!r}") from None
            if rep:
                msg._values.setdefault(tok, []).append(val)
            else:
                msg._values[tok] = val
        if pos < len(toks) and toks[pos][1] in (";", ","):
            pos += 1
    if closing is not None:
        raise ValueError(f"DataFeedDesc: missing {closing!r} at the end of the text")
    return pos


class DataFeedDesc:
    """fluid.DataFeedDesc(proto_file): the data feed description in protobuf text format (data_feed.proto's
    DataFeedDesc: name, batch_size, multi_slot_desc { slots { name type is_dense is_used shape } },
    pipe_command (default "cat"), thread_num, rank_offset, pv_batch_size); desc() prints it back as Paddle
    (protobuf's MessageToString) does."""

    def __init__(self, proto_file):
        self.proto_desc = _Msg("DataFeedDesc")
        self.proto_desc.pipe_command = "cat"
        with open(proto_file, "r") as f:
            _parse(self.proto_desc, list(_tokens(f.read())), 0, None)
        if self.proto_desc.name == "MultiSlotDataFeed":
            self.__name_to_index = {slot.name: i for i, slot in enumerate(self.proto_desc.multi_slot_desc.slots)}

    def set_batch_size(self, batch_size):
        self.proto_desc.batch_size = batch_size

    def _slots(self, api: str, names: list) -> list:
        if self.proto_desc.name != "MultiSlotDataFeed":
            raise ValueError(f"Only MultiSlotDataFeed needs {api}, please check your datafeed.proto")
        slots = self.proto_desc.multi_slot_desc.slots
        for n in names:
            if n not in self.__name_to_index:
                raise KeyError(f"DataFeedDesc.{api}: no slot named {n!r}; slots: {list(self.__name_to_index)}")
        return [slots[self.__name_to_index[n]] for n in names]

    def set_dense_slots(self, dense_slots_name):
        for s in self._slots("set_dense_slots", dense_slots_name):
            s.is_dense = True

    def set_use_slots(self, use_slots_name):
        for s in self._slots("set_use_slots", use_slots_name):
            s.is_used = True

    def desc(self):
        lines = self.proto_desc._lines("")
        return "\n".join(lines) + "\n" if lines else ""


export(DataFeedDesc, "paddle.fluid.DataFeedDesc")
