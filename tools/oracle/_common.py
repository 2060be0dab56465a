"""Shared helpers for the golden recorders (runs inside the Paddle venvs; py3.8+).

Nothing here imports paddle_compat: these scripts only ever run against real Paddle.
"""
import json
import os
import re
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN_DIR = os.path.join(REPO, "tests", "goldens")


def _jsonable(o):
    if isinstance(o, dict):
        return {str(k): _jsonable(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_jsonable(v) for v in o]
    if isinstance(o, np.ndarray):
        return _jsonable(o.tolist())
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, (np.bool_,)):
        return bool(o)
    if isinstance(o, (str, int, float, bool)) or o is None:
        return o
    return str(o)


def cpu():
    """(vendor id, model name) of this machine's CPU from /proc/cpuinfo ("" where it does not say): a GEMM's order of
    additions is MKL's choice for the CPU it runs on, so bits recorded on one vendor's CPU can differ on another's."""
    found = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                found.setdefault(k.strip(), v.strip())
    except OSError:
        pass
    return found.get("vendor_id", ""), found.get("model name", "")


def save(case, arrays, meta):
    """Write tests/goldens/<case>.npz (arrays) and tests/goldens/<case>.json (meta, with the recording machine's
    cpu_vendor and cpu_model)."""
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    for k, v in arrays.items():
        assert v.dtype != object, k
    np.savez_compressed(os.path.join(GOLDEN_DIR, case + ".npz"), **arrays)
    meta = dict(meta)
    meta["case"] = case
    meta["python"] = sys.version.split()[0]
    meta["numpy"] = np.__version__
    meta["cpu_vendor"], meta["cpu_model"] = cpu()
    meta["npz_keys"] = {k: [list(v.shape), str(v.dtype)] for k, v in sorted(arrays.items())}
    with open(os.path.join(GOLDEN_DIR, case + ".json"), "w") as f:
        json.dump(_jsonable(meta), f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", case, "arrays:", len(arrays), "bytes:",
          os.path.getsize(os.path.join(GOLDEN_DIR, case + ".npz")))


def save_json(case, out):
    """Write tests/goldens/<case>.json (plain data, no arrays file) and say so."""
    path = os.path.join(GOLDEN_DIR, case + ".json")
    with open(path, "w") as f:
        json.dump(_jsonable(out), f, indent=0, sort_keys=True)
        f.write("\n")
    print("wrote", path, os.path.getsize(path))


def err_record(fn):
    """Run fn(); return {'raised': bool, 'type', 'mro', 'message', 'first_line'} of its exception."""
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - we record whatever real Paddle raises
        msg = str(e)
        marker = "Error Message Summary:"
        if marker in msg:
            # Paddle C++ errors: drop the C++ call stack, keep the summary block.
            core = msg.split(marker, 1)[1].lstrip("\n-").strip()
        elif "In user code:" in msg:
            # Paddle 2.x static errors: drop the Python "In user code" frames (they hold local paths).
            lines = msg.splitlines()
            idx = [i for i, l in enumerate(lines) if re.match(r"\s*[A-Za-z]+Error: ", l)]
            core = "\n".join(l.strip() for l in lines[idx[0]:]) if idx else msg.strip()
        else:
            core = msg.strip()
        msg = msg.replace(REPO, "<repo>").replace(sys.prefix, "<venv>")
        core = core.replace(REPO, "<repo>").replace(sys.prefix, "<venv>")
        return {
            "raised": True,
            "type": type(e).__name__,
            "module": type(e).__module__,
            "mro": [c.__name__ for c in type(e).__mro__],
            "core": core,
            "core_first_line": core.splitlines()[0] if core else "",
            "message": msg,
        }
    return {"raised": False}


def var_table(block):
    """name -> {shape, dtype, type, persistable, stop_gradient, lod_level?} for a Program block."""
    out = {}
    for name, v in block.vars.items():
        rec = {"shape": list(v.shape) if v.shape is not None else None,
               "dtype": str(v.dtype), "type": str(v.type),
               "persistable": bool(v.persistable)}
        try:
            rec["stop_gradient"] = bool(v.stop_gradient)
        except Exception:
            pass
        try:
            rec["lod_level"] = int(v.lod_level)
        except Exception:
            pass
        try:
            rec["is_parameter"] = type(v).__name__ in ("Parameter", "EagerParamBase")
        except Exception:
            pass
        out[name] = rec
    return out


