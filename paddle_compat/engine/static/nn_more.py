"""More static layers that create parameters, with fluid 1.8's names and defaults (also paddle.static.nn.*):
conv2d_transpose, conv3d, conv3d_transpose, layer_norm, group_norm, instance_norm, prelu,
bilinear_tensor_product; and Print. Each creates its parameters inside a `layer_helper` (`conv2d_transpose_0.w_0`)
and records the 2.x functional op on them, so static and dygraph share one definition of the math."""

from __future__ import annotations

import math
from typing import Any

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.lookup import F, P
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.static import initializer as init_mod
from paddle_compat.engine.static.nn import conv_filter
from paddle_compat.engine.static.param import create_parameter_impl


def _ints(v: Any, n: int) -> list[int]:
    return [int(v)] * n if isinstance(v, int) else [int(x) for x in v]


def _channels(api: str, x: Any, data_format: str) -> int:
    c = x.shape[1] if data_format.startswith("NC") else x.shape[-1]
    if c < 0:
        raise InvalidArgumentError(f"{api}: the channel dim of input {getattr(x, 'name', '')!r} must be known, got "
                                   f"shape {list(x.shape)}")
    return c


def _conv(api: str, nd: int, transposed: bool, input: Any, num_filters: int, filter_size: Any,  # noqa: A002
          stride: Any, padding: Any, dilation: Any, groups: Any, param_attr: Any, bias_attr: Any, act: Any,
          name: Any, data_format: str, output_size: Any = None) -> Any:
    if len(input.shape) != nd + 2:
        raise InvalidArgumentError(f"{api}: the input should be {nd + 2}-D, got shape {list(input.shape)}")
    channels = _channels(api, input, data_format)
    groups = groups or 1
    if channels % groups or (transposed and num_filters % groups):
        raise InvalidArgumentError(f"{api}: channels ({channels}) and num_filters ({num_filters}) must be "
                                   f"divisible by groups ({groups})")
    if filter_size is None:  # transposed, from output_size (Paddle's formula)
        if output_size is None:
            raise InvalidArgumentError(f"{api}: output_size and filter_size should not be both None")
        outs, st, pd, dl = _ints(output_size, nd), _ints(stride, nd), _ints(padding, nd), _ints(dilation, nd)
        spatial = input.shape[2:] if data_format.startswith("NC") else input.shape[1:-1]
        filter_size = [(o - (i - 1) * s + 2 * p - 1) // d + 1 for o, i, s, p, d in zip(outs, spatial, st, pd, dl)]
    k = _ints(filter_size, nd)
    kw: dict[str, Any] = dict(stride=stride, padding=padding, dilation=dilation, groups=groups,
                              data_format=data_format)
    if transposed and output_size is not None:
        kw["output_size"] = output_size
    shape, init = conv_filter(channels, num_filters, k, groups, transposed)
    fn = ("conv%dd_transpose" if transposed else "conv%dd") % nd
    with layer_helper(fn, name) as prefix:
        w = create_parameter_impl(shape, input.dtype, param_attr, False, default_initializer=init, prefix=prefix)
        b = create_parameter_impl([num_filters], input.dtype, bias_attr, True, prefix=prefix)
        return act_layer(F(fn)(input, w, bias=b, **kw), act)


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0, stride=1, dilation=1,  # noqa: A002
                     groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
                     data_format="NCHW"):
    return _conv("fluid.layers.conv2d_transpose", 2, True, input, num_filters, filter_size, stride, padding,
                 dilation, groups, param_attr, bias_attr, act, name, data_format, output_size)


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,  # noqa: A002
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    return _conv("fluid.layers.conv3d", 3, False, input, num_filters, filter_size, stride, padding, dilation,
                 groups, param_attr, bias_attr, act, name, data_format)


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0, stride=1, dilation=1,  # noqa: A002
                     groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
                     data_format="NCDHW"):
    return _conv("fluid.layers.conv3d_transpose", 3, True, input, num_filters, filter_size, stride, padding,
                 dilation, groups, param_attr, bias_attr, act, name, data_format, output_size)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05, param_attr=None,  # noqa: A002
               bias_attr=None, act=None, name=None):
    """Normalizes over dims begin_norm_axis..; scale / bias are flat [prod(those dims)] (init 1 / 0)."""
    shape = list(input.shape[begin_norm_axis:])
    if any(d < 0 for d in shape):
        raise InvalidArgumentError(f"fluid.layers.layer_norm: the normalized dims {shape} of input "
                                   f"{getattr(input, 'name', '')!r} must be known")
    n = [math.prod(shape)]
    with layer_helper("layer_norm", name) as prefix:
        w = create_parameter_impl(n, input.dtype, param_attr, False, default_initializer=init_mod.Constant(1.0),
                                  prefix=prefix) if scale else None
        b = create_parameter_impl(n, input.dtype, bias_attr, True, prefix=prefix) if shift else None
        return act_layer(F("layer_norm")(input, shape, weight=w, bias=b, epsilon=epsilon), act)


