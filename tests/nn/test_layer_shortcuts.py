"""paddle.nn layers' dygraph shortcuts (dispatch.plain_dygraph / body_shortcut, conv.ConvShortcut): a layer call
computes what its functional form computes, bit for bit, forward and backward, running statistics included; the
layers fall back to the functional form where a shortcut does not apply (static mode, AMP, channel-last convs,
bad input, whose errors stay Paddle's)."""

from __future__ import annotations

import contextlib

import numpy as np
import torch
import pytest

import paddle
from paddle_compat.engine.framework import dispatch
from tests.conftest import Verdicts

pytestmark = pytest.mark.usefixtures("no_integer_gradients")  # tests/conftest.py


# name -> (make the layer, input shape)
CASES = {
    "Conv2D 3x3 pad 1": (lambda: paddle.nn.Conv2D(4, 6, 3, padding=1), (2, 4, 9, 9)),
    "Conv2D stride 2 no bias": (lambda: paddle.nn.Conv2D(4, 6, 3, stride=2, bias_attr=False), (2, 4, 9, 9)),
    "Conv2D dilation groups": (lambda: paddle.nn.Conv2D(4, 8, 3, padding=2, dilation=2, groups=2), (2, 4, 9, 9)),
    "Conv2D depthwise": (lambda: paddle.nn.Conv2D(4, 4, 3, padding=1, groups=4), (2, 4, 8, 8)),
    "Conv2D SAME stride 2": (lambda: paddle.nn.Conv2D(4, 6, 3, stride=2, padding="SAME"), (2, 4, 8, 8)),
    "Conv2D VALID": (lambda: paddle.nn.Conv2D(4, 6, 3, padding="VALID"), (2, 4, 8, 8)),
    "Conv2D asymmetric pad (F.pad)": (lambda: paddle.nn.Conv2D(4, 6, 3, padding=[0, 1, 1, 2]), (2, 4, 8, 8)),
    "Conv2D window past input": (lambda: paddle.nn.Conv2D(4, 6, 3, stride=2), (2, 4, 2, 2)),
    "Conv2D NHWC": (lambda: paddle.nn.Conv2D(4, 6, 3, padding=1, data_format="NHWC"), (2, 9, 9, 4)),
    "Conv2D reflect": (lambda: paddle.nn.Conv2D(4, 6, 3, padding=1, padding_mode="reflect"), (2, 4, 9, 9)),
    "Conv1D": (lambda: paddle.nn.Conv1D(4, 6, 3, padding=1), (2, 4, 11)),
    "Conv3D": (lambda: paddle.nn.Conv3D(2, 3, 3, padding=1, stride=2), (1, 2, 5, 5, 5)),
    "BatchNorm2D": (lambda: paddle.nn.BatchNorm2D(4), (3, 4, 5, 5)),
    "BatchNorm1D NC": (lambda: paddle.nn.BatchNorm1D(4), (6, 4)),
    "BatchNorm3D": (lambda: paddle.nn.BatchNorm3D(2), (2, 2, 3, 3, 3)),
    "BatchNorm2D NHWC": (lambda: paddle.nn.BatchNorm2D(4, data_format="NHWC"), (3, 5, 5, 4)),
    "BatchNorm2D global stats": (lambda: paddle.nn.BatchNorm2D(4, use_global_stats=True), (3, 4, 5, 5)),
    "BatchNorm2D one per channel": (lambda: paddle.nn.BatchNorm2D(4), (1, 4, 1, 1)),
    "Linear": (lambda: paddle.nn.Linear(5, 3), (4, 7, 5)),
    "Linear no bias": (lambda: paddle.nn.Linear(5, 3, bias_attr=False), (4, 5)),
    "LayerNorm": (lambda: paddle.nn.LayerNorm(6), (3, 4, 6)),
    "LayerNorm 2 dims no affine": (lambda: paddle.nn.LayerNorm([4, 6], weight_attr=False, bias_attr=False),
                                   (3, 4, 6)),
}


