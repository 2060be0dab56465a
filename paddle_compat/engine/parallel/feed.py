"""Feed split and fetch merge of a data-parallel run, with Paddle 1.8.5's exact rules and error texts.

Split (`ParallelExecutor::FeedAndSplitTensorIntoLocalScopes` + `LoDTensor::SplitLoDTensor`), for a dict feed:
- a value of B rows goes to the places as a **ceil split**: step = ceil(B / P), chunk i = rows
  [i*step, min((i+1)*step, B)), so there are ceil(B / step) chunks (3 rows on 2 places: [0,1], [2]; 10 on 4:
  3,3,3,1). A LoDTensor with LoD is split by top-level sequences the same way. B == 0 gives P empty chunks;
  a 0-d value gives one chunk.
- a non-persistable value whose chunk count is not P is an error (PreconditionNotMet). Because of the ceil
  split this also rejects some B > P (B = 5, 6, 9 on 4 places) and the message reports the *chunk count*,
  not B: both verified on 1.8.5 (tests/goldens dp_fluid18 `splits`). A graph without cross-place ops (no
  gradient all-reduce, no sync_batch_norm: an inference program, or training without loss_name) instead
  runs on the first `chunks` places only (Paddle's AllowPartialFeed / IsDataParallelInferenceGraph);
  then every non-persistable feed must give the same number of chunks.
- a persistable value (e.g. a fed learning rate) of one row is copied to every place.
- Paddle walks the feed as a C++ `unordered_map`, which for a handful of names visits them in reverse
  insertion order; we check in that order so the variable named by the error is the one Paddle names.
A list feed is one dict per place, not split: each element must be a dict (TypeError), and there must be one
per place (Paddle's UnimplementedError that tells DataLoader users to set drop_last=True; ours is also a
ValueError, as Paddle's docs promise).

Merge (`FetchOpHandle::WaitAndMergeCPUFetchVars`): each fetched value is concatenated over the places on
dim 0 (a loss of shape [1] comes back as [places], a parameter as stacked copies); `return_merged=False`
returns one list per fetch with one value per place.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from paddle_compat.engine.framework.lod import LoDTensor
from paddle_compat.engine.framework.tensor import Tensor


class FeedListLengthError(UnimplementedError, ValueError):
    """A list feed whose length is not the number of places (Paddle: EnforceNotMet / UnimplementedError)."""


DROP_LAST_HINT = (" Hint: drop the last incomplete batch (DataLoader / batch reader with drop_last=True), or feed"
                  " a batch of B rows where ceil(B / ceil(B / P)) == P, e.g. a multiple of the number of places P.")


def ceil_split_bounds(n: int, places: int) -> list[tuple[int, int]]:
    """Row ranges of Paddle's SplitLoDTensor for n rows (or sequences) over `places` places."""
    if n == 0:
        return [(0, 0)] * places
    step = math.ceil(n / places)
    return [(i * step, min((i + 1) * step, n)) for i in range(math.ceil(n / step))]


def _as_torch(value: Any) -> tuple[Any, list]:
    """(splittable value, lod) without copying: numpy arrays and torch tensors are sliced as they are."""
    if isinstance(value, LoDTensor):
        return value._check(), value.lod()
    if isinstance(value, Tensor):
        return value._t.detach(), []
    if isinstance(value, (np.ndarray, torch.Tensor)):
        return value, []
    return np.asarray(value), []


def _split_one(value: Any, places: int) -> list[Any]:
    arr, lod = _as_torch(value)
    if arr.ndim == 0:
        return [value]
    if lod:
        out = []
        for a, b in ceil_split_bounds(len(lod[0]) - 1, places):
            levels = []
            for level in lod:  # each level's offsets index the next level; the last indexes rows
                seg = level[a:b + 1]
                levels.append([o - seg[0] for o in seg])
                a, b = seg[0], seg[-1]
            rows = arr[a:b]
            sub = LoDTensor._from_torch(rows if isinstance(rows, torch.Tensor) else torch.as_tensor(rows))
            sub.set_lod(levels)
            out.append(sub)
        return out
    return [arr[a:b] for a, b in ceil_split_bounds(arr.shape[0], places)]


