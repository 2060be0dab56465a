"""Issue 15 item 4: the compiler path (torch.compile) with every BuildStrategy option on against every option off,
on bench_memory.py's elementwise chain (x [4096, 1024], 4 rounds of act(x * w + b), mean, SGD).

Both programs are built and compiled in this one process (each in a scope of its own), then timed round-robin,
blocks of 3 steps each, in CPU time: on a shared machine two processes timed one after the other differ by more
than the options do. Prints each first call (plan, passes, torch.compile; inductor's on-disk cache may make the
second one warm) and the ratio all options / options off (target: <= 1). Memory: bench_memory.py --compile.

Run: python bench/bench_compiler_options.py [--quick]
"""

from __future__ import annotations

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _timing import interleaved_ms  # noqa: E402
from bench_memory import static_step  # noqa: E402


def main() -> None:
    quick = "--quick" in sys.argv
    n = 1024 if quick else 4096
    import paddle.static as st

    steps, first = {}, {}
    for name, config in (("options off", "compiler-none"), ("all options", "compiler")):
        scope = st.Scope()
        with st.scope_guard(scope):
            step = static_step(n, 1024, config)
            t0 = time.perf_counter()
            step()
            first[name] = time.perf_counter() - t0

        def run(step=step, scope=scope) -> None:
            with st.scope_guard(scope):
                step()

        steps[name] = run
    ms = interleaved_ms(steps, 3, repeats=4 if quick else 12, clock=time.process_time)
    print(f"compiler path, elementwise chain x [{n}, 1024]: CPU ms per step (median of round-robin blocks)")
    for name in steps:
        print(f"  {name:12s} {ms[name]:8.1f} ms   first call {first[name]:5.1f} s")
    print(f"  all options / options off: x{ms['all options'] / ms['options off']:.3f}   (target <= 1)")


if __name__ == "__main__":
    main()
