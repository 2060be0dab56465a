"""Inference models saved by REAL Paddle, for paddle_compat's ProgramDesc reader (tests/static_io).

Runs in either oracle venv (the branch is chosen by paddle.__version__):
  /work/oracle/p18/bin/python -> tests/goldens/pdmodel/fluid18/<model>/ (fluid.io.save_inference_model:
      `__model__` + one file per persistable) and fluid18_combined/mlp/ (params_filename='__params__');
      the `op_callstack` attribute 1.8 stores on each op (~1.5 KB) is removed from the model's ops before saving
  /work/oracle/p26/bin/python -> tests/goldens/pdmodel/static26/<model>.pdmodel / .pdiparams
      (paddle.static.save_inference_model; jit.* by paddle.jit.save)
plus tests/goldens/pdmodel/<version>.npz/.json: the fixed inputs fed and the outputs real Paddle computed from
the saved-and-reloaded model (key `<model>__in__<feed>` and `<model>__out__<i>`, i in fetch order).

Models (tiny, so the whole directory stays small):
  mlp: fc(8->16, relu) -> fc(16->4) -> softmax; fetch [probs]
  cnn: conv2d(1->4, 3x3, pad 1) -> batch_norm -> relu -> pool2d(max 2x2) -> dropout -> fc(3) -> softmax;
       fetch [probs, argmax(probs)]
  emb: ids -> embedding(20x6) -> transpose -> reshape -> concat with dense x -> fc(5) -> scale -> layer_norm
       -> matmul with a parameter (transposed) -> top_k; fetch [topk values, topk indices, tanh(fc)]
  misc: one model per version touching the other adapters: depthwise conv2d (padding SAME) + sigmoid,
       avg pool2d (ceil_mode; exclusive=False in 2.6 only), global / adaptive pool2d, flatten, embedding
       with padding_idx, reduce_sum / max / mean, elementwise sub / mul (axis) / max / min / div / pow,
       fill_constant, leaky_relu, gelu, exp, abs, sqrt, sum, slice (decrease_axis), argmin, cast,
       squeeze / unsqueeze, concat, mean, matmul_v2 (transpose_x), top_k_v2 (axis 0, smallest), log_softmax
  legacy (1.8 only): nearest_interp / bilinear_interp (v1, align_corners, scale), pad2d (reflect), relu6
       (threshold), hard_swish, swish, hard_sigmoid, prelu, clip, split (num), stack, assign_value, gather,
       expand (v1), fill_constant_batch_size_like, pad, shape
  vision (2.6 only): conv2d_transpose, relu6, nearest / bilinear / bicubic / linear / trilinear interp_v2,
       pad3d (reflect), hard_swish, hard_sigmoid, swish, prelu (channel), clip, split (sections), stack,
       assign_value, gather (axis), expand_v2, tile, softplus, elu, pow, equal, fill_any_like, where, shape
  jit (2.6 only): paddle.jit.save of a dygraph Conv2D(1->2, 3x3) -> relu -> flatten -> Linear(8->3) -> softmax
       (`jit.pdmodel`, `jit.pdiparams`, `jit.pdiparams.info`)
  control (1.8 only): fc -> layers.cond on reduce_mean > 0 (two branches) -> a layers.While loop (increment,
       less_than(cond=), array_write) -> array_read; fetch [loop value, counter, an array element]
  unsupported: x -> temporal_shift -> fc(2); an op type paddle_compat's reader does not map
Random parameter initialisers are overwritten with seeded arrays before saving.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np
import paddle
from _common import GOLDEN_DIR, save

V18 = paddle.__version__.startswith("1.")
OUT = os.path.join(GOLDEN_DIR, "pdmodel")
RNG = np.random.RandomState(20240607)


def inputs(model):
    r = np.random.RandomState({"mlp": 1, "cnn": 2, "emb": 3, "unsupported": 4, "misc": 5, "vision": 7,
                               "legacy": 8, "control": 9}[model])
    if model == "mlp":
        return {"x": r.randn(5, 8).astype("float32")}
    if model == "cnn":
        return {"img": r.randn(3, 1, 6, 6).astype("float32")}
    if model == "emb":
        ids = r.randint(0, 20, size=(4, 5)).astype("int64")
        return {"ids": ids[..., None] if V18 else ids, "dense": r.randn(4, 3).astype("float32")}
    if model == "misc":
        ids = r.randint(0, 10, size=(4, 4)).astype("int64")
        ids[0, :2] = 0  # padding_idx rows
        return {"x": r.randn(4, 2, 6, 6).astype("float32"), "ids": ids[..., None] if V18 else ids}
    if model == "legacy":
        return {"x": r.randn(3, 2, 4, 4).astype("float32")}
    if model == "control":
        return {"x": r.randn(3, 4).astype("float32")}
    if model == "vision":
        return {"x": r.randn(3, 2, 4, 4).astype("float32"), "lab": r.randint(0, 5, size=(3, 3)).astype("int64")}
    return {"x": r.randn(4, 6, 2, 2).astype("float32")}


def build(model):
    """Returns (feed names, fetch vars) built into the current default programs."""
    if V18:
        from paddle import fluid

        L = fluid.layers
        if model == "mlp":
            x = L.data("x", [8])
            h = L.fc(x, 16, act="relu")
            return ["x"], [L.softmax(L.fc(h, 4))]
        if model == "control":
            x = L.data("x", [4])
            y = L.fc(x, 3)
            pred = L.greater_than(L.reduce_mean(y), L.fill_constant([1], "float32", 0.0))
            out = L.cond(pred, lambda: L.scale(y, 2.0, bias=1.0), lambda: L.abs(y) - 3.0)
            i = L.fill_constant([1], "int64", 0)
            n = L.fill_constant([1], "int64", 3)
            c = L.less_than(i, n)
            arr = L.create_array("float32")
            loop = L.While(c)
            with loop.block():
                L.assign(L.scale(out, 0.5) + L.cast(i, "float32"), out)
                L.array_write(out, i, array=arr)
                L.increment(i, in_place=True)
                L.less_than(i, n, cond=c)
            return ["x"], [out, i, L.array_read(arr, L.fill_constant([1], "int64", 1))]
        if model == "cnn":
            img = L.data("img", [1, 6, 6])
            c = L.conv2d(img, num_filters=4, filter_size=3, padding=1)
            b = L.batch_norm(c, act="relu")
            p = L.pool2d(b, pool_size=2, pool_type="max", pool_stride=2)
            d = L.dropout(p, dropout_prob=0.3)
            probs = L.softmax(L.fc(d, 3))
            return ["img"], [probs, L.argmax(probs, axis=1)]
        if model == "emb":
            ids = fluid.data("ids", [None, 5, 1], "int64")
            dense = fluid.data("dense", [None, 3], "float32")
            e = L.embedding(ids, size=[20, 6])  # lookup_table: [N, 5, 6]
            t = L.transpose(e, [0, 2, 1])
            r = L.reshape(t, [0, 30])
            cat = L.concat([r, dense], axis=1)
            f = L.fc(cat, 5)
            s = L.scale(f, scale=2.0, bias=0.5, bias_after_scale=False)
            ln = L.layer_norm(s, begin_norm_axis=1)
            w = L.create_parameter([7, 5], "float32", name="proj_w")
            m = L.matmul(ln, w, transpose_y=True, alpha=0.5)
            vals, idx = L.topk(m, k=2)
            return ["ids", "dense"], [vals, idx, L.tanh(f)]
        if model == "legacy":
            x = fluid.data("x", [None, 2, 4, 4], "float32")
            n = L.resize_nearest(x, out_shape=[7, 7])  # nearest_interp (v1), align_corners=True
            b = L.resize_bilinear(x, scale=1.5)  # bilinear_interp (v1), align_corners=True: [N, 2, 6, 6]
            bf = L.resize_bilinear(x, out_shape=[5, 5], align_corners=False, align_mode=0)
            p = L.pad2d(b, paddings=[0, 1, 1, 0], mode="reflect")  # [N, 2, 7, 7]
            c = L.concat([n, p], axis=1)  # [N, 4, 7, 7]
            act = L.relu6(c, threshold=1.5) + L.hard_swish(c) + L.swish(c) + L.hard_sigmoid(c)
            cl = L.clip(L.prelu(act, mode="channel"), -0.5, 2.0)
            s1, s2 = L.split(cl, num_or_sections=2, dim=1)
            # NOTE: reduce on the 4-D halves, not on the 5-D stack: 1.8.5's reduce_mean / reduce_sum over dims
            # [3, 4] (or [4], [2, 3]) of a 5-D tensor return wrong values (checked against numpy)
            m = L.stack([L.reduce_mean(s1, dim=[2, 3]), L.reduce_mean(s2, dim=[2, 3])], axis=1)  # [N, 2, 2]
            g = L.gather(L.transpose(m, [1, 0, 2]), L.assign(np.array([1, 0, 1], "int32")))  # [3, N, 2]
            e = L.expand(L.reduce_mean(bf, dim=[2, 3], keep_dim=True), expand_times=[1, 1, 2, 3])
            f = L.fill_constant_batch_size_like(x, shape=[-1, 3], dtype="float32", value=0.5)
            pd = L.pad(f, paddings=[0, 0, 1, 2], pad_value=1.5)  # [N, 6]
            return ["x"], [L.reduce_mean(cl, dim=[2, 3]), g, e, pd, L.shape(x)]
        if model == "misc":
            x = fluid.data("x", [None, 2, 6, 6], "float32")
            ids = fluid.data("ids", [None, 4, 1], "int64")
            c = L.conv2d(x, num_filters=4, filter_size=3, groups=2, padding="SAME", use_cudnn=False, act="sigmoid")
            s = L.squeeze(L.pool2d(c, pool_type="avg", global_pooling=True), axes=[2, 3])  # [N, 4]
            # NOTE: exclusive=True here: with exclusive=False and ceil_mode=True, 1.8's kernel divides the
            # overhanging last window by the full ksize (2.x clips it to the padded input; we follow 2.x)
            a = L.pool2d(c, pool_size=3, pool_type="avg", pool_stride=2, pool_padding=1, ceil_mode=True,
                         exclusive=True)
            f = L.flatten(a, axis=1)
            em = L.reduce_sum(L.embedding(ids, size=[10, 4], padding_idx=0), dim=1)  # [N, 4]
            h = L.elementwise_sub(s, em)
            h = L.elementwise_mul(h, L.fill_constant([4], "float32", 0.5), axis=1)
            h = L.elementwise_max(h, L.leaky_relu(em, alpha=0.1))
            h = L.elementwise_min(h, L.sigmoid(em))
            h = L.elementwise_div(h, L.exp(L.abs(em)))
            h = L.elementwise_pow(L.abs(h), L.fill_constant([1], "float32", 2.0))
            k = L.sums([h, L.sqrt(L.abs(em))])
            sl = L.slice(f, axes=[1], starts=[2], ends=[10])
            w = L.reduce_max(sl, dim=1, keep_dim=True)
            amin = L.cast(L.unsqueeze(L.argmin(sl, axis=1), axes=[1]), "float32")
            out = L.concat([k, w, amin, L.reduce_mean(f, dim=[1], keep_dim=True)], axis=1)
            return ["x", "ids"], [out, L.mean(f), L.reduce_sum(sl)]
        x = fluid.data("x", [None, 6, 2, 2], "float32")
        return ["x"], [L.fc(L.temporal_shift(x, seg_num=2, shift_ratio=0.25), 2)]
    import paddle.nn.functional as F

    S = paddle.static
    if model == "mlp":
        x = S.data("x", [None, 8], "float32")
        h = S.nn.fc(x, 16, activation="relu")
        return ["x"], [F.softmax(S.nn.fc(h, 4))]
    if model == "cnn":
        img = S.data("img", [None, 1, 6, 6], "float32")
        c = S.nn.conv2d(img, num_filters=4, filter_size=3, padding=1)
        b = F.relu(S.nn.batch_norm(c))
        p = F.max_pool2d(b, kernel_size=2, stride=2)
        d = F.dropout(p, p=0.3)
        probs = F.softmax(S.nn.fc(paddle.flatten(d, 1), 3))
        return ["img"], [probs, paddle.argmax(probs, axis=1)]
    if model == "emb":
        ids = S.data("ids", [None, 5], "int64")
        dense = S.data("dense", [None, 3], "float32")
        table = S.create_parameter([20, 6], "float32", name="emb_w")
        e = F.embedding(ids, table)  # lookup_table_v2
        t = paddle.transpose(e, [0, 2, 1])
        r = paddle.reshape(t, [0, 30])
        cat = paddle.concat([r, dense], axis=1)
        f = S.nn.fc(cat, 5)
        s = paddle.scale(f, scale=2.0, bias=0.5, bias_after_scale=False)
        ln = F.layer_norm(s, [5])
        w = S.create_parameter([7, 5], "float32", name="proj_w")
        m = paddle.matmul(ln, w, transpose_y=True)
        vals, idx = paddle.topk(m, k=2)
        return ["ids", "dense"], [vals, idx, paddle.tanh(f)]
    if model == "misc":
        x = S.data("x", [None, 2, 6, 6], "float32")
        ids = S.data("ids", [None, 4], "int64")
        c = F.sigmoid(F.conv2d(x, S.create_parameter([4, 1, 3, 3], "float32", name="dw_w"), groups=2,
                               padding="SAME"))
        a = F.avg_pool2d(c, 3, stride=2, padding=1, ceil_mode=True, exclusive=False)
        ad = F.adaptive_avg_pool2d(a, 2)
        f = paddle.flatten(ad, 1)  # [N, 16]
        em = paddle.sum(F.embedding(ids, S.create_parameter([10, 4], "float32", name="table"), padding_idx=0),
                        axis=1)
        h = paddle.subtract(F.gelu(em), F.leaky_relu(em, 0.1))
        h = paddle.maximum(h, paddle.full([4], 0.25, "float32"))
        h = paddle.minimum(h, F.sigmoid(em))
        h = paddle.divide(h, paddle.exp(paddle.abs(em)))
        h = paddle.pow(paddle.abs(h), paddle.full([1], 2.0, "float32"))
        h = paddle.squeeze(paddle.unsqueeze(h, [1]), [1])
        k = paddle.add_n([h, paddle.sqrt(paddle.abs(em))])
        amin = paddle.cast(paddle.argmin(f[:, 2:10], axis=1), "float32")
        col = f[:, 3]  # slice with decrease_axis
        out = paddle.concat([k, paddle.max(f, axis=1, keepdim=True), paddle.unsqueeze(amin, [1]),
                             paddle.unsqueeze(col, [1]), paddle.mean(f, axis=1, keepdim=True)], axis=1)
        mm = paddle.matmul(k, f[:, :4], transpose_x=True)  # [4, 4]
        vals, idx = paddle.topk(mm, 2, axis=0, largest=False)
        return ["x", "ids"], [out, F.log_softmax(mm, axis=1), vals, idx]
    if model == "vision":
        x = S.data("x", [None, 2, 4, 4], "float32")
        lab = S.data("lab", [None, 3], "int64")
        d = F.conv2d_transpose(x, S.create_parameter([2, 3, 3, 3], "float32", name="deconv_w"), stride=2,
                               padding=1, output_padding=1)  # [N, 3, 8, 8]
        d = F.relu6(d * 3.0)
        up = F.interpolate(x, scale_factor=2, mode="nearest")  # [N, 2, 8, 8]
        bl = F.interpolate(x, size=[6, 6], mode="bilinear", align_corners=False)
        pd = F.pad(bl, [1, 1, 1, 1], mode="reflect")  # [N, 2, 8, 8]
        cat = paddle.concat([d, up, pd], axis=1)  # [N, 7, 8, 8]
        act = F.hardswish(cat) + F.hardsigmoid(cat) + F.swish(cat)
        cl = paddle.clip(F.prelu(act, S.create_parameter([7], "float32", name="prelu_w")), -0.5, 2.0)
        s1, s2 = paddle.split(cl, [3, 4], axis=1)
        st = paddle.stack([s1[:, 0], s2[:, 0]], axis=1)  # [N, 2, 8, 8]
        g = paddle.gather(st, paddle.assign(np.array([1, 0, 1], "int32")), axis=1)  # [N, 3, 8, 8]
        e = paddle.tile(paddle.expand(paddle.mean(g, axis=[2, 3], keepdim=True), [-1, 3, 2, 2]), [1, 1, 2, 2])
        v = F.softplus(e, beta=2.0) + F.elu(e, alpha=0.5) + paddle.pow(e, 2.0)
        lf = paddle.cast(lab, "float32")
        wh = paddle.where(paddle.equal(lab, paddle.zeros_like(lab)), lf - 1.0, lf)  # same shapes: no broadcast ops
        bc = F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True)  # [N, 2, 6, 6]
        li = F.interpolate(paddle.mean(x, axis=2), size=[7], mode="linear", data_format="NCW")  # [N, 2, 7]
        tri = F.interpolate(paddle.unsqueeze(x, [2]), size=[2, 3, 3], mode="trilinear", align_mode=1,
                            data_format="NCDHW")
        resized = paddle.concat([paddle.mean(bc, axis=[2, 3]), paddle.mean(li, axis=2),
                                 paddle.mean(tri, axis=[2, 3, 4])], axis=1)  # [N, 6]
        return ["x", "lab"], [v, wh, paddle.shape(x), paddle.mean(cl, axis=[2, 3]), resized]
    x = S.data("x", [None, 6, 2, 2], "float32")
    return ["x"], [S.nn.fc(F.temporal_shift(x, seg_num=2, shift_ratio=0.25), 2)]


def record(model, arrays, meta):
    fluid = paddle.fluid if V18 else paddle.static  # Program, Scope, scope_guard, Executor, ...
    main, startup = fluid.Program(), fluid.Program()
    scope = fluid.Scope()
    place = paddle.CPUPlace() if not V18 else fluid.CPUPlace()
    exe = fluid.Executor(place)
    with fluid.scope_guard(scope):
        names = fluid.unique_name if V18 else paddle.utils.unique_name
        with fluid.program_guard(main, startup), names.guard():
            feed_names, fetch_vars = build(model)
        if V18:  # size: drop the call stack 1.8 stores on each op (save_inference_model's own ops keep theirs)
            for op in main.global_block().ops:
                op.desc.remove_attr("op_callstack")
        exe.run(startup)
        for v in sorted(main.global_block().vars.values(), key=lambda v: v.name):
            if v.persistable and scope.find_var(v.name) is not None and v.name not in ("feed", "fetch"):
                t = scope.find_var(v.name).get_tensor()
                shape = np.array(t).shape
                if v.name.endswith(".w_2") or "variance" in v.name:  # batch_norm running variance: positive
                    val = RNG.uniform(0.5, 1.5, shape)
                else:
                    val = RNG.uniform(-0.8, 0.8, shape)
                t.set(val.astype(np.array(t).dtype), place)
        dirs = {}
        if V18:
            kinds = (("fluid18", None), ("fluid18_combined", "__params__")) if model == "mlp" else \
                (("fluid18", None),)
            for kind, pf in kinds:
                d = os.path.join(OUT, kind, model)
                shutil.rmtree(d, ignore_errors=True)
                fluid.io.save_inference_model(d, feed_names, fetch_vars, exe, main_program=main,
                                              params_filename=pf)
                dirs[kind] = d
        else:
            d = os.path.join(OUT, "static26")
            os.makedirs(d, exist_ok=True)
            for suffix in (".pdmodel", ".pdiparams"):
                if os.path.exists(os.path.join(d, model + suffix)):
                    os.remove(os.path.join(d, model + suffix))
            paddle.static.save_inference_model(os.path.join(d, model), [main.global_block().var(n)
                                                                         for n in feed_names], fetch_vars, exe,
                                               program=main)
            dirs["static26"] = d
    feed = inputs(model)
    for k, v in feed.items():
        arrays[f"{model}__in__{k}"] = v
    # reload each saved form in a fresh scope and run it: the goldens are what the SAVED model computes
    results = []
    for kind, d in sorted(dirs.items()):
        scope2 = fluid.Scope()
        with fluid.scope_guard(scope2):
            if V18:
                prog, feeds, fetches = fluid.io.load_inference_model(
                    d, exe, params_filename="__params__" if kind.endswith("combined") else None)
            else:
                prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(d, model), exe)
            outs = exe.run(prog, feed=feed, fetch_list=fetches)
        results.append([np.array(o) for o in outs])
        meta.setdefault(model, {})[kind] = {
            "feed_names": list(feeds),
            "fetch_names": [v.name for v in fetches],
            "op_types": [op.type for b in prog.blocks for op in b.ops],
            "files": sorted(os.listdir(d)) if V18 else [model + ".pdmodel", model + ".pdiparams"],
            "persistables": sorted(v.name for v in prog.global_block().vars.values()
                                   if v.persistable and v.name not in ("feed", "fetch")),
        }
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)
    for i, o in enumerate(results[0]):
        arrays[f"{model}__out__{i}"] = o
    meta[model]["feed_names_built"] = feed_names


def record_jit(arrays, meta):
    """2.6 only: a dygraph Layer exported by paddle.jit.save (the other common source of .pdmodel files)."""
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(1, 2, 3)
            self.fc = paddle.nn.Linear(8, 3)

        def forward(self, x):
            # full names: dy2static re-reads this source, where record_jit's locals are not visible
            return paddle.nn.functional.softmax(self.fc(paddle.flatten(paddle.nn.functional.relu(self.conv(x)), 1)))

    with paddle.utils.unique_name.guard():
        net = Net()
    for p in net.parameters():
        p.set_value(RNG.uniform(-0.8, 0.8, p.shape).astype("float32"))
    net.eval()
    d = os.path.join(OUT, "static26")
    os.makedirs(d, exist_ok=True)
    paddle.jit.save(net, os.path.join(d, "jit"), input_spec=[paddle.static.InputSpec([None, 1, 4, 4], "float32", "x")])
    x = np.random.RandomState(6).randn(3, 1, 4, 4).astype("float32")
    dygraph_out = net(paddle.to_tensor(x)).numpy()
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(d, "jit"), exe)
        out, = exe.run(prog, feed={"x": x}, fetch_list=fetches)
    assert np.allclose(out, dygraph_out, atol=1e-6)
    arrays["jit__in__x"], arrays["jit__out__0"] = x, np.array(out)
    meta["jit"] = {"static26": {
        "feed_names": list(feeds), "fetch_names": [v.name for v in fetches],
        "op_types": [op.type for op in prog.global_block().ops],
        "files": sorted(f for f in os.listdir(d) if f.startswith("jit.")),
        "persistables": sorted(v.name for v in prog.global_block().vars.values()
                               if v.persistable and v.name not in ("feed", "fetch"))},
        "feed_names_built": ["x"]}


def main():
    arrays, meta = {}, {}
    for kind in (("fluid18", "fluid18_combined") if V18 else ("static26",)):
        shutil.rmtree(os.path.join(OUT, kind), ignore_errors=True)
    if not V18:
        record_jit(arrays, meta)  # dygraph first; it switches to static mode
    for model in ("mlp", "cnn", "emb", "misc") + (("legacy",) if V18 else ("vision",)) + ("unsupported",) + (
            ("control",) if V18 else ()):
        record(model, arrays, meta)
    meta["paddle_version"] = paddle.__version__
    meta["program"] = __doc__.split("Models")[1].strip()
    save("pdmodel/" + ("fluid18" if V18 else "static26"), arrays, meta)


if __name__ == "__main__":
    main()
