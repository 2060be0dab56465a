"""paddle.nn.functional.flash_attention over the public API (see rec_cases26.py); Paddle 2.6.2 on CPU runs its
math fallback, which has no causal kernel there (test_attention26.py checks causal against masked math)."""
import numpy as np


def flash_attention_math(paddle):
    from paddle.nn.functional.flash_attention import flash_attention, scaled_dot_product_attention

    rs = np.random.RandomState(0)
    q, k, v = (paddle.to_tensor(rs.rand(2, 5, 3, 8).astype("float32")) for _ in range(3))
    q.stop_gradient = False
    out, weights = flash_attention(q, k, v, return_softmax=True)
    plain, none = flash_attention(q, k, v)
    (out * out).sum().backward()
    return {"out": out.numpy(), "weights": weights.numpy(), "plain": plain.numpy(), "none": np.array(none is None),
            "sdpa": scaled_dot_product_attention(q, k, v).numpy(), "qgrad": q.grad.numpy()}


CASES = [flash_attention_math]
