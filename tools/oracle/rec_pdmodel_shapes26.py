"""A model saved by REAL Paddle 2.6.2's paddle.jit.save whose reshape2 / expand_v2 take their shape from runtime
tensors (ShapeTensor / expand_shapes_tensor: `B = paddle.shape(x)[0]`, `x.reshape([B, -1, 4])`,
`cls.expand([B, -1, -1])`, as ViT and SegFormer write), for paddle_compat's ProgramDesc reader
-> tests/goldens/pdmodel_shapes26/ (shapes.pdmodel / .pdiparams) + tests/goldens/pdmodel_shapes26.json (input and
2.6.2's output of the reloaded model). Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <this>"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GOLDEN_DIR, save_json  # noqa: E402

import paddle  # noqa: E402


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.cls = self.create_parameter([1, 1, 4], default_initializer=paddle.nn.initializer.Assign(
            np.arange(4, dtype="float32").reshape(1, 1, 4) / 4))
        self.fc = paddle.nn.Linear(4, 3, weight_attr=paddle.nn.initializer.Assign(
            np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)))

    def forward(self, x):
        b = paddle.shape(x)[0]
        y = x.reshape([b, -1, 4])
        y = paddle.concat([self.cls.expand([b, -1, -1]), y], axis=1)
        return self.fc(y).mean(axis=1)


paddle.seed(0)
net = Net()
net.eval()
path = os.path.join(GOLDEN_DIR, "pdmodel_shapes26", "shapes")
paddle.jit.save(net, path, input_spec=[paddle.static.InputSpec([None, 8], "float32", "x")])
x = np.random.RandomState(0).rand(3, 8).astype("float32")
loaded = paddle.jit.load(path)
out = loaded(paddle.to_tensor(x)).numpy()
prog = paddle.static.Program()
types = []
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(path, exe)
types = [op.type for op in program.global_block().ops]
inputs = {op.type: sorted(k for k in op.input_names if op.input(k)) for op in program.global_block().ops
          if op.type in ("reshape2", "expand_v2")}
save_json("pdmodel_shapes26", {"x": x.tolist(), "out": out.tolist(), "ops": types, "inputs": inputs})
