"""Inference plans: the `scale(., 1.0, bias 0.0)` that save_inference_model appends to each fetch target, folded
into the bias add before it (a plain Program's plan, engine/static/executor.py plain_transform).

Paddle 2.x's save_inference_model (normalize_program) appends `scale(t, scale=1.0, bias=0.0)` to every fetch target.
It is `t + 0.0`, one more pass over the model's output: on a language model's [T * B, vocab] logits, 3 ms of a
100 ms inference step. Where `t = elementwise_add(a, b)` with `b` a parameter, `(a + b) + 0.0` equals
`a + (b + 0.0)` bit for bit, so the +0.0 moves onto the parameter (a few hundred values) and the add takes over the
fetch target's name:
  - `+ 0.0` changes nothing but a -0.0, which becomes +0.0;
  - `a + b` is -0.0 only when both are -0.0 (an exact cancellation gives +0.0, rounding to nearest); then
    `a + (b + 0.0)` is `-0.0 + +0.0`, +0.0, as `(a + b) + 0.0` is; in every other case `b + 0.0` is `b` and
    `a + b` is not -0.0, so both sides are `a + b`; infinities and NaNs pass through both alike.

Pattern: `scale(add)` with scale 1 (a number), bias 0.0 and no act, `add` an `elementwise_add(a, b)` read only by the
scale and not itself protected, `b` a parameter placeholder. Only without a backward (a training plan keeps the ops
its gradients are taken through).

Before:  t1 = elementwise_add(t0, fc.b_0);  out = scale(t1, 1.0, 0.0)
After:   b = scale(fc.b_0, 1.0, 0.0);  out = elementwise_add(t0, b)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes._util import bound, has_backward, is_protected, op_nodes, op_type, sole_user


def _identity(kw: dict) -> bool:
    s, b = kw["scale"], kw["bias"]
    return type(s) in (int, float) and s == 1 and type(b) in (int, float) and b == 0 and not kw["act"]


def fold_fetch_scale(gm: fx.GraphModule, protected: set[str]) -> fx.GraphModule:
    if has_backward(gm):
        return gm
    g = gm.graph
    for sc in op_nodes(gm, ("scale",)):
        kw = bound(sc)
        add = kw["x"]
        if not (_identity(kw) and isinstance(add, fx.Node) and op_type(add) == "elementwise_add"):
            continue
        if sole_user(add) is not sc or is_protected(add, protected):
            continue
        b = bound(add)["y"]
        if not (isinstance(b, fx.Node) and b.op == "placeholder" and b.meta.get("var_name") in protected):
            continue
        with g.inserting_before(add):
            b0 = g.call_function(sc.target, (b, 1.0, 0.0))
        b0.meta.update(op_type="scale", opdef=sc.meta.get("opdef"), attrs={"scale": 1.0, "bias": 0.0},
                       role=add.meta.get("role"))  # the parameter plus 0.0: no Paddle variable holds it
        add.replace_input_with(b, b0)
        for k in ("var_name", "out_names"):
            add.meta.pop(k, None)
            if k in sc.meta:
                add.meta[k] = sc.meta[k]
        sc.replace_all_uses_with(add)
        g.erase_node(sc)
    return gm
