"""fluid.layers lr decay in static mode: the lr variable follows the step counter run by run."""

from __future__ import annotations

import math

import numpy as np
import pytest

CASES = {
    "exponential_decay": (lambda L: L.exponential_decay(0.1, 2, 0.5), lambda s: 0.1 * 0.5 ** (s / 2)),
    "exponential_decay_stair": (lambda L: L.exponential_decay(0.1, 2, 0.5, staircase=True),
                                lambda s: 0.1 * 0.5 ** (s // 2)),
    "natural_exp_decay": (lambda L: L.natural_exp_decay(0.1, 2, 0.5), lambda s: 0.1 * math.exp(-0.5 * s / 2)),
    "inverse_time_decay": (lambda L: L.inverse_time_decay(0.1, 2, 0.5), lambda s: 0.1 / (1 + 0.5 * s / 2)),
    "polynomial_decay": (lambda L: L.polynomial_decay(0.1, 4, 0.01, power=2.0),
                         lambda s: (0.1 - 0.01) * (1 - min(s, 4) / 4) ** 2 + 0.01),
    "polynomial_decay_cycle": (lambda L: L.polynomial_decay(0.1, 2, 0.01, cycle=True),
                               lambda s: (0.1 - 0.01) * (1 - s / (2 * max(1, math.ceil(s / 2)))) + 0.01),
    "piecewise_decay": (lambda L: L.piecewise_decay([2, 4], [1.0, 0.5, 0.1]),
                        lambda s: 1.0 if s < 2 else 0.5 if s < 4 else 0.1),
    "noam_decay": (lambda L: L.noam_decay(16, 3), lambda s: 16 ** -0.5 * min((s + 1) ** -0.5, (s + 1) * 3 ** -1.5)),
    "cosine_decay": (lambda L: L.cosine_decay(0.1, 2, 3), lambda s: 0.05 * (math.cos((s // 2) * math.pi / 3) + 1)),
    "linear_lr_warmup": (lambda L: L.linear_lr_warmup(0.1, 3, 0.0, 0.3),
                         lambda s: 0.3 * s / 3 if s < 3 else 0.1),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lr_decay_sequence(case):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    build, ref = CASES[case]
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [2, 3], "float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 1))
        lr = build(fluid.layers)
        fluid.optimizer.SGD(learning_rate=lr).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    got = [exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[lr])[0].item() for _ in range(7)]
    np.testing.assert_allclose(got, [ref(s) for s in range(7)], rtol=1e-5)


def test_step_counter_begins_and_steps():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        c = fluid.layers.autoincreased_step_counter(begin=5, step=2)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    # Paddle 1.8 initializes the counter to begin - 1 and adds step on every run (also the first)
    assert [exe.run(main, fetch_list=[c])[0].item() for _ in range(3)] == [6, 8, 10]
