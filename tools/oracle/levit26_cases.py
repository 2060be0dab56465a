"""One dygraph SGD step of a small LeViT-style network (written here over the public API, after the ops PaddleClas
2.5's LeViT uses: Conv2D + BatchNorm2D stem, Hardswish, tokens by flatten / transpose, Linear without bias +
BatchNorm1D over the flattened tokens, attention whose bias is gathered from a [heads, offsets] parameter by
paddle.gather on its transpose with rows of an int64 index buffer, concat, transpose, reshape((0, n, n)), softmax,
a strided token subsample, mean over tokens, a BatchNorm1D + Linear head), recorded on real Paddle 2.6.2 by
rec_cases26.py as golden levit_block26; tests/nn/test_levit26.py replays it here.

Issue 25 item 7 (tools/zoo26): LeViT_128S's dygraph loss after the step differed from 2.6.2 by 1.8e-3 in float32;
in float64 the two agree to 2e-9 (loss) and 2e-7 (every weight gradient), i.e. the float32 difference is the
rounding noise that the training-mode BatchNorm1D head over a batch of 2 amplifies. These cases pin the same ops in
float64, where that noise is out of the way, and in float32 at a well-conditioned batch of 4.
"""
import itertools
import re
import warnings

import numpy as np

RES = 4  # token grid side after the stem (16x16 input, two stride-2 convolutions)


def _values(shape, seed, scale=None):
    rng = np.random.RandomState(seed)
    n = rng.standard_normal(shape)
    if scale is None:
        scale = 1.0 / np.sqrt(max(int(np.prod(shape[1:])) if len(shape) > 2 else shape[0], 1))
    return (n * scale).astype("float32")


def _bias_index(res, stride=1, res_q=None):
    """LeViT's offset table: the [len(q points), len(k points)] int64 index of |p_q * stride - p_k| per axis."""
    res_q = res if res_q is None else res_q
    offsets, idx = {}, []
    for p1 in itertools.product(range(res_q), range(res_q)):
        for p2 in itertools.product(range(res), range(res)):
            off = (abs(p1[0] * stride - p2[0]), abs(p1[1] * stride - p2[1]))
            idx.append(offsets.setdefault(off, len(offsets)))
    return np.array(idx, "int64").reshape(res_q * res_q, res * res), len(offsets)


def _build(paddle):
    nn = paddle.nn

    class LinearBN(nn.Layer):
        def __init__(self, a, b):
            super().__init__()
            self.c = nn.Linear(a, b, bias_attr=False)
            self.bn = nn.BatchNorm1D(b)

        def forward(self, x):
            y = self.c(x)
            return paddle.reshape(self.bn(y.flatten(0, 1)), y.shape)

    def gather_bias(table, idx):
        t = paddle.transpose(table, (1, 0))
        rows = [paddle.gather(t, idx[i]) for i in range(idx.shape[0])]
        return paddle.transpose(paddle.concat(rows), (1, 0)).reshape((0, idx.shape[0], idx.shape[1]))

    class Attention(nn.Layer):
        def __init__(self, dim, kd, nh, ratio, res, stride=1):
            super().__init__()
            self.nh, self.kd, self.d, self.stride, self.res = nh, kd, ratio * kd, stride, res
            self.scale = kd ** -0.5
            if stride == 1:
                self.qkv = LinearBN(dim, nh * (2 * kd + self.d))
                idx, n_off = _bias_index(res)
            else:
                self.kv = LinearBN(dim, nh * (kd + self.d))
                self.q = LinearBN(dim, nh * kd)
                idx, n_off = _bias_index(res, stride, (res - 1) // stride + 1)
            self.act = nn.Hardswish()
            self.proj = LinearBN(nh * self.d, dim if stride == 1 else 2 * dim)
            self.biases = self.create_parameter([nh, n_off], default_initializer=nn.initializer.Constant(0.0))
            self.register_buffer("idx", paddle.to_tensor(idx))

        def forward(self, x):
            b, n, c = x.shape
            if self.stride == 1:
                qkv = paddle.reshape(self.qkv(x), [b, n, self.nh, -1])
                q, k, v = paddle.split(qkv, [self.kd, self.kd, self.d], axis=3)
            else:
                kv = paddle.reshape(self.kv(x), [b, n, self.nh, -1])
                k, v = paddle.split(kv, [self.kd, self.d], axis=3)
                xs = paddle.reshape(x, [b, self.res, self.res, c])[:, 0::self.stride, 0::self.stride]
                q = paddle.reshape(self.q(paddle.reshape(xs, [b, -1, c])), [b, -1, self.nh, self.kd])
            q, k, v = (paddle.transpose(t, perm=[0, 2, 1, 3]) for t in (q, k, v))
            attn = paddle.matmul(q, paddle.transpose(k, perm=[0, 1, 3, 2])) * self.scale
            attn = paddle.nn.functional.softmax(attn + gather_bias(self.biases, self.idx))
            x = paddle.transpose(paddle.matmul(attn, v), perm=[0, 2, 1, 3])
            return self.proj(self.act(paddle.reshape(x, [b, -1, self.nh * self.d])))

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(
                nn.Conv2D(3, 8, 3, 2, 1, bias_attr=False), nn.BatchNorm2D(8), nn.Hardswish(),
                nn.Conv2D(8, 16, 3, 2, 1, bias_attr=False), nn.BatchNorm2D(16))
            self.attn = Attention(16, 4, 2, 2, RES)
            self.mlp = nn.Sequential(LinearBN(16, 32), nn.Hardswish(), LinearBN(32, 16))
            self.down = Attention(16, 4, 2, 2, RES, stride=2)
            self.head_bn = nn.BatchNorm1D(32)
            self.head = nn.Linear(32, 10)

        def forward(self, x):
            x = paddle.transpose(self.stem(x).flatten(2), perm=[0, 2, 1])
            x = paddle.add(x, self.attn(x))
            x = paddle.add(x, self.mlp(x))
            x = self.down(x)
            return self.head(self.head_bn(x.mean(1)))

    return Net()


def _step(paddle, dtype, batch):
    paddle.seed(25)
    paddle.set_default_dtype(dtype)  # not net.to(dtype): that casts the int64 index buffers too
    try:
        net = _build(paddle)
    finally:
        paddle.set_default_dtype("float32")
    for i, (k, v) in enumerate(sorted(net.state_dict().items())):
        if "float" not in str(v.dtype):
            continue
        if "_variance" in k:
            val = np.random.RandomState(100 + i).uniform(0.5, 1.5, v.shape).astype("float32")
        elif "_mean" in k:
            val = _values(v.shape, 100 + i, 0.1)
        elif k.endswith("biases"):
            val = _values(v.shape, 100 + i, 0.5)
        elif len(v.shape) == 1:
            val = (1.0 if k.endswith("weight") else 0.0) + _values(v.shape, 100 + i, 0.1)
        else:
            val = _values(v.shape, 100 + i)
        v.set_value(val.astype(dtype))
    x = paddle.to_tensor(_values([batch, 3, 16, 16], 7, 1.0).astype(dtype))
    out = {}
    net.eval()
    out["eval"] = net(x).numpy()
    net.train()
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=net.parameters())
    y = net(x)
    loss = paddle.mean(paddle.square(y))
    loss.backward()
    out["train"], out["loss"] = y.numpy(), np.asarray(loss.numpy()).reshape(-1)
    for k, p in net.named_parameters():
        if p.grad is not None:  # not the BatchNorm statistics (parameters with stop_gradient)
            out["grad_" + k] = p.grad.numpy()
    opt.step()
    opt.clear_grad()
    for k, v in net.state_dict().items():
        out["post_" + k] = v.numpy()
    net.eval()
    out["after"] = net(x).numpy()
    return out


