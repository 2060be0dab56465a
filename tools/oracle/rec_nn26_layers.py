"""Every paddle.nn layer case of nn26_layer_cases.CASES run by real Paddle 2.6.2 with set weights: outputs,
gradients (of sum(out * cos(arange))) w.r.t. float inputs and parameters, state_dict keys / names.

Run with /work/oracle/p26 from /tmp with PYTHONPATH unset. `rec_nn26_layers.py CASES_MODULE CASE` records the
CASES of another table (e.g. nn26_layer_cases2x) into tests/goldens/CASE."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402,F401 - read by eval

from _common import save  # noqa: E402
from nn26_layer_cases import loss_weights, make_inputs, make_params  # noqa: E402


def flat(o):
    if isinstance(o, (list, tuple)):
        return [x for y in o for x in flat(y)]
    return [o]


def main(module="nn26_layer_cases", case="nn26_layers"):
    import importlib

    CASES = importlib.import_module(module).CASES  # noqa: N806
    paddle.disable_static()
    paddle.set_device("cpu")
    arrays, meta = {}, {"paddle_version": paddle.__version__, "cases": {},
                        "program": "per case: layer=eval(ctor); set_state_dict(make_params); out=layer(*inputs)"}
    for cid, ctor, specs, mode in CASES:
        rec = {"ctor": ctor, "mode": mode}
        try:
            paddle.seed(1)
            layer = eval(ctor)
            sd = layer.state_dict()
            rec["state_dict_keys"] = list(sd.keys())
            rec["state_dict_names"] = [v.name for v in sd.values()]
            rec["state_dict_shapes"] = [list(v.shape) for v in sd.values()]
            rec["named_parameters"] = [[n, p.name, bool(p.stop_gradient)] for n, p in layer.named_parameters()]
            params = make_params(cid, {k: list(v.shape) for k, v in sd.items()})
            layer.set_state_dict(params)
            layer.train() if mode == "train" else layer.eval()
            raw = make_inputs(cid, specs)
            ins = []
            for s, a in zip(specs, raw):
                if a is None:
                    ins.append(None)
                    continue
                t = paddle.to_tensor(a)
                if s[0] in ("f", "u"):
                    t.stop_gradient = False
                ins.append(t)
            out = layer(*ins)
            outs = flat(out)
            rec["n_out"] = len(outs)
            rec["out_shapes"] = [list(o.shape) for o in outs]
            rec["out_dtypes"] = [str(o.dtype) for o in outs]
            loss = None
            for i, o in enumerate(outs):
                arrays[f"{cid}__out{i}"] = o.numpy()
                if o.dtype in (paddle.float32, paddle.float64) and not o.stop_gradient:
                    term = (o * paddle.to_tensor(loss_weights(list(o.shape)))).sum()
                    loss = term if loss is None else loss + term
            for k, v in params.items():
                arrays[f"{cid}__param__{k}"] = v
            if loss is not None:
                loss.backward()
                for i, t in enumerate(ins):
                    if t is not None and not t.stop_gradient and t.grad is not None:
                        arrays[f"{cid}__ingrad{i}"] = t.grad.numpy()
                for n, p in layer.named_parameters():
                    if p.grad is not None:
                        arrays[f"{cid}__grad__{n}"] = p.grad.numpy()
            after = layer.state_dict()
            for k, v in after.items():
                if not np.array_equal(v.numpy(), params[k]):
                    arrays[f"{cid}__after__{k}"] = v.numpy()
        except Exception as e:  # noqa: BLE001
            rec["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        meta["cases"][cid] = rec
    save(case, arrays, meta)


if __name__ == "__main__":
    main(*sys.argv[1:3])
