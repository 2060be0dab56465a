"""paddle.summary and paddle.flops: per-leaf-layer tables built from forward post hooks, with Paddle's
layout (column widths grow to fit; `Conv2D-1` is the class name and the layer's unique-name index + 1)."""

from __future__ import annotations

import collections
import numbers
from typing import Any

import numpy as np

from paddle_compat.engine.framework.registry import export


def _is_shape(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(isinstance(x, numbers.Number) or x is None for x in v)


def _check_shape(shape: Any) -> tuple:
    unknown, out = 0, []
    for d in shape:
        if d is None or d == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            d = 1
        elif d <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {d}")
        out.append(int(d))
    return tuple(out)


def _normalize_sizes(input_size: Any) -> Any:
    from paddle_compat.engine.static.io import InputSpec

    if isinstance(input_size, InputSpec):
        return _check_shape(input_size.shape)
    if _is_shape(input_size):
        return _check_shape(input_size)
    return [_normalize_sizes(i) for i in input_size]


def _shapes(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_shapes(y) for y in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _build_inputs(sizes: Any, dtypes: Any) -> list:
    from paddle_compat.engine.framework.lookup import P

    if _is_shape(sizes):
        return [P("cast")(P("rand")(list(sizes)), dtypes if isinstance(dtypes, str) else (dtypes or ["float32"])[0])]
    if not isinstance(dtypes, (list, tuple)):
        dtypes = [dtypes or "float32"] * len(sizes)
    return [_build_inputs(s, d)[0] if _is_shape(s) else _build_inputs(s, d) for s, d in zip(sizes, dtypes)]


def summary_string(net: Any, input_size: Any = None, dtypes: Any = None, input: Any = None) -> tuple:  # noqa: A002
    from paddle_compat.paddle2.nn.container import LayerList, Sequential

    rows: collections.OrderedDict = collections.OrderedDict()
    hooks = []
    depth = len(net.sublayers())

    def hook(layer: Any, inp: Any, out: Any) -> None:
        cls = type(layer).__name__
        try:
            idx = int(layer._full_name.split("_")[-1])
        except ValueError:
            idx = len(rows)
        key = f"{cls}-{idx + 1}"
        n_params = trainable = 0
        is_trainable = None
        for name, p in layer._parameters.items():
            if p is None:
                continue
            n = int(np.prod(p.shape))
            n_params += n
            if getattr(p, "trainable", True) and not p.stop_gradient:
                trainable += n
                is_trainable = True
            elif is_trainable is None:
                is_trainable = False
        rows[key] = {"input_shape": _shapes(list(inp)), "output_shape": _shapes(out), "nb_params": n_params,
                     "trainable_params": trainable, "trainable": bool(is_trainable) if is_trainable is not None
                     else None}

    for layer in net.sublayers(include_self=True):
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not net or depth < 1):
            hooks.append(layer.register_forward_post_hook(hook))
    try:
        if input is not None:
            net(input)
        else:
            net(*_build_inputs(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()

    w = {"layer": 15, "in": 20, "out": 20, "params": 15, "table": 75}
    for k, r in rows.items():
        w["out"] = max(w["out"], len(str(r["output_shape"])))
        w["in"] = max(w["in"], len(str(r["input_shape"])))
        w["layer"] = max(w["layer"], len(k))
        w["params"] = max(w["params"], len(str(r["nb_params"])))
    w["table"] = max(w["table"], w["layer"] + w["in"] + w["out"] + w["params"] + 5)
    line = "{:^{}} {:^{}} {:^{}} {:^{}}"
    s = "-" * w["table"] + "\n"
    s += line.format("Layer (type)", w["layer"], "Input Shape", w["in"], "Output Shape", w["out"], "Param #",
                     w["params"]) + "\n"
    s += "=" * w["table"] + "\n"
    total = trainable = 0
    total_output = 0.0
    for k, r in rows.items():
        s += line.format(k, w["layer"], str(r["input_shape"]), w["in"], str(r["output_shape"]), w["out"],
                         "{:,}".format(r["nb_params"]), w["params"]) + "\n"
        total += r["nb_params"]
        outs = r["output_shape"]
        if outs and isinstance(outs[0], list):
            total_output += sum(float(np.prod(o)) for o in outs)
        else:
            total_output += float(np.prod(outs)) if outs else 0.0
        if r["trainable"]:
            trainable += r["trainable_params"]

    def in_size(sz: Any) -> float:
        return abs(float(np.prod(sz)) * 4.0 / 1024 ** 2) if _is_shape(sz) else sum(in_size(i) for i in sz)

    total_in = in_size(input_size) if input_size is not None else 0.0
    total_out = abs(2.0 * total_output * 4.0 / 1024 ** 2)
    total_p = abs(total * 4.0 / 1024 ** 2)
    s += "=" * w["table"] + "\n"
    s += f"Total params: {total:,}\n"
    s += f"Trainable params: {trainable:,}\n"
    s += f"Non-trainable params: {total - trainable:,}\n"
    s += "-" * w["table"] + "\n"
    s += "Input size (MB): %0.2f\n" % total_in
    s += "Forward/backward pass size (MB): %0.2f\n" % total_out
    s += "Params size (MB): %0.2f\n" % total_p
    s += "Estimated Total Size (MB): %0.2f\n" % (total_p + total_out + total_in)
    s += "-" * w["table"] + "\n"
    return s, {"total_params": total, "trainable_params": trainable}


def summary(net: Any, input_size: Any = None, dtypes: Any = None, input: Any = None) -> dict:  # noqa: A002
    """paddle.summary(net, input_size=None, dtypes=None, input=None): prints the table, returns the totals."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    sizes = _normalize_sizes(input_size) if input_size is not None else None
    was_training = net.training
    net.eval()
    try:
        text, info = summary_string(net, sizes, dtypes, input)
    finally:
        if was_training:
            net.train()
    print(text)
    return info


# --- flops -------------------------------------------------------------------------------------------------------
def _numel(t: Any) -> int:
    return int(np.prod(t.shape))


def _conv_ops(m: Any, x: Any, y: Any) -> int:
    k = int(np.prod(m.weight.shape[2:]))
    return abs(int(_numel(y) * (x.shape[1] / m._groups * k + (1 if m.bias is not None else 0))))


def _bn_ops(m: Any, x: Any, y: Any) -> int:
    return 2 * _numel(x)


def _elem_ops(m: Any, x: Any, y: Any) -> int:
    return _numel(x)


def _linear_ops(m: Any, x: Any, y: Any) -> int:
    return abs(int(m.weight.shape[0] * _numel(y)))


def _avgpool_ops(m: Any, x: Any, y: Any) -> int:
    return _numel(y)


def _adaptive_avgpool_ops(m: Any, x: Any, y: Any) -> int:
    kernel = np.array(x.shape[2:]) // np.array(y.shape[2:])
    return abs(int((int(np.prod(kernel)) + 1) * _numel(y)))


def _zero_ops(m: Any, x: Any, y: Any) -> int:
    return 0


def _flops_table() -> dict:
    from paddle_compat.paddle2.nn import common, conv, norm

    t = {getattr(conv, n): _conv_ops for n in ("Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
                                               "Conv3DTranspose")}
    t.update({norm.BatchNorm2D: _bn_ops, norm.BatchNorm: _bn_ops, common.ReLU: _zero_ops, common.ReLU6: _zero_ops,
              common.LeakyReLU: _elem_ops, common.Linear: _linear_ops, common.Dropout: _zero_ops,
              common.AvgPool1D: _avgpool_ops, common.AvgPool2D: _avgpool_ops, common.AvgPool3D: _avgpool_ops,
              common.AdaptiveAvgPool1D: _adaptive_avgpool_ops, common.AdaptiveAvgPool2D: _adaptive_avgpool_ops,
              common.AdaptiveAvgPool3D: _adaptive_avgpool_ops})
    return t


def _table(heads: list, rows: list) -> str:
    widths = [max([len(str(h))] + [len(str(r[i])) for r in rows]) for i, h in enumerate(heads)]
    shelf = "".join("+" + "-" * (w + 2) for w in widths) + "+"

    def row(r: list) -> str:
        return "".join("|" + str(v).center(w + 2) for v, w in zip(r, widths)) + "|"

    return "\n".join([shelf, row(heads), shelf] + [row(r) for r in rows] + [shelf])


def flops(net: Any, input_size: Any, custom_ops: dict | None = None, print_detail: bool = False) -> int:
    """paddle.flops(net, input_size, custom_ops=None, print_detail=False) for dygraph Layers: counts each leaf
    layer with Paddle's per-type rules (unknown types count 0, with Paddle's notice)."""
    from paddle_compat.engine.framework.lookup import P
    from paddle_compat.paddle2.nn.layer import Layer

    if not isinstance(net, Layer):
        raise TypeError("paddle.flops: your model must be an instance of paddle.nn.Layer (static Programs are not "
                        "supported)")
    custom_ops = custom_ops or {}
    table = _flops_table()
    seen: set = set()
    records: dict = {}
    handles = []
    for m in net.sublayers(include_self=True):
        if list(m.children()):
            continue
        tp = type(m)
        fn = custom_ops.get(tp) or table.get(tp)
        if tp not in seen:
            if tp in custom_ops:
                print(f"Customize Function has been applied to {tp}")
            elif tp in table:
                print(f"{tp}'s flops has been counted")
            else:
                print(f"Cannot find suitable count function for {tp}. Treat it as zero FLOPs.")
            seen.add(tp)

        def hook(layer: Any, x: Any, y: Any, fn: Any = fn) -> None:
            ops = 0
            if fn is not None:
                if fn in custom_ops.values():
                    layer.total_ops = 0
                    fn(layer, x, y)
                    ops = int(getattr(layer, "total_ops", 0))
                else:
                    ops = fn(layer, x[0], y)
            n_params = sum(_numel(p) for p in layer.parameters())
            out0 = y[0] if isinstance(y, (list, tuple)) else y
            records[id(layer)] = (list(x[0].shape), list(out0.shape), n_params, int(ops))

        handles.append(m.register_forward_post_hook(hook))
    was_training = net.training
    net.eval()
    try:
        from paddle_compat.api import no_grad

        with no_grad():
            net(P("rand")(list(input_size)) if _is_shape(input_size) else input_size)
    finally:
        for h in handles:
            h.remove()
        if was_training:
            net.train()
    total_ops = sum(r[3] for r in records.values())
    total_params = sum(r[2] for r in records.values())
    if print_detail:
        rows = [[m.full_name()] + [str(v) if i < 2 else v for i, v in enumerate(records[id(m)])]
                for _, m in net.named_sublayers() if id(m) in records]
        print(_table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"], rows))
    print(f"Total Flops: {int(total_ops)}     Total Params: {int(total_params)}")
    return int(total_ops)


export(summary, "paddle.summary", "paddle.hapi.summary")
export(flops, "paddle.flops", "paddle.hapi.flops")
