"""Issue 28's scripted move, kept as the record of what moved where: git mv plus a rewrite of every
`paddle_compat.<old>` module path (and `paddle_compat/<old>` file path that names a file of ours) in the tracked
text files. Deterministic, so a branch that forked before the move is replayed with it (it ran on cfdebdd:
`python tools/restructure/moves.py REPO && python tools/restructure/moves2.py REPO`; the hand-made inversions
that followed are ordinary commits). Usage: python moves.py REPO"""
import os
import re
import subprocess
import sys

E, P = "engine", "paddle2"
# (old module path, new module path) relative to paddle_compat; packages and modules.
MOVES = [
    # modules leaving their package first (applied before the package moves)
    ("ops.registry", f"{E}.framework.registry"),
    ("utils.optional", f"{E}.core.optional"),
    ("optimizer.update_ops", f"{E}.ops.update_ops"),
    ("io.serialization", f"{E}.static.serialization"),
    ("io.checkpoint_files", f"{E}.static.checkpoint_files"),
    ("distributed.env", f"{E}.parallel.env"),
    ("distributed.rendezvous", f"{E}.parallel.rendezvous"),
    ("parallel.pserver18", f"{E}.parallel.pserver"),
    ("parallel.transpiler18", "fluid.transpiler"),
    ("optimizer.optimizer18", "fluid.optimizer"),
    ("nn.fluid_dygraph", "fluid.dygraph_layers"),
    ("ops.decode18", f"{E}.ops.cudnn_lstm"),
    ("ops.contrib_text18", f"{E}.ops.text_matching"),
    ("ops.fluid_misc18", f"{E}.ops.fluid_extra"),
    ("ops.fluid_misc", f"{E}.ops.fluid_basic"),
    ("static.amp2x", f"{P}.static.amp"),
    ("static.metric2x", f"{P}.static.metric"),
    ("nn.static_nn2x", f"{P}.static.nn"),
    ("static.jit", f"{P}.jit"),
    ("distributed.comm2x", f"{P}.distributed.collective_more"),
    ("distributed.comm", f"{P}.distributed.collective"),
    ("distributed.config2x", f"{P}.distributed.config"),
    ("distributed.dataset2x", f"{P}.distributed.dataset"),
    ("distributed.fleet2x", f"{P}.distributed.fleet"),
    ("hapi.callbacks2x", f"{P}.hapi.callbacks_more"),
    ("io.sampler2x", f"{P}.io.sampler"),
    ("nn.initializer2x", f"{P}.nn.initializer"),
    ("optimizer.lr2x", f"{P}.optimizer.lr_more"),
    ("utils.internals2x", f"{P}.utils.internals"),
    ("utils.profiler2x", f"{P}.utils.profiler"),
]
for m in ["compat", "complex", "contrib", "contrib_amp", "contrib_decoder", "contrib_rnn", "contrib_text",
          "data_generator", "dataset", "decode", "dygraph", "fleet", "framework", "inference", "install_check",
          "internals", "io", "layer_helper", "misc", "nets", "profiler", "py_func", "reader",
          "sequence_layers", "utils"]:
    MOVES.append((f"fluid.{m}18", f"fluid.{m}"))
MOVES += [("fluid.layers18_alias", "fluid.layers_alias"), ("fluid.layers18_params", "fluid.layers_params"),
          ("fluid.metric18", "fluid.auc"), ("fluid.metrics18", "fluid.metrics")]
for pkg in ["core", "framework", "ops", "passes", "static", "parallel"]:
    MOVES.append((pkg, f"{E}.{pkg}"))
for pkg in ["amp", "audio", "autograd", "dataset", "device", "distributed", "distribution", "hapi", "incubate",
            "inference", "io", "metric", "nn", "onnx", "optimizer", "reader", "text", "utils", "vision"]:
    MOVES.append((pkg, f"{P}.{pkg}"))


def final(mod):
    """Where an old module path ends up after every move (module moves, then package moves)."""
    for old, new in MOVES:
        if mod == old or mod.startswith(old + "."):
            return new + mod[len(old):]
    return mod


from_re = re.compile(r"^([ \t]*)from paddle_compat(?:\.([\w.]+))? import (\([^)]*\)|[^\n]*)", re.M)


