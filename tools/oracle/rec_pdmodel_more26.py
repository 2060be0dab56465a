"""An inference model of the op types PaddleClas backbones' jit.save files hold that the model loader lacked,
written by real Paddle 2.6.2's to_static + jit.save -> tests/goldens/pdmodel_more26/model.{pdmodel,pdiparams} and
tests/goldens/pdmodel_more26.{npz,json}: strided_slice (LeViT / Swin's `x[:, 0::2, 1::2]`, a negative stride, a
decrease axis, an end given by a tensor), unfold (RedNet26 / TNT: asymmetric paddings, strides, dilations),
roll (Swin: shifts / axis, no axis, a shifts tensor), index_select (Swin's relative position bias), gather_nd
(cae) and share_data (cae's `detach()`), and the outputs 2.6.2's paddle.inference Predictor gives.
tests/static_io/test_pdmodel_more26.py loads the model with paddle.jit.load and paddle.inference.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_pdmodel_more26.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GOLDEN_DIR, save  # noqa: E402

import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402
import paddle.nn.functional as F  # noqa: E402


class MoreOps(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.table = self.create_parameter([7, 3], default_initializer=paddle.nn.initializer.Assign(
            np.arange(21, dtype="float32").reshape(7, 3) / 4.0 - 2.0))

    def forward(self, x, img, idx, nd_idx):
        outs = [x[:, 0::2, 1::2],  # Swin PatchMerging (ends 2147483647)
                x[:, ::-2, :, 1:3],  # negative stride
                paddle.strided_slice(x, axes=[2, 3], starts=[-1, 0], ends=[-6, 4], strides=[-2, 3]),
                x[1, ::2],  # a decrease axis with a stride
                x[:, 1:paddle.shape(x)[1]:2]]  # an end given by a tensor
        outs += [F.unfold(img, [3, 2], strides=[2, 1], paddings=[1, 0, 2, 1], dilations=[1, 2]),
                 F.unfold(img, 4, strides=4)]  # TNT
        outs += [paddle.roll(x, shifts=[-1, 2], axis=[1, 2]), paddle.roll(x, shifts=3),
                 paddle.roll(x, shifts=paddle.shape(img)[2:3] - 6, axis=3)]
        outs += [paddle.index_select(self.table, idx, axis=0), paddle.index_select(x, idx[:2], axis=3)]
        outs += [paddle.gather_nd(x, nd_idx)]
        outs += [(x * 2.0).detach() + 1.0]
        return outs


def main():
    out_dir = os.path.join(GOLDEN_DIR, "pdmodel_more26")
    os.makedirs(out_dir, exist_ok=True)
    layer = MoreOps()
    layer.eval()
    spec = [paddle.static.InputSpec([2, 5, 6, 4], "float32", "x"),
            paddle.static.InputSpec([2, 3, 8, 9], "float32", "img"),
            paddle.static.InputSpec([3], "int64", "idx"), paddle.static.InputSpec([4, 2], "int64", "nd_idx")]
    prefix = os.path.join(out_dir, "model")
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), prefix)
    rng = np.random.RandomState(26)
    feeds = [rng.standard_normal([2, 5, 6, 4]).astype("float32"), rng.standard_normal([2, 3, 8, 9]).astype("float32"),
             np.array([3, 0, 2], "int64"), np.array([[1, 4], [0, 0], [1, 2], [0, 3]], "int64")]
    cfg = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    cfg.disable_gpu()
    pred = pi.create_predictor(cfg)
    for n, v in zip(pred.get_input_names(), feeds):
        pred.get_input_handle(n).copy_from_cpu(v)
    pred.run()
    arrays = dict(zip(("x", "img", "idx", "nd_idx"), feeds))
    for i, n in enumerate(pred.get_output_names()):
        arrays["out_%d" % i] = pred.get_output_handle(n).copy_to_cpu()
    paddle.enable_static()
    prog = paddle.static.load_inference_model(prefix, paddle.static.Executor(paddle.CPUPlace()))[0]
    ops = [op.type for op in prog.global_block().ops]
    want = ("strided_slice", "unfold", "roll", "index_select", "gather_nd", "share_data")
    save("pdmodel_more26", arrays, {"paddle_version": paddle.__version__, "input_names": pred.get_input_names(),
                                    "output_names": pred.get_output_names(),
                                    "op_counts": {t: ops.count(t) for t in want}})


if __name__ == "__main__":
    main()
