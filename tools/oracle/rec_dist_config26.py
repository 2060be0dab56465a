"""Record Paddle 2.6.2's paddle.distributed configuration objects (ParallelMode, the sparse-table entry policies'
`_to_attr()` strings and argument errors) -> tests/goldens/dist_config26.json (tests/distributed/test_dist_single.py).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <this file>"""
import os
import sys

ENTRIES = {"prob": ("ProbabilityEntry", (0.25,)), "count": ("CountFilterEntry", (3,)),
           "showclick": ("ShowClickEntry", ("show", "click")), "prob_int": ("ProbabilityEntry", (1,)),
           "prob_1": ("ProbabilityEntry", (1.0,)), "count_float": ("CountFilterEntry", (1.5,)),
           "count_neg": ("CountFilterEntry", (-1,)), "show_int": ("ShowClickEntry", (1, "c"))}
MODES = ("DATA_PARALLEL", "TENSOR_PARALLEL", "PIPELINE_PARALLEL", "SHARDING_PARALLEL", "SEGMENT_PARALLEL")


def record(paddle):
    """{case: _to_attr() string or [error type, message]} and the ParallelMode values (shared with the test)."""
    d = paddle.distributed
    out = {}
    for case, (cls, args) in ENTRIES.items():
        try:
            out[case] = getattr(d, cls)(*args)._to_attr()
        except Exception as e:  # noqa: BLE001
            out[case] = [type(e).__name__, str(e)]
    out["modes"] = [getattr(d.ParallelMode, m) for m in MODES]
    return out


if __name__ == "__main__":  # imports here: the test loads this file for record() on paddle_compat
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import numpy.random  # noqa: F401 - before paddle (its zlib breaks the lazy numpy.random import)
    import paddle
    from _common import save

    save("dist_config26", {}, dict(record(paddle), paddle_version=paddle.__version__))
