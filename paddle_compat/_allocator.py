"""How torch's CPU allocator serves large buffers in a paddle_compat process (issue 15 item 3).

Paddle keeps its own caching allocator; torch allocates CPU tensors with posix_memalign from glibc, whose heap
keeps freed multi-MiB buffers and fragments between training steps: on the elementwise chain of
bench/bench_memory.py the process peaks ~220 MiB above the buffers that are actually live at once. torch's
THP_MEM_ALLOC_ENABLE=1 serves buffers of 2 MiB and more 2 MiB-aligned on transparent huge pages: a freed
buffer leaves the process, so the peak follows the live buffers (the peak Paddle's allocator reaches), and a
fresh buffer costs one page fault per 2 MiB instead of one per 4 KiB.

torch reads the variable once, at its first allocation, so it is set here, before paddle_compat imports torch,
and only where it can act: the kernel offers transparent huge pages ([always] or [madvise]), the user did not set
it (THP_MEM_ALLOC_ENABLE=0 keeps glibc's default), and torch is not imported yet.
"""

from __future__ import annotations

import os
import sys

THP_VAR = "THP_MEM_ALLOC_ENABLE"
THP_SYSFS = "/sys/kernel/mm/transparent_hugepage/enabled"


def thp_available(path: str = THP_SYSFS) -> bool:
    """Whether madvise(MADV_HUGEPAGE) gives huge pages: the kernel's THP mode is [always] or [madvise]."""
    try:
        with open(path) as f:
            mode = f.read()
    except OSError:
        return False
    return "[always]" in mode or "[madvise]" in mode


def configure() -> bool:
    """Turn on torch's huge-page allocation of large CPU buffers where it can act; return whether it did."""
    if THP_VAR in os.environ or "torch" in sys.modules or not thp_available():
        return False
    os.environ[THP_VAR] = "1"
    return True
