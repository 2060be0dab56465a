"""Record Paddle 2.6.2's recorded shapes and values of static programs whose sizes are runtime values:
`F.interpolate(x, paddle.shape(y)[2:])` (a size tensor) concatenated with y, as PaddleSeg's UNet / DeepLabV3P do
-> tests/goldens/static_sizes26.json. Run under the 2.6.2 venv:
    cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_static_sizes26.py"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "api2x"))
from _common import save_json  # noqa: E402
from static_sizes_cases import build  # noqa: E402

import paddle  # noqa: E402

paddle.enable_static()
out = {}
for mode in ("bilinear", "nearest"):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        u, z, w = build(paddle, mode)
    rng = np.random.RandomState(0)
    feed = {"x": rng.rand(2, 4, 4, 4).astype("float32"), "y": rng.rand(2, 3, 8, 8).astype("float32")}
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    zv, wv = exe.run(main, feed=feed, fetch_list=[z, w])
    out[mode] = {"u_shape": list(u.shape), "z_shape": list(z.shape), "w_shape": list(w.shape),
                 "z": zv.tolist(), "w_sum": float(wv.sum()), "x": feed["x"].tolist(), "y": feed["y"].tolist()}
save_json("static_sizes26", out)
