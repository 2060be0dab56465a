"""Inference models written by REAL Paddle load and run here (tests/goldens/pdmodel, tools/oracle/rec_pdmodel.py).

fluid 1.8.5 `fluid.io.save_inference_model` (a directory: `__model__` + one file per persistable, or
params_filename='__params__') and 2.6.2 `paddle.static.save_inference_model` (`<prefix>.pdmodel` +
`<prefix>.pdiparams`) are loaded with both spellings of load_inference_model, and Executor.run on the
recorded input gives the output real Paddle computed from the same files.
"""

from __future__ import annotations

import os
import struct

import numpy as np
import pytest

from paddle_compat.engine.static import proto
from tests.conftest import GOLDENS, load_golden

PD = os.path.join(GOLDENS, "pdmodel")
MODELS = ("mlp", "cnn", "emb", "misc", "legacy", "vision", "jit", "control")
# (golden case, saved form): where the files are; fluid18_combined (params_filename='__params__') holds mlp
# only; legacy is 1.8 only, vision and jit 2.6 only
FORMS = (("fluid18", "fluid18"), ("fluid18", "fluid18_combined"), ("static26", "static26"))
CASES = [(case, form, model) for case, form in FORMS for model in MODELS
         if os.path.isdir(os.path.join(PD, form, model)) or os.path.exists(os.path.join(PD, form, model + ".pdmodel"))]


def _load(form: str, model: str, spelling: str, exe):
    import paddle
    from paddle import fluid

    if form == "static26":
        if spelling == "static":
            return paddle.static.load_inference_model(os.path.join(PD, form, model), exe)
        # the fluid spelling reads a directory with explicit file names
        return fluid.io.load_inference_model(os.path.join(PD, form), exe, model_filename=model + ".pdmodel",
                                             params_filename=model + ".pdiparams")
    d = os.path.join(PD, form, model)
    params = "__params__" if form.endswith("combined") else None
    if spelling == "static":
        return paddle.static.load_inference_model(d, exe, **({"params_filename": params} if params else {}))
    return fluid.io.load_inference_model(d, exe, params_filename=params)


