"""paddle.inference: Config, create_predictor, Predictor, Tensor handles, PredictorPool and the enums, over the
inference models `paddle.static.load_inference_model` reads (fluid 1.x `__model__` directories, 2.x
`.pdmodel` / `.pdiparams` from real Paddle, and models saved here).

A Predictor owns a private Scope holding the model's parameters and an Executor on the configured place (CPU,
or the configured GPU when CUDA is available); `run()` feeds what the input handles hold and fills the output
handles. Paddle's analysis passes (ir_optim, MKLDNN, memory_optim) are settings here that do not change the
numbers; engines that would run the model elsewhere (TensorRT, XPU, IPU, Lite, ONNX Runtime) raise
UnsupportedAPIError naming the call, since they cannot be honoured.
"""

from __future__ import annotations

import copy
import enum
import os
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework.registry import export, partial

_API = "paddle.inference"


class DataType(enum.IntEnum):
    """paddle.inference.DataType (Paddle's PaddleDType values)."""

    FLOAT64 = 7
    FLOAT32 = 0
    FLOAT16 = 5
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    BOOL = 6

    def __repr__(self) -> str:
        return f"<PaddleDType.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"PaddleDType.{self.name}"


class PlaceType(enum.IntEnum):
    """paddle.inference.PlaceType (Paddle's PaddlePlace values)."""

    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 4

    def __repr__(self) -> str:
        return f"<PaddlePlace.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"PaddlePlace.{self.name}"


class PrecisionType(enum.IntEnum):
    """paddle.inference.PrecisionType (Config.Precision)."""

    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3

    def __repr__(self) -> str:
        return f"<Precision.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"Precision.{self.name}"


_NP = {DataType.FLOAT64: "float64", DataType.FLOAT32: "float32", DataType.FLOAT16: "float16",
       DataType.INT64: "int64", DataType.INT32: "int32", DataType.UINT8: "uint8", DataType.INT8: "int8",
       DataType.BOOL: "bool"}
_OF_NP = {v: k for k, v in _NP.items()}


def get_num_bytes_of_data_type(dtype: DataType) -> int:
    """Bytes per element. NOTE: Paddle 2.6.2 answers -1 for FLOAT64, FLOAT16, INT8 and BOOL; we follow it."""
    return {DataType.FLOAT32: 4, DataType.INT64: 8, DataType.INT32: 4, DataType.UINT8: 1}.get(DataType(dtype), -1)


def get_version() -> str:
    import torch

    import paddle_compat

    return f"version: paddle_compat {paddle_compat.__version__}\ncommit: torch {torch.__version__}\nbranch: HEAD\n"


def get_trt_compile_version() -> tuple:
    """(0, 0, 0): built without TensorRT (as a Paddle build without TensorRT answers)."""
    return (0, 0, 0)


def get_trt_runtime_version() -> tuple:
    return (0, 0, 0)


# ------------------------------------------------------------------------------------------------ Config


def _unsupported(what: str):
    def method(self, *args: Any, **kwargs: Any) -> None:
        raise UnsupportedAPIError(f"{_API}.Config.{what}", "paddle_compat runs the model with torch on CPU or CUDA; "
                                  "this engine / device is not available")

    method.__name__ = what
    return method


