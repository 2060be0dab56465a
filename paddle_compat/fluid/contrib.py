"""The rest of fluid.contrib (Paddle 1.8): program statistics (memory_usage, op_freq_statistic),
ctr_metric_bundle, extend_with_decoupled_weight_decay, the contrib layers that compose registry ops
(partial_concat, partial_sum, fused_elemwise_activation, fused_embedding_seq_pool, multiclass_nms2, shuffle_batch,
tdm_child), and clear UnsupportedAPIError stand-ins for the parts that need Paddle's
C++ / Hadoop / slim machinery."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.paddle2.utils.nest import check_dtype, check_type, check_variable_and_dtype
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import layer_helper, role_guard
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.program import ROLE_OPTIMIZE, Program, Variable, program_guard
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.detection import _nms_image
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.paddle2.optimizer.optimizer import Optimizer
from paddle_compat.engine.static.initializer import ConstantInitializer
from paddle_compat.engine.static.param import create_global_var, create_parameter_impl

C = "paddle.fluid.contrib."


def _l(name: str):
    return P("paddle.fluid.layers." + name)


# ------------------------------------------------------------------------------------------------ statistics

_DTYPE_SIZE = {"float16": 2, "float32": 4, "float64": 8, "int16": 2, "int32": 4, "int64": 8, "bool": 1, "uint8": 1}


def memory_usage(program, batch_size):
    """(min, max, unit) estimate of the memory the variables written by `program`'s ops take for `batch_size`
    (a -k dim counts k * batch_size), plus 5 to 10 percent, as Paddle's estimate."""
    if not isinstance(program, Program):
        raise TypeError(f"Calculating Memory Usage requires Program as its Parameter.But you passed in "
                        f"{type(program)}")
    if batch_size <= 0:
        raise ValueError("The batch size need to be positive.")
    total = 0.0
    seen = {"@EMPTY@"}
    block = program.global_block()
    for o in block.ops:
        for name in o.output_arg_names:
            if name in seen or name not in block.vars:
                continue
            seen.add(name)
            var = block.vars[name]
            count, neg = 1, 0
            for d in var.shape:
                if d < 0:
                    if neg:
                        raise ValueError(f"Var {name} has more than one negative dim.")
                    neg += 1
                    count *= batch_size * (-d)
                else:
                    count *= d
            total += count * _DTYPE_SIZE.get(_dt.to_dtype(var.dtype).name, 4)
    unit = "B"
    for nxt in ("KB", "MB"):
        if total > 1024:
            total /= 1024
            unit = nxt
    return total * 1.05, total * 1.1, unit


def op_freq_statistic(program):
    """(op type counts, "producer->consumer" pair counts), each sorted by count, over the global block's ops
    (parameters are not counted as produced or consumed)."""
    if not isinstance(program, Program):
        raise TypeError(f"The input type should be Porgram.But you passed in {type(program)}")
    params = {p.name for p in program.global_block().all_parameters()}
    ops = program.global_block().ops
    uni: OrderedDict = OrderedDict()
    for o in ops:
        if any(n not in params for n in o.output_arg_names):
            uni[o.type] = uni.get(o.type, 0) + 1
    producers: dict = {}
    consumed: OrderedDict = OrderedDict()
    for o in ops:
        for n in o.input_arg_names:
            if n in params:
                continue
            if n in producers:
                consumed.setdefault(o.type, []).append(producers[n][-1])
        for n in o.output_arg_names:
            producers.setdefault(n, []).append(o.type)
    pairs: OrderedDict = OrderedDict()
    for o, ins in consumed.items():
        for i in ins:
            pairs[f"{i}->{o}"] = pairs.get(f"{i}->{o}", 0) + 1
    return (sorted(uni.items(), key=lambda kv: kv[1], reverse=True),
            sorted(pairs.items(), key=lambda kv: kv[1], reverse=True))


# ------------------------------------------------------------------------------------------------ ctr metrics


