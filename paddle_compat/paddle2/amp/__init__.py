"""paddle.amp: automatic mixed precision on torch.autocast.

- `auto_cast` runs the block under torch.autocast: float16 on CUDA (bfloat16 when asked), bfloat16 on CPU
  (Paddle's CPU build ignores AMP; torch's CPU autocast computes in bfloat16, so mixed precision is real
  there too). torch's lists play Paddle's white list (matmul / conv / linear in low precision); Paddle's black
  list of the level (exp, log, softmax, norms, reductions, losses in float32) and custom_white_list /
  custom_black_list, which name Paddle op types, are applied op by op (engine/framework/dispatch.AMP_OP_DTYPES).
  level 'O0' or enable=False turns it off.
- `decorate(level='O2')` casts the models' parameters to the low dtype (BatchNorm layers, LayerNorm /
  InstanceNorm under float16, and excluded_layers stay float32) and gives each optimizer float32 master
  weights: gradients are copied to them, the update runs in float32 and the result is cast back.
- `GradScaler` is Paddle's dynamic loss scaling (AmpScaler): scale, unscale_ (check_finite_and_unscale), step
  skipped on inf/nan, update (decrease after decr_every_n_nan_or_inf bad steps, increase after
  incr_every_n_steps good ones), state_dict. It works on every device (Paddle's only on GPU / XPU).
"""

from __future__ import annotations

import contextlib
import enum
from collections import defaultdict
from typing import Any, Iterator

import numpy as np
import torch

from paddle_compat.engine.core import place as _place
from paddle_compat.engine.framework import dispatch
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export

_A = "paddle.amp."


def _device_type(device: Any = None) -> str:
    p = _place.get_device_place() if device is None else _place.to_place(device)
    return "cuda" if isinstance(p, _place.CUDAPlace) and torch.cuda.is_available() else "cpu"


def low_dtype(dtype: str, device_type: str | None = None) -> torch.dtype:
    """The torch dtype auto_cast computes in: bfloat16 on CPU, else the one asked for."""
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"{_A}auto_cast: If enable amp, dtype should be 'float16' or 'bfloat16', but got {dtype!r}")
    if (device_type or _device_type()) == "cpu":
        return torch.bfloat16
    return torch.float16 if dtype == "float16" else torch.bfloat16


# Paddle's float32 ops (python/paddle/amp/amp_lists.py) by level; torch.autocast's own lists cover Paddle's white
# list (matmul, conv, linear in low precision) and most of these, the rest are cast op by op.
_BLACK_O1 = frozenset("""tan acos asin sinh cosh atanh tanh_shrink erfinv exp expm1 log log10 log2 reciprocal rsqrt
pow square reduce_sum mean reduce_mean reduce_prod cumprod cumsum dist pnorm p_norm frobenius_norm renorm group_norm
layer_norm softmax softmin softplus log_softmax softmax_with_cross_entropy sigmoid_cross_entropy_with_logits
c_softmax_with_cross_entropy cross_entropy cross_entropy2 nll_loss huber_loss triplet_margin_loss log_loss
hsigmoid_loss margin_cross_entropy""".split())
_BLACK_EXTRA = frozenset("""linear_interp_v2 nearest_interp_v2 bilinear_interp_v2 bicubic_interp_v2
trilinear_interp_v2 lookup_table lookup_table_v2 scatter""".split())
_DEFAULT_BLACK = {"OD": frozenset(), "O1": _BLACK_O1 | _BLACK_EXTRA, "O2": _BLACK_EXTRA}
# Paddle op type -> our registry's type where they differ
_OUR_TYPE = {"cross_entropy": "cross_entropy_2x", "hsigmoid_loss": "hierarchical_sigmoid",
             **{f"{m}_interp_v2": "interp_v2" for m in ("linear", "nearest", "bilinear", "bicubic", "trilinear")}}


def _op_dtypes(level: str, white: set, black: set, low: torch.dtype) -> dict:
    """Paddle's _update_list: the level's black list, minus custom white, plus custom black."""
    out = {_OUR_TYPE.get(t, t): torch.float32 for t in (_DEFAULT_BLACK[level] - white) | black}
    out.update({_OUR_TYPE.get(t, t): low for t in white})
    return out


class _State:
    """The innermost auto_cast's settings (read by GradScaler and amp_state())."""

    def __init__(self) -> None:
        self.enable, self.level, self.dtype = False, "O0", "float32"


_STATE = _State()


