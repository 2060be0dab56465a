"""An inference model of `cumsum` ops written by real Paddle 2.6.2 (PaddleNLP's BERT / ERNIE / RoBERTa /
ELECTRA / TinyBERT embeddings put one in every model they jit.save, for the position ids) ->
tests/goldens/zoo26_cumsum/model.{pdmodel,pdiparams} and tests/goldens/zoo26_cumsum.{npz,json}: one cumsum op per
attribute combination (axis, flatten, reverse, exclusive) over one input, and the outputs 2.6.2's
paddle.inference Predictor gives. tests/zoo26/test_zoo26.py loads the model with paddle.jit.load and
paddle.inference.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_zoo26_cumsum.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GOLDEN_DIR, save  # noqa: E402

import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402

VARIANTS = [dict(axis=-1), dict(axis=1), dict(axis=0, flatten=True), dict(axis=2, reverse=True),
            dict(axis=1, exclusive=True), dict(axis=-1, exclusive=True, reverse=True)]


def main():
    out_dir = os.path.join(GOLDEN_DIR, "zoo26_cumsum")
    os.makedirs(out_dir, exist_ok=True)
    paddle.enable_static()
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup):
        x = paddle.static.data("x", [2, 3, 4], "float32")
        w = paddle.static.create_parameter([4], "float32", name="zoo26_cumsum_w",
                                           default_initializer=paddle.nn.initializer.Assign(
                                               np.array([1.0, -2.0, 0.5, 3.0], "float32")))
        xw = x * w
        block = main_p.current_block()
        outs = []
        for i, attrs in enumerate(VARIANTS):
            o = block.create_var(name="cumsum_out_%d" % i, dtype="float32")
            full = dict(axis=-1, flatten=False, reverse=False, exclusive=False)
            full.update(attrs)
            block.append_op(type="cumsum", inputs={"X": [xw]}, outputs={"Out": [o]}, attrs=full)
            outs.append(o)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    prefix = os.path.join(out_dir, "model")
    paddle.static.save_inference_model(prefix, [x], outs, exe, program=main_p)
    xv = np.random.RandomState(26).standard_normal([2, 3, 4]).astype("float32")
    cfg = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    cfg.disable_gpu()
    pred = pi.create_predictor(cfg)
    pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(xv)
    pred.run()
    arrays = {"x": xv}
    for i, n in enumerate(pred.get_output_names()):
        arrays["out_%d" % i] = pred.get_output_handle(n).copy_to_cpu()
    save("zoo26_cumsum", arrays, {"paddle_version": paddle.__version__, "variants": VARIANTS,
                                  "output_names": pred.get_output_names()})


if __name__ == "__main__":
    main()