def ctr_metric_bundle(input, label):  # noqa: A002
    """Accumulated CTR statistics (persistable, updated every run): (sum of squared errors, sum of absolute errors,
    sum of predictions, sum of sigmoid(predictions), number of positives, number of instances)."""
    if list(input.shape) != list(label.shape):
        raise InvalidArgumentError(f"fluid.contrib.ctr_metric_bundle: input and label must have the same shape, got "
                                   f"{list(input.shape)} and {list(label.shape)}")
    with layer_helper("ctr_metric_bundle") as prefix:
        states = [create_global_var([1], 0.0, "float32", persistable=True,
                                    name=unique_name.generate(f"{prefix}.{s}"))
                  for s in ("sqrerr", "abserr", "prob", "q", "pos_num", "ins_num")]
        diff = _l("elementwise_sub")(input, label)
        batch = [P("paddle.sum")(P("paddle.square")(diff)), P("paddle.sum")(P("paddle.abs")(diff)),
                 P("paddle.sum")(input), P("paddle.sum")(_l("sigmoid")(input)), P("paddle.sum")(label),
                 P("paddle.cast")(P("paddle.full")([1], float(label.shape[0]) if label.shape[0] >= 0 else 0.0,
                                                   "float32"), "float32")]
        if label.shape[0] < 0:
            batch[-1] = P("paddle.sum")(_l("fill_constant_batch_size_like")(label, [-1, 1], "float32", 1.0))
        for s, b in zip(states, batch):
            _l("assign")(_l("elementwise_add")(P("paddle.reshape")(b, [1]), s), output=s)
    return tuple(states)


# ------------------------------------------------------------------------------------------------ decoupled decay


class DecoupledWeightDecay:
    """Mix-in: before the wrapped optimizer's update, param -= coeff * param for the parameters that
    apply_decay_param_fun(name) accepts (all when it is None)."""

    def __init__(self, coeff=0.0, apply_decay_param_fun=None, **kwargs):
        if not isinstance(coeff, (float, Variable)):
            raise TypeError("coeff should be float or Variable.")
        self._params_name: set = set()
        self._apply_decay_param_fun = apply_decay_param_fun
        self._coeff = coeff
        super().__init__(**kwargs)

    def _decayed(self, params_grads: list) -> list:
        if isinstance(self._coeff, float) and self._coeff == 0.0:
            return []
        out = []
        for p, g in params_grads:
            if g is None or (self._apply_decay_param_fun is not None and not self._apply_decay_param_fun(p.name)):
                continue
            self._params_name.add(p.name)
            out.append(p)
        return out

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        if not MODE.static:
            params = self._dygraph_params(parameter_list)
            with torch.no_grad():
                for p in self._decayed([(p, p._grad_tensor()) for p in params]):
                    p._t.sub_(p._t * float(self._coeff))
            self.step(parameter_list)
            return None, None
        params_grads = self.backward(loss, startup_program, parameter_list, no_grad_set)
        with program_guard(loss.block.program, startup_program), role_guard(ROLE_OPTIMIZE):
            for p in self._decayed(params_grads):
                _l("assign")(_l("elementwise_sub")(p, P("paddle.scale")(p, scale=1.0) * self._coeff), output=p)
            ops = self.apply_gradients(params_grads)
        return ops, params_grads

    def __str__(self) -> str:
        return " ".join(["Weight Decay, params:", ",".join(self._params_name)])


def extend_with_decoupled_weight_decay(base_optimizer):
    """A subclass of `base_optimizer` taking weight_decay (and apply_decay_param_fun) first."""
    if not (isinstance(base_optimizer, type) and issubclass(base_optimizer, Optimizer)):
        raise TypeError("The input(base_optimizer) should be a derived class of Optimizer.")

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecay, base_optimizer):
        def __init__(self, weight_decay, apply_decay_param_fun=None, **kwargs):
            super().__init__(weight_decay, apply_decay_param_fun, **kwargs)

    return OptimizerWithDecoupledWeightDecay


# ------------------------------------------------------------------------------------------------ layers


def partial_concat(input, start_index=0, length=-1):  # noqa: A002
    """Concatenate columns [start_index, start_index + length) of each 2-D input (length -1: to the end)."""
    return _partial("partial_concat", input, start_index, length, lambda xs: _l("concat")(xs, axis=1))


