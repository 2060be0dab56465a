"""paddle.geometric over the public API (see rec_cases26.py): message passing with every message / reduce op,
segment pooling, reindexing, and the gradients of send_ue_recv / send_uv; tests/api2x/test_geometric.py replays
them. (Paddle 2.6.2's CPU neighbor samplers crash without a perm buffer; they are checked by their properties.)"""
import numpy as np


def _graph(paddle):
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))
    y = paddle.to_tensor(np.arange(1, 16, dtype="float32").reshape(5, 3) / 10)
    src = paddle.to_tensor([0, 1, 2, 0, 1], dtype="int64")
    dst = paddle.to_tensor([1, 2, 1, 0, 1], dtype="int64")
    return x, y, src, dst


def message_passing(paddle):
    G = paddle.geometric
    x, y, src, dst = _graph(paddle)
    out = {f"u_recv_{r}": G.send_u_recv(x, src, dst, r).numpy() for r in ("sum", "mean", "max", "min")}
    out["u_recv_size3"] = G.send_u_recv(x, src, dst, "mean", out_size=3).numpy()
    for m in ("add", "sub", "mul", "div"):
        out[f"ue_recv_{m}_max"] = G.send_ue_recv(x, y, src, dst, m, "max").numpy()
        out[f"ue_recv_{m}_mean_b"] = G.send_ue_recv(x, paddle.ones([5, 1]) * 2, src, dst, m, "mean").numpy()
        out[f"uv_{m}"] = G.send_uv(x, x + 1, src, dst, m).numpy()
    return out


def segments_and_reindex(paddle):
    G = paddle.geometric
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))
    ids = paddle.to_tensor([0, 0, 1, 1], dtype="int32")
    out = {f"segment_{p}": getattr(G, f"segment_{p}")(x, ids).numpy() for p in ("sum", "mean", "max", "min")}
    nodes = paddle.to_tensor([0, 1, 2], dtype="int64")
    r = G.reindex_graph(nodes, paddle.to_tensor([8, 9, 0, 4, 7, 6, 7], dtype="int64"),
                        paddle.to_tensor([2, 3, 2], dtype="int32"))
    out.update(reindex_src=r[0].numpy(), reindex_dst=r[1].numpy(), reindex_nodes=r[2].numpy())
    h = G.reindex_heter_graph(nodes, [paddle.to_tensor([8, 9, 0, 4, 7, 6, 7], dtype="int64"),
                                      paddle.to_tensor([0, 2, 3, 5, 1], dtype="int64")],
                              [paddle.to_tensor([2, 3, 2], dtype="int32"), paddle.to_tensor([1, 3, 1], dtype="int32")])
    out.update(heter_src=h[0].numpy(), heter_dst=h[1].numpy(), heter_nodes=h[2].numpy())
    return out


def gradients(paddle):
    G = paddle.geometric
    x, y, src, dst = _graph(paddle)
    x.stop_gradient = False
    y.stop_gradient = False
    G.send_ue_recv(x, y, src, dst, "mul", "sum").sum().backward()
    out = {"ue_mul_sum_x": x.grad.numpy().copy(), "ue_mul_sum_y": y.grad.numpy().copy()}
    x.clear_gradient()
    y.clear_gradient()
    G.send_uv(x, y[:4], src, dst, "mul").sum().backward()
    out.update(uv_mul_x=x.grad.numpy().copy(), uv_mul_y=y.grad.numpy().copy())
    x.clear_gradient()
    (G.send_u_recv(x, src, dst, "max") * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    out["u_recv_max_x"] = x.grad.numpy()
    return out


CASES = [message_passing, segments_and_reindex, gradients]
