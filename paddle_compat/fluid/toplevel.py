"""fluid top-level names: DataFeeder (with LoD), and clear UnsupportedAPIError stand-ins with hints for the
parameter-server / custom-op / dataset APIs."""

from __future__ import annotations

from typing import Any

import numpy as np

from paddle_compat.core import dtype as _dt
from paddle_compat.core.errors import UnsupportedAPIError
from paddle_compat.ops.registry import export


class DataFeeder:
    """fluid.DataFeeder(feed_list, place, program=None): turns minibatch rows (one tuple per sample, one item
    per feed variable) into a feed dict; variables with lod_level > 0 get LoDTensors with the sequence
    lengths of the samples."""

    def __init__(self, feed_list, place, program=None):
        from paddle_compat.framework.program import Variable, default_main_program

        self.place = place
        prog = program or default_main_program()
        self.feed_vars = []
        for v in feed_list:
            if isinstance(v, str):
                v = prog.global_block().var(v)
            if not isinstance(v, Variable):
                raise TypeError(f"DataFeeder: feed_list should contain Variables or names, got {type(v).__name__}")
            self.feed_vars.append(v)
        self.feed_names = [v.name for v in self.feed_vars]

    def _convert(self, var, column: list) -> Any:
        from paddle_compat.framework.lod import LoDTensor

        np_dtype = _dt.to_dtype(var.dtype).numpy
        if var.lod_level == 0:
            arr = np.array(column, dtype=np_dtype)
            shape = [d for d in var.shape]
            if shape and shape[0] < 0 and sum(1 for d in shape if d < 0) == 1:
                arr = arr.reshape([len(column)] + shape[1:])
            return arr
        lens, rows = [], []
        for seq in column:
            a = np.array(seq, dtype=np_dtype)
            if a.ndim == 1:
                a = a.reshape(-1, 1) if (len(var.shape) > 1 and var.shape[-1] == 1) or len(var.shape) <= 1 \
                    else a.reshape(len(a), -1)
            lens.append(a.shape[0])
            rows.append(a)
        t = LoDTensor()
        data = np.concatenate(rows, 0) if rows else np.zeros((0,) + tuple(max(d, 1) for d in var.shape[1:]), np_dtype)
        t.set(data, self.place)
        t.set_recursive_sequence_lengths([lens])
        return t

    def feed(self, iterable):
        columns: list[list] = [[] for _ in self.feed_vars]
        for sample in iterable:
            if len(sample) != len(self.feed_vars):
                raise ValueError(
                    f"DataFeeder: each sample must have {len(self.feed_vars)} items ({self.feed_names}), "
                    f"got {len(sample)}")
            for col, item in zip(columns, sample):
                col.append(item)
        return {v.name: self._convert(v, col) for v, col in zip(self.feed_vars, columns)}

    def feed_parallel(self, iterable, num_places=None):
        for batch in iterable:
            yield self.feed(batch)

    def decorate_reader(self, reader, multi_devices, num_places=None, drop_last=True):
        def gen():
            for batch in reader():
                yield self.feed(batch)

        return gen


export(DataFeeder, "paddle.fluid.DataFeeder", "paddle.fluid.data_feeder.DataFeeder")


def load_op_library(lib_filename):
    raise UnsupportedAPIError("paddle.fluid.load_op_library",
                              f"custom C++ operator libraries ({lib_filename!r}) are built against Paddle's C++ "
                              "OpKernel / OpRegistry ABI and cannot be loaded into the torch backend; write the op "
                              "as a Python function over paddle ops, or as a torch C++ extension "
                              "(torch.utils.cpp_extension.load) called from Python")


load_op_library.__paddle_unsupported__ = True  # type: ignore[attr-defined]
export(load_op_library, "paddle.fluid.load_op_library")
