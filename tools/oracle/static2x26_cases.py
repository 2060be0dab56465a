"""paddle.static 2.x additions over the public API (see rec_cases26.py): ctr_metric_bundle's accumulators over
three runs of a static program."""
import numpy as np


def ctr_metric_bundle(paddle):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 1], "float32")
            y = paddle.static.data("y", [-1, 1], "float32")
            w = paddle.static.data("w", [1, 1], "float32")
            accs = paddle.static.ctr_metric_bundle(x, y, w)
        exe = paddle.static.Executor(paddle.CPUPlace())
        scope = paddle.static.Scope()
        out = {}
        with paddle.static.scope_guard(scope):
            exe.run(startup)
            rng = np.random.RandomState(0)
            for i, n in enumerate((4, 3, 5)):
                feed = {"x": rng.uniform(-1, 1, [n, 1]).astype("float32"),
                        "y": rng.randint(0, 2, [n, 1]).astype("float32"),
                        "w": np.array([[1.0 + i]], "float32")}
                vals = exe.run(main, feed=feed, fetch_list=list(accs))
                out[f"run{i}"] = np.concatenate([np.asarray(v).reshape(-1) for v in vals])
        return out
    finally:
        paddle.disable_static()


CASES = [ctr_metric_bundle]
