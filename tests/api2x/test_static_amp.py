"""paddle.static.amp against Paddle 2.6.2 (tools/oracle/static_amp26_cases.py, golden static_amp26), and what it
does not provide."""

from __future__ import annotations

import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("static_amp26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "static_amp26", rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("kwargs,error,match", [
    ({"level": "O2"}, "UnsupportedAPIError", "level 'O1'"),
    ({"use_pure_fp16": True}, "UnsupportedAPIError", "use_pure_fp16"),
    ({"level": "O3"}, "ValueError", "level should be O0, OD, O1 or O2"),
    ({"dtype": "float64"}, "ValueError", "dtype should be 'float16' or 'bfloat16'"),
])
def test_decorate_errors(kwargs, error, match):
    import paddle

    paddle.enable_static()
    with pytest.raises(Exception, match=match) as info:
        paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), **kwargs)
    assert type(info.value).__name__ == error
