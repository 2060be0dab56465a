"""Errors real Paddle raises where paddle_compat used to compute (issue 26: PaddleTest framework/api cases that
pass under 2.6.2 because the call raises). One row per call: `call(paddle, np)` runs it; `at24` says what Paddle
2.4 does with it (read from its source, silverling/paddle-paddle at f38e09f, 2022-11-19):

- "same": 2.4 raises the same error (the same check or the same missing CPU kernel);
- "computes": 2.4 has no such check, so at API level 2.4 we compute (the result's shape is `shape24`).

`match` is the substance of the message both Paddle and we must carry (a regex). The recorder
(rec_lvl26_errors.py, Paddle 2.6.2) writes each row's exception class and message to
tests/goldens/lvl26_errors.json; tests/api_level/test_level_errors.py replays the rows at both levels."""

import numpy as np


def _f(shape, dtype="float32", fill=0.5):
    return np.full(shape, fill, dtype=dtype)


ROWS = [
    # paddle.nn.functional.layer_norm over every dim of its input: 2.6.2's LayerNormInferMeta requires
    # begin_norm_axis > 0 (added 2023-05, PaddlePaddle #53178); 2.4's only requires begin_norm_axis < rank
    dict(id="layer_norm_1d", match=r"begin_norm_axis.*greater than zero.*\[0\]", at24="computes", shape24=[4],
         call=lambda paddle, np: paddle.nn.functional.layer_norm(paddle.to_tensor(np.arange(4, dtype="float32")), 4)),
    dict(id="layer_norm_full_2d", match=r"begin_norm_axis.*greater than zero.*\[0\]", at24="computes",
         shape24=[2, 4],
         call=lambda paddle, np: paddle.nn.functional.layer_norm(
             paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4)), [2, 4])),
    dict(id="LayerNorm_1d", match=r"begin_norm_axis.*greater than zero.*\[0\]", at24="computes", shape24=[4],
         call=lambda paddle, np: paddle.nn.LayerNorm(4)(paddle.to_tensor(np.arange(4, dtype="float32")))),
    # paddle.nn.functional.log_loss: LogLossInferMeta is the same in 1.8.5, 2.4 and 2.6.2
    dict(id="log_loss_dim1_2", match=r"2nd dimension of Input\(X\) must be 1.*\[2\]", at24="same",
         call=lambda paddle, np: paddle.nn.functional.log_loss(paddle.to_tensor(_f([4, 2])),
                                                               paddle.to_tensor(_f([4, 2], fill=1.0)))),
    dict(id="log_loss_rank1", match=r"dimensions of Input\(Predicted\) must be 2.*\[1\]", at24="same",
         call=lambda paddle, np: paddle.nn.functional.log_loss(paddle.to_tensor(_f([4])),
                                                               paddle.to_tensor(_f([4], fill=1.0)))),
    dict(id="log_loss_rank3", match=r"dimensions of Input\(Predicted\) must be 2.*\[3\]", at24="same",
         call=lambda paddle, np: paddle.nn.functional.log_loss(paddle.to_tensor(_f([4, 3, 1])),
                                                               paddle.to_tensor(_f([4, 3, 1], fill=1.0)))),
    dict(id="log_loss_label_shape", match=r"must be equal to the\s*dimensions of Input\(Labels\)", at24="same",
         call=lambda paddle, np: paddle.nn.functional.log_loss(paddle.to_tensor(_f([4, 1])),
                                                               paddle.to_tensor(_f([3, 1], fill=1.0)))),
    # no CPU kernel for the dtype (NotFound) in 2.4 and 2.6.2 (and in 1.8.5 where the op exists)
    dict(id="allclose_float16", match=r"NotFound.*allclose.*float16|allclose.*float16.*NotFound", at24="same",
         call=lambda paddle, np: paddle.allclose(paddle.to_tensor(np.array([10.001], "float16")),
                                                 paddle.to_tensor(np.array([10.00001], "float16")))),
    dict(id="eye_bool", match=r"eye.*bool", at24="same", call=lambda paddle, np: paddle.eye(5, dtype="bool")),
    dict(id="eye_int8", match=r"eye.*int8", at24="same", call=lambda paddle, np: paddle.eye(5, dtype="int8")),
    dict(id="index_select_float16", match=r"index_select.*float16", at24="same",
         call=lambda paddle, np: paddle.index_select(paddle.to_tensor(np.arange(6).reshape(2, 3).astype("float16")),
                                                     paddle.to_tensor(np.array([0, 2], "int32")), axis=1)),
    dict(id="index_select_bool", match=r"index_select.*bool", at24="same",
         call=lambda paddle, np: paddle.index_select(paddle.to_tensor(np.ones((2, 3), bool)),
                                                     paddle.to_tensor(np.array([0, 2], "int32")), axis=1)),
    dict(id="linspace_bool", match=r"linspace.*bool", at24="same",
         call=lambda paddle, np: paddle.linspace(3, 9, 5, dtype="bool")),
    dict(id="linspace_float16", match=r"linspace.*float16", at24="same",
         call=lambda paddle, np: paddle.linspace(3, 9, 5, dtype="float16")),
    dict(id="sin_int32", match=r"sin.*int32", at24="same",
         call=lambda paddle, np: paddle.sin(paddle.to_tensor(np.array([3, -3], "int32")))),
    dict(id="sin_int64_method", match=r"sin.*int64", at24="same",
         call=lambda paddle, np: paddle.to_tensor(np.array([3, -3], "int64")).sin()),
    dict(id="sin_python_float", match=r"(?i)InvalidArgument", at24="same",  # PaddleTest test_sin7: not a tensor
         call=lambda paddle, np: paddle.sin(3.3)),
    dict(id="sin_float16", match=r"sin.*float16", at24="same",
         call=lambda paddle, np: paddle.sin(paddle.to_tensor(np.array([3, -3], "float16")))),
]

