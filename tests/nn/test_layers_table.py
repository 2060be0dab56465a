"""Every paddle.nn layer case of tools/oracle/nn26_layer_cases.py against real Paddle 2.6.2 outputs for the same
weights and inputs (tests/goldens/nn26_layers, recorded by tools/oracle/rec_nn26_layers.py): state_dict keys and
parameter names, outputs, gradients w.r.t. inputs and parameters, and updated running statistics.

A case whose functional op is not implemented yet (UnsupportedAPIError from the layer's forward) is skipped
naming the op; that is a gap in paddle.nn.functional, not in the layer."""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest

from tests.conftest import load_golden

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "oracle"))
import nn26_layer_cases  # noqa: E402
import nn26_layer_cases2x  # noqa: E402
from nn26_layer_cases import loss_weights, make_inputs  # noqa: E402

# (golden, cases): the 2.x additions of issue 12 have their own table and golden (nn26_layer_cases2x.py)
TABLES = {"nn26_layers": nn26_layer_cases.CASES, "nn26_layers2x": nn26_layer_cases2x.CASES}
GOLDENS = {name: load_golden(name) for name in TABLES}
CASES = [(name, *c) for name, cases in TABLES.items() for c in cases]


# Known differences, kept as data (strict xfail: the test fails loudly once they are fixed).
KNOWN: dict[str, str] = {}


def _flat(o):
    if isinstance(o, (list, tuple)):
        return [x for y in o for x in _flat(y)]
    return [o]


def _pattern(name: str) -> str:
    return re.sub(r"_\d+\.", "_N.", name)


@pytest.mark.parametrize("table,cid,ctor,specs,mode", [
    pytest.param(*c, marks=pytest.mark.xfail(strict=True, reason=KNOWN[c[1]])) if c[1] in KNOWN else c
    for c in CASES], ids=[c[1] for c in CASES])
def test_layer_matches_paddle(table, cid, ctor, specs, mode):
    import paddle
    import paddle.nn as nn  # noqa: F401 - read by eval

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    META, G = GOLDENS[table]  # noqa: N806
    rec = META["cases"][cid]
    assert "error" not in rec, rec.get("error")
    layer = eval(ctor)
    sd = layer.state_dict()
    assert list(sd) == rec["state_dict_keys"]
    assert [_pattern(v.name) for v in sd.values()] == [_pattern(n) for n in rec["state_dict_names"]]
    assert [list(v.shape) for v in sd.values()] == rec["state_dict_shapes"]
    assert [[n, bool(p.stop_gradient)] for n, p in layer.named_parameters()] == \
        [[n, sg] for n, _, sg in rec["named_parameters"]]
    params = {k: G[f"{cid}__param__{k}"] for k in rec["state_dict_keys"]}
    missing, unexpected = layer.set_state_dict(params)
    assert not missing and not unexpected
    layer.train() if mode == "train" else layer.eval()
    ins = []
    for s, a in zip(specs, make_inputs(cid, specs)):
        if a is None:
            ins.append(None)
            continue
        t = paddle.to_tensor(a)
        if s[0] in ("f", "u"):
            t.stop_gradient = False
        ins.append(t)
    try:
        out = layer(*ins)
    except UnsupportedAPIError as e:
        pytest.skip(f"functional op missing: {e}")
    outs = _flat(out)
    assert len(outs) == rec["n_out"]
    loss = None
    for i, o in enumerate(outs):
        want = G[f"{cid}__out{i}"]
        want_shape = rec["out_shapes"][i]
        # full reductions: Paddle 2.6 gives 0-D, we follow 2.4's [1] (DESIGN.md)
        assert list(o.shape) == (want_shape or [1]), f"output {i} shape"
        np.testing.assert_allclose(o.numpy().reshape(want.shape), want, rtol=1e-4, atol=1e-5, err_msg=f"output {i}")
        if o.dtype in (paddle.float32, paddle.float64) and not o.stop_gradient:
            term = (o * paddle.to_tensor(loss_weights(list(o.shape)))).sum()
            loss = term if loss is None else loss + term
    if loss is not None:
        loss.backward()
    for i, t in enumerate(ins):
        k = f"{cid}__ingrad{i}"
        if k in G:
            assert t.grad is not None, f"input {i} has no gradient"
            np.testing.assert_allclose(t.grad.numpy(), G[k], rtol=1e-4, atol=1e-5, err_msg=f"grad of input {i}")
    for n, p in layer.named_parameters():
        k = f"{cid}__grad__{n}"
        if k in G:
            assert p.grad is not None, f"parameter {n} has no gradient"
            np.testing.assert_allclose(p.grad.numpy(), G[k], rtol=1e-4, atol=1e-5, err_msg=f"grad of {n}")
    for k, v in layer.state_dict().items():
        want = G.get(f"{cid}__after__{k}", params[k])
        np.testing.assert_allclose(v.numpy(), want, rtol=1e-4, atol=1e-5, err_msg=f"state {k} after forward")
