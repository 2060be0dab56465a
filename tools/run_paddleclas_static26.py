"""Run PaddleClas backbones (ViT, DeiT, MobileViT) in static mode under real Paddle or under paddle_compat with the
same parameters and input, and compare their outputs (issue 25 item 4).

PaddleClas is not copied here: point --paddleclas at an extracted release/2.5 tree (for instance
`git --git-dir=/work/.mirror/PaddlePaddle+PaddleClas/repo archive release/2.5 ppcls | tar -x -C /tmp/pc`). The
model files are imported from there; `ppcls.utils.save_load` (the pretrained-weight downloader, which pulls in
requests / tqdm) is replaced by a module whose functions refuse, since no case asks for pretrained weights.

  # 1. real Paddle builds each program, draws its parameters and writes them with the input and its output:
  /work/oracle/p26/bin/python tools/run_paddleclas_static26.py --paddleclas /tmp/pc --dir /tmp/pc_run
  # 2. ours builds the same programs, loads those parameters by position (names and shapes checked), compares:
  PYTHONPATH=$PWD:$PWD/shims python tools/run_paddleclas_static26.py --paddleclas /tmp/pc --dir /tmp/pc_run

Prints per model: op count, parameter count, whether the parameter names agree, output shape and the largest
absolute / relative difference from real Paddle's output, then the op types either side has more of.
"""

import argparse
import importlib.util
import os
import sys
import time
import types
from collections import Counter

import numpy as np

MODELS = {
    # name: (model_zoo file, constructor, input side)
    "ViT_small_patch16_224": ("vision_transformer", "ViT_small_patch16_224", 224),
    "DeiT_tiny_patch16_224": ("distilled_vision_transformer", "DeiT_tiny_patch16_224", 224),
    "DeiT_tiny_distilled_patch16_224": ("distilled_vision_transformer", "DeiT_tiny_distilled_patch16_224", 224),
    "MobileViT_XXS": ("mobilevit", "MobileViT_XXS", 256),
}


def _is_real_paddle(paddle):
    return "paddle_compat" not in sys.modules


def _load_zoo(root, mod):
    """Import ppcls/arch/backbone/model_zoo/<mod>.py from `root` without ppcls's package __init__ files."""
    for pkg in ("ppcls", "ppcls.arch", "ppcls.arch.backbone", "ppcls.arch.backbone.model_zoo", "ppcls.utils"):
        if pkg not in sys.modules:
            m = types.ModuleType(pkg)
            m.__path__ = [os.path.join(root, *pkg.split("."))]
            sys.modules[pkg] = m
    if "ppcls.utils.save_load" not in sys.modules:
        sl = types.ModuleType("ppcls.utils.save_load")

        def _refuse(*a, **k):
            raise RuntimeError("run_paddleclas_static26: pretrained weights are not used")

        sl.load_dygraph_pretrain = sl.load_dygraph_pretrain_from_url = _refuse
        sys.modules["ppcls.utils.save_load"] = sl
    name = "ppcls.arch.backbone.model_zoo." + mod
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(root, "ppcls", "arch", "backbone", "model_zoo", mod + ".py"))
    m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m
    spec.loader.exec_module(m)
    return m


def run_one(paddle, root, name, out_dir, batch):
    mod, ctor, side = MODELS[name]
    zoo = _load_zoo(root, mod)
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
        model = getattr(zoo, ctor)(class_num=10)
        model.eval()
        x = paddle.static.data("image", [-1, 3, side, side], "float32")
        y = model(x)
    params = main.all_parameters()
    # Paddle (2.4 and 2.6), and we, append the ops of an initializer called on an existing parameter in static mode
    # (`trunc_normal_(self.pos_embed)`) to the *main* program, so each run redraws those parameters. Drop such ops
    # here (Block._remove_op: the readers then read the parameter) so both sides run with the parameters set below.
    pnames = {p.name for p in params}
    block = main.global_block()
    redraws = [i for i, op in enumerate(block.ops) if op.output_arg_names and set(op.output_arg_names) <= pnames]
    for i in reversed(redraws):
        block._remove_op(i)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    path = os.path.join(out_dir, name + ".npz")
    real = _is_real_paddle(paddle)
    with paddle.static.scope_guard(scope):
        exe.run(start)
        if real:
            rng = np.random.RandomState(0)
            feed = rng.uniform(-1, 1, (batch, 3, side, side)).astype("float32")
            arrays = {"image": feed}
            for i, p in enumerate(params):
                a = np.array(scope.find_var(p.name).get_tensor())
                # redraw with a fixed generator (the initializers differ from ours), small enough for a stable
                # softmax; a constant-initialized one (batch-norm scale / variance 1) keeps its constant as centre
                if a.dtype.kind == "f":
                    centre = a.flat[0] if a.size and np.all(a == a.flat[0]) else 0.0
                    a = (centre + rng.standard_normal(a.shape) * 0.05).astype(a.dtype)
                scope.find_var(p.name).get_tensor().set(a, paddle.CPUPlace())
                arrays[f"p{i:04d}"] = a
            names = [p.name for p in params]
        else:
            ref = np.load(path)
            feed = ref["image"]
            names = [str(s) for s in ref["names"]]
            for i, p in enumerate(params):
                a = ref[f"p{i:04d}"]
                if tuple(a.shape) != tuple(p.shape):
                    raise SystemExit(f"{name}: parameter {i} {p.name} has shape {p.shape}, Paddle's {a.shape}")
                scope.var(p.name).get_tensor().set(a, paddle.CPUPlace())
        t0 = time.time()
        (out,) = exe.run(main, feed={"image": feed}, fetch_list=[y])
        dt = time.time() - t0
    ops = [op.type for op in main.global_block().ops]
    if real:
        np.savez(path, names=np.array([p.name for p in params]), out=out, n_ops=len(ops), ops=np.array(ops),
                 n_redraws=len(redraws),
                 **arrays)
        print(f"{name}: recorded {len(params)} parameters, {len(ops)} ops ({len(redraws)} parameter redraws dropped), "
              f"output {out.shape} ({dt:.2f} s)")
        return
    want = ref["out"]
    same_names = names == [p.name for p in params]
    diff = float(np.max(np.abs(out - want))) if out.shape == want.shape else float("nan")
    rel = diff / max(float(np.max(np.abs(want))), 1e-12)
    print(f"{name}: {len(params)} parameters (names {'equal' if same_names else 'DIFFER'}), ops ours {len(ops)} / "
          f"Paddle {int(ref['n_ops'])}, output {out.shape} vs {want.shape}, max abs diff {diff:.2e} "
          f"(rel. to max |out| {rel:.2e}) ({dt:.2f} s)")
    theirs, mine = Counter(str(t) for t in ref["ops"]), Counter(ops)
    print("   op types Paddle has more of:", dict(theirs - mine), "| we have more of:", dict(mine - theirs))
    if not same_names:
        bad = [(a, b.name) for a, b in zip(names, params) if a != b.name][:5]
        print("   first differing names (Paddle, ours):", bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--paddleclas", required=True, help="extracted PaddleClas release/2.5 tree")
    ap.add_argument("--dir", required=True, help="folder for the parameters / outputs (written by real Paddle)")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--batch", type=int, default=2)
    args = ap.parse_args()
    import paddle

    paddle.enable_static()
    os.makedirs(args.dir, exist_ok=True)
    for name in args.models.split(","):
        run_one(paddle, os.path.abspath(args.paddleclas), name, args.dir, args.batch)


if __name__ == "__main__":
    main()
