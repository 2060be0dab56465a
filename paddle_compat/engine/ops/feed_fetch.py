"""Paddle's `feed` and `fetch` ops, as the programs that `paddle.static.normalize_program` / `serialize_program` /
`save_inference_model` / `load_inference_model` (and fluid's save / load_inference_model) return list them: block 0
starts with one `feed` op per feed target (input `feed`, the FEED_MINIBATCH variable; output the data variable;
attribute `col`, prepended one by one so the last target comes first) and ends with one `fetch` op per fetch target
(input the target, output `fetch`, the FETCH_LIST variable). engine/static/io.add_feed_fetch_ops records them.

Nothing runs them: the Executor feeds and fetches by name (engine/static/executor.Plan drops them from the graph it
runs, after checking the feed against them as Paddle does). Their bodies are the identity so a graph that keeps
them still runs."""

from __future__ import annotations

from paddle_compat.engine.framework.registry import op


@op("feed", differentiable=False)
def feed(x, col=0):
    """The data variable x, which the Executor fills from the feed's `col`-th entry."""
    return x


@op("fetch", differentiable=False)
def fetch(x, col=0):
    """x, which the Executor returns as the `col`-th fetched value."""
    return x
