"""fluid.contrib.mixed_precision (Paddle 1.8): decorate(optimizer, amp_lists, ...) -> OptimizerWithMixedPrecision,
and AutoMixedPrecisionLists.

minimize(loss) rewrites the program so the white-list ops (conv2d, matmul, mul by default) compute in float16 --
their floating inputs are cast to float16 and their result back to float32, so the variables keep their dtypes
(Paddle re-types the variables between white and black ops instead; gray ops stay float32 here) -- then
backpropagates loss * loss_scaling, divides the gradients by loss_scaling and, with dynamic loss scaling, updates
the scaling as Paddle's update_loss_scaling does: after incr_every_n_steps finite steps it is multiplied by
incr_ratio (if the result is finite), after decr_every_n_nan_or_inf steps with inf / nan gradients it is
multiplied by decr_ratio (not below 1); steps with inf / nan gradients update nothing (their gradients are set to
zero). Paddle 1.8 has no float16 kernels on CPU (its mul raises there); here the float16 compute runs on CPU too
(torch.autocast on CUDA, explicit casts elsewhere)."""

from __future__ import annotations

import copy
import functools
from typing import Any, Callable

import torch

from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.program import ROLE_FORWARD, default_main_program, default_startup_program
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static.param import create_global_var

WHITE_LIST = {"conv2d", "matmul", "mul"}
BLACK_LIST = {"exp", "square", "log", "mean", "sum", "cos_sim", "softmax", "softmax_with_cross_entropy",
              "sigmoid_cross_entropy_with_logits", "cross_entropy", "cross_entropy2"}
GRAY_LIST = {"elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "elementwise_max",
             "elementwise_min", "elementwise_pow", "elementwise_mod", "elementwise_floordiv", "batch_norm", "tanh",
             "sigmoid", "lookup_table", "top_k", "pool2d", "pool3d", "dropout", "relu", "relu6", "leaky_relu",
             "soft_relu", "flatten2", "stack", "unstack", "uniform_random_batch_size_like", "gaussian_random",
             "gaussian_random_batch_size_like", "slice", "rank", "scale", "transpose2", "reshape2", "gather",
             "fill_constant", "get_tensor_from_selected_rows", "sign", "cast"}


class AutoMixedPrecisionLists:
    """The op types computed in float16 (white), kept in float32 (black) or following their inputs (gray), with
    custom additions; custom_black_varnames keeps ops reading those variables in float32."""

    def __init__(self, custom_white_list=None, custom_black_list=None, custom_black_varnames=None):
        self._custom_white_list = custom_white_list
        self._custom_black_list = custom_black_list
        self.white_list = copy.copy(WHITE_LIST)
        self.black_list = copy.copy(BLACK_LIST)
        self.gray_list = copy.copy(GRAY_LIST)
        self.black_varnames = copy.copy(custom_black_varnames)
        self._update_list()

    def _update_list(self) -> None:
        white, black = self._custom_white_list or (), self._custom_black_list or ()
        if any(op in black for op in white):
            raise ValueError("Custom white list overlap custom black list")
        for op in white:
            self.black_list.discard(op)
            self.gray_list.discard(op)
            self.white_list.add(op)
        for op in black:
            self.white_list.discard(op)
            self.gray_list.discard(op)
            self.black_list.add(op)


@functools.lru_cache(maxsize=None)
def _in_low(fn: Callable, low: torch.dtype = torch.float16) -> Callable:
    """fn computed in `low` precision (float16, or bfloat16 for paddle.static.amp's dtype='bfloat16'): floating
    float32 inputs cast down, floating results cast back to float32."""

    def down(a: Any) -> Any:
        if isinstance(a, torch.Tensor) and a.dtype == torch.float32:
            return a.to(low)
        if isinstance(a, (list, tuple)):
            return type(a)(down(x) for x in a)
        return a

    def up(a: Any) -> Any:
        if isinstance(a, torch.Tensor) and a.dtype == low:
            return a.float()
        if isinstance(a, (list, tuple)):
            return type(a)(up(x) for x in a)
        return a

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        cuda = any(isinstance(a, torch.Tensor) and a.is_cuda for a in args)
        if cuda:
            with torch.autocast("cuda", dtype=low):
                return up(fn(*args, **kwargs))
        return up(fn(*down(args), **{k: down(v) for k, v in kwargs.items()}))

    run.__paddle_fp16__ = True  # type: ignore[attr-defined]
    return run


