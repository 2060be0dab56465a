"""The rest of fluid.dygraph (Paddle 1.8): the 2.0-preview losses (MSELoss, L1Loss, BCELoss, NLLLoss, with 1.8's
reductions: 'mean' / 'sum' give shape [1]), NCE, TreeConv and SpectralNorm layers (their ops are the static
layers' ones), and dygraph_to_static_func."""

from __future__ import annotations

import functools
from typing import Any

from paddle_compat.fluid.layers_params import nce_cost, nce_weights
from paddle_compat.paddle2.utils.nest import check_type, check_variable_and_dtype
from paddle_compat.engine.framework.program import Variable
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.paddle2.nn.norm import SpectralNorm
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.engine.ops.tree_conv import tree_conv_op

_REDUCE = {"mean": "paddle.fluid.layers.reduce_mean", "sum": "paddle.fluid.layers.reduce_sum"}


def _check_reduction(reduction: str, msg: str) -> None:
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(msg.format(reduction))


def _reduce(x: Any, reduction: str) -> Any:
    return x if reduction == "none" else P(_REDUCE[reduction])(x)


class MSELoss(Layer):
    """mean / sum / none of (input - label)^2."""

    def __init__(self, reduction="mean"):
        _check_reduction(reduction, "'reduction' in 'MSELoss' should be 'sum', 'mean' or 'none', but received {}.")
        super().__init__()
        self.reduction = reduction

    def forward(self, input, label):  # noqa: A002
        check_variable_and_dtype(input, "input", ["float32"], "MSELoss")
        check_variable_and_dtype(label, "label", ["float32"], "MSELoss")
        return _reduce(P("paddle.fluid.layers.square")(P("paddle.fluid.layers.elementwise_sub")(input, label)),
                       self.reduction)


class L1Loss(Layer):
    """mean / sum / none of |input - label|."""

    def __init__(self, reduction="mean"):
        _check_reduction(reduction, "The value of 'reduction' in L1Loss should be 'sum', 'mean' or 'none', but "
                                    "received {}, which is not allowed.")
        super().__init__()
        self.reduction = reduction

    def forward(self, input, label):  # noqa: A002
        kinds = ["float32", "float64", "int32", "int64"]
        check_variable_and_dtype(input, "input", kinds, "l1_loss")
        check_variable_and_dtype(label, "label", kinds, "l1_loss")
        return _reduce(P("paddle.fluid.layers.elementwise_sub")(input, label, act="abs"), self.reduction)


class BCELoss(Layer):
    """Binary cross entropy of probabilities, optionally weighted by a weight Variable, then reduced."""

    def __init__(self, weight=None, reduction="mean"):
        _check_reduction(reduction, "The value of 'reduction' in bce_loss should be 'sum', 'mean' or 'none', but "
                                    "received {}, which is not allowed.")
        super().__init__()
        self.weight = weight
        self.reduction = reduction

    def forward(self, input, label):  # noqa: A002
        check_variable_and_dtype(input, "input", ["float32", "float64"], "bce_loss")
        check_variable_and_dtype(label, "label", ["float32", "float64"], "bce_loss")
        out = P("paddle.nn.functional.binary_cross_entropy")(input, label, reduction="none")
        if self.weight is not None:
            if not isinstance(self.weight, Variable) and not hasattr(self.weight, "_t"):
                raise ValueError("The weight is not a Variable, please convert to Variable.")
            out = P("paddle.fluid.layers.elementwise_mul")(out, self.weight, axis=-1)
        return _reduce(out, self.reduction)


class NLLLoss(Layer):
    """Negative log likelihood of log-probabilities [N, C] or [N, C, d1, ...] at int64 labels; 'none' keeps the
    label's shape."""

    def __init__(self, weight=None, reduction="mean", ignore_index=-100):
        super().__init__()
        self.weight = weight
        self.reduction = reduction
        self.ignore_index = ignore_index

    def forward(self, input, label):  # noqa: A002
        check_variable_and_dtype(input, "input", ["float32", "float64"], "nll_loss")
        check_variable_and_dtype(label, "label", ["int64"], "nll_loss")
        _check_reduction(self.reduction, "The value of 'reduction' in nll_loss should be 'sum', 'mean' or 'none', "
                                         "but received {}, which is not allowed.")
        if len(input.shape) < 2:
            raise ValueError(f"Expected 2 or more dimensions (got {len(input.shape)})")
        out = P("paddle.nn.functional.nll_loss")(input, label, weight=self.weight, ignore_index=self.ignore_index,
                                                  reduction=self.reduction)
        return P("paddle.reshape")(out, [1]) if self.reduction != "none" else out