def partial_sum(input, start_index=0, length=-1):  # noqa: A002
    """Sum of columns [start_index, start_index + length) of each 2-D input (length -1: to the end)."""
    return _partial("partial_sum", input, start_index, length, lambda xs: P("paddle.add_n")(xs))


def _partial(api, inputs, start, length, combine):
    if not isinstance(inputs, list):
        inputs = [inputs]
    kinds = ["float16", "float32", "float64", "int32", "int64"]
    for i, x in enumerate(inputs):
        check_variable_and_dtype(x, f"input[{i}]", kinds, api)
    check_type(start, "start_index", int, api)
    check_type(length, "length", int, api)
    with layer_helper(api):
        end = None if length < 0 else start + length
        parts = [P("paddle.slice")(x, axes=[1], starts=[start], ends=[end if end is not None else 2 ** 31 - 1])
                 for x in inputs]
        return combine(parts)


_FUSED_SUPPORTED = {"elementwise_add,scale", "scale,elementwise_add", "elementwise_add,relu", "relu,elementwise_add",
                    "elementwise_mul,scale", "tanh,elementwise_add", "elementwise_mul,tanh", "elementwise_mul,sigmoid"}
_BINARY = {"elementwise_add": "paddle.fluid.layers.elementwise_add",
           "elementwise_mul": "paddle.fluid.layers.elementwise_mul"}


def fused_elemwise_activation(x, y, functor_list, axis=-1, scale=0.0, save_intermediate_out=True):
    """functor_list [binary, unary] = binary(x, unary(y)); [unary, binary] = unary(binary(x, y)), for the eight
    combinations Paddle's kernel has (_FUSED_SUPPORTED); scale multiplies by `scale`."""
    if isinstance(functor_list, str):
        functor_list = functor_list.split(",")
    if not isinstance(functor_list, list) or len(functor_list) != 2:
        raise ValueError("functor_list should be a list of str, and the length should be 2.")
    f0, f1 = functor_list
    if f"{f0},{f1}" not in _FUSED_SUPPORTED:
        raise InvalidArgumentError(f"fluid.contrib.fused_elemwise_activation: {f0},{f1} has not been implemented "
                                   f"(Paddle's kernel has {sorted(_FUSED_SUPPORTED)})")

    def unary(name: str, v):
        if name == "scale":
            return P("paddle.scale")(v, scale=float(scale))
        from paddle_compat.engine.ops.nn_functional.activation import act_layer

        return act_layer(v, name)

    with layer_helper("fused_elemwise_activation"):
        if f0 in _BINARY:
            return P(_BINARY[f0])(x, unary(f1, y), axis=axis)
        if f1 in _BINARY:
            return unary(f0, P(_BINARY[f1])(x, y, axis=axis))
    raise ValueError(f"fused_elemwise_activation: functor_list {functor_list} needs one of {sorted(_BINARY)}")


def fused_embedding_seq_pool(input, size, is_sparse=False, padding_idx=None, combiner="sum", param_attr=None,  # noqa: A002
                             dtype="float32"):
    """Embedding lookup of LoD ids [N, 1] summed per sequence -> [sequences, size[1]]."""
    if combiner != "sum":
        raise InvalidArgumentError(f"fluid.contrib.fused_embedding_seq_pool: combiner must be 'sum', got "
                                   f"{combiner!r}")
    vocab = int(size[0])
    pad = None if padding_idx is None else (padding_idx if padding_idx >= 0 else vocab + padding_idx)
    with layer_helper("fused_embedding_seq_pool") as prefix:
        w = create_parameter_impl(list(size), dtype, param_attr, False, prefix=prefix)
        emb = P("paddle.nn.functional.embedding")(P("paddle.squeeze")(input, [-1]), w, padding_idx=pad)
        return _l("sequence_pool")(emb, "sum")


def _nms2_infer(bboxes, scores, *attrs):
    return [Spec((-1, bboxes.shape[2] + 2), bboxes.dtype), Spec((-1, 1), _dt.to_dtype("int32")),
            Spec((-1,), _dt.to_dtype("int64"))]


