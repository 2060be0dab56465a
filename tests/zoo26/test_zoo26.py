"""Reduced rows of what running the 2.x model zoos (PaddleClas, PaddleSeg, PaddleDetection, PaddleNLP) under
tools/zoo26/run.py exposed, each against Paddle 2.6.2 (tools/oracle/zoo26_cases.py, golden zoo26)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from tests.api2x import cases
from tests.conftest import load_golden


@pytest.mark.parametrize("case", cases.params("zoo26_cases"))
def test_case_matches_paddle(case):
    import paddle

    meta, g = load_golden("zoo26")
    assert case.__name__ not in meta["errors"], meta["errors"].get(case.__name__)
    got = case(paddle)
    want = {k.split("__", 1)[1]: v for k, v in g.items() if k.startswith(case.__name__ + "__")}
    assert sorted(got) == sorted(want)
    for k, v in got.items():
        if want[k].dtype.kind == "U":
            assert np.asarray(v).tolist() == want[k].tolist(), f"{case.__name__}.{k}"
        else:
            np.testing.assert_allclose(np.asarray(v, dtype=want[k].dtype), want[k], rtol=1e-7, atol=0,
                                       err_msg=f"{case.__name__}.{k}")


@pytest.mark.parametrize("module", ["paddle._C_ops", "paddle._legacy_C_ops"])
def test_raw_op_modules_import_and_refuse_by_name(module):
    # PaddleDetection's ppdet/modeling/ops.py imports paddle._legacy_C_ops (else paddle._C_ops) at import time
    from paddle_compat.core.errors import UnsupportedAPIError

    mod = importlib.import_module(module)
    assert callable(mod.multiclass_nms3)
    with pytest.raises(UnsupportedAPIError, match=rf"{module}\.multiclass_nms3 .*public API"):
        mod.multiclass_nms3(None, None)
    with pytest.raises(AttributeError):
        mod.__wrapped__  # noqa: B018 - dunder lookups stay AttributeError (copy, inspect, pickle probe them)
