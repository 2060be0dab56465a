"""paddle.nn.Layer behaviour (hooks, buffers, sublayers, state_dict, naming, errors) and the common layers
inside static programs."""

from __future__ import annotations

import numpy as np
import pytest


def test_hooks_buffers_and_traversal():
    import paddle
    import paddle.nn as nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 2)
            self.w = self.create_parameter([2], default_initializer=nn.initializer.Constant(1.0))
            self.register_buffer("steps", paddle.to_tensor([0]))
            self.register_buffer("tmp", paddle.to_tensor([1.0]), persistable=False)

        def forward(self, x):
            return self.fc(x) * self.w

    net = Net()
    assert net.full_name() == "net_0" and net.w.name == "net_0.w_0" and net.fc.weight.name == "linear_0.w_0"
    assert list(net.state_dict()) == ["w", "steps", "fc.weight", "fc.bias"]  # non-persistable buffer left out
    assert [n for n, _ in net.named_buffers()] == ["steps", "tmp"]
    assert [n for n, _ in net.named_parameters()] == ["w", "fc.weight", "fc.bias"]
    assert [n for n, _ in net.named_sublayers(prefix="m")] == ["m.fc"]
    assert net.sublayers(include_self=True)[0] is net and list(net.children()) == [net.fc]
    x = paddle.ones([1, 3])
    h1 = net.register_forward_pre_hook(lambda layer, inp: (inp[0] * 2,))
    h2 = net.register_forward_post_hook(lambda layer, inp, out: out + 100)
    base = (net.fc(x * 2) * net.w).numpy() + 100
    np.testing.assert_allclose(net(x).numpy(), base, rtol=1e-6)
    h1.remove()
    h2.remove()
    np.testing.assert_allclose(net(x).numpy(), (net.fc(x) * net.w).numpy(), rtol=1e-6)
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "Net"]
    net.eval()
    assert not net.training and not net.fc.training
    net.train()
    assert net.fc.training
    missing, unexpected = net.set_state_dict({"w": np.full([2], 3.0, "float32"), "extra": np.zeros(1)})
    assert missing == ["steps", "fc.weight", "fc.bias"] and unexpected == ["extra"]
    np.testing.assert_array_equal(net.w.numpy(), [3.0, 3.0])
    with pytest.raises(ValueError, match=r"w receives a shape \[3\], but the expected shape is \[2\]"):
        net.set_state_dict({"w": np.zeros(3, "float32")})
    net.to(dtype="float64")
    assert net.fc.weight.dtype == paddle.float64 and not net.fc.weight.stop_gradient


def test_containers():
    import paddle.nn as nn

    seq = nn.Sequential(("a", nn.ReLU()), ("b", nn.Linear(2, 2)))
    assert list(seq.state_dict()) == ["b.weight", "b.bias"] and isinstance(seq["a"], nn.ReLU) and len(seq) == 2
    ll = nn.LayerList([nn.Linear(2, 2) for _ in range(3)])
    ll.append(nn.ReLU())
    ll.insert(0, nn.Tanh())
    assert [type(m).__name__ for m in ll] == ["Tanh", "Linear", "Linear", "Linear", "ReLU"]
    del ll[0]
    assert isinstance(ll[0], nn.Linear) and isinstance(ll[-1], nn.ReLU)
    assert list(ll.state_dict())[:2] == ["0.weight", "0.bias"]
    pl = nn.ParameterList([ll[0].weight, ll[1].weight])
    assert len(pl) == 2 and list(pl.state_dict()) == ["0", "1"]


def _attach(net, make):
    net.add = make()


def _direct(net, make):
    net._sub_layers["direct"] = make()


def _list_append(net, make):
    net.blocks.append(make())


def _list_insert(net, make):
    net.blocks.insert(0, make())


def _dict_update(net, make):
    net.named.update({"u": make()})


def _setdefault(net, make):
    net._sub_layers.setdefault("sd", make())


def _nested(net, make):
    net.blocks[0].inner = make()


def _replace(net, make):
    net.head = make()


@pytest.mark.parametrize("change", [_attach, _direct, _list_append, _list_insert, _dict_update, _setdefault, _nested,
                                    _replace])
