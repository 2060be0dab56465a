"""SelectedRows (issue 24 item 3) against Paddle 1.8.5: each case of tests/fluid/cases_sr18.py runs here in static
mode and matches the golden tests/goldens/sr18_selected_rows (recorded by tools/oracle/rec_sr18.py): the values and
shapes of get_tensor_from_selected_rows / merge_selected_rows, the variables' types and compile-time shapes, the
errors (fetching a SelectedRows, a dense input), and optimizer steps with is_sparse=True."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases_sr18 as C

_, GOLDEN = load_golden("sr18_selected_rows")
RECORDED = sorted({k.split("/")[0] for k in GOLDEN})

# Cases still different from 1.8.5, with why (strict: a fix makes them fail until removed from here).
XFAIL: dict[str, str] = {}


def test_every_case_is_recorded():
    assert RECORDED == sorted(C.CASES)


def _run_case(case):
    import paddle

    paddle.enable_static()
    try:
        return C.CASES[case](paddle.fluid)
    finally:
        paddle.disable_static()


def _err_matches(got, want):
    """An error case: Paddle's exception type name (EnforceNotMet, TypeError) is ours or one of its bases."""
    if want == "ok" or got == "ok":
        return got == want
    import paddle

    ours = getattr(paddle.fluid.core, got, None) or getattr(__import__("builtins"), got, None)
    from paddle_compat.engine.core import errors

    ours = ours or getattr(errors, got)
    return any(c.__name__ == want for c in ours.__mro__)


@pytest.mark.parametrize("case", RECORDED)
def test_matches_paddle18(case, request):
    if case in XFAIL:
        request.applymarker(pytest.mark.xfail(reason=XFAIL[case], strict=True))
    got = _run_case(case)
    want = {k.split("/", 1)[1]: v for k, v in GOLDEN.items() if k.split("/")[0] == case}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = np.asarray(got[k])
        if k.endswith("_error"):
            assert _err_matches(str(g), str(w)), (k, g, w)
        elif k.endswith("_type"):  # 'VarType.SELECTED_ROWS' in Paddle; compare as core.VarDesc.VarType members
            import paddle

            assert str(g) == str(getattr(paddle.fluid.core.VarDesc.VarType, str(w).split(".")[-1])), k
        else:
            assert g.shape == w.shape, k
            np.testing.assert_allclose(g.astype("float64"), w.astype("float64"), rtol=1e-5, atol=1e-6, err_msg=k)
