"""Reduced rows of what the 2.x model zoos exposed (tools/zoo26/run.py, issue 25 item 7), over the public API
(see rec_cases26.py); tests/zoo26/test_zoo26.py replays them against golden zoo26."""
import re

import numpy as np


def _err(fn):
    """(exception type name, message with class reprs generalised) of fn(), or ("", "") when it returns."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, re.sub(r"<class '[^']*'>", "<class>", str(e))
    return "", ""


def unique_endpoints(paddle):
    # PaddleDetection's ppdet/utils/download.py imports this private helper of paddle.utils.download
    from paddle.utils.download import _get_unique_endpoints

    out = {}
    for i, eps in enumerate([["127.0.0.1:6170"], ["10.0.0.2:1", "10.0.0.1:2", "10.0.0.1:1", "10.0.0.2:0"], []]):
        lst = list(eps)
        got = _get_unique_endpoints(lst)
        out["set_%d" % i] = np.array(sorted(got), dtype=str)
        out["sorted_in_place_%d" % i] = np.array(lst, dtype=str)
    return out


def static_variable_set_value(paddle):
    # PaddleNLP 2.1's RobertaModel / ElectraModel init_weights call weight.set_value(paddle.tensor.normal(...)) in
    # static mode: 2.6.2 refuses a Variable value (here it hung, indexing the Variable forever)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            w = paddle.static.create_parameter([2, 3], "float32", name="zoo26_sv_w")
            v = paddle.tensor.normal(0.0, 1.0, [2, 3])
        scope = paddle.static.Scope()
        out = {}
        with paddle.static.scope_guard(scope):
            paddle.static.Executor(paddle.CPUPlace()).run(startup)
            w.set_value(np.arange(6, dtype="float32").reshape(2, 3))
            out["after_ndarray"] = np.array(scope.find_var("zoo26_sv_w").get_tensor())
            for i, bad in enumerate([lambda: w.set_value(v), lambda: w.set_value([[1.0] * 3] * 2),
                                     lambda: w.set_value(np.ones((3, 2), "float32")),
                                     lambda: w.set_value(np.ones((2, 3), "float32"), scope="s"),
                                     lambda: w.set_value(np.ones((2, 3), "float32"), paddle.static.Scope())]):
                kind, msg = _err(bad)
                out["err_%d" % i] = np.array([kind, msg])
        return out
    finally:
        paddle.disable_static()


def layer_attribute_writes(paddle):
    # PaddleSeg's BiSeNetV2 heads hold nn.Dropout; code that sets `layer.p = 0.0` after construction (our runner,
    # and model code switching dropout off) must change what forward does, as in Paddle
    x = paddle.to_tensor(np.linspace(-2, 2, 24, dtype="float32").reshape(2, 3, 2, 2))
    out = {}
    d = paddle.nn.Dropout(0.5)
    d.train()
    d.p = 0.0
    out["dropout_p0"] = d(x).numpy()
    out["dropout_attrs"] = np.array([str(d.p), str(d.axis), d.mode])
    d2 = paddle.nn.Dropout2D(0.9)
    d2.train()
    d2.p = 0.0
    out["dropout2d_p0"] = d2(x).numpy()
    s = paddle.nn.Softmax(axis=0)
    s._axis = -1
    out["softmax_axis"] = s(x).numpy()
    lr = paddle.nn.LeakyReLU(0.1)
    lr._negative_slope = 0.3
    out["leaky_slope"] = lr(x).numpy()
    return out


def batch_norm_one_element_per_channel(paddle):
    # a training-mode BatchNorm over one element per channel (batch 1 after a global pool, as in PaddleSeg's ASPP
    # image pooling): Paddle's kernel copies x to y (no scale / shift) and keeps the running statistics
    out = {}
    x = np.array([1.5, -2.0, 0.25], "float32")
    for name, cls, shape in [("bn2d", paddle.nn.BatchNorm2D, [1, 3, 1, 1]), ("bn1d", paddle.nn.BatchNorm1D, [1, 3]),
                             ("bn2d_nhwc", paddle.nn.BatchNorm2D, [1, 1, 1, 3])]:
        kw = {"data_format": "NHWC"} if name.endswith("nhwc") else {}
        bn = cls(3, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(2.0)),
                 bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.5)), **kw)
        bn.train()
        t = paddle.to_tensor(x.reshape(shape), stop_gradient=False)
        y = bn(t)
        (y * paddle.to_tensor(np.arange(1, 4, dtype="float32").reshape(shape))).sum().backward()
        out[name + "_y"] = y.numpy()
        out[name + "_dx"] = t.grad.numpy()
        out[name + "_mean"] = bn._mean.numpy()
        out[name + "_var"] = bn._variance.numpy()
    return out


def static_parameter_frozen_after_creation(paddle):
    # PaddleDetection's ResNet sets param.stop_gradient = True on its frozen stages and norms after creating them;
    # in static mode minimize must leave those parameters alone (here SGD updated them: trainable was separate)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            lin = paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(
                initializer=paddle.nn.initializer.Assign(np.arange(6, dtype="float32").reshape(3, 2) / 6)))
            lin.weight.stop_gradient = True
            lin2 = paddle.nn.Linear(2, 2, bias_attr=paddle.ParamAttr(trainable=False))
            lin2.bias.trainable = True
            loss = paddle.mean(lin2(lin(x)) ** 2)
            paddle.optimizer.SGD(0.1).minimize(loss)
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            b0 = np.array(scope.find_var(lin2.bias.name).get_tensor()).copy()
            exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[loss])
            return {"w_after": np.array(scope.find_var(lin.weight.name).get_tensor()),
                    "bias2_moved": np.array(np.abs(np.array(scope.find_var(lin2.bias.name).get_tensor()) - b0).max()
                                            > 0),
                    "flags": np.array([lin.weight.trainable, lin2.bias.stop_gradient])}
    finally:
        paddle.disable_static()


CASES = [unique_endpoints, static_variable_set_value, layer_attribute_writes, batch_norm_one_element_per_channel,
         static_parameter_frozen_after_creation]
