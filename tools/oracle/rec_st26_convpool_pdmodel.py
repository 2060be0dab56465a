"""A model real Paddle 2.6.2 wrote with to_static + jit.save whose program holds the 1-D convolution / pool forms
and the depthwise convolutions of issue 25 item 4: Conv1D (assign, unsqueeze2, conv2d, squeeze2), max / avg
pool1d (unsqueeze2, pool2d, squeeze2), a depthwise Conv1DTranspose and Conv2DTranspose
(depthwise_conv2d_transpose), a depthwise Conv2D (depthwise_conv2d) and max pools with a mask
(max_pool2d_with_index: adaptive_max_pool1d, max_pool2d with return_mask) -> tests/goldens/st26_convpool/model.*
and tests/goldens/st26_convpool.{npz,json} (the input, 2.6.2's Predictor output, the program's op types).
tests/static_io/test_st26_convpool_pdmodel.py loads it with paddle.jit.load.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_st26_convpool_pdmodel.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GOLDEN_DIR, save  # noqa: E402

import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402
import paddle.nn.functional as F  # noqa: E402


class ConvPool(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.c = paddle.nn.Conv1D(4, 4, 3, padding=1)
        self.t = paddle.nn.Conv1DTranspose(4, 4, 3, groups=4, stride=2)
        self.d = paddle.nn.Conv2DTranspose(4, 4, 3, groups=4)
        self.w = paddle.nn.Conv2D(4, 8, 3, groups=4)

    def forward(self, x):
        y = F.max_pool1d(self.c(x), 2)
        y = F.avg_pool1d(self.t(y), 2, padding=1)
        y = y + F.adaptive_max_pool1d(y, 3).mean(axis=-1, keepdim=True)
        z = self.w(self.d(paddle.unsqueeze(y, 2)))
        z2, mask = F.max_pool2d(z, [1, 2], 1, padding=[0, 1], return_mask=True)
        return z, z2, mask


def main():
    paddle.seed(26)
    out_dir = os.path.join(GOLDEN_DIR, "st26_convpool")
    os.makedirs(out_dir, exist_ok=True)
    layer = ConvPool()
    layer.eval()
    prefix = os.path.join(out_dir, "model")
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=[paddle.static.InputSpec([None, 4, 10], "float32", "x")]),
                    prefix)
    x = np.random.RandomState(26).standard_normal([2, 4, 10]).astype("float32")
    cfg = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    cfg.disable_gpu()
    pred = pi.create_predictor(cfg)
    pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(x)
    pred.run()
    outs = {f"out_{i}": pred.get_output_handle(n).copy_to_cpu() for i, n in enumerate(pred.get_output_names())}
    paddle.enable_static()
    prog = paddle.static.load_inference_model(prefix, paddle.static.Executor(paddle.CPUPlace()))[0]
    ops = [op.type for op in prog.global_block().ops]
    save("st26_convpool", {"x": x, **outs},
         {"paddle_version": paddle.__version__, "op_types": ops, "op_counts": {t: ops.count(t) for t in set(ops)}})


if __name__ == "__main__":
    main()
