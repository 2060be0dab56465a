"""fluid.layers.multi_box_head (one and three feature maps), fluid.embedding / fluid.layers.embedding (names, shapes,
padding_idx), error clipping (ErrorClipByValue with append_backward callbacks and with minimize),
set_gradient_clip (all parameters / a subset), the Bilinear initializer and the transpiler's RoundRobin.
Parameters are set from fixed arrays. Shared by tools/oracle/rec_run18.py (golden fluid18_more_layers) and
tests/fluid/test_more_layers18.py; numpy only."""

import numpy as np

rs = np.random.RandomState(1838)
IMG = rs.rand(2, 3, 16, 16).astype("float32")
F1 = rs.randn(2, 4, 4, 4).astype("float32")
F2 = rs.randn(2, 4, 2, 2).astype("float32")
F3 = rs.randn(2, 4, 1, 1).astype("float32")
IDS = rs.randint(0, 6, (3, 2, 1)).astype("int64")
X = rs.randn(4, 3).astype("float32")
W1 = rs.randn(3, 5).astype("float32")
W2 = rs.randn(5, 2).astype("float32") * 3


def _set_params(fluid, main, scope):
    names = []
    for p in sorted(main.global_block().all_parameters(), key=lambda p: p.name):
        scope.find_var(p.name).get_tensor().set((rs.randn(*p.shape) * 0.3).astype(p.dtype.name if hasattr(
            p.dtype, "name") else "float32"), fluid.CPUPlace())
        names.append(p.name)
    return names


def _multi_box_head(fluid):
    res, meta = {}, {}
    for name, feats, kw in (
            ("one", ["f1"], dict(min_sizes=[4.0], max_sizes=[8.0], aspect_ratios=[[2.0]], base_size=16,
                                  num_classes=3)),
            ("three", ["f1", "f2", "f3"], dict(min_ratio=20, max_ratio=90, aspect_ratios=[[2.0], [2.0, 3.0], [2.0]],
                                               base_size=16, num_classes=4, steps=[4.0, 8.0, 16.0], clip=True,
                                               offset=0.5, flip=True)),
            ("two_steps_hw", ["f1", "f2"], dict(min_sizes=[4.0, 8.0], max_sizes=[8.0, 12.0],
                                                aspect_ratios=[[2.0], [2.0]], base_size=16, num_classes=2,
                                                step_w=[4.0, 8.0], step_h=[5.0, 9.0], kernel_size=3, pad=1))):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            img = fluid.data("img", [2, 3, 16, 16], "float32")
            fs = [fluid.data(n, [2, 4] + list({"f1": F1, "f2": F2, "f3": F3}[n].shape[2:]), "float32")
                  for n in feats]
            outs = list(fluid.layers.multi_box_head(fs, img, **kw))
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            meta[f"mbh_{name}"] = _set_params(fluid, main, scope)
            feed = {"img": IMG, "f1": F1, "f2": F2, "f3": F3}
            got = exe.run(main, feed={k: feed[k] for k in ["img"] + feats}, fetch_list=outs)
        for j, o in enumerate(got):
            res[f"mbh_{name}|out{j}"] = np.array(o)
    return res, meta


def _embedding(fluid):
    res, meta = {}, {}
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        ids = fluid.data("ids", [3, 2, 1], "int64")
        outs = [fluid.layers.embedding(ids, [6, 4]), fluid.embedding(ids, [6, 4], padding_idx=-2),
                fluid.layers.embedding(ids, [6, 4], padding_idx=3)]
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        meta["embedding"] = _set_params(fluid, main, scope) + [o.name for o in outs]
        for j, o in enumerate(exe.run(main, feed={"ids": IDS}, fetch_list=outs)):
            res[f"embedding|out{j}"] = np.array(o)
    return res, meta


def _clipping(fluid):
    res = {}
    for mode in ("error_clip_callback", "error_clip_minimize", "set_gradient_clip", "set_gradient_clip_subset",
                 "set_gradient_clip_value"):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            x = fluid.data("x", [-1, 3], "float32")
            init = fluid.initializer.NumpyArrayInitializer
            h = fluid.layers.fc(x, 5, param_attr=fluid.ParamAttr(initializer=init(W1)))
            y = fluid.layers.fc(h, 2, param_attr=fluid.ParamAttr(initializer=init(W2)))
            loss = fluid.layers.reduce_sum(fluid.layers.square(y))
            if mode.startswith("error_clip"):
                main.global_block().var(h.name)._set_error_clip(fluid.clip.ErrorClipByValue(max=0.5, min=-0.2))
            if mode == "error_clip_callback":
                fluid.backward.append_backward(loss, callbacks=[fluid.clip.error_clip_callback])
            else:
                if mode.startswith("set_gradient_clip"):
                    clip = fluid.clip.GradientClipByValue(0.3) if mode.endswith("value") else \
                        fluid.clip.GradientClipByGlobalNorm(1.0)
                    fluid.clip.set_gradient_clip(clip, param_list=["fc_1.w_0"] if mode.endswith("subset") else None)
                fluid.optimizer.SGD(0.1).minimize(loss)
        exe = fluid.Executor(fluid.CPUPlace())
        with fluid.scope_guard(fluid.Scope()):
            exe.run(startup)
            for i in range(2):
                got = exe.run(main, feed={"x": X}, fetch_list=["fc_0.w_0@GRAD", "fc_1.w_0@GRAD", "fc_0.w_0",
                                                               "fc_1.w_0"])
                for j, o in enumerate(got):
                    res[f"{mode}|run{i}|out{j}"] = np.array(o)
    return res


def _bilinear_and_dispatch(fluid):
    res = {}
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.data("x", [1, 2, 3, 3], "float32")
        outs = []
        for k in (4, 3):
            outs.append(fluid.layers.conv2d_transpose(
                x, 2, filter_size=k, stride=2, bias_attr=False,
                param_attr=fluid.ParamAttr(initializer=fluid.initializer.Bilinear())))
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        got = exe.run(main, feed={"x": np.arange(18, dtype="float32").reshape(1, 2, 3, 3)},
                      fetch_list=outs + ["conv2d_transpose_0.w_0", "conv2d_transpose_1.w_0"])
        for j, o in enumerate(got):
            res[f"bilinear|out{j}"] = np.array(o)

    class V:
        def __init__(self, n):
            self._n = n

        def name(self):
            return self._n

    rr = fluid.transpiler.RoundRobin(["a:1", "b:2", "c:3"])
    first = rr.dispatch([V("x"), V("y")])
    second = rr.dispatch([V("z"), V("w")])
    rr.reset()
    third = rr.dispatch([V("v")])
    res["round_robin"] = np.array([["a:1", "b:2", "c:3"].index(e) for e in first + second + third])
    return res


def run(fluid):
    res, meta = _multi_box_head(fluid)
    r2, m2 = _embedding(fluid)
    res.update(r2)
    meta.update(m2)
    res.update(_clipping(fluid))
    res.update(_bilinear_and_dispatch(fluid))
    return res, {"names": meta}
