"""Optimizers and lr schedulers of Paddle 2.6.2 (dygraph): each optimizer trains Linear(4, 3) for 3 steps from
the same init on the same batches; each scheduler's lr is recorded over 12 step() calls.

Run with /work/oracle/p26 from /tmp with PYTHONPATH unset."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402

from _common import save  # noqa: E402

OPTS = {
    "sgd": "paddle.optimizer.SGD(learning_rate=0.1, parameters=ps)",
    "momentum_nesterov": "paddle.optimizer.Momentum(0.1, 0.9, parameters=ps, use_nesterov=True, weight_decay=0.01)",
    "adam": "paddle.optimizer.Adam(0.05, parameters=ps)",
    "adam_l2_clip": "paddle.optimizer.Adam(0.05, parameters=ps, weight_decay=paddle.regularizer.L2Decay(0.01), "
                    "grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))",
    "adamw": "paddle.optimizer.AdamW(0.05, parameters=ps, weight_decay=0.1)",
    "adamw_fun": "paddle.optimizer.AdamW(0.05, parameters=ps, weight_decay=0.1, "
                 "apply_decay_param_fun=lambda n: n.endswith('w_0'))",
    "adamax": "paddle.optimizer.Adamax(0.05, parameters=ps)",
    "adagrad": "paddle.optimizer.Adagrad(0.1, parameters=ps, initial_accumulator_value=0.1)",
    "adadelta": "paddle.optimizer.Adadelta(0.5, parameters=ps)",
    "rmsprop": "paddle.optimizer.RMSProp(0.05, parameters=ps)",
    "rmsprop_centered": "paddle.optimizer.RMSProp(0.05, momentum=0.5, centered=True, parameters=ps)",
    "lamb": "paddle.optimizer.Lamb(0.05, lamb_weight_decay=0.01, parameters=ps)",
    "sgd_step_decay": "paddle.optimizer.SGD(learning_rate=paddle.optimizer.lr.StepDecay(0.1, 1, 0.5), parameters=ps)",
}
SCHEDS = {
    "noam": "lr.NoamDecay(d_model=16, warmup_steps=4, learning_rate=1.0)",
    "piecewise": "lr.PiecewiseDecay([3, 6], [0.1, 0.05, 0.01])",
    "natural_exp": "lr.NaturalExpDecay(0.5, gamma=0.1)",
    "inverse_time": "lr.InverseTimeDecay(0.5, gamma=0.1)",
    "polynomial": "lr.PolynomialDecay(0.5, decay_steps=5, end_lr=0.01, power=2.0)",
    "polynomial_cycle": "lr.PolynomialDecay(0.5, decay_steps=5, end_lr=0.01, cycle=True)",
    "linear_warmup": "lr.LinearWarmup(0.5, warmup_steps=4, start_lr=0.0, end_lr=0.5)",
    "linear_warmup_sched": "lr.LinearWarmup(lr.StepDecay(0.5, 2, 0.5), warmup_steps=3, start_lr=0.1, end_lr=0.5)",
    "exponential": "lr.ExponentialDecay(0.5, gamma=0.9)",
    "multistep": "lr.MultiStepDecay(0.5, milestones=[2, 5, 9], gamma=0.5)",
    "step": "lr.StepDecay(0.5, step_size=3, gamma=0.5)",
    "lambda": "lr.LambdaDecay(0.5, lambda e: 0.95 ** e)",
    "multiplicative": "lr.MultiplicativeDecay(0.5, lambda e: 0.9)",
    "cosine": "lr.CosineAnnealingDecay(0.5, T_max=4, eta_min=0.01)",
    "onecycle": "lr.OneCycleLR(max_learning_rate=1.0, total_steps=12)",
    "onecycle3": "lr.OneCycleLR(max_learning_rate=1.0, total_steps=12, three_phase=True, anneal_strategy='linear')",
    "cyclic": "lr.CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=2)",
    "cyclic2": "lr.CyclicLR(0.1, 1.0, step_size_up=2, mode='triangular2')",
    "cyclic_exp": "lr.CyclicLR(0.1, 1.0, step_size_up=2, mode='exp_range', exp_gamma=0.9)",
}
PLATEAU_METRICS = [1.0, 0.9, 0.95, 0.96, 0.97, 0.8, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9]


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    rng = np.random.RandomState(3)
    w0 = rng.standard_normal((4, 3)).astype("float32")
    b0 = rng.standard_normal(3).astype("float32")
    xs = rng.standard_normal((3, 6, 4)).astype("float32")
    ys = rng.standard_normal((3, 6, 3)).astype("float32")
    arrays = {"w0": w0, "b0": b0, "xs": xs, "ys": ys}
    meta = {"paddle_version": paddle.__version__, "optimizers": OPTS, "schedulers": SCHEDS,
            "program": "Linear(4,3) (w0,b0); loss=mean((net(x)-y)^2); 3x(backward, step, clear_grad)",
            "opt_state_keys": {}, "losses": {}, "sched_lrs": {}}
    for tag, spell in OPTS.items():
        net = paddle.nn.Linear(4, 3)
        net.set_state_dict({"weight": w0, "bias": b0})
        ps = net.parameters()  # noqa: F841 - used by eval
        opt = eval(spell)
        losses = []
        for i in range(3):
            loss = ((net(paddle.to_tensor(xs[i])) - paddle.to_tensor(ys[i])) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            if isinstance(opt._learning_rate, paddle.optimizer.lr.LRScheduler):
                opt._learning_rate.step()
            losses.append(float(loss))
        meta["losses"][tag] = losses
        arrays[tag + "__weight"] = net.weight.numpy()
        arrays[tag + "__bias"] = net.bias.numpy()
        sd = opt.state_dict()
        meta["opt_state_keys"][tag] = [k.replace(net.weight.name, "W").replace(net.bias.name, "B") for k in sd]
        for k, v in sd.items():
            if isinstance(v, paddle.Tensor):
                arrays[tag + "__state__" + k.replace(net.weight.name, "W").replace(net.bias.name, "B")] = v.numpy()
    lr = paddle.optimizer.lr  # noqa: F841 - used by eval
    for tag, spell in SCHEDS.items():
        s = eval(spell)
        vals = []
        for _ in range(12):
            vals.append(s())
            s.step()
        meta["sched_lrs"][tag] = vals
        meta.setdefault("sched_state", {})[tag] = {k: v for k, v in s.state_dict().items()
                                                   if not isinstance(v, dict)}
    s = paddle.optimizer.lr.ReduceOnPlateau(0.5, factor=0.5, patience=1, cooldown=1)
    vals = []
    for m in PLATEAU_METRICS:
        s.step(m)
        vals.append(s())
    meta["sched_lrs"]["plateau"] = vals
    meta["plateau_metrics"] = PLATEAU_METRICS
    meta["plateau_state"] = s.state_dict()
    save("nn26_optim", arrays, meta)


if __name__ == "__main__":
    main()
