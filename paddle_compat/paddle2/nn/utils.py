"""paddle.nn.utils: weight_norm / remove_weight_norm and spectral_norm (forward pre-hooks that recompute a
layer's weight from new parameters, as Paddle's), clip_grad_norm_ / clip_grad_value_, and
parameters_to_vector / vector_to_parameters. Dygraph APIs, like Paddle's.

The recomputed weights are torch expressions over the parameters' tensors, so gradients reach `weight_g` /
`weight_v` / `weight_orig`. Goldens: tests/goldens/nn26_utils (tools/oracle/rec_nn26_utils.py).
"""

from __future__ import annotations

import math
from typing import Any

import torch

from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export

_U = "paddle.nn.utils."


def _other_dims(ndim: int, dim: int) -> list[int]:
    return [d for d in range(ndim) if d != dim] if dim != -1 else list(range(ndim))


def _norm_except_dim(w: torch.Tensor, dim: int) -> torch.Tensor:
    """sqrt(sum of squares over every dim but `dim` + 1e-12): shape [w.shape[dim]] ([1] for dim -1). A 1-D w
    with dim 0 has no other dim: each element's own square (torch's sum over dim=[] would sum everything)."""
    axes = _other_dims(w.dim(), dim)
    sq = torch.square(w).sum(dim=axes) if axes else torch.square(w)
    return torch.sqrt(sq + 1e-12).reshape(-1)


def _weight_from(v: torch.Tensor, g: torch.Tensor, dim: int) -> torch.Tensor:
    """g * v / ||v||, the norm taken over every dim but `dim` (over all dims for -1)."""
    if dim == -1:
        return v / (torch.sqrt(torch.square(v).sum()) + 1e-12) * g
    axes = _other_dims(v.dim(), dim)
    norm = (torch.sqrt(torch.square(v).sum(dim=axes, keepdim=True)) if axes else v.abs()).clamp_min(1e-12)
    shape = [1] * v.dim()
    shape[dim] = -1
    return v / norm * g.reshape(shape)


def _static_norm_except_dim(w: Any, dim: int) -> Any:
    """_norm_except_dim recorded with ops (static mode): shape [w.shape[dim]] ([1] for dim -1)."""
    from paddle_compat.engine.framework.lookup import P

    axes = _other_dims(len(w.shape), dim)
    sq = P("sum")(P("square")(w), axis=axes) if axes else P("square")(w)
    return P("reshape")(P("sqrt")(P("scale")(sq, 1.0, 1e-12)), [-1])


def _static_weight_from(v: Any, g: Any, dim: int) -> Any:
    """_weight_from recorded with ops (static mode)."""
    from paddle_compat.engine.framework.lookup import P

    ndim = len(v.shape)
    if dim == -1:
        return P("multiply")(P("divide")(v, P("scale")(P("sqrt")(P("sum")(P("square")(v))), 1.0, 1e-12)), g)
    axes = _other_dims(ndim, dim)
    norm = P("sqrt")(P("sum")(P("square")(v), axis=axes, keepdim=True)) if axes else P("abs")(v)
    shape = [1] * ndim
    shape[dim] = -1
    return P("multiply")(P("divide")(v, P("clip")(norm, min=1e-12)), P("reshape")(g, shape))


