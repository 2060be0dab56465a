"""Record paddle.vision.ops with real Paddle 2.6.2 -> tests/goldens/vision_ops26.{npz,json}.

Each case is a call on small fixed inputs (numpy RandomState); outputs are stored as `<case>__<i>`; a case that
raises records its error type instead. Cases with "grad" also store d(sum(out0 * w))/d(input) for a fixed w.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_vision_ops26.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import save  # noqa: E402

import paddle  # noqa: E402
import paddle.vision.ops as V  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "vision"))
from vision_ops_cases import CASES, inputs_for  # noqa: E402


def flatten(out):
    """Nested lists / tuples of outputs -> a flat list, in order."""
    if isinstance(out, (list, tuple)):
        return [o for x in out for o in flatten(x)]
    return [out]


def run_case(name, spec):
    arrs = inputs_for(name, spec)
    # deformable_conv's backward needs every float input to require a gradient (it crashes otherwise)
    every = spec["inputs"] == "deform" and spec.get("grad")
    tens = {k: paddle.to_tensor(v, stop_gradient=not (spec.get("grad") == k or (every and v.dtype == np.float32)))
            for k, v in arrs.items()}
    kw = dict(spec.get("kwargs", {}))
    kw.update({k: tens[v] for k, v in spec.get("tensor_kwargs", {}).items()})
    args = [tens[a] for a in spec.get("args", [])]
    fn = spec["fn"]
    if fn.startswith("layer:"):
        cls, ctor = fn[6:], spec.get("ctor", {})
        layer = getattr(V, cls)(**ctor)
        for pname, p in layer.named_parameters():
            p.set_value(arrs[f"param_{pname}"])
        out = layer(*args, **kw)
    else:
        out = getattr(V, fn)(*args, **kw)
    outs = flatten(out)
    res = {f"{name}__{i}": (o.numpy() if o is not None else np.zeros([0], "float32")) for i, o in enumerate(outs)}
    if spec.get("grad"):
        w = np.random.RandomState(5).uniform(-1, 1, outs[0].shape).astype("float32")
        (outs[0] * paddle.to_tensor(w)).sum().backward()
        res[f"{name}__grad"] = tens[spec["grad"]].grad.numpy()
    return res


def main():
    arrays, meta = {}, {"paddle_version": paddle.__version__, "errors": {}}
    for name, spec in CASES.items():
        try:
            arrays.update(run_case(name, spec))
        except Exception as e:  # noqa: BLE001 - a case may record Paddle's error
            meta["errors"][name] = type(e).__name__
            print(name, "raised", type(e).__name__, str(e)[:200])
    save("vision_ops26", arrays, meta)


if __name__ == "__main__":
    main()
