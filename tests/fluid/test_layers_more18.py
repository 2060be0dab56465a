"""The parameter-creating fluid.layers of cases18_layers_more.py (values: the Paddle 1.8.5 parity table): their
parameter names and shapes as Paddle 1.8.5 makes them, the paddle.static.nn spellings, and Print."""

from __future__ import annotations

import numpy as np


def test_parameter_names_and_shapes_are_paddle18s():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [2, 4, 5, 5], "float32")
        L = fluid.layers
        L.conv2d_transpose(x, 6, filter_size=3)
        L.layer_norm(x, begin_norm_axis=2)
        L.group_norm(x, 2)
        L.instance_norm(x)
        L.prelu(x, "channel")
        L.bilinear_tensor_product(fluid.data("a", [3, 3], "float32"), fluid.data("b", [3, 4], "float32"), 2)
    got = sorted((p.name, tuple(p.shape)) for p in main.global_block().all_parameters())
    # recorded from Paddle 1.8.5 with the same calls
    assert got == [("bilinear_tensor_product_0.b_0", (1, 2)), ("bilinear_tensor_product_0.w_0", (2, 3, 4)),
                   ("conv2d_transpose_0.b_0", (6,)), ("conv2d_transpose_0.w_0", (4, 6, 3, 3)),
                   ("group_norm_0.b_0", (4,)), ("group_norm_0.w_0", (4,)), ("instance_norm_0.b_0", (4,)),
                   ("instance_norm_0.w_0", (4,)), ("layer_norm_0.b_0", (25,)), ("layer_norm_0.w_0", (25,)),
                   ("prelu_0.w_0", (1, 4, 1, 1))]
    for name in ("conv2d_transpose", "conv3d", "conv3d_transpose", "layer_norm", "group_norm", "instance_norm",
                 "prelu", "bilinear_tensor_product"):
        assert getattr(paddle.static.nn, name) is getattr(fluid.layers, name)


def test_print_prints_at_run_time_and_passes_the_value_on(capsys):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [2, 2], "float32")
        y = fluid.layers.Print(fluid.layers.scale(x, 2.0), message="scaled", summarize=3)
    (got,) = fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": np.ones([2, 2], "float32")}, fetch_list=[y])
    np.testing.assert_array_equal(got, np.full([2, 2], 2.0, "float32"))
    out = capsys.readouterr().out
    assert "scaled" in out and "shape: [2, 2]" in out and "data: [2. 2. 2.]" in out