def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None, data_layout="NCHW",  # noqa: A002
               name=None):
    from paddle_compat.engine.framework import registry

    c = _channels("fluid.layers.group_norm", input, data_layout)
    with layer_helper("group_norm", name) as prefix:
        w = create_parameter_impl([c], input.dtype, param_attr, False, default_initializer=init_mod.Constant(1.0),
                                  prefix=prefix)
        b = create_parameter_impl([c], input.dtype, bias_attr, True, prefix=prefix)
        out = registry.OPS["group_norm"].public(input, groups, scale=w, bias=b, epsilon=epsilon,
                                                data_layout=data_layout)
        return act_layer(out, act)


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):  # noqa: A002
    c = _channels("fluid.layers.instance_norm", input, "NCHW")
    with layer_helper("instance_norm", name) as prefix:
        w = create_parameter_impl([c], input.dtype, param_attr, False, default_initializer=init_mod.Constant(1.0),
                                  prefix=prefix)
        b = create_parameter_impl([c], input.dtype, bias_attr, True, prefix=prefix)
        return F("instance_norm")(input, weight=w, bias=b, eps=epsilon)


def prelu(x, mode, param_attr=None, name=None, data_format="NCHW"):
    """alpha: [1] ('all'), [1, C, 1, 1] ('channel'), [1] + x.shape[1:] ('element'); init 0.25."""
    if mode not in ("all", "channel", "element"):
        raise ValueError(f"fluid.layers.prelu: mode should be one of all, channel, element, got {mode!r}")
    if mode == "all":
        shape = [1]
    elif mode == "channel":
        c = _channels("fluid.layers.prelu", x, data_format)
        shape = [1, c, 1, 1] if data_format.startswith("NC") else [1, 1, 1, c]
    else:
        shape = [1] + list(x.shape[1:])
    with layer_helper("prelu", name) as prefix:
        alpha = create_parameter_impl(shape, x.dtype, param_attr, False, default_initializer=init_mod.Constant(0.25),
                                      prefix=prefix)
        if mode == "element":
            neg = P("scale")(F("relu")(P("scale")(x, -1.0)), -1.0)
            return P("add")(F("relu")(x), P("multiply")(alpha, neg))
        return F("prelu")(x, P("reshape")(alpha, [-1]), data_format=data_format)


def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None, bias_attr=None):
    with layer_helper("bilinear_tensor_product", name) as prefix:
        w = create_parameter_impl([size, x.shape[-1], y.shape[-1]], x.dtype, param_attr, False, prefix=prefix)
        b = create_parameter_impl([1, size], x.dtype, bias_attr, True, prefix=prefix)
        return act_layer(F("bilinear")(x, y, w, b), act)


for _fn in (conv2d_transpose, conv3d, conv3d_transpose, layer_norm, group_norm, instance_norm, prelu,
            bilinear_tensor_product):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}", f"paddle.static.nn.{_fn.__name__}")


