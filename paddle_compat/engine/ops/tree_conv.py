"""The tree_conv op (Paddle 1.8's tree-based convolution, TBCNN): for each node of each tree (edges [E, 2] of
1-based node ids, parent first, ended by a (0, 0) row), a patch of the node and its descendants within max_depth,
each weighted by Paddle's eta_l / eta_r / eta_t coefficients, then multiplied by the filter.

Patch of node u (Paddle's construct_patch, kept as it walks): u itself (index 1 of 1, depth 0), then each
unvisited child v of the node on top of a stack (index i + 1 of its parent's child count, depth + 1) while
depth + 1 < max_depth. eta_t = (max_depth - depth) / max_depth; eta_l = (1 - eta_t) * (index - 1) /
(count - 1) (0.5 for an only child); eta_r = (1 - eta_t) * (1 - eta_l) (Paddle's formula, eta_l included).
Out[b, p] = patch_p [F x 3] . Filter [F, 3, out, filters]; rows past the tree's node count are 0 (Paddle leaves
stale values there). The filter's gradient is the exact derivative; the node features' is Paddle's Col2Tree
formula, which pairs the (out, k) layout of its intermediate with the filter's (k, out) layout (see _TreeConv)."""

from __future__ import annotations

import numpy as np
import torch

from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import op


def _patch(root: int, max_depth: int, children: list) -> list:
    """[(node, index, count, depth)] of the patch rooted at `root`, in Paddle's order."""
    stack = [(root, 1, 1, 0)]
    patch = [(root, 1, 1, 0)]
    visited = {root}
    while stack:
        u, _, _, depth = stack[-1]
        end = True
        kids = children[u]
        for i, v in enumerate(kids):
            if v not in visited and depth + 1 < max_depth:
                visited.add(v)
                stack.append((v, i, len(kids), depth + 1))
                patch.append((v, i + 1, len(kids), depth + 1))
                end = False
        if end:
            stack.pop()
    return patch


def tree_coefficients(edges: np.ndarray, n: int, max_depth: int) -> np.ndarray:
    """[n, 3, n]: coef[p, k, v] is node v's weight (eta_l, eta_r, eta_t) in patch p of one tree."""
    count = sum(1 for u, v in edges if u != 0 and v != 0) + 1
    children: list[list[int]] = [[] for _ in range(count + 1)]
    for u, v in edges:
        if u == 0 or v == 0:
            break
        children[int(u)].append(int(v))
    coef = np.zeros((n, 3, n), np.float64)
    for p, root in enumerate(range(1, count + 1)):
        for node, index, kids, depth in _patch(root, max_depth, children):
            eta_t = (max_depth - depth) / max_depth
            eta_l = (1.0 - eta_t) * (0.5 if kids == 1 else (index - 1.0) / (kids - 1.0))
            eta_r = (1.0 - eta_t) * (1.0 - eta_l)
            coef[p, :, node - 1] += (eta_l, eta_r, eta_t)
    return coef


class _TreeConv(torch.autograd.Function):
    @staticmethod
    def forward(ctx, coef, nodes, filt):
        b, n, f = nodes.shape
        patches = torch.einsum("bpkn,bnf->bpfk", coef, nodes).reshape(b, n, f * 3)
        ctx.save_for_backward(coef, patches, filt)
        return patches @ filt.reshape(f * 3, -1)

    @staticmethod
    def backward(ctx, dout):
        coef, patches, filt = ctx.saved_tensors
        f, m = filt.shape[0], dout.shape[-1]
        d_filt = torch.einsum("bpj,bpm->jm", patches, dout).reshape(filt.shape)
        # Paddle's Col2Tree lays the node gradient out as (out, k) and multiplies it by the filter flattened as
        # [F, (k, out)]: kept, so training follows Paddle's numbers
        temp = torch.einsum("bpkv,bpi->bvik", coef, dout).reshape(dout.shape[0], coef.shape[-1], m * 3)
        d_nodes = temp @ filt.reshape(f, 3 * m).t()
        return None, d_nodes, d_filt


@op("tree_conv", infer=lambda nodes_vector, edge_set, filter, max_depth: Spec(
    (nodes_vector.shape[0], nodes_vector.shape[1], filter.shape[2], filter.shape[3]), nodes_vector.dtype))
def tree_conv_op(nodes_vector, edge_set, filter, max_depth):  # noqa: A002
    b, n, _ = nodes_vector.shape
    edges = edge_set.detach().cpu().numpy().reshape(b, -1, 2)
    coef = torch.from_numpy(np.stack([tree_coefficients(e, n, int(max_depth)) for e in edges])).to(
        device=nodes_vector.device, dtype=nodes_vector.dtype)
    return _TreeConv.apply(coef, nodes_vector, filter).reshape(b, n, filter.shape[2], filter.shape[3])
