"""Record the per-update learning rates of fluid.layers decays in dygraph with real Paddle 1.8.5
-> tests/goldens/fluid18_lr_decay.json. Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
import cases18_lr_decay as C
import paddle
from _common import save
from paddle import fluid


def main():
    with fluid.dygraph.guard():
        lrs = {name: C.lr_per_update(fluid, lr) for name, lr in C.build(fluid.layers).items()}
        lrs.update({name: C.lr_per_update(fluid, lr, epoch=name.startswith("epoch_"),
                                                 plateau=name == "plateau")
                    for name, lr in C.build_classes(fluid.dygraph).items()})
    save("fluid18_lr_decay", {}, {"paddle_version": paddle.__version__, "program": "tests/fluid/cases18_lr_decay.py",
                                  "lr_per_update": lrs})


if __name__ == "__main__":
    main()
