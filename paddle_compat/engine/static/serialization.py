"""paddle.save / paddle.load in Paddle 2.6's file format (pickle protocol 4 of numpy arrays), and the
helpers every writer here shares: atomic file writes and a restricted unpickler.

Format (matches real Paddle; tests/goldens/nn26_saveload holds files it wrote):
- a state dict (dict whose values are Tensors, or plain dicts such as `LR_Scheduler`): Tensors become numpy
  arrays and the key `StructuredToParameterName@@` maps each key to the tensor's Paddle name;
- a lone Tensor (also nested in lists / dicts): the tuple `(name, ndarray)`;
- anything else made of dicts, lists, tuples, numbers, strings and ndarrays: pickled as is.

Loading never runs pickled code: the unpickler only resolves numpy's array reconstruction helpers and a few
builtin containers, so a file that references anything else is rejected with a clear error.
"""

from __future__ import annotations

import collections
import io
import os
import pickle
import socket
import stat
import tempfile
import threading
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export

NAME_TABLE = "StructuredToParameterName@@"


# --- safe writes ---------------------------------------------------------------------------------------
_TMP_TAG = ".tmp-"  # temporary files: .<name>.tmp-<host>-<pid>-<random>


def is_temporary(name: str) -> bool:
    """Whether a file name is one of the temporaries a save writes (left behind by a killed one)."""
    name = os.path.basename(name)
    return name.startswith(".") and _TMP_TAG in name


