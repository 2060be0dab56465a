"""The opt-in compiler path: the final GraphModule (after the BuildStrategy passes) through torch.compile.

How to turn it on (off by default; the test suite never needs it):
  - per program:   `fluid.CompiledProgram(main, build_strategy)._with_compiler("inductor")`
  - process-wide:  `PADDLE_COMPAT_COMPILE=1` (inductor) or `PADDLE_COMPAT_COMPILE=<backend>` (e.g.
                   `aot_eager`); `_with_compiler(None)` opts a program out again.

What is compiled: the program's forward ops. Our graphs differentiate with one `autograd_grad` node that
calls torch.autograd at run time and optimizer ops that mutate parameters in place; dynamo would graph-
break on both. So the GraphModule is split at the backward node: the forward segment (feeds and
parameters in, every value the rest reads out) is compiled with torch.compile (inductor fuses the
elementwise chains and generates its own backward via AOTAutograd), and the backward / optimizer
segment runs as before, calling torch.autograd.grad through the compiled forward's autograd graph.
Programs without a backward node (inference) are compiled whole. First call pays the compile (seconds);
shapes are marked static per feed signature (the Executor caches one plan per feed names, and dynamo
recompiles on a new shape).

Layout (`_conv_layout`): inductor lays a conv graph's activations out channels-last on CPU (oneDNN). That is
what a graph with grouped / depthwise convolutions wants, with its filters kept channels-last too (`_ChannelsLast`,
converted in place in the Scope before the first compiled call): a filter left row-major sends each convolution's
backward, the depthwise ones above all, to oneDNN's slower mixed-layout path (MobileNetV3-small's
`convolution_backward`: 177 -> 113 ms a profiled 3 steps). A graph of ungrouped convolutions only (ResNet, VGG,
LeNet) is compiled with inductor's layout optimization off instead, activations and filters row-major as in
eager: channels-last there makes every filter gradient a transposing copy in oneDNN's backward (ResNet-50: 53
`_to_copy` a step, 18 of 275 ms), and the whole step measured 0.87x torch eager row-major against 0.97x
channels-last (MobileNetV2 / V3-small: 0.75 / 0.63 channels-last against 0.82 / 0.82 row-major). Values are
unchanged: a tensor's layout is not its values, and what reads them from the Scope (numpy, the savers) reads by
strides. A channels-last graph is compiled with inductor's `force_layout_optimization`: inductor decides layout
optimization per graph from its `aten.convolution` nodes, and AOTAutograd's backward graph has only
`convolution_backward` ones, so it compiled with the optimization off. Its convolution_backward lowering then asks
for the input in the stride order of the filter gradient's layout, which for a depthwise filter [C, 1, kh, kw] in
channels-last strides is the mixed order (N, H, C, W): every depthwise convolution's saved input was copied to that
order and back to channels-last inside oneDNN's backward (MobileNetV2: 6.7 ms a step of copies). Forced, the
backward reads the saved channels-last activations as they are: MobileNetV2's compiler row took 0.83 of the time,
MobileNetV3-small's 0.86 (one process, paired blocks).

Numerics: inductor may reassociate and fuse floating-point work, so results match the eager path to
float tolerance, not bit for bit.
"""

from __future__ import annotations

import os

import torch
import torch.fx as fx


def env_backend() -> str | None:
    v = os.environ.get("PADDLE_COMPAT_COMPILE", "").strip()
    if v in ("", "0", "false", "False", "off"):
        return None
    return "inductor" if v in ("1", "true", "True", "on") else v


def _forward_nodes(gm: fx.GraphModule) -> list[fx.Node] | None:
    """The forward-role op nodes, when they form a prefix closed under inputs (they read only
    placeholders, constants and each other); None when there is no backward node to split at."""
    nodes = list(gm.graph.nodes)
    if not any(n.meta.get("role") == "backward" for n in nodes):
        return None
    fwd = [n for n in nodes if n.op == "call_function" and n.meta.get("role") == "forward"]
    fwd_set = set(fwd)
    for n in fwd:
        for a in n.all_input_nodes:
            if a.op == "call_function" and a not in fwd_set:
                return None
    return fwd or None


