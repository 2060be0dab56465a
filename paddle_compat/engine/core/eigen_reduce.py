"""Paddle's CPU full reductions (sum and mean to one value), in Paddle's own order of additions.

Paddle reduces a float32 / float64 CPU tensor to one value with Eigen's InnerMostDimReducer on the default device,
vectorized with AVX packets of 32 bytes (8 floats, 4 doubles), which Paddle's Linux wheels are built with:

- mean (MeanReducer, stateful, so never a tree; 1.8.5 and 2.6.2 alike): one packet accumulator takes the packets
  in order, the scalar tail is added in order to a scalar accumulator, and the result is
  (tail + predux(packet)) / n, where predux halves the packet (lane i + lane i + 8/2, ...) down to one lane.
- sum in 2.x (SumReducer, Eigen 3.4's tree reduction): a range of more than 1024 packets is split at the packet
  boundary past its middle and the two halves' sums are added; a leaf range feeds its packet pairs to two
  accumulators (even and odd packets), a last odd packet to the first, adds the second to the first, and ends
  as mean does without the division. (1.8.5's sum is mean's scheme without the division; `fluid.layers.reduce_sum`
  shares the 2.x op, so it follows this order.)

torch sums with its own cascade, so the last bits of a float32 loss differ from Paddle's, and a finite-difference
check of Paddle's tests (PaddleTest nn/test_SimpleRNN) sees that. This module gives Paddle's bits: a packet
accumulator is a sum of rows added one after the other in the tensor's dtype, which `torch.embedding_bag(mode=
'sum')` does (one bag per accumulator, its rows in order); the few dozen packet and leaf values left are combined
in numpy scalars of the same dtype. The results were checked bit for bit against 1.8.5 and 2.6.2
(tests/goldens/eigen_reduce). `settle` takes a plain tensor of at most one leaf (a loss, the common call) through
`_leaf_sum`: the same additions in a few numpy calls (bench/bench_eigen_reduce.py times it).
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np
import torch

from paddle_compat.engine.core.dist_tensor import PLAIN as _PLAIN, is_dtensor
from paddle_compat.engine.core.joint_trace import SETTLE as _TRACE_SETTLE

_LEAF_PACKETS = 1024  # Eigen's kLeafSize
_OFFSETS0 = torch.zeros(1, dtype=torch.long)


def _leaves(first: int, n: int, lanes: int) -> tuple:
    """Eigen's tree over [first, first + n): a leaf (first, n) or a node (left, right) of sub-trees."""
    if n <= lanes * _LEAF_PACKETS:
        return (first, n)
    split = lanes * -(-(first + -(-n // 2)) // lanes)
    left = min(split - first, n)
    return (_leaves(first, left, lanes), _leaves(split, n - left, lanes))


def _levels(tree: tuple, leaves: int) -> tuple:
    """Eigen's combine steps over the leaf sums, bottom-up: node = (0 + left) + right. Leaves are numbered 0..L-1 in
    order, inner nodes after them; returns (root, node count, [(parents, lefts, rights) per height])."""
    by_height: dict = {}
    count, leaf = [leaves], [0]

    def walk(t):
        if not isinstance(t[0], tuple):
            leaf[0] += 1
            return leaf[0] - 1, 0
        (left, hl), (right, hr) = walk(t[0]), walk(t[1])
        count[0] += 1
        by_height.setdefault(max(hl, hr) + 1, []).append((count[0] - 1, left, right))
        return count[0] - 1, max(hl, hr) + 1

    root, _ = walk(tree)
    steps = [tuple(np.array(col) for col in zip(*by_height[h])) for h in sorted(by_height)]
    return root, count[0], steps


@functools.lru_cache(maxsize=64)
def _plan(n: int, lanes: int) -> tuple:
    """A tree of more than one leaf over n elements: the bags of one embedding_bag call over the packets (rows of
    `lanes`), each leaf's two accumulators with their packets in order, and the combine steps. Returns (indices,
    offsets, levels)."""
    bags: list = []

    def walk(t):
        if isinstance(t[0], tuple):
            walk(t[0])
            walk(t[1])
            return
        first, count = t[0] // lanes, t[1] // lanes
        pairs = count // 2 * 2  # even packets (and a last odd one) to the first accumulator, odd to the second
        bags.append(list(range(first, first + pairs, 2)) + ([first + pairs] if count > pairs else []))
        bags.append(list(range(first + 1, first + pairs, 2)))

    shape = _leaves(0, n, lanes)
    walk(shape)
    offsets = np.cumsum([0] + [len(b) for b in bags[:-1]])
    return (torch.tensor([i for b in bags for i in b], dtype=torch.long), torch.from_numpy(offsets),
            _levels(shape, len(bags) // 2))


def _predux(p: np.ndarray):
    """The lanes (last axis) of each packet added as Eigen's predux does: the upper half added to the lower, down to
    one lane; one value per packet (a numpy scalar for a single packet)."""
    while p.shape[-1] > 2:
        half = p.shape[-1] // 2
        p = p[..., :half] + p[..., half:]
    return p[..., 0] + p[..., 1]


_PACKET_BYTES = 32  # one AVX packet: 8 floats, 4 doubles
_DTYPES = (torch.float32, torch.float64)


def applies(x: torch.Tensor) -> bool:
    """Whether Paddle's order is reproduced for x: a plain (not a subclass such as DTensor's) CPU float32 / float64
    tensor outside a torch.compile trace."""
    return (x.dtype in _DTYPES and type(x) in _PLAIN and x.is_cpu and x.numel() > 0
            and not torch.compiler.is_compiling())


def settle(out: torch.Tensor, x: torch.Tensor, kind: str) -> torch.Tensor:
    """out, torch's full sum (`kind` "sum") or mean ("mean") of x as one element, holding the value Paddle's CPU
    kernel gives instead (when `applies`). out stays in the autograd graph: the gradient of a sum or mean does not
    depend on the value. Pass the reduction's own result, not a view of it (reshape after): writing into a view
    makes autograd rebuild the view's grad_fn."""
    if type(x) is torch.Tensor and type(out) is torch.Tensor:  # the common call: a plain tensor, in few calls
        n = x.numel()
        if (x.dtype is out.dtype and (x.dtype is torch.float32 or x.dtype is torch.float64) and x.is_cpu and n
                and not torch.compiler.is_compiling()):
            if x.is_contiguous() and not x.is_neg():  # x's memory as a numpy array through ctypes: a third of
                # detach().numpy()'s cost (a negative-bit view, e.g. z.conj().imag, holds its values negated)
                c = _C_TYPE[x.element_size()]
                a = np.frombuffer((c * n).from_address(x.data_ptr()), _NP_TYPE[c])
            else:
                a = (x.detach() if x.requires_grad else x).resolve_neg().numpy().reshape(-1)
            total = (_leaf_sum if n <= _LEAF_ELEMS[a.itemsize] else _sum_array)(a, kind == "sum")
            if kind != "sum":
                total = total / a.dtype.type(n)
            if out.is_cpu and out.is_contiguous():  # the fresh one-element result of torch.sum / torch.mean
                # NOTE: a store into out's memory: fill_ through a detached alias costs 3 torch calls (~3 us, a
                # third of settle's cost on a loss); out's version is not bumped, and nothing has read it yet
                # (tests/ops/test_eigen_reduce.py::test_gradient_is_unchanged)
                _C_TYPE[a.itemsize].from_address(out.data_ptr()).value = float(total)
            else:
                out.detach().fill_(float(total))
        return out
    if _TRACE_SETTLE and _TRACE_SETTLE[0](out, x, kind):  # a joint-graph trace's fake tensors: recorded as an
        return out  # opaque call of the graph (engine/static/joint.py)
    xl, ol = _whole(x), _whole(out)
    if xl is not None and ol is not None and out.dtype == x.dtype and applies(xl):
        total = full_sum(xl, tree=kind == "sum")
        ol.fill_(float(total if kind == "sum" else total / total.dtype.type(x.numel())))
    return out


_ONE_PASS = 1 << 16  # from this many elements on, torch's own reduction costs about what Paddle's order does


def _paddle_value(x: torch.Tensor, kind: str) -> torch.Tensor:
    """x's full sum / mean as Paddle's CPU kernel gives it, a new 0-D tensor (x satisfies `applies`)."""
    total = full_sum(x.resolve_neg(), tree=kind == "sum")
    if kind != "sum":
        total = total / total.dtype.type(x.numel())
    return torch.tensor(float(total), dtype=x.dtype)


class _FullReduce(torch.autograd.Function):
    """`_paddle_value` in the autograd graph. Its gradient is torch's SumBackward / MeanBackward: g expanded to x's
    shape (and divided by the element count), the same ops and bits."""

    @staticmethod
    def forward(ctx, x, kind):
        ctx.shape, ctx.n, ctx.kind = x.shape, x.numel(), kind
        return _paddle_value(x, kind)

    @staticmethod
    def backward(ctx, g):
        gx = g.expand(ctx.shape)
        return (gx if ctx.kind == "sum" else gx / ctx.n), None


def reduce_full(x: torch.Tensor, kind: str) -> torch.Tensor:
    """torch.sum(x) (`kind` "sum") or torch.mean(x) ("mean") as a 0-D tensor, holding Paddle's CPU value where
    `applies` (see `settle`). A large plain tensor is read once: torch's own reduction, whose value settle would
    overwrite, is skipped."""
    if type(x) is torch.Tensor and x.numel() >= _ONE_PASS and applies(x):
        if x.requires_grad and torch.is_grad_enabled():
            return _FullReduce.apply(x, kind)
        return _paddle_value(x, kind)
    return settle(torch.sum(x) if kind == "sum" else torch.mean(x), x, kind)


def _whole(t: torch.Tensor):
    """A plain tensor sharing t's storage that holds t's whole value, without autograd: t's own, or a DTensor's local
    tensor on a one-rank mesh or when replicated (paddle.distributed.shard_tensor); None for a shard of many."""
    if is_dtensor(t):
        if t.device_mesh.size() != 1 and not all(p.is_replicate() for p in t.placements):
            return None
        t = t.detach().to_local()
    return t.detach()


def full_sum(x: torch.Tensor, tree: bool = True):
    """The sum of all of x's elements as Paddle's CPU kernel adds them, a numpy scalar of x's dtype (see the module
    docstring; `tree` False is mean's single accumulator). x must satisfy `applies`."""
    return _sum_array(x.detach().numpy().reshape(-1), tree)  # numpy's reshaping and slicing cost a fraction of torch's


def _sum_array(a: np.ndarray, tree: bool):
    """`full_sum` of x's values as a 1-D numpy array."""
    n = a.size
    lanes = _PACKET_BYTES // a.itemsize
    body = n - n % lanes
    zero = tail = a.dtype.type(0)
    for i in range(body, n):  # at most lanes - 1 values, added in order to a scalar accumulator
        tail = tail + a[i]
    if not body:
        return tail
    if not tree:
        return tail + _predux(_in_order(a[:body].reshape(-1, lanes)))
    if n <= lanes * _LEAF_PACKETS:  # one leaf: [even accumulator | odd accumulator] over rows of two packets
        pairs = body // (2 * lanes) * 2 * lanes
        acc = _in_order(a[:pairs].reshape(-1, 2 * lanes)) if pairs else np.zeros(2 * lanes, a.dtype)
        even = acc[:lanes] if pairs == body else acc[:lanes] + a[pairs:body]
        return tail + _predux(even + acc[lanes:])
    packets = a[:body].reshape(-1, lanes)
    indices, offsets, levels = _plan(n, lanes)
    accs = torch.embedding_bag(torch.from_numpy(packets), indices, offsets, False, 0)[0].numpy()
    leaf = _predux(accs[0::2] + accs[1::2])  # a leaf adds its second accumulator to the first
    root, count, steps = levels
    vals = np.empty(count, a.dtype)
    vals[:len(leaf)] = leaf + zero  # finalizeBoth: the scalar accumulator (0, the tail in the last leaf) + predux
    vals[len(leaf) - 1] = tail + leaf[-1]
    for parents, lefts, rights in steps:
        vals[parents] = (vals[lefts] + zero) + vals[rights]
    return vals[root]


_C_TYPE = {4: ctypes.c_float, 8: ctypes.c_double}  # itemsize -> the C type of a float32 / float64 element
_NP_TYPE = {ctypes.c_float: np.float32, ctypes.c_double: np.float64}
_LEAF_ELEMS = {4: 8 * _LEAF_PACKETS, 8: 4 * _LEAF_PACKETS}  # itemsize -> the most elements of a one-leaf tree


def _predux8(p: np.ndarray):
    """`_predux` of one 8-lane packet in numpy scalars of its dtype (an eighth of the array calls' cost)."""
    a0, a1, a2, a3, a4, a5, a6, a7 = p
    return ((a0 + a4) + (a2 + a6)) + ((a1 + a5) + (a3 + a7))


def _leaf_sum(a: np.ndarray, tree: bool):
    """`full_sum` of a 1-D array of at most one leaf (`_LEAF_ELEMS`), the common size, in as few numpy calls as
    that order allows: the same additions in the same order (tests/ops/test_eigen_reduce.py compares the two)."""
    n = a.size
    lanes = _PACKET_BYTES // a.itemsize
    body = n - n % lanes
    tail = a.dtype.type(0)
    if body != n:
        for v in a[body:]:  # at most lanes - 1 values, added in order to a scalar accumulator
            tail = tail + v
        if not body:
            return tail
    if not tree:
        acc = a[:lanes] if body == lanes else _in_order(a[:body].reshape(-1, lanes))  # rows added in order
    else:
        pairs = body // (2 * lanes) * 2 * lanes
        if pairs:
            acc2 = _in_order(a[:pairs].reshape(-1, 2 * lanes)).reshape(2, lanes)  # [even acc, odd acc]
            if pairs != body:
                acc2[0] += a[pairs:body]  # a last odd packet goes to the first
            acc = np.add.reduce(acc2, axis=0)  # the second accumulator added to the first
        else:
            acc = a[:body]
    return tail + (_predux8(acc) if lanes == 8 else _predux(acc))


_NUMPY_ROWS = 256  # up to here numpy's reduce is the cheaper call; beyond, its per-row loop is the slower
_ARANGE = [torch.arange(1024)]


def _in_order(rows: np.ndarray) -> np.ndarray:
    """[width]: the rows (C-contiguous) added one after the other in their dtype. Both numpy's reduce over the
    outer axis of a C-contiguous array, embedding_bag's sum of one bag and torch's double cumsum add row by row."""
    count = rows.shape[0]
    if count <= _NUMPY_ROWS:
        return np.add.reduce(rows, axis=0)
    if rows.dtype == np.float64:  # torch's CPU cumsum adds down a column in order, in double; embedding_bag has no
        return torch.cumsum(torch.from_numpy(rows), 0)[-1].numpy()  # vectorized double kernel (9x slower at 1M)
    if len(_ARANGE[0]) < count:
        _ARANGE[0] = torch.arange(max(count, 2 * len(_ARANGE[0])))
    return torch.embedding_bag(torch.from_numpy(rows), _ARANGE[0][:count], _OFFSETS0, False, 0)[0][0].numpy()