@contextlib.contextmanager
def auto_cast(enable: bool = True, custom_white_list: Any = None, custom_black_list: Any = None,
              level: str = "O1", dtype: str = "float16", use_promote: bool = True) -> Iterator[None]:
    """Run the block in mixed precision (see the module docstring)."""
    level = level.upper()
    if level not in ("O0", "OD", "O1", "O2"):
        raise ValueError(f"{_A}auto_cast: level should be O0, OD, O1 or O2, but got {level!r}.")
    dtype = dtype.lower()
    white, black = set(custom_white_list or ()), set(custom_black_list or ())
    both = white & black
    if both:
        raise ValueError(f"{_A}auto_cast: Custom white list overlap custom black_list, overlap op: {sorted(both)}")
    on = bool(enable) and level != "O0"
    device = _device_type()
    low = low_dtype(dtype, device) if on else torch.float32
    saved = (_STATE.enable, _STATE.level, _STATE.dtype, dict(dispatch.AMP_OP_DTYPES))
    _STATE.enable, _STATE.level, _STATE.dtype = on, level if on else "O0", dtype if on else "float32"
    if on:
        dispatch.AMP_OP_DTYPES.update(_op_dtypes(level, white, black, low))
    try:
        with torch.autocast(device, dtype=low if on else None, enabled=on):
            yield
    finally:
        _STATE.enable, _STATE.level, _STATE.dtype = saved[:3]
        dispatch.AMP_OP_DTYPES.clear()
        dispatch.AMP_OP_DTYPES.update(saved[3])


def is_float16_supported(device: Any = None) -> bool:
    """float16 AMP: on CUDA devices (compute capability 5.3+); not on CPU, where auto_cast uses bfloat16."""
    if _device_type(device) != "cuda":
        return False
    idx = _place.to_place(device).device_id if device is not None else torch.cuda.current_device()
    return torch.cuda.get_device_capability(idx) >= (5, 3)


def is_bfloat16_supported(device: Any = None) -> bool:
    """bfloat16 AMP: on CPU (torch's autocast) and on CUDA devices that support bfloat16."""
    if _device_type(device) != "cuda":
        return True
    return torch.cuda.is_bf16_supported()


# ------------------------------------------------------------------------------------------------- decorate
_KEEP_FP32 = ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm")
_KEEP_FP32_FOR_FP16 = ("LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D")


def _nn_classes(names: tuple) -> tuple:
    from paddle_compat.engine.framework.registry import EXPORTS

    return tuple(EXPORTS["paddle.nn"][n] for n in names if n in EXPORTS["paddle.nn"])


def _excluded(models: list, excluded_layers: Any) -> set:
    from paddle_compat.paddle2.nn.layer import Layer

    msg = f"{_A}decorate: excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer instances/types."
    items = [] if excluded_layers is None else excluded_layers if isinstance(excluded_layers, list) \
        else [excluded_layers]
    out = set()
    for item in items:
        if isinstance(item, Layer):
            out |= {id(s) for s in item.sublayers(include_self=True)}
        elif isinstance(item, type) and issubclass(item, Layer):
            out |= {id(s) for m in models for s in m.sublayers(include_self=True) if isinstance(s, item)}
        else:
            raise TypeError(msg)
    return out


def _cast_layer(layer: Any, tdtype: torch.dtype) -> None:
    """Cast one layer's own floating parameters and buffers (not its sublayers')."""
    for store in (layer._parameters, layer._buffers):
        for t in store.values():
            if isinstance(t, Tensor) and t._t.is_floating_point() and t._t.dtype != tdtype:
                t._t = t._t.detach().to(tdtype).requires_grad_(t._t.requires_grad)


class _MasterWeights:
    """Float32 master copies of an optimizer's low-precision parameters (Paddle's multi_precision)."""

    def __init__(self, optimizer: Any) -> None:
        self.opt = optimizer
        self.masters: dict[int, Any] = {}
        self.inner_step = optimizer.step
        optimizer.step = self.step

    def _master(self, p: Any) -> Any:
        m = self.masters.get(id(p))
        if m is None:
            from paddle_compat.engine.framework.eager_parameter import EagerParameter

            m = EagerParameter._from_tensor(Tensor._wrap(p._t.detach().float()), name=p.name,
                                            trainable=getattr(p, "trainable", True),
                                            optimize_attr=getattr(p, "optimize_attr", None),
                                            regularizer=getattr(p, "regularizer", None),
                                            need_clip=getattr(p, "need_clip", True))
            self.masters[id(p)] = m
        return m

    @torch.no_grad()
    def step(self, parameters: Any = None) -> None:
        params = list(parameters) if parameters is not None else (self.opt._parameter_list or [])
        low = [p for p in params if p._t.is_floating_point() and p._t.dtype in (torch.float16, torch.bfloat16)]
        if not low:
            return self.inner_step(parameters)
        pairs = []
        for p in low:
            m = self._master(p)
            g = p._grad_tensor()
            m._t.grad = None if g is None else g.float()
            pairs.append((p, m))
        ids = {id(p) for p in low}
        self.inner_step([m for _, m in pairs] + [p for p in params if id(p) not in ids])
        for p, m in pairs:
            p._t.copy_(m._t.to(p._t.dtype))


