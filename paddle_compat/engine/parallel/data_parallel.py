"""Data parallelism in one process: `CompiledProgram.with_data_parallel` and `ParallelExecutor`, as Paddle 1.8.5.

Design (one run = three steps; shared/reference/strategy_semantics.md 2.4-2.9 for Paddle's rules):
1. **Replicas.** The program is compiled once into the Executor's GraphModule (feeds + Scope persistables in,
   fetches + write-backs out; BuildStrategy passes applied; the `loss@GRAD` seed rescaled for
   GradientScaleStrategy), then cut at the gradient reduction (`stages.split`): `pre` = forward + backward,
   `post` = whatever reads a reduced gradient plus the optimizer. Both GraphModules are plain code and are
   shared by all places; what differs per place is its feed chunk, its device and its **local scope**.
   Place 0's local scope is the user's scope (Paddle: `local_scopes()[0] is scope`); the others are kid
   scopes holding their own copies of the persistables, made on first use (Paddle's BCastParamsToDevices);
   in Reduce mode on CPU they *share* the persistables instead, as Paddle does (build_strategy.h).
2. **Run.** `pre` runs on every place (feed split by `feed.split_feed`); CPU places run concurrently in a
   thread pool of `min(ExecutionStrategy.num_threads, places)` threads (num_threads 0 becomes Paddle's
   2 x places on CPU / 4 x places on CUDA and is written back into the user's object); CUDA places run on
   their own devices (torch releases the GIL in kernels). Then each reduced `param@GRAD` is summed over the
   places in place order (`reduce.sum_gradients`; `fuse_all_reduce_ops` buckets), and over processes through
   `collective.all_reduce_sum_` (identity without torch.distributed: the seam for multi-process), and every
   place gets the sum. Then `post` runs on every place:
   - **AllReduce**: every place applies the update to its own copy, so parameters stay identical. Where the
     places share one device (CPU places) and `post` reads nothing place-specific - only reduced gradients
     and persistables that `pre` does not write - its results are the same on every place by construction:
     it runs once, on place 0 (`uniform_post`): the persistables it reads or updates are then one tensor
     shared by the places' scopes (the optimizer's parameters and moments live once in memory), the other
     places take place 0's computed results, and each scope holds the values Paddle's per-place updates
     produce. A later compiled version whose `post` is not uniform gives the places their copies back.
   - **Reduce**: each parameter has an owner place (`reduce.reduce_owners`: greedy by element count in
     backward order); only the owner runs its optimizer ops (a per-place copy of `post` with the other
     updates bypassed), then the owner's value is broadcast (a no-op where the scopes share it, i.e. CPU).
   Splitting at the reduction, rather than synchronising threads inside one graph, keeps the numbers
   bit-exact (the same ops in the same order as one Executor run, plus one ordered sum), works with any
   `num_threads` (1 runs the places one after the other), and needs no barrier - except `sync_batch_norm`,
   whose forward and backward exchange statistics between places (`sync_batch_norm.py`); then all places
   run concurrently.
3. **Fetch.** Values are concatenated on dim 0 over the places that ran (`feed.merge_fetch`); with
   `return_merged=False` one list per fetch with one value per place.

GradientScaleStrategy (only when `loss_name` is given, as in Paddle - without it there is no scaling and no
reduction, each place trains on its own): CoeffNumDevice seeds loss@GRAD with 1/nranks, nranks =
num_trainers x places; One with 1; Customized uses the fed `loss@GRAD` (split one element per place like any
feed) and fails like Paddle when it is not fed. Multi-process: the runner is called with
`num_trainers=WORLD_SIZE`; nothing else changes here.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import torch
import torch.fx as fx

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.place import CUDAPlace, Place
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.framework import fx_interp, fx_sources, nan_inf
from paddle_compat.engine.framework.lod import LoDTensor
from paddle_compat.engine.framework.program import (ROLE_BACKWARD, ROLE_FORWARD, ROLE_LOSS_GRAD, ROLE_OPTIMIZE)
from paddle_compat.engine.framework.scope import Scope
from paddle_compat.engine.ops.sequence import expand_lod_feed
from paddle_compat.engine.parallel import feed as _feed
from paddle_compat.engine.parallel import reduce as _reduce
from paddle_compat.engine.parallel import stages as _stages
from paddle_compat.engine.parallel.places import device_kind, resolve_places
from paddle_compat.engine.static.executor import Plan, _update_lr, fetch_names, gather_inputs, op_run_error
from paddle_compat.engine.static.strategy import ExecutionStrategy, GradientScaleStrategy, ReduceStrategy

LR_DECAY_COUNTER = "@LR_DECAY_COUNTER@"


def scale_loss_grad(seed: torch.Tensor, coeff: float) -> torch.Tensor:
    """GradientScaleStrategy's seed: Paddle's ScaleLossGradOpHandle writes `coeff` (1/nranks or 1)."""
    return seed * coeff if coeff != 1.0 else seed


class _Compiled:
    """What one (program version, feed names, fetch names) compiles to."""

    def __init__(self, plan: Plan, stages: _stages.Stages, owners: dict[str, int], posts: list[fx.GraphModule],
                 inference_only: bool, nplaces: int = 1) -> None:
        self.plan = plan
        self.stages = stages
        self.owners = owners
        self.posts = posts
        self.inference_only = inference_only
        # interpreted for their first runs, code generated if they keep running (engine/framework/fx_interp.py); `pre`
        # runs once per place
        self.pre = fx_interp.warm_forward(stages.pre, self, fx_interp.INTERPRETED_CALLS * nplaces, attr="pre")
        warm: dict[int, Any] = {}  # places sharing one post graph share its function
        for p in posts:
            if id(p) not in warm:
                warm[id(p)] = fx_interp.warm_forward(p, self, fx_interp.INTERPRETED_CALLS * nplaces)
        self.post_fns = [warm[id(p)] for p in posts]
        self.grad = plan.grad
        self.scope_inputs = [name for kind, name, _, _ in plan.inputs if kind == "scope"]
        # the arguments `pre` reads: under uniform_post the other places gather only these (and the ones their
        # outputs pass through), not the accumulators that only `post` reads
        phs = [n for n in stages.pre.graph.nodes if n.op == "placeholder"]
        self.pre_reads = frozenset(k for k, ph in enumerate(phs) if ph.users)
        self.buckets: Any = None  # fuse_all_reduce_ops: groups of reduced-gradient indices
        self.localized: set[int] = set()
        # uniform_post: the source of each output and the persistables the places share, once the first run
        # has shown that `pre` does not write any of them in place (a place's batch-norm statistics)
        self.uniform: list[tuple[str, int]] | None = None
        self.shared: frozenset[str] = frozenset()
        self.candidate: tuple[list[tuple[str, int]], frozenset[str]] | None = None
        self.origin: tuple = ()  # (program version, feed names): plans of one origin run the same `pre` ops


class DataParallelRunner:
    """Paddle's core.ParallelExecutor for one CompiledProgram (`compiled._executor`)."""

    def __init__(self, compiled: Any, exe: Any, scope: Scope, num_trainers: int | None = None) -> None:
        share = compiled._share_vars_from
        src = None
        if share is not None:
            if not share._is_data_parallel:
                raise ValueError("share_vars_from is not data parallel. Cannot share vars from it.")
            src = getattr(share, "_executor", None)
            if src is None:
                raise ValueError("The shared Program is not compiled and executed, so there is no variables to share.")
        self.program = compiled._program
        self.exe_place: Place = exe.place
        self.places = resolve_places(compiled._places, exe.place)
        compiled._places = self.places
        use_cuda = isinstance(self.places[0], CUDAPlace)
        es = compiled._exec_strategy if compiled._exec_strategy is not None else ExecutionStrategy()
        compiled._exec_strategy = es
        es.use_cuda = use_cuda
        if es.num_threads == 0:  # Paddle writes its default back into the user's object
            es.num_threads = es.resolved_threads(len(self.places), use_cuda)
        self.exec_strategy = es
        bs = compiled._build_strategy
        self.num_trainers = int(num_trainers if num_trainers is not None else bs.num_trainers) or 1
        self.nranks = self.num_trainers * len(self.places)
        self.strategy = bs.resolved(self.nranks)
        self.loss_name = compiled._loss_name
        self.scope = scope
        if src is not None:
            if len(src.places) != len(self.places):
                raise ValueError(
                    f"share_vars_from: the shared program runs on {len(src.places)} places but this one on "
                    f"{len(self.places)}; use the same places for both"
                )
            self.local_scopes_ = src.local_scopes_
            self.share_persistables = src.share_persistables
        else:
            self.local_scopes_ = [scope] + [scope.new_scope() for _ in self.places[1:]]
            # Paddle's CPU Reduce keeps one copy of the persistables that every place reads
            self.share_persistables = (self.strategy.reduce_strategy == ReduceStrategy.Reduce
                                       and all(p.torch_device().type == "cpu" for p in self.places))
        # uniform_post's sharing needs the local scopes to be this runner's own, holding their own copies
        self._can_share = src is None and not self.share_persistables
        self._shared: frozenset[str] = frozenset()
        self._shared_from: tuple = ()  # (program version, feed names) of the checked plan that made `_shared`
        self._cache: dict[Any, _Compiled] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._all_cpu = all(p.torch_device().type == "cpu" for p in self.places)
        self._drop_counter = 0
        self._need_create = True
        self._partial: tuple[int, bool] | None = None
        self.compiled = compiled
        self.exe = exe

    # --- Paddle's core.ParallelExecutor surface ---------------------------------------------------------
    def local_scopes(self) -> list[Scope]:
        return list(self.local_scopes_)

    def device_count(self) -> int:
        return len(self.places)

    def drop_local_exe_scopes(self) -> None:
        """Drop the per-place temporaries now. Ours live only during a run (the GraphModules free them), so
        this only resets Paddle's num_iteration_per_drop_scope counter; the local scopes themselves (kids of
        the user's scope, holding the places' persistables) stay, as in Paddle."""
        self._drop_counter = 0
        self._need_create = True

    def _need_create_local_exe_scopes(self) -> bool:
        return self._need_create

    # --- compile ----------------------------------------------------------------------------------------
    def _transform(self, feeds: list[str], fetches: list[str]) -> Callable[[fx.GraphModule], fx.GraphModule]:
        program = self.program
        strategy = self.strategy
        loss_name = self.loss_name
        gs = strategy.gradient_scale_strategy
        coeff = 1.0 / self.nranks if gs == GradientScaleStrategy.CoeffNumDevice else 1.0
        sync_bn = bool(strategy.sync_batch_norm) and len(self.places) > 1
        passes = _pass_transform(self.compiled, self.exe, feeds, fetches, strategy, len(self.places),
                                 self.places[0].kind, program)

        def transform(gm: fx.GraphModule) -> fx.GraphModule:
            gm = passes(gm)
            changed = False
            if loss_name and gs != GradientScaleStrategy.Customized and coeff != 1.0:
                changed |= _rescale_seed(gm, loss_name, coeff)
            if sync_bn:
                from paddle_compat.engine.parallel.sync_batch_norm import rewrite_batch_norm

                changed |= rewrite_batch_norm(gm)
            if changed:
                gm.graph.lint()
                gm.recompile()
            return gm

        return transform

    def _compile(self, feeds: list[str], fetches: list[str]) -> _Compiled:
        key = (self.program._version, tuple(feeds), tuple(fetches), nan_inf.ENABLED[0])
        c = self._cache.get(key)
        if c is not None:
            return c
        start = fx_sources.mark()
        plan = Plan(self.program, feeds, fetches, self.places[0], self._transform(feeds, fetches),
                    generate_code=False)  # the stages below run, not plan.gm: code for them only
        gm = plan.gm
        inference_only = not any(n.op == "call_function" and n.meta.get("role") in
                                 (ROLE_BACKWARD, ROLE_LOSS_GRAD, ROLE_OPTIMIZE) for n in gm.graph.nodes)
        block = self.program.global_block()
        params = [p for p in block.all_parameters() if p.trainable]
        grad_names: set[str] = set()
        if self.loss_name and self.nranks > 1:
            grad_names = {f"{p.name}@GRAD" for p in params}
        st = _stages.split(gm, grad_names)
        owners: dict[str, int] = {}
        posts: list[fx.GraphModule] = []
        if st.post is not None:
            if self.strategy.reduce_strategy == ReduceStrategy.Reduce and len(self.places) > 1:
                reduced = {name[: -len("@GRAD")] for _, name in st.reduced}
                order = _backward_order(gm, reduced)
                owners = _reduce.reduce_owners([(p, _numel(block.vars[p])) for p in order], len(self.places))
                posts = [_stages.bypass_updates(st.post, {p for p, o in owners.items() if o != r})
                         for r in range(len(self.places))]
            else:
                posts = [st.post] * len(self.places)
        c = _Compiled(plan, st, owners, posts, inference_only, len(self.places))
        c.origin = key[:2]  # (program version, feed names)
        if st.post is not None and not owners and self._can_share and self._one_device():
            c.candidate = uniform_post(st, plan)
        if st.post is not None and self.strategy.fuse_all_reduce_ops:
            c.buckets = _reduce.bucket_indices(gm, [name for _, name in st.reduced]) or True
        fx_sources.release_with(c, start)  # the plan's and the stages' generated sources live as long as `c`
        self._cache[key] = c
        return c

    # --- run --------------------------------------------------------------------------------------------
    def run(self, feed: Any, fetch_list: Any, return_numpy: bool = True, return_merged: bool = True) -> list:
        program = self.program
        block = program.global_block()
        fetches = fetch_names(fetch_list)
        nplaces = len(self.places)
        allow_partial = self._inference_only()
        if feed is None:
            feeds: list[dict] = [{} for _ in range(nplaces)]
        elif isinstance(feed, dict):
            feeds = _feed.split_feed(feed, block, nplaces, device_kind(self.places), allow_partial) if feed \
                else [{} for _ in range(nplaces)]
        elif isinstance(feed, (list, tuple)):
            feeds = _feed.check_feed_list(feed, nplaces, allow_partial)
        else:
            raise TypeError(f"Executor.run: feed should be a dict or a list of dicts (one per place), "
                            f"but received {type(feed).__name__}")
        # each place's LoDTensors bring their own LoD (offsets of its share of the sequences), as the
        # single-place Executor's feeds do (engine/static/executor.py prepare_feed)
        feeds = [expand_lod_feed(program, f) for f in feeds]
        names = sorted(feeds[0])
        for f in feeds[1:]:
            if sorted(f) != names:
                raise InvalidArgumentError(
                    f"Executor.run: every place must be fed the same variables; place 0 gets {names}, another "
                    f"gets {sorted(f)}"
                )
        c = self._compile(names, fetches)
        self._check_customized(names, c)
        n = len(feeds)
        self._localize(c)
        for s in self.local_scopes_[:n]:
            _update_lr(program, s)
        exchange = None
        if self.strategy.sync_batch_norm and n > 1:
            devs = [self.places[r].torch_device() for r in range(n)]
            if any(d.type == "cuda" for d in devs) and len(set(devs)) != len(devs):
                from paddle_compat.engine.core.errors import UnimplementedError

                raise UnimplementedError(
                    "BuildStrategy.sync_batch_norm: two places on the same CUDA device cannot exchange batch "
                    "statistics in the backward (torch runs one backward thread per device); use one place per "
                    "GPU, or CPU places"
                )
            from paddle_compat.engine.parallel.sync_batch_norm import Exchange

            exchange = Exchange(n)
        uniform = c.uniform  # a candidate checked by this run is used from the next one (the places share after it)
        versions = self._versions(c.candidate[1]) if c.candidate is not None else None
        # under uniform_post only place 0 runs `post`: the others gather what `pre` reads and what they pass through
        lean = None if uniform is None else c.pre_reads | {i for kind, i in uniform if kind == "arg"}
        pre = self._map(lambda r: self._run_pre(c, r, feeds[r], exchange, lean if r else None), range(n),
                        force=exchange is not None)
        if versions is not None:
            if versions == self._versions(c.candidate[1]):
                c.uniform, c.shared = c.candidate
                if uniform is None and c.shared == self._shared and self._shared_from == c.origin:
                    # the places already share what `post` updates (an earlier plan of this program made them,
                    # as a new fetch list's plan finds them): this run is already what the next would be
                    uniform = c.uniform
            c.candidate = None
        if c.stages.post is not None:
            idx = [i for i, _ in c.stages.reduced]
            sums = _reduce.sum_gradients([[b[i] for i in idx] for _, b in pre], c.buckets)
            # under uniform_post the other places run no `post`: they need the sum only where an output of theirs
            # passes a reduced gradient through (a fetched param@GRAD)
            need = None if uniform is None else {i for kind, i in uniform if kind == "boundary"}
            for r, (_, b) in enumerate(pre):
                dev = self.places[r].torch_device()
                for i, s in zip(idx, sums):
                    if r == 0:
                        b[i] = s
                    elif need is None or i in need:
                        b[i] = _reduce.distribute(s, b[i], dev)
            if uniform is not None:
                o0 = self._run_post(c, 0, *pre[0])
                outs = [o0] + [_take(uniform, o0, *pre[r]) for r in range(1, n)]
            else:
                outs = self._map(lambda r: self._run_post(c, r, *pre[r]), range(n))
        else:
            outs = [b for _, b in pre]
        skip = {p for p in c.owners}
        for r, o in enumerate(outs):
            scope = self.local_scopes_[r]
            mine = {p for p, w in c.owners.items() if w == r} if c.owners else None
            for (name, trainable), t in zip(c.plan.writeback, o[c.plan.n_fetch:]):
                if mine is not None and name in skip and name not in mine:
                    continue
                if trainable and isinstance(t, torch.Tensor) and t.is_floating_point() and not t.requires_grad:
                    t = t.detach().requires_grad_(True)
                scope._set(name, t)
        if c.owners:
            self._broadcast(c.owners, n)
        if c.uniform is not None and self._can_share and c.shared is not self._shared:
            self._share(c.shared, c.origin)  # checked by this run: share now, for a new fetch list's plan to find
        self._count_run()
        nf = c.plan.n_fetch
        if not return_merged:
            return [[c.plan.convert(o[i], i, return_numpy) for o in outs] for i in range(nf)]
        res = []
        for i, name in enumerate(fetches):
            vals = [o[i] for o in outs]
            if not all(isinstance(v, torch.Tensor) for v in vals):
                res.append(vals[0])
                continue
            m = _feed.merge_fetch(name, vals)
            res.append(m.numpy() if return_numpy else LoDTensor._from_torch(m))
        return res

    def _one_device(self) -> bool:
        devs = {p.torch_device() for p in self.places}
        return len(self.places) > 1 and len(devs) == 1 and next(iter(devs)).type == "cpu"

    def _inference_only(self) -> bool:
        """Paddle's IsDataParallelInferenceGraph: several places and no cross-place op (no gradient
        all-reduce - which needs loss_name and a backward -, no sync_batch_norm). Such graphs accept
        partial feeds."""
        if len(self.places) <= 1:
            return False
        cached = self._partial
        if cached is not None and cached[0] == self.program._version:
            return cached[1]
        value = self._no_cross_place_ops()
        self._partial = (self.program._version, value)
        return value

    def _no_cross_place_ops(self) -> bool:
        nodes = self.program.global_block().graph.nodes
        if self.loss_name and self.nranks > 1 and any(n.meta.get("op_type") == "autograd_grad" for n in nodes):
            return False
        if self.strategy.sync_batch_norm and any(n.meta.get("op_type") in ("batch_norm", "sync_batch_norm")
                                                 for n in nodes):
            return False
        return True

    def _check_customized(self, feeds: list[str], c: _Compiled) -> None:
        if not self.loss_name or self.strategy.gradient_scale_strategy != GradientScaleStrategy.Customized:
            return
        gname = f"{self.loss_name}@GRAD"
        if gname in feeds:
            return
        seed = next((n for n in self.program.global_block().graph.nodes
                     if n.meta.get("role") == ROLE_LOSS_GRAD and n.meta.get("var_name") == gname), None)
        if seed is None:
            return
        loss_var = self.program.global_block().vars.get(self.loss_name)
        loss_op = loss_var.node.meta.get("op_type", "") if loss_var is not None and loss_var.node is not None else ""
        raise InvalidArgumentError(
            f"The Tensor in the {loss_op}_grad Op's Input Variable Out@GRAD({gname}) is not initialized. "
            f"BuildStrategy.gradient_scale_strategy is Customized, so feed {gname!r} with one value per place "
            f"(e.g. numpy.ones({len(self.places)}) / {len(self.places)}), or use CoeffNumDevice / One."
        )

    def _localize(self, c: _Compiled) -> None:
        """Give places 1.. their copies (or, sharing, the same objects) of the persistables `c` reads."""
        if self.num_trainers > 1:  # Paddle's BCastParamsToDevices over all trainers: trainer 0's values win
            from paddle_compat.engine.parallel import collective

            collective.broadcast_persistables_(self, self.local_scopes_[0], c.scope_inputs)
        if len(self.places) == 1:
            return
        # a plan not checked yet (a new fetch list) whose candidate shares what the places share now keeps that:
        # its `pre` runs the same ops as the checked plan's (same program version and feeds; a fetch list prunes
        # nothing), and unsharing would copy every shared persistable to each place, to share them again after
        pending = c.candidate is not None and c.candidate[1] == self._shared \
            and self._shared_from == c.origin
        if self._can_share and c.shared is not self._shared and not pending:
            self._share(c.shared, c.origin)
        if id(self.local_scopes_) in c.localized:
            return
        for r in range(1, len(self.places)):
            local = self.local_scopes_[r]
            for name in c.scope_inputs:
                if name in local._vars and local._vars[name]._t is not None:
                    continue
                lt = self._base_var(name)
                if lt is None:
                    continue
                share = (self.share_persistables and LR_DECAY_COUNTER not in name) or name in self._shared
                local._vars[name] = lt if share else self._copy(lt, r)
        c.localized.add(id(self.local_scopes_))

    def _versions(self, names: frozenset[str]) -> list[int]:
        """Place 0's tensors' in-place write counters: whether `pre` writes a persistable in place."""
        out = []
        for name in sorted(names):
            lt = self._base_var(name)
            out.append(-1 if lt is None else lt._t._version)
        return out

    def _base_var(self, name: str) -> LoDTensor | None:
        sv = self.local_scopes_[0].find_var(name)
        lt = sv._scope._vars[name] if sv is not None else None
        return lt if lt is not None and lt._t is not None else None

    def _copy(self, lt: LoDTensor, r: int) -> LoDTensor:
        t = lt._t.detach().to(self.places[r].torch_device(), copy=True)
        if lt._t.requires_grad:
            t.requires_grad_(True)
        return LoDTensor._from_torch(t)

    def _share(self, names: frozenset[str], origin: tuple) -> None:
        """Make `names` one tensor for all places (uniform_post); give the places their own copies of what
        was shared before and no longer is. The places' values are equal here (AllReduce keeps them so)."""
        for name in names | self._shared:
            lt = self._base_var(name)
            if lt is None:
                continue
            for r in range(1, len(self.places)):
                local = self.local_scopes_[r]
                if name in names:
                    local._vars[name] = lt
                elif local._vars.get(name) is lt:
                    local._vars[name] = self._copy(lt, r)
        self._shared = names
        self._shared_from = origin

    def _args(self, c: _Compiled, r: int, feed: dict, device: torch.device,
              keep: frozenset[int] | None = None) -> list:
        return gather_inputs(c.plan.inputs, self.local_scopes_[r], feed, device, where=f" of place {r}", keep=keep)

    def _run_pre(self, c: _Compiled, r: int, feed: dict, exchange: Any,
                 keep: frozenset[int] | None = None) -> tuple[list, list]:
        device = self.places[r].torch_device()
        try:
            args = self._args(c, r, feed, device, keep)
            with _runtime(device, self.program.random_seed):
                if exchange is not None:
                    from paddle_compat.engine.parallel.sync_batch_norm import replica_callback

                    with replica_callback(exchange, r):
                        with torch.enable_grad() if c.grad else torch.no_grad():
                            out = c.pre(*args)
                else:
                    with torch.enable_grad() if c.grad else torch.no_grad():
                        out = c.pre(*args)
        except BaseException as e:
            if exchange is not None:
                exchange.abort()
            err = op_run_error(e) if isinstance(e, Exception) else e
            if err is e:
                raise
            raise err from e
        return args, list(out)

    def _run_post(self, c: _Compiled, r: int, args: list, boundary: list) -> tuple:
        device = self.places[r].torch_device()
        with _runtime(device, 0), torch.no_grad():
            return c.post_fns[r](*args, *boundary)

    def _broadcast(self, owners: dict[str, int], n: int) -> None:
        with torch.no_grad():
            for name, o in owners.items():
                src = self.local_scopes_[o]._get(name)
                for r in range(len(self.places)):
                    if r == o:
                        continue
                    dst = self.local_scopes_[r]._get(name)
                    if dst is None or dst is src:
                        continue
                    dst.copy_(src)

    def _map(self, fn: Callable[[int], Any], items: Any, force: bool = False) -> list:
        items = list(items)
        workers = len(items) if force else min(self.exec_strategy.num_threads, len(items))
        # CPU places run one after another unless they must meet (an exchange inside `pre`): the replicas'
        # small kernels only contend for the GIL in a pool, and torch's intra-op threads already parallelise
        # each kernel; same results either way (tests/parallel: num_threads=1 is bitwise invisible)
        if workers <= 1 or len(items) <= 1 or (self._all_cpu and not force):
            return [fn(i) for i in items]
        if self._pool is None or self._pool._max_workers < workers:
            self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="paddle_compat_replica")
        return list(self._pool.map(fn, items))

    def _count_run(self) -> None:
        """ScopeBufferedSSAGraphExecutor's drop counter (num_iteration_per_drop_scope), observable only
        through `_need_create_local_exe_scopes()`."""
        self._need_create = False
        self._drop_counter += 1
        if self._drop_counter >= max(1, self.exec_strategy.num_iteration_per_drop_scope):
            self.drop_local_exe_scopes()


