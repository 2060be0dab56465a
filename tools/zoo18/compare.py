"""Compare tools/zoo18/run.py dumps: ours against real 1.8.5, per model, and print the per-family table.

    python tools/zoo18/compare.py [--out /tmp/zoo18/out] [--rtol 1e-4] [MODEL...]

A model passes when the forward output and the three losses equal 1.8.5's within `rtol` (relative to the
largest magnitude of the reference array; atol 1e-6). Where ``ref_nudge`` / ``ref_nudgedown`` dumps exist
(1.8.5 with every parameter moved one float32 ulp up / down) or ``ref_nudge_sN`` dumps (each element one ulp up or
down at random, run.py --nudge-seed N) exist, the tolerance of each quantity is widened to 4x 1.8.5's largest own
change under those nudges, and the table says the model relied on it ("nudge"). ``--spread`` prints, per model and
quantity, 1.8.5's values under every nudge, ours, and where ours falls among them.
"""
import argparse
import glob
import json
import os
import sys

import numpy as np

KEYS = ("fwd", "loss1", "loss2", "loss3")


def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-6)) if b.size else 0.0


def load(out, model, side):
    j = os.path.join(out, "%s.%s.json" % (model, side))
    if not os.path.exists(j):
        return None, None
    st = json.load(open(j))
    arr = None
    npz = os.path.join(out, "%s.%s.npz" % (model, side))
    if st.get("ok") and os.path.exists(npz):
        arr = dict(np.load(npz))
    return st, arr


def nudge_tags(out, model):
    """The nudged 1.8.5 dumps of `model`: ref_nudge, ref_nudgedown, then ref_nudge_sN by N."""
    seeded = sorted((int(p.rsplit("_s", 1)[1].split(".")[0]), os.path.basename(p).split(".")[1])
                    for p in glob.glob(os.path.join(out, "%s.ref_nudge_s*.json" % model)))
    return [t for t in ("ref_nudge", "ref_nudgedown") if os.path.exists(os.path.join(out, "%s.%s.json" % (model, t)))] \
        + [t for _, t in seeded]


def spread(out, model):
    """Ours among 1.8.5's nudged runs: per quantity, 1.8.5's value, each nudge's and ours' relative deviation from
    it, and ours' rank among the nudged values (0 = below all of them)."""
    _, ref = load(out, model, "ref")
    _, ours = load(out, model, "ours")
    tags = nudge_tags(out, model)
    nudged = [a for a in (load(out, model, t)[1] for t in tags) if a is not None]
    if ref is None or ours is None or not nudged:
        print(model, "needs ref, ours and nudged ref dumps")
        return
    print("%s: %d nudged 1.8.5 runs (%s)" % (model, len(nudged), ", ".join(tags)))
    for k in KEYS:
        r = float(np.asarray(ref[k]).ravel()[0])
        vals = sorted(float(np.asarray(a[k]).ravel()[0]) for a in nudged)
        o = float(np.asarray(ours[k]).ravel()[0])
        devs = [rel(a[k], ref[k]) for a in nudged]
        d = rel(ours[k], ref[k])
        rank = sum(v < o for v in vals)
        print("  %-5s 1.8.5 %.6g | nudged %.6g .. %.6g (rel dev median %.1e, max %.1e) | ours %.6g (rel dev %.1e, "
              "rank %d of %d, %s)" % (k, r, vals[0], vals[-1], np.median(devs), max(devs), o, d, rank, len(vals),
                                      "inside the nudged range" if vals[0] <= o <= vals[-1] else
                                      "%.1fx the largest nudged deviation" % (d / max(max(devs), 1e-30))))