# the same calls with a dtype / shape the kernel takes: they compute at both levels (guards against over-raising)
OK_ROWS = [
    dict(id="eye_float16", call=lambda paddle, np: paddle.eye(3, dtype="float16")),
    dict(id="index_select_complex64",
         call=lambda paddle, np: paddle.index_select(paddle.to_tensor(np.ones((2, 3), "complex64")),
                                                     paddle.to_tensor(np.array([0, 2], "int32")), axis=1)),
    dict(id="linspace_int32", call=lambda paddle, np: paddle.linspace(3, 9, 5, dtype="int32")),
    dict(id="sin_float64", call=lambda paddle, np: paddle.sin(paddle.to_tensor(np.array([3.0, -3.0])))),
    dict(id="allclose_float64", call=lambda paddle, np: paddle.allclose(paddle.to_tensor(np.array([1.0])),
                                                                        paddle.to_tensor(np.array([1.0])))),
    dict(id="layer_norm_trailing", call=lambda paddle, np: paddle.nn.functional.layer_norm(
        paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4)), 4)),
    dict(id="log_loss_n1", call=lambda paddle, np: paddle.nn.functional.log_loss(
        paddle.to_tensor(_f([4, 1])), paddle.to_tensor(_f([4, 1], fill=1.0)))),
]


def run(paddle):
    """{row id: {"error": class name, "bases": builtin bases caught, "message": text} or {"shape": [...]}}."""
    out = {}
    for row in ROWS + OK_ROWS:
        try:
            r = row["call"](paddle, np)
            out[row["id"]] = {"shape": list(r.shape), "dtype": str(r.dtype).replace("paddle.", "")}
        except Exception as e:  # noqa: BLE001 - the error is the datum
            bases = [b.__name__ for b in (ValueError, RuntimeError, TypeError) if isinstance(e, b)]
            out[row["id"]] = {"error": type(e).__name__, "bases": bases, "message": str(e)[:1500]}
    return out
