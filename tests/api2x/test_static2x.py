"""paddle.static 2.x additions: ctr_metric_bundle against Paddle 2.6.2 (tools/oracle/static2x26_cases.py), and
the IPU entry points' listed error."""

from __future__ import annotations

import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("static2x26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "static2x26", rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["IpuStrategy", "IpuCompiledProgram", "ipu_shard_guard", "set_ipu_shard"])
def test_ipu_names_raise_the_listed_error(name):
    import paddle
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match=f"paddle.static.{name} .*IPU devices do not exist"):
        getattr(paddle.static, name)()
