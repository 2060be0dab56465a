"""Parity tables of paddle.vision against the Paddle 2.6.2 goldens (markdown on stdout), for the issue notes.

  python tools/vision_parity.py models       every paddle.vision.models case of tests/goldens/models26: state_dict
                                             keys / shapes, output shapes, largest output difference
  python tools/vision_parity.py transforms   every paddle.vision.transforms case of tests/goldens/transforms26 by
                                             transform and image kind: cases equal to Paddle's pixels

Run from the repository root with PYTHONPATH=$PWD:$PWD/shims (all 62 model cases at full size take minutes)."""

import sys
import time
from collections import defaultdict

import numpy as np


def models():
    import paddle
    from tests.vision import test_models as tm

    print("| case | constructor | keys (ours / Paddle) | keys+shapes equal | output shapes | max rel. diff | s |")
    print("|---|---|---|---|---|---|---|")
    totals = defaultdict(int)
    for cid, case in tm.CASES.items():
        t0 = time.time()
        model = tm.build(case)
        model.eval()
        sd = model.state_dict()
        want = tm.ARR[f"{cid}__keys"].tobytes().decode()
        keys_ok = tm.keys_text(sd) == want
        model.set_state_dict({k: tm.weight_for(k, v.shape) for k, v in sd.items()})
        with paddle.no_grad():
            out = model(paddle.to_tensor(tm.model_input(case["input"])))
        outs = out if isinstance(out, (list, tuple)) else [out]
        shapes_ok = [list(o.shape) for o in outs] == case["out_shapes"]
        diff = 0.0
        for i, o in enumerate(outs):
            ref = tm.ARR[f"{cid}__out{i}"]
            got = tm.summarize(o.numpy())
            diff = max(diff, float(np.max(np.abs(got[:-2] - ref[:-2]) / np.maximum(np.abs(ref[:-2]), 1e-3))))
        ok = keys_ok and shapes_ok and diff < 2e-4
        totals["cases"] += 1
        totals["ok"] += ok
        print(f"| {cid} | {case['ctor']} | {len(sd)} / {len(want.split(';'))} | {'yes' if keys_ok else 'NO'} | "
              f"{'same' if shapes_ok else 'DIFFER'} {case['out_shapes'][0]} | {diff:.1e} | {time.time() - t0:.1f} |",
              flush=True)
    print(f"\n{totals['ok']} / {totals['cases']} cases equal to Paddle 2.6.2 "
          f"({len({c['ctor'] for c in tm.CASES.values()})} constructors)")


def transforms():
    from tests.vision import test_transforms as tt

    rows = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for p in tt._params():
        name, k = p.values
        kind = tt.INPUTS[k][0]
        key = f"{name}__{k}"
        try:
            if key in tt.META["errors"]:
                try:
                    tt._run(name, k)
                    ok = False
                except Exception as e:  # noqa: BLE001 - the same exception type as Paddle's
                    ok = type(e).__name__ == tt.META["errors"][key][0]
            else:
                out, want = tt._run(name, k), tt.ARR[key]
                ok = out.shape == want.shape and out.dtype == want.dtype and (
                    np.array_equal(out, want) if want.dtype == np.uint8 else
                    np.allclose(out, want, rtol=1e-5, atol=1e-6))
        except Exception:  # noqa: BLE001 - a crash counts as a mismatch
            ok = False
        cell = rows[name][{"np": "numpy (OpenCV)", "pil": "PIL (Pillow)", "t": "Tensor"}[kind]]
        cell[0] += ok
        cell[1] += 1
    cols = ["numpy (OpenCV)", "PIL (Pillow)", "Tensor"]
    print("| transform | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    tot = [0, 0]
    for name in sorted(rows, key=str.lower):
        cells = []
        for c in cols:
            if c in rows[name]:
                a, b = rows[name][c]
                tot[0] += a
                tot[1] += b
                cells.append(f"{a}/{b}" if a == b else f"**{a}/{b}**")
            else:
                cells.append("-")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"\n{tot[0]} / {tot[1]} cases equal to Paddle 2.6.2")


if __name__ == "__main__":
    {"models": models, "transforms": transforms}[sys.argv[1]]()