@pytest.mark.parametrize("spelling", ["static", "fluid"])
@pytest.mark.parametrize("case,form,model", CASES, ids=[f"{f}-{m}" for _, f, m in CASES])
def test_real_paddle_model_matches_paddle_output(case, form, model, spelling):
    import paddle

    paddle.enable_static()
    meta, arrays = load_golden(f"pdmodel/{case}")
    info = meta[model][form]
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = _load(form, model, spelling, exe)
    assert feeds == info["feed_names"] == meta[model]["feed_names_built"]
    assert [v.name for v in fetches] == info["fetch_names"]
    feed = {n: arrays[f"{model}__in__{n}"] for n in feeds}
    outs = exe.run(prog, feed=feed, fetch_list=fetches)
    assert len(outs) == len(fetches)
    for i, got in enumerate(outs):
        want = arrays[f"{model}__out__{i}"]
        assert got.dtype == want.dtype and got.shape == want.shape, (i, got.dtype, got.shape, want.dtype, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # the persistables are the ones Paddle saved, and nothing was left unloaded
    block = prog.global_block()
    assert sorted(v.name for v in block.vars.values()
                  if v.persistable and v.name not in ("feed", "fetch")) == info["persistables"]


@pytest.mark.parametrize("case,form", FORMS, ids=[f for _, f in FORMS])
def test_loaded_variables_have_the_model_shapes_and_dtypes(case, form):
    """Every variable we produce carries the VarDesc's name, shape (-1 for the batch) and dtype."""
    import paddle

    from paddle_compat.engine.static import proto

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    for model in [m for c, f, m in CASES if f == form]:
        prog, _, fetches = _load(form, model, "static", exe)
        path = os.path.join(PD, form, model + ".pdmodel") if form == "static26" else \
            os.path.join(PD, form, model, "__model__")
        with open(path, "rb") as f:
            desc = proto.parse_program_desc(f.read())
        vds = {v["name"]: proto.tensor_desc(v["type"]) for v in desc["blocks"][0]["vars"]}
        block = prog.global_block()
        checked = 0
        for name, v in block.vars.items():
            if name.startswith("_pdmodel_"):
                continue  # our own temporaries (e.g. lookup_table's squeezed ids)
            if "ARRAY" in str(v.type):
                continue  # a tensor array's VarDesc shape is its elements' (arrays here have shape [])
            if v.type in ("FEED_MINIBATCH", "FETCH_LIST"):
                continue  # the feed / fetch holders: no tensor, no shape
            dtype, dims, _ = vds[name]
            assert (list(v.shape), v.dtype.name) == (dims, dtype), (model, name)
            checked += 1
        assert checked >= 8
        assert all(not v.name.startswith("_pdmodel_") for v in fetches)


def test_batch_size_is_free_and_runs_repeat():
    import paddle

    paddle.enable_static()
    _, arrays = load_golden("pdmodel/static26")
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, _, fetches = paddle.static.load_inference_model(os.path.join(PD, "static26", "cnn"), exe)
    x = arrays["cnn__in__img"]
    full = exe.run(prog, feed={"img": x}, fetch_list=fetches)
    one = exe.run(prog, feed={"img": x[1:2]}, fetch_list=fetches)
    np.testing.assert_allclose(one[0], full[0][1:2], rtol=1e-6, atol=1e-6)
    assert one[1].tolist() == full[1][1:2].tolist()
    again = exe.run(prog, feed={"img": x}, fetch_list=[fetches[1].name])  # fetch by name
    assert again[0].tolist() == arrays["cnn__out__1"].tolist()


@pytest.mark.parametrize("spelling", ["static", "fluid"])
@pytest.mark.parametrize("form", ["fluid18", "static26"])
def test_unsupported_op_type_names_the_op_and_the_file(form, spelling):
    import paddle

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    with pytest.raises(UnsupportedAPIError) as ei:
        _load(form, "unsupported", spelling, exe)
    msg = str(ei.value)
    assert "temporal_shift" in msg and "load_inference_model" in msg
    assert ("unsupported.pdmodel" if form == "static26" else os.path.join("unsupported", "__model__")) in msg


def test_deserialize_program_reads_a_real_pdmodel():
    import paddle

    paddle.enable_static()
    with open(os.path.join(PD, "static26", "mlp.pdmodel"), "rb") as f:
        prog = paddle.static.deserialize_program(f.read())
    # as Paddle 2.6.2 lists it: the model's feed and fetch ops too
    assert [op.type for op in prog.global_block().ops] == ["feed", "mul", "elementwise_add", "relu", "mul",
                                                           "elementwise_add", "softmax", "scale", "fetch"]
    assert prog.global_block().var("x").shape == (-1, 8)


def test_bad_model_file_and_missing_params_are_clear(tmp_path):
    import paddle

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    (tmp_path / "junk.pdmodel").write_bytes(b"\xff\xff\xff\xff not a program")
    (tmp_path / "junk.pdiparams").write_bytes(b"")
    with pytest.raises(ValueError, match="neither a program saved by paddle_compat nor a Paddle ProgramDesc"):
        paddle.static.load_inference_model(str(tmp_path / "junk"), exe)
    with open(os.path.join(PD, "static26", "mlp.pdmodel"), "rb") as f:
        (tmp_path / "m.pdmodel").write_bytes(f.read())
    with pytest.raises(ValueError, match="no parameter file"):
        paddle.static.load_inference_model(str(tmp_path / "m"), exe)


def test_our_json_format_still_round_trips(tmp_path):
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.nn.functional.softmax(paddle.static.nn.fc(x, 2))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xv = np.arange(6, dtype="float32").reshape(2, 3) / 6
    want, = exe.run(main, feed={"x": xv}, fetch_list=[y])
    prefix = str(tmp_path / "ours")
    paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
    with open(prefix + ".pdmodel", "rb") as f:
        assert f.read(1) == b"{"
    prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    # Paddle 2.4 / 2.6 fetch the `scale(1.0)` save_inference_model appends to each target
    assert feeds == ["x"] and [v.name for v in fetches] == ["save_infer_model/scale_0.tmp_0"]
    got, = exe.run(prog, feed={"x": xv}, fetch_list=fetches)
    np.testing.assert_allclose(got, want, rtol=1e-6)


# --- the wire-format decoder on hand-made bytes -------------------------------------------------------------
_varint, _field = proto.encode_varint, proto.encode_field


def test_decoder_packed_unpacked_negative_and_unknown_fields():
    from paddle_compat.engine.static import proto

    attr_ints = (_field(1, 2, b"axes") + _field(2, 0, _varint(3))  # name, type INTS
                 + _field(6, 2, _varint(1) + _varint(-1) + _varint(300))  # packed ints, -1 as 10 bytes
                 + _field(6, 0, _varint(-7))  # one more, unpacked
                 + _field(99, 0, _varint(5)))  # unknown field: skipped
    a = proto.decode(attr_ints, "OpDesc.Attr")
    assert proto.attr_value(a) == [1, -1, 300, -7]
    attr_f = _field(1, 2, b"p") + _field(2, 0, _varint(4)) + _field(7, 2, struct.pack("<2f", 0.5, -2.0)) \
        + _field(7, 5, struct.pack("<f", 3.0))
    assert proto.attr_value(proto.decode(attr_f, "OpDesc.Attr")) == [0.5, -2.0, 3.0]
    attr_d = _field(1, 2, b"d") + _field(2, 0, _varint(15)) + _field(19, 1, struct.pack("<d", 0.1))
    assert proto.attr_value(proto.decode(attr_d, "OpDesc.Attr")) == 0.1
    attr_b = _field(1, 2, b"b") + _field(2, 0, _varint(6)) + _field(10, 0, _varint(1))
    assert proto.attr_value(proto.decode(attr_b, "OpDesc.Attr")) is True
    td = proto.decode(_field(1, 0, _varint(3)) + _field(2, 2, _varint(-1) + _varint(5)), "VarType.TensorDesc")
    assert (td["data_type"], td["dims"]) == (3, [-1, 5])
    blk = proto.decode(_field(1, 0, _varint(0)) + _field(2, 0, _varint(-1)), "BlockDesc")
    assert (blk["idx"], blk["parent_idx"], blk["forward_block_idx"], blk["vars"]) == (0, -1, -1, [])


def test_decoder_rejects_truncated_bytes():
    from paddle_compat.engine.static import proto

    good = _field(1, 2, _field(1, 0, _varint(0)) + _field(2, 0, _varint(-1)))
    assert proto.parse_program_desc(good)["blocks"][0]["parent_idx"] == -1
    for bad in (good[:-1], b"\x0a\x80", b"\x0b"):
        with pytest.raises(proto.DecodeError):
            proto.parse_program_desc(bad)


def test_load_from_memory_both_spellings():
    """path_prefix / dirname None: model_filename and params_filename hold the bytes (Paddle's deprecated form)."""
    import paddle

    paddle.enable_static()
    _, arrays = load_golden("pdmodel/static26")
    exe = paddle.static.Executor(paddle.CPUPlace())
    with open(os.path.join(PD, "static26", "mlp.pdmodel"), "rb") as f:
        model = f.read()
    with open(os.path.join(PD, "static26", "mlp.pdiparams"), "rb") as f:
        params = f.read()
    for load in (lambda: paddle.static.load_inference_model(None, exe, model_filename=model, params_filename=params),
                 lambda: paddle.fluid.io.load_inference_model(None, exe, model_filename=model,
                                                              params_filename=params)):
        prog, _, fetches = load()
        out, = exe.run(prog, feed={"x": arrays["mlp__in__x"]}, fetch_list=fetches)
        np.testing.assert_allclose(out, arrays["mlp__out__0"], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="params_filename cannot be None"):
        paddle.static.load_inference_model(None, exe, model_filename=model)


# our own format does not save control-flow sub-blocks yet (engine/static/io.py program_to_dict)
RESAVE = [c for c in CASES if c[2] != "control"]


@pytest.mark.parametrize("case,form,model", RESAVE, ids=[f"{f}-{m}" for _, f, m in RESAVE])
def test_loaded_model_clones_and_resaves_in_our_format(case, form, model, tmp_path):
    """A loaded real-Paddle program is an ordinary program: clone(for_test) runs, and save_inference_model
    writes it in our format, which loads back to the same outputs."""
    import paddle

    paddle.enable_static()
    _, arrays = load_golden(f"pdmodel/{case}")
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = _load(form, model, "static", exe)
    feed = {n: arrays[f"{model}__in__{n}"] for n in feeds}
    want = exe.run(prog, feed=feed, fetch_list=fetches)
    got = exe.run(prog.clone(for_test=True), feed=feed, fetch_list=[v.name for v in fetches])
    prefix = str(tmp_path / model)
    paddle.static.save_inference_model(prefix, [prog.global_block().var(n) for n in feeds], fetches, exe,
                                       program=prog)
    prog2, feeds2, fetches2 = paddle.static.load_inference_model(prefix, exe)
    # as Paddle 2.4 / 2.6, saving appends a scale(1.0) to each target, which is what the saved program fetches
    assert feeds2 == feeds and all(v.name.startswith(f"save_infer_model/scale_{i}.tmp_") for i, v in enumerate(fetches2))
    again = exe.run(prog2, feed=feed, fetch_list=fetches2)
    for w, g, a in zip(want, got, again):
        assert np.array_equal(w, g) and np.array_equal(w, a)
