"""fluid.install_check.run_check (Paddle 1.8): trains a one-Linear program on one place, then data-parallel on
two (every visible CUDA device, else two CPU places), and prints Paddle's messages; a failure of the parallel
run is reported as a warning, as Paddle does."""

from __future__ import annotations

import logging

import numpy as np

from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export


def _fluid():
    import paddle.fluid as fluid  # the shim package: run_check exercises the public surface end to end

    return fluid


def _program(fluid, append_batch: bool):
    from paddle.fluid.dygraph import Linear

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        inp = fluid.layers.data(name="inp", shape=[2, 2], append_batch_size=append_batch)
        linear = Linear(2, 3, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(value=0.1)))
        out = fluid.layers.reduce_sum(linear(inp))
    return main, startup, inp, out, linear


def _place(fluid):
    cuda = fluid.is_compiled_with_cuda() and fluid.core.get_cuda_device_count() > 0
    return fluid.CUDAPlace(0) if cuda else fluid.CPUPlace()


def run_check():
    """Check that fluid programs build, run and train here; prints what works."""
    fluid = _fluid()
    print("Running Verify Fluid Program ... ")
    places = fluid.cuda_places() if fluid.is_compiled_with_cuda() else [fluid.CPUPlace(), fluid.CPUPlace()]
    single = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    multi = np.stack([single] * len(places)).reshape(len(places), 2, 2)

    main, startup, inp, out, linear = _program(fluid, append_batch=False)
    with fluid.program_guard(main, startup):
        grads = P("paddle.fluid.backward.append_backward")(out, parameter_list=[linear.weight.name])[0]
    exe = fluid.Executor(_place(fluid))
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        exe.run(main, feed={inp.name: single}, fetch_list=[out.name, grads[1].name])
    print("Your Paddle Fluid works well on SINGLE GPU or CPU.")
    try:
        main, startup, inp, out, _ = _program(fluid, append_batch=True)
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            loss = fluid.layers.mean(out)
            loss.persistable = True
            fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
        strategy = fluid.BuildStrategy()
        strategy.enable_inplace = True
        compiled = fluid.CompiledProgram(main).with_data_parallel(build_strategy=strategy, loss_name=loss.name,
                                                                  places=places)
        with fluid.scope_guard(fluid.Scope()):
            exe.run(startup)
            exe.run(compiled, feed={inp.name: multi}, fetch_list=[loss.name])
        print("Your Paddle Fluid works well on MUTIPLE GPU or CPU.")
        print("Your Paddle Fluid is installed successfully! Let's start deep Learning with Paddle Fluid now")
    except Exception as e:  # noqa: BLE001 - reported, as Paddle's check does
        logging.warning("Your Paddle Fluid has some problem with multiple GPU. This may be caused by:"
                        "\n 1. There is only 1 or 0 GPU visible on your Device;"
                        "\n 2. No.1 or No.2 GPU or both of them are occupied now")
        print(f"\n Original Error is: {e}")
        print("Your Paddle Fluid is installed successfully ONLY for SINGLE GPU or CPU! "
              "\n Let's start deep Learning with Paddle Fluid now")


export(run_check, "paddle.fluid.install_check.run_check")
