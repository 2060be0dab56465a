"""multi_box_head, fluid.embedding, error clipping / set_gradient_clip, the Bilinear initializer and RoundRobin
against Paddle 1.8.5 (tests/fluid/cases18_more_layers.py, golden fluid18_more_layers); fluid.layers.load (Paddle
1.8.5's own layer fails: its op has no Out slot) and HashName."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fluid import cases18_more_layers as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_more_layers")


def test_layers_load_reads_a_saved_variable(tmp_path):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        w = fluid.layers.create_parameter([2, 3], "float32", name="w_saved", default_initializer=
                                          fluid.initializer.NumpyArrayInitializer(np.arange(6, dtype="float32")
                                                                                  .reshape(2, 3)))
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        fluid.io.save_vars(exe, str(tmp_path), main_program=main, vars=[w])
        prog = fluid.Program()
        with fluid.program_guard(prog, fluid.Program()):
            out = prog.global_block().create_var(name="loaded", shape=[2, 3], dtype="float32", persistable=True)
            fluid.layers.load(out, str(tmp_path / "w_saved"), load_as_fp16=False)
            y = fluid.layers.scale(out, 2.0)
        (r,) = exe.run(prog, fetch_list=[y])
        np.testing.assert_array_equal(r, np.arange(6, dtype="float32").reshape(2, 3) * 2)
        np.testing.assert_array_equal(np.array(fluid.global_scope().find_var("loaded").get_tensor()),
                                      np.arange(6, dtype="float32").reshape(2, 3))
        with fluid.program_guard(fluid.Program(), fluid.Program()):
            v = fluid.default_main_program().global_block().create_var(name="v", shape=[1], dtype="float32",
                                                                       persistable=True)
            fluid.layers.load(v, str(tmp_path / "missing"))
            with pytest.raises(Exception, match="cannot open"):
                exe.run(fluid.default_main_program())


def test_hash_name_dispatch_and_bilinear_errors():
    import paddle

    fluid = paddle.fluid

    class V:
        def __init__(self, n):
            self.name = n

    eps = ["a:1", "b:2"]
    got = fluid.transpiler.HashName(eps).dispatch([V("w"), V("b")])
    assert got == [eps[hash("w") % 2], eps[hash("b") % 2]]
    init = fluid.initializer.Bilinear()
    with pytest.raises(ValueError, match="shape\\[2\\] must be equal to shape\\[3\\]"):
        init._fill([1, 1, 2, 3], "float32", "w")
    with pytest.raises(ValueError, match="the length of shape must be 4"):
        init._fill([2, 3], "float32", "w")


def test_set_gradient_clip_errors():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        fluid.layers.fc(fluid.data("x", [-1, 2], "float32"), 2)
        with pytest.raises(TypeError, match="'clip' should be an instance of GradientClipBase's derived class"):
            fluid.clip.set_gradient_clip(0.5)
        with pytest.raises(TypeError, match="'param_list' should be a list of Parameter"):
            fluid.clip.set_gradient_clip(fluid.clip.GradientClipByNorm(1.0), param_list=[1])
    with pytest.raises(TypeError, match="The type of need_clip must be funciton"):
        fluid.clip.GradientClipByValue(1.0, need_clip=3)
