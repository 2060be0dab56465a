"""Paddle 2.x `paddle.static.amp`: mixed-precision training of static programs, level O1 (and OD, O0).

`decorate(optimizer, ...)` wraps the optimizer as fluid's `contrib.mixed_precision` does (engine/static/amp.py,
the one implementation): minimize() makes the white-list ops (conv2d, matmul, matmul_v2, mul, einsum, ...)
compute in float16 or bfloat16, scales the loss, unscales the gradients and, with dynamic loss scaling, updates
the scaling by Paddle's rule. Paddle 2.6.2's two signatures are dispatched as its `function_overload` does (the
fp16-only one when a keyword only it has is given, or a float third positional argument), each with its own
defaults. Pure low-precision training (level O2, use_pure_fp16, cast_model_to_fp16) raises UnsupportedAPIError.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from typing import Any, Iterator

from paddle_compat._export import unsupported_stub
from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.static import amp as contrib_amp18
from paddle_compat.engine.framework.registry import export, partial

_A = "paddle.static.amp"
# Paddle 2.6.2's python/paddle/amp/amp_lists.py: the ops always computed in low precision.
WHITE_LIST = {"conv2d", "einsum", "matmul", "matmul_v2", "max_pool2d_with_index", "mul", "fused_gemm_epilogue"}
ONLY_FP16_WHITE_LIST = {"fake_quantize_dequantize_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
                        "fused_attention", "fused_feedforward"}


def check_amp_dtype(dtype: Any) -> str:
    d = dtype.lower() if isinstance(dtype, str) else dtype
    if d not in ("float16", "bfloat16"):
        raise ValueError("If enable AMP, dtype should be 'float16' or 'bfloat16'.")
    return d


class AutoMixedPrecisionLists(contrib_amp18.AutoMixedPrecisionLists):
    """2.x lists: Paddle 2.6.2's white list for the dtype (float16 adds its fp16-only ops) and black list, with
    the custom additions; `amp_dtype` is the low-precision dtype."""

    def __init__(self, custom_white_list: Any = None, custom_black_list: Any = None,
                 custom_black_varnames: Any = None, dtype: str = "float16") -> None:
        from paddle_compat.paddle2.amp import _DEFAULT_BLACK

        self.amp_dtype = check_amp_dtype(dtype)
        self._custom_white_list, self._custom_black_list = custom_white_list, custom_black_list
        self.white_list = WHITE_LIST | (ONLY_FP16_WHITE_LIST if self.amp_dtype == "float16" else set())
        self.black_list = set(_DEFAULT_BLACK["O1"])
        self.gray_list: set = set()
        self.black_varnames = set(custom_black_varnames or ())
        self._update_list()
        # Paddle keeps in float32 the white ops its device has no low-precision kernel for: on a machine without
        # CUDA, every one of them (so O1 on CPU computes as float32, loss scaling aside), with its warning.
        import torch

        self.unsupported_list = set() if torch.cuda.is_available() else set(self.white_list)
        if self.unsupported_list:
            logging.getLogger("paddle_compat.engine.static.amp").warning(
                f"On current GPU, {self.amp_dtype} is not supported for operators < {sorted(self.unsupported_list)} "
                "> in white_list!")


class OptimizerWithMixedPrecision(contrib_amp18.OptimizerWithMixedPrecision):
    """What decorate returns: contrib's optimizer plus 2.x's amp_init (nothing to cast at O1)."""

    def __init__(self, optimizer: Any, amp_lists: Any, level: str, dtype: str, **scaling: Any) -> None:
        if dtype == "bfloat16" and scaling["use_dynamic_loss_scaling"]:
            scaling.update(use_dynamic_loss_scaling=False, init_loss_scaling=1.0)
            warnings.warn("Dynamic loss scaling for bfloat16 amp training is disabled, and the init_loss_scaling is "
                          "changed to 1.0 automatically by PaddlePaddle.", stacklevel=3)
        super().__init__(optimizer, amp_lists, scaling["init_loss_scaling"], scaling["use_dynamic_loss_scaling"],
                         scaling["incr_every_n_steps"], scaling["decr_every_n_nan_or_inf"], scaling["incr_ratio"],
                         scaling["decr_ratio"])
        self._amp_level, self._amp_dtype = level, dtype
        self._minimized = False

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> Any:
        out = super().minimize(loss, startup_program, parameter_list, no_grad_set)
        self._minimized = True
        return out

    def amp_init(self, place: Any, scope: Any = None, test_program: Any = None, use_fp16_test: bool = False) -> None:
        """Paddle casts the parameters for pure low-precision training here; at O1 they stay float32."""
        assert self._minimized, "Please call the minimize method first."
        if use_fp16_test:
            raise UnsupportedAPIError(f"{_A}.OptimizerWithMixedPrecision.amp_init(use_fp16_test=True)",
                                      "pure low-precision programs (level O2) are not provided")


_O2_DETAIL = ("pure low-precision training (level O2: parameters and every op in float16 / bfloat16) is not "
              "provided; use level 'O1'")


def _o2(api: str) -> UnsupportedAPIError:
    return UnsupportedAPIError(api, _O2_DETAIL)


def _decorate_fp16_only(optimizer, amp_lists=None, init_loss_scaling=2 ** 15, incr_every_n_steps=1000,
                        decr_every_n_nan_or_inf=2, incr_ratio=2.0, decr_ratio=0.8, use_dynamic_loss_scaling=True,
                        use_pure_fp16=False, use_fp16_guard=None, use_bf16=False, use_promote=False):
    if use_pure_fp16:
        raise _o2(f"{_A}.decorate(use_pure_fp16=True)")
    dtype = "bfloat16" if use_bf16 else "float16"
    return _decorate_common(optimizer, amp_lists, "O1", dtype, None, False, init_loss_scaling, incr_every_n_steps,
                            decr_every_n_nan_or_inf, incr_ratio, decr_ratio, use_dynamic_loss_scaling)


def _decorate_common(optimizer, amp_lists=None, level="O1", dtype="float16", master_weight=None, master_grad=False,
                     init_loss_scaling=2 ** 16, incr_every_n_steps=2000, decr_every_n_nan_or_inf=1, incr_ratio=2.0,
                     decr_ratio=0.5, use_dynamic_loss_scaling=None, use_amp_guard=False, use_promote=False):
    level = level.upper()
    if level not in ("O0", "OD", "O1", "O2"):
        raise ValueError("level should be O0, OD, O1 or O2.")
    if level == "O2":
        raise _o2(f"{_A}.decorate(level='O2')")
    dtype = check_amp_dtype(dtype)
    if amp_lists is None or level == "OD":
        amp_lists = AutoMixedPrecisionLists(dtype=dtype)
    if level == "O0":
        amp_lists.white_list = set()
    if not hasattr(amp_lists, "amp_dtype"):
        amp_lists.amp_dtype = dtype
    if use_dynamic_loss_scaling is None:
        use_dynamic_loss_scaling = dtype == "float16"
    return OptimizerWithMixedPrecision(optimizer, amp_lists, level, dtype, init_loss_scaling=init_loss_scaling,
                                       use_dynamic_loss_scaling=use_dynamic_loss_scaling,
                                       incr_every_n_steps=incr_every_n_steps,
                                       decr_every_n_nan_or_inf=decr_every_n_nan_or_inf, incr_ratio=incr_ratio,
                                       decr_ratio=decr_ratio)


def decorate(*args: Any, **kwargs: Any) -> OptimizerWithMixedPrecision:
    """paddle.static.amp.decorate: Paddle's overload rule picks the fp16-only signature when a keyword only it has
    is given or the third positional argument is a float, else the common one."""
    import inspect

    fp16_only = set(inspect.signature(_decorate_fp16_only).parameters)
    common = set(inspect.signature(_decorate_common).parameters)
    fits = [f for f, names in ((_decorate_fp16_only, fp16_only), (_decorate_common, common)) if set(kwargs) <= names]
    if len(fits) == 1:
        fn = fits[0]
    else:
        fn = _decorate_fp16_only if len(args) >= 3 and isinstance(args[2], float) else _decorate_common
    return fn(*args, **kwargs)


@contextlib.contextmanager
def fp16_guard() -> Iterator[None]:
    """Marks the ops pure float16 training (O2 with use_fp16_guard) may cast; O1 decides by op type, so the
    ops recorded inside are unchanged."""
    yield


export(decorate, f"{_A}.decorate", f"{_A}.decorator.decorate")
export(AutoMixedPrecisionLists, f"{_A}.AutoMixedPrecisionLists", f"{_A}.CustomOpLists",
       f"{_A}.fp16_lists.AutoMixedPrecisionLists")
export(OptimizerWithMixedPrecision, f"{_A}.decorator.OptimizerWithMixedPrecision")
export(fp16_guard, f"{_A}.fp16_guard", f"{_A}.fp16_utils.fp16_guard")
for _n in ("cast_model_to_fp16", "cast_parameters_to_fp16"):
    export(unsupported_stub(f"{_A}.{_n}", "function", _O2_DETAIL), f"{_A}.{_n}", f"{_A}.fp16_utils.{_n}")
partial(f"{_A}.decorate", "levels O0 / OD / O1 (white-list ops in float16 / bfloat16 where the device has "
                          "kernels, as Paddle); level O2 (pure low precision) raises")
