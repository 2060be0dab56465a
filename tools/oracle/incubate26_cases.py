"""paddle.incubate cases over the public API (see rec_cases26.py): the gradients of max / min pools at ties and
over duplicated edges (every element equal to the result gets the gradient, once per edge)."""
import numpy as np

TIES = [[1.0, 2.0, 3.0], [1.0, 5.0, 0.5], [4.0, 5.0, 6.0], [4.0, -1.0, 6.0]]


def _grad(paddle, fn):
    x = paddle.to_tensor(np.array(TIES))
    x.stop_gradient = False
    y = fn(x)
    (y * paddle.to_tensor(np.arange(1, y.size + 1, dtype="float64").reshape(y.shape))).sum().backward()
    return {"out": y.numpy(), "grad": x.grad.numpy()}


def segment_max_ties(paddle):
    return _grad(paddle, lambda x: paddle.incubate.segment_max(x, paddle.to_tensor([0, 0, 2, 2])))


def segment_min_ties(paddle):
    return _grad(paddle, lambda x: paddle.incubate.segment_min(x, paddle.to_tensor([0, 0, 2, 2])))


def send_recv_max_duplicated_edges(paddle):
    return _grad(paddle, lambda x: paddle.incubate.graph_send_recv(
        x, paddle.to_tensor([0, 1, 2, 3, 0, 2]), paddle.to_tensor([1, 2, 1, 0, 1, 3]), "max"))


def send_recv_min_ties(paddle):
    return _grad(paddle, lambda x: paddle.incubate.graph_send_recv(
        x, paddle.to_tensor([0, 1, 2, 3]), paddle.to_tensor([0, 0, 1, 1]), "min", out_size=3))


CASES = [segment_max_ties, segment_min_ties, send_recv_max_duplicated_edges, send_recv_min_ties]
