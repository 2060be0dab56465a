"""Run every benchmark in this folder, one subprocess each (`make bench`). Each prints its own ratios
against plain torch measured in the same run; pass --quick for a smoke run."""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    extra = [a for a in sys.argv[1:] if a == "--quick"]
    status = 0
    for name in sorted(f for f in os.listdir(HERE) if f.startswith("bench_") and f.endswith(".py")):
        print(f"\n===== {name}", flush=True)
        status |= subprocess.call([sys.executable, os.path.join(HERE, name), *extra])
    return status


if __name__ == "__main__":
    sys.exit(main())