@op("print")
def _print(x, message, summarize, name, print_name, print_type, print_shape):
    import numpy as np

    parts = [message] if message else []
    if print_name:
        parts.append(f"Variable: {name}")
    if print_type:
        parts.append(f"  - dtype: {str(x.dtype).replace('torch.', '')}")
    if print_shape:
        parts.append(f"  - shape: {list(x.shape)}")
    flat = x.detach().reshape(-1).cpu().numpy()
    shown = flat if summarize < 0 else flat[:summarize]
    parts.append(f"  - data: {np.array2string(shown, separator=' ')}")
    print("\n".join(parts), flush=True)
    return x.clone()


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True, print_tensor_type=True,  # noqa: A002, N802
          print_tensor_shape=True, print_tensor_lod=True, print_phase="both"):
    """fluid.layers.Print / paddle.static.Print: prints the tensor each time it is computed (forward phase) and
    passes it on; first_n and the backward phase are not reproduced."""
    return _print(input, message or "", int(summarize), getattr(input, "name", "") or "", print_tensor_name,
                  print_tensor_type, print_tensor_shape)


export(Print, "paddle.fluid.layers.Print", "paddle.static.Print")


class _SpectralNorm(torch.autograd.Function):
    """Paddle's spectral_norm kernels on the [h, w] matrix view: out = W / sigma, sigma = u^T W v after the power
    iteration. The gradient is Paddle 1.8.5's grad kernel, dW = dOut * (1 - u v^T * sum(W / sigma)) / sigma
    (elementwise), not the exact derivative of W / sigma: training follows Paddle's numbers."""

    @staticmethod
    def forward(ctx, mat, u, v, power_iters, eps):  # noqa: ANN001
        uu, vv = u.reshape(-1).clone(), v.reshape(-1).clone()
        for _ in range(power_iters):
            vv = mat.t() @ uu
            vv = vv / (vv.norm() + eps)
            uu = mat @ vv
            uu = uu / (uu.norm() + eps)
        sigma = uu @ (mat @ vv)
        out = mat / sigma
        ctx.save_for_backward(out, uu, vv, sigma)
        return out

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001
        out, uu, vv, sigma = ctx.saved_tensors
        return g * (1.0 - torch.outer(uu, vv) * out.sum()) / sigma, None, None, None, None


@op("spectral_norm", infer=lambda weight, u, v, dim, power_iters, eps: Spec(tuple(weight.shape), weight.dtype))
def _spectral_norm(weight, u, v, dim, power_iters, eps):
    """U and V start the power iteration and are not updated (as Paddle 1.8.5's kernel)."""
    perm = [dim] + [i for i in range(weight.dim()) if i != dim]
    mat = weight.permute(perm).reshape(weight.shape[dim], -1)
    out = _SpectralNorm.apply(mat, u.detach(), v.detach(), power_iters, eps)
    inv = [perm.index(i) for i in range(weight.dim())]
    return out.reshape([weight.shape[i] for i in perm]).permute(inv)


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """fluid.layers.spectral_norm: U [weight.shape[dim]] and V [the other dims' product] (`spectral_norm_N.w_0/1`,
    Normal(0, 1), not trained) start the power iteration."""
    shape = list(weight.shape)
    if dim not in (0, 1):
        raise InvalidArgumentError(f"fluid.layers.spectral_norm: Attr(dim) can only be 0 or 1, but received {dim}")
    if any(d < 0 for d in shape):
        raise InvalidArgumentError(f"fluid.layers.spectral_norm: the weight's shape {shape} must be known")
    h = shape[dim]
    w = math.prod(shape) // h
    with layer_helper("spectral_norm", name) as prefix:
        u, v = (create_parameter_impl([n], weight.dtype, None, False, prefix=prefix, stop_gradient=True,
                                      default_initializer=init_mod.NormalInitializer(0.0, 1.0)) for n in (h, w))
        return _spectral_norm(weight, u, v, int(dim), int(power_iters), float(eps))


export(spectral_norm, "paddle.fluid.layers.spectral_norm", "paddle.static.nn.spectral_norm")