def split_feed(feed: dict, block: Any, nplaces: int, kind: str, allow_partial: bool) -> list[dict]:
    """One feed dict per active place (see the module docstring); raises Paddle's errors."""
    per_name: dict[str, list[Any]] = {}
    nonpersistable_len = -1
    for name in reversed(list(feed)):
        var = block.vars.get(name)
        if var is None:  # Paddle 1.8's ParallelExecutor feed: global_block().var(name) raises ValueError
            raise InvalidArgumentError(
                f"CompiledProgram.with_data_parallel: the feed name {name!r} is not a variable of the program "
                f"(var {name} not in this block)")
        persistable = bool(var.persistable)
        chunks = _split_one(feed[name], nplaces)
        if not persistable and len(chunks) != nplaces and not allow_partial:
            msg = (f"The number({len(chunks)}) of samples[{name}] of current batch is less than the "
                   f"count({nplaces}) of devices({kind}), currently, it is not allowed. ")
            if kind == "CPU":
                msg += ("You should set the environment variable CPU_NUM in the system to determine the "
                        "number of devices you need.")
            raise PreconditionNotMetError(msg + DROP_LAST_HINT)
        if persistable:
            if len(chunks) == 1:
                chunks = chunks * nplaces
            if len(chunks) != nplaces and not allow_partial:
                raise PreconditionNotMetError(
                    f"The number({len(chunks)}) of samples[{name}] of the current batch does not match the "
                    f"count({nplaces}) of devices({kind}). Because that {name} is a persistable variable, you can "
                    f"feed just one sample, in that case, the input sample will be copied in {nplaces} copies and "
                    f"be sent to different places separately. If you need that different place has different "
                    f"value, you should feed {nplaces} samples."
                )
        elif allow_partial:
            if nonpersistable_len not in (-1, len(chunks)):
                raise InvalidArgumentError("The feeded number of different non-persistable variables should be the same")
            nonpersistable_len = len(chunks)
        per_name[name] = chunks
    active = nonpersistable_len if nonpersistable_len != -1 else nplaces
    if any(len(c) < active for c in per_name.values()):
        raise InvalidArgumentError(
            "The feeded number of persistable variables should not be less than non-persistable variables")
    order = list(feed)
    return [{n: per_name[n][i] for n in order} for i in range(active)]


def check_feed_list(feed: list | tuple, nplaces: int, allow_partial: bool) -> list[dict]:
    for each in feed:
        if not isinstance(each, dict):
            raise TypeError("Each element of feed list should be a dict")
    n = len(feed)
    if allow_partial and n > nplaces:
        raise InvalidArgumentError("The feed tensor number exceeds the device number")
    if n != nplaces and not (allow_partial and 0 < n < nplaces):
        raise FeedListLengthError(
            f"The feed data number {n} does not match the device number {nplaces}. If you are using DataLoader to "
            "feed data, this may be because you set drop_last=False in training network. Currently, "
            "drop_last=False for DataLoader is not supported for training network. Please set drop_last=True "
            "when defining DataLoader.\n"
            f"  [Hint: Expected tensors.size() == member_->local_scopes_.size(), but received tensors.size():{n} "
            f"!= member_->local_scopes_.size():{nplaces}.]"
        )
    return list(feed)


def merge_fetch(name: str, values: list[torch.Tensor]) -> torch.Tensor:
    """Concatenate one fetched variable's per-place values on dim 0 (0-d values count as [1])."""
    vals = [v.detach().reshape(1) if v.dim() == 0 else v.detach() for v in values]
    vals = [v.cpu() if v.device.type != "cpu" else v for v in vals]
    if len(vals) == 1:
        return vals[0].clone()
    tail = vals[0].shape[1:]
    for v in vals[1:]:
        if v.shape[1:] != tail:
            raise InvalidArgumentError(
                f"Cannot merge the fetched variable {name!r} over the places: its shapes "
                f"{[list(x.shape) for x in vals]} differ beyond dim 0. Please set return_merged = False "
                "(exe.run(..., return_merged=False)) to get one value per place."
            )
    return torch.cat(vals, 0)
