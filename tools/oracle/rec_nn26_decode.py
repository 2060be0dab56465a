"""BeamSearchDecoder + dynamic_decode with Paddle 2.6.2 (dygraph): GRUCell decoder, Embedding input, Linear
output_fn, fixed weights; records predicted ids, final log-probs, lengths and finished flags.

Run with /work/oracle/p26 from /tmp with PYTHONPATH unset. Paddle 2.6.2 under numpy 2 cannot float() a
[1]-shaped tensor (BeamSearchDecoder.initialize does): the recorder patches Tensor.__float__ / __int__."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import numpy.random  # noqa: E402,F401
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402

from _common import save  # noqa: E402

for _m, _f in (("__float__", float), ("__int__", int)):
    _orig = getattr(paddle.Tensor, _m)
    setattr(paddle.Tensor, _m, lambda self, _o=_orig, _f=_f: _f(self.numpy().reshape(-1)[0]) if self.size == 1
            else _o(self))


def build():
    emb = nn.Embedding(7, 4)
    cell = nn.GRUCell(4, 6)
    out = nn.Linear(6, 7)
    return emb, cell, out


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    rng = np.random.RandomState(9)
    emb, cell, out = build()
    arrays = {}
    for tag, layer in (("emb", emb), ("cell", cell), ("out", out)):
        sd = {k: (rng.standard_normal(v.shape) * 0.8).astype("float32") for k, v in layer.state_dict().items()}
        layer.set_state_dict(sd)
        for k, v in sd.items():
            arrays[f"{tag}__{k}"] = v
    h0 = rng.standard_normal((2, 6)).astype("float32")
    arrays["h0"] = h0
    dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3, embedding_fn=emb, output_fn=out)
    outputs, states, lengths = nn.dynamic_decode(dec, inits=paddle.to_tensor(h0), max_step_num=6,
                                                 return_length=True)
    arrays["predicted_ids"] = outputs.numpy()
    arrays["log_probs"] = states.log_probs.numpy()
    arrays["lengths"] = lengths.numpy()
    arrays["finished"] = states.finished.numpy()
    arrays["cell_states"] = states.cell_states.numpy()
    arrays["tiled"] = nn.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor(h0), 3).numpy()
    save("nn26_decode", arrays, {"paddle_version": paddle.__version__,
                                 "program": "BeamSearchDecoder(GRUCell(4,6), 0, 1, 3, Embedding(7,4), Linear(6,7)); "
                                            "dynamic_decode(inits=h0 [2,6], max_step_num=6, return_length=True)"})


if __name__ == "__main__":
    main()