def rewrite_program(main_prog, amp_lists) -> None:
    """Make the white-list forward ops of `main_prog` compute in float16 (the lists' `amp_dtype` when they have
    one: paddle.static.amp's bfloat16); ops that read a black variable name stay in float32."""
    low = torch.bfloat16 if getattr(amp_lists, "amp_dtype", "float16") == "bfloat16" else torch.float16
    black_vars = set(amp_lists.black_varnames or ())
    unsupported = set(getattr(amp_lists, "unsupported_list", ()))  # 2.x lists: kept in float32 on this device
    for block in (main_prog.block(i) for i in range(main_prog.num_blocks)):
        for n in block.graph.nodes:
            if n.op != "call_function" or n.meta.get("role") != ROLE_FORWARD:
                continue
            if n.meta.get("op_type") not in amp_lists.white_list or n.meta.get("op_type") in unsupported \
                    or getattr(n.target, "__paddle_fp16__", False):
                continue
            if black_vars and any(a.meta.get("var_name") in black_vars for a in n.all_input_nodes):
                continue
            n.target = _in_low(n.target, low)
        block.program._bump()


def update_loss_scaling(is_overall_finite, prev_loss_scaling, num_good_steps, num_bad_steps, incr_every_n_steps,
                        decr_every_n_nan_or_inf, incr_ratio, decr_ratio) -> None:
    """Paddle's dynamic loss-scaling rule, recorded with element-wise selects (see the module docstring)."""
    where, f32, i32 = P("paddle.where"), "float32", "int32"
    zero = P("paddle.zeros")([1], i32)
    good1 = P("paddle.increment")(P("paddle.assign")(num_good_steps), 1.0)
    bad1 = P("paddle.increment")(P("paddle.assign")(num_bad_steps), 1.0)
    incr = P("paddle.logical_and")(is_overall_finite, P("paddle.less_than")(incr_every_n_steps, good1))
    decr = P("paddle.logical_and")(P("paddle.logical_not")(is_overall_finite),
                                   P("paddle.less_than")(decr_every_n_nan_or_inf, bad1))
    up = P("paddle.scale")(prev_loss_scaling, scale=float(incr_ratio))
    up = where(P("paddle.isfinite")(up), up, prev_loss_scaling)
    down = P("paddle.maximum")(P("paddle.scale")(prev_loss_scaling, scale=float(decr_ratio)),
                               P("paddle.ones")([1], f32))
    new_scaling = where(incr, up, where(decr, down, prev_loss_scaling))
    # finite: good += 1 (or 0 after an increase), bad = 0; not finite: good = 0, bad += 1 (or 0 after a decrease)
    new_good = where(is_overall_finite, where(incr, zero, good1), zero)
    new_bad = where(is_overall_finite, zero, where(decr, zero, bad1))
    for dst, src in ((prev_loss_scaling, new_scaling), (num_good_steps, new_good), (num_bad_steps, new_bad)):
        P("paddle.assign")(src, output=dst)


