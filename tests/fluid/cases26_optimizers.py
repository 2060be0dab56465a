"""paddle.incubate.LookAhead / ModelAverage (dygraph and static) and paddle.static.ExponentialMovingAverage training a small MLP from fixed parameters: the loss and parameters after each step,
and the parameters inside apply() and after restore(). Shared by tools/oracle/rec_run26.py (golden
optimizers26_shared) and tests/fluid/test_optimizers18.py."""

import numpy as np

rs = np.random.RandomState(2606)
X = rs.randn(6, 4).astype("float32")
Y = rs.randn(6, 2).astype("float32")
W = [rs.randn(4, 3).astype("float32") * 0.5, rs.randn(3).astype("float32") * 0.1,
     rs.randn(3, 2).astype("float32") * 0.5, rs.randn(2).astype("float32") * 0.1]
STEPS = 5


def _dygraph(paddle, name):
    res = {}
    paddle.disable_static()
    l1, l2 = paddle.nn.Linear(4, 3), paddle.nn.Linear(3, 2)
    params = [l1.weight, l1.bias, l2.weight, l2.bias]
    for p, w in zip(params, W):
        p.set_value(w)
    sgd = paddle.optimizer.SGD(0.2, parameters=params)
    extra = None
    if name == "lookahead":
        opt = paddle.incubate.LookAhead(sgd, alpha=0.4, k=2)
    else:
        opt = sgd
        extra = paddle.incubate.ModelAverage(0.5, parameters=params, min_average_window=2, max_average_window=3)
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    for i in range(STEPS):
        loss = paddle.mean(paddle.square(l2(paddle.tanh(l1(x))) - y))
        loss.backward()
        opt.step()
        if extra is not None:
            extra.step()
        opt.clear_grad()
        res[f"dy_{name}|step{i}|loss"] = loss.numpy().reshape(-1)
        for j, p in enumerate(params):
            res[f"dy_{name}|step{i}|p{j}"] = p.numpy()
    if extra is not None:
        with extra.apply():
            for j, p in enumerate(params):
                res[f"dy_{name}|applied|p{j}"] = p.numpy()
        for j, p in enumerate(params):
            res[f"dy_{name}|restored|p{j}"] = p.numpy()
    return res


def _static(paddle, name):
    res = {}
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.static.data("y", [-1, 2], "float32")
        h = paddle.static.nn.fc(x, 3, activation="tanh")
        loss = paddle.mean(paddle.square(paddle.static.nn.fc(h, 2) - y))
        sgd = paddle.optimizer.SGD(0.2)
        extra = None
        if name == "lookahead":
            paddle.incubate.LookAhead(sgd, alpha=0.4, k=2).minimize(loss)
        elif name == "model_average":
            sgd.minimize(loss)
            extra = paddle.incubate.ModelAverage(0.5, min_average_window=2, max_average_window=3)
        else:
            sgd.minimize(loss)
            # (2.6.2's thres_steps path fails in its own cond: recorded without it; fluid18_optimizers covers it)
            extra = paddle.static.ExponentialMovingAverage(0.8)
            extra.update()
    names = ["fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"]
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for n, w in zip(names, W):
            scope.find_var(n).get_tensor().set(w, paddle.CPUPlace())
        for i in range(STEPS):
            outs = exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss] + names)
            res[f"st_{name}|step{i}|loss"] = np.array(outs[0]).reshape(-1)
            for j, v in enumerate(outs[1:]):
                res[f"st_{name}|step{i}|p{j}"] = np.array(v)
        if extra is not None:
            with extra.apply(exe):
                for j, n in enumerate(names):
                    res[f"st_{name}|applied|p{j}"] = np.array(scope.find_var(n).get_tensor())
            for j, n in enumerate(names):
                res[f"st_{name}|restored|p{j}"] = np.array(scope.find_var(n).get_tensor())
    paddle.disable_static()
    return res


def run(paddle):
    res = {}
    for name in ("lookahead", "model_average"):
        res.update(_dygraph(paddle, name))
    for name in ("lookahead", "model_average", "ema"):
        res.update(_static(paddle, name))
    return res
