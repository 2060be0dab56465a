"""Real model training and inference: paddle_compat against hand-written torch eager, in the same run (issue 29).

Models (all written here with the public API of each side; the same shapes, dtype float32, the same threads):
  resnet50        paddle.vision.models.resnet50                     vs a hand-written torch ResNet-50
  mobilenet_v2    paddle.vision.models.mobilenet_v2                 vs a hand-written torch MobileNetV2
  mobilenet_v3s   paddle.vision.models.mobilenet_v3_small           vs a hand-written torch MobileNetV3-small
  vit_small       ViT-S/16 from paddle.nn.TransformerEncoder        vs torch.nn.TransformerEncoder (norm_first)
  bert_base       BERT-base-sized encoder (12 x 768, 12 heads)      vs torch.nn.TransformerEncoder
  lstm_lm         ptb_lm medium (2 x LSTM 650, 10k vocab, 35 steps) vs torch.nn.LSTM

Rows per model, each a training step (forward, mean cross entropy, backward, Momentum(0.01, 0.9)) and an inference
forward (eval mode, no gradients; the static forms run the inference program save_inference_model would write, the
logits' ops alone):
  torch           torch eager (the baseline of every ratio)
  dygraph         paddle 2.x dygraph (the same nn.Layer)
  static          paddle 2.x static: the same nn.Layer recorded by paddle.static, run by paddle.static.Executor
  fluid           fluid 1.x static, written with fluid.layers (resnet50 and mobilenet_v2: the 1.x model zoo's CNNs)
  compiler        the static program as a CompiledProgram with every BuildStrategy option and torch.compile
                  (PADDLE_COMPAT_COMPILE's path, `_with_compiler("inductor")`); training only; --no-compile skips it
  torch.compile   (--torch-compile only) the hand-written torch step with its forward and loss under torch.compile
                  (inductor) and its optimizer step compiled too: what plain torch.compile reaches on the same
                  model, the reference for the compiler row; not in any ratio of the last line
  torch again     (--aa only) a second torch eager row, built and timed like the first: the ratio of torch to itself,
                  which is this machine's noise floor for every ratio of the run (an A/A test); in no ratio of the last
                  line
  dataloader      mobilenet_v2 trained from paddle.io.DataLoader(num_workers=2) of decoded uint8 images with
                  transforms, against torch.utils.data.DataLoader of the same dataset; time per batch

Times are medians of 15 interleaved blocks (every row of one model timed round-robin, each repeat starting at the next
row, so load from other processes hits every row alike), a block being the steps that take about 150 ms (one step for
the training rows, several for the short inference rows). A ratio is the median over the repeats of the row's block
over torch's block of the same repeat (paired: blocks seconds apart, so a slow minute of the shared machine divides
out). `--paddle PYTHON` runs this file under
real Paddle 2.6.2 (`PYTHON` of its venv, without our shims on the path) for its dygraph and static rows and prints
them beside ours.

The last line reads exactly
  models: worst_train_ratio=X.XX worst_infer_ratio=Y.YY compile_train_ratio=Z.ZZ
worst_*: the largest paddle_compat / torch ratio over the dygraph, static, fluid and dataloader rows;
compile_train_ratio: the median over the models of the compiler row's training step / torch eager's (nan when
skipped). --quick: tiny shapes, two repeats (a smoke run, not a measurement).
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _timing import interleaved_blocks, paired_ratio  # noqa: E402

QUICK = "--quick" in sys.argv


# --- shapes -------------------------------------------------------------------------------------------------------
def shapes() -> dict:
    """Per model: batch and input size, chosen so that a CPU training step takes well over 50 ms (--quick: tiny)."""
    if QUICK:
        return {"resnet50": dict(batch=2, side=32), "mobilenet_v2": dict(batch=2, side=32),
                "mobilenet_v3s": dict(batch=2, side=32), "vit_small": dict(batch=2, side=32, depth=2),
                "bert_base": dict(batch=2, seq=16, layers=2), "lstm_lm": dict(batch=4, steps=8, hidden=64)}
    return {"resnet50": dict(batch=4, side=112), "mobilenet_v2": dict(batch=8, side=112),
            "mobilenet_v3s": dict(batch=16, side=112), "vit_small": dict(batch=4, side=112, depth=12),
            "bert_base": dict(batch=2, seq=64, layers=12), "lstm_lm": dict(batch=20, steps=35, hidden=650)}


CLASSES, VOCAB = 1000, 10000


def inputs(name: str, s: dict, rng: np.random.RandomState) -> tuple:
    if name in ("bert_base", "lstm_lm"):
        t = s.get("seq", s.get("steps"))
        vocab = 30522 if name == "bert_base" else VOCAB
        x = rng.randint(0, vocab, (s["batch"], t)).astype("int64")
        y = (rng.randint(0, 2, (s["batch"], 1)) if name == "bert_base" else
             rng.randint(0, VOCAB, (s["batch"], t))).astype("int64")
        return x, y
    x = rng.uniform(-1, 1, (s["batch"], 3, s["side"], s["side"])).astype("float32")
    return x, rng.randint(0, CLASSES, (s["batch"], 1)).astype("int64")


# --- the models, paddle side (the same code runs on paddle_compat and on real Paddle) ------------------------------
def paddle_model(name: str, s: dict):
    import paddle
    import paddle.nn as nn

    if name == "resnet50":
        return paddle.vision.models.resnet50(num_classes=CLASSES)
    if name == "mobilenet_v2":
        return paddle.vision.models.mobilenet_v2(num_classes=CLASSES)
    if name == "mobilenet_v3s":
        return paddle.vision.models.mobilenet_v3_small(num_classes=CLASSES)

    class ViT(nn.Layer):
        def __init__(self, side, depth, dim=384, heads=6, patch=16):
            super().__init__()
            self.embed = nn.Conv2D(3, dim, patch, patch)
            n = (side // patch) ** 2
            self.cls = self.create_parameter([1, 1, dim], default_initializer=nn.initializer.Constant(0.0))
            self.pos = self.create_parameter([1, n + 1, dim], default_initializer=nn.initializer.Normal(0, 0.02))
            layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, activation="gelu",
                                               normalize_before=True)
            self.encoder = nn.TransformerEncoder(layer, depth)
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, CLASSES)

        def forward(self, x):
            x = self.embed(x).flatten(2).transpose([0, 2, 1])
            x = paddle.concat([self.cls.expand([x.shape[0], -1, -1]), x], axis=1) + self.pos
            return self.head(self.norm(self.encoder(x))[:, 0])

    class Bert(nn.Layer):
        def __init__(self, seq, layers, dim=768, heads=12):
            super().__init__()
            self.word = nn.Embedding(30522, dim)
            self.pos = nn.Embedding(512, dim)
            self.norm = nn.LayerNorm(dim, epsilon=1e-12)
            layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, activation="gelu")
            self.encoder = nn.TransformerEncoder(layer, layers)
            self.pooler = nn.Linear(dim, dim)
            self.cls = nn.Linear(dim, 2)
            self.positions = paddle.arange(seq, dtype="int64").unsqueeze(0)

        def forward(self, ids):
            h = self.encoder(self.norm(self.word(ids) + self.pos(self.positions)))
            return self.cls(paddle.tanh(self.pooler(h[:, 0])))

    class LM(nn.Layer):
        def __init__(self, hidden):
            super().__init__()
            self.embed = nn.Embedding(VOCAB, hidden)
            self.lstm = nn.LSTM(hidden, hidden, num_layers=2)
            self.proj = nn.Linear(hidden, VOCAB)

        def forward(self, ids):
            out, _ = self.lstm(self.embed(ids))
            return self.proj(out)

    if name == "vit_small":
        return ViT(s["side"], s["depth"])
    if name == "bert_base":
        return Bert(s["seq"], s["layers"])
    return LM(s["hidden"])


def paddle_loss(name: str, logits, y):
    import paddle.nn.functional as F

    if name == "lstm_lm":
        return F.cross_entropy(logits.reshape([-1, VOCAB]), y.reshape([-1, 1]))
    return F.cross_entropy(logits, y)


def dygraph_rows(name: str, s: dict, x: np.ndarray, y: np.ndarray) -> tuple:
    """(train step, inference forward) of the 2.x dygraph form."""
    import paddle

    paddle.disable_static()
    net = paddle_model(name, s)
    opt = paddle.optimizer.Momentum(0.01, 0.9, parameters=net.parameters())
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)

    def train():
        paddle.disable_static()
        net.train()
        loss = paddle_loss(name, net(px), py)
        loss.backward()
        opt.step()
        opt.clear_grad()

    def infer():
        paddle.disable_static()
        net.eval()
        with paddle.no_grad():
            return net(px)

    return train, infer


def static_programs(name: str, s: dict, x: np.ndarray, y: np.ndarray, fluid_form: bool):
    """(main, startup, test program, loss, logits) of the 2.x static form (the nn.Layer recorded by paddle.static)
    or, with fluid_form, of the fluid 1.x form written with fluid.layers."""
    import paddle
    import paddle.static as st

    paddle.enable_static()
    main, startup = st.Program(), st.Program()
    with st.program_guard(main, startup), paddle.utils.unique_name.guard():
        xv = st.data("x", list(x.shape), "int64" if x.dtype == np.int64 else "float32")
        yv = st.data("y", list(y.shape), "int64")
        if fluid_form:
            import paddle.fluid as fluid

            logits = FLUID[name](fluid, xv)
            loss = fluid.layers.mean(fluid.layers.cross_entropy(fluid.layers.softmax(logits), yv))
            test = main.clone(for_test=True)
            fluid.optimizer.Momentum(0.01, 0.9).minimize(loss)
        else:
            logits = paddle_model(name, s)(xv)
            loss = paddle_loss(name, logits, yv)
            test = main.clone(for_test=True)
            paddle.optimizer.Momentum(0.01, 0.9).minimize(loss)
    return main, startup, test, loss, logits


def static_rows(name: str, s: dict, x: np.ndarray, y: np.ndarray, fluid_form: bool = False,
                compiler: bool = False) -> tuple:
    import paddle
    import paddle.static as st

    main, startup, test, loss, logits = static_programs(name, s, x, y, fluid_form)
    scope = st.Scope()
    exe = st.Executor(paddle.CPUPlace())
    with st.scope_guard(scope), tempfile.TemporaryDirectory() as d:
        exe.run(startup)
        # inference as deployed: the model save_inference_model writes (pruned to the logits, a scale op on them),
        # loaded back into this scope
        path = os.path.join(d, "model")
        st.save_inference_model(path, [main.global_block().var("x")], [logits], exe, program=test)
        test, _, (logits_out,) = st.load_inference_model(path, exe)
    prog = main
    if compiler:
        bs = st.BuildStrategy()
        for flag in ("enable_inplace", "memory_optimize", "fuse_elewise_add_act_ops", "fuse_all_optimizer_ops",
                     "fuse_bn_act_ops", "fuse_relu_depthwise_conv", "fuse_broadcast_ops", "enable_addto",
                     "fuse_bn_add_act_ops", "fuse_all_reduce_ops"):
            if hasattr(bs, flag):
                setattr(bs, flag, True)
        prog = st.CompiledProgram(main, build_strategy=bs)
        prog._with_compiler("inductor")
    feed = {"x": x, "y": y}

    def train():
        paddle.enable_static()
        with st.scope_guard(scope):
            exe.run(prog, feed=feed, fetch_list=[loss])

    def infer():
        paddle.enable_static()
        with st.scope_guard(scope):
            exe.run(test, feed={"x": x}, fetch_list=[logits_out])

    return train, infer


# --- fluid 1.x forms (written here with fluid.layers, the way the 1.x model zoo's CNNs are built) ----------------
def _cbr(fluid, x, c, k, s=1, act="relu", groups=1):
    y = fluid.layers.conv2d(x, c, k, s, (k - 1) // 2, groups=groups, bias_attr=False)
    return fluid.layers.batch_norm(y, act=act)


def fluid_resnet50(fluid, x):
    x = fluid.layers.pool2d(_cbr(fluid, x, 64, 7, 2), 3, "max", 2, 1)
    cin = 64
    for planes, n, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(n):
            s = stride if i == 0 else 1
            y = _cbr(fluid, _cbr(fluid, _cbr(fluid, x, planes, 1), planes, 3, s), planes * 4, 1, act=None)
            short = _cbr(fluid, x, planes * 4, 1, s, act=None) if s != 1 or cin != planes * 4 else x
            x, cin = fluid.layers.elementwise_add(short, y, act="relu"), planes * 4
    return fluid.layers.fc(fluid.layers.pool2d(x, pool_type="avg", global_pooling=True), CLASSES)


def fluid_mobilenet_v2(fluid, x):
    x, cin = _cbr(fluid, x, 32, 3, 2, act="relu6"), 32
    for t, c, n, stride in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                            (6, 160, 3, 2), (6, 320, 1, 1)):
        for i in range(n):
            s, hidden = stride if i == 0 else 1, cin * t
            y = _cbr(fluid, x, hidden, 1, act="relu6") if t != 1 else x
            y = _cbr(fluid, _cbr(fluid, y, hidden, 3, s, act="relu6", groups=hidden), c, 1, act=None)
            x, cin = (fluid.layers.elementwise_add(x, y) if s == 1 and cin == c else y), c
    x = fluid.layers.pool2d(_cbr(fluid, x, 1280, 1, act="relu6"), pool_type="avg", global_pooling=True)
    return fluid.layers.fc(x, CLASSES)


FLUID = {"resnet50": fluid_resnet50, "mobilenet_v2": fluid_mobilenet_v2}


# --- the torch side, hand-written ----------------------------------------------------------------------------------
def torch_model(name: str, s: dict):
    import torch
    from torch import nn as tnn

    if name in ("resnet50", "mobilenet_v2"):
        from bench_vision_models import TorchMobileNetV2, TorchResNet50

        return TorchResNet50(CLASSES) if name == "resnet50" else TorchMobileNetV2(CLASSES)

    if name == "mobilenet_v3s":
        def div8(v):  # the usual make_divisible(v, 8)
            r = max(8, int(v + 4) // 8 * 8)
            return r + 8 if r < 0.9 * v else r

        def cna(cin, cout, k, st=1, groups=1, act=None):
            mods = [tnn.Conv2d(cin, cout, k, st, (k - 1) // 2, groups=groups, bias=False),
                    tnn.BatchNorm2d(cout, eps=0.001, momentum=0.01)]
            return tnn.Sequential(*mods, act()) if act else tnn.Sequential(*mods)

        class SE(tnn.Module):
            def __init__(self, c):
                super().__init__()
                self.fc1, self.fc2 = tnn.Conv2d(c, div8(c // 4), 1), tnn.Conv2d(div8(c // 4), c, 1)

            def forward(self, x):
                w = torch.nn.functional.adaptive_avg_pool2d(x, 1)
                return x * torch.nn.functional.hardsigmoid(self.fc2(torch.relu(self.fc1(w))))

        class Block(tnn.Module):
            def __init__(self, cin, k, exp, cout, se, act, st):
                super().__init__()
                act = tnn.ReLU if act == "relu" else tnn.Hardswish
                mods = [cna(cin, exp, 1, act=act)] if exp != cin else []
                mods.append(cna(exp, exp, k, st, groups=exp, act=act))
                if se:
                    mods.append(SE(exp))
                mods.append(cna(exp, cout, 1))
                self.body, self.res = tnn.Sequential(*mods), st == 1 and cin == cout

            def forward(self, x):
                return x + self.body(x) if self.res else self.body(x)

        from paddle_compat.paddle2.vision.models.mobilenetv3 import _SMALL  # the block table (channels), not code

        return tnn.Sequential(cna(3, 16, 3, 2, act=tnn.Hardswish), *[Block(*row) for row in _SMALL],
                              cna(96, 576, 1, act=tnn.Hardswish), tnn.AdaptiveAvgPool2d(1), tnn.Flatten(),
                              tnn.Linear(576, 1024), tnn.Hardswish(), tnn.Dropout(0.2), tnn.Linear(1024, CLASSES))

    if name == "vit_small":
        class ViT(tnn.Module):
            def __init__(self, side, depth, dim=384, heads=6, patch=16):
                super().__init__()
                self.embed = tnn.Conv2d(3, dim, patch, patch)
                self.cls = tnn.Parameter(torch.zeros(1, 1, dim))
                self.pos = tnn.Parameter(torch.randn(1, (side // patch) ** 2 + 1, dim) * 0.02)
                layer = tnn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, activation="gelu",
                                                    batch_first=True, norm_first=True)
                self.encoder = tnn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
                self.norm, self.head = tnn.LayerNorm(dim), tnn.Linear(dim, CLASSES)

            def forward(self, x):
                x = self.embed(x).flatten(2).transpose(1, 2)
                x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
                return self.head(self.norm(self.encoder(x))[:, 0])

        return ViT(s["side"], s["depth"])

    if name == "bert_base":
        class Bert(tnn.Module):
            def __init__(self, seq, layers, dim=768, heads=12):
                super().__init__()
                self.word, self.pos = tnn.Embedding(30522, dim), tnn.Embedding(512, dim)
                self.norm = tnn.LayerNorm(dim, eps=1e-12)
                layer = tnn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, activation="gelu",
                                                    batch_first=True)
                self.encoder = tnn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
                self.pooler, self.cls = tnn.Linear(dim, dim), tnn.Linear(dim, 2)
                self.register_buffer("positions", torch.arange(seq).unsqueeze(0))

            def forward(self, ids):
                h = self.encoder(self.norm(self.word(ids) + self.pos(self.positions)))
                return self.cls(torch.tanh(self.pooler(h[:, 0])))

        return Bert(s["seq"], s["layers"])

    class LM(tnn.Module):
        def __init__(self, hidden):
            super().__init__()
            self.embed = tnn.Embedding(VOCAB, hidden)
            self.lstm = tnn.LSTM(hidden, hidden, num_layers=2, batch_first=True)
            self.proj = tnn.Linear(hidden, VOCAB)

        def forward(self, ids):
            return self.proj(self.lstm(self.embed(ids))[0])

    return LM(s["hidden"])


def torch_rows(name: str, s: dict, x: np.ndarray, y: np.ndarray, compiled: bool = False) -> tuple:
    import torch

    net = torch_model(name, s)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y).reshape(-1)

    def loss_of(tx, ty):
        out = net(tx)
        return torch.nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), ty)

    loss_fn, step = (torch.compile(loss_of), torch.compile(opt.step)) if compiled else (loss_of, opt.step)

    def train():
        net.train()
        loss = loss_fn(tx, ty)
        loss.backward()
        step()
        opt.zero_grad()

    def infer():
        net.eval()
        with torch.no_grad():
            return net(tx)

    return train, infer


# --- the data-loader row ---------------------------------------------------------------------------------------------
class DecodedImages:
    """`n` decoded HWC uint8 images with int64 labels; __getitem__ applies the usual transforms (random flip,
    scale to [0, 1], normalize, HWC -> CHW) in numpy, so both loaders run the same Python per sample."""

    def __init__(self, n: int, side: int):
        rng = np.random.RandomState(0)
        self.images = rng.randint(0, 256, (n, side, side, 3)).astype("uint8")
        self.labels = rng.randint(0, CLASSES, (n, 1)).astype("int64")
        self.mean = np.array([0.485, 0.456, 0.406], "float32") * 255
        self.std = np.array([0.229, 0.224, 0.225], "float32") * 255

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = self.images[i]
        if i % 2:
            img = img[:, ::-1]
        img = ((img.astype("float32") - self.mean) / self.std).transpose(2, 0, 1)
        return np.ascontiguousarray(img), self.labels[i]


def loader_rows(s: dict) -> dict:
    """One pass over a DataLoader of decoded images, training mobilenet_v2 on each batch, per batch: torch's
    DataLoader + torch eager, paddle.io.DataLoader + paddle dygraph (num_workers=2, persistent workers)."""
    import paddle
    import torch

    batches, b = (3, 2) if QUICK else (8, s["batch"])
    data = DecodedImages(batches * b, s["side"])
    paddle.disable_static()
    pl = paddle.io.DataLoader(data, batch_size=b, num_workers=2, persistent_workers=True, use_shared_memory=True)
    tl = torch.utils.data.DataLoader(data, batch_size=b, num_workers=2, persistent_workers=True)
    x, y = data[0]
    ptrain_net = paddle_model("mobilenet_v2", s)
    popt = paddle.optimizer.Momentum(0.01, 0.9, parameters=ptrain_net.parameters())
    tnet = torch_model("mobilenet_v2", s)
    topt = torch.optim.SGD(tnet.parameters(), lr=0.01, momentum=0.9)
    import paddle.nn.functional as F

    def ours():
        paddle.disable_static()
        for px, py in pl:
            loss = F.cross_entropy(ptrain_net(px), py)
            loss.backward()
            popt.step()
            popt.clear_grad()

    def theirs():
        for tx, ty in tl:
            loss = torch.nn.functional.cross_entropy(tnet(tx), ty.reshape(-1))
            loss.backward()
            topt.step()
            topt.zero_grad()

    # as many blocks as a model row: with 5, a block's spread (about 8% here) moved this row's median by up to 0.08
    blocks = interleaved_blocks({"torch": theirs, "dataloader": ours}, 1, repeats=2 if QUICK else 9, warmup=1,
                                rotate=True)
    out = {k: statistics.median(v) / batches for k, v in blocks.items()}
    out["ratio"] = paired_ratio(blocks, "dataloader", "torch")
    return out


# --- driver ----------------------------------------------------------------------------------------------------------
BLOCK_MS = 150.0  # a block's length: the steps of a short row are averaged within a block, then blocks' median


def block_steps(fns: dict) -> int:
    """Steps per block for every row of one model: about BLOCK_MS of the slowest row, timed by one warm-up call of
    each (at least one step; a training step of these models is 100-700 ms, an inference step 15-200 ms)."""
    slowest = 0.0
    for f in fns.values():
        t0 = time.perf_counter()
        f()
        slowest = max(slowest, (time.perf_counter() - t0) * 1000.0)
    return 1 if QUICK else max(1, round(BLOCK_MS / max(slowest, 1e-3)))


def timed(fns: dict, repeats: int) -> dict:
    """{row: (median ms, paired ratio to the torch row or None without one)} of interleaved blocks."""
    blocks = interleaved_blocks(fns, block_steps(fns), repeats=repeats, warmup=0, rotate=True)
    return {k: (statistics.median(v), paired_ratio(blocks, k, "torch") if "torch" in blocks else None)
            for k, v in blocks.items()}


def measure(names: list, forms: tuple, compile_: bool, torch_compile: bool = False, aa: bool = False) -> dict:
    """{model: {row: (train ms, infer ms or None, train ratio, infer ratio)}} (ratios to the torch row, paired by
    repeat; None without a torch row), every row of one model timed round-robin."""
    out: dict = {}
    repeats = 2 if QUICK else 15  # a row's median over 15 blocks: this machine's spread is about 8% per block
    for name in names:
        s = shapes()[name]
        x, y = inputs(name, s, np.random.RandomState(0))
        rows: dict = {}
        if "torch" in forms:
            rows["torch"] = torch_rows(name, s, x, y)
            if aa:
                rows["torch again"] = torch_rows(name, s, x, y)
        if "dygraph" in forms:
            rows["dygraph"] = dygraph_rows(name, s, x, y)
        if "static" in forms:
            rows["static"] = static_rows(name, s, x, y)
        if "fluid" in forms and name in FLUID:
            rows["fluid"] = static_rows(name, s, x, y, fluid_form=True)
        first = {}
        if compile_:
            t0 = time.perf_counter()
            train, _ = static_rows(name, s, x, y, compiler=True)
            train()  # the first call compiles
            first["compiler"] = time.perf_counter() - t0
            rows["compiler"] = (train, None)
        if torch_compile:
            train, _ = torch_rows(name, s, x, y, compiled=True)
            train()  # the first call compiles
            rows["torch.compile"] = (train, None)
        train = timed({k: v[0] for k, v in rows.items()}, repeats)
        infer = timed({k: v[1] for k, v in rows.items() if v[1] is not None}, repeats)
        out[name] = {}
        for k in rows:
            infer_ms, infer_ratio = infer.get(k, (None, None))
            out[name][k] = (train[k][0], infer_ms, train[k][1], infer_ratio)
        if first:
            out[name]["compiler_first_s"] = (first["compiler"], None, None, None)
        print(f"  measured {name}: " + ", ".join(f"{k} {v[0]:.1f}" for k, v in out[name].items()), flush=True,
              file=sys.stderr)
    return out


def real_paddle(python: str, names: list) -> dict:
    """Real Paddle's dygraph and static rows, measured by this file in its own venv (no shims on the path)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [python, "-s", os.path.abspath(__file__), "--child-paddle", ",".join(names)] + (["--quick"] if QUICK else [])
    res = subprocess.run(cmd, cwd="/tmp", env=env, capture_output=True, text=True, timeout=3600)
    if res.returncode != 0:
        print(f"real Paddle run failed ({res.returncode}):\n{res.stderr[-2000:]}", file=sys.stderr)
        return {}
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    args = sys.argv[1:]
    names = list(shapes())
    if "--models" in args:
        names = args[args.index("--models") + 1].split(",")
    if "--child-paddle" in args:  # under real Paddle: its rows only
        sel = args[args.index("--child-paddle") + 1].split(",")
        print(json.dumps(measure(sel, ("dygraph", "static"), False)))
        return
    import torch

    torch.manual_seed(0)
    print(f"models: paddle_compat vs hand-written torch eager, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, ms per step (median of interleaved blocks)")
    ours = measure(names, ("torch", "dygraph", "static", "fluid"), "--no-compile" not in args,
                   "--torch-compile" in args, "--aa" in args)
    theirs = real_paddle(args[args.index("--paddle") + 1], names) if "--paddle" in args else {}
    train_ratios, infer_ratios, compile_ratios, reference_ratios, aa_ratios = [], [], [], [], []
    print(f"{'model':<14} {'row':<22} {'train ms':>10} {'x torch':>8} {'infer ms':>10} {'x torch':>8}")
    for name in names:
        rows = dict(ours[name])
        base_t, base_i = rows["torch"][:2]
        # real Paddle's rows come from another process: plain ratios of medians
        rows.update({f"real Paddle {k}": (t, i, t / base_t, i / base_i if i is not None else None)
                     for k, (t, i, *_) in theirs.get(name, {}).items()})
        for row, (t, i, rt, ri) in rows.items():
            if row == "compiler_first_s":
                print(f"{name:<14} {'compiler first call':<22} {t:>9.1f}s")
                continue
            print(f"{name:<14} {row:<22} {t:>10.1f} {rt:>8.2f} " + (f"{i:>10.1f} {ri:>8.2f}" if i else ""))
            if row in ("dygraph", "static", "fluid"):
                train_ratios.append(rt)
                infer_ratios.append(ri)
            elif row == "compiler":
                compile_ratios.append(rt)
            elif row == "torch.compile":
                reference_ratios.append(rt)
            elif row == "torch again":
                aa_ratios += [rt, ri]
    lr = loader_rows(shapes()["mobilenet_v2"])
    ratio = lr["ratio"]
    train_ratios.append(ratio)
    print(f"{'mobilenet_v2':<14} {'DataLoader (torch)':<22} {lr['torch']:>10.1f} {1.0:>8.2f}")
    print(f"{'mobilenet_v2':<14} {'DataLoader (ours)':<22} {lr['dataloader']:>10.1f} {ratio:>8.2f}")
    comp = statistics.median(compile_ratios) if compile_ratios else math.nan
    if reference_ratios:
        print(f"plain torch.compile of the torch steps: median ratio {statistics.median(reference_ratios):.2f} "
              f"(the compiler row's: {comp:.2f})")
    if aa_ratios:
        print(f"torch against itself (A/A): ratios {min(aa_ratios):.2f}-{max(aa_ratios):.2f} over "
              f"{len(aa_ratios)} rows (this run's noise floor)")
    print(f"models: worst_train_ratio={max(train_ratios):.2f} worst_infer_ratio={max(infer_ratios):.2f} "
          f"compile_train_ratio={comp:.2f}")


if __name__ == "__main__":
    main()