class Config:
    """paddle.inference.Config(): Config(model_dir) reads `model_dir/__model__` with one file per parameter;
    Config(prog_file, params_file) reads a model file and its combined parameter file."""

    Precision = PrecisionType

    def __init__(self, prog_file: str | None = None, params_file: str | None = None) -> None:
        self._model_dir = ""
        self._prog_file = ""
        self._params_file = ""
        if prog_file is not None and params_file is None and os.path.isdir(prog_file):
            self._model_dir = prog_file
        elif prog_file is not None:
            self._prog_file, self._params_file = prog_file, params_file or ""
        self._buffers: tuple | None = None
        self._use_gpu = False
        self._gpu_device_id = 0
        self._memory_pool_mb = 100
        self._precision = PrecisionType.Float32
        self._ir_optim = True
        self._ir_debug = False
        self._memory_optim = False
        self._mkldnn = True
        self._glog_disabled = False
        self._threads = 1
        self._feed_fetch_ops = False
        self._specify_input_names = True
        self._profile = False
        self._used = False

    # model
    def set_model(self, prog_file: str, params_file: str | None = None) -> None:
        if params_file is None:
            self._model_dir, self._prog_file, self._params_file = prog_file, "", ""
        else:
            self._model_dir, self._prog_file, self._params_file = "", prog_file, params_file

    def set_prog_file(self, prog_file: str) -> None:
        self._prog_file = prog_file

    def set_params_file(self, params_file: str) -> None:
        self._params_file = params_file

    def set_model_buffer(self, prog_buffer: Any, prog_buffer_size: int, params_buffer: Any,
                         params_buffer_size: int) -> None:
        as_bytes = lambda b, n: (b.encode("latin-1") if isinstance(b, str) else bytes(b))[:n]  # noqa: E731
        self._buffers = (as_bytes(prog_buffer, prog_buffer_size), as_bytes(params_buffer, params_buffer_size))

    def model_from_memory(self) -> bool:
        return self._buffers is not None

    def model_dir(self) -> str:
        return self._model_dir

    def prog_file(self) -> str:
        return self._prog_file

    def params_file(self) -> str:
        return self._params_file

    # device
    def enable_use_gpu(self, memory_pool_init_size_mb: int, device_id: int = 0,
                       precision_mode: PrecisionType = PrecisionType.Float32) -> None:
        """Runs on cuda:device_id when torch has CUDA (else on CPU, as a CPU build of Paddle does)."""
        import torch

        self._use_gpu = torch.cuda.is_available()
        self._gpu_device_id = int(device_id)
        self._memory_pool_mb = int(memory_pool_init_size_mb)
        if PrecisionType(precision_mode) != PrecisionType.Float32:
            raise UnsupportedAPIError(f"{_API}.Config.enable_use_gpu", f"precision_mode {precision_mode} (only "
                                      "Float32 runs here; convert the model instead)")

    def disable_gpu(self) -> None:
        self._use_gpu = False

    def use_gpu(self) -> bool:
        return self._use_gpu

    def gpu_device_id(self) -> int:
        return self._gpu_device_id

    def memory_pool_init_size_mb(self) -> int:
        return self._memory_pool_mb

    def fraction_of_gpu_memory_for_pool(self) -> float:
        return 0.0

    # analysis settings: kept and reported; they do not change the numbers
    def switch_ir_optim(self, x: bool = True) -> None:
        self._ir_optim = bool(x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def switch_ir_debug(self, x: bool = True) -> None:
        self._ir_debug = bool(x)

    def enable_memory_optim(self, x: bool = True) -> None:
        self._memory_optim = bool(x)

    def enable_mkldnn(self) -> None:
        self._mkldnn = True

    def disable_mkldnn(self) -> None:
        self._mkldnn = False

    def mkldnn_enabled(self) -> bool:
        return self._mkldnn

    def set_mkldnn_cache_capacity(self, capacity: int = 0) -> None:
        pass

    def set_mkldnn_op(self, op_list: Any) -> None:
        pass

    def set_cpu_math_library_num_threads(self, cpu_math_library_num_threads: int) -> None:
        self._threads = int(cpu_math_library_num_threads)

    def cpu_math_library_num_threads(self) -> int:
        return self._threads

    def disable_glog_info(self) -> None:
        self._glog_disabled = True

    def glog_info_disabled(self) -> bool:
        return self._glog_disabled

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        self._feed_fetch_ops = bool(x)

    def use_feed_fetch_ops_enabled(self) -> bool:
        return self._feed_fetch_ops

    def switch_specify_input_names(self, x: bool = True) -> None:
        self._specify_input_names = bool(x)

    def specify_input_name(self) -> bool:
        return self._specify_input_names

    def enable_profile(self) -> None:
        self._profile = True

    def delete_pass(self, pass_name: str) -> None:
        pass

    def tensorrt_engine_enabled(self) -> bool:
        return False

    def use_xpu(self) -> bool:
        return False

    def is_valid(self) -> bool:
        return not self._used

    def summary(self) -> str:
        """The settings as Paddle's table."""
        rows = [[("model_dir", self._model_dir)] if self._model_dir else
                [("model_file", self._prog_file), ("params_file", self._params_file)],
                [("cpu_math_thread", self._threads), ("enable_mkldnn", self._mkldnn), ("mkldnn_cache_capacity", 10)],
                [("use_gpu", self._use_gpu)] + ([("gpu_device_id", self._gpu_device_id),
                                                 ("memory_pool_init_size", f"{self._memory_pool_mb}MB")]
                                                if self._use_gpu else []),
                [("use_xpu", False)],
                [("use_cinn_compiler", False), ("save_optimized_model", False), ("ir_optim", self._ir_optim),
                 ("ir_debug", self._ir_debug), ("memory_optim", self._memory_optim),
                 ("enable_profile", self._profile), ("enable_log", not self._glog_disabled),
                 ("collect_shape_range_info", False)]]
        fmt = lambda v: str(v).lower() if isinstance(v, bool) else str(v)  # noqa: E731
        w0 = max([len("Option")] + [len(k) for g in rows for k, _ in g]) + 1
        w1 = max([len("Value")] + [len(fmt(v)) for g in rows for _, v in g]) + 1
        line = f"+{'-' * (w0 + 1)}+{'-' * (w1 + 1)}+"
        out = [line, f"| {'Option'.ljust(w0)}| {'Value'.ljust(w1)}|", line]
        for g in rows:
            out += [f"| {k.ljust(w0)}| {fmt(v).ljust(w1)}|" for k, v in g] + [line]
        return "\n".join(out) + "\n"

    for _name in ("enable_tensorrt_engine", "enable_xpu", "enable_ipu", "enable_lite_engine", "enable_onnxruntime",
                  "enable_custom_device", "enable_opencl", "enable_dlnne", "enable_mkldnn_int8",
                  "enable_mkldnn_bfloat16", "set_xpu_config", "enable_tensorrt_dla", "set_trt_dynamic_shape_info",
                  "collect_shape_range_info", "enable_tuned_tensorrt_dynamic_shape", "enable_quantizer"):
        locals()[_name] = _unsupported(_name)
    del _name

    def _place(self) -> Any:
        from paddle_compat.engine.core.place import CPUPlace, CUDAPlace

        return CUDAPlace(self._gpu_device_id) if self._use_gpu else CPUPlace()


# ------------------------------------------------------------------------------------------------ Tensor handles


class Tensor:
    """paddle.inference.Tensor: an input or output handle of a Predictor (by variable name)."""

    def __init__(self, predictor: "Predictor", name: str, is_input: bool) -> None:
        self._pred, self._name, self._is_input = predictor, name, is_input
        self._shape: list | None = None
        self._lod: list = []

    @property
    def name(self) -> str:
        return self._name

    def _array(self) -> np.ndarray | None:
        store = self._pred._feeds if self._is_input else self._pred._results
        return store.get(self._name)

    def reshape(self, shape: Any) -> None:
        """Set the shape of an input before copy_from_cpu (Paddle checks the copied data against it)."""
        if not self._is_input:
            raise RuntimeError(f"{_API}.Tensor.reshape: {self._name!r} is an output handle; only inputs are "
                               "reshaped")
        self._shape = [int(d) for d in shape]

    def copy_from_cpu(self, data: np.ndarray) -> None:
        if not self._is_input:
            raise RuntimeError(f"{_API}.Tensor.copy_from_cpu: {self._name!r} is an output handle")
        if not isinstance(data, np.ndarray):
            raise TypeError(f"{_API}.Tensor.copy_from_cpu: data should be a numpy.ndarray, but received "
                            f"{type(data).__name__}")
        if data.dtype.name not in _OF_NP:
            raise TypeError(f"{_API}.Tensor.copy_from_cpu: unsupported dtype {data.dtype} for input "
                            f"{self._name!r} (one of {sorted(_OF_NP)})")
        self._shape = list(data.shape)
        self._pred._feeds[self._name] = np.array(data)

    def share_external_data(self, data: Any) -> None:
        """Feed a paddle Tensor (its values; no copy is avoided here)."""
        self.copy_from_cpu(data.numpy() if hasattr(data, "numpy") else np.asarray(data))

    def copy_to_cpu(self) -> np.ndarray:
        arr = self._array()
        if arr is None:
            raise RuntimeError(f"{_API}.Tensor.copy_to_cpu: {self._name!r} holds no data yet "
                               + ("(copy_from_cpu first)" if self._is_input else "(call Predictor.run first)"))
        return np.array(arr)

    def shape(self) -> list:
        arr = self._array()
        if arr is not None:
            return list(arr.shape)
        return list(self._shape) if self._shape is not None else [0]

    def type(self) -> DataType:
        arr = self._array()
        if arr is not None:
            return _OF_NP[arr.dtype.name]
        var = self._pred._program.global_block().vars.get(self._name)
        return _OF_NP.get(var.dtype.name, DataType.FLOAT32) if var is not None else DataType.FLOAT32

    def set_lod(self, lod: list) -> None:
        self._lod = [list(level) for level in lod]

    def lod(self) -> list:
        if self._is_input:
            return self._lod
        return self._pred._result_lods.get(self._name, [])


# ------------------------------------------------------------------------------------------------ Predictor


class Predictor:
    """paddle.inference.Predictor (made by create_predictor): the model loaded once into a private scope."""

    def __init__(self, config: Config) -> None:
        if not isinstance(config, Config):
            raise TypeError(f"{_API}.create_predictor: config should be a paddle.inference.Config, but received "
                            f"{type(config).__name__}")
        if config._used:
            raise ValueError(f"{_API}.create_predictor: each config can only be used for one predictor")
        config._used = True
        self._config = copy.copy(config)
        self._load()
        self._feeds: dict[str, np.ndarray] = {}
        self._results: dict[str, np.ndarray] = {}
        self._result_lods: dict[str, list] = {}
        self._hooks: list = []

    def _load(self) -> None:
        from paddle_compat.engine.core.mode import static_guard
        from paddle_compat.engine.framework.scope import Scope, scope_guard
        from paddle_compat.engine.static import io
        from paddle_compat.engine.static.executor import Executor

        c, api = self._config, f"{_API}.create_predictor"
        self._scope = Scope()
        with scope_guard(self._scope), static_guard():
            if c._buffers is not None:
                prog, feeds, fetches = io._load_from_memory(c._buffers[0], c._buffers[1], api)
            elif c._model_dir:
                prog, feeds, fetches = io._load_model(os.path.join(c._model_dir, "__model__"), None, api,
                                                      params_dir=c._model_dir)
            elif c._prog_file:
                prog, feeds, fetches = io._load_model(c._prog_file, c._params_file or None, api)
            else:
                raise ValueError(f"{api}: the config names no model (Config(model_dir), Config(prog_file, "
                                 "params_file) or set_model_buffer)")
            self._exe = Executor(c._place())  # inside the guard: no implicit switch of the user's mode
        self._program, self._input_names = prog, list(feeds)
        self._output_names = [v.name for v in fetches]

    def get_input_names(self) -> list:
        return list(self._input_names)

    def get_output_names(self) -> list:
        return list(self._output_names)

    def _handle(self, name: str, names: list, is_input: bool) -> Tensor:
        if name not in names:
            kind = "input" if is_input else "output"
            raise RuntimeError(f"{_API}.Predictor.get_{kind}_handle: the model has no {kind} named {name!r} "
                               f"(its {kind}s: {names})")
        return Tensor(self, name, is_input)

    def get_input_handle(self, name: str) -> Tensor:
        return self._handle(name, self._input_names, True)

    def get_output_handle(self, name: str) -> Tensor:
        return self._handle(name, self._output_names, False)

    def run(self, inputs: list | None = None) -> Any:
        """Run on what the input handles hold (returns True), or on `inputs` (paddle Tensors in input order;
        returns the outputs as paddle Tensors)."""
        from paddle_compat.engine.core.mode import static_guard
        from paddle_compat.engine.framework.scope import scope_guard

        if inputs is not None:
            if len(inputs) != len(self._input_names):
                raise ValueError(f"{_API}.Predictor.run: the model has {len(self._input_names)} inputs "
                                 f"{self._input_names}, but {len(inputs)} were given")
            for name, t in zip(self._input_names, inputs):
                self.get_input_handle(name).share_external_data(t)
        missing = [n for n in self._input_names if n not in self._feeds]
        if missing:
            raise RuntimeError(f"{_API}.Predictor.run: inputs {missing} have no data (copy_from_cpu them first)")
        with scope_guard(self._scope), static_guard():
            outs = self._exe.run(self._program, feed=dict(self._feeds), fetch_list=self._output_names,
                                 scope=self._scope, return_numpy=False)
        self._results, self._result_lods = {}, {}
        for name, t in zip(self._output_names, outs):
            self._results[name] = np.array(t)
            lod = t.lod() if hasattr(t, "lod") else []
            self._result_lods[name] = [list(level) for level in lod]
        for hook in self._hooks:
            for name in self._output_names:
                hook("fetch", name, self.get_output_handle(name))
        if inputs is None:
            return True
        from paddle_compat.engine.framework.tensor import to_tensor

        return [to_tensor(self._results[n]) for n in self._output_names]

    def clone(self, stream: Any = None) -> "Predictor":
        """A predictor sharing the loaded model and its parameters, with handles of its own."""
        twin = copy.copy(self)
        twin._feeds, twin._results, twin._result_lods, twin._hooks = {}, {}, {}, []
        return twin

    def clear_intermediate_tensor(self) -> None:
        pass

    def try_shrink_memory(self) -> int:
        return 0

    def register_output_hook(self, hookfunc: Any) -> None:
        """hookfunc(op_type, var_name, tensor) after each run, once per output (Paddle calls it per op)."""
        self._hooks.append(hookfunc)


def create_predictor(config: Config) -> Predictor:
    return Predictor(config)


class PredictorPool:
    """paddle.inference.PredictorPool(config, size): `size` predictors sharing one loaded model."""

    def __init__(self, config: Config, size: int = 1) -> None:
        if int(size) < 1:
            raise ValueError(f"{_API}.PredictorPool: size should be at least 1, got {size}")
        first = Predictor(config)
        self._preds = [first] + [first.clone() for _ in range(int(size) - 1)]

    def retrive(self, idx: int) -> Predictor:
        """The idx-th predictor (Paddle's spelling)."""
        if not 0 <= int(idx) < len(self._preds):
            raise IndexError(f"{_API}.PredictorPool.retrive: idx {idx} is out of range for {len(self._preds)} "
                             "predictors")
        return self._preds[int(idx)]


for _obj in (Config, DataType, PlaceType, PrecisionType, Predictor, PredictorPool, Tensor, create_predictor,
             get_num_bytes_of_data_type, get_version, get_trt_compile_version, get_trt_runtime_version):
    export(_obj, f"{_API}.{_obj.__name__}")
partial(f"{_API}.Config", "TensorRT / XPU / IPU / Lite / ONNX Runtime / int8 engines raise; ir_optim, MKLDNN, "
                          "memory_optim and thread settings are kept but do not change how torch runs the model")
partial(f"{_API}.Predictor", "register_output_hook is called once per output after each run (Paddle: per op)")
