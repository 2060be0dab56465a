"""Compare the ``--trace`` dumps of tools/zoo26/run.py (dygraph): ours against real Paddle 2.6.2, beside 2.6.2
against its own jittered reruns (``--jitter``, every ``--jitter-seed`` found: refjitter*.trace.npz), array by array
in forward order (eval, train, eval after the step), then gradients, the parameters after the SGD step and the
BatchNorm statistics. Each figure is max|a - b| / max|b| (as compare.py); "jitter" is the largest over the seeds,
"med" their median. The loss and outputs of the plain .npz dumps come first.

  python tools/zoo26/trace_diff.py --model LeViT_128S [--dir /tmp/zoo26/out] [--zoo clas] [--all]

Rows are printed where ours differs by more than --ratio times the largest jitter spread (and more than --floor); --all
prints every row. The first such forward row is the first op where ours leaves 2.6.2.
"""

import argparse
import glob
import os

import numpy as np


def rel(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return float("inf")
    if not b.size:
        return 0.0
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-12))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--zoo", default="clas")
    ap.add_argument("--dir", default="/tmp/zoo26/out")
    ap.add_argument("--ratio", type=float, default=1.0)
    ap.add_argument("--floor", type=float, default=1e-5)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--float64", action="store_true", help="compare the run.py --float64 dumps (ref64 / ours64)")
    args = ap.parse_args()
    stem = os.path.join(args.dir, args.zoo, args.model + ".dygraph.")
    ref, ours = {}, {}
    tail = "64" if args.float64 else ""
    jits = []
    for suffix in (".npz", ".trace.npz"):
        with np.load(stem + "ref" + tail + suffix) as z:
            ref.update({k: z[k] for k in z.files})
        with np.load(stem + "ours" + tail + suffix) as z:
            ours.update({k: z[k] for k in z.files})
    for path in sorted(glob.glob(stem + "refjitter*%s.trace.npz" % tail)):
        j = {}
        for p in (path, path.replace(".trace.npz", ".npz")):
            if os.path.exists(p):
                with np.load(p) as z:
                    j.update({k: z[k] for k in z.files})
        jits.append(j)
    print("%d jittered 2.6.2 runs" % len(jits))
    print("%-60s %11s %11s %11s %7s" % ("array", "ours-2.6.2", "jitter max", "jitter med", "ratio"))
    for k in ref:  # np.savez keeps insertion order: forward order, then grads, then post-step values
        if k not in ours:
            print("%-60s missing on our side" % k)
            continue
        r = rel(ours[k], ref[k])
        js = [rel(j[k], ref[k]) for j in jits if k in j]
        jm = max(js) if js else float("nan")
        jmed = float(np.median(js)) if js else float("nan")
        ratio = r / jm if jm > 0 else float("inf") if r > 0 else 1.0
        if args.all or (r > args.floor and not ratio <= args.ratio):
            print("%-60s %11.3g %11.3g %11.3g %7.3g" % (k, r, jm, jmed, ratio))

if __name__ == "__main__":
    main()
