"""fluid.dataset: DatasetFactory, QueueDataset, InMemoryDataset (FileInstantDataset; BoxPSDataset raises), the
MultiSlot text format, and Executor.train_from_dataset / infer_from_dataset (`run_from_dataset`).

MultiSlot text: one instance per line; for each slot given to set_use_var, in that order, the number of values
then the values (floats for float32 variables, integer ids for int64 ones). Each file is read through
`pipe_command` (default 'cat'). A batch is up to batch_size instances, read across files in filelist order; an
id slot (lod_level 1) becomes a [n, 1] int64 LoDTensor with one sequence per instance, a dense slot
(lod_level 0) a tensor of the variable's shape (its -1 dimension inferred).

run_from_dataset runs the program once per batch, in this process, one batch after the other: the `thread`
argument changes nothing, and the numbers are those of Paddle with thread=1. At the first batch and every
print_period batches after it, it prints each fetch variable as Paddle's C++ worker does (`<fetch_info>\\t<name>\\t\\tlod: ...\\n\\tdim: ...`).
local_shuffle / global_shuffle (one trainer) shuffle the instances in memory with Python's `random`.
"""

from __future__ import annotations

import random
import shlex
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.fluid.reader import _Msg
from paddle_compat.engine.framework.registry import export, partial

_SLOT_TYPES = {"float32": "float", "int64": "uint64"}


class DatasetBase:
    """What every fluid dataset shares: the data feed description, the file list and the reading."""

    def __init__(self) -> None:
        self.proto_desc = _Msg("DataFeedDesc")
        self.proto_desc.pipe_command = "cat"
        self.thread_num = 1
        self.filelist: list = []
        self._use_vars: list = []
        self.fea_eval = False

    # --- description -------------------------------------------------------------------------------------
    def set_pipe_command(self, pipe_command: str) -> None:
        self.proto_desc.pipe_command = pipe_command

    def set_rank_offset(self, rank_offset: str) -> None:
        self.proto_desc.rank_offset = rank_offset

    def set_batch_size(self, batch_size: int) -> None:
        self.proto_desc.batch_size = batch_size

    def set_pv_batch_size(self, pv_batch_size: int) -> None:
        self.proto_desc.pv_batch_size = pv_batch_size

    def set_thread(self, thread_num: int) -> None:
        self.thread_num = thread_num

    def set_filelist(self, filelist: list) -> None:
        self.filelist = list(filelist)

    def set_use_var(self, var_list: list) -> None:
        for var in var_list:
            dtype = _dt.to_dtype(var.dtype).name
            if dtype not in _SLOT_TYPES:
                raise ValueError("Currently, fluid.dataset only supports dtype=float32 and dtype=int64 "
                                 f"(variable {var.name!r} is {dtype})")
            slot = _Msg("Slot")
            slot.is_used = True
            slot.name = var.name
            if var.lod_level == 0:
                slot.is_dense = True
                slot.shape.extend(int(d) for d in var.shape)
            slot.type = _SLOT_TYPES[dtype]
            self.proto_desc.multi_slot_desc.slots.append(slot)
            self._use_vars.append(var)

    def set_hdfs_config(self, fs_name: str, fs_ugi: str) -> None:
        raise UnsupportedAPIError("paddle.fluid.dataset.DatasetBase.set_hdfs_config", "HDFS is not supported; "
                                  "copy the files locally and use set_filelist")

    def set_download_cmd(self, download_cmd: str) -> None:
        self._download_cmd = download_cmd

    def set_fea_eval(self, record_candidate_size: int, fea_eval: bool = True) -> None:
        self.fea_eval = fea_eval

    def desc(self) -> str:
        """The data feed description in protobuf text format, as Paddle prints it."""
        lines = self.proto_desc._lines("")
        return "\n".join(lines) + "\n" if lines else ""

    # --- reading -----------------------------------------------------------------------------------------
    def _lines_of(self, path: str) -> Iterator[str]:
        cmd = self.proto_desc.pipe_command
        if cmd.strip() == "cat":
            with open(path) as f:
                yield from f
            return
        with open(path, "rb") as f:
            out = subprocess.run(cmd, shell=True, stdin=f, stdout=subprocess.PIPE, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"fluid.dataset: pipe_command {cmd!r} failed on {shlex.quote(path)} "
                               f"(exit status {out.returncode})")
        yield from out.stdout.decode().splitlines()

    def _parse(self, line: str, where: str) -> list:
        tokens = line.split()
        pos, out = 0, []
        for var in self._use_vars:
            if pos >= len(tokens):
                raise InvalidArgumentError(f"fluid.dataset: {where}: the line ends before slot {var.name!r}")
            n = int(tokens[pos])
            if n <= 0:
                raise InvalidArgumentError(f"fluid.dataset: {where}: slot {var.name!r} has {n} values; the number "
                                           "of ids can not be zero, you need padding it in data generator")
            vals = tokens[pos + 1:pos + 1 + n]
            if len(vals) != n:
                raise InvalidArgumentError(f"fluid.dataset: {where}: slot {var.name!r} announces {n} values, the "
                                           f"line has {len(vals)}")
            is_float = _dt.to_dtype(var.dtype).name == "float32"
            out.append(np.array([float(v) for v in vals] if is_float else [int(v) for v in vals],
                                dtype="float32" if is_float else "int64"))
            pos += 1 + n
        return out

    def _instances(self) -> Iterator[list]:
        if not self._use_vars:
            raise InvalidArgumentError("fluid.dataset: call set_use_var(...) before reading the dataset")
        for path in self.filelist:
            for i, line in enumerate(self._lines_of(path)):
                if line.strip():
                    yield self._parse(line, f"{path}:{i + 1}")

    def _batches(self) -> Iterator[dict]:
        size = max(int(self.proto_desc.batch_size), 1)
        buf: list = []
        for inst in self._source():
            buf.append(inst)
            if len(buf) == size:
                yield self._feed(buf)
                buf = []
        if buf:
            yield self._feed(buf)

    def _source(self) -> Iterator[list]:
        return self._instances()

    def _feed(self, instances: list) -> dict:
        from paddle_compat.engine.framework.lod import LoDTensor

        feed = {}
        for k, var in enumerate(self._use_vars):
            cols = [inst[k] for inst in instances]
            data = np.concatenate(cols)
            if var.lod_level == 0:
                shape = [int(d) for d in var.shape]
                if shape.count(-1) == 1:
                    known = int(np.prod([d for d in shape if d != -1]))
                    shape[shape.index(-1)] = data.size // max(known, 1)
                feed[var.name] = data.reshape(shape)
            else:
                t = LoDTensor()
                t.set(data.reshape(-1, 1), None)
                t.set_recursive_sequence_lengths([[len(c) for c in cols]])
                feed[var.name] = t
        return feed


