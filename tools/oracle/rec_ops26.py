"""Record tests/goldens/ops26.npz: replay every sample of the op table (tests/ops/rows_*.py) on real Paddle 2.6.2.

Run from /tmp with PYTHONPATH unset:  /work/oracle/p26/bin/python <repo>/tools/oracle/rec_ops26.py
Keys: optable.golden_key(api, sample_id, i), and "<api>|<id>|grad<k>" for Paddle's gradient of the sum of the float outputs with
respect to float argument k of rows with grad=True. Rows with golden=False and rows_functional.py's rows (see
rec_ops26_functional.py) are skipped; a sample Paddle rejects is
reported and left out (the generic test then skips it). Random rows are recorded too (tests compare shapes).
"""
import importlib
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import REPO, save  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "tests", "ops"))
from optable import all_rows, densify, golden_key, sparsify  # noqa: E402

import paddle  # noqa: E402

warnings.filterwarnings("ignore")


def to_paddle(a):
    if isinstance(a, np.ndarray):
        return paddle.to_tensor(a)
    if isinstance(a, list) and a and all(isinstance(x, np.ndarray) for x in a):
        return [paddle.to_tensor(x) for x in a]
    return a


def resolve(api):
    mod, _, name = api.rpartition(".")
    return getattr(importlib.import_module(mod), name)


def outputs(r):
    if isinstance(r, (list, tuple)):
        return [np.asarray(x.numpy() if hasattr(x, "numpy") else x) for x in r]
    return [np.asarray(r.numpy() if hasattr(r, "numpy") else r)]


def gradients(row, s):
    """Paddle's gradient of the sum of all float outputs for each float array argument: {arg index: grad}."""
    floats = [i for i, a in enumerate(s.args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    if not floats:
        return {}
    args = [paddle.to_tensor(a, stop_gradient=i not in floats) if isinstance(a, np.ndarray) else to_paddle(a)
            for i, a in enumerate(s.args)]
    out = resolve(row.api)(*args, **{k: to_paddle(v) for k, v in s.kwargs.items()})
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    loss = [o.astype("float64").sum() for o in outs if o.dtype in (paddle.float32, paddle.float64)]
    if not loss:
        return {}
    grads = paddle.grad([sum(loss)], [args[i] for i in floats], allow_unused=True)
    return {i: g.numpy() for i, g in zip(floats, grads) if g is not None}


def record(rows, case: str, program: str, grads: bool = False) -> None:
    """Replay every golden row's samples on real Paddle and save the outputs as tests/goldens/<case>.npz; with
    grads, also the gradients of the rows with grad=True (keys "<api>|<id>|grad<arg index>")."""
    arrays, failed = {}, {}
    paddle.seed(0)
    for row in rows:
        if not row.golden:
            continue
        for s in row.samples(np.random.RandomState(0)):
            try:
                out = densify(resolve(row.api)(*sparsify(paddle, row, [to_paddle(a) for a in s.args]),
                                               **{k: to_paddle(v) for k, v in s.kwargs.items()}))
            except Exception as e:  # noqa: BLE001
                failed[f"{row.api}|{s.id}"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                continue
            for i, o in enumerate(outputs(out)):
                arrays[golden_key(row.api, s.id, i)] = o
            if grads and row.grad and not row.random:
                try:
                    for i, g in gradients(row, s).items():
                        arrays[f"{row.api}|{s.id}|grad{i}"] = g
                except Exception as e:  # noqa: BLE001
                    failed[f"{row.api}|{s.id}|grad"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    for k, v in sorted(failed.items()):
        print("FAILED", k, v)
    save(case, arrays, {"paddle_version": paddle.__version__, "failed": failed, "program": program})


def main():
    # rows_functional.py and the rows modules that name their own GOLDEN are recorded by rec_ops26_functional.py
    import pkgutil

    own = set()
    for info in pkgutil.iter_modules([os.path.join(REPO, "tests", "ops")]):
        if info.name.startswith("rows_"):
            module = importlib.import_module(info.name)
            if info.name == "rows_functional" or hasattr(module, "GOLDEN"):
                own |= {id(r) for r in module.ROWS}
    record([r for r in all_rows() if id(r) not in own], "ops26",
           "tests/ops/rows_*.py samples replayed in dygraph", grads=True)


if __name__ == "__main__":
    main()