def uniform_post(st: _stages.Stages, plan: Plan) -> tuple[list[tuple[str, int]], frozenset[str]] | None:
    """Whether `post` computes the same values on every place, and if so where each place's outputs come from.

    It does when every value it computes reads only reduced gradients (the same on every place after the sum)
    and persistables that `pre` does not write back (a place's batch-norm statistics are its own). Then
    output j is ("post", j): place 0's value; or a pass-through of the place's own values: ("arg", k) its
    k-th argument, ("boundary", i) its i-th boundary value; and the persistables `post` reads (its updates
    write some of them in place), which the places must share. None: run `post` on every place. What the
    graph cannot show - `pre` writing one of those persistables in place - the first run checks
    (`DataParallelRunner._versions`)."""
    post = st.post
    assert post is not None
    phs = [n for n in post.graph.nodes if n.op == "placeholder"]
    n_args = len(phs) - len(st.boundary_names)
    out_node = next(n for n in reversed(post.graph.nodes) if n.op == "output")
    outs = out_node.args[0]
    if not isinstance(outs, (tuple, list)):
        return None
    index = {ph: i for i, ph in enumerate(phs)}
    sources: list[tuple[str, int]] = []
    for j, o in enumerate(outs):
        if isinstance(o, fx.Node) and o.op == "placeholder":
            k = index[o]
            sources.append(("arg", k) if k < n_args else ("boundary", k - n_args))
        else:
            sources.append(("post", j))
    per_place = {name for (name, _), (kind, _) in zip(plan.writeback, sources[plan.n_fetch:]) if kind == "boundary"}
    reduced = {i for i, _ in st.reduced}
    shared = set()
    for k, ph in enumerate(phs):
        if not ph.users:
            continue
        if k >= n_args:
            if k - n_args not in reduced and any(u.op != "output" for u in ph.users):
                return None
            continue
        if all(u.op == "output" for u in ph.users):
            continue  # passed through: each place's own value
        kind, name = plan.inputs[k][0], plan.inputs[k][1]
        if kind != "scope" or name in per_place or LR_DECAY_COUNTER in name:
            return None
        shared.add(name)
    return sources, frozenset(shared)


