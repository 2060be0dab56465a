"""SelectedRows: Paddle's sparse row-set value (rows, value [len(rows), width], height).

In Paddle 1.x / 2.x static graphs the gradient of an embedding weight looked up with is_sparse=True is a
SelectedRows: `rows` are the looked-up ids in lookup order (duplicates kept), `value` the output gradient of
each lookup, `height` the vocabulary size. We keep such a gradient dense where the program reads it as a
tensor (optimizers, clipping, regularization: the numbers are the same as Paddle's sparse kernels, which
update every row present and leave the others, i.e. add zero), and build this value only where a script asks
for the rows themselves (`fluid.layers.merge_selected_rows`, `get_tensor_from_selected_rows`; see
engine/static/backward.py `selected_rows_node`). Runtime values of those graph nodes are `SelectedRowsValue`s.
"""

from __future__ import annotations

from typing import NamedTuple

import torch


class SelectedRowsValue(NamedTuple):
    rows: torch.Tensor  # int64 [n]
    value: torch.Tensor  # [n, width]
    height: int

    def to_dense(self) -> torch.Tensor:
        out = self.value.new_zeros((self.height,) + tuple(self.value.shape[1:]))
        return out.index_add(0, self.rows, self.value)


def merge_add(sr: SelectedRowsValue) -> SelectedRowsValue:
    """Paddle's MergeAdd: one row per distinct id, ascending, the values of equal ids summed."""
    rows, inverse = torch.unique(sr.rows, sorted=True, return_inverse=True)
    value = sr.value.new_zeros((rows.numel(),) + tuple(sr.value.shape[1:])).index_add(0, inverse, sr.value)
    return SelectedRowsValue(rows, value, sr.height)
