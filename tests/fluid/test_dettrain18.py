"""Detection-training layers beyond the 1.8.5 parity table (tests/fluid/cases18_dettrain.py): dygraph, errors,
random sampling (use_random=True) by its properties, position-sensitive deformable RoI pooling."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.fluid import cases18_dettrain as C
from tests.fluid._lod_run import lod_data, run_lod_static

GOLDEN = dict(np.load(os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "fluid18_dettrain.npz")))


def _static(build, feed):
    outs, lods, _ = run_lod_static(build, feed)
    return [np.asarray(r) for r in outs], lods


_data = lod_data


def test_yolov3_loss_dygraph_matches_golden():
    from paddle import fluid

    with fluid.dygraph.guard():
        x = fluid.dygraph.to_variable(C._yx)
        x.stop_gradient = False
        loss = fluid.layers.yolov3_loss(x, fluid.dygraph.to_variable(C._ygt), fluid.dygraph.to_variable(C._ylab),
                                        C._ANC, [1, 2], C._YC, 0.5, 8)
        fluid.layers.reduce_sum(loss).backward()
        np.testing.assert_allclose(loss.numpy(), GOLDEN["yolo_default|out0"], rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(x.gradient(), GOLDEN["yolo_default|out1"], rtol=1e-5, atol=1e-4)


def test_deformable_conv_dygraph_matches_golden():
    from paddle import fluid

    p = C.CASES["dcn_v2_pad1"]["params"]
    with fluid.dygraph.guard():
        init = fluid.initializer.NumpyArrayInitializer
        out = fluid.layers.deformable_conv(
            fluid.dygraph.to_variable(p["dx"]), fluid.dygraph.to_variable(p["doff"]),
            fluid.dygraph.to_variable(p["dmask"]), 3, 3, padding=1, im2col_step=1,
            param_attr=fluid.ParamAttr(initializer=init(p["dw"])), bias_attr=fluid.ParamAttr(initializer=init(p["db"])))
        np.testing.assert_allclose(out.numpy(), GOLDEN["dcn_v2_pad1|out0"], rtol=1e-5, atol=1e-4)


def test_deformable_conv_static_params_and_shape():
    def build(fluid):
        x = fluid.data("x", [-1, 4, 5, 6], "float32")
        off = fluid.data("off", [-1, 18, 3, 3], "float32")
        out = fluid.layers.deformable_conv(x, off, None, 6, 3, stride=2, padding=1, modulated=False)
        names = sorted(p.name for p in fluid.default_main_program().global_block().all_parameters())
        assert names == ["deformable_conv_0.b_0", "deformable_conv_0.w_0"], names
        assert list(out.shape) == [-1, 6, 3, 3]
        return [out]

    (out,), _ = _static(build, {"x": (C._dx, None), "off": (np.zeros((2, 18, 3, 3), "float32"), None)})
    assert out.shape == (2, 6, 3, 3)


def _psroi_build(ps, trans):
    def build(fluid):
        v = _data(fluid, [("rois", [-1, 4], "float32", 1)])
        x = fluid.layers.create_parameter([2, 8, 6, 7], "float32", default_initializer=fluid.initializer
                                          .NumpyArrayInitializer(C._dfeat))
        t = fluid.layers.create_parameter(list(trans.shape), "float32",
                                          default_initializer=fluid.initializer.NumpyArrayInitializer(trans))
        kw = {"position_sensitive": True, "group_size": [2, 2]} if ps else {}
        return [fluid.layers.deformable_roi_pooling(x, v["rois"], t, pooled_height=2, pooled_width=2,
                                                    sample_per_part=2, **kw)]
    return build


def test_deformable_roi_pooling_position_sensitive():
    # 1.8.5 itself fails here (output_dim = C / ph / pw reaches the op as a float); with one trans class the
    # position-sensitive output [:, k, i, j] is the plain pooling of channel (k * 2 + i) * 2 + j
    trans = (np.random.RandomState(0).randn(5, 2, 2, 2) * 0.5).astype("float32")
    (ps,), _ = _static(_psroi_build(True, trans), {"rois": (C._drois, [2, 3])})
    (plain,), _ = _static(_psroi_build(False, trans), {"rois": (C._drois, [2, 3])})
    assert ps.shape == (5, 2, 2, 2)
    for k in range(2):
        for i in range(2):
            for j in range(2):
                np.testing.assert_allclose(ps[:, k, i, j], plain[:, (k * 2 + i) * 2 + j, i, j], rtol=1e-6)


def _rpn(fluid, **kw):
    v = _data(fluid, C._rdata)
    bp = fluid.layers.create_parameter([2, 40, 4], "float32")
    cl = fluid.layers.create_parameter([2, 40, 1], "float32")
    return list(fluid.layers.rpn_target_assign(bp, cl, v["anchor"], v["var"], v["gt"], v["crowd"], v["info"], **kw))


@pytest.mark.parametrize("seed", [0, 1])
def test_rpn_target_assign_random_sampling_properties(seed):
    import paddle

    kw = {"rpn_batch_size_per_im": 10, "rpn_fg_fraction": 0.3, "rpn_positive_overlap": 0.5}
    # the pool: every foreground candidate (no background can overwrite one when negative_overlap is 0)
    pool_kw = dict(kw, rpn_batch_size_per_im=200, rpn_negative_overlap=0.0)
    det, _ = _static(lambda f: _rpn(f, use_random=False, **pool_kw), C._rfeed)
    paddle.seed(seed)
    got, lods = _static(lambda f: _rpn(f, use_random=True, **kw), C._rfeed)
    lbl, sc_lod = got[2].ravel(), lods[2]
    for i in range(2):
        seg = lbl[sc_lod[i]:sc_lod[i + 1]]
        assert seg.size <= 10 and (seg == 1).sum() <= 3
        assert (np.diff(seg) <= 0).all()  # foreground labels first
    # every sampled regression target (inside weight 1) is one of the deterministic run's foreground targets
    pool = {tuple(np.round(r, 4)) for r in det[3][det[4][:, 0] == 1].tolist()}
    picked = got[3][got[4][:, 0] == 1]
    assert picked.shape[0] > 0 and {tuple(np.round(r, 4)) for r in picked.tolist()} <= pool
    assert got[3].shape == got[4].shape and got[3].shape[0] == lods[3][-1]


def _gpl(fluid, **kw):
    v = _data(fluid, C._pdata)
    return list(fluid.layers.generate_proposal_labels(v["rois"], v["gcls"], v["crowd"], v["gt"], v["info"],
                                                      class_nums=4, **kw))


def test_generate_proposal_labels_random_sampling_properties():
    import paddle

    kw = {"batch_size_per_im": 6, "fg_fraction": 0.5}
    det, dl = _static(lambda f: _gpl(f, use_random=False, **kw), C._pfeed)
    full, fl = _static(lambda f: _gpl(f, use_random=False, batch_size_per_im=512, fg_fraction=0.5), C._pfeed)
    paddle.seed(3)
    got, gl = _static(lambda f: _gpl(f, use_random=True, **kw), C._pfeed)
    assert gl[0] == dl[0]  # the counts per image do not depend on which candidates are drawn
    np.testing.assert_array_equal(np.sort(got[1].ravel()) > 0, np.sort(det[1].ravel()) > 0)
    for i in range(2):
        pool = {tuple(r) for r in full[0][fl[0][i]:fl[0][i + 1]].tolist()}
        assert {tuple(r) for r in got[0][gl[0][i]:gl[0][i + 1]].tolist()} <= pool


def test_errors_name_the_api():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        x = fluid.data("x", [2, 10, 4, 4], "float32")
        gb = fluid.data("gb", [2, 3, 4], "float32")
        gl = fluid.data("gl", [2, 3], "int32")
        with pytest.raises(Exception, match="yolov3_loss"):
            fluid.layers.yolov3_loss(x, gb, gl, [10, 13, 16, 30], [0, 1], 3, 0.5, 8)
        with pytest.raises(TypeError, match="ignore_thresh"):
            fluid.layers.yolov3_loss(x, gb, gl, [10, 13], [0], 0, 1, 8)
        loc = fluid.data("loc", [2, 8, 4], "float32")
        conf = fluid.data("conf", [2, 8, 4], "float32")
        g = fluid.data("g", [-1, 4], "float32", lod_level=1)
        lab = fluid.data("lab", [-1, 1], "int32", lod_level=1)
        pb = fluid.data("pb", [8, 4], "float32")
        with pytest.raises(ValueError, match="max_negative"):
            fluid.layers.ssd_loss(loc, conf, g, lab, pb, pb, mining_type="hard_example")
        with pytest.raises(TypeError, match="prior_box_var"):
            fluid.layers.ssd_loss(loc, conf, g, lab, pb)
        off = fluid.data("off", [2, 9, 4, 4], "float32")
        with pytest.raises(Exception, match="deformable_conv.*offset"):
            fluid.layers.deformable_conv(x, off, None, 2, 3, padding=1, modulated=False)
        with pytest.raises(Exception, match="needs a mask"):
            fluid.layers.deformable_conv(x, off, None, 2, 3, padding=1)
        crowd_f = fluid.data("cf", [-1, 1], "float32", lod_level=1)
        with pytest.raises(TypeError, match="rpn_target_assign.*is_crowd"):
            fluid.layers.rpn_target_assign(loc, conf, pb, pb, g, crowd_f, fluid.data("info", [2, 3], "float32"))
        with pytest.raises(Exception, match="generate_proposal_labels.*class_nums"):
            fluid.layers.generate_proposal_labels(g, lab, lab, g, fluid.data("i2", [2, 3], "float32"))


def test_ssd_loss_dygraph_needs_lod():
    from paddle import fluid

    with fluid.dygraph.guard():
        t = fluid.dygraph.to_variable
        with pytest.raises(Exception, match="ssd_loss.*LoD"):
            fluid.layers.ssd_loss(t(C._sloc), t(C._sconf), t(C._sgt), t(C._sgl), t(C._sp), t(C._spv))


def test_target_assign_dygraph_needs_lod():
    from paddle import fluid

    with fluid.dygraph.guard():
        x = fluid.dygraph.to_variable(np.ones([2, 3, 4], "float32"))
        m = fluid.dygraph.to_variable(np.array([[0, -1], [1, 0]], "int32"))
        with pytest.raises(Exception, match="target_assign.*LoD.*static"):
            fluid.layers.target_assign(x, m, mismatch_value=0)


MASKS = dict(np.load(os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "fluid18_dettrain_masks.npz")))


@pytest.mark.parametrize("name", sorted(C.MASK_CASES))
def test_generate_mask_labels_matches_paddle18(name):
    # recorded by tools/oracle/rec_dettrain_masks.py (gt_segms needs 3 LoD levels)
    import json

    import paddle

    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "fluid18_dettrain_masks.json")) as f:
        want_lods = json.load(f)["lods"]
    feed, ncls, res = C.MASK_CASES[name]
    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        v = _data(fluid, C.MASK_DATA)
        outs = C.mask_build(fluid.layers, v, ncls, res)
        lods = [o.node.meta.get("lod_var") for o in outs]
    exe = fluid.Executor(fluid.CPUPlace())
    fd = {n: fluid.create_lod_tensor(a, lens, fluid.CPUPlace()) if lens is not None else a
          for n, (a, lens) in feed.items()}
    got = exe.run(main, feed=fd, fetch_list=outs + lods)
    for i in range(3):
        want = MASKS[f"{name}|out{i}"]
        assert np.asarray(got[i]).dtype == want.dtype, i
        np.testing.assert_allclose(np.asarray(got[i]), want, rtol=1e-6, atol=1e-5, err_msg=f"{name} out{i}")
        assert np.asarray(got[3 + i]).tolist() == want_lods[f"{name}|out{i}"][-1]


def test_generate_mask_labels_needs_three_lod_levels():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        v = _data(fluid, [(n, s, dt, 1 if ll == 3 else ll) for n, s, dt, ll in C.MASK_DATA])
        with pytest.raises(Exception, match="generate_mask_labels.*lod_level=3"):
            C.mask_build(fluid.layers, v, 4, 7)