@op("multiclass_nms2", differentiable=False, infer=_nms2_infer)
def multiclass_nms2_op(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                       background_label):
    """multiclass_nms that also returns, per kept box, its index n * M + m into the input boxes."""
    bx = bboxes.detach().cpu().double().numpy()
    sc = scores.detach().cpu().double().numpy()
    n_img, m = sc.shape[0], sc.shape[2]
    rows, index, offs = [], [], [0]
    attrs = (score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta, background_label)
    for n in range(n_img):
        picked = _nms_image(lambda c, k, n=n: bx[n, k], sc[n], *attrs, False)
        for c in sorted(picked):
            for k in picked[c]:
                rows.append([c, sc[n, c, k]] + list(bx[n, k]))
                index.append(n * m + k)
        offs.append(len(rows))
    dev = bboxes.device
    if not rows:
        return (torch.full((1, 1), -1.0, dtype=bboxes.dtype, device=dev), torch.zeros((0, 1), dtype=torch.int32,
                device=dev), torch.tensor([0, 1], device=dev))
    return (torch.tensor(rows, dtype=bboxes.dtype, device=dev), torch.tensor(index, dtype=torch.int32,
            device=dev).reshape(-1, 1), torch.tensor(offs, dtype=torch.int64, device=dev))


def multiclass_nms2(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3, normalized=True,
                    nms_eta=1.0, background_label=0, return_index=False, name=None):
    """fluid.layers.multiclass_nms on dense boxes [N, M, 4] / scores [N, C, M], with the kept boxes' indices."""
    from paddle_compat.engine.ops.detection_infer import _attach_if

    if len(bboxes.shape) != 3 or len(scores.shape) != 3:
        raise InvalidArgumentError("fluid.contrib.multiclass_nms2: bboxes must be [N, M, 4] and scores [N, C, M], "
                                   f"got {list(bboxes.shape)} and {list(scores.shape)}")
    with layer_helper("multiclass_nms2", name):
        out, index, offs = multiclass_nms2_op(bboxes, scores, float(score_threshold), int(nms_top_k),
                                              int(keep_top_k), float(nms_threshold), bool(normalized),
                                              float(nms_eta), int(background_label))
    out, index = _attach_if(out, offs), _attach_if(index, offs)
    out.stop_gradient = index.stop_gradient = True
    return (out, index) if return_index else out


@op("shuffle_batch", differentiable=True, random=True)
def shuffle_batch_op(x, seed):
    """Rows (all dims but the last flattened) in a random order drawn from `seed`."""
    flat = x.reshape(-1, x.shape[-1])
    gen = torch.Generator(device="cpu")
    gen.manual_seed(int(seed) & 0x7FFFFFFFFFFFFFFF)
    perm = torch.randperm(flat.shape[0], generator=gen).to(x.device)
    return flat[perm].reshape(x.shape)


def shuffle_batch(x, seed=None):
    """Shuffle the rows of x (all dims but the last); the order is random per run (seed: an int or a Variable;
    default the program's random_seed, else a random one). Paddle's C++ engine is not reproduced: the orders
    differ from Paddle's for the same seed."""
    if isinstance(seed, Variable):
        s = seed
    else:
        if seed is None:
            seed = int(torch.randint(-65536, 65535, (), generator=RUNTIME.generator))
        counter = create_global_var([1], float(seed), "int64", persistable=True,
                                    name=unique_name.generate("shuffle_batch_seed")) if MODE.static else None
        if counter is not None:
            P("paddle.increment")(counter, 1.0)  # a new order every run
        s = counter if counter is not None else int(seed)
    with layer_helper("shuffle_batch"):
        return shuffle_batch_op(x, s)


@op("tdm_child", differentiable=False)
def tdm_child_op(x, tree_info, child_nums):
    """children [.., child_nums] of each node id of x from tree_info rows (item, layer, parent, children...);
    leaf_mask 1 where the child is an item (tree_info[child, 0] != 0); zeros for node 0 and for leaves."""
    ids = x.long()
    kids = tree_info[ids][..., 3:3 + child_nums]
    has = (ids != 0) & (tree_info[ids][..., 3] != 0)
    kids = torch.where(has.unsqueeze(-1), kids, torch.zeros_like(kids))
    mask = torch.where(has.unsqueeze(-1), (tree_info[kids.long()][..., 0] != 0).to(kids.dtype), torch.zeros_like(kids))
    return kids, mask


