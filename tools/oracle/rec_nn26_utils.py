"""Record tests/goldens/nn26_utils from real Paddle 2.6.2: paddle.nn.utils (weight_norm / remove_weight_norm,
spectral_norm, clip_grad_norm_ / clip_grad_value_, parameters_to_vector / vector_to_parameters) and the
deterministic paddle.nn.initializer additions (Bilinear, Dirac, calculate_gain, set_global_initializer), on the
cases of utils26_cases.py. Run with /work/oracle/p26 from /tmp with PYTHONPATH unset."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy.random  # noqa: E402,F401 - before paddle (its zlib breaks the lazy numpy.random import)
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402,F401 - read by eval
import paddle.nn.utils as U  # noqa: E402,F401 - read by eval

from _common import save  # noqa: E402
import utils26_cases as C  # noqa: E402


def run_hook_case(cid, ctor, call, in_shape, arrays, meta, spectral):
    paddle.seed(1)
    layer = eval(ctor)
    sd0 = layer.state_dict()
    params = {k: C.values(cid + k, list(v.shape)) for k, v in sd0.items()}
    layer.set_state_dict(params)
    for k, v in params.items():
        arrays[f"{cid}__init__{k}"] = v
    eval(call)
    sd = layer.state_dict()
    rec = {"keys": list(sd.keys()), "shapes": [list(v.shape) for v in sd.values()],
           "params": [n for n, _ in layer.named_parameters()]}
    if spectral:  # the power-iteration vectors start random: set them
        uv = {k: C.values(cid + k, list(sd[k].shape)) for k in sd if k.endswith("_u") or k.endswith("_v")}
        layer.set_state_dict(uv)
        for k, v in uv.items():
            arrays[f"{cid}__set__{k}"] = v
    for k, v in layer.state_dict().items():
        arrays[f"{cid}__before__{k}"] = v.numpy()
    x = paddle.to_tensor(C.values(cid + "x", in_shape, 1.0), stop_gradient=False)
    layer.train()
    out = layer(x)
    arrays[f"{cid}__out"] = out.numpy()
    (out * paddle.to_tensor(C.loss_weights(list(out.shape)))).sum().backward()
    arrays[f"{cid}__xgrad"] = x.grad.numpy()
    for n, p in layer.named_parameters():
        if p.grad is not None:
            arrays[f"{cid}__grad__{n}"] = p.grad.numpy()
    for k, v in layer.state_dict().items():
        arrays[f"{cid}__after__{k}"] = v.numpy()
    if spectral:
        layer.eval()
        arrays[f"{cid}__out_eval"] = layer(x).numpy()
    else:
        U.remove_weight_norm(layer)
        rec["removed_keys"] = list(layer.state_dict().keys())
        arrays[f"{cid}__removed__weight"] = layer.weight.numpy()
    meta[cid] = rec


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    arrays, meta = {}, {"paddle_version": paddle.__version__}
    for cid, ctor, call, shape in C.WEIGHT_NORM:
        run_hook_case(cid, ctor, call, shape, arrays, meta, False)
    for cid, ctor, call, shape in C.SPECTRAL_NORM:
        run_hook_case(cid, ctor, call, shape, arrays, meta, True)
    # clipping: two parameters with set gradients
    for nt in C.CLIP_NORM_TYPES:
        ps = [paddle.create_parameter([2, 3], "float32"), paddle.create_parameter([4], "float32")]
        for i, p in enumerate(ps):
            p.grad = paddle.to_tensor(C.values(f"clip{i}", list(p.shape), 2.0))
        total = U.clip_grad_norm_(ps, max_norm=0.5, norm_type=nt)
        arrays[f"clipnorm_{nt}__total"] = total.numpy()
        for i, p in enumerate(ps):
            arrays[f"clipnorm_{nt}__grad{i}"] = p.grad.numpy()
    ps = [paddle.create_parameter([2, 3], "float32"), paddle.create_parameter([4], "float32")]
    for i, p in enumerate(ps):
        p.grad = paddle.to_tensor(C.values(f"clip{i}", list(p.shape), 2.0))
    U.clip_grad_value_(ps, 0.7)
    for i, p in enumerate(ps):
        arrays[f"clipvalue__grad{i}"] = p.grad.numpy()
    # parameters <-> vector
    layer = nn.Linear(3, 2)
    layer.set_state_dict({"weight": C.values("p2v_w", [3, 2]), "bias": C.values("p2v_b", [2])})
    vec = U.parameters_to_vector(layer.parameters())
    arrays["p2v__vec"] = vec.numpy()
    meta["p2v"] = {"stop_gradient": vec.stop_gradient}
    U.vector_to_parameters(paddle.to_tensor(C.values("v2p", [8])), layer.parameters())
    arrays["v2p__weight"], arrays["v2p__bias"] = layer.weight.numpy(), layer.bias.numpy()
    # initializers
    init = nn.initializer
    for i, shape in enumerate(C.BILINEAR_SHAPES):
        p = paddle.create_parameter(shape, "float32", default_initializer=init.Bilinear())
        arrays[f"bilinear_{i}"] = p.numpy()
    for i, (shape, groups) in enumerate(C.DIRAC):
        p = paddle.create_parameter(shape, "float32", default_initializer=init.Dirac(groups))
        arrays[f"dirac_{i}"] = p.numpy()
    meta["gains"] = [init.calculate_gain(n, prm) for n, prm in C.GAINS]
    init.set_global_initializer(init.Constant(0.25), init.Constant(-0.5))
    lin = nn.Linear(2, 3)
    own = nn.Linear(2, 3, weight_attr=paddle.ParamAttr(initializer=init.Constant(2.0)))
    arrays["global__weight"], arrays["global__bias"], arrays["global__own_weight"] = \
        lin.weight.numpy(), lin.bias.numpy(), own.weight.numpy()
    init.set_global_initializer(None)
    save("nn26_utils", arrays, meta)


if __name__ == "__main__":
    main()