def _run(case: str, shortcuts: bool, training: bool, monkeypatch) -> list[np.ndarray]:
    """Two steps of forward + backward (the layer's parameters and running statistics as they end, the outputs and
    the input gradients)."""
    monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [shortcuts])
    make, shape = CASES[case]
    paddle.seed(7)
    layer = make()
    layer.train() if training else layer.eval()
    rng = np.random.RandomState(3)
    got = []
    for _ in range(2):
        x = paddle.to_tensor(rng.standard_normal(shape).astype("float32"), stop_gradient=False)
        y = layer(x)
        (y * paddle.to_tensor(rng.standard_normal(y.shape).astype("float32"))).sum().backward()
        got += [y.numpy(), x.grad.numpy()]
    got += [p.numpy() for p in layer.parameters()] + [p.grad.numpy() for p in layer.parameters() if p.grad is not None]
    got += [b.numpy() for b in layer.buffers()]
    return got


@pytest.mark.parametrize("training", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_layer_call_equals_its_functional_form(case, training, monkeypatch):
    want = _run(case, False, training, monkeypatch)
    got = _run(case, True, training, monkeypatch)
    assert len(got) == len(want) >= 4
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


# layers whose plain dygraph calls take the shortcut (every other call goes through the functional form)
TAKEN = ["Conv2D 3x3 pad 1", "Conv2D VALID", "Conv2D dilation groups", "Conv1D", "Conv3D", "BatchNorm2D", "BatchNorm2D NHWC",
         "Linear", "LayerNorm"]
NOT_TAKEN = ["Conv2D asymmetric pad (F.pad)", "Conv2D SAME stride 2", "Conv2D window past input", "Conv2D NHWC",
             "Conv2D reflect"]  # SAME at stride 2 on 8x8: Paddle pads (0, 1), an extra F.pad


@pytest.mark.parametrize("case", TAKEN + NOT_TAKEN)
def test_which_calls_take_the_shortcut(case, monkeypatch):
    """The plain calls do not look up their paddle.nn.functional form; the others do."""
    import importlib

    entered = []
    for name in ("conv", "norm", "common"):
        mod = importlib.import_module(f"paddle_compat.paddle2.nn.{name}")
        monkeypatch.setattr(mod, "F", lambda fn, *a, real=mod.F: entered.append(fn) or real(fn, *a))
    make, shape = CASES[case]
    make()(paddle.to_tensor(np.ones(shape, "float32")))
    assert bool(entered) == (case in NOT_TAKEN), entered


def test_static_amp_and_errors_take_the_functional_form(monkeypatch):
    """In a Program the layers record Paddle's ops; under auto_cast the conv runs as the op's AMP path decides
    (the same result with the shortcuts on and off); a wrong input raises the functional form's Paddle error."""
    conv, lin = paddle.nn.Conv2D(3, 4, 3), paddle.nn.Linear(3, 2)
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            conv(paddle.static.data("x", [1, 3, 5, 5], "float32"))
        assert [op.type for op in main.global_block().ops] == ["conv2d", "elementwise_add"]
    finally:
        paddle.disable_static()
    x = paddle.to_tensor(np.ones((1, 3, 5, 5), "float32"))
    outs = []
    for on in (True, False):
        monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [on])
        with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
            outs.append(conv(x))
    assert outs[0].dtype == outs[1].dtype and (outs[0].numpy() == outs[1].numpy()).all()
    assert not (outs[0].numpy() == conv(x).numpy()).all()  # the conv ran in bfloat16
    with pytest.raises(ValueError, match="channel"):
        conv(paddle.to_tensor(np.ones((1, 2, 5, 5), "float32")))
    with pytest.raises(Exception, match="linear|matmul|shape"):
        lin(paddle.to_tensor(np.ones((2, 4), "float32")))


