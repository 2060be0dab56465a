"""paddle.io.SubsetRandomSampler: the given indices in a random order (drawn with paddle.randperm, so
paddle.seed makes it reproducible)."""

from __future__ import annotations

from typing import Any, Iterator

import torch

from paddle_compat.paddle2.io.dataloader import Sampler
from paddle_compat.engine.framework.registry import export


class SubsetRandomSampler(Sampler):
    def __init__(self, indices: Any) -> None:
        if len(indices) == 0:
            raise ValueError("paddle.io.SubsetRandomSampler: The length of `indices` in SubsetRandomSampler should be "
                             "greater than 0.")
        super().__init__(None)
        self.indices = indices

    def __iter__(self) -> Iterator[Any]:
        from paddle_compat.engine.ops.tensor.creation import _gen

        for i in torch.randperm(len(self.indices), generator=_gen()).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


export(SubsetRandomSampler, "paddle.io.SubsetRandomSampler")
