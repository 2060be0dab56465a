"""fluid.dygraph MSELoss / L1Loss / BCELoss / NLLLoss (each reduction), NCE, TreeConv and SpectralNorm in dygraph,
and fluid.contrib.layers.tree_conv in a static program (output and gradients; trees that fill every row, as
Paddle leaves stale values in rows past a tree's node count). Shared by tools/oracle/rec_run18.py (golden
fluid18_dygraph_more) and tests/fluid/test_dygraph_more18.py; numpy only."""

import numpy as np

rs = np.random.RandomState(1888)
A = rs.rand(4, 3).astype("float32") * 0.8 + 0.1
B = rs.rand(4, 3).astype("float32") * 0.8 + 0.1
W3 = rs.rand(3).astype("float32")
LOGP = np.log(rs.dirichlet(np.ones(5), 6)).astype("float32")
NLL_LBL = rs.randint(0, 5, (6,)).astype("int64")
NLL_LBL[2] = 3
LOGP4 = np.log(rs.dirichlet(np.ones(3), (2, 2, 2)).transpose(0, 3, 1, 2)).astype("float32")
LBL4 = rs.randint(0, 3, (2, 2, 2)).astype("int64")
X_NCE = rs.randn(5, 4).astype("float32")
L_NCE = rs.randint(0, 8, (5, 1)).astype("int64")
W_NCE = rs.randn(8, 4).astype("float32")
NODES = rs.randn(2, 5, 3).astype("float32")
EDGES = np.array([[[1, 2], [1, 3], [3, 4], [3, 5], [0, 0]], [[1, 2], [2, 3], [2, 4], [4, 5], [0, 0]]], "int32")
FILT = rs.randn(3, 3, 4, 2).astype("float32") * 0.5
SN_W = rs.randn(4, 3, 2).astype("float32")


def _grads(fluid, loss, xs):
    loss.backward()
    return [x.gradient() for x in xs]


def _dygraph(fluid):
    res = {}
    D = fluid.dygraph
    with D.guard():
        for red in ("mean", "sum", "none"):
            for name, make, args in (("mse", D.MSELoss, (A, B)), ("l1", D.L1Loss, (A, B)),
                                     ("bce", D.BCELoss, (A, B)),
                                     ("bce_w", lambda reduction: D.BCELoss(D.to_variable(W3), reduction), (A, B)),
                                     ("nll", D.NLLLoss, (LOGP, NLL_LBL)),
                                     ("nll_w_ignore", lambda reduction: D.NLLLoss(D.to_variable(W3[:2].repeat(3)[:5]
                                                                                                * 2), reduction,
                                                                                  ignore_index=3), (LOGP, NLL_LBL)),
                                     ("nll_4d", D.NLLLoss, (LOGP4, LBL4))):
                x = D.to_variable(args[0])
                x.stop_gradient = False
                out = make(reduction=red)(x, D.to_variable(args[1]))
                res[f"{name}_{red}|out"] = out.numpy()
                (g,) = _grads(fluid, fluid.layers.reduce_sum(out), [x])
                res[f"{name}_{red}|grad"] = g
        for sampler, kw in (("uniform", {}), ("log_uniform", {"num_neg_samples": 3})):
            nce = D.NCE(8, 4, param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(W_NCE)),
                        sampler=sampler, seed=17, **kw)
            x = D.to_variable(X_NCE)
            x.stop_gradient = False
            out = nce(x, D.to_variable(L_NCE))
            res[f"dy_nce_{sampler}|out"] = out.numpy()
            gx, = _grads(fluid, fluid.layers.reduce_sum(out), [x])
            res[f"dy_nce_{sampler}|grad"] = gx
            res[f"dy_nce_{sampler}|wgrad"] = nce.weight.gradient()
        tc = D.TreeConv(3, 4, num_filters=2, max_depth=3,
                        param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(FILT)))
        x = D.to_variable(NODES)
        x.stop_gradient = False
        out = tc(x, D.to_variable(EDGES))
        res["dy_tree_conv|out"] = out.numpy()
        gx, = _grads(fluid, fluid.layers.reduce_sum(fluid.layers.square(out)), [x])
        res["dy_tree_conv|grad"] = gx
        res["dy_tree_conv|wgrad"] = tc.weight.gradient()
        sn = D.SpectralNorm([4, 3, 2], dim=1, power_iters=2)
        sn.weight_u.set_value(rs.randn(3).astype("float32"))
        sn.weight_v.set_value(rs.randn(8).astype("float32"))
        res["dy_spectral_norm|out"] = sn(D.to_variable(SN_W)).numpy()
    return res


def _static_tree_conv(fluid):
    res = {}
    for md, nf in ((2, 2), (3, 1)):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            nv = fluid.data("nv", [2, 5, 3], "float32")
            nv.stop_gradient = False
            es = fluid.data("es", [2, 5, 2], "int32")
            out = fluid.contrib.layers.tree_conv(nv, es, 4, num_filters=nf, max_depth=md, param_attr=fluid.ParamAttr(
                initializer=fluid.initializer.NumpyArrayInitializer(FILT[:, :, :, :nf].copy())))
            loss = fluid.layers.reduce_sum(fluid.layers.square(out))
            (g,) = fluid.backward.gradients([loss], [nv])
            fluid.optimizer.SGD(0.1).minimize(loss)
        exe = fluid.Executor(fluid.CPUPlace())
        with fluid.scope_guard(fluid.Scope()):
            exe.run(startup)
            for i in range(2):
                outs = exe.run(main, feed={"nv": NODES, "es": EDGES},
                               fetch_list=[out, g, "tree_conv_0.w_0@GRAD", "tree_conv_0.b_0"])
                for j, o in enumerate(outs):
                    res[f"st_tree_conv_d{md}_f{nf}|run{i}|out{j}"] = np.array(o)
    return res


def run(fluid):
    res = _dygraph(fluid)
    res.update(_static_tree_conv(fluid))
    return res