def decorate(models: Any, optimizers: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: Any = None, save_dtype: Any = None, master_grad: bool = False,
             excluded_layers: Any = None) -> Any:
    """O1: models and optimizers unchanged. O2: parameters in the low dtype (see the module docstring)."""
    from paddle_compat.paddle2.nn.layer import Layer
    from paddle_compat.paddle2.optimizer.optimizer import Optimizer

    if level not in ("O1", "O2"):
        raise ValueError(f"{_A}decorate: level should be O1 or O2, O1 represent AMP train mode, O2 represent Pure "
                         "fp16 train mode.")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"{_A}decorate: dtype only support float16 or bfloat16.")
    if level == "O1":
        return models if optimizers is None else (models, optimizers)
    model_list = [models] if isinstance(models, Layer) else models
    if not isinstance(model_list, list) or not all(isinstance(m, Layer) for m in model_list):
        raise TypeError(f"{_A}decorate: models must be either a single model or a list of models.")
    tdtype = low_dtype(dtype)
    keep = _nn_classes(_KEEP_FP32) + (_nn_classes(_KEEP_FP32_FOR_FP16) if dtype == "float16" else ())
    excluded = _excluded(model_list, excluded_layers)
    for m in model_list:
        for layer in m.sublayers(include_self=True):
            if id(layer) in excluded or isinstance(layer, keep):
                continue
            _cast_layer(layer, tdtype)
    opt_list = None
    if optimizers is not None:
        opt_list = [optimizers] if isinstance(optimizers, Optimizer) else optimizers
        if not isinstance(opt_list, list) or not all(isinstance(o, Optimizer) for o in opt_list):
            raise TypeError(f"{_A}decorate: optimizers must be either a single optimizer or a list of optimizers.")
        if master_weight is not False:
            for o in opt_list:
                if not isinstance(getattr(o.step, "__self__", None), _MasterWeights):
                    _MasterWeights(o)
    if save_dtype is not None:
        if save_dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError(f"{_A}decorate: save_dtype can only be float16 float32 or float64, but your input "
                             f"save_dtype is {save_dtype}.")
        from paddle_compat.engine.core import dtype as _dt

        target = _dt.to_torch_dtype(save_dtype)

        def hook(state: dict) -> dict:
            for k, v in state.items():
                if isinstance(v, Tensor) and v._t.is_floating_point():
                    state[k] = Tensor._wrap(v._t.detach().to(target))
            return state

        for m in model_list:
            m.register_state_dict_hook(hook)
    out_models = models if isinstance(models, Layer) else model_list
    if optimizers is None:
        return out_models
    return out_models, optimizers


