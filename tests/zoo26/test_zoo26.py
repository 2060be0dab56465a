"""Reduced rows of what running the 2.x model zoos (PaddleClas, PaddleSeg, PaddleDetection, PaddleNLP) under
tools/zoo26/run.py exposed, each against Paddle 2.6.2 (tools/oracle/zoo26_cases.py, golden zoo26)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from tests.api2x import cases
from tests.conftest import load_golden, run_saved_model


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
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    mod = importlib.import_module(module)
    assert callable(mod.multiclass_nms3)
    with pytest.raises(UnsupportedAPIError, match=rf"{module}\.multiclass_nms3 .*public API"):
        mod.multiclass_nms3(None, None)
    with pytest.raises(AttributeError):
        mod.__wrapped__  # noqa: B018 - dunder lookups stay AttributeError (copy, inspect, pickle probe them)


CUMSUM_META, CUMSUM = load_golden("zoo26_cumsum")


def _cumsum_np(x, axis=-1, flatten=False, reverse=False, exclusive=False):
    if flatten:
        x, axis = x.reshape(-1), 0
    y = np.flip(x, axis) if reverse else x
    out = np.cumsum(y, axis=axis) - (y if exclusive else 0)
    return np.flip(out, axis) if reverse else out


@pytest.mark.parametrize("loader", ["jit.load", "inference"])
def test_cumsum_inference_model_from_paddle(loader):
    # PaddleNLP 2.1 BERT / ERNIE / RoBERTa / ELECTRA / TinyBERT models saved by 2.6.2's jit.save hold a cumsum op
    import os

    from tests.conftest import GOLDENS

    prefix = os.path.join(GOLDENS, "zoo26_cumsum", "model")
    x = CUMSUM["x"]
    outs = run_saved_model(prefix, [x], loader, output_names=CUMSUM_META["output_names"])
    xw = x * np.array([1.0, -2.0, 0.5, 3.0], "float32")
    assert len(outs) == len(CUMSUM_META["variants"])
    for i, (got, attrs) in enumerate(zip(outs, CUMSUM_META["variants"])):
        np.testing.assert_allclose(CUMSUM[f"out_{i}"], _cumsum_np(xw, **attrs), rtol=1e-5, atol=1e-6)  # the row
        np.testing.assert_allclose(got, CUMSUM[f"out_{i}"], rtol=1e-6, atol=1e-6, err_msg=str(attrs))


INTERP_META, INTERP = load_golden("zoo26_interp")


@pytest.mark.parametrize("loader", ["jit.load", "inference"])
def test_interp_size_from_tensor_in_paddle_model(loader):
    # PaddleSeg decoders: F.interpolate(x, paddle.shape(y)[2:]) saves bilinear_interp_v2 with an OutSize input
    import os

    from tests.conftest import GOLDENS

    prefix = os.path.join(GOLDENS, "zoo26_interp", "model")
    x, y = INTERP["x"], INTERP["y"]
    outs = run_saved_model(prefix, [x, y], loader)
    assert len(outs) == 3
    for i, got in enumerate(outs):
        assert got.shape == (2, 3, 7, 9)
        np.testing.assert_allclose(got, INTERP[f"out_{i}"], rtol=1e-5, atol=1e-6, err_msg=f"output {i}")


SETV_META, SETV = load_golden("zoo26_setvalue")


def _setvalue_np(x, z):
    w = np.array([1.0, -2.0, 0.5, 3.0, 1.5], "float32")
    a = x * w
    a[:, 0:2] += z
    b = x * 2.0
    b[:, 1] = 0.5
    c = x + 1.0
    c[:, :, 1:5:2] = z[:, 0:1, 0:2]
    d = x - 1.0
    d[:, -2:] = -3.0
    return a, b, c, d


@pytest.mark.parametrize("loader", ["jit.load", "inference"])
def test_set_value_in_paddle_model(loader):
    # PaddleClas ReXNet's forward writes `out[:, 0:c] += x`: 2.6.2's jit.save holds it as set_value (ValueTensor);
    # the golden model adds a decrease axis set to a constant, a stepped slice and a negative start
    import os

    from tests.conftest import GOLDENS

    prefix = os.path.join(GOLDENS, "zoo26_setvalue", "model")
    x, z = SETV["x"], SETV["z"]
    assert SETV_META["set_value_ops"] == 4
    outs = run_saved_model(prefix, [x, z], loader, output_names=SETV_META["output_names"])
    assert len(outs) == 4
    for i, (got, want) in enumerate(zip(outs, _setvalue_np(x, z))):
        np.testing.assert_allclose(SETV[f"out_{i}"], want, rtol=1e-6, atol=1e-6)  # the row
        np.testing.assert_allclose(got, SETV[f"out_{i}"], rtol=1e-6, atol=1e-6, err_msg=f"output {i}")
