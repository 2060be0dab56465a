"""paddle.static.amp (2.x) over the public API (see rec_cases26.py): a static MLP decorated for O1 with each
dtype and each decorate signature, three SGD steps; tests/api2x/test_static_amp.py replays them. On a CPU-only
machine Paddle 2.6.2 keeps its white-list ops in float32 (no low-precision kernels), so the losses are float32's;
the loss scaling follows Paddle's rules (bfloat16 disables dynamic scaling and starts at 1.0)."""
import numpy as np


def _train(paddle, decorate_args, decorate_kwargs, steps=3):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 8], "float32")
            y = paddle.static.data("y", [None, 1], "float32")
            init = paddle.nn.initializer.Assign
            w1 = paddle.create_parameter([8, 16], "float32", default_initializer=init(
                np.linspace(-1, 1, 128).reshape(8, 16).astype("float32")))
            w2 = paddle.create_parameter([16, 1], "float32", default_initializer=init(
                np.linspace(-0.5, 0.5, 16).reshape(16, 1).astype("float32")))
            loss = paddle.mean(paddle.square(paddle.matmul(paddle.tanh(paddle.matmul(x, w1)), w2) - y))
            opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), *decorate_args, **decorate_kwargs)
            opt.minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        opt.amp_init(paddle.CPUPlace())
        rs = np.random.RandomState(0)
        losses, scalings = [], []
        for _ in range(steps):
            lv, sv = exe.run(main, feed={"x": rs.rand(4, 8).astype("float32"), "y": rs.rand(4, 1).astype("float32")},
                             fetch_list=[loss, opt.get_loss_scaling()])
            losses.append(np.asarray(lv).reshape(-1)[0])
            scalings.append(np.asarray(sv).reshape(-1)[0])
        return {"losses": np.array(losses), "scalings": np.array(scalings)}
    finally:
        paddle.disable_static()


def o1_float16(paddle):
    return _train(paddle, (), {"init_loss_scaling": 128.0, "use_dynamic_loss_scaling": True})


def o1_bfloat16(paddle):
    return _train(paddle, (), {"init_loss_scaling": 128.0, "use_dynamic_loss_scaling": True, "dtype": "bfloat16"})


def fp16_only_signature(paddle):
    # a float third positional argument selects the fp16-only overload (init_loss_scaling, then its defaults)
    return _train(paddle, (None, 64.0), {})


def common_signature_defaults(paddle):
    return _train(paddle, (), {"level": "o1"})


CASES = [o1_float16, o1_bfloat16, fp16_only_signature, common_signature_defaults]
