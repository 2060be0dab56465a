"""fluid.nets (forward values and parameter names), fluid.metrics / fluid.average (Python metrics over fixed
arrays), DetectionMAP (metrics and evaluator, this batch and accumulated over runs, integral / 11point,
difficult boxes) and the evaluator's ChunkEvaluator / EditDistance. Parameters are set in the scope after
the startup program. Shared by tools/oracle/rec_run18.py (golden fluid18_nets_metrics) and
tests/fluid/test_nets_metrics18.py; numpy only, python 3.8."""

import numpy as np


def _set_params(fluid, main, scope, rs):
    names = []
    for p in sorted(main.global_block().all_parameters(), key=lambda p: p.name):
        scope.find_var(p.name).get_tensor().set((rs.randn(*p.shape) * 0.3).astype("float32"), fluid.CPUPlace())
        names.append(p.name)
    return names


def _run_net(fluid, build, feed, rs, steps=1):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        outs = build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        names = _set_params(fluid, main, scope, rs)
        res = [exe.run(main, feed=feed(fluid, i), fetch_list=outs) for i in range(steps)]
    return names, res


def _nets(fluid, rs):
    res, meta = {}, {}
    img = rs.randn(2, 3, 8, 8).astype("float32")
    L, N = fluid.layers, fluid.nets

    def feed_img(F, i):
        return {"img": img}

    def conv_pool(F):
        x = F.data("img", [-1, 3, 8, 8], "float32")
        return [N.simple_img_conv_pool(x, 4, 3, 2, 2, act="relu"),
                N.simple_img_conv_pool(x, 2, 3, 3, 1, pool_padding=1, pool_type="avg", conv_padding=1)]

    def conv_group(F):
        x = F.data("img", [-1, 3, 8, 8], "float32")
        return [N.img_conv_group(x, [4, 4], 2, conv_act="relu", conv_with_batchnorm=[True, False], pool_stride=2),
                N.img_conv_group(x, (3,), 2, conv_padding=0, conv_filter_size=[3], pool_type="avg")]

    seq = rs.randn(7, 5).astype("float32")

    def seq_pool(F):
        x = F.layers.data("s", [5], dtype="float32", lod_level=1)
        return [N.sequence_conv_pool(x, 3, 3), N.sequence_conv_pool(x, 2, 2, act="tanh", pool_type="average")]

    def feed_seq(F, i):
        return {"s": F.create_lod_tensor(seq, [[3, 4]], F.CPUPlace())}

    g = rs.randn(3, 4, 6).astype("float32")

    def glu(F):
        x = F.data("g", [3, 4, 6], "float32")
        return [N.glu(x), N.glu(x, dim=1)]

    q = rs.randn(2, 3, 8).astype("float32")
    kv = rs.randn(2, 5, 8).astype("float32")

    def attention(F):
        qv = F.data("q", [2, 3, 8], "float32")
        kvv = F.data("kv", [2, 5, 8], "float32")
        return [N.scaled_dot_product_attention(qv, kvv, kvv), N.scaled_dot_product_attention(qv, kvv, kvv, 2)]

    for name, build, feed in (("conv_pool", conv_pool, feed_img), ("conv_group", conv_group, feed_img),
                              ("seq_pool", seq_pool, feed_seq), ("glu", glu, lambda F, i: {"g": g}),
                              ("attention", attention, lambda F, i: {"q": q, "kv": kv})):
        names, runs = _run_net(fluid, build, feed, rs)
        meta[name] = names
        for j, o in enumerate(runs[0]):
            res[f"{name}|out{j}"] = np.array(o)
    del L
    return res, meta


def _python_metrics(fluid, rs):
    M = fluid.metrics
    res = {}
    preds = rs.rand(20, 1).astype("float32")
    labels = (rs.rand(20, 1) > 0.5).astype("int64")
    p, r = M.Precision(), M.Recall()
    comp = M.CompositeMetric()
    comp.add_metric(p)
    comp.add_metric(r)
    for i in (0, 10):
        comp.update(preds[i:i + 10], labels[i:i + 10])
    res["precision_recall"] = np.array(comp.eval(), "float64")
    acc = M.Accuracy()
    for v, w in ((0.5, 10), (0.75, 4), (np.array([0.25]), 2)):
        acc.update(v, w)
    res["accuracy"] = np.array(acc.eval(), "float64")
    ch = M.ChunkEvaluator()
    for c in ((5, 4, 3), (np.array([2]), np.array([3]), np.array([1]))):
        ch.update(*c)
    res["chunk"] = np.array([float(np.asarray(v).reshape(-1)[0]) for v in ch.eval()], "float64")
    ed = M.EditDistance("ed")
    ed.update(np.array([[0.0], [2.0], [1.0]], "float32"), 3)
    ed.update(np.array([[0.0], [0.0]], "float32"), 2)
    res["edit_distance"] = np.array(ed.eval(), "float64")
    auc = M.Auc("auc", num_thresholds=200)
    pr = rs.rand(30, 1).astype("float32")
    auc.update(np.concatenate([1 - pr, pr], 1), (rs.rand(30, 1) < pr).astype("int64"))
    res["auc"] = np.array(auc.eval(), "float64")
    ch.reset()
    res["chunk_after_reset"] = np.array([ch.num_infer_chunks, ch.num_label_chunks, ch.num_correct_chunks], "float64")
    wa = fluid.average.WeightedAverage()
    wa.add(2.0, 1)
    wa.add(np.array([4.0]), 3)
    res["weighted_average"] = np.array(wa.eval(), "float64")
    return res


