"""Helpers of Paddle 2.6's modules that scripts import although no `__all__` lists them (they show in the modules'
`dir()`: reference/surface/paddle_2.6.2_public.json): paddle.async_save, paddle.utils' nest / shape helpers,
paddle.device.cuda.extract_cuda_device_id, paddle.base.framework.in_dynamic_or_pir_mode, and amp's older names
amp_guard / amp_decorate (the same functions as auto_cast / decorate, with the same signatures)."""

from __future__ import annotations

from typing import Any

import numpy as np

from paddle_compat.engine.framework.registry import EXPORTS, alias, export

# --- paddle.async_save -------------------------------------------------------------------------------------------


def async_save(obj: Any, path: str, protocol: int = 4, sync_other_task: bool = False, **configs: Any) -> None:
    """paddle.async_save: paddle.save; the file is complete when this returns (it writes in this thread, so there
    is never a pending task for clear_async_save_task_queue to wait for)."""
    EXPORTS["paddle"]["save"](obj, path, protocol=protocol, **configs)


def clear_async_save_task_queue() -> None:
    """Wait for the pending async_save tasks: async_save finishes before it returns, so none is pending."""


export(async_save, "paddle.async_save")
export(clear_async_save_task_queue, "paddle.clear_async_save_task_queue")

# --- paddle.base.framework ---------------------------------------------------------------------------------------


def in_dynamic_or_pir_mode() -> bool:
    """True in dygraph mode. Static programs here are the legacy ProgramDesc IR (paddle.framework.use_pir_api() is
    False), never PIR, so this is in_dynamic_mode()."""
    from paddle_compat.engine.core.mode import in_dynamic_mode

    return in_dynamic_mode()


export(in_dynamic_or_pir_mode, "paddle.base.framework.in_dynamic_or_pir_mode")

# --- paddle.utils (layers_utils) ---------------------------------------------------------------------------------


def to_sequence(nest: Any) -> Any:
    """`nest` itself when it is a sequence (list, tuple, dict), else [nest]."""
    from paddle_compat.paddle2.utils.nest import is_sequence

    return nest if is_sequence(nest) else [nest]


def padding_to_same_structure(nest1: Any, nest2: Any, obj: Any = None) -> tuple:
    """Both structures with every None leaf replaced by `obj`."""
    from paddle_compat.paddle2.utils.nest import flatten, is_sequence, pack_sequence_as

    def pad(value: Any) -> Any:
        if is_sequence(value):
            return pack_sequence_as(value, [obj if v is None else v for v in flatten(value)])
        return obj if value is None else value

    return pad(nest1), pad(nest2)


def convert_shape_to_list(shape: Any) -> Any:
    """A shape given as a list / tuple (of ints or one-element Tensors) or as a Tensor -> a list of ints (a static
    Variable inside a list stays as it is in static mode)."""
    from paddle_compat.engine.core.mode import in_dynamic_mode
    from paddle_compat.engine.framework.tensor import Tensor

    if isinstance(shape, (list, tuple)):
        return [int(np.asarray(x.numpy()).reshape(-1)[0]) if isinstance(x, Tensor) else x for x in shape]
    if in_dynamic_mode() and isinstance(shape, Tensor):
        return np.asarray(shape.numpy()).astype(int).tolist()
    return shape


def check_shape(shape: Any) -> None:
    """The checks fill_constant makes on a shape: an int32 / int64 Variable, or non-negative ints."""
    from paddle_compat.engine.core import dtype as _dt
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    if isinstance(shape, (Variable, Tensor)):
        if _dt.to_dtype(shape.dtype).name not in ("int32", "int64"):
            raise TypeError(f"The data type of 'shape' in fill_constant must be one of ['int32', 'int64'], but "
                            f"received {_dt.to_dtype(shape.dtype).name}.")
        return
    for ele in shape:
        if isinstance(ele, (Variable, Tensor)):
            continue
        if not isinstance(ele, (int, np.integer)) or isinstance(ele, bool):
            raise TypeError("All elements in ``shape`` must be integers when it's a list or tuple")
        if ele < 0:
            raise ValueError("All elements in ``shape`` must be positive when it's a list or tuple")


for _f in (to_sequence, padding_to_same_structure, convert_shape_to_list, check_shape):
    export(_f, f"paddle.utils.{_f.__name__}")

# --- paddle.device.cuda ------------------------------------------------------------------------------------------


