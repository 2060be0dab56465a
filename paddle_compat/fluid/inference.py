"""fluid.core's native inference API of Paddle 1.8 (the Python face of its C++ PaddlePredictor): PaddleBuf,
PaddleTensor, PaddleDType, NativeConfig, AnalysisConfig, create_paddle_predictor / PaddlePredictor, and
CompiledProgram._with_inference_optimize(config) (engine/static/compiler.py) that makes `exe.run(compiled, feed=[...])`
run such a predictor, as book/test_word2vec does.

A predictor is a paddle.inference.Predictor (paddle2/inference/__init__.py) over the saved model; PaddlePredictor.run
takes and returns PaddleTensors. As in 1.8.5's NativePaddlePredictor, inputs are matched to the model's feed
variables by position (by name when `specify_input_name` is set), and a PaddleBuf is raw bytes that
float_data() / int64_data() / int32_data() read back as that type. tests/fluid/test_fluidtests18.py (case native_inference_api, golden from 1.8.5)."""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from paddle_compat.engine.framework.registry import export


class PaddleDType(enum.IntEnum):
    FLOAT32 = 0
    INT64 = 1
    INT32 = 2

    def __str__(self) -> str:
        return f"PaddleDType.{self.name}"

    __repr__ = __str__


_NP = {PaddleDType.FLOAT32: np.float32, PaddleDType.INT64: np.int64, PaddleDType.INT32: np.int32}


def _dtype_of(arr: np.ndarray, api: str) -> PaddleDType:
    for k, v in _NP.items():
        if arr.dtype == v:
            return k
    raise TypeError(f"{api}: the array's dtype must be float32, int64 or int32, but received {arr.dtype}")


