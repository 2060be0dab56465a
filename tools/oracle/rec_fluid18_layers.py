"""Record fluid.layers outputs (sequence / LoD ops, dynamic_lstm / dynamic_gru and the 1.x adapters) with real
Paddle 1.8.5 -> tests/goldens/fluid18_layers.{npz,json}. The cases live in tests/fluid/cases18.py.
Run: cd /tmp && PYTHONPATH= /work/oracle/p18/bin/python <repo>/tools/oracle/rec_fluid18_layers.py [module golden]
(another case module under tests/fluid, e.g. `cases18_decode fluid18_decode`, records its own golden)"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
from _common import save  # noqa: E402

import paddle  # noqa: E402
import paddle.fluid as fluid  # noqa: E402


def run_case(name, c):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            v = {n: fluid.layers.data(n, shape, dtype=dt, lod_level=ll, append_batch_size=False)
                 for n, shape, dt, ll in c["data"]}

            def pa(p):
                return fluid.ParamAttr(name=p, initializer=fluid.initializer.NumpyArrayInitializer(c["params"][p]))

            outs = c["build"](fluid.layers, fluid, v, pa)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        feed = {}
        for n, (arr, lens) in c["feed"].items():
            feed[n] = fluid.create_lod_tensor(arr, [lens], fluid.CPUPlace()) if lens is not None else arr
        res = exe.run(main, feed=feed, fetch_list=outs, return_numpy=False)
    arrays, lods = {}, {}
    for i, r in enumerate(res):
        arrays[f"{name}|out{i}"] = np.array(r)
        lods[f"{name}|out{i}"] = r.lod()
    return arrays, lods


def record(module_name, golden):
    """Run every case of tests/fluid/<module_name>.py on real Paddle and save tests/goldens/<golden>.*"""
    import importlib

    cases = importlib.import_module(module_name)
    arrays, meta = {}, {"paddle_version": paddle.__version__, "program": "tests/fluid/%s.py" % module_name,
                        "lods": {}, "errors": {}}
    for name, c in sorted(cases.CASES.items()):
        try:
            a, l = run_case(name, c)
            arrays.update(a)
            meta["lods"].update(l)
        except Exception as e:  # noqa: BLE001
            meta["errors"][name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            print("ERROR", name, meta["errors"][name])
    save(golden, arrays, meta)


if __name__ == "__main__":
    # default: the original table; or `rec_fluid18_layers.py cases18_xyz fluid18_xyz` for another case module
    record(*(sys.argv[1:3] if len(sys.argv) > 2 else ("cases18", "fluid18_layers")))
