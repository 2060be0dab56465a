"""Record real Paddle's public flags (the ones `set_flags` / `get_flags` accept) with their default values.

usage (inside an oracle venv, see record_all.sh): python rec_flags.py VERSION
Writes paddle_compat/data/flags_<VERSION>.json: {"version": ..., "flags": {name: default}}. Run from a clean
environment (no FLAGS_* variables), so the values are the defaults of a CPU build. The flags only a CUDA build
defines (FLAGS_cudnn_deterministic, ...) are listed in paddle_compat/engine/core/flags.py.
"""
import json
import os
import sys

import paddle

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    version = sys.argv[1]
    assert paddle.__version__ == version, (paddle.__version__, version)
    try:
        table = paddle.base.framework._global_flags()
    except AttributeError:  # 1.8.5
        from paddle.fluid import core

        table = core.globals()
    stray = sorted(k for k in os.environ if k.startswith("FLAGS_"))
    assert not stray, f"run with no FLAGS_* variables set: {stray}"
    flags = {k: table[k] for k in sorted(table.keys()) if table.is_public(k)}
    out = os.path.join(REPO, "paddle_compat", "data", f"flags_{version}.json")
    with open(out, "w") as f:
        json.dump({"version": version, "flags": flags}, f, indent=0, sort_keys=True)
        f.write("\n")
    print("wrote", out, len(flags), "flags")


if __name__ == "__main__":
    main()
