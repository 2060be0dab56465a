"""Record tests/nn/cases18_dygraph_layers.py with real Paddle 1.8.5 -> tests/goldens/nn18_dygraph_layers.{npz,json}.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "nn"))
import cases18_dygraph_layers as C
import paddle
from _common import save
from paddle import fluid


def main():
    with fluid.dygraph.guard():
        arrays = C.run(fluid)
    save("nn18_dygraph_layers", arrays, {"paddle_version": paddle.__version__,
                                         "program": "tests/nn/cases18_dygraph_layers.py"})


if __name__ == "__main__":
    main()
