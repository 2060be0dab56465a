"""paddle.vision.models against real Paddle 2.6.2 (tests/goldens/models26, tools/oracle/rec_models26.py):
state_dict keys and shapes in order, and eval outputs with the same seed-free weights on both sides; a LeNet
.pdparams written by Paddle loads with set_state_dict and gives Paddle's output; pretrained weights come from
Paddle's cache folder without a network."""

import hashlib
import os

import numpy as np
import pytest

from tests.conftest import GOLDENS, load_golden
from tests.vision.model_weights import model_input, summarize, weight_for

META, ARR = load_golden("models26")
CASES = META["cases"]
# Every case runs with PADDLE_COMPAT_FULL_MODELS=1 (all 51 constructors at full size: minutes); by default one
# small case per family (same blocks, same key naming, same arithmetic) keeps the suite fast.
QUICK = {"LeNet", "LeNet_c0", "VGG_A_bn_nopool", "ResNet_basic18_feat", "ResNet_bottleneck50_g2",
         "MobileNetV1_s025", "MobileNetV2_s05", "MobileNetV3Small_s075", "ShuffleNetV2_033_swish",
         "SqueezeNet_10_c10", "squeezenet1_1_nopool", "DenseNet_121_drop", "GoogLeNet_feat", "InceptionV3_feat"}
FULL = os.environ.get("PADDLE_COMPAT_FULL_MODELS") == "1"


def _resolve(M, v):
    if isinstance(v, str) and v.split(".")[0] in ("vgg", "resnet"):
        obj = M
        for part in v.split("."):
            obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
        return obj
    if isinstance(v, list) and v and v[0] == "call":
        return _resolve(M, v[1])(*[_resolve(M, a) for a in v[2:]])
    return v


def build(case):
    import paddle.vision.models as M

    return getattr(M, case["ctor"])(**{k: _resolve(M, v) for k, v in case["kwargs"].items()})


def keys_text(sd):
    return ";".join(f"{k}:{','.join(str(int(d)) for d in v.shape)}" for k, v in sd.items())


@pytest.mark.parametrize("cid", [c if FULL or c in QUICK else pytest.param(c, marks=pytest.mark.skip(
    reason="PADDLE_COMPAT_FULL_MODELS=1 runs it")) for c in CASES])
def test_model_keys_and_outputs(cid):
    import paddle

    case = CASES[cid]
    model = build(case)
    model.eval()
    sd = model.state_dict()
    want = ARR[f"{cid}__keys"].tobytes().decode()
    got = keys_text(sd)
    if got != want:
        w, g = want.split(";"), got.split(";")
        first = next((i for i, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
        raise AssertionError(f"{cid}: {len(g)} keys vs Paddle's {len(w)}; first difference at {first}: "
                             f"{g[first:first + 3]} vs {w[first:first + 3]}")
    missing, unexpected = model.set_state_dict({k: weight_for(k, v.shape) for k, v in sd.items()})
    assert not missing and not unexpected
    with paddle.no_grad():
        out = model(paddle.to_tensor(model_input(case["input"])))
    outs = out if isinstance(out, (list, tuple)) else [out]
    assert [list(o.shape) for o in outs] == case["out_shapes"]
    for i, o in enumerate(outs):
        ref = ARR[f"{cid}__out{i}"]
        np.testing.assert_allclose(summarize(o.numpy()), ref, rtol=2e-4, atol=2e-4 * max(1.0, abs(ref[-1]) / ref.size))


def test_every_surface_model_is_checked():
    """Each of the 51 names of paddle.vision.models in 2.6.2 is built by some golden case."""
    from paddle_compat._export import surface_names

    names = {n for n, kind in surface_names("paddle.vision.models").items() if not kind.startswith("module:")}
    assert len(names) == 51
    assert names == {c["ctor"] for c in CASES.values()}


def test_pdparams_written_by_paddle():
    """tests/goldens/lenet26.pdparams (paddle.save of LeNet().state_dict() in 2.6.2) loads and reproduces."""
    import paddle

    state = paddle.load(os.path.join(GOLDENS, "lenet26.pdparams"))
    model = paddle.vision.models.LeNet()
    missing, unexpected = model.set_state_dict(state)
    assert not missing and not unexpected
    model.eval()
    out = model(paddle.to_tensor(model_input([2, 1, 28, 28]))).numpy()
    np.testing.assert_allclose(out, ARR["lenet26_pdparams_out"], rtol=1e-5, atol=1e-6)


def test_pretrained_from_cache_folder(tmp_path, monkeypatch):
    """pretrained=True reads WEIGHTS_HOME/<the last part of Paddle's URL> when its md5 matches (no network)."""
    import paddle
    from paddle_compat.paddle2.utils import download
    from paddle_compat.paddle2.vision.models import squeezenet

    monkeypatch.setattr(download, "WEIGHTS_HOME", str(tmp_path))
    src = paddle.vision.models.squeezenet1_1()
    state = {k: weight_for(k, v.shape) for k, v in src.state_dict().items()}
    url, _ = squeezenet.model_urls["squeezenet1_1"]
    path = tmp_path / url.rsplit("/", 1)[1]
    paddle.save({k: paddle.to_tensor(v) for k, v in state.items()}, str(path))
    monkeypatch.setitem(squeezenet.model_urls, "squeezenet1_1", (url, hashlib.md5(path.read_bytes()).hexdigest()))
    model = paddle.vision.models.squeezenet1_1(pretrained=True)
    for k, v in model.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), state[k])


def test_pretrained_errors():
    import paddle

    for call, arch in ((lambda: paddle.vision.models.mobilenet_v2(pretrained=True, scale=0.5), "mobilenetv2_0.5"),
                       (lambda: paddle.vision.models.vgg11(pretrained=True), "vgg11"),
                       (lambda: paddle.vision.models.vgg16(pretrained=True, batch_norm=True), "vgg16_bn")):
        with pytest.raises(AssertionError, match=f"{arch} model do not have a pretrained model now"):
            call()
