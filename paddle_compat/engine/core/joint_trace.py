"""State of a joint-graph trace (engine/static/joint.py: a static training step traced with make_fx on fake
tensors), read by the op bodies below the static engine. Both are empty / False outside a trace."""

from __future__ import annotations

# a trace runs: shortcuts that read values (engine/ops/common.values_readable) take their general path, which
# gives the same bits; fake tensors hold no values to read
ACTIVE = [False]
# while a trace runs: the function recording eigen_reduce.settle(out, x, kind) as an opaque call of the graph;
# it answers whether it did (it does for the trace's fake tensors only)
SETTLE: list = []
