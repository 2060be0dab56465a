"""Shape and layout ops of python/paddle/tensor/manipulation.py (2.x): view / view_as / as_strided, unflatten,
unfold, moveaxis, rot90, repeat_interleave, vsplit, diagonal, crop, broadcast_tensors / broadcast_shape and the
atleast_* family. Views share storage with their input, as Paddle's stride kernels do."""

from __future__ import annotations

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.ops.common import as_int, as_int_list
from paddle_compat.engine.framework.registry import OPS, export, op


def _axis(x: torch.Tensor, axis: int, api: str) -> int:
    axis = as_int(axis)
    if not -max(x.dim(), 1) <= axis < max(x.dim(), 1):
        raise ValueError(f"{api}: axis {axis} is out of range for x of shape {list(x.shape)}")
    return axis % max(x.dim(), 1)


@op("view_shape", exports=("paddle.view", "paddle.Tensor.view"))
def view(x, shape_or_dtype, name=None):
    """A view of x with another shape (a list) or another dtype (its bytes reinterpreted)."""
    if isinstance(shape_or_dtype, (list, tuple)):
        return x.view(as_int_list(shape_or_dtype))
    return x.view(_dt.to_dtype(shape_or_dtype).torch)


@op("view_as", exports=("paddle.view_as", "paddle.Tensor.view_as"))
def view_as(x, other, name=None):
    return x.view(other.shape)


@op("as_strided", exports=("paddle.as_strided", "paddle.Tensor.as_strided"))
def as_strided(x, shape, stride, offset=0, name=None):
    """A view of x's storage: stride in elements, offset in bytes (as Paddle counts them)."""
    size = x.element_size()
    if int(offset) % size:
        raise ValueError(f"paddle.as_strided: offset ({offset}) is in bytes and must be a multiple of the element "
                         f"size ({size}) of {str(x.dtype)[6:]}")
    return torch.as_strided(x, as_int_list(shape), as_int_list(stride), x.storage_offset() + int(offset) // size)


@op("unflatten", exports=("paddle.unflatten", "paddle.Tensor.unflatten"))
def unflatten(x, axis, shape, name=None):
    if not isinstance(shape, (list, tuple, torch.Tensor)):
        raise TypeError(f"paddle.unflatten: shape must be a list, tuple or Tensor, but got {type(shape).__name__}")
    axis = _axis(x, axis, "paddle.unflatten")
    return x.reshape(list(x.shape[:axis]) + as_int_list(shape) + list(x.shape[axis + 1:]))


@op("tensor_unfold", exports=("paddle.unfold", "paddle.Tensor.unfold"))
def unfold(x, axis, size, step, name=None):
    """Windows of `size` every `step` along axis, as a new last dim (not nn.functional.unfold's im2col)."""
    return x.unfold(_axis(x, axis, "paddle.unfold"), int(size), int(step))


@op("moveaxis", exports=("paddle.moveaxis", "paddle.Tensor.moveaxis"))
def moveaxis(x, source, destination, name=None):
    src, dst = as_int_list(source), as_int_list(destination)
    if len(src) != len(dst):
        raise ValueError(f"paddle.moveaxis: source {src} and destination {dst} must have the same length")
    return torch.movedim(x, src, dst)


@op("rot90", exports=("paddle.rot90", "paddle.Tensor.rot90"))
def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006 - Paddle's default
    axes = as_int_list(axes)
    if len(axes) != 2 or x.dim() < 2 or axes[0] % x.dim() == axes[1] % x.dim():
        raise ValueError(f"paddle.rot90: axes must be two different dims of x (shape {list(x.shape)}), got {axes}")
    return torch.rot90(x, int(k), axes)


def _repeat_interleave_infer(x, repeats, axis=None, name=None):
    """Tensor repeats make the repeated dim's size data-dependent (-1)."""
    from paddle_compat.engine.framework.infer import Spec
    from paddle_compat.engine.ops.tensor._helpers import default_infer, is_tensorlike

    if not is_tensorlike(repeats):
        return default_infer(OPS["repeat_interleave"], (x, repeats, axis), {})
    shape = [-1] if axis is None else [-1 if i == axis % len(x.shape) else d for i, d in enumerate(x.shape)]
    return Spec(tuple(shape), x.dtype)


@op("repeat_interleave", exports=("paddle.repeat_interleave", "paddle.Tensor.repeat_interleave"),
    infer=_repeat_interleave_infer)
def repeat_interleave(x, repeats, axis=None, name=None):
    if axis is None:
        x, axis = x.flatten(), 0
    return torch.repeat_interleave(x, repeats if isinstance(repeats, torch.Tensor) else int(repeats), dim=int(axis))


def vsplit(x, num_or_sections, name=None):
    """paddle.split along axis 0, for x of rank 2 or more."""
    if x.ndim < 2:
        raise ValueError(f"paddle.vsplit: x must have 2 or more dims, but got {x.ndim}")
    return OPS["split"].public(x, num_or_sections, axis=0)


export(vsplit, "paddle.vsplit", "paddle.Tensor.vsplit")


@op("diagonal", exports=("paddle.diagonal", "paddle.Tensor.diagonal"))
def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    return torch.diagonal(x, offset=int(offset), dim1=int(axis1), dim2=int(axis2))


def crop(x, shape=None, offsets=None, name=None):
    """paddle.crop: Paddle's crop_tensor op (the fluid.layers.crop_tensor body)."""
    return OPS["crop_tensor"].public(x, shape, offsets)


export(crop, "paddle.crop")


@op("broadcast_tensors", exports=("paddle.broadcast_tensors", "paddle.Tensor.broadcast_tensors"))
def broadcast_tensors(input, name=None):  # noqa: A002
    return [t.clone() for t in torch.broadcast_tensors(*input)]


def broadcast_shape(x_shape, y_shape):
    """The broadcast result shape of two shapes, as a list."""
    try:
        return list(torch.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except RuntimeError as e:
        raise ValueError(f"paddle.broadcast_shape: shapes {list(x_shape)} and {list(y_shape)} do not broadcast") \
            from e


export(broadcast_shape, "paddle.broadcast_shape", "paddle.Tensor.broadcast_shape")


def _atleast(rank: int, layout):
    """atleast_Nd(*inputs): inputs of lower rank reshaped to `layout(shape)`; one input gives a Tensor, several a
    list (numbers become tensors first, as in Paddle)."""
    def fn(*inputs, name=None):
        from paddle_compat.engine.ops.tensor._helpers import is_tensorlike
        from paddle_compat.engine.ops.tensor.manipulation import reshape

        from paddle_compat.engine.framework.tensor import to_tensor

        out = []
        for t in inputs:
            t = t if is_tensorlike(t) else to_tensor(t)
            out.append(reshape(t, layout(list(t.shape))) if len(t.shape) < rank else t)
        return out[0] if len(out) == 1 else out

    fn.__name__ = fn.__qualname__ = f"atleast_{rank}d"
    export(fn, f"paddle.atleast_{rank}d", f"paddle.Tensor.atleast_{rank}d")
    return fn


atleast_1d = _atleast(1, lambda s: s or [1])
atleast_2d = _atleast(2, lambda s: [1] * (2 - len(s)) + s)
atleast_3d = _atleast(3, lambda s: {0: [1, 1, 1], 1: [1] + s + [1], 2: s + [1]}[len(s)])