# the inputs' [2, 5, EMBED] and the layers' width: wide enough that one GEMM of the three projections gives each one's
# bits on the machines measured (at 8 wide, MKL on an AMD EPYC adds in another order for 24 columns than for 8), with
# heads narrow enough that torch's one-pass kernel for them gives the same product (there, heads 16 wide do not)
EMBED, HEADS = 32, 4


def _one_gemm_same() -> bool:
    """This machine's verdict on the projections of _encode / _attend as one GEMM (concat_gemm's same_bits, on a
    table of its own): where it finds other bits, the layers run the projections one by one, and the tests expect
    that instead."""
    from paddle_compat.engine.ops.nn_functional import common

    return common.one_gemm_same({}, None, torch.zeros(2, 5, EMBED), [torch.zeros(EMBED, EMBED)] * 3,
                                [torch.zeros(EMBED)] * 3)


def _kernel_same() -> bool:
    """This machine's verdict on _attend's heads written by torch's one-pass kernel (attention_heads' same_bits)."""
    from paddle_compat.engine.ops.nn_functional import common

    return common.heads_kernel_same({}, None, torch.zeros(2, 5, 3 * EMBED), torch.zeros(3 * EMBED),
                                    (HEADS, EMBED // HEADS, (EMBED // HEADS) ** -0.5))


# an encoder layer under no_grad: with the layer shortcuts, its sublayers' bodies run directly (_direct) and their fresh
# results take the residual adds and the activation in place
ENCODERS = {
    "post-norm relu": dict(activation="relu"),
    "pre-norm gelu": dict(activation="gelu", normalize_before=True),
    "masked": dict(activation="gelu", mask=True),
    "dropout in train mode": dict(activation="gelu", dropout=0.3),
}


def _encode(kw: dict, scratch: bool, hook: bool, monkeypatch) -> list[np.ndarray]:
    monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [scratch])  # off: every sublayer call is its functional form
    kw = dict(kw)
    masked = kw.pop("mask", False)
    paddle.seed(11)
    layer = paddle.nn.TransformerEncoderLayer(EMBED, HEADS, 2 * EMBED, **kw)
    layer.train() if kw.get("dropout") else layer.eval()
    kept = []
    if hook:
        layer.linear1.register_forward_post_hook(lambda ly, inp, out: kept.append(out))
    rng = np.random.RandomState(5)
    x = paddle.to_tensor(rng.standard_normal((2, 5, EMBED)).astype("float32"))
    mask = paddle.to_tensor(rng.rand(2, 1, 5, 5) > 0.3) if masked else None
    x0 = x.numpy().copy()
    with paddle.no_grad():
        y = layer(x, mask)
    np.testing.assert_array_equal(x.numpy(), x0)  # the caller's input is never written
    return [y.numpy()] + [k.numpy() for k in kept]


@pytest.mark.parametrize("hook", [False, True], ids=["", "hooked"])
@pytest.mark.parametrize("case", sorted(ENCODERS))
def test_encoder_layer_inference_in_place_keeps_the_bits(case, hook, monkeypatch):
    from paddle_compat.paddle2.nn import transformer

    calls, direct = [], []
    real = transformer._residual_add
    monkeypatch.setattr(transformer, "_residual_add", lambda r, x, s: calls.append(s) or real(r, x, s))
    layer_type = transformer.TransformerEncoderLayer
    real_direct = layer_type._direct_run
    monkeypatch.setattr(layer_type, "_direct_run", lambda self, *a: direct.append(1) or real_direct(self, *a))
    want = _encode(ENCODERS[case], False, hook, monkeypatch)
    assert calls == [False, False] and not direct
    calls.clear()
    got = _encode(ENCODERS[case], True, hook, monkeypatch)
    # the direct path tried in eval with no hook, and taken where this machine's one GEMM gives the projections' bits;
    # else the sublayer calls, in place unless a hook could keep a result
    tried = not hook and "dropout" not in ENCODERS[case]
    assert len(direct) == tried
    assert calls == ([] if tried and _one_gemm_same() else [not hook] * 2)
    assert len(got) == len(want) == 1 + hook  # with the hook: what it kept, linear1's result before the activation
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def _attend(scratch: bool, monkeypatch, hook: bool = False, cross: bool = False, masked: bool = False,
            ) -> list[np.ndarray]:
    monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [scratch])
    paddle.seed(13)
    mha = paddle.nn.MultiHeadAttention(EMBED, HEADS, need_weights=masked)
    mha.eval()
    if hook:
        mha.k_proj.register_forward_pre_hook(lambda ly, inp: None)
    rng = np.random.RandomState(2)
    x = paddle.to_tensor(rng.standard_normal((2, 5, EMBED)).astype("float32"))
    x._t[0, 0, :3] = torch.tensor([-0.0, 0.0, 1e-40])  # signed zeros and a subnormal: P("scale")'s x * s + 0.0
    other = paddle.to_tensor(rng.standard_normal((2, 5, EMBED)).astype("float32")) if cross else x
    mask = paddle.to_tensor(rng.rand(2, 1, 5, 5) > 0.3) if masked else None
    got = []
    with paddle.no_grad():
        for _ in range(2):
            out = mha(x, other, other, mask)
            got += [t.numpy() for t in (out if masked else [out])]
            mha.q_proj.weight.set_value(mha.q_proj.weight.numpy() * 2)  # a new weight: the concatenation is redone
    return got