class PaddleBuf:
    """Raw bytes: PaddleBuf(n) zeros, PaddleBuf(list of float) as float32, or a float32 / int64 / int32 array."""

    def __init__(self, data: Any = None) -> None:
        self._buf = bytearray()
        if data is not None:
            self.reset(data) if not isinstance(data, int) else self.resize(data)

    def reset(self, data: Any) -> None:
        if isinstance(data, (list, tuple)):
            arr = np.asarray(data, dtype=np.float32)
        elif isinstance(data, np.ndarray):
            arr = data
            _dtype_of(arr, "paddle.fluid.core.PaddleBuf")
        else:
            raise TypeError("paddle.fluid.core.PaddleBuf: data must be a list of float or a float32 / int64 / int32 "
                            f"numpy array, but received {type(data).__name__}")
        self._buf = bytearray(np.ascontiguousarray(arr).tobytes())

    def resize(self, length: int) -> None:
        n = int(length)
        self._buf = self._buf[:n] + bytearray(max(0, n - len(self._buf)))

    def length(self) -> int:
        return len(self._buf)

    def empty(self) -> bool:
        return not self._buf

    def _as(self, dtype: Any) -> np.ndarray:
        size = np.dtype(dtype).itemsize
        return np.frombuffer(bytes(self._buf[:len(self._buf) // size * size]), dtype=dtype)

    def float_data(self) -> list:
        return self._as(np.float32).tolist()

    def int64_data(self) -> list:
        return self._as(np.int64).tolist()

    def int32_data(self) -> list:
        return self._as(np.int32).tolist()

    def tolist(self, dtype: str) -> list:
        names = {"float32": np.float32, "int64": np.int64, "int32": np.int32}
        if dtype not in names:
            raise ValueError(f"paddle.fluid.core.PaddleBuf.tolist: dtype must be one of {sorted(names)}, but "
                             f"received {dtype!r}")
        return self._as(names[dtype]).tolist()


class PaddleTensor:
    """name, shape, data (a PaddleBuf), dtype (a PaddleDType) and lod; PaddleTensor(array, name='', lod=[])."""

    def __init__(self, data: Any = None, name: str = "", lod: Any = None, copy: bool = True) -> None:
        self.name = name
        self.shape: list = []
        self.lod: list = [list(level) for level in lod] if lod else []
        self.dtype = PaddleDType.FLOAT32
        self.data = PaddleBuf()
        if data is not None:
            arr = np.asarray(data)
            self.dtype = _dtype_of(arr, "paddle.fluid.core.PaddleTensor")
            self.shape = list(arr.shape)
            self.data = PaddleBuf(arr)

    def as_ndarray(self) -> np.ndarray:
        arr = self.data._as(_NP[PaddleDType(self.dtype)])
        n = int(np.prod(self.shape)) if self.shape else arr.size
        if arr.size != n:
            raise ValueError(f"paddle.fluid.core.PaddleTensor.as_ndarray: shape {self.shape} needs {n} elements, "
                             f"but data holds {arr.size}")
        return arr.reshape(self.shape).copy()


class NativeConfig:
    """The native predictor's config: model_dir (or prog_file + param_file), use_gpu, device, ..."""

    def __init__(self) -> None:
        self.model_dir = ""
        self.prog_file = ""
        self.param_file = ""
        self.use_gpu = False
        self.device = 0
        self.fraction_of_gpu_memory = -1.0
        self.specify_input_name = False
        self._threads = 1

    def cpu_math_library_num_threads(self) -> int:
        return self._threads

    def set_cpu_math_library_num_threads(self, n: int) -> None:
        self._threads = int(n)


def _inference_config(config: Any) -> Any:
    from paddle_compat.paddle2 import inference

    if isinstance(config, inference.Config):
        return config
    if not isinstance(config, NativeConfig):
        raise TypeError("paddle.fluid.core.create_paddle_predictor: config must be a NativeConfig or an "
                        f"AnalysisConfig, but received {type(config).__name__}")
    if config.model_dir:
        cfg = inference.Config(config.model_dir)
    elif config.prog_file:
        cfg = inference.Config(config.prog_file, config.param_file or None)
    else:
        raise ValueError("paddle.fluid.core.create_paddle_predictor: the NativeConfig names no model: set "
                         "model_dir (or prog_file and param_file)")
    if config.use_gpu:
        cfg.enable_use_gpu(100, int(config.device))
    cfg.set_cpu_math_library_num_threads(config.cpu_math_library_num_threads())
    return cfg


class PaddlePredictor:
    """run(list of PaddleTensor) -> list of PaddleTensor (the model's fetch targets, in order); the zero-copy
    tensors (get_input_tensor / get_output_tensor + zero_copy_run) are paddle.inference's handles."""

    def __init__(self, config: Any, _predictor: Any = None) -> None:
        from paddle_compat.paddle2 import inference

        self._config = config
        self._specify = bool(getattr(config, "specify_input_name", False))
        self._p = _predictor if _predictor is not None else inference.create_predictor(_inference_config(config))

    def get_input_names(self) -> list:
        return self._p.get_input_names()

    def get_output_names(self) -> list:
        return self._p.get_output_names()

    def get_input_tensor(self, name: str) -> Any:
        return self._p.get_input_handle(name)

    def get_output_tensor(self, name: str) -> Any:
        return self._p.get_output_handle(name)

    def zero_copy_run(self) -> bool:
        return self._p.run()

    def clone(self) -> "PaddlePredictor":
        return PaddlePredictor(self._config, self._p.clone())

    def run(self, inputs: list) -> list:
        from paddle_compat.engine.core.mode import static_guard
        from paddle_compat.engine.framework.lod import LoDTensor
        from paddle_compat.engine.framework.scope import scope_guard

        api = "paddle.fluid.core.PaddlePredictor.run"
        names = self._p.get_input_names()
        inputs = list(inputs)
        if len(inputs) != len(names):
            raise ValueError(f"{api}: the model has {len(names)} inputs {names}, but {len(inputs)} were given")
        feed = {}
        for k, t in enumerate(inputs):
            if not isinstance(t, PaddleTensor):
                raise TypeError(f"{api}: inputs must be PaddleTensors, but input {k} is {type(t).__name__}")
            name = t.name if self._specify else names[k]
            if name not in names:
                raise ValueError(f"{api}: input {k} is named {name!r}, which is not an input of the model {names}")
            feed[name] = LoDTensor(t.as_ndarray(), t.lod or None)
        p = self._p
        with scope_guard(p._scope), static_guard():
            outs = p._exe.run(p._program, feed=feed, fetch_list=p._output_names, scope=p._scope,
                              return_numpy=False)
        result = []
        for name, o in zip(p._output_names, outs):
            pt = PaddleTensor(np.asarray(o), name=name, lod=o.lod() if hasattr(o, "lod") else None)
            result.append(pt)
        return result


def create_paddle_predictor(config: Any) -> PaddlePredictor:
    return PaddlePredictor(config)


def _analysis_config():
    from paddle_compat.paddle2 import inference

    return inference.Config


for _obj in (PaddleDType, PaddleBuf, PaddleTensor, NativeConfig, PaddlePredictor, create_paddle_predictor):
    export(_obj, f"paddle.fluid.core.{_obj.__name__}")
export(_analysis_config(), "paddle.fluid.core.AnalysisConfig")
