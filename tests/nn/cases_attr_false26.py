"""`weight_attr=False` / `bias_attr=False` on the norm, conv and linear layers (issue 25 item 2: AdaFace's
`BatchNorm1D(n, weight_attr=False, bias_attr=False)` must have no weight / bias in its state dict, or a real
checkpoint does not load). For each layer and each of the three False settings, what Paddle 2.6.2 builds: the
state-dict keys (with shapes) and the trainable parameters, and the forward output (and input gradient) on a fixed
input after every floating state entry is set from one seeded stream. Recorded by tools/oracle/rec_run26.py into
tests/goldens/windows26_attr_false.*, replayed by tests/nn/test_attr_false26.py; numpy only."""

import numpy as np

# (layer, positional args, kwargs, input shape, attr names (weight, bias))
LAYERS = [
    ("BatchNorm1D", (3,), {}, (4, 3), ("weight_attr", "bias_attr")),
    ("BatchNorm2D", (3,), {}, (2, 3, 2, 2), ("weight_attr", "bias_attr")),
    ("BatchNorm3D", (3,), {}, (2, 3, 2, 1, 2), ("weight_attr", "bias_attr")),
    ("BatchNorm", (3,), {}, (2, 3, 2, 2), ("param_attr", "bias_attr")),
    ("SyncBatchNorm", (3,), {}, (2, 3, 2, 2), ("weight_attr", "bias_attr")),
    ("InstanceNorm1D", (3,), {}, (2, 3, 4), ("weight_attr", "bias_attr")),
    ("InstanceNorm2D", (3,), {}, (2, 3, 2, 2), ("weight_attr", "bias_attr")),
    ("InstanceNorm3D", (3,), {}, (2, 3, 2, 1, 2), ("weight_attr", "bias_attr")),
    ("LayerNorm", ([3],), {}, (2, 3), ("weight_attr", "bias_attr")),
    ("GroupNorm", (2, 4), {}, (2, 4, 2, 2), ("weight_attr", "bias_attr")),
    ("Conv1D", (2, 3, 3), {}, (1, 2, 5), ("weight_attr", "bias_attr")),
    ("Conv2D", (2, 3, 3), {}, (1, 2, 4, 4), ("weight_attr", "bias_attr")),
    ("Conv3D", (2, 3, 2), {}, (1, 2, 3, 3, 3), ("weight_attr", "bias_attr")),
    ("Conv1DTranspose", (2, 3, 3), {}, (1, 2, 3), ("weight_attr", "bias_attr")),
    ("Conv2DTranspose", (2, 3, 3), {}, (1, 2, 2, 2), ("weight_attr", "bias_attr")),
    ("Conv3DTranspose", (2, 3, 2), {}, (1, 2, 2, 2, 2), ("weight_attr", "bias_attr")),
    ("Linear", (3, 2), {}, (4, 3), ("weight_attr", "bias_attr")),
]
SETTINGS = {"w": (False, None), "b": (None, False), "wb": (False, False)}


def _case(layer, args, kwargs, shape, attrs, which, seed):
    def run(paddle):
        paddle.seed(seed)
        rs = np.random.RandomState(seed)
        w_attr, b_attr = SETTINGS[which]
        kw = dict(kwargs)
        if w_attr is not None:
            kw[attrs[0]] = w_attr
        if b_attr is not None:
            kw[attrs[1]] = b_attr
        try:
            m = getattr(paddle.nn, layer)(*args, **kw)
        except Exception:  # noqa: BLE001 - Paddle refuses the setting
            return {"raised": np.array(True)}
        sd = m.state_dict()
        keys = sorted(sd)
        res = {"keys": np.array(keys + ["-"]),  # "-": never an empty string array
               "shapes": np.array([str(list(sd[k].shape)) for k in keys] + ["-"]),
               "trainable": np.array(sorted(n for n, p in m.named_parameters() if not p.stop_gradient) + ["-"])}
        for k in keys:
            v = sd[k]
            if "float" in str(v.dtype):
                v.set_value((rs.rand(*v.shape) + 0.5).astype(str(v.dtype).split(".")[-1]))
        if layer == "SyncBatchNorm":  # Paddle 2.6.2 refuses its forward on CPU; ours runs (tests/parallel)
            return res
        x = paddle.to_tensor(rs.rand(*shape).astype("float32"), stop_gradient=False)
        try:
            out = m(x)
        except Exception:  # noqa: BLE001 - Paddle's forward refuses it
            res["forward_raised"] = np.array(True)
            return res
        out.sum().backward()
        res["out"], res["x_grad"] = out.numpy(), x.grad.numpy()
        return res

    return run


CASES = {f"{layer}_{which}": _case(layer, args, kw, shape, attrs, which, 300 + i)
         for i, (layer, args, kw, shape, attrs) in enumerate(LAYERS) for which in SETTINGS}