@pytest.mark.parametrize("form", ["self", "masked", "hooked", "cross", "one GEMM differs", "kernel differs"])
def test_attention_inference_projections_keep_the_bits(form, monkeypatch):
    """Self-attention's q / k / v projections in inference run as one GEMM of the concatenated weights
    (nn_functional.common.concat_gemm), whose bias add writes the scaled q, k transposed and v in the layouts the
    attention's batched matmuls read, by torch's one-pass kernel or by three adds where that would differ, with the
    bits of the projections and heads computed op by op; not with a hook on a projection, not for cross-attention,
    and one by one where the one GEMM would give other bits."""
    from paddle_compat.engine.ops.nn_functional import common

    calls, ways = [], []
    real = common.concat_gemm
    monkeypatch.setattr(common, "concat_gemm", lambda *a: calls.append(1) or real(*a))
    for way in ("_heads_by_kernel", "_heads_by_adds"):
        monkeypatch.setattr(common, way, lambda *a, f=getattr(common, way), w=way: ways.append(w) or f(*a))
    monkeypatch.setattr(common, "_CONCAT_SAME", Verdicts(form == "one GEMM differs"))
    monkeypatch.setattr(common, "_KERNEL_SAME", Verdicts(form == "kernel differs"))
    args = (form == "hooked", form == "cross", form == "masked")
    checked = form in ("self", "masked", "kernel differs")  # forms whose one GEMM is checked on this machine
    one_gemm = checked and _one_gemm_same()
    kernel = form in ("self", "masked") and one_gemm and _kernel_same()
    want = _attend(False, monkeypatch, *args)
    assert not calls
    got = []
    for _ in range(2):  # the first call's verdicts run each way once on data of their own
        ways.clear()
        got = _attend(True, monkeypatch, *args)
    # once per call; where the one GEMM differs, again from linear_many, which then runs the projections one by one
    assert len(calls) == (0 if form in ("hooked", "cross") else 4 if one_gemm else 8)
    # checked once each (a forced verdict is not stored)
    assert list(common._CONCAT_SAME.values()) == ([one_gemm] if checked else [])
    assert list(common._KERNEL_SAME.values()) == ([kernel] if form in ("self", "masked") and one_gemm else [])
    assert ways == (["_heads_by_kernel" if kernel else "_heads_by_adds"] * 2 if one_gemm else [])
    assert len(got) == len(want) == (4 if form == "masked" else 2)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
    assert not np.array_equal(got[0], got[-1])  # the second call saw the new weight