def _take(sources: list[tuple[str, int]], o0: tuple, args: list, boundary: list) -> tuple:
    """Place r's outputs under uniform_post: place 0's computed values, its own passed-through ones."""
    return tuple(o0[i] if kind == "post" else args[i] if kind == "arg" else boundary[i] for kind, i in sources)


class _runtime:
    """Per-thread execution context for one replica (device; the program's RNG seed if set)."""

    def __init__(self, device: torch.device, seed: int) -> None:
        self.device, self.seed = device, seed

    def __enter__(self) -> None:
        self.old = (RUNTIME.device, RUNTIME.generator)
        RUNTIME.device = self.device
        self.cuda = torch.cuda.device(self.device) if self.device.type == "cuda" else None
        if self.cuda is not None:
            self.cuda.__enter__()
        if self.seed:
            gen = torch.Generator(device=self.device)
            gen.manual_seed(int(self.seed))
            RUNTIME.generator = gen

    def __exit__(self, *exc: Any) -> None:
        RUNTIME.device, RUNTIME.generator = self.old
        if self.cuda is not None:
            self.cuda.__exit__(*exc)


def _numel(var: Any) -> int:
    k = 1
    for d in var.shape:
        k *= max(int(d), 1)
    return k


def _backward_order(gm: fx.GraphModule, params: set[str]) -> list[str]:
    """Parameters in the order Paddle's backward produces their gradients: the parameter used last in the
    forward comes first."""
    last: dict[str, int] = {}
    for i, n in enumerate(gm.graph.nodes):
        if n.op != "call_function":
            continue
        for a in n.all_input_nodes:
            name = a.meta.get("var_name")
            if a.op == "placeholder" and name in params and n.meta.get("role", ROLE_FORWARD) == ROLE_FORWARD:
                last[name] = i
    return sorted(params, key=lambda p: -last.get(p, -1))