def levit_step_float64(paddle):
    return _step(paddle, "float64", 2)


def levit_step_float32(paddle):
    return _step(paddle, "float32", 8)


def _probe_net(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.BatchNorm(2), paddle.nn.BatchNorm1D(2))
    net.register_buffer("idx", paddle.to_tensor([1, 2], dtype="int64"))
    net.register_buffer("tmp", paddle.to_tensor([3], dtype="int32"), persistable=False)
    return net


def _dtypes(net):
    return np.array([str(v.dtype).replace("paddle.", "") for v in net.parameters() + net.buffers()])


def layer_to_dtype_casts_int_buffers(paddle):
    # how LeViT's int64 attention_bias_idxs buffer fares under the ways of casting a layer: Layer.to(dtype=...)
    # casts every parameter and buffer (ints too); float / float16 / bfloat16 the floating point ones of every
    # sublayer but the excluded types (legacy nn.BatchNorm by default); float16 on CPU keeps the layer as it is
    out = {}
    for name, call in (("to_float64", lambda n: n.to(dtype="float64")),
                       ("to_float64_then_float", lambda n: n.to(dtype="float64").float()),
                       ("float_excluding_linear", lambda n: n.to(dtype="float64").float(paddle.nn.Linear)),
                       ("bfloat16", lambda n: n.bfloat16()),
                       ("bfloat16_excluding_bn1d", lambda n: n.bfloat16([paddle.nn.BatchNorm1D])),
                       ("float16_cpu", lambda n: n.float16())):
        net = _probe_net(paddle)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out[name + "_returns_self"] = np.array(call(net) is net)
        out[name] = _dtypes(net)
        out[name + "_warns"] = np.array([str(w.message) for w in caught if "support" in str(w.message)] or [""])
    return out


def set_value_refuses_another_dtype(paddle):
    # found setting float32 parameter values into a float64 copy of a zoo model: Tensor.set_value and
    # Layer.set_state_dict refuse a value of another dtype (AssertionError) instead of casting it
    lin = paddle.nn.Linear(2, 2)
    out = {}
    for name, call in (
            ("numpy_float64", lambda: lin.weight.set_value(np.ones((2, 2), "float64"))),
            ("numpy_int64", lambda: lin.weight.set_value(np.ones((2, 2), "int64"))),
            ("tensor_float64", lambda: lin.weight.set_value(paddle.ones([2, 2], "float64"))),
            ("set_state_dict_float64", lambda: lin.set_state_dict({"weight": np.full((2, 2), 5.0),
                                                                   "bias": np.ones(2, "float32")})),
            ("numpy_float32", lambda: lin.weight.set_value(np.full((2, 2), 3.0, "float32")))):
        try:
            call()
            out[name] = np.array(["", ""])
        except Exception as e:  # noqa: BLE001 - the error is the result
            # the variable's name varies with what ran before; ours adds a hint after Paddle's words
            msg = re.sub(r"\[ \S+ \]", "[ NAME ]", str(e)).split(" (Tensor.set_value")[0]
            out[name] = np.array([type(e).__name__, msg])
    out["weight_after"] = lin.weight.numpy()
    return out


CASES = [levit_step_float64, levit_step_float32, layer_to_dtype_casts_int_buffers, set_value_refuses_another_dtype]
