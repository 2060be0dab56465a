"""Cases over the public API (each takes the `paddle` module, returns {name: array}) for the Paddle 2.x
optimizer additions (and the ReduceLROnPlateau callback): recorded on Paddle 2.6.2 by `rec_cases26.py optim2x26_cases optim2x26`, replayed by tests/api2x/test_optim2x.py."""
import numpy as np


def _schedule(sched, steps, epochs=None):
    out = []
    for i in range(steps):
        out.append(sched())
        sched.step() if epochs is None else sched.step(epochs[i])
    return {"lr": np.array(out + [sched()]), "last_epoch": np.array(sched.last_epoch)}


def linear_lr(paddle):
    return _schedule(paddle.optimizer.lr.LinearLR(0.5, total_steps=6, start_factor=0.2, end_factor=0.9), 9)


def linear_lr_default(paddle):
    return _schedule(paddle.optimizer.lr.LinearLR(1.0, total_steps=3), 5)


def warm_restarts_mult1(paddle):
    return _schedule(paddle.optimizer.lr.CosineAnnealingWarmRestarts(1.0, T_0=3, eta_min=0.1), 10)


def warm_restarts_mult2(paddle):
    return _schedule(paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.5, T_0=2, T_mult=2, eta_min=0.01), 12)


def warm_restarts_epochs(paddle):
    return _schedule(paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.5, T_0=2, T_mult=3), 6,
                     epochs=[0.5, 1.7, 3, 7.5, 2, 12])


def _lbfgs(paddle, **kw):
    w = paddle.create_parameter([3], "float64", default_initializer=paddle.nn.initializer.Constant(0.0))
    t = paddle.to_tensor(np.array([1.0, 2.0, 3.0]))
    opt = paddle.optimizer.LBFGS(parameters=[w], **kw)

    def closure():
        opt.clear_grad()
        loss = ((w - t) ** 2).sum() + 0.1 * (w ** 4).sum() + (w[0] * w[1])
        loss.backward()
        return loss

    losses, ws = [], []
    for _ in range(3):
        losses.append(float(opt.step(closure)))
        ws.append(w.numpy().copy())
    return {"loss": np.array(losses), "w": np.array(ws)}


def lbfgs_plain(paddle):
    return _lbfgs(paddle, learning_rate=0.5, max_iter=4, history_size=3)


def lbfgs_wolfe(paddle):
    # NOTE: few iterations per step: near the optimum, last-bit differences between Paddle's p + d * alpha and
    # torch's fused update flip the line search's comparisons of equal losses, and the iterates part (by ~1e-5,
    # both at the minimum to 1e-9)
    return _lbfgs(paddle, learning_rate=1.0, max_iter=2, line_search_fn="strong_wolfe")


def _plateau(paddle, monitor, values, **kw):
    w = paddle.create_parameter([1], "float32")
    opt = paddle.optimizer.SGD(0.1, parameters=[w])

    class Model:
        _optimizer = opt

    cb = paddle.callbacks.ReduceLROnPlateau(monitor=monitor, verbose=0, **kw)
    cb.set_model(Model())
    cb.on_train_begin()
    lrs = []
    for v in values:
        cb.on_eval_end({monitor: [v]})
        lrs.append(opt.get_lr())
    return {"lr": np.array(lrs), "wait": np.array(cb.wait), "best": np.array(cb.best)}


def plateau_loss(paddle):
    return _plateau(paddle, "loss", [1.0, 0.9, 0.95, 0.92, 0.91, 0.9, 0.95, 0.97, 0.99, 0.5, 0.6, 0.7, 0.8],
                    factor=0.5, patience=2, cooldown=1, min_lr=0.02)


def plateau_acc(paddle):
    return _plateau(paddle, "acc", [0.5, 0.6, 0.6, 0.6, 0.61, 0.7, 0.7], factor=0.2, patience=1, min_delta=0.05)


CASES = [linear_lr, linear_lr_default, warm_restarts_mult1, warm_restarts_mult2, warm_restarts_epochs, lbfgs_plain,
         lbfgs_wolfe, plateau_loss, plateau_acc]
