"""paddle.vision.ops against real Paddle 2.6.2 (tests/goldens/vision_ops26, tools/oracle/rec_vision_ops26.py;
the cases are tests/vision/vision_ops_cases.py), plus the 1.x aliases sharing each body and the error cases."""

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.vision.vision_ops_cases import CASES, inputs_for

META, ARR = load_golden("vision_ops26")


def flatten(out):
    if isinstance(out, (list, tuple)):
        return [o for x in out for o in flatten(x)]
    return [out]


def run_case(name, spec):
    import paddle
    import paddle.vision.ops as V

    arrs = inputs_for(name, spec)
    every = spec["inputs"] == "deform" and spec.get("grad")
    tens = {k: paddle.to_tensor(v, stop_gradient=not (spec.get("grad") == k or (every and v.dtype == np.float32)))
            for k, v in arrs.items()}
    kw = dict(spec.get("kwargs", {}))
    kw.update({k: tens[v] for k, v in spec.get("tensor_kwargs", {}).items()})
    args = [tens[a] for a in spec.get("args", [])]
    fn = spec["fn"]
    if fn.startswith("layer:"):
        layer = getattr(V, fn[6:])(**spec.get("ctor", {}))
        for pname, p in layer.named_parameters():
            p.set_value(arrs[f"param_{pname}"])
        out = layer(*args, **kw)
    else:
        out = getattr(V, fn)(*args, **kw)
    outs = flatten(out)
    res = {f"{name}__{i}": (o.numpy() if o is not None else np.zeros([0], "float32")) for i, o in enumerate(outs)}
    if spec.get("grad"):
        w = np.random.RandomState(5).uniform(-1, 1, outs[0].shape).astype("float32")
        (outs[0] * paddle.to_tensor(w)).sum().backward()
        res[f"{name}__grad"] = tens[spec["grad"]].grad.numpy()
    return res


@pytest.mark.parametrize("name", sorted(CASES))
def test_vision_op_matches_paddle(name):
    got = run_case(name, CASES[name])
    want = {k: v for k, v in ARR.items() if k.startswith(name + "__")}
    assert sorted(got) == sorted(want)
    for k, v in want.items():
        assert got[k].shape == v.shape, (k, got[k].shape, v.shape)
        assert got[k].dtype == v.dtype, (k, got[k].dtype, v.dtype)
        np.testing.assert_allclose(got[k], v, rtol=1e-5, atol=1e-5, err_msg=k)


def test_read_file_and_decode_jpeg(tmp_path):
    """read_file gives the file's bytes; decode_jpeg (GPU-only in Paddle) decodes them on any device as libjpeg
    does (OpenCV's decoder here), in CHW."""
    import paddle

    cv2 = pytest.importorskip("cv2")
    pytest.importorskip("PIL")
    img = (np.arange(8 * 10 * 3).reshape(8, 10, 3) * 7 % 256).astype("uint8")
    path = str(tmp_path / "a.jpg")
    cv2.imwrite(path, img)
    data = paddle.vision.ops.read_file(path)
    assert data.dtype == paddle.uint8 and data.numpy().tobytes() == open(path, "rb").read()
    rgb = paddle.vision.ops.decode_jpeg(data, mode="rgb").numpy()
    ref = cv2.imdecode(np.frombuffer(open(path, "rb").read(), np.uint8), cv2.IMREAD_COLOR)[:, :, ::-1]
    assert rgb.shape == (3, 8, 10)
    assert np.abs(rgb.transpose(1, 2, 0).astype(int) - ref).max() <= 1
    assert paddle.vision.ops.decode_jpeg(data, mode="gray").shape == [1, 8, 10]
    assert paddle.vision.ops.decode_jpeg(data).shape == [3, 8, 10]
    with pytest.raises(ValueError, match="mode should be one of"):
        paddle.vision.ops.decode_jpeg(data, mode="bgr")


@pytest.mark.parametrize("call, match", [
    (lambda V, t: V.roi_align(t((2, 3, 8)), t((1, 4)), t((1,), "int32"), 2), "x should be a 4-D"),
    (lambda V, t: V.roi_pool(t((1, 3, 8, 8)), t((1, 5)), t((1,), "int32"), 2), r"boxes should be a \[num_boxes, 4\]"),
    (lambda V, t: V.roi_align(t((1, 3, 8, 8)), t((1, 4)), None, 2), "boxes_num"),
    (lambda V, t: V.psroi_pool(t((1, 5, 8, 8)), t((1, 4)), t((1,), "int32"), 2), "divisible by"),
    (lambda V, t: V.deform_conv2d(t((1, 2, 5, 5)), t((1, 9, 5, 5)), t((3, 2, 3, 3))), r"kh \* kw = 18 channels, got 9"),
    (lambda V, t: V.nms(t((4, 4)), scores=t((4,)), category_idxs=t((4,), "int64")), "categories"),
    (lambda V, t: V.roi_align(t((1, 3, 8, 8)), t((1, 4)), t((1,), "int32"), (1, 2, 3)), "output_size"),
])
def test_vision_op_errors(call, match):
    import paddle
    import paddle.vision.ops as V

    t = lambda shape, dtype="float32": paddle.to_tensor(np.ones(shape, dtype))  # noqa: E731
    with pytest.raises((ValueError, AssertionError), match=match):
        call(V, t)


def test_fluid_and_vision_ops_share_bodies():
    """The 2.x functions are adapters over the fluid ops' registry entries (one definition each)."""
    import paddle
    import paddle.vision.ops as V
    from paddle_compat.engine.framework import registry

    x = paddle.to_tensor(np.random.RandomState(0).uniform(-1, 1, (1, 2, 6, 6)).astype("float32"))
    rois = paddle.to_tensor(np.array([[0.0, 0.0, 4.0, 4.0]], "float32"))
    num = paddle.to_tensor(np.array([1], "int32"))
    got = V.roi_align(x, rois, num, 2, aligned=False).numpy()
    same = paddle.fluid.layers.roi_align(x, rois, 2, 2, rois_lod=paddle.to_tensor(np.array([0, 1], "int64")))
    np.testing.assert_array_equal(got, same.numpy())
    for t in ("roi_align", "roi_pool", "psroi_pool", "nms", "yolo_box", "yolov3_loss", "box_coder", "prior_box",
              "deformable_conv", "deformable_conv_v1", "generate_proposals_v2", "distribute_fpn_proposals",
              "matrix_nms", "read_file", "decode_jpeg"):
        assert t in registry.OPS, t
