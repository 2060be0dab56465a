"""Run PaddleClas's PPHGNet_tiny (release/2.5, ppcls/arch/backbone/legendary_models/pp_hgnet.py) from a checkout
outside this repository, with parameters and input from one seeded stream, one training step's forward and
backward, and save the output, the loss and every parameter gradient (issue 25 item 3). The same script runs under
real Paddle 2.6.2 and under paddle_compat, so the two .npz files compare entry by entry.

    git -C /work/.mirror/PaddlePaddle+PaddleClas/repo archive release/2.5 ppcls/arch/backbone/base \\
        ppcls/arch/backbone/legendary_models/pp_hgnet.py | tar -x -C /tmp/clas
    cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python <repo>/tools/models/pphgnet_grads.py /tmp/clas p26.npz
    cd /tmp && PYTHONPATH=<repo>:<repo>/shims python <repo>/tools/models/pphgnet_grads.py /tmp/clas ours.npz

Optional arguments: image size (64), batch (2), seed (2025), dtype (float32).

Only pp_hgnet.py and the TheseusLayer base are imported (their package __init__ files pull in the whole of
ppcls); ppcls.utils' logger and save_load are stand-ins (pretrained weights are never loaded).
"""

import importlib
import os
import sys
import types

import numpy as np


def _package(name, path=None):
    mod = types.ModuleType(name)
    mod.__path__ = [path] if path else []
    sys.modules[name] = mod
    return mod


def load_pphgnet(clas_root):
    base = os.path.join(clas_root, "ppcls")
    _package("ppcls", base)
    _package("ppcls.arch", os.path.join(base, "arch"))
    _package("ppcls.arch.backbone", os.path.join(base, "arch", "backbone"))
    _package("ppcls.arch.backbone.base", os.path.join(base, "arch", "backbone", "base"))
    _package("ppcls.arch.backbone.legendary_models", os.path.join(base, "arch", "backbone", "legendary_models"))
    utils = _package("ppcls.utils")
    logger = types.ModuleType("ppcls.utils.logger")
    logger.warning = logger.info = logger.error = lambda *a, **k: None
    save_load = types.ModuleType("ppcls.utils.save_load")
    save_load.load_dygraph_pretrain = save_load.load_dygraph_pretrain_from_url = lambda *a, **k: None
    utils.logger, utils.save_load = logger, save_load
    sys.modules["ppcls.utils.logger"], sys.modules["ppcls.utils.save_load"] = logger, save_load
    return importlib.import_module("ppcls.arch.backbone.legendary_models.pp_hgnet")


def main(clas_root, out_path, size=64, batch=2, seed=2025, dtype="float32"):
    import paddle

    paddle.set_device("cpu")
    paddle.set_default_dtype(dtype)
    mod = load_pphgnet(clas_root)
    model = mod.PPHGNet_tiny(class_num=10)
    model.train()
    rs = np.random.RandomState(seed)
    for name, v in sorted(model.state_dict().items()):
        shape = list(v.shape)
        if name.endswith("_variance"):
            val = 1.0 + 0.2 * rs.rand(*shape)
        elif name.endswith("_mean"):
            val = 0.1 * rs.randn(*shape)
        elif len(shape) == 4:
            val = rs.randn(*shape) * np.sqrt(2.0 / max(1, int(np.prod(shape[1:]))))
        elif len(shape) == 2:
            val = rs.randn(*shape) * 0.05
        elif name.endswith("weight"):  # BN scale
            val = 1.0 + 0.1 * rs.randn(*shape)
        else:
            val = 0.1 * rs.randn(*shape)
        v.set_value(val.astype(dtype))
    x = paddle.to_tensor(rs.rand(batch, 3, size, size).astype(dtype))
    label = paddle.to_tensor(rs.randint(0, 10, (batch, 1)).astype("int64"))
    out = model(x)
    loss = paddle.nn.functional.cross_entropy(out, label)
    loss.backward()
    arrays = {"out": out.numpy(), "loss": np.asarray(loss.numpy()).reshape(-1)}
    for name, p in model.named_parameters():
        if p.grad is not None:
            arrays["grad/" + name] = p.grad.numpy()
    for name, v in model.state_dict().items():
        if name.endswith(("_mean", "_variance")):
            arrays["state/" + name] = v.numpy()
    np.savez(out_path, **arrays)
    print("saved", out_path, len(arrays))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *[int(v) for v in sys.argv[3:6]], *sys.argv[6:7])
