"""The 2.x idioms of issue 12 item 2, each a case run by real Paddle 2.6.2 (tools/oracle/rec_run26.py ->
tests/goldens/idioms26.*) and by us (tests/test_idioms26.py): `CASES[name](paddle)` returns {key: array}.
Errors (whose wording differs) are checked in tests/test_idioms26.py only."""

import numpy as np


def loader_is_callable(paddle):
    """`for data in loader():` -- the tutorials' loop."""

    class Squares(paddle.io.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return np.array([i, i * i], "float32"), np.array([i % 2], "int64")

    loader = paddle.io.DataLoader(Squares(), batch_size=2, shuffle=False, drop_last=False)
    xs, ys = [], []
    for x, y in loader():
        xs.append(x.numpy())
        ys.append(y.numpy())
    return {"x": np.concatenate(xs), "y": np.concatenate(ys), "batches": np.array([len(xs)])}


def default_dtype_float64(paddle):
    """paddle.set_default_dtype('float64'): the dtype of what layers and creation functions make."""
    nn = paddle.nn
    makers = {
        "Linear": lambda: nn.Linear(3, 2).weight,
        "Linear_bias": lambda: nn.Linear(3, 2).bias,
        "Conv2D": lambda: nn.Conv2D(2, 2, 3).weight,
        "Conv1DTranspose": lambda: nn.Conv1DTranspose(2, 2, 3).weight,
        "BatchNorm2D_mean": lambda: nn.BatchNorm2D(2)._mean,
        "BatchNorm1D_weight": lambda: nn.BatchNorm1D(2).weight,
        "LayerNorm": lambda: nn.LayerNorm(4).weight,
        "Embedding": lambda: nn.Embedding(4, 3).weight,
        "LSTM": lambda: nn.LSTM(2, 3).weight_ih_l0,
        "GRUCell": lambda: nn.GRUCell(2, 3).weight_hh,
        "PReLU": lambda: nn.PReLU().parameters()[0],
        "create_parameter": lambda: paddle.create_parameter([2], "float64"),
        "to_tensor_float": lambda: paddle.to_tensor(1.5),
        "to_tensor_list": lambda: paddle.to_tensor([1.0, 2.0]),
        "randn": lambda: paddle.randn([2]),
        "rand": lambda: paddle.rand([2]),
        "uniform": lambda: paddle.uniform([2]),
        "normal": lambda: paddle.normal(shape=[2]),
        "linear_out": lambda: nn.Linear(3, 2)(paddle.ones([1, 3], "float64")),
    }
    paddle.set_default_dtype("float64")
    try:
        dtypes = {k: str(f().dtype).replace("paddle.", "") for k, f in makers.items()}
    finally:
        paddle.set_default_dtype("float32")
    return {k: np.array([v]) for k, v in dtypes.items()}


def tensor_idioms(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    z = (y * y).sum()
    z.backward()
    flags = {
        "bool_sg": paddle.to_tensor([True], stop_gradient=False).stop_gradient,
        "int_sg": paddle.to_tensor([1, 2], stop_gradient=False).stop_gradient,
        "float_sg": paddle.to_tensor([1.0], stop_gradient=False).stop_gradient,
        "nonleaf_grad_is_none": (x * 3).grad is None,
        "leaf_retain_grads": x.retain_grads() is None,
    }
    out = {k: np.array([v]) for k, v in flags.items()}
    out["numpy_false"] = x.numpy(False)
    out["y_grad"] = y.grad.numpy()
    out["x_grad"] = x.grad.numpy()
    return out


def dropout_p_tensor(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(np.arange(1, 7, dtype="float32").reshape(2, 3))
    return {
        "p0": F.dropout(x, p=paddle.to_tensor([0.0])).numpy(),
        "p1": F.dropout(x, p=paddle.to_tensor([1.0])).numpy(),
        "p0_eval_downscale": F.dropout(x, p=paddle.to_tensor([0.25]), training=False, mode="downscale_in_infer").numpy(),
        "p1_axis": F.dropout(x, p=paddle.to_tensor([1.0]), axis=1).numpy(),
    }


def multiplicative_decay_get_lr(paddle):
    """PaddleTest's optimizer/test_MultiplicativeDecay idiom: get_lr() after each step()."""
    s = paddle.optimizer.lr.MultiplicativeDecay(learning_rate=0.2, lr_lambda=lambda e: 0.95)
    got = []
    for _ in range(4):
        s.step()
        got.append(s.get_lr())
    return {"get_lr": np.array(got), "call": np.array([s()])}


CASES = {f.__name__: f for f in (loader_is_callable, default_dtype_float64, tensor_idioms, dropout_p_tensor,
                                  multiplicative_decay_get_lr)}