class WeightNorm:
    """The forward pre-hook of weight_norm: weight = g * v / ||v||."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, layer: Any) -> Tensor:
        g, v = getattr(layer, self.name + "_g"), getattr(layer, self.name + "_v")
        if not isinstance(v, Tensor):  # static Parameters: record the ops
            return _static_weight_from(v, g, self.dim)
        return Tensor._wrap(_weight_from(v._t, g._t, self.dim))

    def __call__(self, layer: Any, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer))


def _new_param(layer: Any, value: torch.Tensor) -> Any:
    p = layer.create_parameter(list(value.shape), dtype=str(value.dtype).replace("torch.", ""))
    with torch.no_grad():
        p._t.copy_(value)
    return p


def weight_norm(layer: Any, name: str = "weight", dim: int = 0) -> Any:
    """Replace parameter `name` by `name_g` (its norm over every dim but `dim`) and `name_v` (its direction);
    dim=None normalises over the whole tensor."""
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, WeightNorm) and hook.name == name:
            raise RuntimeError(f"{_U}weight_norm: Cannot register two weight_norm hooks on the same parameter {name}")
    if name not in layer._parameters or layer._parameters[name] is None:
        raise ValueError(f"{_U}weight_norm: {type(layer).__name__} has no parameter {name!r}")
    w = layer._parameters[name]
    ndim = len(w.shape)
    dim = -1 if dim is None else dim
    if not -ndim <= dim < ndim:
        raise ValueError(f"{_U}weight_norm: dim must set between [-R, R), R means the dimension of weight "
                         f"(R = {ndim}, got dim {dim}).")
    if dim != -1:
        dim = (dim + ndim) % ndim
    fn = WeightNorm(name, dim)
    del layer._parameters[name]
    if not isinstance(w, Tensor):  # a static Parameter (the layer was built in static mode), as Paddle: new
        # parameters v and g, assigned w and its norm by ops of the main program
        from paddle_compat.engine.framework.lookup import P

        g_var = _static_norm_except_dim(w, dim)
        v = layer.create_parameter(list(w.shape), dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(list(g_var.shape), dtype=g_var.dtype)
        layer.add_parameter(name + "_g", g)
        P("assign")(w, v)
        P("assign")(g_var, g)
        setattr(layer, name, fn.compute_weight(layer))
        layer.register_forward_pre_hook(fn)
        return layer
    layer.add_parameter(name + "_v", _new_param(layer, w._t.detach()))
    layer.add_parameter(name + "_g", _new_param(layer, _norm_except_dim(w._t.detach(), dim)))
    setattr(layer, name, fn.compute_weight(layer))
    layer.register_forward_pre_hook(fn)
    return layer


def remove_weight_norm(layer: Any, name: str = "weight") -> Any:
    """Fold `name_g` / `name_v` back into one parameter `name`."""
    for key, hook in list(layer._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            w = hook.compute_weight(layer)
            delattr(layer, name)
            del layer._parameters[name + "_g"]
            del layer._parameters[name + "_v"]
            if isinstance(w, Tensor):
                layer.add_parameter(name, _new_param(layer, w._t.detach()))
            else:  # static: a new parameter assigned the weight by an op of the main program, as Paddle
                from paddle_compat.engine.framework.lookup import P

                p = layer.create_parameter(list(w.shape), dtype=w.dtype)
                layer.add_parameter(name, p)
                P("assign")(w, p)
            del layer._forward_pre_hooks[key]
            return layer
    raise ValueError(f"{_U}remove_weight_norm: weight_norm of '{name}' not found in {layer}")


class SpectralNorm:
    """The forward pre-hook of spectral_norm: weight = weight_orig / sigma, sigma from power iteration on
    the buffers weight_u / weight_v (iterated only in training mode)."""

    def __init__(self, name: str, n_power_iterations: int, dim: int, eps: float) -> None:
        if n_power_iterations <= 0:
            raise ValueError(f"{_U}spectral_norm: Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.n_power_iterations, self.dim, self.eps = name, n_power_iterations, dim, eps

    def matrix(self, w: torch.Tensor) -> torch.Tensor:
        if self.dim != 0:
            w = w.permute([self.dim] + [d for d in range(w.dim()) if d != self.dim])
        return w.reshape(w.shape[0], -1)

    def _normalize(self, t: torch.Tensor) -> torch.Tensor:
        return t / torch.linalg.vector_norm(t).clamp_min(self.eps)

    def compute_weight(self, layer: Any, do_power_iteration: bool) -> Tensor:
        weight = getattr(layer, self.name + "_orig")._t
        ub, vb = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        mat = self.matrix(weight)
        u, v = ub._t, vb._t
        if do_power_iteration:
            with torch.no_grad():
                m = mat.detach()
                for _ in range(self.n_power_iterations):
                    v.copy_(self._normalize(m.t() @ u))
                    u.copy_(self._normalize(m @ v))
            u, v = u.clone(), v.clone()
        sigma = torch.dot(u, mat @ v)
        return Tensor._wrap(weight / sigma)

    def __call__(self, layer: Any, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer, do_power_iteration=layer.training))


def spectral_norm(layer: Any, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Any:
    """Divide parameter `name` by its largest singular value (estimated by power iteration each training
    forward); the parameter becomes `name_orig`, the iteration vectors buffers `name_u` / `name_v`. dim
    defaults to 1 for Linear and the transposed convolutions (their output axis), else 0."""
    from paddle_compat.engine.framework.registry import EXPORTS
    from paddle_compat.engine.ops.tensor.creation import _gen

    if dim is None:
        nn = EXPORTS["paddle.nn"]
        dim = 1 if isinstance(layer, tuple(nn[c] for c in ("Conv1DTranspose", "Conv2DTranspose",
                                                           "Conv3DTranspose", "Linear"))) else 0
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            raise RuntimeError(f"{_U}spectral_norm: Cannot register two spectral_norm hooks on the same parameter "
                               f"{name}")
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    weight = layer._parameters[name]
    h, w = fn.matrix(weight._t.detach()).shape
    u = fn._normalize(torch.empty(h, dtype=weight._t.dtype, device=weight._t.device).normal_(generator=_gen()))
    v = fn._normalize(torch.empty(w, dtype=weight._t.dtype, device=weight._t.device).normal_(generator=_gen()))
    del layer._parameters[name]
    layer.add_parameter(name + "_orig", weight)
    setattr(layer, name, Tensor._wrap(weight._t * 1.0))
    layer.register_buffer(name + "_u", Tensor._wrap(u))
    layer.register_buffer(name + "_v", Tensor._wrap(v))
    layer.register_forward_pre_hook(fn)
    return layer


# --------------------------------------------------------------------------------------------- gradients
def _dygraph_only(api: str) -> None:
    if MODE.static:
        raise RuntimeError(f"{api}: this API can only run in dynamic mode.")


def _params(parameters: Any) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False) -> Tensor:
    """Scale the gradients in place so that their total norm (the norm of the per-parameter norms) is at most
    max_norm (times max_norm / (total + 1e-6) when it is larger); returns the total norm."""
    api = _U + "clip_grad_norm_"
    _dygraph_only(api)
    params = _params(parameters)
    if norm_type not in (float("inf"), 0, 1, 2):
        raise ValueError(f"{api}: norm_type only support [inf, 0, 1, 2], but received {norm_type}")
    grads = [p.grad._t for p in params if p.grad is not None]
    if not grads:
        return Tensor._wrap(torch.tensor(0.0))
    norm_type = float(norm_type)
    with torch.no_grad():
        if norm_type == math.inf:
            total = torch.stack([g.abs().max() for g in grads]).max()
        else:
            total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]),
                                             norm_type)
        if error_if_nonfinite and not bool(torch.isfinite(total)):
            raise RuntimeError(f"{api}: The total norm of {norm_type} order of the gradients from `parameters` is "
                               "non-finite, so it cannot be clipped. In any case, disable this error and scale the "
                               "gradient by non-finite norm, set `error_if_nonfinite=False`")
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for p in params:
            if p.grad is not None:
                p.grad = Tensor._wrap(p.grad._t * coef)
    from paddle_compat.engine.ops.common import scalar_shape

    return Tensor._wrap(scalar_shape(total))


def clip_grad_value_(parameters: Any, clip_value: float) -> None:
    """Clip every gradient in place to [-clip_value, clip_value]."""
    _dygraph_only(_U + "clip_grad_value_")
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in _params(parameters):
            if p.grad is not None:
                p.grad._t.clamp_(-clip_value, clip_value)


def parameters_to_vector(parameters: Any, name: str | None = None) -> Tensor:
    """The parameters flattened and concatenated into one 1-D Tensor (a copy)."""
    params = _params(parameters)
    with torch.no_grad():
        out = torch.cat([p._t.reshape(-1) for p in params])
    t = Tensor._wrap(out.requires_grad_(out.is_floating_point()))
    t.stop_gradient = False
    return t


def vector_to_parameters(vec: Any, parameters: Any, name: str | None = None) -> None:
    """Copy consecutive slices of the 1-D `vec` into the parameters (in place)."""
    api = _U + "vector_to_parameters"
    params = _params(parameters)
    sizes = [int(math.prod(p.shape)) for p in params]
    if len(vec.shape) != 1 or vec.shape[0] != sum(sizes):
        raise ValueError(f"{api}: vec should be 1-D with {sum(sizes)} elements (the parameters' total), but "
                         f"received shape {list(vec.shape)}")
    with torch.no_grad():
        for p, part in zip(params, torch.split(vec._t, sizes)):
            p._t.copy_(part.reshape(p._t.shape))


for _fn in (weight_norm, remove_weight_norm, spectral_norm, clip_grad_norm_, clip_grad_value_, parameters_to_vector,
            vector_to_parameters):
    export(_fn, _U + _fn.__name__)
