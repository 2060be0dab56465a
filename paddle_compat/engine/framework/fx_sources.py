"""Free the generated source that torch.fx keeps for every GraphModule it ever compiled.

Each `GraphModule.recompile()` registers the generated `forward` source in torch.fx's process-wide loader
(`torch.fx.graph_module._loader.eval_cache`) and in `linecache.cache`, and never removes it: about 2 KB per
compiled program that outlives the program. A script that clones its program for evaluation every epoch and
runs the clone (`test_prog = main.clone(for_test=True); exe.run(test_prog, ...)`) compiles a new plan each
time, so memory grew without end (issue 14; tests/hardening/test_file_safety.py measures it).

`mark()` before compiling and `release_with(owner, mark)` after tie the sources compiled in between to the
object that keeps the compiled modules alive (an Executor plan): they are dropped when it is collected. The
loader numbers its keys `<eval_with_key>.N` with a counter, which is what `mark` reads; a torch without that
loader makes both functions do nothing.
"""

from __future__ import annotations

import linecache
import weakref
from typing import Any

from torch.fx import graph_module as _graph_module

_LOADER = getattr(_graph_module, "_loader", None)
_PREFIX = "<eval_with_key>."


def mark() -> int:
    """The loader's next key number (-1 when this torch has no such loader)."""
    n = getattr(_LOADER, "next_id", None)
    return n if isinstance(n, int) and isinstance(getattr(_LOADER, "eval_cache", None), dict) else -1


def _key_number(key: Any) -> int:
    if isinstance(key, str) and key.startswith(_PREFIX):
        head = key[len(_PREFIX):].split(" ", 1)[0]
        if head.isdigit():
            return int(head)
    return -1


def _forget(start: int, end: int) -> None:
    cache = _LOADER.eval_cache
    for key in [k for k in cache if start <= _key_number(k) < end]:
        cache.pop(key, None)
        linecache.cache.pop(key, None)


def release_with(owner: Any, start: int) -> None:
    """Drop the sources compiled since `mark()` returned `start` when `owner` is garbage-collected."""
    if start < 0:
        return
    end = _LOADER.next_id
    if end > start:
        weakref.finalize(owner, _forget, start, end)
