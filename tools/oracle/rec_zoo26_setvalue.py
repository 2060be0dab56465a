"""An inference model of `set_value` ops written by real Paddle 2.6.2's to_static + jit.save (PaddleClas ReXNet
writes `out[:, 0:c] += x` in its forward, which the saved model holds as set_value with a ValueTensor) ->
tests/goldens/zoo26_setvalue/model.{pdmodel,pdiparams} and tests/goldens/zoo26_setvalue.{npz,json}: a slice
+= tensor, a decrease axis set to a constant, a stepped slice set to a broadcast tensor and an assignment of a
constant with a negative start, and the outputs 2.6.2's paddle.inference Predictor gives.
tests/zoo26/test_zoo26.py loads the model with paddle.jit.load and paddle.inference.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_zoo26_setvalue.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GOLDEN_DIR, save  # noqa: E402

import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402


class SetValues(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([5], default_initializer=paddle.nn.initializer.Assign(
            np.array([1.0, -2.0, 0.5, 3.0, 1.5], "float32")))

    def forward(self, x, z):
        a = x * self.w
        a[:, 0:2] += z  # ReXNet: out[:, 0:self.in_channels] += x
        b = x * 2.0
        b[:, 1] = 0.5
        c = x + 1.0
        c[:, :, 1:5:2] = z[:, 0:1, 0:2]
        d = x - 1.0
        d[:, -2:] = -3.0
        return a, b, c, d


def main():
    out_dir = os.path.join(GOLDEN_DIR, "zoo26_setvalue")
    os.makedirs(out_dir, exist_ok=True)
    layer = SetValues()
    layer.eval()
    spec = [paddle.static.InputSpec([2, 3, 5], "float32", "x"), paddle.static.InputSpec([2, 2, 5], "float32", "z")]
    prefix = os.path.join(out_dir, "model")
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), prefix)
    rng = np.random.RandomState(26)
    xv, zv = rng.standard_normal([2, 3, 5]).astype("float32"), rng.standard_normal([2, 2, 5]).astype("float32")
    cfg = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    cfg.disable_gpu()
    pred = pi.create_predictor(cfg)
    for n, v in zip(pred.get_input_names(), (xv, zv)):
        pred.get_input_handle(n).copy_from_cpu(v)
    pred.run()
    arrays = {"x": xv, "z": zv}
    for i, n in enumerate(pred.get_output_names()):
        arrays["out_%d" % i] = pred.get_output_handle(n).copy_to_cpu()
    paddle.enable_static()
    prog = paddle.static.load_inference_model(prefix, paddle.static.Executor(paddle.CPUPlace()))[0]
    ops = [op.type for op in prog.global_block().ops]
    save("zoo26_setvalue", arrays, {"paddle_version": paddle.__version__, "output_names": pred.get_output_names(),
                                    "set_value_ops": ops.count("set_value")})


if __name__ == "__main__":
    main()
