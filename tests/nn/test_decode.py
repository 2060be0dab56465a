"""BeamSearchDecoder + dynamic_decode against Paddle 2.6.2 (tests/goldens/nn26_decode, tools/oracle/rec_nn26_decode.py)."""

from __future__ import annotations

import numpy as np

from tests.conftest import load_golden


def test_beam_search_decode_matches_paddle():
    import paddle
    import paddle.nn as nn

    _, g = load_golden("nn26_decode")
    emb, cell, out = nn.Embedding(7, 4), nn.GRUCell(4, 6), nn.Linear(6, 7)
    for tag, layer in (("emb", emb), ("cell", cell), ("out", out)):
        layer.set_state_dict({k: g[f"{tag}__{k}"] for k in layer.state_dict()})
    dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3, embedding_fn=emb, output_fn=out)
    outputs, states, lengths = nn.dynamic_decode(dec, inits=paddle.to_tensor(g["h0"]), max_step_num=6,
                                                 return_length=True)
    np.testing.assert_array_equal(outputs.numpy(), g["predicted_ids"])
    np.testing.assert_allclose(states.log_probs.numpy(), g["log_probs"], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(lengths.numpy(), g["lengths"])
    np.testing.assert_array_equal(states.finished.numpy(), g["finished"])
    np.testing.assert_allclose(states.cell_states.numpy(), g["cell_states"], rtol=1e-5, atol=1e-5)
    tiled = nn.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor(g["h0"]), 3)
    np.testing.assert_array_equal(tiled.numpy(), g["tiled"])