class NCE(Layer):
    """fluid.dygraph.NCE(num_total_classes, dim, ...): forward(input, label, sample_weight=None) -> the nce
    cost [N, 1] (the same op and samplers as fluid.layers.nce)."""

    def __init__(self, num_total_classes, dim, sample_weight=None, param_attr=None, bias_attr=None,
                 num_neg_samples=None, sampler="uniform", custom_dist=None, seed=0, is_sparse=False,
                 dtype="float32"):
        super().__init__(None, dtype)
        self._num_total_classes, self._num_neg_samples = num_total_classes, num_neg_samples
        self._sampler, self._seed, self._sample_weight = sampler, seed, sample_weight
        self.weight, self.bias, self._custom = nce_weights(num_total_classes, dim, dtype, param_attr, bias_attr,
                                                          sampler, custom_dist, self._full_name)

    def forward(self, input, label, sample_weight=None):  # noqa: A002
        check_variable_and_dtype(input, "input", ["float32", "float64"], "NCE")
        check_variable_and_dtype(label, "label", ["int64"], "NCE")
        return nce_cost(input, label, self.weight, self.bias, self._custom, self._num_total_classes,
                        sample_weight if sample_weight is not None else self._sample_weight, self._num_neg_samples,
                        self._sampler, self._seed)


class TreeConv(Layer):
    """fluid.dygraph.TreeConv(feature_size, output_size, num_filters=1, max_depth=2, act='tanh', ...):
    forward(nodes_vector [B, N, feature_size], edge_set [B, E, 2] int32) -> [B, N, output_size, num_filters]."""

    def __init__(self, feature_size, output_size, num_filters=1, max_depth=2, act="tanh", param_attr=None,
                 bias_attr=None, name=None, dtype="float32"):
        super().__init__(None, dtype)
        self._max_depth, self._act, self._bias_attr = max_depth, act, bias_attr
        if bias_attr:
            self.bias = self.create_parameter([num_filters], bias_attr, is_bias=True)
        self.weight = self.create_parameter([feature_size, 3, output_size, num_filters], param_attr)

    def forward(self, nodes_vector, edge_set):
        check_type(nodes_vector, "nodes_vector", (Variable,), "TreeConv")
        check_type(edge_set, "edge_set", (Variable,), "TreeConv")
        out = tree_conv_op(nodes_vector, edge_set, self.weight, int(self._max_depth))
        if self._bias_attr:
            out = P("paddle.fluid.layers.elementwise_add")(out, self.bias, axis=1)
        return act_layer(out, self._act)


def dygraph_to_static_func(dygraph_func):
    """Returns a function that records its ops into the current program when called in static mode: layers here
    record whichever mode they run in. Python control flow is not converted into control-flow ops (it runs while
    the program is built)."""

    @functools.wraps(dygraph_func)
    def fn(*args: Any, **kwargs: Any) -> Any:
        return dygraph_func(*args, **kwargs)

    return fn


for _cls in (MSELoss, L1Loss, BCELoss, NLLLoss, NCE, TreeConv, SpectralNorm):
    export(_cls, f"paddle.fluid.dygraph.{_cls.__name__}", f"paddle.fluid.dygraph.nn.{_cls.__name__}")
export(dygraph_to_static_func, "paddle.fluid.dygraph.dygraph_to_static_func",
       "paddle.fluid.dygraph.jit.dygraph_to_static_func")
partial("paddle.fluid.dygraph.dygraph_to_static_func", "Python control flow on tensor values is not converted "
                                                       "into control-flow ops")
partial("paddle.fluid.dygraph.jit.dygraph_to_static_func", "Python control flow on tensor values is not "
                                                           "converted into control-flow ops")