def extract_cuda_device_id(device: Any, op_name: str) -> int:
    """The id of a CUDA device given as an int, a CUDAPlace or 'gpu:N' (None: the current device)."""
    import torch

    from paddle_compat.engine.core.place import CUDAPlace

    if device is None:
        return torch.cuda.current_device() if torch.cuda.is_available() else 0
    if isinstance(device, int) and not isinstance(device, bool):
        device_id = device
    elif isinstance(device, CUDAPlace):
        device_id = device.device_id
    elif isinstance(device, str):
        if not device.startswith("gpu:"):
            raise ValueError(f"The current string {device} is not expected. Because {op_name} only support string "
                             "which is like 'gpu:x'. Please input appropriate string again!")
        device_id = int(device[4:])
    else:
        raise ValueError(f"The device type {device} is not expected. Because {op_name} only support int, str or "
                         "paddle.CUDAPlace. Please input appropriate device again!")
    if device_id < 0:
        raise AssertionError(f"The device id must be not less than 0, but got id = {device_id}.")
    count = torch.cuda.device_count()
    if device_id >= count:
        raise AssertionError(f"The device id {device_id} exceeds gpu card number {count}")
    return device_id


export(extract_cuda_device_id, "paddle.device.cuda.extract_cuda_device_id")

# --- paddle.amp: 2.x's first names of auto_cast / decorate --------------------------------------------------------
alias("paddle.amp.auto_cast", "paddle.amp.amp_guard")
alias("paddle.amp.decorate", "paddle.amp.amp_decorate")

# --- what cannot work here, with the reason ----------------------------------------------------------------------
_PIR = ("PIR programs are not supported: static programs here are the legacy ProgramDesc IR (Paddle 2.6's default; "
        "paddle.framework.use_pir_api() is False)")


def _register_unsupported() -> None:
    from paddle_compat._export import unsupported_stub

    for path, kind in (("paddle.IrGuard", "class"), ("paddle.ir_guard", "value"),
                       ("paddle.monkey_patch_program", "function"), ("paddle.monkey_patch_value", "function")):
        export(unsupported_stub(path, kind, _PIR), path)
    for path in ("paddle.CustomPlace", "paddle.IPUPlace"):
        export(unsupported_stub(path, "class", "custom devices and Graphcore IPUs have no torch backend here: use "
                                               "paddle.CPUPlace() or paddle.CUDAPlace(id)"), path)


_register_unsupported()

# --- paddle.fft's kernels by layout (fft_c2c, fft_r2c, fft_c2r and their n-d forms), which the public functions
# call with a direction; here each is the public function it stands for (same arguments, same checks) ------------


def _fft(name: str) -> Any:
    return EXPORTS["paddle.fft"][name]


def fft_c2c(x: Any, n: Any, axis: Any, norm: str, forward: bool, name: str | None = None) -> Any:
    """Complex-to-complex transform along `axis` (a real input is taken as complex): fft, or ifft when not
    forward."""
    return _fft("fft" if forward else "ifft")(x, n, -1 if axis is None else axis, norm)


def fft_r2c(x: Any, n: Any, axis: Any, norm: str, forward: bool, onesided: bool, name: str | None = None) -> Any:
    """Real-to-complex transform: rfft / fft forward, ihfft / ifft backward (onesided keeps n // 2 + 1 bins)."""
    api = ("rfft" if onesided else "fft") if forward else ("ihfft" if onesided else "ifft")
    return _fft(api)(x, n, -1 if axis is None else axis, norm)


def fft_c2r(x: Any, n: Any, axis: Any, norm: str, forward: bool, name: str | None = None) -> Any:
    """Complex-to-real transform of a onesided spectrum: hfft forward, irfft backward."""
    return _fft("hfft" if forward else "irfft")(x, n, -1 if axis is None else axis, norm)


def fftn_c2c(x: Any, s: Any, axes: Any, norm: str, forward: bool, name: str | None = None) -> Any:
    return _fft("fftn" if forward else "ifftn")(x, s, axes, norm)


def fftn_r2c(x: Any, s: Any, axes: Any, norm: str, forward: bool, onesided: bool, name: str | None = None) -> Any:
    api = ("rfftn" if onesided else "fftn") if forward else ("ihfftn" if onesided else "ifftn")
    return _fft(api)(x, s, axes, norm)


def fftn_c2r(x: Any, s: Any, axes: Any, norm: str, forward: bool, name: str | None = None) -> Any:
    return _fft("hfftn" if forward else "irfftn")(x, s, axes, norm)


for _f in (fft_c2c, fft_r2c, fft_c2r, fftn_c2c, fftn_r2c, fftn_c2r):
    export(_f, f"paddle.fft.{_f.__name__}")