def compare(out, model, rtol):
    ref_st, ref = load(out, model, "ref")
    ours_st, ours = load(out, model, "ours")
    row = {"model": model, "family": (ref_st or ours_st or {}).get("family", "?")}
    if ref_st is None or ours_st is None:
        row.update(status="not run")
        return row
    if not ref_st["ok"]:
        row.update(status="1.8.5 fails", error=ref_st["error"])
        return row
    if not ours_st["ok"]:
        row.update(status="FAIL", error=ours_st["error"])
        return row
    nudges = [a for a in (load(out, model, t)[1] for t in nudge_tags(out, model)) if a is not None]
    worst, used_nudge = None, False
    for k in KEYS:
        d = rel(ours[k], ref[k])
        tol = rtol
        if nudges:
            noise = 4 * max(rel(nz[k], ref[k]) for nz in nudges)
            if noise > tol and d > rtol:
                used_nudge = d <= noise
            tol = max(tol, noise)
        if d > tol and worst is None:
            worst = "%s off by %.2e rel (tol %.1e): ours %.6g, 1.8.5 %.6g" % (
                k, d, tol, np.asarray(ours[k]).ravel()[0], np.asarray(ref[k]).ravel()[0])
        row[k] = d
    if worst:
        row.update(status="FAIL", error=worst)
    else:
        row.update(status="pass (nudge)" if used_nudge else "pass")
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/zoo18/out")
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--trace", action="store_true", help="first forward variable that parts (ZOO18_TRACE=1 dumps)")
    ap.add_argument("--grads", action="store_true", help="step-1 gradients and updated parameters (ZOO18_TRACE=1 "
                    "dumps of ref, ours and ref_nudge): ours' deviation from 1.8.5 against 1.8.5's own under a nudge")
    ap.add_argument("--spread", action="store_true", help="ours among 1.8.5's nudged runs (run.py --nudge, "
                    "--nudge-down, --nudge-seed N), per quantity")
    ap.add_argument("--by-file", metavar="ROOT", help="split image_classification by the models/ file of each "
                    "row (ROOT: the zoo checkout, e.g. /tmp/zoo18)")
    ap.add_argument("models", nargs="*")
    a = ap.parse_args()
    if a.spread:
        for m in a.models:
            spread(a.out, m)
        return 0
    if a.grads:
        for m in a.models:
            got = [load(a.out, m, s)[1] for s in ("ref", "ours", "ref_nudge")]
            if any(g is None for g in got):
                print(m, "needs ZOO18_TRACE=1 dumps of ref, ours and ref --nudge")
                continue
            ref, ours, nudge = ({k.split("/", 2)[2]: v for k, v in g.items() if k.startswith("trace/9")} for g in got)
            for kind, sel in (("gradients", "@GRAD"), ("parameters after step 1", "after1/")):
                rows = [(rel(ours[k], v), rel(nudge[k], v), k) for k, v in ref.items()
                        if sel in k and k in ours and k in nudge]
                if not rows:
                    continue
                beyond = [r for r in rows if r[0] > 4 * r[1] and r[0] > a.rtol]
                print("%s %s: %d tensors; median rel diff ours %.2e, 1.8.5 nudged %.2e; ours beyond 4x nudge and "
                      "rtol: %d %s" % (m, kind, len(rows), np.median([r[0] for r in rows]),
                                      np.median([r[1] for r in rows]), len(beyond),
                                      ", ".join("%s (%.1e vs %.1e)" % (r[2], r[0], r[1]) for r in beyond[:3])))
        return 0
    if a.trace:
        for m in a.models:
            _, ref = load(a.out, m, "ref")
            _, ours = load(a.out, m, "ours")
            keys = sorted(k for k in ref if k.startswith("trace/"))
            mine = {k.split("/", 2)[2]: ours[k] for k in ours if k.startswith("trace/")}
            for k in keys:
                o = mine.get(k.split("/", 2)[2])
                if o is None or o.shape != ref[k].shape:
                    continue
                d = rel(o, ref[k])
                if not d <= a.rtol:
                    print(m, "first parting variable", k, "rel %.2e" % d, "shape", ref[k].shape)
                    break
            else:
                print(m, "all %d forward variables within rtol" % len(keys))
        return 0
    models = a.models or sorted({os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(a.out, "*.ref.json"))})
    rows = [compare(a.out, m, a.rtol) for m in models]
    if a.by_file:  # image-classification rows by the models/ file that defines them (resnet_vd, mobilenet_v2, ...)
        import re

        init = open(os.path.join(a.by_file, "PaddleCV", "image_classification", "models", "__init__.py")).read()
        home = {n: "ic/" + f for f, names in re.findall(r"from \.(\w+) import ([^\n]+)", init)
                for n in re.findall(r"\w+", names)}
        for r in rows:
            base = r["model"].rsplit("_b", 1)[0] if re.search(r"_b\d+$", r["model"]) else r["model"]
            if r["family"] == "image_classification" and base in home:
                r["family"] = home[base]
    fams = {}
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    print("| family | models | run under 1.8.5 | pass | failures (first error) |")
    print("|---|---|---|---|---|")
    for fam, rs in sorted(fams.items()):
        runnable = [r for r in rs if r["status"] not in ("1.8.5 fails", "not run")]
        passed = [r for r in runnable if r["status"].startswith("pass")]
        fails = "; ".join("%s: %s" % (r["model"], r.get("error", r["status"])) for r in rs if not r["status"].startswith("pass"))
        print("| %s | %d | %d | %d | %s |" % (fam, len(rs), len(runnable), len(passed), fails or "-"))
    print()
    for r in rows:
        print("%-28s %-14s %s" % (r["model"], r["status"], " ".join("%s=%.1e" % (k, r[k]) for k in KEYS if k in r)),
              r.get("error", ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
