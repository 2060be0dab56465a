"""Run cases modules of tools/oracle on paddle_compat in this process, at the API level of its environment
(PADDLE_COMPAT_API_LEVEL), and write their results to OUT.npz (+ OUT.json: the level and any case's error).
Used by tests/api_level/test_level26.py in a subprocess: the level is chosen once per process.

    python tests/api_level/replay.py OUT api_level26_cases [api_level18_cases ...]"""

from __future__ import annotations

import importlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "oracle"))


def main(out: str, modules: list) -> None:
    import paddle

    import paddle_compat

    arrays, errors = {}, {}
    for module in modules:
        for case in importlib.import_module(module).CASES:
            try:
                for k, v in case(paddle).items():
                    arrays[f"{module}:{case.__name__}__{k}"] = np.asarray(v)
            except Exception as e:  # noqa: BLE001 - reported per case by the test
                errors[f"{module}:{case.__name__}"] = f"{type(e).__name__}: {e}"[:2000]
    np.savez(out + ".npz", **arrays)
    with open(out + ".json", "w", encoding="utf-8") as f:
        json.dump({"level": paddle_compat.get_api_level(), "errors": errors}, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
