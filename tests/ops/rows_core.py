"""Rows for the ops the static core needs (the foundation issue). Other rows_*.py files hold the breadth."""

from __future__ import annotations

import numpy as np

from optable import OpCase, Sample, rnd


def _s(*arrays, **kwargs):
    def make(rng):
        return [Sample(tuple(a(rng) for a in arrays), kwargs, id="0")]

    return make


ROWS = [
    OpCase("paddle.add", _s(rnd([3, 4]), rnd([4])), ref=np.add, method="add", grad=True),
    OpCase("paddle.matmul", _s(rnd([3, 4]), rnd([4, 5])), ref=np.matmul, method="matmul", grad=True),
    OpCase("paddle.tanh", _s(rnd([3, 4])), ref=np.tanh, method="tanh", inplace="tanh_", grad=True),
    OpCase("paddle.nn.functional.relu", _s(rnd([3, 4])), ref=lambda x: np.maximum(x, 0), grad=True),
]