def op_table(block):
    """List of {type, inputs, outputs, op_role} for every op of a block, in order."""
    ops = []
    for op in block.ops:
        rec = {"type": op.type,
               "inputs": {k: list(op.input(k)) for k in op.input_names},
               "outputs": {k: list(op.output(k)) for k in op.output_names}}
        try:
            rec["op_role"] = int(op.attr("op_role"))
        except Exception:
            pass
        ops.append(rec)
    return ops


def fit_a_line_data():
    """Shared data for cases A and B: 30 batches of 20, x [20,13], y [20,1], plus initial fc params."""
    rs = np.random.RandomState(1234)
    true_w = rs.uniform(-1, 1, size=(13, 1)).astype("float32")
    xs = rs.uniform(-1, 1, size=(30, 20, 13)).astype("float32")
    ys = (xs @ true_w + 0.5 + 0.05 * rs.randn(30, 20, 1)).astype("float32")
    w0 = (0.1 * rs.randn(13, 1)).astype("float32")
    b0 = np.array([0.2], dtype="float32")
    return xs, ys, w0, b0


def convbn_data():
    """Shared data/params for cases E and F (same arrays, so the two can be cross-checked)."""
    rs = np.random.RandomState(2024)
    xs = rs.randn(5, 8, 1, 8, 8).astype("float32")
    labels = rs.randint(0, 3, size=(5, 8, 1)).astype("int64")
    conv_w = (0.3 * rs.randn(4, 1, 3, 3)).astype("float32")
    conv_b = (0.1 * rs.randn(4)).astype("float32")
    bn_w = (1.0 + 0.1 * rs.randn(4)).astype("float32")
    bn_b = (0.1 * rs.randn(4)).astype("float32")
    bn_mean = np.zeros(4, "float32")
    bn_var = np.ones(4, "float32")
    fc_w = (0.2 * rs.randn(64, 3)).astype("float32")
    fc_b = (0.05 * rs.randn(3)).astype("float32")
    x_eval = rs.randn(6, 1, 8, 8).astype("float32")
    return dict(xs=xs, labels=labels, conv_w=conv_w, conv_b=conv_b, bn_w=bn_w, bn_b=bn_b,
                bn_mean=bn_mean, bn_var=bn_var, fc_w=fc_w, fc_b=fc_b, x_eval=x_eval)


def mlp_data():
    """Shared data/params for cases C (2.6.2) and C2 (1.8.5): 20 batches of 16, 4 classes."""
    rs = np.random.RandomState(77)
    teacher = rs.randn(20, 4).astype("float32")
    xs = rs.randn(20, 16, 20).astype("float32")
    labels = np.argmax(xs @ teacher + 0.5 * rs.randn(20, 16, 4), axis=-1)[..., None].astype("int64")
    x_test = rs.randn(32, 20).astype("float32")
    y_test = np.argmax(x_test @ teacher + 0.5 * rs.randn(32, 4), axis=-1)[..., None].astype("int64")

    def glorot(i, o):
        return (rs.randn(i, o) * np.sqrt(2.0 / (i + o))).astype("float32")

    params = {
        "fc_0.w_0": glorot(20, 32), "fc_0.b_0": (0.01 * rs.randn(32)).astype("float32"),
        "fc_1.w_0": glorot(32, 32), "fc_1.b_0": (0.01 * rs.randn(32)).astype("float32"),
        "fc_2.w_0": glorot(32, 4), "fc_2.b_0": (0.01 * rs.randn(4)).astype("float32"),
    }
    return xs, labels, x_test, y_test, params


def npz_name(var_name):
    """Paddle var name -> npz key (npz keys may not contain '.' or '@' comfortably)."""
    return var_name.replace(".", "_").replace("@", "_AT_")


def static_run(paddle, build, feed, shapes=False):
    """Build a program with build(paddle) -> {name: Variable}, run it once on CPU, return the fetched arrays; with
    `shapes`, also each output's recorded (static) shape as `<name>_static_shape`."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            outs = build(paddle)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        vals = exe.run(main, feed=feed, fetch_list=list(outs.values()))
        res = {k: np.asarray(v) for k, v in zip(outs, vals)}
        if shapes:
            res.update({k + "_static_shape": np.array(list(v.shape)) for k, v in outs.items()})
        return res
    finally:
        paddle.disable_static()
