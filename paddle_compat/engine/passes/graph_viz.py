"""`debug_graphviz_path`: plain DOT dumps of the graph at Paddle's three points.

Flag: BuildStrategy.debug_graphviz_path (str, default ""). Three PIPELINE entries share it:
`debug_graphviz_path:original` (before any pass), `:fused` (after the fusion passes) and
`:multi_devices` (after the multi-device passes fuse_all_reduce_ops / fuse_broadcast_ops), writing
`<path>_original_graph`, `<path>_fused_graph` and `<path>_multi_devices_graph` exactly (no extension),
as Paddle's graph_viz_pass does. Only the first replica of a data-parallel run writes.

Algorithm: one DOT statement per fx node in graph order. An op node becomes a box labelled with its Paddle
op type (`mul`, `elementwise_add`, `fused_elemwise_activation`; the backward node lists the `*_grad` ops
it stands for); each variable (feed, parameter, op output) an ellipse labelled with its Paddle name;
edges run variable -> op -> variable. No pydot or graphviz is needed to write it.

Sound: read-only; the graph is unchanged.

Before/After: no graph change; a file such as
    digraph G {
      "v_x" [label="x", shape=ellipse];
      "op_fc_0_tmp_0" [label="mul", shape=box, style=filled, fillcolor="#c8e6ff"];
      "v_x" -> "op_fc_0_tmp_0";
      ...
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register


def _q(s: str) -> str:
    return '"' + str(s).replace('"', '\\"') + '"'


def to_dot(gm: fx.GraphModule, title: str = "G") -> str:
    lines = [f"digraph {_q(title)} {{", "  rankdir=TB;", "  node [fontsize=10];"]
    var_id: dict[fx.Node, str] = {}
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            vid = f"v_{n.name}"
            var_id[n] = vid
            lines.append(f"  {_q(vid)} [label={_q(n.meta.get('var_name', n.name))}, shape=ellipse, "
                         "style=filled, fillcolor=\"#eeeeee\"];")
        elif n.op == "get_attr":
            continue
        elif n.op == "call_function" and n.meta.get("op_type"):
            oid = f"op_{n.name}"
            label = n.meta["op_type"]
            if n.meta.get("grad_of"):
                label += "\\n(" + ", ".join(f"{g}_grad" for g in n.meta["grad_of"]) + ")"
            if n.meta.get("inplace_of"):
                label += f"\\n[inplace {n.meta['inplace_of']}]"
            lines.append(f"  {_q(oid)} [label={_q(label)}, shape=box, style=filled, fillcolor=\"#c8e6ff\"];")
            for a in n.all_input_nodes:
                if a in var_id:
                    lines.append(f"  {_q(var_id[a])} -> {_q(oid)};")
            if "var_name" in n.meta:  # single-output op: the node is also its variable
                vid = f"v_{n.name}"
                var_id[n] = vid
                lines.append(f"  {_q(vid)} [label={_q(n.meta['var_name'])}, shape=ellipse];")
                lines.append(f"  {_q(oid)} -> {_q(vid)};")
            else:
                var_id[n] = oid  # multi-output op: its getitem nodes are the variables
        elif n.op == "call_function" and "var_name" in n.meta:  # one output of a multi-output op
            vid = f"v_{n.name}"
            var_id[n] = vid
            lines.append(f"  {_q(vid)} [label={_q(n.meta['var_name'])}, shape=ellipse];")
            for a in n.all_input_nodes:
                if a in var_id:
                    lines.append(f"  {_q(var_id[a])} -> {_q(vid)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dump(suffix: str):
    def dump(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
        if not ctx.debug_path:
            return PassResult(gm, False)
        path = f"{ctx.debug_path}_{suffix}_graph"
        with open(path, "w", encoding="utf-8") as f:
            f.write(to_dot(gm, f"{suffix}_graph"))
        return PassResult(gm, False, {"path": path})

    dump.__name__ = f"graph_viz_{suffix}"
    return dump


for _suffix in ("original", "fused", "multi_devices"):
    register(f"debug_graphviz_path:{_suffix}")(_dump(_suffix))