# ------------------------------------------------------------------------------------------------ GradScaler
class OptimizerState(enum.Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state() -> dict:
    return {"state": OptimizerState.INIT}


class AmpScaler:
    """Paddle's dynamic loss scaling (fluid.dygraph.AmpScaler / paddle.amp.GradScaler's base)."""

    def __init__(self, enable: bool = True, init_loss_scaling: float = 2.0 ** 15, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int = 1000, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True) -> None:
        self._enable = bool(enable)
        if self._enable:
            if not incr_ratio > 1.0:
                raise ValueError(f"{_A}GradScaler: The incr_ratio must be > 1.0, but got {incr_ratio}.")
            if not decr_ratio < 1.0:
                raise ValueError(f"{_A}GradScaler: The decr_ratio must be < 1.0, but got {decr_ratio}.")
        self._init_loss_scaling = init_loss_scaling
        self._incr_ratio, self._decr_ratio = incr_ratio, decr_ratio
        self._incr_every_n_steps, self._decr_every_n_nan_or_inf = incr_every_n_steps, decr_every_n_nan_or_inf
        self._incr_count = self._decr_count = 0
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        self._scale = torch.tensor([float(init_loss_scaling)], dtype=torch.float32)
        self._found_inf = False
        self._cache_found_inf = None
        self._optimizer_states: dict = defaultdict(_fresh_state)

    def scale(self, var: Any) -> Any:
        """var * loss scaling (var unchanged when the scaler is disabled)."""
        if not isinstance(var, Tensor):
            raise TypeError(f"{_A}GradScaler.scale(): var should be a Tensor, but received {type(var).__name__}")
        if not self._enable:
            return var
        return Tensor._wrap(var._t * self._scale.to(var._t.device))

    def _grads(self, optimizer: Any) -> list:
        return [p._t.grad for p in (optimizer._parameter_list or []) if p._t.grad is not None]

    def _unscale(self, optimizer: Any) -> None:
        """Paddle's check_finite_and_unscale: every gradient divided by the scale; found_inf if any is inf/nan."""
        if not self._enable:
            return
        st = self._optimizer_states[id(optimizer)]
        if st["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if st["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        found = False
        with torch.no_grad():
            for g in self._grads(optimizer):
                inv = (1.0 / self._scale).to(device=g.device, dtype=torch.float32)
                found = found or not bool(torch.isfinite(g).all())
                g.copy_((g.float() * inv).to(g.dtype))
        self._found_inf = found
        st["state"] = OptimizerState.UNSCALED

    def minimize(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscale (unless unscale_ was called), run optimizer.minimize unless a gradient is inf/nan, update."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._optimizer_states[id(optimizer)]["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        result = (None, None)
        if self._found_inf:
            self._cache_found_inf = True
        else:
            result = optimizer.minimize(*args, **kwargs)
            self._cache_found_inf = False
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_fresh_state)
        return result

    def _update(self) -> None:
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                print(f"Found inf or nan, current scale is: {float(self._scale)}, decrease to: "
                      f"{float(self._scale)}*{float(self._decr_ratio)}")
                self._scale = self._scale * self._decr_ratio
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = self._scale * self._incr_ratio
                self._incr_count = 0

    # --- settings -------------------------------------------------------------------------------------
    def is_enable(self) -> bool:
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling: float) -> None:
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = torch.tensor([float(new_init_loss_scaling)], dtype=torch.float32)

    def get_incr_ratio(self) -> float:
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        if not new_incr_ratio > 1.0:
            raise ValueError(f"{_A}GradScaler.set_incr_ratio: The new_incr_ratio must be > 1.0.")
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self) -> float:
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        if not new_decr_ratio < 1.0:
            raise ValueError(f"{_A}GradScaler.set_decr_ratio: The new_decr_ratio must be < 1.0.")
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self) -> int:
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    def state_dict(self) -> dict:
        if not self._enable:
            return {}
        return {"scale": self._scale.numpy().copy(), "incr_ratio": self._incr_ratio, "decr_ratio": self._decr_ratio,
                "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf, "incr_count": self._incr_count,
                "decr_count": self._decr_count, "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_loss_scaling = float(np.asarray(state_dict["scale"]).reshape(-1)[0])
        self._scale = torch.tensor([self._init_loss_scaling], dtype=torch.float32)
        for k in ("incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf", "incr_count",
                  "decr_count", "use_dynamic_loss_scaling"):
            setattr(self, "_" + k, state_dict[k])

    set_state_dict = load_state_dict


class GradScaler(AmpScaler):
    """paddle.amp.GradScaler(enable=True, init_loss_scaling=65536.0, incr_ratio=2.0, decr_ratio=0.5,
    incr_every_n_steps=2000, decr_every_n_nan_or_inf=1, use_dynamic_loss_scaling=True)"""

    def __init__(self, enable: bool = True, init_loss_scaling: float = 65536.0, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int = 2000, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True) -> None:
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def step(self, optimizer: Any) -> None:
        """Unscale (unless unscale_ was called) and run optimizer.step() unless a gradient is inf/nan."""
        if not self._enable:
            return optimizer.step()
        st = self._optimizer_states[id(optimizer)]
        if st["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if st["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._found_inf:
            self._cache_found_inf = True
        else:
            optimizer.step()
            self._cache_found_inf = False
        st["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_fresh_state)

    def update(self) -> None:
        """Adjust the loss scaling after step() (dynamic loss scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_fresh_state)

    def unscale_(self, optimizer: Any) -> None:
        """Divide the optimizer's gradients by the loss scaling now (e.g. before clipping them)."""
        return self._unscale(optimizer)


export(auto_cast, _A + "auto_cast")
export(decorate, _A + "decorate")
export(GradScaler, _A + "GradScaler")
export(OptimizerState, _A + "OptimizerState")
export(AmpScaler, "paddle.amp.grad_scaler.AmpScaler")
export(is_float16_supported, _A + "is_float16_supported")
export(is_bfloat16_supported, _A + "is_bfloat16_supported")
