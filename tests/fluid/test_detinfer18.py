"""Detection-inference layers beyond the 1.8.5 parity table (tests/fluid/cases18_detinfer.py): empty results,
errors, dygraph, gradients, static shapes / dtypes."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from tests.fluid import cases18_detinfer as C
from tests.fluid._lod_run import lod_data, run_lod_static

GOLDEN = dict(np.load(os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "fluid18_detinfer.npz")))


_static = run_lod_static
_data = lod_data


def test_generate_proposals_none_left_gives_empty_images():
    # Paddle 1.8.5 (recorded): an empty RpnRois with LoD [[0, 0, 0]]
    def build(fluid):
        v = _data(fluid, C._gp_data)
        return list(fluid.layers.generate_proposals(v["scores"], v["deltas"], v["im_info"], v["anchors"],
                                                    v["variances"], min_size=100.0, return_rois_num=True))

    (rois, probs, nums), lods, outs = _static(build, C._gp_feed)
    assert np.asarray(rois).shape == (0, 4) and np.asarray(probs).shape == (0, 1)
    assert lods[0] == lods[1] == [0, 0, 0]
    assert np.asarray(nums).tolist() == [0, 0] and np.asarray(nums).dtype == np.int64
    assert list(outs[0].shape) == [-1, 4] and list(outs[1].shape) == [-1, 1]


def test_matrix_nms_empty_and_dtypes():
    # Paddle 1.8.5 (recorded): empty Out / Index with LoD [[0, 0, 0]]
    def build(fluid):
        v = _data(fluid, C._mn_data)
        return list(fluid.layers.matrix_nms(v["b"], v["s"], 1.5, 0.5, 4, 2, return_index=True))

    (out, index), lods, outs = _static(build, C._mn_feed)
    assert np.asarray(out).shape == (0, 6) and np.asarray(index).shape == (0, 1)
    assert np.asarray(index).dtype == np.int32
    assert lods == [[0, 0, 0], [0, 0, 0]]
    assert str(outs[1].dtype).endswith("INT32") or "int32" in str(outs[1].dtype)


def test_distribute_fpn_restore_index_round_trips():
    def build(fluid):
        v = _data(fluid, C._fpn_data)
        multi, restore = fluid.layers.distribute_fpn_proposals(v["rois"], 2, 5, 4, 224)
        return [fluid.layers.gather(fluid.layers.concat(multi), restore), restore]

    (back, restore), _, _ = _static(build, C._fpn_feed)
    np.testing.assert_array_equal(np.asarray(back), C._fpn)
    assert np.asarray(restore).dtype == np.int32


@pytest.mark.parametrize("call,err,msg", [
    (lambda L, v: L.psroi_pool(v["x"], v["rois"], 3.0, 1.0, 2, 2), TypeError, "output_channels must be int"),
    (lambda L, v: L.psroi_pool(v["x"], v["rois"], 2, 1.0, 2, 2), "InvalidArgumentError", "output_channels * "),
    (lambda L, v: L.prroi_pool(v["x"], v["rois"], 1, 2, 2), TypeError, "spatial_scale must be float"),
    (lambda L, v: L.matrix_nms(v["b"], v["s"], 0.1, 0.1, 4.0, 2), TypeError, "nms_top_k must be int"),
    (lambda L, v: L.locality_aware_nms(v["b"], v["s"], 0.1, 4, 2), "InvalidArgumentError", "only one class"),
    (lambda L, v: L.distribute_fpn_proposals(v["x2"], 2, 5, 4, 224), "InvalidArgumentError", "carries no LoD"),
    (lambda L, v: L.collect_fpn_proposals([v["rois"]], [v["rois"], v["rois"]], 2, 3, 10), "InvalidArgumentError",
     "entries each"),
    (lambda L, v: L.retinanet_detection_output(v["b"], [v["s"]], [v["x2"]], v["x2"]), TypeError,
     "must be <class 'list'>"),
])
def test_errors_name_the_api(call, err, msg):
    import paddle

    from paddle_compat.engine.core import errors

    paddle.enable_static()
    fluid = paddle.fluid
    exc = getattr(errors, err) if isinstance(err, str) else err
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        v = _data(fluid, [("x", [2, 12, 6, 7], "float32", 0), ("rois", [-1, 4], "float32", 1),
                          ("b", [2, 8, 4], "float32", 0), ("s", [2, 3, 8], "float32", 0),
                          ("x2", [-1, 4], "float32", 0)])
        with pytest.raises(exc, match=msg.replace("*", r"\*")):
            call(fluid.layers, v)


def test_locality_aware_nms_polygons_unsupported():
    import paddle

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        v = _data(fluid, [("b", [1, 5, 8], "float32", 0), ("s", [1, 1, 5], "float32", 0)])
        with pytest.raises(UnsupportedAPIError, match="locality_aware_nms.*polygon"):
            fluid.layers.locality_aware_nms(v["b"], v["s"], 0.1, 4, 2)


def test_dygraph_matches_the_static_golden():
    import paddle

    fluid = paddle.fluid
    with fluid.dygraph.guard():
        t = {n: fluid.dygraph.to_variable(a) for n, (a, _) in C._gp_feed.items()}
        rois, probs = fluid.layers.generate_proposals(t["scores"], t["deltas"], t["im_info"], t["anchors"],
                                                      t["variances"])
        np.testing.assert_allclose(rois.numpy(), GOLDEN["gp_default|out0"], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(probs.numpy(), GOLDEN["gp_default|out1"], rtol=1e-5, atol=1e-5)
        b, s = (fluid.dygraph.to_variable(C._mn_feed[k][0]) for k in ("b", "s"))
        out, index = fluid.layers.matrix_nms(b, s, 0.1, 0.2, 6, 5, return_index=True)
        np.testing.assert_allclose(out.numpy(), GOLDEN["matrix_nms_linear|out0"], rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(index.numpy(), GOLDEN["matrix_nms_linear|out1"])
        x = fluid.dygraph.to_variable(C._feat)
        rois = fluid.dygraph.to_variable(C._prois)
        nums = fluid.dygraph.to_variable(np.array([2, 3], "int64"))
        np.testing.assert_allclose(fluid.layers.prroi_pool(x, rois, 1.0, 2, 2, batch_roi_nums=nums).numpy(),
                                   GOLDEN["prroi_pool_nums|out0"], rtol=1e-5, atol=1e-5)
        with pytest.raises(Exception, match="psroi_pool.*static"):
            fluid.layers.psroi_pool(x, rois, 3, 1.0, 2, 2)


def test_prroi_pool_gradient_is_exact():
    """1.8.5's prroi_pool_grad cannot run with rois that stop gradients, so check the torch gradient against
    finite differences instead (input and rois)."""
    from paddle_compat.engine.framework.registry import get

    impl = get("prroi_pool").impl
    x = torch.tensor(C._feat[:, :3], dtype=torch.float64, requires_grad=True)
    rois = torch.tensor([[0.3, 0.2, 4.6, 3.9], [1.4, 2.6, 3.2, 5.5], [2.2, 1.1, 6.3, 5.4]], dtype=torch.float64,
                        requires_grad=True)
    offs = torch.tensor([0, 1, 3])
    assert torch.autograd.gradcheck(lambda a, r: impl(a, r, offs, 0.9, 2, 3), (x, rois))


def test_psroi_prroi_static_gradients_flow():
    def build(fluid):
        v = _data(fluid, [("rois", [-1, 4], "float32", 1)])
        x = fluid.layers.create_parameter([2, 12, 6, 7], "float32", name="feat_p")
        loss = fluid.layers.reduce_sum(fluid.layers.prroi_pool(x, v["rois"], 0.8, 2, 3))
        return [fluid.gradients([loss], [x])[0]]

    (g,), _, _ = _static(build, {"rois": (C._prois, [2, 3])})
    g = np.asarray(g)
    assert g.shape == (2, 12, 6, 7) and np.abs(g).sum() > 0
    # a bin inside the map spreads weight 1 over its pixels: image 0's two rois are inside -> 2 rois * 12 * 6
    np.testing.assert_allclose(g[0].sum(), 2 * 12 * 6, rtol=1e-4)


def test_multiclass_nms_rejects_what_it_cannot_compute():
    import paddle

    with pytest.raises(NotImplementedError, match="multiclass_nms with polygon boxes.*got 8"):
        paddle.fluid.layers.multiclass_nms(paddle.ones([1, 3, 8]), paddle.ones([1, 2, 3]), 0.1, 10, 10)
    with pytest.raises(Exception, match="multiclass_nms.*LoD"):  # the LoD form in dygraph: no LoD to split images
        paddle.fluid.layers.multiclass_nms(paddle.ones([3, 2, 4]), paddle.ones([3, 2]), 0.1, 10, 10)
    with pytest.raises(ValueError, match=r"multiclass_nms: with 2-D \(LoD\) scores"):
        paddle.fluid.layers.multiclass_nms(paddle.ones([3, 4]), paddle.ones([3, 2]), 0.1, 10, 10)
