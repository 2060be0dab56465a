"""The dygraph Tensor: Paddle's attributes, conversions and autograd over torch."""

from __future__ import annotations

import numpy as np
import pytest


def test_tensor_attributes_follow_paddle():
    import paddle

    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    where = "gpu:0" if paddle.is_compiled_with_cuda() else "cpu"  # Paddle's default place
    assert x.shape == [2, 2] and isinstance(x.shape, list)
    assert x.dtype == paddle.float32 and str(x.dtype) == "paddle.float32"
    assert str(x.place) == f"Place({where})"
    assert x.stop_gradient is True
    assert x.ndim == 2 and x.size == 4
    assert paddle.to_tensor([1, 2]).dtype == paddle.int64
    assert paddle.to_tensor(np.zeros(2, "float64")).dtype == paddle.float64
    assert paddle.to_tensor(True).dtype == paddle.bool
    assert x.astype("int32").dtype == paddle.int32
    assert x.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert paddle.to_tensor([3.5]).item() == 3.5
    np.testing.assert_array_equal(np.array(x), x.numpy())
    assert f"Tensor(shape=[2, 2], dtype=float32, place=Place({where}), stop_gradient=True" in repr(x)


def test_full_reduction_has_shape_one_as_paddle_2_4():
    import paddle

    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    assert paddle.sum(x).shape == [1]
    assert paddle.mean(x).shape == [1]
    assert x.max().shape == [1]


def test_backward_gradient_clear_gradient():
    import paddle

    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = paddle.mean(paddle.matmul(x, x) * 2)
    assert y.stop_gradient is False
    y.backward()
    want = np.array([[3.5, 5.5], [4.5, 6.5]], "float32")
    np.testing.assert_allclose(x.grad.numpy(), want)
    np.testing.assert_allclose(x.gradient(), want)
    x.clear_gradient()
    np.testing.assert_array_equal(x.gradient(), np.zeros((2, 2), "float32"))


def test_stop_gradient_propagates_and_detaches():
    import paddle

    a = paddle.to_tensor([1.0], stop_gradient=False)
    b = paddle.to_tensor([2.0])
    c = a * b
    assert c.stop_gradient is False and (b * b).stop_gradient is True
    c.stop_gradient = True
    d = c * a
    d.backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.0])  # only through the direct use of a


def test_no_grad_and_grad():
    import paddle

    x = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
    with paddle.no_grad():
        assert (x * x).stop_gradient is True
    y = paddle.sum(x * x)
    (gx,) = paddle.grad(y, x)
    np.testing.assert_allclose(gx.numpy(), [4.0, 6.0])

    @paddle.no_grad()
    def f(t):
        return t * 2

    assert f(x).stop_gradient is True


def test_seed_makes_random_ops_repeatable():
    import paddle

    paddle.seed(7)
    a = paddle.uniform([4]).numpy()
    paddle.seed(7)
    np.testing.assert_array_equal(a, paddle.uniform([4]).numpy())


def test_places_and_devices():
    import paddle

    assert paddle.get_device() in ("cpu", "gpu:0")
    assert paddle.set_device("cpu") == paddle.CPUPlace()
    assert paddle.get_device() == "cpu"
    if not paddle.is_compiled_with_cuda():
        with pytest.raises(RuntimeError, match="CUDAPlace\\(0\\).*CPUPlace"):
            paddle.set_device("gpu:0")
        with pytest.raises(RuntimeError, match="CUDAPlace"):
            paddle.static.Executor(paddle.CUDAPlace(0)).run(paddle.static.Program())
    with pytest.raises(RuntimeError, match="XPU"):
        paddle.set_device("xpu:0")
    with pytest.raises(ValueError, match="device should be"):
        paddle.set_device("tpu")


def test_tensor_operators_and_reflected():
    import paddle

    x = paddle.to_tensor([1.0, 2.0])
    np.testing.assert_allclose((2 - x).numpy(), [1.0, 0.0])
    np.testing.assert_allclose((1 / x).numpy(), [1.0, 0.5])
    np.testing.assert_allclose((x ** 2).numpy(), [1.0, 4.0])
    np.testing.assert_allclose((-x).numpy(), [-1.0, -2.0])
    np.testing.assert_allclose((x @ x).numpy(), 5.0)
    assert (paddle.to_tensor([3]) / 2).dtype == paddle.float32


def test_tensor_block_and_auto_parallel_attributes_as_paddle_26():
    """Paddle 2.6.2: an eager Tensor's `block` is the default main program's global block; `dist_attr` and
    `num_shard` are None on a dense tensor."""
    import paddle

    t = paddle.to_tensor([1.0, 2.0])
    assert t.block is paddle.static.default_main_program().global_block()
    assert t.dist_attr is None and t.num_shard is None


def test_reassigned_parameter_keeps_its_place():
    """Paddle 2.6.2: `layer.weight = new_param` keeps named_parameters() order (weight, bias)."""
    import paddle

    lin = paddle.nn.Linear(2, 3)
    lin.weight = paddle.create_parameter([2, 3], "float32")
    assert [n for n, _ in lin.named_parameters()] == ["weight", "bias"]


@pytest.mark.parametrize("opt", ["Momentum", "Adam", "SGD"])
def test_clear_grad_reads_as_zeros_and_steps_as_paddle(opt):
    """clear_grad() (set_to_zero) keeps Paddle's zero gradient without storing zeros: `grad` reads zeros, the next
    backward's gradient is not added to anything, and a parameter that backward does not reach is still updated
    with a zero gradient (Momentum's velocity, Adam's moments move), as with a zero-filled buffer."""
    import paddle

    paddle.disable_static()
    paddle.seed(3)
    used, unused = paddle.nn.Linear(3, 2), paddle.nn.Linear(3, 2)
    params = used.parameters() + unused.parameters()
    o = getattr(paddle.optimizer, opt)(learning_rate=0.1, parameters=params)
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    (used(x).sum() + unused(x).sum()).backward()
    o.step()
    o.clear_grad()
    assert all(np.array_equal(p.grad.numpy(), np.zeros(p.shape, "float32")) for p in params)
    before = [p.numpy().copy() for p in unused.parameters()]
    used(x).sum().backward()  # `unused` gets no gradient from this backward
    np.testing.assert_array_equal(used.weight.grad.numpy(), np.tile(x.numpy().sum(0)[:, None], (1, 2)))
    o.step()
    moved = [not np.array_equal(b, p.numpy()) for b, p in zip(before, unused.parameters())]
    assert moved == ([False, False] if opt == "SGD" else [True, True])  # a zero gradient still steps the state
    o.clear_grad(set_to_zero=False)
    assert all(p.grad is None for p in params)