def _rescale_seed(gm: fx.GraphModule, loss_name: str, coeff: float) -> bool:
    g = gm.graph
    gname = f"{loss_name}@GRAD"
    for n in list(g.nodes):
        if n.op == "call_function" and n.meta.get("role") == ROLE_LOSS_GRAD and n.meta.get("var_name") == gname:
            with g.inserting_after(n):
                s = g.call_function(scale_loss_grad, (n, float(coeff)))
            n.replace_all_uses_with(s, delete_user_cb=lambda u: u is not s)
            s.meta.update(n.meta)
            return True
    return False


def _pass_transform(compiled: Any, exe: Any, feeds: list[str], fetches: list[str], strategy: Any, nplaces: int,
                    kind: str, program: Any) -> Callable[[fx.GraphModule], fx.GraphModule]:
    """The BuildStrategy pass pipeline for the replicas' graph (built once, as place 0's): the compiler's
    `_graph_transform` when it has one (the passes engineer's entry point), else `passes.apply_pipeline`.
    The torch.compile path is left out: the runner cuts the graph after the passes."""
    gt = getattr(compiled, "_graph_transform", None)
    if gt is not None:
        return gt(exe, feeds, fetches, num_places=nplaces, replica=0, device=kind, compile_backend=False)
    try:
        from paddle_compat.engine import passes
    except ImportError:
        return lambda gm: gm
    protected = set(feeds) | set(fetches) | {v.name for v in program.list_vars() if v.persistable}
    fields = getattr(passes.PassContext, "__dataclass_fields__", {})
    want = dict(protected=protected, num_places=nplaces, device=kind, debug_path=strategy.debug_graphviz_path,
                program=program, replica=0, reduce_strategy=int(strategy.reduce_strategy))
    ctx = passes.PassContext(**{k: v for k, v in want.items() if k in fields})
    return lambda gm: passes.apply_pipeline(gm, strategy, ctx)


def run_data_parallel(compiled: Any, exe: Any, feed: Any, fetch_list: Any, scope: Scope, return_numpy: bool = True,
                      return_merged: bool = True, num_trainers: int | None = None) -> list:
    """Entry point of `Executor.run(CompiledProgram.with_data_parallel(...))` (engine/static/compiler.py)."""
    runner = get_runner(compiled, exe, scope, num_trainers)
    return runner.run(feed, fetch_list, return_numpy, return_merged)


def get_runner(compiled: Any, exe: Any, scope: Scope, num_trainers: int | None = None) -> DataParallelRunner:
    """Paddle's CompiledProgram._compile for data parallelism: the runner is built on the first run and kept;
    a later run with another scope or place is an error, as in Paddle."""
    runner = getattr(compiled, "_executor", None)
    if runner is None:
        runner = DataParallelRunner(compiled, exe, scope, num_trainers)
        compiled._executor = runner
        return runner
    if compiled._share_vars_from is None and scope is not runner.scope:
        raise ValueError("Cannot compile program with different scope.")
    if exe.place != runner.exe_place:
        raise ValueError("Cannot compile program with different place.")
    return runner