class QueueDataset(DatasetBase):
    """Reads its files while the program runs (MultiSlotDataFeed)."""

    def __init__(self) -> None:
        super().__init__()
        self.proto_desc.name = "MultiSlotDataFeed"

    def local_shuffle(self) -> None:
        raise NotImplementedError("QueueDataset does not support local shuffle, please use InMemoryDataset for "
                                  "local_shuffle")

    def global_shuffle(self, fleet: Any = None) -> None:
        raise NotImplementedError("QueueDataset does not support global shuffle, please use InMemoryDataset for "
                                  "global_shuffle")


class FileInstantDataset(QueueDataset):
    def __init__(self) -> None:
        super().__init__()
        self.proto_desc.name = "MultiSlotFileInstantDataFeed"

    def local_shuffle(self) -> None:
        raise NotImplementedError("FileInstantDataset does not support local shuffle, please use InMemoryDataset "
                                  "for local_shuffle")

    def global_shuffle(self, fleet: Any = None) -> None:
        raise NotImplementedError("FileInstantDataset does not support global shuffle, please use "
                                  "InMemoryDataset for global_shuffle")


class InMemoryDataset(DatasetBase):
    """Loads its files into memory (load_into_memory), where they can be shuffled; reads only what is loaded."""

    def __init__(self) -> None:
        super().__init__()
        self.proto_desc.name = "MultiSlotInMemoryDataFeed"
        self._memory: list = []
        self._shuffled = 0
        self._after_pass = False
        self.queue_num = None
        self.parse_ins_id = self.parse_content = self.parse_logkey = False
        self.merge_by_sid, self.enable_pv_merge, self.merge_by_lineid = True, False, False
        self.fleet_send_batch_size = self.fleet_send_sleep_seconds = None

    def set_feed_type(self, data_feed_type: str) -> None:
        self.proto_desc.name = data_feed_type

    def set_queue_num(self, queue_num: int) -> None:
        self.queue_num = queue_num

    def set_parse_ins_id(self, parse_ins_id: bool) -> None:
        self.parse_ins_id = parse_ins_id

    def set_parse_content(self, parse_content: bool) -> None:
        self.parse_content = parse_content

    def set_parse_logkey(self, parse_logkey: bool) -> None:
        self.parse_logkey = parse_logkey

    def set_merge_by_sid(self, merge_by_sid: bool) -> None:
        self.merge_by_sid = merge_by_sid

    def set_enable_pv_merge(self, enable_pv_merge: bool) -> None:
        self.enable_pv_merge = enable_pv_merge

    def set_fleet_send_batch_size(self, fleet_send_batch_size: int = 1024) -> None:
        self.fleet_send_batch_size = fleet_send_batch_size

    def set_fleet_send_sleep_seconds(self, fleet_send_sleep_seconds: int = 0) -> None:
        self.fleet_send_sleep_seconds = fleet_send_sleep_seconds

    def load_into_memory(self) -> None:
        self._memory = list(self._instances())
        self._after_pass = False

    def preload_into_memory(self, thread_num: Any = None) -> None:
        self.load_into_memory()

    def wait_preload_done(self) -> None:
        pass

    def local_shuffle(self) -> None:
        random.shuffle(self._memory)

    def global_shuffle(self, fleet: Any = None, thread_num: int = 12) -> None:
        if fleet is not None and getattr(fleet, "worker_num", lambda: 1)() > 1:
            raise UnsupportedAPIError("paddle.fluid.dataset.InMemoryDataset.global_shuffle",
                                      "shuffling across several trainers is not supported; with one trainer it "
                                      "shuffles in memory")
        random.shuffle(self._memory)
        self._shuffled = len(self._memory)

    def release_memory(self) -> None:
        self._memory = []

    def get_memory_data_size(self, fleet: Any = None) -> int:
        """The instances loaded; 0 after a training pass until the next one, as Paddle counts (its pass moves
        them to another channel)."""
        return 0 if self._after_pass else len(self._memory)

    def get_shuffle_data_size(self, fleet: Any = None) -> int:
        return self._shuffled

    def _source(self) -> Iterator[list]:
        yield from self._memory
        self._after_pass = True