def test_same_bits_decides_on_its_own_data():
    """same_bits decides once per key, on data of its own drawn from a private generator: a caller's degenerate
    values (zeros, where any two orders agree) do not make two formulas the same, and the global random state is
    untouched. A formula that raises is not the same."""
    from paddle_compat.engine.ops.nn_functional.common import same_bits

    zeros, verdicts = torch.zeros(3, 4), {}
    state = torch.get_rng_state()
    assert same_bits(verdicts, "double", lambda t: [t * 2], lambda t: [t + t], zeros)
    assert not same_bits(verdicts, "other", lambda t: [t * 3], lambda t: [t + t], zeros)
    assert not same_bits(verdicts, "raises", lambda t: [t.reshape(5)], lambda t: [t], zeros)
    assert not same_bits(verdicts, "fewer", lambda t: [t], lambda t: [t, t], zeros)
    assert torch.equal(torch.get_rng_state(), state)
    assert same_bits(verdicts, "double", None, None, zeros)  # decided: neither formula runs again
    assert verdicts == {"double": True, "other": False, "raises": False, "fewer": False}


# activation layer -> its constructor; each runs after a fresh result in place (layer.activate_in_place)
IN_PLACE_ACTS = {
    "ReLU": lambda: paddle.nn.ReLU(), "ReLU6": lambda: paddle.nn.ReLU6(), "Sigmoid": lambda: paddle.nn.Sigmoid(),
    "Tanh": lambda: paddle.nn.Tanh(), "Silu": lambda: paddle.nn.Silu(), "Swish": lambda: paddle.nn.Swish(),
    "Hardswish": lambda: paddle.nn.Hardswish(), "Hardsigmoid": lambda: paddle.nn.Hardsigmoid(),
    "GELU": lambda: paddle.nn.GELU(), "GELU tanh": lambda: paddle.nn.GELU(approximate=True),
    "LeakyReLU 0.2": lambda: paddle.nn.LeakyReLU(0.2),
}
# where the activation must be called: gradient recorded, a hook on the fresh result's layer (it keeps the result),
# the layer's forward replaced on the instance, a layer type that returns its input
IN_PLACE_FORMS = ["in place", "gradient", "hooked", "forward replaced", "returns its input"]


def _activate(act: str, form: str, on: bool, monkeypatch) -> tuple:
    from paddle_compat.paddle2.nn import container, layer

    monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [on])
    ran = []
    real = container.activate_in_place
    monkeypatch.setattr(container, "activate_in_place", lambda *a: ran.append(real(*a)) or ran[-1])
    first = paddle.nn.Linear(9, 9)
    first.weight.set_value(np.eye(9, dtype="float32"))  # x itself, as a new tensor (bias 0)
    if form == "returns its input":
        first = paddle.nn.Identity()
        monkeypatch.setattr(layer, "FRESH_OUTPUTS", {*layer.FRESH_OUTPUTS, paddle.nn.Identity})
    kept = []
    if form == "hooked":
        first.register_forward_post_hook(lambda ly, inp, out: kept.append(out.numpy().copy()) or
                                         kept.append(out))
    if form == "forward replaced":
        first.forward = lambda x, f=first.forward: f(x)
    net = paddle.nn.Sequential(first, IN_PLACE_ACTS[act]())
    net.eval()
    values = [-7.0, -3.0, -0.5, -0.0, 0.0, 0.5, 3.0, 7.0, 1e-40]
    x = paddle.to_tensor(np.array([values, values[::-1]], dtype="float32"), stop_gradient=form != "gradient")
    before = x.numpy().copy()
    if form == "gradient":
        out = net(x)
    else:
        with paddle.no_grad():
            out = net(x)
    assert np.array_equal(x.numpy().view(np.uint32), before.view(np.uint32))  # the input is never written
    if kept:  # what the hook kept is the linear's result, not the activation's
        np.testing.assert_array_equal(kept[1].numpy(), kept[0])
    return out.numpy(), ran