def test_train_eval_reach_layers_added_after_the_tree_was_walked(change):
    """train() / eval() keep the walked tree between calls (Layer._every_layer): every way a sublayer joins
    (attribute, container, nested, a script writing _sub_layers) is seen by the next call."""
    import paddle.nn as nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = nn.LayerList([nn.Sequential(nn.Linear(2, 2))])
            self.named = nn.LayerDict({"a": nn.ReLU()})
            self.head = nn.Linear(2, 2)

    net = Net()
    net.eval()
    net.train()  # walked (and kept) twice before the change
    change(net, lambda: nn.Dropout(0.5))
    added = [la for la in net.sublayers() if isinstance(la, nn.Dropout)]
    assert len(added) == 1 and added[0].training
    net.eval()
    assert not any(la.training for la in net.sublayers(include_self=True))
    net.train()
    assert all(la.training for la in net.sublayers(include_self=True))


def test_train_eval_after_removing_and_copying_sublayers():
    import copy
    import gc
    import pickle
    import weakref

    import paddle.nn as nn

    net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    net.eval()
    gone = weakref.ref(net[1])
    del net._sub_layers["1"]
    gc.collect()
    assert gone() is None  # the walked tree does not keep a removed sublayer alive
    twin = copy.deepcopy(net)
    twin.train()
    assert twin[0].training and not net[0].training  # the copy walks its own layers
    thawed = pickle.loads(pickle.dumps(twin))  # a walked layer still pickles (paddle.save of a whole model)
    thawed.eval()
    assert not thawed[0].training and twin[0].training
    ll = nn.LayerList([nn.Linear(2, 2)])
    ll.eval()
    del ll[0]
    ll.append(nn.Linear(2, 2))
    ll.eval()
    assert not ll[0].training

    class Compared(nn.Layer):  # defines __eq__, so it is unhashable
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)

        def __eq__(self, other):
            return isinstance(other, Compared)

    same = Compared()
    same.eval()
    same.eval()
    assert not same.fc.training


def test_layer_errors_name_the_api():
    import paddle
    import paddle.nn as nn

    with pytest.raises(ValueError, match=r"paddle.nn.Conv2D: in_channels \(3\) must be divisible by groups \(2\)"):
        nn.Conv2D(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="paddle.nn.Embedding: padding_idx"):
        nn.Embedding(4, 2, padding_idx=9)
    with pytest.raises(ValueError, match="paddle.nn.BatchNorm2D: expected a 4-D input"):
        nn.BatchNorm2D(3)(paddle.ones([2, 3]))
    with pytest.raises(TypeError, match=r"paddle.nn.MaxPool2D\(\)"):
        nn.MaxPool2D()
    with pytest.raises(ValueError, match="direction should be forward or bidirect"):
        nn.LSTM(2, 3, direction="sideways")


def test_common_layers_in_static_program_match_dygraph():
    import paddle
    import paddle.nn as nn

    rng = np.random.RandomState(0)
    x_np = rng.standard_normal((4, 3, 6, 6)).astype("float32")
    ids_np = rng.randint(0, 10, (4, 5)).astype("int64")

    def build():
        conv, bn, fc = nn.Conv2D(3, 4, 3, padding=1), nn.BatchNorm2D(4), nn.Linear(4 * 6 * 6, 8)
        emb, ln, drop = nn.Embedding(10, 8), nn.LayerNorm(8), nn.Dropout(0.5)
        return conv, bn, fc, emb, ln, drop

    def forward(layers, x, ids):
        conv, bn, fc, emb, ln, drop = layers
        h = nn.ReLU()(bn(conv(x)))
        h = fc(paddle.flatten(h, 1))
        e = paddle.mean(emb(ids), axis=1)
        return ln(drop(h + e))

    dy_layers = build()
    weights = {p.name: (rng.standard_normal(p.shape) * 0.3).astype("float32")
               for layer in dy_layers for p in layer.parameters()}
    for layer in dy_layers:
        for p in layer.parameters():
            p.set_value(weights[p.name] if "w_2" not in p.name else np.abs(weights[p.name]) + 0.5)
    for layer in dy_layers:
        layer.eval()
    want = forward(dy_layers, paddle.to_tensor(x_np), paddle.to_tensor(ids_np)).numpy()

    from paddle_compat.engine.framework import unique_name

    unique_name.switch()  # same parameter names in the static program
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3, 6, 6])
        ids = paddle.static.data("ids", [None, 5], "int64")
        st_layers = build()
        out = forward(st_layers, x, ids)
    names = {p.name for p in main.all_parameters()}
    assert names == set(weights)
    startup_vars = set(startup.global_block().vars)
    assert names <= startup_vars  # initializers recorded in the startup program
    test_prog = main.clone(for_test=True)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    for n, v in weights.items():
        scope.find_var(n).get_tensor().set(v if "w_2" not in n else np.abs(v) + 0.5, paddle.CPUPlace())
    (got,) = exe.run(test_prog, feed={"x": x_np, "ids": ids_np}, fetch_list=[out])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    (train_out,) = exe.run(main, feed={"x": x_np, "ids": ids_np}, fetch_list=[out])
    assert not np.allclose(train_out, want)  # training mode: batch statistics and dropout