# ops that compute a value from their attributes and inputs alone (no state, no randomness, no I/O): computed from
# constants they are constants (position ids: `paddle.arange(seq).unsqueeze(0)` in a BERT's program)
_FOLDABLE = frozenset({"fill_constant", "fill_constant_2x", "range", "assign_value", "linspace", "eye", "cast",
                       "unsqueeze2", "squeeze2", "reshape2", "expand_v2", "scale", "fill_any_like"})


def _fold_constants(gm: fx.GraphModule) -> None:
    """Ops in _FOLDABLE that read only constants run once here and the graph keeps their values: dynamo would
    break the graph at the Python numbers they read from tensors (the `range` op's bounds)."""
    import operator

    from paddle_compat.engine.static.joint import graph_constant

    values: dict = {}
    for n in gm.graph.nodes:
        if n.op == "get_attr" and n.meta.get("const"):
            values[n] = operator.attrgetter(n.target)(gm)
    k = 0
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.meta.get("op_type") not in _FOLDABLE or n.meta.get("role") != "forward" or \
                not all(a in values for a in n.all_input_nodes):
            continue
        try:
            with torch.no_grad():
                v = n.target(*fx.node.map_arg(n.args, values.__getitem__),
                             **fx.node.map_arg(n.kwargs, values.__getitem__))
        except Exception:  # noqa: BLE001 - left to run as it is
            continue
        c = graph_constant(gm, n, v, f"_compile_const{k}")
        if c is None:
            continue
        k += 1
        c.meta.update({key: n.meta[key] for key in ("var_name", "out_names", "role") if key in n.meta}, const=True)
        n.replace_all_uses_with(c)
        gm.graph.erase_node(n)
        values[c] = v
    if k:  # the constants the folded ops read stay (unused get_attr nodes cost nothing)
        gm.recompile()


_CONV2D = frozenset({"conv2d", "depthwise_conv2d"})


def _conv_filters(gm: fx.GraphModule) -> list[tuple]:
    """(filter argument, whether grouped: depthwise, or groups other than 1) of each 2-D convolution of the graph."""
    from paddle_compat.engine.passes._util import bound

    out = []
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.meta.get("op_type") in _CONV2D:
            b = bound(n)
            grouped = n.meta["op_type"] == "depthwise_conv2d" or b.get("groups", 1) not in (None, 1)
            out.append((b.get("weight"), grouped))
    return out


def _conv_layout(gm: fx.GraphModule, backend: str, device: str) -> tuple["_ChannelsLast | None", dict | None]:
    """(the filters kept channels-last, torch.compile's inductor options) for a graph on CPU (module docstring,
    Layout): channels-last filters and inductor's layout optimization forced (the backward graph's too) where a
    convolution is grouped, the optimization off where the convolutions are all ungrouped; (None, None) without 2-D
    convolutions, without oneDNN, or on another device (these choices were measured on oneDNN's kernels)."""
    if device != "cpu" or not (torch.backends.mkldnn.enabled and torch.backends.mkldnn.is_available()):
        return None, None
    convs = _conv_filters(gm)
    if not convs:
        return None, None
    if not any(grouped for _, grouped in convs):
        return None, ({"layout_optimization": False} if backend == "inductor" else None)
    return _ChannelsLast.of(gm, [w for w, _ in convs]), ({"force_layout_optimization": True}
                                                           if backend == "inductor" else None)


class _ChannelsLast:
    """Keeps the CPU filters of a graph's 2-D convolutions (placeholder positions `slots`) in channels-last order:
    a filter found in another layout is replaced in place (`Tensor.data`, so the Scope's tensor object is the one
    that changes) by a channels-last copy. The strides are those of `empty_like(memory_format=channels_last)`, not
    merely any layout `is_contiguous(channels_last)` accepts: a depthwise filter [C, 1, kh, kw] passes that test in
    row-major order, and oneDNN reads its strides."""

    def __init__(self, slots: tuple[int, ...]) -> None:
        self.slots = slots

    @classmethod
    def of(cls, gm: fx.GraphModule, weights: list) -> "_ChannelsLast | None":
        """For the convolutions' filter arguments `weights` (those that are the graph's placeholders)."""
        filters = {w for w in weights if isinstance(w, fx.Node) and w.op == "placeholder"}
        slots = tuple(i for i, p in enumerate(n for n in gm.graph.nodes if n.op == "placeholder") if p in filters)
        return cls(slots) if slots else None

    def __call__(self, args: tuple) -> None:
        for i in self.slots:
            a = args[i]
            if a.is_cpu and a.dim() == 4 and a.is_floating_point():
                _, c, h, w = a.shape
                if a.stride() != (h * w * c, 1, w * c, c):  # channels-last strides, as c10 computes them
                    a.data = torch.empty_like(a, memory_format=torch.channels_last).copy_(a)


