"""Cases over the public API (each takes the `paddle` module, returns {name: array}) reduced from PaddleTest
`framework/api/nn` failures (tools/paddletest/run.py --areas nn): recorded on Paddle 2.6.2 by
`rec_cases26.py paddletest26_nn_cases paddletest26_nn`, replayed by tests/api2x/test_paddletest26_nn.py
(an expected error: record it with paddletest26_cases._raises)."""
import numpy as np

X23 = np.array([[0.5, -1.25, 2.0], [-3.0, 0.0, 1.5]])


def alpha_dropout_p1(paddle):
    """p=1 in training gives scale(x, 0.0); p=0 gives x; both layer and functional (nn/test_alpha_dropout2, 3)."""
    x = paddle.to_tensor(X23)
    out = {}
    for p in (0.0, 1.0):
        out[f"functional_p{p:g}"] = paddle.nn.functional.alpha_dropout(x, p=p).numpy()
        out[f"layer_p{p:g}"] = paddle.nn.AlphaDropout(p=p)(x).numpy()
    out["eval_p1"] = paddle.nn.functional.alpha_dropout(x, p=1.0, training=False).numpy()
    return out


CASES = [alpha_dropout_p1]
