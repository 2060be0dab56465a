"""Meta-test: every function of modules `paddle` and `paddle.nn.functional` in the API manifest has a row in
the op table (tests/ops/rows_*.py), so the generic tests cover it. A name counts as covered by a row whose
`api` is the name, or whose `inplace` variant is it (e.g. the `paddle.tanh` row covers `paddle.tanh_`)."""

from __future__ import annotations

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from optable import all_rows  # noqa: E402

MANIFEST = os.path.join(os.path.dirname(__file__), "..", "..", "paddle_compat", "data", "api_manifest.json")
MODULES = ("paddle", "paddle.nn.functional")

# Functions that are not ops, so they have no row; each is tested where it is implemented.
NOT_OPS = {
    # mode switches and queries
    "paddle.enable_static", "paddle.disable_static", "paddle.in_dynamic_mode",
    # device / build configuration
    "paddle.set_device", "paddle.get_device", "paddle.is_compiled_with_cuda", "paddle.is_compiled_with_xpu",
    "paddle.get_cudnn_version",
    # dtype configuration
    "paddle.set_default_dtype", "paddle.get_default_dtype",
    # random state (the random ops have rows)
    "paddle.seed", "paddle.get_cuda_rng_state", "paddle.set_cuda_rng_state",
    # autograd API over a computed graph
    "paddle.grad",
    # model-level APIs owned by paddle.nn / hapi (serialization, summaries)
    "paddle.save", "paddle.load", "paddle.summary", "paddle.flops",
}

# paddle.nn.functional names whose rows (rows_functional.py) have not landed yet: strict xfail, so the test
# starts failing (XPASS) as soon as a row lands; remove the name from this set then.
FUNCTIONAL_PENDING: set[str] = {
    "paddle.nn.functional.adaptive_avg_pool1d",
    "paddle.nn.functional.adaptive_avg_pool2d",
    "paddle.nn.functional.adaptive_avg_pool3d",
    "paddle.nn.functional.adaptive_max_pool1d",
    "paddle.nn.functional.adaptive_max_pool2d",
    "paddle.nn.functional.adaptive_max_pool3d",
    "paddle.nn.functional.affine_grid",
    "paddle.nn.functional.alpha_dropout",
    "paddle.nn.functional.avg_pool1d",
    "paddle.nn.functional.avg_pool2d",
    "paddle.nn.functional.avg_pool3d",
    "paddle.nn.functional.batch_norm",
    "paddle.nn.functional.bilinear",
    "paddle.nn.functional.binary_cross_entropy",
    "paddle.nn.functional.binary_cross_entropy_with_logits",
    "paddle.nn.functional.conv1d",
    "paddle.nn.functional.conv1d_transpose",
    "paddle.nn.functional.conv2d",
    "paddle.nn.functional.conv2d_transpose",
    "paddle.nn.functional.conv3d",
    "paddle.nn.functional.conv3d_transpose",
    "paddle.nn.functional.cosine_similarity",
    "paddle.nn.functional.cross_entropy",
    "paddle.nn.functional.ctc_loss",
    "paddle.nn.functional.diag_embed",
    "paddle.nn.functional.dice_loss",
    "paddle.nn.functional.dropout",
    "paddle.nn.functional.dropout2d",
    "paddle.nn.functional.dropout3d",
    "paddle.nn.functional.elu",
    "paddle.nn.functional.elu_",
    "paddle.nn.functional.embedding",
    "paddle.nn.functional.gather_tree",
    "paddle.nn.functional.gelu",
    "paddle.nn.functional.grid_sample",
    "paddle.nn.functional.hardshrink",
    "paddle.nn.functional.hardsigmoid",
    "paddle.nn.functional.hardswish",
    "paddle.nn.functional.hardtanh",
    "paddle.nn.functional.hsigmoid_loss",
    "paddle.nn.functional.instance_norm",
    "paddle.nn.functional.interpolate",
    "paddle.nn.functional.kl_div",
    "paddle.nn.functional.l1_loss",
    "paddle.nn.functional.label_smooth",
    "paddle.nn.functional.layer_norm",
    "paddle.nn.functional.leaky_relu",
    "paddle.nn.functional.linear",
    "paddle.nn.functional.local_response_norm",
    "paddle.nn.functional.log_loss",
    "paddle.nn.functional.log_sigmoid",
    "paddle.nn.functional.log_softmax",
    "paddle.nn.functional.margin_ranking_loss",
    "paddle.nn.functional.max_pool1d",
    "paddle.nn.functional.max_pool2d",
    "paddle.nn.functional.max_pool3d",
    "paddle.nn.functional.maxout",
    "paddle.nn.functional.mse_loss",
    "paddle.nn.functional.nll_loss",
    "paddle.nn.functional.normalize",
    "paddle.nn.functional.npair_loss",
    "paddle.nn.functional.one_hot",
    "paddle.nn.functional.pad",
    "paddle.nn.functional.pixel_shuffle",
    "paddle.nn.functional.prelu",
    "paddle.nn.functional.relu6",
    "paddle.nn.functional.relu_",
    "paddle.nn.functional.selu",
    "paddle.nn.functional.sigmoid",
    "paddle.nn.functional.sigmoid_focal_loss",
    "paddle.nn.functional.smooth_l1_loss",
    "paddle.nn.functional.softmax",
    "paddle.nn.functional.softmax_",
    "paddle.nn.functional.softmax_with_cross_entropy",
    "paddle.nn.functional.softplus",
    "paddle.nn.functional.softshrink",
    "paddle.nn.functional.softsign",
    "paddle.nn.functional.square_error_cost",
    "paddle.nn.functional.swish",
    "paddle.nn.functional.tanhshrink",
    "paddle.nn.functional.temporal_shift",
    "paddle.nn.functional.thresholded_relu",
    "paddle.nn.functional.unfold",
    "paddle.nn.functional.upsample",
}


def _functions() -> list[str]:
    with open(MANIFEST, encoding="utf-8") as f:
        entries = json.load(f)
    return [f"{e['module']}.{e['name']}" for e in entries if e["module"] in MODULES and e["kind"] == "function"]


def _covered() -> set[str]:
    out = set()
    for r in all_rows():
        out.add(r.api)
        if r.inplace and "." not in r.inplace:
            out.add(f"{r.module}.{r.inplace}")
    return out


COVERED = _covered()


def _params():
    for api in _functions():
        if api in NOT_OPS:
            continue
        marks = [pytest.mark.xfail(reason="row not in rows_functional.py yet", strict=True)] \
            if api in FUNCTIONAL_PENDING else []
        yield pytest.param(api, id=api, marks=marks)


@pytest.mark.parametrize("api", list(_params()))
def test_manifest_function_has_row(api):
    assert api in COVERED, f"{api} is in the API manifest but has no row in tests/ops/rows_*.py"


def test_allow_list_is_not_stale():
    names = set(_functions())
    assert NOT_OPS <= names, f"NOT_OPS names not in the manifest: {sorted(NOT_OPS - names)}"
    assert not (NOT_OPS & COVERED), f"allow-listed names that have rows: {sorted(NOT_OPS & COVERED)}"
