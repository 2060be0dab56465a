"""paddle.utils: deprecated, run_check (try_import is in optional.py)."""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable

from paddle_compat.engine.core import api_level
from paddle_compat.engine.framework.registry import export


def _version_tuple(v: str) -> list[int]:
    parts = [int(i) for i in v.split(".")]
    return parts + [0] * (4 - len(parts))


def deprecated(update_to: str = "", since: str = "", reason: str = "", level: int = 0) -> Callable[[Any], Any]:
    """Paddle 2.4's decorator: notes the deprecation in the docstring; level 1 warns (DeprecationWarning) when
    the API is called from version `since` on, level 2 raises RuntimeError, level 0 only edits the docstring."""
    if not isinstance(update_to, str):
        raise TypeError('paddle.utils.deprecated: type of "update_to" must be str.')
    if not isinstance(since, str):
        raise TypeError('paddle.utils.deprecated: type of "since" must be str.')
    if not isinstance(reason, str):
        raise TypeError('paddle.utils.deprecated: type of "reason" must be str.')
    if not isinstance(level, int) or not 0 <= level < 3:
        raise ValueError(f'paddle.utils.deprecated: "level" must be one of 0, 1, 2. But received: {level}.')
    _since, _update_to, _reason = since.strip(), update_to.strip(), reason.strip()
    if _update_to and not _update_to.startswith("paddle."):
        raise ValueError(f'paddle.utils.deprecated: Argument update_to must start with "paddle.", your value is '
                         f'"{update_to}"')

    def decorator(func: Any) -> Any:
        msg = f'API "{func.__module__}.{func.__name__}" is deprecated'
        if _since:
            msg += f" since {_since}"
        msg += ", and will be removed in future versions."
        if _update_to:
            msg += f' Please use "{_update_to}" instead.'
        if _reason:
            msg += f"\nreason: {_reason}"
        if func.__doc__:
            func.__doc__ = "\n\nWarning: " + msg + "\n" + func.__doc__
        if level == 0:
            return func

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if level == 2:
                raise RuntimeError(f'API "{func.__module__}.{func.__name__}" has been deprecated.')
            if not _since or _version_tuple(api_level.version()) >= _version_tuple(_since):
                warnings.warn(f"\nWarning:\n{msg} ", category=DeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorator


def run_check() -> None:
    """Train a tiny network once in static mode and once in dygraph on the default device, as Paddle does."""
    import numpy as np
    import torch

    import paddle
    from paddle_compat.engine.core import mode as _mode

    print("Running verify PaddlePaddle program ... ")
    use_cuda = torch.cuda.is_available()
    device_str = "GPU" if use_cuda else "CPU"
    data = np.ones([2, 2], np.float32)
    saved = (_mode.MODE.static, _mode.MODE.explicit)
    try:
        paddle.enable_static()
        with paddle.static.scope_guard(paddle.static.Scope()):
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                x = paddle.static.data("inp", [2, 2], "float32")
                w = paddle.create_parameter([2, 3], "float32", name="run_check_w",
                                            default_initializer=paddle.nn.initializer.Constant(0.5))
                out = paddle.sum(paddle.matmul(x, w))
                grads = paddle.static.append_backward(out, parameter_list=[w.name])[0]
            exe = paddle.static.Executor(paddle.CUDAPlace(0) if use_cuda else paddle.CPUPlace())
            exe.run(startup)
            exe.run(main, feed={"inp": data}, fetch_list=[out.name, grads[1].name])
        paddle.disable_static()
        linear = paddle.nn.Linear(2, 4)
        loss = paddle.sum(linear(paddle.to_tensor(data)))
        loss.backward()
        opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=linear.parameters())
        opt.step()
    finally:
        _mode.MODE.static, _mode.MODE.explicit = saved
    print(f"PaddlePaddle works well on 1 {device_str}.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.")


export(deprecated, "paddle.utils.deprecated")
export(run_check, "paddle.utils.run_check")
