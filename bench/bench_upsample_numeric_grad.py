"""Issue 25 item 6: PaddleTest's framework/api/nn/test_upsample.py checks gradients numerically: for every input
element it builds a paddle.nn.Upsample, converts the perturbed input with paddle.to_tensor, runs the layer and reads
paddle.mean(out).numpy() -- thousands of calls per case. This times that call, per mode, in CPU time (the machine
is shared), here and, with --p26, under real Paddle 2.6.2 (this same file run by the oracle venv from /tmp, without
our shims), alternating three times and keeping the least of each, and prints the ratio ours / 2.6.2
(target: <= 1).

Run: python bench/bench_upsample_numeric_grad.py [--p26] [--quick]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import numpy.random  # noqa: F401 - before paddle: importing it after paddle 2.6.2 breaks zlib (segfault)

P26 = os.environ.get("P26", "/work/oracle/p26")
CASES = {  # shapes and arguments of test_upsample.py's numeric-gradient cases
    "linear NWC size": ((2, 10, 4), dict(size=[17], mode="linear", align_corners=True, data_format="NWC")),
    "bilinear align_mode=1": ((2, 3, 8, 9), dict(scale_factor=[1.7, 2.2], mode="bilinear", align_mode=1)),
    "bilinear align_mode=0": ((2, 3, 8, 9), dict(scale_factor=[1.7, 2.2], mode="bilinear")),
    "bicubic": ((2, 3, 8, 9), dict(scale_factor=[1.7, 2.2], mode="bicubic")),
    "trilinear align_mode=1": ((2, 4, 10, 10, 10), dict(scale_factor=[0.6, 0.6, 0.6], mode="trilinear",
                                                        align_mode=1, data_format="NCDHW")),
    "trilinear size": ((2, 2, 4, 5, 6), dict(size=[9, 10, 11], mode="trilinear", data_format="NCDHW")),
    "nearest": ((2, 3, 8, 9), dict(scale_factor=[1.8, 1.8], mode="nearest")),
}


def measure(n: int) -> dict:
    """CPU microseconds per numeric-gradient call, per case."""
    import paddle

    paddle.disable_static()
    out = {}
    for name, (shape, kw) in CASES.items():
        x = np.random.RandomState(0).rand(*shape)
        flat = x.reshape(-1)

        def call(i):
            tmp = flat.copy()
            tmp[i % flat.size] += 1e-3
            layer = paddle.nn.Upsample(**kw)
            data = paddle.to_tensor(tmp.reshape(shape))
            data.stop_gradient = False
            return paddle.mean(layer(data)).numpy()

        for i in range(30):
            call(i)
        start = time.process_time()
        for i in range(n):
            call(i)
        out[name] = (time.process_time() - start) / n * 1e6
    return out


def main() -> None:
    if "--child" in sys.argv:
        print(json.dumps(measure(int(sys.argv[-1]))))
        return
    n = 200 if "--quick" in sys.argv else 1000
    rounds = 3  # alternating, the least of each: the machine's load changes between runs
    ours, theirs = {}, {} if "--p26" in sys.argv else None
    for _ in range(rounds):
        for name, us in measure(n).items():
            ours[name] = min(us, ours.get(name, us))
        if theirs is not None:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            proc = subprocess.run([os.path.join(P26, "bin", "python"), "-s", os.path.abspath(__file__), "--child",
                                   str(n)], cwd="/tmp", env=env, capture_output=True, text=True, check=True)
            for name, us in json.loads(proc.stdout.strip().splitlines()[-1]).items():
                theirs[name] = min(us, theirs.get(name, us))
    for name, us in ours.items():
        line = f"{name:24s} ours {us:7.0f} us"
        if theirs:
            line += f"   2.6.2 {theirs[name]:7.0f} us   ratio {us / theirs[name]:.2f}"
        print(line)


if __name__ == "__main__":
    main()