@pytest.mark.parametrize("form", IN_PLACE_FORMS)
@pytest.mark.parametrize("act", list(IN_PLACE_ACTS))
def test_activation_after_a_fresh_result_runs_in_place(act, form, monkeypatch):
    """In inference, an activation layer in a Sequential after a convolution, normalization or Linear writes its
    result into that layer's fresh output (the same kernel in its in-place form): the same bits as the layer's own
    call, over its thresholds, signed zeros and a subnormal; not where anything else could read that output."""
    want, _ = _activate(act, form, False, monkeypatch)
    got, ran = _activate(act, form, True, monkeypatch)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert ran == [form == "in place"]


# where a residual block's sum and activation must run as ops: the other operand broadcasts, or is the fresh result
# itself; a gradient is recorded; a hook on the norm keeps its result
RESIDUAL_FORMS = ["in place", "broadcast", "same memory", "gradient", "hooked"]


def _residual(form: str, on: bool, monkeypatch) -> tuple:
    from paddle_compat.paddle2.nn.layer import add_then

    monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [on])
    bn, relu = paddle.nn.BatchNorm2D(3), paddle.nn.ReLU()
    bn.eval()
    rng = np.random.RandomState(5)
    h = paddle.to_tensor(rng.standard_normal((2, 3, 4, 4)).astype("float32"), stop_gradient=form != "gradient")
    other = paddle.to_tensor(rng.standard_normal((1, 3, 1, 1) if form == "broadcast" else (2, 3, 4, 4))
                             .astype("float32"))
    kept = []
    if form == "hooked":
        bn.register_forward_post_hook(lambda ly, inp, out: kept.append(out))
    with contextlib.nullcontext() if form == "gradient" else paddle.no_grad():
        y = bn(h)
        fresh = y.numpy().copy()
        out = add_then(bn, h, y, y if form == "same memory" else other, relu)
    if out is not y:  # run as ops: the norm's result is untouched
        assert np.array_equal(y.numpy().view(np.uint32), fresh.view(np.uint32))
    return out.numpy(), out is y


@pytest.mark.parametrize("form", RESIDUAL_FORMS)
def test_residual_sum_and_activation_in_place(form, monkeypatch):
    """nn/layer.add_then (ResNet's blocks): in inference relu(y + other) into the norm's fresh result y, with the
    bits of the two ops; as ops where other broadcasts or shares y's memory, a gradient is recorded or a hook could
    keep y."""
    want, _ = _residual(form, False, monkeypatch)
    got, in_place = _residual(form, True, monkeypatch)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert in_place == (form == "in place")


@pytest.mark.parametrize("arch", ["resnet18", "resnet50"])
def test_resnet_inference_in_place_keeps_the_bits(arch, monkeypatch):
    """paddle.vision.models' ResNet in inference runs its blocks' activations and residual sums in place (call_then,
    add_then): the bits of the layers' own calls."""
    from paddle_compat.paddle2.vision.models import resnet

    sums = []
    real = resnet.add_then

    def add_then(before, given, y, *rest):  # records whether each block's sum ran into its norm's result
        out = real(before, given, y, *rest)
        sums.append(out is y)
        return out

    monkeypatch.setattr(resnet, "add_then", add_then)
    paddle.seed(3)
    net = getattr(paddle.vision.models, arch)(num_classes=10)
    net.eval()
    x = paddle.to_tensor(np.random.RandomState(0).rand(2, 3, 32, 32).astype("float32"))
    outs = []
    for on in (False, True):
        monkeypatch.setattr(dispatch, "LAYER_SHORTCUTS", [on])
        sums.clear()
        with paddle.no_grad():
            outs.append(net(x).numpy())
        assert sums == [on] * (8 if arch == "resnet18" else 16)
    np.testing.assert_array_equal(outs[1].view(np.uint32), outs[0].view(np.uint32))