def split_from(m, mapping):
    """`from paddle_compat.P import a, b` where P.a is a moved module: import it from its new parent
    (as its old name when renamed). Other names stay on the statement, rewritten by the module pass."""
    indent, pkg, body = m.group(1), m.group(2) or "", m.group(3)
    inner = body.strip()
    comment = ""
    if not inner.startswith("(") and "#" in inner:
        inner, comment = inner.split("#", 1)
        comment = "  #" + comment
    names = [x.strip() for x in inner.strip("()").replace("\n", " ").split(",") if x.strip()]
    moved, kept = [], []
    for n in names:
        base, _, alias = n.partition(" as ")
        full = f"{pkg}.{base.strip()}" if pkg else base.strip()
        # a module whose parent's move does not carry it (it left its package, or was renamed)
        regroup = full in mapping and (not pkg or mapping[full] != mapping.get(pkg, pkg) + "." + base.strip())
        (moved if regroup else kept).append((base.strip(), alias.strip()))
    if not moved:
        return m.group(0)
    out = []
    if kept:
        out.append(f"{indent}from paddle_compat{'.' + pkg if pkg else ''} import " + ", ".join(b + (f" as {a}" if a else "") for b, a in kept))
    for base, alias in moved:
        new = mapping[f"{pkg}.{base}" if pkg else base]
        parent, _, nb = new.rpartition(".")
        asn = alias or (base if nb != base else "")
        out.append(f"{indent}from paddle_compat.{parent} import {nb}" + (f" as {asn}" if asn else ""))
    return "\n".join(out) + comment


def main(repo):
    root = os.path.join(repo, "paddle_compat")
    # a path in text is ours only if it names something that exists in the tree (PaddleTest's `framework/api/nn/...`
    # and `nn/test_upsample` are not)
    existing = set()
    for dp, dns, fns in os.walk(root):
        dns[:] = [d for d in dns if d != "__pycache__"]
        rel = os.path.relpath(dp, root).replace(os.sep, "/")
        if rel != ".":
            existing.add(rel)
        for fn in fns:
            existing.add(fn if rel == "." else f"{rel}/{fn}")
    # collect every old module path that exists, map to final
    olds = []
    for dp, dns, fns in os.walk(root):
        dns[:] = [d for d in dns if d != "__pycache__"]
        rel = os.path.relpath(dp, root).replace(os.sep, ".")
        for fn in fns:
            if fn.endswith(".py"):
                mod = fn[:-3] if rel == "." else f"{rel}.{fn[:-3]}"
                if mod.endswith(".__init__"):
                    mod = mod[:-9]
                olds.append(mod)
        if rel != ".":
            olds.append(rel)
    mapping = {o: final(o) for o in set(olds) if final(o) != o}
    # file moves, module by module (packages via their files)
    for dp, dns, fns in list(os.walk(root)):
        if "__pycache__" in dp:
            continue
        rel = os.path.relpath(dp, root).replace(os.sep, ".")
        for fn in fns:
            if not fn.endswith(".py"):
                continue
            mod = fn[:-3] if rel == "." else f"{rel}.{fn[:-3]}"
            new = final(mod if not mod.endswith(".__init__") else mod)
            if new != mod:
                src = os.path.join(dp, fn)
                dst = os.path.join(root, *new.split(".")) + ".py"
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                subprocess.check_call(["git", "-C", repo, "mv", src, dst])
    # packages that now hold modules need __init__.py
    for new in set(mapping.values()):
        parts = new.split(".")
        for i in range(1, len(parts)):
            d = os.path.join(root, *parts[:i])
            init = os.path.join(d, "__init__.py")
            if os.path.isdir(d) and not os.path.exists(init):
                open(init, "w").write(f'"""{".".join(parts[:i])}."""\n')
                subprocess.check_call(["git", "-C", repo, "add", init])
    # text rewrite
    keys = sorted(mapping, key=len, reverse=True)
    mod_re = re.compile(r"paddle_compat\.(" + "|".join(re.escape(k) for k in keys) + r")(?![\w])")
    path_keys = {k.replace(".", "/"): v.replace(".", "/") for k, v in mapping.items()}
    pk = sorted(path_keys, key=len, reverse=True)
    path_re = re.compile(r"(?<![\w/.])(paddle_compat/)?(" + "|".join(re.escape(k) for k in pk) + r")(\.py\b|/)([\w/]*(?:\.py\b)?)")

    def path_sub(m):
        pre, key, sep, rest = m.group(1) or "", m.group(2), m.group(3), m.group(4)
        full = (key + sep + rest).rstrip("/")
        if sep == "/" and rest and full not in existing and full + ".py" not in existing:
            return m.group(0)
        if sep != "/" and key + ".py" not in existing:  # `framework.py` is Paddle's file, not ours
            return m.group(0)
        return pre + path_keys[key] + sep + rest
    files = subprocess.check_output(["git", "-C", repo, "ls-files"], text=True).split()
    for f in files:
        if not f.endswith((".py", ".toml", ".md", ".sh", ".cfg", ".ini", ".txt")) and f not in ("Makefile",) and not f.startswith(".ci/"):
            continue
        if f.startswith("paddle_compat/data/") or f.startswith("tests/goldens/"):
            continue
        p = os.path.join(repo, f)
        try:
            s = open(p).read()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        t = from_re.sub(lambda m: split_from(m, mapping), s)
        t = mod_re.sub(lambda m: "paddle_compat." + mapping[m.group(1)], t)
        t = path_re.sub(path_sub, t)
        if t != s:
            open(p, "w").write(t)


if __name__ == "__main__":
    main(sys.argv[1])
