"""The op table: one row (OpCase) per public op, in the spirit of PyTorch's OpInfo.

Rows live in `rows_*.py` beside this file and use only numpy and strings, never our package: the same rows
drive our generic tests (test_generic.py) and the oracle recorder (tools/oracle/rec_ops26.py), which replays
each sample on real Paddle 2.6.2 to write tests/goldens/ops26.npz.

A Sample's numpy arrays are the tensor inputs (lists of arrays are lists of tensors); everything else is
passed through as is. `ref` is a numpy reference; rows without one compare with the golden.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np


@dataclass
class Sample:
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    id: str = ""  # distinguishes samples of one row (golden keys: "<api>|<id>|out<i>")


@dataclass
class ErrorCase:
    args: tuple
    kwargs: dict
    exc: type
    match: str = ""


@dataclass
class OpCase:
    api: str  # public name, e.g. "paddle.cumsum" or "paddle.nn.functional.relu"
    samples: Callable[[np.random.RandomState], list[Sample]]
    ref: Optional[Callable[..., Any]] = None  # numpy reference taking the sample's args / kwargs
    method: Optional[str] = None  # Tensor method that must equal the function
    inplace: Optional[str] = None  # in-place variant (function name in the same module, or Tensor method)
    grad: bool = False  # check autograd against central finite differences (float64 copies of the inputs)
    static: bool = True  # check static mode == dygraph
    random: bool = False  # outputs are random: only shapes / dtypes / statistics are compared
    rtol: float = 1e-5
    atol: float = 1e-6
    errors: list[ErrorCase] = field(default_factory=list)
    xfail: dict[str, str] = field(default_factory=dict)  # generic test name -> reason (strict xfail)
    golden: bool = True  # record / compare with real Paddle's output
    # outputs unique only up to sign / phase (eigenvectors, singular vectors, QR factors): a function mapping the
    # list of numpy outputs to a canonical list; applied to ours and to the golden before comparing
    canon: Optional[Callable[[list], list]] = None
    # paddle.sparse rows: (layout "coo" / "csr", positions of the array arguments passed as sparse tensors);
    # sparse outputs are compared densified
    sparse: Optional[tuple] = None

    @property
    def module(self) -> str:
        return self.api.rpartition(".")[0]

    @property
    def name(self) -> str:
        return self.api.rpartition(".")[2]


def rnd(shape, dtype="float32", low=-1.0, high=1.0):
    """Deterministic sample data: each call site passes its own RandomState."""

    def make(rng: np.random.RandomState) -> np.ndarray:
        if np.dtype(dtype).kind in "iu":
            return rng.randint(int(low), int(high) + 1, size=shape).astype(dtype)
        if np.dtype(dtype).kind == "b":
            return rng.rand(*shape) > 0.5
        return rng.uniform(low, high, size=shape).astype(dtype)

    return make


def sample(*args: Any, _id: str | None = None, **kwargs: Any) -> Callable[[np.random.RandomState, int], Sample]:
    """One sample for a row factory: callables (from `rnd`) and lists of them are drawn from the row's
    RandomState; other values pass through. The id defaults to the sample's position in its row."""

    def make(rng, i):
        def res(a):
            if callable(a):
                return a(rng)
            if isinstance(a, list) and a and all(callable(x) for x in a):
                return [x(rng) for x in a]
            return a

        return Sample(tuple(res(a) for a in args), {k: res(v) for k, v in kwargs.items()},
                      id=_id if _id is not None else str(i))

    return make


def all_rows() -> list[OpCase]:
    import importlib
    import os
    import pkgutil

    rows: list[OpCase] = []
    here = os.path.dirname(__file__)
    for info in sorted(pkgutil.iter_modules([here]), key=lambda i: i.name):
        if info.name.startswith("rows_"):
            mod = importlib.import_module(info.name)
            rows.extend(mod.ROWS)
    return rows


def sparsify(paddle, row: OpCase, args: list) -> list:
    """The row's sparse arguments as sparse tensors (`paddle` is the module under test: ours or real Paddle's)."""
    if row.sparse:
        layout, positions = row.sparse
        for i in positions:
            t = args[i]
            args[i] = t.to_sparse_coo(len(t.shape)) if layout == "coo" else t.to_sparse_csr()
    return args


def densify(out):
    """Sparse outputs (Tensor.is_sparse()) as dense tensors, for comparing."""
    if isinstance(out, (list, tuple)):
        return type(out)(densify(o) for o in out)
    return out.to_dense() if hasattr(out, "is_sparse") and out.is_sparse() else out


def golden_key(api: str, sample_id: str, i: int) -> str:
    return f"{api}|{sample_id}|out{i}"