class BoxPSDataset(InMemoryDataset):
    def __init__(self) -> None:
        raise UnsupportedAPIError("paddle.fluid.dataset.BoxPSDataset", "BoxPS (Baidu's GPU parameter server) is "
                                  "not available; use InMemoryDataset")


_CLASSES = {c.__name__: c for c in (QueueDataset, InMemoryDataset, FileInstantDataset, BoxPSDataset)}


class DatasetFactory:
    """DatasetFactory().create_dataset('QueueDataset' | 'InMemoryDataset' | 'FileInstantDataset')."""

    def create_dataset(self, datafeed_class: str = "QueueDataset") -> DatasetBase:
        cls = _CLASSES.get(datafeed_class)
        if cls is None:
            raise ValueError(f"datafeed class {datafeed_class} does not exist")
        return cls()


class DatasetLoader:
    """DataLoader.from_dataset(dataset, places, drop_last=True): each batch of the dataset as a list holding
    one feed dict (the batches are not split over places); drop_last drops a last batch smaller than
    batch_size."""

    def __init__(self, dataset: Any, places: Any, drop_last: bool = True) -> None:
        from paddle_compat.engine.core.mode import MODE

        if not isinstance(dataset, DatasetBase):
            raise TypeError(f"DataLoader.from_dataset: dataset must be type of DatasetBase, got "
                            f"{type(dataset).__name__}")
        if not MODE.static:
            raise RuntimeError("DatasetLoader is not supported in dygraph mode yet")
        self._dataset, self._drop_last = dataset, drop_last

    def __iter__(self) -> Iterator[list]:
        size = max(int(self._dataset.proto_desc.batch_size), 1)
        for feed in self._dataset._batches():
            first = next(iter(feed.values()))
            n = len(first.recursive_sequence_lengths()[0]) if hasattr(first, "recursive_sequence_lengths") \
                and first.recursive_sequence_lengths() else len(first)
            if self._drop_last and n < size:
                continue
            yield [feed]


