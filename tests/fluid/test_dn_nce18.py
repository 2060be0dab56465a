"""fluid.layers.data_norm and fluid.layers.nce (and paddle.static.nn's, the same bodies) against Paddle 1.8.5
(tests/fluid/cases18_dn_nce.py, golden fluid18_dn_nce): outputs, gradients and statistics over two SGD runs;
nce's samplers draw the very classes Paddle's C++ samplers draw."""

from __future__ import annotations

import pytest

from tests.fluid import cases18_dn_nce as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_dn_nce")


def test_static_nn_spellings_are_the_fluid_bodies():
    import paddle

    assert paddle.static.nn.data_norm is paddle.fluid.layers.data_norm
    assert paddle.static.nn.nce is paddle.fluid.layers.nce


def test_mersenne_twisters_match_the_cpp_engines():
    from paddle_compat.engine.ops.nce_data_norm import MersenneTwister

    # the 10000th output of default-seeded std::mt19937 / std::mt19937_64 (the C++ standard's check values)
    for w, want in ((32, 4123659995), (64, 9981545732273789042)):
        e = MersenneTwister(5489, w)
        for _ in range(9999):
            e()
        assert e() == want


@pytest.mark.parametrize("kw, exc, msg", [
    (dict(sampler="gaussian"), Exception, "Unsupported sampler type."),
    (dict(sampler="custom_dist"), ValueError, "sampler='custom_dist' needs custom_dist"),
])
def test_nce_argument_errors(kw, exc, msg):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        x = fluid.data("x", [-1, 4], "float32")
        y = fluid.data("y", [-1, 1], "int64")
        with pytest.raises(exc, match=msg):
            fluid.layers.nce(x, y, 5, **kw)
        with pytest.raises(TypeError, match="The data type of 'label' in nce must be"):
            fluid.layers.nce(x, fluid.data("z", [-1, 1], "int32"), 5)


def test_data_norm_errors():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        with pytest.raises(ValueError, match="unsupported data layout:NCWH"):
            fluid.layers.data_norm(fluid.data("x", [-1, 4], "float32"), data_layout="NCWH")
        with pytest.raises(ValueError, match="input must be 2-D"):
            fluid.layers.data_norm(fluid.data("y", [-1, 4, 2], "float32"))