def _host() -> str:
    return "".join(c if c.isalnum() else "_" for c in socket.gethostname())[:32] or "host"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def remove_stale_temporaries(path: str) -> list[str]:
    """Remove the temporary files that saves of `path` killed mid-write left behind (their process, on this
    host, is gone); returns the removed paths."""
    d, base = os.path.split(path)
    prefix = f".{base}{_TMP_TAG}{_host()}-"
    removed = []
    try:
        names = os.listdir(d or ".")
    except OSError:
        return removed
    for n in names:
        if not n.startswith(prefix):
            continue
        pid = n[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            try:
                os.unlink(os.path.join(d, n))
                removed.append(os.path.join(d, n))
            except OSError:
                pass
    return removed


def current_umask() -> int:
    """The process umask, read without changing it where Linux shows it (/proc/self/status), else by setting and
    restoring it (under a lock)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


_UMASK_LOCK = threading.Lock()


def save_target(path: str) -> str:
    """The file a save of `path` writes: `path` itself, or the file a symlink there (a chain of them) points to,
    as `open(path, 'wb')` writes it; the link stays a link."""
    path = os.path.abspath(os.fspath(path))
    return os.path.realpath(path) if os.path.islink(path) else path


def plain_open_mode(path: str) -> int:
    """The mode `open(path, 'wb')` leaves `path` with: an existing file keeps its mode, a new one gets
    0666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~current_umask()


def fsync_dir(d: str) -> None:
    """Make a rename in directory `d` durable (a crash after it cannot bring the old entry back)."""
    try:
        fd = os.open(d, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_temp(path: str, data: bytes) -> tuple[str, str]:
    """Step one of an atomic write: `data` in a temporary file (fsync'ed, with the mode a plain open() would
    give `path`) beside the file a save of `path` writes; returns (temporary, target) for commit_temp."""
    target = save_target(path)
    d = os.path.dirname(target)
    os.makedirs(d, exist_ok=True)
    remove_stale_temporaries(target)
    mode = plain_open_mode(target)
    prefix = f".{os.path.basename(target)}{_TMP_TAG}{_host()}-{os.getpid()}-"
    fd, tmp = tempfile.mkstemp(prefix=prefix, dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
    except BaseException:
        discard_temp(tmp)
        raise
    return tmp, target


def commit_temp(tmp: str, target: str, sync_dir: bool = True) -> None:
    """Step two: the temporary replaces the file in one step."""
    try:
        os.replace(tmp, target)
    except BaseException:
        discard_temp(tmp)
        raise
    if sync_dir:
        fsync_dir(os.path.dirname(target))


def discard_temp(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def atomic_write(path: str, data: bytes) -> None:
    """Write `data` to `path`, never leaving a truncated file: the bytes go to a temporary file in the same
    directory (fsync'ed) that then replaces the file in one step. Otherwise as Paddle's `open(path, 'wb')`:

    - the file gets the mode a plain open() gives it (a new file 0666 less the umask, usually 0644; an existing
      file keeps its mode), so a model saved by one user can be served by another;
    - a symlink at `path` writes the file it points to, atomically in that file's directory, and stays a link;
    - a save killed mid-write leaves its temporary file behind; the next save of the same path removes it
      (and any other left by a process of this host that is gone).

    Checkpoints of several files use checkpoint_files.write_files, built on the same two steps."""
    commit_temp(*write_temp(path, data))


# --- pickling that numpy 1.x reads --------------------------------------------------------------------------
class _Pickler(pickle._Pickler):  # type: ignore[name-defined]  # the Python pickler: its save_global is ours to override
    """NumPy 2 pickles arrays as `numpy._core.multiarray._reconstruct`, a module numpy 1.x (Paddle 1.8's and most
    2.x installs) does not have, so real Paddle there cannot load such a file. Globals of `numpy._core` are
    written under `numpy.core`, the name numpy 1.x has and numpy 2 still resolves when unpickling."""

    def save_global(self, obj: Any, name: str | None = None) -> None:
        module = getattr(obj, "__module__", None) or ""
        if not module.startswith("numpy._core"):
            return super().save_global(obj, name)
        name = name or obj.__qualname__
        module = "numpy.core" + module[len("numpy._core"):]
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode("utf-8"))
        self.memoize(obj)


def pickle_data(obj: Any, protocol: int) -> bytes:
    """pickle.dumps(obj, protocol) that numpy 1.x can load (see _Pickler)."""
    buf = io.BytesIO()
    _Pickler(buf, protocol=protocol).dump(obj)
    return buf.getvalue()


# --- restricted unpickling -------------------------------------------------------------------------------
_ALLOWED = {
    ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"), ("numpy", "float32"), ("numpy", "float64"), ("numpy", "int64"),
    ("numpy", "int32"), ("builtins", "tuple"), ("builtins", "list"), ("builtins", "dict"), ("builtins", "set"),
    ("builtins", "frozenset"), ("builtins", "slice"), ("builtins", "complex"),
    ("collections", "OrderedDict"), ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
}


def _latin1_encode(obj: Any, encoding: str = "utf-8", errors: str = "strict") -> bytes:
    """What `_codecs.encode` resolves to in a file: Python pickles `bytes` with protocol 2 (numpy arrays' raw data
    in files Paddle 1.8 wrote) as `_codecs.encode(<str of the bytes as latin-1>, 'latin1')`. Only that exact form
    is accepted (a str and the latin-1 codec, strict errors), so the name cannot call any other codec."""
    if not isinstance(obj, str) or not isinstance(encoding, str) or \
            encoding.lower().replace("_", "-") not in ("latin1", "latin-1") or errors != "strict":
        raise CorruptFileError(
            f"paddle.load: the file calls _codecs.encode({type(obj).__name__}, {encoding!r}); only "
            "_codecs.encode(str, 'latin1'), the form pickle gives bytes in protocol 2, is data")
    return obj.encode("latin-1")


# names a file may reference that are not the real object: the replacement only does what pickles of data need
_REPLACED = {("_codecs", "encode"): _latin1_encode}


class CorruptFileError(InvalidArgumentError, pickle.UnpicklingError, EOFError):
    """A file that is not what the loading API reads (truncated, corrupted, or not data). It is also the
    UnpicklingError / EOFError that unpickling raised, for callers that catch those."""


class SafeUnpickler(pickle.Unpickler):
    api, where = "paddle.load", "the file"

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _REPLACED:
            return _REPLACED[(module, name)]
        if (module, name) not in _ALLOWED:
            raise CorruptFileError(
                f"{self.api}: {self.where} references {module}.{name}, which is not data; only numpy arrays, "
                "numbers, strings and containers are loaded (paddle_compat never unpickles code)")
        if module.startswith("numpy._core") and not hasattr(np, "_core"):
            module = module.replace("numpy._core", "numpy.core")
        return super().find_class(module, name)


def safe_loads(data: bytes, api: str = "paddle.load", where: str = "the data") -> Any:
    """Unpickle data only (see SafeUnpickler); anything else, a truncated or corrupted file included, is a
    CorruptFileError naming `api` and `where` (the file)."""
    u = SafeUnpickler(io.BytesIO(data), encoding="latin1")
    u.api, u.where = api, where
    try:
        return u.load()
    except CorruptFileError:
        raise
    except Exception as e:  # noqa: BLE001 - EOFError, UnpicklingError, ValueError, ... all mean a bad file
        raise CorruptFileError(
            f"{api}: {where} is truncated or corrupted, it cannot be read as a file written by paddle.save "
            f"({len(data)} bytes; {type(e).__name__}: {e})") from None


# --- save ----------------------------------------------------------------------------------------------
def _tensor_like(v: Any) -> bool:
    from paddle_compat.engine.framework.lod import LoDTensor
    from paddle_compat.engine.framework.program import Variable

    return isinstance(v, (Tensor, LoDTensor)) or (isinstance(v, Variable) and v.persistable)


def _to_numpy(v: Any) -> np.ndarray:
    from paddle_compat.engine.framework.program import Variable

    if isinstance(v, Variable):  # static mode: a persistable variable's value lives in the global scope
        from paddle_compat.engine.framework.scope import global_scope

        t = global_scope()._get(v.name)
        if t is None:
            raise ValueError(f"paddle.save: variable {v.name!r} has no value in the global scope; run the startup "
                             "program first")
        return t.detach().cpu().numpy()
    return np.asarray(v.numpy())


def _is_state_dict(obj: Any) -> bool:
    if not isinstance(obj, dict) or not obj:
        return False
    for v in obj.values():
        if isinstance(v, dict):
            if any(_tensor_like(x) for x in v.values()):
                return False
        elif not _tensor_like(v):
            return False
    return True


def _encode(obj: Any) -> Any:
    if _tensor_like(obj):
        return (getattr(obj, "name", None) or "generated_tensor", _to_numpy(obj))
    if isinstance(obj, dict):
        return type(obj)((k, _encode(v)) for k, v in obj.items()) if isinstance(obj, collections.OrderedDict) \
            else {k: _encode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_encode(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_encode(v) for v in obj)
    return obj


def dumps(obj: Any, protocol: int = 4) -> bytes:
    from paddle_compat.engine.framework.program import Program

    if isinstance(obj, Program):
        from paddle_compat.engine.static.io import serialize_program_desc

        return serialize_program_desc(obj)
    if _is_state_dict(obj):
        out: dict = {}
        names: dict = {}
        for k, v in obj.items():
            if _tensor_like(v):
                out[k] = _to_numpy(v)
                names[k] = getattr(v, "name", None) or k
            else:
                out[k] = v
        out[NAME_TABLE] = names
        obj = out
    else:
        obj = _encode(obj)
    if not 2 <= protocol <= 4:
        raise ValueError(f"paddle.save: expected 1<pickle_protocol<5, but received protocol={protocol}")
    return pickle_data(obj, protocol)


def save(obj: Any, path: Any, protocol: int = 4, **configs: Any) -> None:
    """paddle.save(obj, path, protocol=4): atomic; `path` may also be a writable binary file object."""
    data = dumps(obj, protocol)
    if hasattr(path, "write"):
        path.write(data)
        return
    path = os.fspath(path)
    if os.path.basename(path) == "":
        raise ValueError(f"paddle.save: the input path {path!r} must be a file name like 'dir/model.pdparams', "
                         "not a directory")
    atomic_write(path, data)


# --- load ----------------------------------------------------------------------------------------------
def _to_tensor(arr: np.ndarray, name: str | None, return_numpy: bool) -> Any:
    if return_numpy:
        return arr
    import torch

    t = Tensor._wrap(torch.from_numpy(np.array(arr, copy=True)))
    t.name = name
    return t


def _decode(obj: Any, return_numpy: bool) -> Any:
    if (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray)):
        return _to_tensor(obj[1], obj[0], return_numpy)
    if isinstance(obj, dict):
        return type(obj)((k, _decode(v, return_numpy)) for k, v in obj.items())
    if isinstance(obj, list):
        return [_decode(v, return_numpy) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_decode(v, return_numpy) for v in obj)
    return obj


def loads(data: bytes, return_numpy: bool = False, keep_name_table: bool = False, where: str = "the data") -> Any:
    if data[:1] == b"{":
        from paddle_compat.engine.static.io import deserialize_program_desc

        return deserialize_program_desc(data)
    obj = safe_loads(data, "paddle.load", where)
    if isinstance(obj, dict) and NAME_TABLE in obj:
        names = obj[NAME_TABLE]
        out = type(obj)()
        for k, v in obj.items():
            if k == NAME_TABLE:
                if keep_name_table:
                    out[k] = v
                continue
            out[k] = _to_tensor(v, names.get(k, k), return_numpy) if isinstance(v, np.ndarray) else v
        return out
    if isinstance(obj, dict) and obj and all(isinstance(v, np.ndarray) for v in obj.values()):
        return {k: _to_tensor(v, k, return_numpy) for k, v in obj.items()}  # 1.x-era dicts of arrays
    return _decode(obj, return_numpy)


def load(path: Any, **configs: Any) -> Any:
    """paddle.load(path, return_numpy=False, keep_name_table=False)."""
    unknown = set(configs) - {"return_numpy", "keep_name_table", "model_filename", "params_filename"}
    if unknown:
        raise ValueError(f"paddle.load: the additional config ({sorted(unknown)[0]}) is not supported")
    if hasattr(path, "read"):
        data = path.read()
    else:
        path = os.fspath(path)
        if not os.path.exists(path):
            raise ValueError(f"paddle.load: the path {path!r} does not exist")
        if os.path.isdir(path):
            raise ValueError(f"paddle.load: {path!r} is a directory; give the file (e.g. model.pdparams)")
        with open(path, "rb") as f:
            data = f.read()
    where = f"the file {path!r}" if isinstance(path, str) else "the file object"
    return loads(data, bool(configs.get("return_numpy", False)), bool(configs.get("keep_name_table", False)),
                 where)


export(save, "paddle.save", "paddle.framework.save")
export(load, "paddle.load", "paddle.framework.load")


def save_dygraph(state_dict: dict, model_path: str) -> None:
    """fluid.dygraph.save_dygraph: `.pdopt` when the dict holds optimizer state, else `.pdparams`. The two files
    of a checkpoint are written by two calls: the first (when the other file exists) leaves the pair open until
    the second, so a script killed between them leaves a pair load_dygraph refuses (checkpoint_files)."""
    from paddle_compat.engine.static.checkpoint_files import write_file_pair

    is_opt = any(not getattr(v, "persistable", True) or "_moment" in k or "_velocity" in k or k == "LR_Scheduler"
                 for k, v in state_dict.items())
    path = model_path + (".pdopt" if is_opt else ".pdparams")
    if os.path.basename(model_path) == "":
        raise ValueError(f"fluid.dygraph.save_dygraph: model_path {model_path!r} must be 'dirname/prefix'")
    write_file_pair(path, dumps(state_dict, 4), model_path + (".pdparams" if is_opt else ".pdopt"), model_path)


def load_dygraph(model_path: str, **configs: Any) -> tuple:
    from paddle_compat.engine.static.checkpoint_files import check_files

    base = model_path[:-9] if model_path.endswith(".pdparams") else model_path
    files = [base + sfx for sfx in (".pdparams", ".pdopt") if os.path.exists(base + sfx)]
    if not files:
        raise ValueError(f"fluid.dygraph.load_dygraph: neither {base}.pdparams nor {base}.pdopt exists")
    check_files(files, "fluid.dygraph.load_dygraph")
    params = load(base + ".pdparams") if os.path.exists(base + ".pdparams") else None
    opt = load(base + ".pdopt") if os.path.exists(base + ".pdopt") else None
    return params, opt


export(save_dygraph, "paddle.fluid.save_dygraph", "paddle.fluid.dygraph.save_dygraph")
export(load_dygraph, "paddle.fluid.load_dygraph", "paddle.fluid.dygraph.load_dygraph")
