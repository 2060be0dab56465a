"""fluid.layers learning-rate decays in dygraph mode (Paddle 1.8 returns fluid.dygraph LearningRateDecay objects that
advance once per optimizer update). Shared by tools/oracle/rec_lr_decay18.py and tests/fluid/test_lr_decay.py."""

STEPS = 8


def build(L):
    return {
        "exponential": L.exponential_decay(0.1, 3, 0.5),
        "exponential_stair": L.exponential_decay(0.1, 3, 0.5, staircase=True),
        "natural_exp": L.natural_exp_decay(0.1, 3, 0.5, staircase=True),
        "inverse_time": L.inverse_time_decay(0.1, 3, 0.5),
        "polynomial": L.polynomial_decay(0.1, 5, 0.01, power=2.0),
        "polynomial_cycle": L.polynomial_decay(0.1, 3, 0.01, cycle=True),
        "piecewise": L.piecewise_decay([2, 5], [0.1, 0.05, 0.01]),
        "noam": L.noam_decay(16, 3, learning_rate=2.0),
        "cosine": L.cosine_decay(0.1, 2, 4),
        "warmup_float": L.linear_lr_warmup(0.1, 4, 0.0, 0.1),
        "warmup_decay": L.linear_lr_warmup(L.exponential_decay(0.1, 3, 0.5), 3, 0.01, 0.1),
    }


def build_classes(D):
    """fluid.dygraph decay classes with begin / step, and the epoch decays (advanced by epoch() per update)."""
    return {
        "cls_exponential_begin3_step2": D.ExponentialDecay(0.1, 3, 0.5, begin=3, step=2),
        "cls_piecewise_begin1": D.PiecewiseDecay([2, 5], [0.1, 0.05, 0.01], 1),
        "cls_noam": D.NoamDecay(16, 3),
        "cls_cosine_begin1": D.CosineDecay(0.1, 2, 4, begin=1),
        "cls_polynomial_cycle_step2": D.PolynomialDecay(0.1, 3, 0.01, cycle=True, step=2),
        "cls_warmup_piecewise": D.LinearLrWarmup(D.PiecewiseDecay([3], [0.1, 0.05], 0), 2, 0.0, 0.1),
        "epoch_step": D.StepDecay(0.5, 2, 0.5),
        "epoch_multistep": D.MultiStepDecay(0.5, [2, 4], 0.1),
        "epoch_lambda": D.LambdaDecay(0.5, lambda e: 0.9 ** e),
        "plateau": D.ReduceLROnPlateau(0.5, decay_rate=0.5, patience=1, cooldown=1),
    }


PLATEAU_LOSSES = [1.0, 0.9, 0.95, 0.97, 0.96, 0.99, 0.98, 0.97]


def lr_per_update(fluid, lr, epoch=False, plateau=False):
    """The learning rate each SGD update used (optimizer.current_step_lr() after it); epoch: call lr.epoch()
    after every update; plateau: lr.step(loss) with PLATEAU_LOSSES."""
    import numpy as np

    lin = fluid.dygraph.Linear(2, 2)
    opt = fluid.optimizer.SGD(learning_rate=lr, parameter_list=lin.parameters())
    seen = []
    for _ in range(STEPS):
        loss = fluid.layers.reduce_mean(lin(fluid.dygraph.to_variable(np.ones([1, 2], "float32"))))
        loss.backward()
        opt.minimize(loss)
        lin.clear_gradients()
        seen.append(float(opt.current_step_lr()))
        if epoch:
            lr.epoch()
        if plateau:
            lr.step(fluid.dygraph.to_variable(np.array([PLATEAU_LOSSES[len(seen) - 1]], "float32")))
    return seen