# ground truth (label, difficult, box) and detections (label, score, box) of 2 images, 3 batches
def _det_batches(rs):
    batches = []
    for _ in range(3):
        gts, dets, glens, dlens = [], [], [], []
        for _img in range(2):
            ng = rs.randint(1, 4)
            boxes = []
            for _ in range(ng):
                x0, y0 = rs.rand(2) * 0.6
                boxes.append([rs.randint(1, 4), float(rs.rand() < 0.3), x0, y0, x0 + 0.2 + 0.2 * rs.rand(),
                              y0 + 0.2 + 0.2 * rs.rand()])
            nd = rs.randint(3, 8)
            for _ in range(nd):
                if boxes and rs.rand() < 0.6:
                    b = boxes[rs.randint(len(boxes))]
                    lab = b[0] if rs.rand() < 0.7 else rs.randint(1, 4)
                    box = [v + rs.randn() * 0.08 for v in b[2:]]
                else:
                    lab = rs.randint(1, 4)
                    x0, y0 = rs.rand(2) * 0.8
                    box = [x0, y0, x0 + 0.3, y0 + 0.25]
                dets.append([lab, rs.rand()] + box)
            gts.extend(boxes)
            glens.append(ng)
            dlens.append(nd)
        g = np.array(gts, "float32")
        batches.append({"lbl": (g[:, :1].astype("int32"), glens), "dif": (g[:, 1:2].astype("int32"), glens),
                        "box": (g[:, 2:], glens), "det": (np.array(dets, "float32"), dlens)})
    return batches


def _detection_map(fluid, rs):
    res = {}
    batches = _det_batches(rs)
    for kind in ("metrics", "evaluator"):
        for ap, difficult, use_dif in (("integral", True, False), ("11point", False, True), ("integral", False, True)):
            main, startup = fluid.Program(), fluid.Program()
            with fluid.program_guard(main, startup), fluid.unique_name.guard():
                lbl = fluid.layers.data("lbl", [1], dtype="int32", lod_level=1)
                dif = fluid.layers.data("dif", [1], dtype="int32", lod_level=1)
                box = fluid.layers.data("box", [4], dtype="float32", lod_level=1)
                det = fluid.layers.data("det", [6], dtype="float32", lod_level=1)
                cls = fluid.metrics.DetectionMAP if kind == "metrics" else fluid.evaluator.DetectionMAP
                m = cls(det, lbl, box, dif if use_dif else None, class_num=4, overlap_threshold=0.5,
                        evaluate_difficult=difficult, ap_version=ap)
                cur, acc = m.get_map_var()
            exe = fluid.Executor(fluid.CPUPlace())
            scope = fluid.Scope()
            tag = f"map_{kind}_{ap}_{'d' if difficult else 'nd'}"
            with fluid.scope_guard(scope):
                exe.run(startup)
                for i, b in enumerate(batches + batches[:1]):
                    if i == 3:
                        m.reset(exe)
                    feed = {k: fluid.create_lod_tensor(a, [lens], fluid.CPUPlace()) for k, (a, lens) in b.items()}
                    c, a = exe.run(main, feed=feed, fetch_list=[cur, acc])
                    res[f"{tag}|run{i}"] = np.array([np.array(c).reshape(-1)[0], np.array(a).reshape(-1)[0]])
    return res


def _evaluators(fluid, rs):
    res = {}
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        p = fluid.layers.data("p", [1], dtype="int64", lod_level=1)
        g = fluid.layers.data("g", [1], dtype="int64", lod_level=1)
        ch = fluid.evaluator.ChunkEvaluator(p, g, "IOB", 3)
        hyp = fluid.layers.data("hyp", [1], dtype="int64", lod_level=1)
        ref = fluid.layers.data("ref", [1], dtype="int64", lod_level=1)
        ed = fluid.evaluator.EditDistance(hyp, ref)
        fetch = ch.metrics + ed.metrics
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for i in range(3):
            if i in (0, 2):  # 1.8.5 leaves the states uninitialized until the first reset
                ch.reset(exe)
                ed.reset(exe)
            gold = rs.randint(0, 7, (12, 1)).astype("int64")
            pred = np.where(rs.rand(12, 1) < 0.6, gold, rs.randint(0, 7, (12, 1))).astype("int64")
            h = rs.randint(0, 5, (9, 1)).astype("int64")
            r = np.where(rs.rand(9, 1) < 0.6, h, rs.randint(0, 5, (9, 1))).astype("int64")
            feed = {"p": fluid.create_lod_tensor(pred, [[5, 7]], fluid.CPUPlace()),
                    "g": fluid.create_lod_tensor(gold, [[5, 7]], fluid.CPUPlace()),
                    "hyp": fluid.create_lod_tensor(h, [[2, 3, 4]], fluid.CPUPlace()),
                    "ref": fluid.create_lod_tensor(r, [[3, 3, 3]], fluid.CPUPlace())}
            outs = exe.run(main, feed=feed, fetch_list=fetch)
            for j, o in enumerate(outs):
                res[f"evaluator|run{i}|out{j}"] = np.array(o)
            for j, o in enumerate(ch.eval(exe) + ed.eval(exe)):
                res[f"evaluator|run{i}|eval{j}"] = np.array(o)
    return res


def run(fluid):
    """-> (arrays, meta: the parameter names of each nets case)"""
    rs = np.random.RandomState(118)
    res, meta = _nets(fluid, rs)
    res.update(_python_metrics(fluid, rs))
    res.update(_detection_map(fluid, rs))
    res.update(_evaluators(fluid, rs))
    return res, {"param_names": meta}
