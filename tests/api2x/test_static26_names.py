"""Static programs row by row against Paddle 2.6.2 (issue 25 item 4): tests/api2x/cases_static26_names.py run here
and compared key by key with tests/goldens/static26_names (recorded by tools/oracle/rec_run26.py):

- the output variable name of each common 2.x API (`paddle.mean` -> `mean_0.tmp_0`, `paddle.add` ->
  `elementwise_add_0`, `nn.Conv2D` -> `conv2d_1.tmp_1`, `nn.LayerNorm` -> `layer_norm_1.tmp_2`, ...);
- indexing: Paddle's `slice` / `strided_slice` ops with their attributes and `x_slice_0` names, `unsqueeze2` for None;
- initializers called on existing parameters: the op goes into the main program (or the block given);
- feed / fetch ops and holder variables of normalized, serialized, saved and loaded programs, which still run.

Where 2.4 and 2.6 differ the API level decides (docs/api_levels.md); every name here is the same in both (Paddle
2.4's LayerHelper also puts a generated name into its kwargs, so `paddle.add` is `elementwise_add_0` there too).
Known differences are data: a row listed below must still differ (strict xfail)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tests.api2x import cases_static26_names as C
from tests.conftest import load_golden

_, GOLDEN = load_golden("static26_names")

# Output names / op sequences we do not match at either API level (none left: single ops of ours show Paddle's type,
# OpDef.paddle_type; APIs Paddle composes from several ops record those in a Program, OpDef.compose)
NAME_DIFFS: set = set()
OP_DIFFS: set = set()
# Rows where Paddle 2.4's Python records otherwise than 2.6.2, so at the default API level 2.4 we record 2.4's ops
# (test_level26_rows checks 2.6's): F.conv2d adds the bias without reshape2; binary_cross_entropy_with_logits makes
# its constant 1 after the op; paddle.var / std square with `** 2` (fill_constant, elementwise_pow) and cast the
# counts to x's dtype (two casts and one `tmp_N` fewer: var is tmp_6 there); F.conv1d does not assign the weight
# first; conv2d_transpose adds the bias with _add_with_axis (no reshape2, output `elementwise_add_0`)
LEVEL24_NAME_DIFFS = {"var", "nn_conv2d_transpose", "nn_conv2d_transpose_nhwc", "conv2d_transpose_fn",
                      "nn_conv2d_transpose_depthwise"}
LEVEL24_OP_DIFFS = {"bce_with_logits", "nn_conv2d", "std", "var", "conv1d", "nn_conv1d", "nn_conv1d_nlc",
                    "nn_conv2d_transpose", "conv2d_transpose_fn", "nn_conv2d_depthwise",
                    "nn_conv2d_transpose_depthwise", "nn_conv2d_nhwc"}


def _param(key: str):
    case, _, name = key.partition("/")
    row, _, what = name.rpartition("__")
    if case == "api_names" and ((what == "names" and row in NAME_DIFFS) or (what == "ops" and row in OP_DIFFS)):
        return pytest.param(key, marks=pytest.mark.xfail(strict=True, reason="known difference (see NAME_DIFFS / "
                                                                                  "OP_DIFFS)"))
    if case == "api_names" and ((what == "ops" and row in LEVEL24_OP_DIFFS) or
                                (what == "names" and row in LEVEL24_NAME_DIFFS)):
        return pytest.param(key, marks=pytest.mark.xfail(strict=True, reason="Paddle 2.4 records these ops otherwise "
                                                                                  "(API level 2.4; LEVEL24_*_DIFFS)"))
    return key


KEYS = sorted(GOLDEN)


@functools.lru_cache(maxsize=None)
def _run(case: str) -> dict:
    import paddle

    return C.CASES[case](paddle)


@pytest.mark.parametrize("key", [_param(k) for k in KEYS])
def test_static26_names_match_paddle(key):
    case, _, name = key.partition("/")
    got = _run(case)
    assert name in got, f"{key}: not produced (ours: {sorted(k for k in got if k.startswith(name[:8]))})"
    want, have = GOLDEN[key], np.asarray(got[name])
    if want.dtype.kind == "U":
        assert have.tolist() == want.tolist(), key
    elif want.dtype.kind in "biu" or name.endswith("__shape"):
        assert have.reshape(-1).tolist() == want.reshape(-1).tolist(), key
    else:  # 2.6's 0-D results are shape [1] here (2.4): compare values
        assert have.size == want.size, f"{key}: {have.shape} vs {want.shape}"
        np.testing.assert_allclose(have.reshape(-1), want.reshape(-1), rtol=1e-5, atol=1e-6, err_msg=key)


def test_every_row_was_recorded():
    """The golden covers every row of the tables (a row Paddle could not run would be recorded as its error)."""
    assert {f"api_names/{r}__names" for r in C.API_ROWS} <= set(GOLDEN)
    assert {f"indexing/{r}__ops" for r in C.INDEX_ROWS} <= set(GOLDEN)
    assert not [k for k in GOLDEN if k.endswith("__error") and k.startswith("api_names/")]


def test_known_differences_are_rows():
    assert NAME_DIFFS | OP_DIFFS | LEVEL24_NAME_DIFFS | LEVEL24_OP_DIFFS <= set(C.API_ROWS)


_LEVEL26 = """
import json, sys
import numpy as np
import paddle
from tests.api2x import cases_static26_names as C
print(json.dumps({k: np.asarray(v).tolist() for k, v in C.api_names(paddle).items()}))
"""


def test_level26_rows():
    """At API level 2.6 (a process of its own: the level is chosen once per process) every names / ops row matches
    Paddle 2.6.2, LEVEL24_*_DIFFS included (2.6's reshape2 of the conv bias, fill_constant before
    sigmoid_cross_entropy_with_logits, paddle.var's pow and int64 counts)."""
    import json
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PADDLE_COMPAT_API_LEVEL": "2.6",
           "PYTHONPATH": os.pathsep.join([root, os.path.join(root, "shims"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", _LEVEL26], env=env, cwd=root, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    known = {f"{r}__names" for r in NAME_DIFFS} | {f"{r}__ops" for r in OP_DIFFS}
    rows = [k.partition("/")[2] for k in KEYS if k.startswith("api_names/") and k.partition("/")[2] not in known]
    assert {f"{r}__ops" for r in LEVEL24_OP_DIFFS} | {f"{r}__names" for r in LEVEL24_NAME_DIFFS} <= set(rows)
    bad = {r: (got.get(r), GOLDEN[f"api_names/{r}"].tolist()) for r in rows if got.get(r) != GOLDEN[f"api_names/{r}"].tolist()}
    assert not bad, bad


def test_feed_check_names_the_missing_target():
    """A program with feed ops fed without one of their targets: Paddle's 'feed_targets' error, with both lists."""
    import paddle

    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [-1, 2], "float32")
            y = paddle.static.data("y", [-1, 2], "float32")
            z = x + y
        norm = paddle.static.normalize_program(main, [x, y], [z])
        exe = paddle.static.Executor(paddle.CPUPlace())
        with pytest.raises(ValueError, match=r"'feed_targets' does not have y variable.*\['y', 'x'\]"):
            exe.run(norm, feed={"x": np.ones((1, 2), "float32")}, fetch_list=[z])
        (out,) = exe.run(norm, feed={"x": np.ones((1, 2), "float32"), "y": np.ones((1, 2), "float32")},
                         fetch_list=[z])
        np.testing.assert_array_equal(out, np.full((1, 2), 2.0, "float32"))
    finally:
        paddle.disable_static()


# rows whose ops are Paddle's types over ours (paddle_type) or compositions of registry ops (compose)
_IO_ROWS = ("max_pool2d", "adaptive_avg_pool2d", "interpolate", "clip", "chunk", "sort", "pow_tensor", "norm",
            "zeros_like", "arange", "cross_entropy", "cross_entropy_none", "mse_loss", "l1_loss", "bce_with_logits",
            "normalize", "pad", "std", "var", "nn_conv2d", "conv1d", "nn_conv1d", "nn_conv1d_nlc",
            "nn_conv1d_transpose", "max_pool1d", "max_pool1d_mask", "avg_pool1d", "nn_avgpool1d", "adaptive_avg_pool1d",
            "adaptive_max_pool1d", "nn_conv2d_transpose", "nn_conv2d_transpose_nhwc", "conv2d_transpose_fn",
            "nn_conv3d_transpose", "cross_entropy_ignore", "nn_crossentropyloss_ignore", "nn_conv2d_depthwise",
            "nn_conv2d_transpose_depthwise", "nn_conv1d_transpose_depthwise")


# ops the saved program prunes (their output feeds no target; Paddle prunes them too): (row, op type)
_PRUNED = {("bce_with_logits", "fill_constant")}


def _body_ops(prog) -> list:
    return [op.type for op in prog.global_block().ops if op.type not in ("feed", "fetch")]


@pytest.mark.parametrize("row", _IO_ROWS)
def test_recorded_forms_run_serialize_save_and_load(row, tmp_path):
    """The programs of these rows run; serialize_program / deserialize_program and save_inference_model /
    load_inference_model keep their op types (Paddle's; plus the `scale` per fetch target both add, as Paddle does)
    and give the same values."""
    import os

    import paddle

    rng = np.random.RandomState(0)
    data = {"x": ([-1, 4, 6], "float32"), "y": ([-1, 4, 6], "float32"), "lab": ([-1, 1], "int64"),
            "img": ([-1, 4, 6, 6], "float32"), "ids": ([-1, 3], "int64")}
    values = {"x": rng.rand(2, 4, 6).astype("float32"), "y": rng.rand(2, 4, 6).astype("float32") + 0.5,
              "lab": rng.randint(0, 24, (2, 1)).astype("int64"), "img": rng.rand(2, 4, 6, 6).astype("float32"),
              "ids": rng.randint(0, 4, (2, 3)).astype("int64")}
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            v = {k: paddle.static.data(k, s, d) for k, (s, d) in data.items()}
            out = C.API_ROWS[row](paddle, paddle.nn.functional, v)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        types = [op.type for op in main.global_block().ops]
        used = [v[k] for k in data if any(k in op.input_arg_names for op in main.global_block().ops)]
        feed = {x.name: values[x.name] for x in used}
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        want = exe.run(main, feed=feed, fetch_list=outs)
        ser = paddle.static.deserialize_program(paddle.static.serialize_program(used, outs, program=main))
        kept = [t for t in types if (row, t) not in _PRUNED]
        assert _body_ops(ser) == kept + ["scale"] * len(outs)
        paddle.static.save_inference_model(os.path.join(str(tmp_path), "m"), used, outs, exe, program=main)
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(str(tmp_path), "m"), exe)
        assert _body_ops(prog) == kept + ["scale"] * len(outs)
        got = exe.run(prog, feed={k: feed[k] for k in feeds}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    for w, g in zip(want, got):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
