"""An inference model written by real Paddle 2.6.2's jit.save whose bilinear_interp_v2 takes its size from a tensor
(`F.interpolate(x, paddle.shape(y)[2:])`, as PaddleSeg's UNet / BiSeNetV2 / FCN / DeepLabV3+ / PP-LiteSeg decoders
write it) -> tests/goldens/zoo26_interp/model.{pdmodel,pdiparams} and tests/goldens/zoo26_interp.{npz,json} (inputs
and 2.6.2's paddle.inference outputs); tests/zoo26/test_zoo26.py loads it with paddle.jit.load and paddle.inference.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_zoo26_interp.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GOLDEN_DIR, save  # noqa: E402

import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402
import paddle.nn.functional as F  # noqa: E402


class Up(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([1], default_initializer=paddle.nn.initializer.Constant(1.5))

    def forward(self, x, y):
        x = x * self.w
        a = F.interpolate(x, paddle.shape(y)[2:], mode="bilinear", align_corners=False)
        b = F.interpolate(x, paddle.shape(y)[2:], mode="bilinear", align_corners=True)
        c = F.interpolate(x, paddle.shape(y)[2:], mode="nearest")
        return a, b, c


def main():
    out_dir = os.path.join(GOLDEN_DIR, "zoo26_interp")
    os.makedirs(out_dir, exist_ok=True)
    prefix = os.path.join(out_dir, "model")
    spec = [paddle.static.InputSpec([2, 3, 4, 5], "float32", "x"), paddle.static.InputSpec([2, 1, 7, 9], "float32",
                                                                                            "y")]
    paddle.jit.save(paddle.jit.to_static(Up(), input_spec=spec), prefix)
    if os.path.exists(prefix + ".pdiparams.info"):
        os.remove(prefix + ".pdiparams.info")  # the loaders here do not read it
    rng = np.random.RandomState(26)
    xv, yv = rng.standard_normal([2, 3, 4, 5]).astype("float32"), np.zeros([2, 1, 7, 9], "float32")
    cfg = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    cfg.disable_gpu()
    pred = pi.create_predictor(cfg)
    for n, v in zip(pred.get_input_names(), (xv, yv)):
        pred.get_input_handle(n).copy_from_cpu(v)
    pred.run()
    arrays = {"x": xv, "y": yv}
    for i, n in enumerate(pred.get_output_names()):
        arrays["out_%d" % i] = pred.get_output_handle(n).copy_to_cpu()
    save("zoo26_interp", arrays, {"paddle_version": paddle.__version__, "input_names": pred.get_input_names(),
                                  "output_names": pred.get_output_names()})


if __name__ == "__main__":
    main()
