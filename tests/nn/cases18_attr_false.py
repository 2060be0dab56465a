"""fluid.dygraph layers (Paddle 1.8.5) with param_attr=False / bias_attr=False and GroupNorm's defaults: which
parameters the state dict holds, or whether the constructor refuses. 1.8.5's rules differ from 2.6's: the
convolutions assert a filter, LayerNorm (shift=True) and InstanceNorm assert a bias, and GroupNorm passes
`param_attr or False`, so by default it has no parameters at all. (fluid.dygraph.BatchNorm is paddle.nn.BatchNorm,
which follows 2.6: False gives no parameter, where 1.8.5 fails.) Recorded by tools/oracle/rec_run18.py into
tests/goldens/windows26_attr_false18.*, replayed by tests/nn/test_attr_false26.py; numpy only."""

import numpy as np

LAYERS = [("Linear", (3, 2)), ("Conv2D", (2, 3, 3)), ("Conv2DTranspose", (2, 3, 3)), ("Conv3D", (2, 3, 2)),
          ("Conv3DTranspose", (2, 3, 2)), ("LayerNorm", ([3],)), ("GroupNorm", (4, 2)), ("InstanceNorm", (3,)),
          ("BilinearTensorProduct", (3, 3, 2))]
SETTINGS = {"default": {}, "w": {"param_attr": False}, "b": {"bias_attr": False},
            "wb": {"param_attr": False, "bias_attr": False}}


def _case(layer, args, kwargs):
    def run(fluid):
        with fluid.dygraph.guard():
            try:
                m = getattr(fluid.dygraph, layer)(*args, **kwargs)
            except Exception:  # noqa: BLE001 - 1.8.5 refuses the setting
                return {"raised": np.array(True)}
            return {"keys": np.array(sorted(m.state_dict()) + ["-"]),
                    "shapes": np.array([str(list(v.shape)) for _, v in sorted(m.state_dict().items())] + ["-"])}

    return run


CASES = {f"{layer}_{which}": _case(layer, args, kw) for layer, args in LAYERS for which, kw in SETTINGS.items()}
CASES["GroupNorm_named"] = _case("GroupNorm", (4, 2), {"param_attr": "gn_w", "bias_attr": "gn_b"})