def tdm_child(x, node_nums, child_nums, param_attr=None, dtype="int32"):
    """(child, leaf_mask) of x's nodes from a [node_nums, 3 + child_nums] tree_info parameter."""
    check_dtype(dtype, "dtype", ["int32", "int64"], "fluid.contrib.layers.tdm_child")
    with layer_helper("tdm_child") as prefix:
        info = create_parameter_impl([int(node_nums), 3 + int(child_nums)], dtype, param_attr, False,
                                     default_initializer=ConstantInitializer(0), prefix=prefix, stop_gradient=True)
        child, mask = tdm_child_op(x, info, int(child_nums))
    return child, mask


for _fn in (memory_usage, op_freq_statistic, ctr_metric_bundle, extend_with_decoupled_weight_decay, partial_concat,
            partial_sum, fused_elemwise_activation, fused_embedding_seq_pool, multiclass_nms2, shuffle_batch,
            tdm_child):
    export(_fn, C + _fn.__name__)
for _fn in (ctr_metric_bundle,):
    export(_fn, C + "layers." + _fn.__name__, C + "layers.metric_op." + _fn.__name__)
for _fn in (partial_concat, partial_sum, fused_elemwise_activation, fused_embedding_seq_pool, multiclass_nms2,
            shuffle_batch, tdm_child):
    export(_fn, C + "layers." + _fn.__name__, C + "layers.nn." + _fn.__name__)
export(memory_usage, C + "memory_usage_calc.memory_usage")
export(op_freq_statistic, C + "op_frequence.op_freq_statistic")
export(extend_with_decoupled_weight_decay,
       C + "extend_optimizer.extend_with_decoupled_weight_decay",
       C + "extend_optimizer.extend_optimizer_with_weight_decay.extend_with_decoupled_weight_decay")


# ------------------------------------------------------------------------------------------------ unsupported

_UNSUPPORTED = {
    "QuantizeTranspiler": "quantization-aware training rewrites programs with Paddle's fake_quantize ops, which "
                          "are not implemented; quantize with torch.ao.quantization on the exported model",
    "Compressor": "PaddleSlim's 1.x compression framework (pruning / distillation / quantization strategies over "
                  "Paddle graphs) is not implemented",
    "HDFSClient": "it drives the `hadoop fs` command line of a Hadoop installation; use a Hadoop client directly",
    "multi_download": "it copies files from HDFS through `hadoop fs`; use a Hadoop client directly",
    "multi_upload": "it copies files to HDFS through `hadoop fs`; use a Hadoop client directly",
    "convert_dist_to_sparse_program": "distributed lookup tables of Paddle's parameter servers are not implemented",
    "load_persistables_for_increment": "distributed lookup tables of Paddle's parameter servers are not implemented",
    "load_persistables_for_inference": "distributed lookup tables of Paddle's parameter servers are not implemented",
    "search_pyramid_hash": "the pyramid_hash op (hashed n-gram embeddings with Paddle's own hash and white / black "
                           "lists) is not implemented",
    "rank_attention": "the rank_attention op (CTR rank-offset attention) is not implemented; real 1.8.5 has "
                      "only a GPU kernel for it (on CPU it raises 'Rank Attention only supports GPU now')",
    "tdm_sampler": "the tdm_sampler op (tree-based negative sampling with Paddle's sampler engine) is not "
                   "implemented",
}


def _unsupported(name: str, why: str) -> Any:
    api = C + name

    if name[:1].isupper():
        def __init__(self: Any, *a: Any, **k: Any) -> None:
            raise UnsupportedAPIError(api, why)

        obj: Any = type(name, (), {"__init__": __init__, "__doc__": f"{api}: not supported ({why})"})
    else:
        def obj(*a: Any, **k: Any) -> Any:
            raise UnsupportedAPIError(api, why)

        obj.__name__ = name
        obj.__doc__ = f"{api}: not supported ({why})"
    obj.__paddle_unsupported__ = True
    return obj


for _n, _why in _UNSUPPORTED.items():
    export(_unsupported(_n, _why), C + _n)
