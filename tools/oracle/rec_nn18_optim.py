"""fluid 1.x optimizers (Paddle 1.8.5, static): fc(4 -> 3) + mean(square_error_cost), 3 steps from fixed init,
for Adagrad / Adamax / RMSProp / Adadelta / Lamb / DecayedAdagrad in their 1.8 spellings.

Run with /work/oracle/p18 from /tmp with PYTHONPATH unset."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("CPU_NUM", "1")
import numpy as np  # noqa: E402
import paddle.fluid as fluid  # noqa: E402

from _common import save  # noqa: E402

OPTS = {
    "adagrad": "fluid.optimizer.AdagradOptimizer(0.1, initial_accumulator_value=0.1)",
    "adamax": "fluid.optimizer.AdamaxOptimizer(0.05)",
    "rmsprop": "fluid.optimizer.RMSPropOptimizer(0.05, momentum=0.5, centered=True)",
    "adadelta": "fluid.optimizer.AdadeltaOptimizer(0.5)",
    "lamb": "fluid.optimizer.LambOptimizer(0.05)",
    "decayed_adagrad": "fluid.optimizer.DecayedAdagradOptimizer(0.1, decay=0.9)",
    "adagrad_l2": "fluid.optimizer.Adagrad(0.1, regularization=fluid.regularizer.L2Decay(0.01))",
}


def main():
    rng = np.random.RandomState(3)
    w0 = rng.standard_normal((4, 3)).astype("float32")
    b0 = rng.standard_normal(3).astype("float32")
    xs = rng.standard_normal((3, 6, 4)).astype("float32")
    ys = rng.standard_normal((3, 6, 3)).astype("float32")
    arrays = {"w0": w0, "b0": b0, "xs": xs, "ys": ys}
    meta = {"optimizers": OPTS, "losses": {}, "persistables": {}, "op_types": {},
            "program": "x=data('x',[4]); y=data('y',[3]); pred=fc(x,3); loss=mean(square_error_cost(pred,y)); "
                       "opt.minimize(loss); 3 steps"}
    for tag, spell in OPTS.items():
        main_p, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main_p, startup), fluid.unique_name.guard():
            x = fluid.layers.data("x", [4])
            y = fluid.layers.data("y", [3])
            pred = fluid.layers.fc(x, 3)
            loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
            eval(spell).minimize(loss)
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            scope.find_var("fc_0.w_0").get_tensor().set(w0, fluid.CPUPlace())
            scope.find_var("fc_0.b_0").get_tensor().set(b0, fluid.CPUPlace())
            losses = []
            for i in range(3):
                (lv,) = exe.run(main_p, feed={"x": xs[i], "y": ys[i]}, fetch_list=[loss])
                losses.append(float(np.asarray(lv).reshape(-1)[0]))
            meta["losses"][tag] = losses
            meta["op_types"][tag] = [op.type for op in main_p.global_block().ops]
            names = sorted(v.name for v in main_p.list_vars() if v.persistable and "feed" not in v.name
                           and "fetch" not in v.name)
            meta["persistables"][tag] = names
            for n in names:
                arrays[f"{tag}__{n}"] = np.array(scope.find_var(n).get_tensor())
    save("nn18_optim", arrays, meta)


if __name__ == "__main__":
    main()
