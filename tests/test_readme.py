"""The README's example runs as written (in a fresh interpreter, as a user would paste it) and trains."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_readme_example_runs():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "the README shows one Python example"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "shims"),
                                                       os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", blocks[0]], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    loss = float(re.search(r"loss \[([-0-9.e]+)\]", out.stdout).group(1))
    assert 0.0 <= loss < 10.0  # mean squared error of a fitted linear target on [0, 1) inputs