class OptimizerWithMixedPrecision:
    """What decorate returns: minimize / backward / apply_gradients, get_loss_scaling, get_scaled_loss."""

    def __init__(self, optimizer, amp_lists, init_loss_scaling, use_dynamic_loss_scaling, incr_every_n_steps,
                 decr_every_n_nan_or_inf, incr_ratio, decr_ratio):
        if not MODE.static:
            raise RuntimeError("fluid.contrib.mixed_precision.decorate works on static programs; in dygraph use "
                               "paddle.amp.auto_cast with paddle.amp.GradScaler")
        self._optimizer = optimizer
        self._amp_lists = amp_lists
        self._train_program = default_main_program()
        self._startup_prog = default_startup_program()
        self._scaled_loss = None
        self._loss_scaling = create_global_var([1], init_loss_scaling, "float32", persistable=True,
                                               name=unique_name.generate("loss_scaling"))
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        if use_dynamic_loss_scaling:
            self._incr_every_n_steps = P("paddle.fluid.layers.fill_constant")([1], "int32", incr_every_n_steps)
            self._decr_every_n_nan_or_inf = P("paddle.fluid.layers.fill_constant")([1], "int32",
                                                                                  decr_every_n_nan_or_inf)
            self._incr_ratio, self._decr_ratio = incr_ratio, decr_ratio
            self._num_good_steps = create_global_var([1], 0, "int32", persistable=True,
                                                     name=unique_name.generate("num_good_steps"))
            self._num_bad_steps = create_global_var([1], 0, "int32", persistable=True,
                                                    name=unique_name.generate("num_bad_steps"))

    def get_loss_scaling(self):
        return self._loss_scaling

    def get_scaled_loss(self):
        return self._scaled_loss

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None, callbacks=None):
        rewrite_program(self._train_program, self._amp_lists)
        self._scaled_loss = P("paddle.fluid.layers.elementwise_mul")(loss, self._loss_scaling)
        params_grads = self._optimizer.backward(self._scaled_loss, startup_program, parameter_list, no_grad_set,
                                                callbacks)
        return [[p, P("paddle.fluid.layers.elementwise_div")(g, self._loss_scaling)] for p, g in params_grads]

    def apply_gradients(self, scaled_params_grads):
        if self._use_dynamic_loss_scaling:
            sums = [P("paddle.fluid.layers.reduce_sum")(g) for _, g in scaled_params_grads]
            total = P("paddle.fluid.layers.reduce_sum")(P("paddle.fluid.layers.concat")(sums))
            finite = P("paddle.fluid.layers.isfinite")(total)
            update_loss_scaling(finite, self._loss_scaling, self._num_good_steps, self._num_bad_steps,
                                self._incr_every_n_steps, self._decr_every_n_nan_or_inf, self._incr_ratio,
                                self._decr_ratio)
            scaled_params_grads = [[p, P("paddle.where")(finite, g, P("paddle.zeros_like")(g))]
                                   for p, g in scaled_params_grads]
        return self._optimizer.apply_gradients([tuple(pg) for pg in scaled_params_grads])

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        scaled = self.backward(loss, startup_program=startup_program, parameter_list=parameter_list,
                               no_grad_set=no_grad_set)
        return self.apply_gradients(scaled), scaled


def decorate(optimizer, amp_lists=None, init_loss_scaling=2 ** 15, incr_every_n_steps=1000,
             decr_every_n_nan_or_inf=2, incr_ratio=2.0, decr_ratio=0.8, use_dynamic_loss_scaling=True):
    """Wrap a fluid optimizer for mixed-precision training with (dynamic) loss scaling."""
    return OptimizerWithMixedPrecision(optimizer, amp_lists if amp_lists is not None else AutoMixedPrecisionLists(),
                                       init_loss_scaling, use_dynamic_loss_scaling, incr_every_n_steps,
                                       decr_every_n_nan_or_inf, incr_ratio, decr_ratio)


_MP = "paddle.fluid.contrib.mixed_precision"
export(decorate, f"{_MP}.decorate", f"{_MP}.decorator.decorate")
export(AutoMixedPrecisionLists, f"{_MP}.AutoMixedPrecisionLists", f"{_MP}.fp16_lists.AutoMixedPrecisionLists")
export(OptimizerWithMixedPrecision, f"{_MP}.decorator.OptimizerWithMixedPrecision")
export(rewrite_program, f"{_MP}.fp16_utils.rewrite_program")
export(update_loss_scaling, f"{_MP}.fp16_utils.update_loss_scaling")
