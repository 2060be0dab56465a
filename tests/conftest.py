"""Shared fixtures: every test starts from fresh default programs, scope, unique names and mode."""

from __future__ import annotations

import os

import numpy as np
import pytest

GOLDENS = os.path.join(os.path.dirname(__file__), "goldens")


def pytest_configure(config):
    """On a CUDA machine the dygraph tests already run on gpu:0 (Paddle's default place there).

    - TF32 stays off for cuDNN too, so the goldens (recorded in fp32 on CPU) are compared at fp32 precision.
    - PADDLE_COMPAT_TEST_ON_GPU=1 also runs every `CPUPlace()` of the tests on gpu:0, so the static programs,
      executors and data-parallel replicas the tests build with CPUPlace run on CUDA as well. It is for that
      check only: a Place keeps reporting itself as CPUPlace.
    """
    import torch

    if not torch.cuda.is_available():
        return
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    if os.environ.get("PADDLE_COMPAT_TEST_ON_GPU") == "1":
        from paddle_compat.engine.core.place import CPUPlace

        CPUPlace.torch_device = lambda self: torch.device("cuda", 0)


@pytest.fixture(autouse=True)
def fresh_paddle_state():
    import paddle  # noqa: F401 - fills the registry
    from paddle_compat.engine.core import mode
    from paddle_compat.engine.framework import program, scope, unique_name

    old = (mode.MODE.static, mode.MODE.explicit, mode.MODE.dygraph_used)
    program._main[0] = program.Program()
    program._startup[0] = program.Program()
    scope._global[0] = scope.Scope()
    gen = unique_name.switch()
    # tests are 2.x-style unless they say otherwise: fluid.layers' creation ops run eagerly in them (whether an
    # earlier test left Tensors alive must not matter); tests/test_mode.py runs fresh processes for the 1.x rule
    mode.MODE.static, mode.MODE.explicit, mode.MODE.dygraph_used = False, False, True
    try:
        yield
    finally:
        unique_name.switch(gen)
        mode.MODE.static, mode.MODE.explicit, mode.MODE.dygraph_used = old


@pytest.fixture
def no_integer_gradients():
    """The test starts with the process-wide integer-gradient flag off: once an earlier test gave an integer Tensor
    stop_gradient=False it stays set, and every shortcut (the ops' and layers' Python and native ones) then steps
    aside for the general path; tests of the shortcuts themselves use this."""
    from paddle_compat.engine.framework.tensor import INT_GRAD

    prev, INT_GRAD[0] = INT_GRAD[0], False
    yield
    INT_GRAD[0] = prev


def load_golden(case: str):
    import json

    with open(os.path.join(GOLDENS, f"{case}.json"), encoding="utf-8") as f:
        meta = json.load(f)
    arrays = dict(np.load(os.path.join(GOLDENS, f"{case}.npz")))
    return meta, arrays


def run_saved_model(prefix: str, feeds: list, loader: str, input_names=None, output_names=None) -> list:
    """A model real Paddle saved at `prefix` (.pdmodel / .pdiparams), run on `feeds` (numpy arrays, in order) by
    `loader` "jit.load" (paddle.jit.load) or "inference" (a paddle.inference Predictor, whose input / output names
    must equal `input_names` / `output_names` when given): its outputs as numpy arrays."""
    import paddle

    if loader == "jit.load":
        return [o.numpy() for o in paddle.jit.load(prefix)(*[paddle.to_tensor(v) for v in feeds])]
    pred = paddle.inference.create_predictor(paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    if input_names is not None:
        assert pred.get_input_names() == input_names
    for n, v in zip(pred.get_input_names(), feeds):
        pred.get_input_handle(n).copy_from_cpu(v)
    pred.run()
    if output_names is not None:
        assert pred.get_output_names() == output_names
    return [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]


def replay_case18(cases: dict, golden: str, case: str) -> tuple[dict, dict]:
    """One case of a 1.8 `CASES` table ({name: fn(fluid) -> {key: array}}, recorded by tools/oracle/rec_run18.py as
    "<case>/<key>") run here in static mode, and its golden arrays: (got, want), with the same keys."""
    import paddle

    _, arrays = load_golden(golden)
    paddle.enable_static()
    got = cases[case](paddle.fluid)
    want = {k.split("/", 1)[1]: v for k, v in arrays.items() if k.startswith(case + "/")}
    assert sorted(got) == sorted(want)
    return got, want


def replay_run(cases, golden: str) -> tuple[dict, dict]:
    """A cases module's `run(api)` here, with the API its golden was recorded with (rec_run18.py: `fluid`, in
    static mode; rec_run26.py: `paddle`, in dygraph), and the golden's arrays: (got, want)."""
    import paddle

    _, want = load_golden(golden)
    if golden.endswith("18"):
        paddle.enable_static()
        try:
            return cases.run(paddle.fluid), want
        finally:
            paddle.disable_static()
    paddle.disable_static()
    return cases.run(paddle), want


def assert_golden_bits(got: np.ndarray, want: np.ndarray, meta: dict, what: str) -> None:
    """`got` is the golden `want` bit for bit on a CPU of the vendor the golden was recorded on (json `cpu_vendor`):
    the GEMMs of both frameworks are MKL's, whose order of additions is chosen per CPU, and on another vendor's CPU
    real Paddle itself gives other bits (an AMD EPYC against a golden from an Intel Xeon). There, to rounding."""
    from paddle_compat.engine.core.gemm import cpu_vendor

    got = np.asarray(got)
    if cpu_vendor() == meta["cpu_vendor"]:
        assert got.tobytes() == want.tobytes(), what
    else:
        tol = 1e-12 if want.dtype == np.float64 else 1e-5
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max())), err_msg=what)


def assert_close_scaled(got, want, eps: float) -> None:
    """torch tensors equal to rounding: within eps relative, and eps of want's largest magnitude absolute (a sum of
    many products that cancels to near 0 keeps the rounding of its terms, as two GEMM kernels' orders differ)."""
    import torch

    got, want = got.detach(), want.detach()
    torch.testing.assert_close(got, want, rtol=eps, atol=eps * float(want.abs().max()))


def key(prefix: str, name: str) -> str:
    """The goldens' npz key for a Paddle variable name (tests/goldens/README.md)."""
    return f"{prefix}__{name.replace('.', '_').replace('@', '_AT_')}"


def check_case26(golden: dict, cases: dict, name: str, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Run `cases[name](paddle)` (a case module of tools/oracle/rec_run26.py) and compare each output with
    golden["<name>/<key>"]: strings and bools exactly, numbers to tolerance; Paddle 2.6's 0-D values by value
    (we give shape [1], as Paddle 2.4)."""
    import paddle

    paddle.disable_static()
    got = {f"{name}/{k}": np.asarray(v) for k, v in cases[name](paddle).items()}
    want = {k: v for k, v in golden.items() if k.startswith(name + "/")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = got[k]
        if w.ndim == 0:
            assert g.size == 1, k
            g = g.reshape(())
        assert g.shape == w.shape, (k, g.shape, w.shape)
        if w.dtype.kind in "USb":
            assert g.tolist() == w.tolist(), k
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=k)


class Verdicts(dict):
    """A same_bits verdict table (nn_functional.common) that, with `differs`, finds other bits for every key: the
    slower formulation then runs."""

    def __init__(self, differs: bool) -> None:
        super().__init__()
        self.differs = differs

    def get(self, key, default=None):
        return False if self.differs else super().get(key, default)