# --- Executor.train_from_dataset / infer_from_dataset ------------------------------------------------------

_TYPE_NAMES = {"float32": "float", "float64": "double", "int64": "int64_t", "int32": "int", "bool": "bool",
               "float16": "float16", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t"}


def format_var(info: str, name: str, value: Any) -> str:
    """One fetch variable as Paddle's worker prints it (platform::PrintVar)."""
    arr = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
    lod = value.lod() if hasattr(value, "lod") else []
    lod_text = "{" + ", ".join("{" + ", ".join(str(int(o)) for o in level) + "}" for level in lod) + "}"
    flat = arr.reshape(-1)
    data = " ".join(format(float(v), ".6g") if arr.dtype.kind == "f" else str(v) for v in flat)
    dims = ", ".join(str(d) for d in arr.shape)
    return (f"{info}\t{name}\t\tlod: {lod_text}\n\tdim: {dims}\n\tlayout: NCHW\n"
            f"\tdtype: {_TYPE_NAMES.get(arr.dtype.name, arr.dtype.name)}\n\tdata: [{data}]\n\t")


def run_from_dataset(exe: Any, program: Any = None, dataset: Any = None, scope: Any = None, thread: int = 0,
                     debug: bool = False, fetch_list: Any = None, fetch_info: Any = None, print_period: int = 100,
                     fetch_handler: Any = None) -> None:
    from paddle_compat.engine.framework.program import default_main_program
    from paddle_compat.engine.static.compiler import CompiledProgram

    if dataset is None:
        raise RuntimeError("dataset is need and should be initialized")
    if not isinstance(dataset, DatasetBase):
        raise TypeError(f"Executor.train_from_dataset: dataset should be a fluid dataset (DatasetFactory()."
                        f"create_dataset(...)), got {type(dataset).__name__}")
    fetch_list = list(fetch_list or [])
    fetch_info = list(fetch_info or [])
    if len(fetch_list) != len(fetch_info):
        raise AssertionError(f"Executor.train_from_dataset: fetch_list ({len(fetch_list)}) and fetch_info "
                             f"({len(fetch_info)}) must have the same length")
    program = default_main_program() if program is None else program
    if isinstance(program, CompiledProgram):
        program = program._program
    names = [v if isinstance(v, str) else v.name for v in fetch_list]
    handler_vars = getattr(fetch_handler, "var_dict", None) or {}
    last_handled = time.time()
    for step, feed in enumerate(dataset._batches(), 1):
        outs = exe.run(program, feed=feed, fetch_list=names + [v.name for v in handler_vars.values()],
                       scope=scope, return_numpy=False)
        if (step - 1) % max(int(print_period), 1) == 0:  # Paddle 1.8.5 prints batches 1, 1 + period, ...
            for info, name, value in zip(fetch_info, names, outs):
                print(format_var(info, name, value), flush=True)
        if fetch_handler is not None and time.time() - last_handled >= getattr(fetch_handler, "period_secs", 60):
            fetch_handler.handler({k: np.asarray(v) for k, v in zip(handler_vars, outs[len(names):])})
            last_handled = time.time()
    return None


partial("paddle.fluid.dataset.InMemoryDataset", "batches run one after another in this process (set_thread changes "
        "nothing); global_shuffle shuffles for one trainer only; dense slots carry no LoD")
partial("paddle.fluid.dataset.QueueDataset", "batches run one after another in this process (set_thread changes "
        "nothing); no HDFS; dense slots carry no LoD")
# real 1.8.5 has these at paddle.fluid too (`from .dataset import *`), a path its recorded surface lacks
for _cls in (DatasetFactory, InMemoryDataset, QueueDataset):
    export(_cls, f"paddle.fluid.dataset.{_cls.__name__}", f"paddle.fluid.{_cls.__name__}")
BoxPSDataset.__paddle_unsupported__ = True  # type: ignore[attr-defined]
for _cls in (DatasetBase, FileInstantDataset, BoxPSDataset):
    export(_cls, f"paddle.fluid.dataset.{_cls.__name__}")
export(DatasetLoader, "paddle.fluid.reader.DatasetLoader")
