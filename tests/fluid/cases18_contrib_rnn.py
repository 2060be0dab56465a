"""fluid.contrib basic_lstm / basic_gru (one layer; two bidirectional layers with initial states and sequence
lengths; named ParamAttrs) in static programs, trained two SGD steps, and BasicLSTMUnit / BasicGRUUnit in dygraph:
outputs, last states, parameter names and values. Parameters are set in the scope by sorted name. Shared by
tools/oracle/rec_run18.py (golden fluid18_contrib_rnn) and tests/fluid/test_contrib_rnn18.py; numpy only."""

import numpy as np

rs = np.random.RandomState(1878)
X = rs.randn(3, 4, 5).astype("float32")  # batch 3, time 4, input 5
H0 = rs.randn(4, 3, 6).astype("float32") * 0.5  # layers 2 x dirs 2, batch 3, hidden 6
C0 = rs.randn(4, 3, 6).astype("float32") * 0.5
LENS = np.array([4, 2, 3], "int64")


def _static(fluid):
    res, names = {}, {}
    C = fluid.contrib
    cases = {
        "lstm_1": lambda F, x, h, c, n: C.basic_lstm(x, None, None, 6),
        "lstm_2_bi": lambda F, x, h, c, n: C.basic_lstm(x, h, c, 6, num_layers=2, sequence_length=n,
                                                        bidirectional=True, forget_bias=0.5),
        "lstm_named_time_major": lambda F, x, h, c, n: C.basic_lstm(
            F.layers.transpose(x, [1, 0, 2]), None, None, 6, batch_first=False, bidirectional=True,
            param_attr=F.ParamAttr(name="lw"), bias_attr=F.ParamAttr(name="lb")),
        "gru_1": lambda F, x, h, c, n: C.basic_gru(x, None, 6),
        "gru_2_bi": lambda F, x, h, c, n: C.basic_gru(x, h, 6, num_layers=2, sequence_length=n,
                                                      bidirectional=True),
        "gru_named": lambda F, x, h, c, n: C.basic_gru(x, None, 6, param_attr=F.ParamAttr(name="gw"),
                                                       bias_attr=F.ParamAttr(name="gb")),
    }
    for name, build in cases.items():
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            x = fluid.data("x", [3, 4, 5], "float32")
            h = fluid.data("h", [4, 3, 6], "float32")
            c = fluid.data("c", [4, 3, 6], "float32")
            n = fluid.data("n", [3], "int64")
            outs = list(build(fluid, x, h, c, n))
            loss = fluid.layers.reduce_mean(fluid.layers.square(outs[0]))
            fluid.optimizer.SGD(0.5).minimize(loss)
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            params = sorted(p.name for p in main.global_block().all_parameters())
            names[name] = params
            for p in params:
                shape = scope.find_var(p).get_tensor().shape()
                scope.find_var(p).get_tensor().set((rs.randn(*shape) * 0.4).astype("float32"), fluid.CPUPlace())
            for i in range(2):
                got = exe.run(main, feed={"x": X, "h": H0, "c": C0, "n": LENS}, fetch_list=outs + [loss])
                for j, o in enumerate(got):
                    res[f"{name}|run{i}|out{j}"] = np.array(o)
            res[f"{name}|param0_after"] = np.array(scope.find_var(params[0]).get_tensor())
    return res, names


def _dygraph(fluid):
    res, names = {}, {}
    C = fluid.contrib
    with fluid.dygraph.guard():
        for name, unit, n_states in (("lstm_unit", C.BasicLSTMUnit("unit", 6, forget_bias=2.0), 2),
                                     ("gru_unit", C.BasicGRUUnit("unit", 6), 1)):
            x = fluid.dygraph.to_variable(X[:, 0])
            states = [fluid.dygraph.to_variable(s) for s in (H0[0], C0[0])[:n_states]]
            unit(x, *states)  # builds the parameters
            for p in sorted(unit.parameters(), key=lambda p: p.name):
                p.set_value((rs.randn(*p.shape) * 0.4).astype("float32"))
            names[name] = sorted(p.name for p in unit.parameters())
            out = unit(x, *states)
            for j, o in enumerate(out if isinstance(out, (list, tuple)) else [out]):
                res[f"{name}|out{j}"] = o.numpy()
    return res, names


def run(fluid):
    res, names = _static(fluid)
    r2, n2 = _dygraph(fluid)
    res.update(r2)
    names.update(n2)
    return res, {"param_names": names}
