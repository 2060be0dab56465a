"""Place._type / _equals as Paddle's own fluid-era tests use them (values read from real 1.8.5: CUDAPlace 0,
CPUPlace 1, CUDAPinnedPlace 2). The other helpers those tests import are checked in test_fluidtests18.py."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("make,index", [("CPUPlace()", 1), ("CUDAPlace(0)", 0), ("CUDAPinnedPlace()", 2)])
def test_place_type_and_equals(make, index):
    import paddle.fluid as fluid

    place = eval(f"fluid.{make}")  # noqa: S307 - fixed table
    assert place._type() == index and place._equals(eval(f"fluid.{make}"))  # noqa: S307
    assert not place._equals(fluid.CPUPlace() if index != 1 else fluid.CUDAPlace(0))