def compile_graph(gm: fx.GraphModule, backend: str, device: str) -> fx.GraphModule:
    """Return a module with the same calling convention whose forward segment runs compiled (`device`: the place's
    kind, "cpu" or "gpu")."""
    from paddle_compat.engine.core import eager_kernels

    eager_kernels.prepare()  # fused kernels the graph keeps (torch's RNNs), built before the trace
    _fold_constants(gm)
    layout, options = _conv_layout(gm, backend, device)
    fwd = _forward_nodes(gm)
    if fwd is None:
        compiled = torch.compile(gm, backend=backend, dynamic=False, options=options)
        return _Wrapped(gm, compiled, layout)
    fwd_set = set(fwd)
    g = gm.graph
    # forward module: placeholders -> tuple(values read outside the forward)
    fg = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    for n in g.nodes:
        if n.op == "placeholder":
            env[n] = fg.placeholder(n.name)
            env[n].meta = dict(n.meta)
    for n in g.nodes:
        if n.op == "get_attr" and any(u in fwd_set for u in n.users):
            env[n] = fg.node_copy(n, lambda a: env[a])
        elif n in fwd_set:
            env[n] = fg.node_copy(n, lambda a: env[a])
    escaping = [n for n in fwd if any(u not in fwd_set for u in n.users)]
    fg.output(tuple(env[n] for n in escaping))
    fwd_gm = fx.GraphModule(gm, fg)
    compiled_fwd = torch.compile(fwd_gm, backend=backend, dynamic=False, options=options)
    # rest module: placeholders + escaping values -> original outputs
    rg = fx.Graph()
    renv: dict[fx.Node, fx.Node] = {}
    for n in g.nodes:
        if n.op == "placeholder":
            renv[n] = rg.placeholder(n.name)
            renv[n].meta = dict(n.meta)
    for i, n in enumerate(escaping):
        renv[n] = rg.placeholder(f"fwd_out_{i}")
        renv[n].meta = dict(n.meta)
    for n in g.nodes:
        if n.op in ("placeholder",) or n in fwd_set:
            continue
        if n.op == "get_attr" and not any(u not in fwd_set for u in n.users):
            continue
        renv[n] = rg.node_copy(n, lambda a: renv[a])
    rest_gm = fx.GraphModule(gm, rg)
    return _Split(gm, compiled_fwd, rest_gm, layout)


class _Compiled(torch.nn.Module):
    """What the Executor reads of a compiled plan's module (the graph, its roles and meta), and the filters'
    layout kept before each call."""

    def __init__(self, gm: fx.GraphModule, layout: _ChannelsLast | None) -> None:
        super().__init__()
        self.gm = gm
        self.graph = gm.graph  # the Executor inspects roles on the graph
        self.meta = getattr(gm, "meta", {})
        self._layout = layout

    def _keep_layout(self, args: tuple) -> None:
        if self._layout is not None:
            self._layout(args)


class _Wrapped(_Compiled):
    def __init__(self, gm: fx.GraphModule, compiled, layout: _ChannelsLast | None = None) -> None:
        super().__init__(gm, layout)
        self._compiled = compiled

    def forward(self, *args):
        self._keep_layout(args)
        return self._compiled(*args)


class _Split(_Compiled):
    """forward(*inputs) = rest(*inputs, *compiled_forward(*inputs))."""

    def __init__(self, gm: fx.GraphModule, compiled_fwd, rest: fx.GraphModule,
                 layout: _ChannelsLast | None = None) -> None:
        super().__init__(gm, layout)
        self._fwd = compiled_fwd
        self.rest = rest

    def forward(self, *args):
        self._keep_layout(args)
        return self.rest(*args, *self._fwd(*args))