def test_lstm_static_program_matches_dygraph():
    import paddle
    import paddle.nn as nn

    from paddle_compat.engine.framework import unique_name

    x_np = np.random.RandomState(3).rand(2, 5, 3).astype("float32")
    lstm = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    vals = {p.name: p.numpy() for p in lstm.parameters()}
    lstm.eval()
    out, (h, c) = lstm(paddle.to_tensor(x_np))
    unique_name.switch()
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 5, 3])
        s_lstm = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
        s_out, (s_h, s_c) = s_lstm(x)
    assert "rnn" in [op.type for op in main.global_block().ops]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    for n, v in vals.items():
        paddle.static.global_scope().find_var(n).get_tensor().set(v, paddle.CPUPlace())
    got = exe.run(main.clone(for_test=True), feed={"x": x_np}, fetch_list=[s_out, s_h, s_c])
    for a, b in zip(got, (out, h, c)):
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-5, atol=1e-6)


def test_gru_with_sequence_length_static_matches_dygraph():
    import paddle
    import paddle.nn as nn

    from paddle_compat.engine.framework import unique_name

    x_np = np.random.RandomState(4).rand(3, 5, 2).astype("float32")
    lens = np.array([5, 2, 4], "int64")
    gru = nn.GRU(2, 3)
    vals = {p.name: p.numpy() for p in gru.parameters()}
    out, h = gru(paddle.to_tensor(x_np), sequence_length=paddle.to_tensor(lens))
    assert np.all(out.numpy()[1, 2:] == 0)  # padded steps give zero outputs (Paddle's rnn op)
    unique_name.switch()
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 5, 2])
        ln = paddle.static.data("len", [None], "int64")
        s_out, s_h = nn.GRU(2, 3)(x, sequence_length=ln)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    for n, v in vals.items():
        paddle.static.global_scope().find_var(n).get_tensor().set(v, paddle.CPUPlace())
    got = exe.run(main, feed={"x": x_np, "len": lens}, fetch_list=[s_out, s_h])
    np.testing.assert_allclose(got[0], out.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], h.numpy(), rtol=1e-5, atol=1e-6)


def test_layer_reprs_match_paddle():
    """Strings printed by Paddle 2.6.2 for the same layers."""
    import paddle.nn as nn

    layers = [nn.Conv2D(1, 4, 3, padding=1), nn.Conv2D(2, 4, (3, 2), stride=2, groups=2), nn.BatchNorm2D(4),
              nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(), nn.Linear(64, 3), nn.Dropout(0.3), nn.LayerNorm(8),
              nn.Embedding(10, 4), nn.LSTM(3, 4), nn.Softmax(), nn.LeakyReLU(0.1), nn.AvgPool2D(2), nn.GELU(),
              nn.Sequential(nn.Linear(2, 2), nn.ReLU())]
    want = 'Conv2D(1, 4, kernel_size=[3, 3], padding=1, data_format=NCHW)\nConv2D(2, 4, kernel_size=[3, 2], stride=[2, 2], groups=2, data_format=NCHW)\nBatchNorm2D(num_features=4, momentum=0.9, epsilon=1e-05)\nReLU()\nMaxPool2D(kernel_size=2, stride=None, padding=0)\nFlatten()\nLinear(in_features=64, out_features=3, dtype=float32)\nDropout(p=0.3, axis=None, mode=upscale_in_train)\nLayerNorm(normalized_shape=[8], epsilon=1e-05)\nEmbedding(10, 4, sparse=False)\nLSTM(3, 4\n  (0): RNN(\n    (cell): LSTMCell(3, 4)\n  )\n)\nSoftmax(axis=-1)\nLeakyReLU(negative_slope=0.1)\nAvgPool2D(kernel_size=2, stride=None, padding=0)\nGELU(approximate=False)\nSequential(\n  (0): Linear(in_features=2, out_features=2, dtype=float32)\n  (1): ReLU()\n)\n'
    assert "\n".join(repr(layer) for layer in layers) + "\n" == want
