"""Build paddle_compat's optional native fast path for dygraph view ops (engine/core/native/_views.cpp).

`make setup` runs this after installing torch. It compiles the one C++ file against the installed torch with the
flags torch's own `torch.utils.cpp_extension` gives (its include and library paths, the C++ ABI flag torch was
built with), imports the result in a fresh process to check it, and keeps it only then. Whatever goes wrong (no
compiler, no Python headers, a compile error, a failed check) prints one line and exits 0: paddle_compat then
uses its pure-Python path, with the same results. A module already built for this torch and this source is kept.

Its elementwise gradient kernels use torch's intra-op threads (at::parallel_for, whose OpenMP form needs -fopenmp;
the module then shares torch's own OpenMP runtime, libgomp in torch/lib, through the rpath). A compiler without
OpenMP (Apple clang) builds it without the flag: those kernels then run on one thread, with the same bits, and the
one line says so.

    python tools/build_native.py [--force] [--quiet]
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "paddle_compat" / "engine" / "core" / "native"
SRC = PKG / "_views.cpp"
STAMP = PKG / "_views.build"  # torch version + source hash of the module there
FALLBACK = "paddle_compat: the native view ops were not built ({why}); the pure-Python path will be used."

# a fresh process imports the built module and runs one op through it (a crash here never reaches `import paddle`)
CHECK = """
import sys, torch
sys.path.insert(0, sys.argv[1])
import _views
assert _views.TORCH_VERSION == torch.__version__, _views.TORCH_VERSION
_views.configure(probe=torch.empty(2, 3, 5))
"""


def _fallback(why: str) -> int:
    """One line, exit status 0; a module an earlier build left there goes (it may be for an older source)."""
    for stale in (_target(), STAMP, _target().with_name(_target().name + ".tmp")):
        stale.unlink(missing_ok=True)
    print(FALLBACK.format(why=why))
    return 0


def _first_error(text: str, default: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else default)


def _target() -> Path:
    return PKG / ("_views" + sysconfig.get_config_var("EXT_SUFFIX"))


def _key(torch) -> str:
    return f"{torch.__version__} {sys.version_info[:2]} {hashlib.sha256(SRC.read_bytes()).hexdigest()[:16]}"


def build(force: bool = False, quiet: bool = False) -> int:
    if sys.platform == "win32":
        return _fallback("not supported on Windows")
    try:
        import torch
        from torch.utils import cpp_extension
    except Exception as e:  # noqa: BLE001 - any failure means the pure-Python path
        return _fallback(f"torch is not importable: {e}")
    target = _target()
    key = _key(torch)
    if not force and target.exists() and STAMP.exists() and STAMP.read_text().strip() == key:
        if not quiet:
            print(f"paddle_compat: native view ops up to date ({target.name})")
        return 0
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if not cxx:
        return _fallback("no C++ compiler found")
    py_include = sysconfig.get_paths()["include"]
    if not (Path(py_include) / "Python.h").exists():
        return _fallback(f"no Python headers in {py_include}")
    abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
    libs = cpp_extension.library_paths()
    tmp = target.with_name(target.name + ".tmp")
    # -ffp-contract=off: every product and sum rounded on its own, as torch's separate kernels round them
    cmd = [*cxx.split(), "-O2", "-std=c++20", "-fPIC", "-shared", "-fvisibility=hidden", "-w", "-ffp-contract=off",
           f"-D_GLIBCXX_USE_CXX11_ABI={abi}", f'-DPADDLE_COMPAT_TORCH_VERSION="{torch.__version__}"',
           f"-I{py_include}", *[f"-I{p}" for p in cpp_extension.include_paths()], str(SRC), "-o", str(tmp),
           *[f"-L{p}" for p in libs], *[f"-Wl,-rpath,{p}" for p in libs], "-lc10", "-ltorch_cpu", "-ltorch_python"]
    if sys.platform == "darwin":
        cmd += ["-undefined", "dynamic_lookup"]
    t0 = time.perf_counter()
    serial = ""
    try:
        done = subprocess.run([*cmd, "-fopenmp"], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:  # no OpenMP here: the same module with its gradient kernels on one thread
            serial = _first_error(done.stderr, f"exit status {done.returncode}")
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as e:
        return _fallback(f"{Path(cxx).name} did not run: {e}")
    if done.returncode != 0:
        err = _first_error(done.stderr, f"exit status {done.returncode}")
        return _fallback(f"{Path(cxx).name} failed: {err}")
    seconds = time.perf_counter() - t0
    check_dir = tmp.parent / "_check"
    try:
        check_dir.mkdir(exist_ok=True)
        shutil.copyfile(tmp, check_dir / target.name)
        ok = subprocess.run([sys.executable, "-c", CHECK, str(check_dir)], capture_output=True, text=True,
                            timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        ok = subprocess.CompletedProcess([], 1, "", str(e))
    finally:
        shutil.rmtree(check_dir, ignore_errors=True)
    if ok.returncode != 0:
        err = _first_error(ok.stderr, f"exit status {ok.returncode}")
        return _fallback(f"the built module failed its check: {err}")
    os.replace(tmp, target)
    STAMP.write_text(key + "\n")
    if not quiet:
        how = f"serial, -fopenmp failed: {serial}" if serial else "OpenMP"
        print(f"paddle_compat: built the native view ops ({target.name}, {how}) in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(build(force="--force" in sys.argv, quiet="--quiet" in sys.argv))
