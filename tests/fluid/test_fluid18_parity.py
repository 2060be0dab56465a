"""fluid.layers (sequence / LoD ops, dynamic_lstm / dynamic_gru, 1.x adapters, ...) against real Paddle 1.8.5.

Each case module under tests/fluid (cases18.py, cases18_*.py) has a golden recorded from it by
tools/oracle/rec_fluid18_layers.py (`rec_fluid18_layers.py <module> <golden>`); GOLDEN_OF pairs them.
Output LoD is compared too."""

from __future__ import annotations

import importlib
import json
import os

import numpy as np
import pytest

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")
# case module (tests/fluid/<module>.py) -> golden (tests/goldens/<golden>.{npz,json})
GOLDEN_OF = {
    "cases18_decode": "fluid18_decode",
    "cases18_misc": "fluid18_misc",
    "cases18": "fluid18_layers",
    "cases18_detinfer": "fluid18_detinfer",
    "cases18_dettrain": "fluid18_dettrain",
    "cases18_padded": "fluid18_padded",
    "cases18_det_lod": "fluid18_det_lod",
    "cases18_layers_more": "fluid18_layers_more",
    "cases18_alias": "fluid18_alias",
    "cases18_chunk": "fluid18_chunk",
}
XFAIL: dict[str, str] = {}  # "module:case" -> reason


def _load(module):
    golden = os.path.join(GOLDENS, GOLDEN_OF[module])
    with open(golden + ".json", encoding="utf-8") as f:
        meta = json.load(f)
    return importlib.import_module(f"tests.fluid.{module}").CASES, meta, dict(np.load(golden + ".npz"))


TABLES = {m: _load(m) for m in GOLDEN_OF}


def _run(c):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        v = {n: fluid.layers.data(n, shape, dtype=dt, lod_level=ll, append_batch_size=False)
             for n, shape, dt, ll in c["data"]}

        def pa(p):
            return fluid.ParamAttr(name=p, initializer=fluid.initializer.NumpyArrayInitializer(c["params"][p]))

        outs = c["build"](fluid.layers, fluid, v, pa)
        lod_vars = [o.node.meta.get("lod_var") for o in outs]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = {n: fluid.create_lod_tensor(a, [lens], fluid.CPUPlace()) if lens is not None else a
            for n, (a, lens) in c["feed"].items()}
    fetch = list(outs) + [lv for lv in lod_vars if lv is not None]
    res = exe.run(main, feed=feed, fetch_list=fetch)
    got_lods = iter(res[len(outs):])
    return res[:len(outs)], [next(got_lods).tolist() if lv is not None else None for lv in lod_vars]


@pytest.mark.parametrize("module,name", [(m, n) for m, (cases, meta, _) in TABLES.items()
                                         for n in sorted(cases) if n not in meta["errors"]])
def test_matches_paddle18(module, name):
    if f"{module}:{name}" in XFAIL:
        pytest.xfail(XFAIL[f"{module}:{name}"])
    cases, meta, arrays = TABLES[module]
    outs, lods = _run(cases[name])
    keys = sorted((k for k in arrays if k.startswith(name + "|")), key=lambda k: int(k.rpartition("out")[2]))
    assert len(outs) == len(keys)
    for k, got, lod in zip(keys, outs, lods):
        want = arrays[k]
        got = np.asarray(got)
        assert got.shape == want.shape, (k, got.shape, want.shape)
        if want.dtype == np.bool_:
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                       rtol=1e-5, atol=cases[name]["atol"], err_msg=k)
        if np.issubdtype(want.dtype, np.integer):
            assert got.dtype == want.dtype, (k, got.dtype, want.dtype)
        want_lod = meta["lods"][k]
        if want_lod and lod is not None:
            assert lod == want_lod[-1], (k, lod, want_lod)
