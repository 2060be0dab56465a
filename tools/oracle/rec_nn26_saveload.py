"""paddle.save / paddle.load formats of Paddle 2.6.2: writes small .pdparams / .pdopt / tensor / nested files
under tests/goldens/nn26_saveload/ plus a json describing what real Paddle loads back.

Run with /work/oracle/p26 from /tmp with PYTHONPATH unset. With `--check DIR` it instead loads every file
our layer wrote into DIR (see tests/nn/test_saveload.py::test_write_files_for_real_paddle) with real Paddle and
prints a json report (used at recording time to prove our files load in real Paddle)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402

from _common import GOLDEN_DIR, save  # noqa: E402


def describe(obj):
    if isinstance(obj, paddle.Tensor):
        return {"type": "Tensor", "name": obj.name, "shape": list(obj.shape), "dtype": str(obj.dtype),
                "sum": float(obj.numpy().astype("float64").sum())}
    if isinstance(obj, np.ndarray):
        return {"type": "ndarray", "shape": list(obj.shape), "dtype": str(obj.dtype),
                "sum": float(obj.astype("float64").sum())}
    if isinstance(obj, dict):
        return {"type": type(obj).__name__, "items": {str(k): describe(v) for k, v in obj.items()}}
    if isinstance(obj, (list, tuple)):
        return {"type": type(obj).__name__, "items": [describe(v) for v in obj]}
    return {"type": type(obj).__name__, "value": obj}


def check(d):
    out = {}
    for f in sorted(os.listdir(d)):
        try:
            out[f] = describe(paddle.load(os.path.join(d, f)))
        except Exception as e:  # noqa: BLE001
            out[f] = {"error": f"{type(e).__name__}: {e}"}
        if f.endswith(".pdparams"):
            net = paddle.nn.Sequential(paddle.nn.BatchNorm1D(3), paddle.nn.Linear(3, 4))  # saveload_cases.write_our_files
            try:
                net.set_state_dict(paddle.load(os.path.join(d, f)))
                out[f]["set_state_dict_ok"] = True
            except Exception as e:  # noqa: BLE001
                out[f]["set_state_dict_ok"] = f"{type(e).__name__}: {e}"
        if f.endswith(".pdiparams") or f.endswith(".bin"):
            pass
    print(json.dumps(out, indent=1, sort_keys=True))


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    d = os.path.join(GOLDEN_DIR, "nn26_saveload")
    os.makedirs(d, exist_ok=True)
    rng = np.random.RandomState(7)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    init = {k: rng.standard_normal(v.shape).astype("float32") for k, v in net.state_dict().items()}
    init["1._variance"] = np.abs(init["1._variance"]) + 0.5
    net.set_state_dict(init)
    opt = paddle.optimizer.Adam(learning_rate=paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5),
                                parameters=net.parameters())
    x = paddle.to_tensor(rng.standard_normal((5, 3)).astype("float32"))
    loss = net(x).mean()
    loss.backward()
    opt.step()
    opt._learning_rate.step()
    paddle.save(net.state_dict(), os.path.join(d, "net.pdparams"))
    paddle.save(opt.state_dict(), os.path.join(d, "adam.pdopt"))
    t = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    paddle.save(t, os.path.join(d, "tensor.pdtensor"))
    paddle.save({"a": [1, 2.5, "s"], "b": t, "c": {"d": np.ones(2, "int64")}}, os.path.join(d, "nested.pdobj"))
    meta = {"paddle_version": paddle.__version__, "program": "Sequential(Linear(3,4), BatchNorm1D(4)); "
            "Adam(StepDecay(0.1,2,0.5)); one step; paddle.save of state_dict, opt state_dict, tensor, nested"}
    meta["loaded"] = {f: describe(paddle.load(os.path.join(d, f))) for f in sorted(os.listdir(d))}
    meta["net_state_dict_names"] = {k: v.name for k, v in net.state_dict().items()}
    meta["opt_state_dict_keys"] = sorted(opt.state_dict().keys())
    arrays = {"x": x.numpy()}
    for k, v in net.state_dict().items():
        arrays["final__" + k] = v.numpy()
    for k, v in opt.state_dict().items():
        if isinstance(v, paddle.Tensor):
            arrays["opt__" + k] = v.numpy()
    meta["lr_scheduler_state"] = opt.state_dict()["LR_Scheduler"]
    save("nn26_saveload", arrays, meta)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        main()
