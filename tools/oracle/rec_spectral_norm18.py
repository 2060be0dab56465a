"""Record tests/fluid/cases18_spectral_norm.py with real Paddle 1.8.5 -> tests/goldens/fluid18_spectral_norm.{npz,json}.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
import cases18_spectral_norm as C
import paddle
from _common import save
from paddle import fluid


def main():
    save("fluid18_spectral_norm", C.run(fluid), {"paddle_version": paddle.__version__, "program": "tests/fluid/cases18_spectral_norm.py"})


if __name__ == "__main__":
    main()
