"""Where a zoo18 row first parts from real 1.8.5 in training step 1 (forward values and the gradient of every
forward variable), measured against 1.8.5's own change when every parameter moves one float32 ulp up.

    # needs OUT/MODEL.inputs.npz (run.py --side ref writes it); the same script dumps on each side, then reports
    cd /tmp && /work/oracle/p18/bin/python TOOLS/zoo18/diverge.py dump --side ref --model M --out OUT
    cd /tmp && /work/oracle/p18/bin/python TOOLS/zoo18/diverge.py dump --side ref --nudge --model M --out OUT
    cd /tmp && PYTHONPATH=WT:WT/shims python TOOLS/zoo18/diverge.py dump --side ours --model M --out OUT
    python TOOLS/zoo18/diverge.py report --model M --out OUT

Both sides build the forward as run.py does (training mode, dropout 0), ask `fluid.gradients(loss, v)` for every
float32 variable a forward op writes, and fetch values and gradients in one run: intermediate gradients are
not fetchable from our minimize() program (one autograd node), so no optimizer is appended. Intermediate
variable names differ where 1.8.5's op writes extra outputs (batch_norm's SavedMean / SavedVariance shift the
unique_name counter), so the report pairs the n-th op of a type on one side with the n-th of that type on the
other (depthwise_conv2d counts as conv2d) and compares their first float output.

The report prints the first forward variable where ours is beyond 1e-5 relative and beyond 4x 1.8.5's nudged
change; walking the backward from the loss, the first gradient where ours, and where 1.8.5 nudged, are beyond 1e-4
of 1.8.5's; at ours' first, the op that reads that variable and the elements whose gradient parts (on either
side) with the variable's value on each side: a ReLU input within rounding of zero that takes the other sign sends a
whole element's gradient one way or the other. It ends with the count of ReLU inputs whose sign differs from
1.8.5's, ours and nudged, and the root-mean-square forward deviations.
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUTS = ("Y", "Out", "Output")  # the op's result among its outputs (batch_norm: Y, not SavedMean)


def _run_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("zoo18_run", os.path.join(HERE, "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def dump(a):
    R = _run_module()
    R.ZOO_ROOT, R.BATCH = a.root, a.batch
    import paddle.fluid as fluid

    family, kind, build = R.MODELS[a.model]
    if kind != "static":
        raise SystemExit("diverge.py: static rows only")
    R.patch_dropout(fluid)
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = 1
    fp32 = fluid.core.VarDesc.VarType.FP32
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        spec = build(fluid)
        params = sorted(v.name for v in main.list_vars() if v.persistable)
        blk = main.global_block()
        ops, names = [], []
        for op in list(blk.ops):
            slots = [s for s in OUTS if s in op.output_names] or list(op.output_names)
            outs = [n for s in slots for n in op.output(s)]
            outs = [n for n in outs if blk.has_var(n) and not blk.var(n).persistable and blk.var(n).dtype == fp32]
            ops.append({"type": op.type, "inputs": list(op.input_arg_names), "out": outs[0] if outs else None})
            if outs and outs[0] not in names:
                names.append(outs[0])
        grads = fluid.gradients([spec["loss"]], [blk.var(n) for n in names])
    stem = a.model if a.batch == 2 else "%s_b%d" % (a.model, a.batch)
    arrays = dict(np.load(os.path.join(a.out, stem + ".inputs.npz")))
    place, scope = fluid.CPUPlace(), fluid.Scope()
    exe = fluid.Executor(place)
    with fluid.scope_guard(scope):
        exe.run(startup)
        for p in params:
            if "param/" + p in arrays:
                scope.find_var(p).get_tensor().set(R.nudged(p, arrays["param/" + p], 1 if a.nudge else 0), place)
        feed = R.to_feed(fluid, spec["feeds"], arrays, place)
        pairs = [(n, g) for n, g in zip(names, grads) if g is not None]
        got = exe.run(main, feed=feed, fetch_list=[n for n, _ in pairs] + [g for _, g in pairs], return_numpy=False)
    res = {}
    for i, (n, _) in enumerate(pairs):
        res["v/" + n] = np.array(got[i])
        res["g/" + n] = np.array(got[len(pairs) + i])
    tag = a.side + ("_nudge" if a.nudge else "")
    np.savez(os.path.join(a.out, "%s.diverge_%s.npz" % (stem, tag)), **res)
    with open(os.path.join(a.out, "%s.diverge_%s.json" % (stem, tag)), "w") as f:
        json.dump(ops, f)
    print("%s %s: %d variables with gradients" % (stem, tag, len(pairs)))


def _load(out, stem, tag):
    d = np.load(os.path.join(out, "%s.diverge_%s.npz" % (stem, tag)))
    with open(os.path.join(out, "%s.diverge_%s.json" % (stem, tag))) as f:
        return json.load(f), {k: d[k] for k in d.files}


def _keyed(ops):
    """(type, n) -> op, the n-th forward op of that type, in program order."""
    seen, res = {}, {}
    for op in ops:
        t = "conv2d" if op["type"] == "depthwise_conv2d" else op["type"]
        if t.endswith("_grad") or op["out"] is None:
            continue
        res[(t, seen.get(t, 0))] = op
        seen[t] = seen.get(t, 0) + 1
    return res


def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30)) if b.size else 0.0


def report(a):
    stem = a.model if a.batch == 2 else "%s_b%d" % (a.model, a.batch)
    (rops, ref), (_, nud), (oops, ours) = (_load(a.out, stem, t) for t in ("ref", "ref_nudge", "ours"))
    rk, ok = _keyed(rops), _keyed(oops)
    order = [k for k in rk if k in ok and "v/" + rk[k]["out"] in ref and "v/" + ok[k]["out"] in ours
             and ref["v/" + rk[k]["out"]].shape == ours["v/" + ok[k]["out"]].shape]
    print("%s: %d forward ops paired (1.8.5 %d, ours %d)" % (stem, len(order), len(rk), len(ok)))
    first = None
    for k in order:
        r, o = rk[k]["out"], ok[k]["out"]
        d, z = rel(ours["v/" + o], ref["v/" + r]), rel(nud["v/" + r], ref["v/" + r])
        if d > 1e-5 and d > 4 * z:
            first = first or (k, r, d, z)
    print("forward: " + ("first parting %s %s: ours %.2e, 1.8.5 nudged %.2e" % (first[0][0], first[1], first[2],
                                                                               first[3]) if first else
                         "every paired variable within 1e-5 or 4x 1.8.5's nudged change"))
    back = [k for k in reversed(order) if "g/" + rk[k]["out"] in ref and "g/" + ok[k]["out"] in ours]
    firsts = {}
    for who, pick in (("ours", lambda k: ours["g/" + ok[k]["out"]]), ("1.8.5 nudged", lambda k: nud["g/" + rk[k]["out"]])):
        for i, k in enumerate(back):
            d = rel(pick(k), ref["g/" + rk[k]["out"]])
            if d > 1e-4:
                firsts[who] = i
                print("backward: %s first beyond 1e-4 of 1.8.5 at the gradient of %s (%s, %d of %d from the loss): "
                      "%.2e" % (who, rk[k]["out"], k[0], i + 1, len(back), d))
                break
        else:
            print("backward: %s within 1e-4 of 1.8.5 at every gradient" % who)
    if "ours" in firsts:
        k = back[firsts["ours"]]
        r, o = rk[k]["out"], ok[k]["out"]
        users = [op["type"] for op in rops if r in op["inputs"] and not op["type"].endswith("_grad")]
        gr, go, gn = ref["g/" + r], ours["g/" + o], nud["g/" + r]
        xr, xo, xn = ref["v/" + r], ours["v/" + o], nud["v/" + r]
        big = 1e-3 * np.max(np.abs(gr))
        idx = np.argwhere((np.abs(gr - go) > big) | (np.abs(gr - gn) > big))
        print("  there (read by %s): %d elements whose gradient parts (ours or nudged, beyond 1e-3 of the largest); "
              "value 1.8.5 / ours / nudged, gradient 1.8.5 / ours / nudged:" % (", ".join(users), len(idx)))
        for i in idx[:8]:
            i = tuple(int(t) for t in i)
            print("   ", i, "%.3e / %.3e / %.3e; %.3e / %.3e / %.3e" % (xr[i], xo[i], xn[i], gr[i], go[i], gn[i]))
    flips = [0, 0]
    sq, n = [0.0, 0.0], 0
    for k in order:
        if k[0] != "relu":
            continue
        x = rk[k]["inputs"][0]
        src = [j for j in order if rk[j]["out"] == x]
        if not src:
            continue
        xr, xo, xn = ref["v/" + x], ours["v/" + ok[src[0]]["out"]], nud["v/" + x]
        flips[0] += int(((xo > 0) != (xr > 0)).sum())
        flips[1] += int(((xn > 0) != (xr > 0)).sum())
        sq[0] += float(((xo.astype(np.float64) - xr) ** 2).sum())
        sq[1] += float(((xn.astype(np.float64) - xr) ** 2).sum())
        n += xr.size
    if n:
        print("ReLU inputs (%d): sign differs from 1.8.5's in ours %d, in 1.8.5 nudged %d; rms deviation ours %.2e, "
              "nudged %.2e" % (n, flips[0], flips[1], (sq[0] / n) ** 0.5, (sq[1] / n) ** 0.5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("dump", "report"))
    ap.add_argument("--side", choices=("ref", "ours"))
    ap.add_argument("--nudge", action="store_true", help="ref: every parameter one float32 ulp up")
    ap.add_argument("--model", required=True)
    ap.add_argument("--root", default="/tmp/zoo18")
    ap.add_argument("--out", default="/tmp/zoo18/out")
    ap.add_argument("--batch", type=int, default=2)
    a = ap.parse_args()
    if a.what == "dump":
        if a.side is None or (a.nudge and a.side != "ref"):
            ap.error("dump needs --side (and --nudge only with --side ref)")
        dump(a)
    else:
        report(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
