"""fluid 1.8 static programs against Paddle 1.8.5 (issue 25 item 4): tests/fluid/cases18_static_names.py run here and
compared key by key with tests/goldens/static18_names (tools/oracle/rec_run18.py): fluid.layers output names where
the 2.x API they build on names its output otherwise, fluid.io.save / load_inference_model's feed and fetch ops,
fluid initializers prepended to the block given, and indexing's slice ops."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_static_names as C

_, GOLDEN = load_golden("static18_names")


@functools.lru_cache(maxsize=None)
def _run(case: str) -> dict:
    import paddle

    paddle.enable_static()
    return C.CASES[case](paddle.fluid)


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_static18_names_match_paddle(key):
    case, _, name = key.partition("/")
    got = _run(case)
    assert name in got, f"{key}: not produced"
    want, have = GOLDEN[key], np.asarray(got[name])
    if want.dtype.kind in "Ubiu":
        assert have.tolist() == want.tolist(), key
    else:
        np.testing.assert_allclose(have, want, rtol=1e-5, atol=1e-6, err_msg=key)
