"""Executor: compile a Program's fx graph into a GraphModule once, then run it per call.

`run` keys a compiled plan by (program version, feed names, fetch names, place, build strategy); the
plan knows which graph inputs come from the feed and which from the Scope, which outputs are fetches and
which persistable values to write back, so a call does little more than convert the feed, call the
GraphModule's generated Python and convert the fetches. Every recorded op runs (Paddle does not prune by
fetch_list); only placeholders nobody reads are dropped.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import time
import traceback
import warnings

import numpy as np
import torch
import torch.fx as fx

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.buffer_pool import plan_pool
from paddle_compat.engine.core.errors import EnforceNotMet, InvalidArgumentError, NotFoundError, PreconditionNotMetError
from paddle_compat.engine.core.mode import static_entry_point
from paddle_compat.engine.core.place import Place, get_device_place, to_place
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.framework import fx_copy, fx_interp, fx_sources, nan_inf
from paddle_compat.engine.framework.fx_copy import materialize, new_gm
from paddle_compat.engine.framework.lod import LoDTensor, LoDTensorArray
from paddle_compat.engine.framework.program import (ROLE_BACKWARD, Parameter, Program, Variable, VarType,
                                             default_main_program)
from paddle_compat.engine.framework.scope import Scope, global_scope
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.static import joint


def fetch_names(fetch_list: Any) -> list[str]:
    if fetch_list is None:
        return []
    if isinstance(fetch_list, (str, Variable)):
        fetch_list = [fetch_list]
    out = []
    for f in fetch_list:
        if isinstance(f, Variable):
            out.append(f.name)
        elif isinstance(f, str):
            out.append(f)
        elif isinstance(f, (list, tuple)):
            out.extend(fetch_names(f))
        else:
            hint = ""
            if type(f).__name__ == "Tensor":  # computed eagerly: the script ran ops before anything static
                hint = ("; it was computed in dygraph mode, the default until a static-only call (fluid.layers.data, "
                        "program_guard, Executor) switches to static: call paddle.enable_static() at the start of "
                        "a fluid 1.x script that builds ops before those")
            raise TypeError(
                f"Executor.run: fetch_list items must be Variable or str (a variable name), "
                f"but received {type(f).__name__}{hint}"
            )
    return out


def to_feed_tensor(name: str, value: Any, var: Variable, device: torch.device) -> torch.Tensor:
    """Convert one fed value and check it against the variable it feeds (Paddle's check_feed_shape_type)."""
    if type(value) is np.ndarray and value.flags.c_contiguous:  # the common feed, in few calls
        shape = var.shape
        if value.dtype == var.dtype.numpy and len(shape) == value.ndim and (not shape or shape[0] >= 0 or len(value)):
            for d, s in zip(shape, value.shape):
                if d >= 0 and d != s:
                    break
            else:
                t = torch.from_numpy(value)
                return t if device.type == "cpu" and device.index is None else t.to(device)
    if isinstance(value, Tensor):
        t = value._t.detach()
    elif isinstance(value, LoDTensor):
        t = value._check()
    elif isinstance(value, torch.Tensor):
        t = value.detach()
    else:
        # a Python scalar becomes a [1] tensor, as Paddle 1.8's _as_lodtensor makes it (feed={'lr': 0.01})
        arr = value if isinstance(value, np.ndarray) else np.asarray([value] if np.isscalar(value) else value)
        if not isinstance(value, np.ndarray):  # Python numbers and lists follow the variable's dtype (Paddle casts
            target = np.dtype(var.dtype.numpy)  # scalars; lists it refuses): never a float cast to an integer
            if arr.dtype != target and (arr.dtype.kind in "biu" or (arr.dtype.kind == "f" and target.kind in "fc")):
                arr = arr.astype(target)
        if not arr.flags.c_contiguous:
            arr = np.ascontiguousarray(arr)
        try:
            t = torch.from_numpy(arr)
        except TypeError:
            raise InvalidArgumentError(
                f"Executor.run: the value fed to variable {name!r} has unsupported numpy dtype {arr.dtype}"
            ) from None
    want = var.dtype.torch
    if t.dtype != want:
        raise ValueError(
            f"The data type of fed Variable {name!r} must be '{var.dtype.name}', but received "
            f"'{_dt.from_torch(t.dtype).name}'"
        )
    shape = var.shape
    if shape and shape[0] < 0 and t.dim() and t.shape[0] == 0:  # Paddle's ops fail on it (numel < 0)
        raise PreconditionNotMetError(
            f"Executor.run: the batch is empty: the fed variable {name!r} has 0 rows (shape {list(t.shape)}), and a "
            "program cannot run on an empty batch; skip empty batches (e.g. a reader's last one) before exe.run")
    if shape and list(t.shape) != list(shape):
        ok = len(t.shape) == len(shape) and all(d < 0 or d == s for d, s in zip(shape, t.shape))
        if not ok:
            t = _tolerant_reshape(name, t, var)
    t = t.to(device) if t.device != device else t
    if isinstance(value, LoDTensor) and value.lod():
        t._paddle_lod = [list(lv) for lv in value.lod()]  # full LoD for beam_search(_decode) (engine/ops/rnn_decoding.py)
    return t


def _tolerant_reshape(name: str, t: torch.Tensor, var: Variable) -> torch.Tensor:
    """Paddle 1.8 checks feed shapes only for `fluid.data` variables (need_check_feed); a `fluid.layers.data`
    variable takes whatever shape is fed (tests/fluid/test_fluidtests18.py). Legacy scripts feed e.g. a label of shape [N] to a [-1, 1] variable: a feed that differs only by
    dims of size 1 is reshaped to the variable's shape; any other unchecked feed keeps its shape."""
    shape = var.shape
    if not var.need_check_feed:
        core_var = [d for d in shape if d != 1]
        core_fed = [d for d in t.shape if d != 1]
        fits = len(core_var) == len(core_fed) and all(d < 0 or d == s for d, s in zip(core_var, core_fed))
        return t.reshape([d if d >= 0 else -1 for d in shape]) if fits and sum(d < 0 for d in shape) <= 1 else t
    if 0 < t.dim() < len(shape) and all(d < 0 or d == s for d, s in zip(shape, t.shape)):
        # Paddle's check (DiffTensorShapeWithVarDesc) compares only the fed tensor's dims with the variable's
        # leading ones: a feed of lower rank that matches them is accepted and runs with its own shape
        return t
    raise ValueError(
        f"The fed Variable {name!r} should have dimensions = {len(shape)}, shape = {tuple(shape)}, "
        f"but received fed shape {list(t.shape)}"
    )


def gather_inputs(inputs: list, scope: Scope, feed: dict, device: torch.device, where: str = "",
                  keep: frozenset[int] | None = None) -> list:
    """The graph's arguments in placeholder order: converted feeds and the Scope's persistables (moved to
    `device` once and stored back). `where` names the place in errors (data-parallel replicas). With `keep`,
    only those positions are gathered, the others are None (arguments the graph that runs does not read)."""
    args = []
    cpu = device.type == "cpu"
    for k, (kind, name, var, needs_grad) in enumerate(inputs):
        if keep is not None and k not in keep:
            args.append(None)
            continue
        if kind == "feed":
            t = to_feed_tensor(name, feed[name], var, device)
            if needs_grad and t.is_floating_point():
                t = t.detach().requires_grad_(True)
            if var.persistable:
                scope._set(name, t)
        else:
            t = scope._get(name)
            if t is None:
                raise PreconditionNotMetError(
                    f"Executor.run: persistable variable {name!r} is not initialized in the scope{where}. "
                    "Run the startup program first (exe.run(startup_program)), or load the parameters"
                )
            if (not t.is_cpu if cpu else t.device != device) or (
                    needs_grad and not t.requires_grad and t.is_floating_point()):
                t = t.to(device)
                if needs_grad and t.is_floating_point():
                    t = t.detach().requires_grad_(True)
                scope._set(name, t)
        args.append(t)
    return args


_RUN_ERRORS: dict[type, type] = {}


def op_run_error(exc: Exception) -> Exception:
    """A torch error raised while running a program, re-stated with the Paddle op that raised it (its type, API
    and output variable), found from the generated code line of the innermost program frame; `exc` itself when
    it already is a Paddle error or no op can be named. The new error keeps the original class as a base, so an
    `except IndexError` still catches it."""
    if isinstance(exc, (EnforceNotMet, NotImplementedError)):
        return exc
    node = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        node = fx_interp.node_of_frame(frame) or node  # a graph's first runs are interpreted (fx_interp)
        gm = frame.f_locals.get("self") if frame.f_code.co_filename.startswith("<eval_with_key>") else None
        if isinstance(gm, fx.GraphModule):
            code = gm.code.splitlines()
            lhs = code[line - 1].strip().split(" = ")[0] if 0 < line <= len(code) else ""
            node = next((n for n in gm.graph.nodes if n.name == lhs), node)
    if node is None or not node.meta.get("op_type"):
        return exc
    opdef = node.meta.get("opdef")
    op_type = node.meta["op_type"]
    api = f" ({opdef.exports[0]})" if opdef is not None and opdef.exports else ""
    out = node.meta.get("var_name") or ", ".join(node.meta.get("out_names", ())) or node.name
    base = type(exc)
    cls = _RUN_ERRORS.get(base)
    if cls is None:
        kind = "InvalidArgument" if isinstance(exc, (ValueError, IndexError, TypeError)) else "Fatal"
        try:
            cls = type(base.__name__, (EnforceNotMet, base), {"kind": kind, "__module__": EnforceNotMet.__module__})
        except TypeError:  # a base that cannot be combined: the Paddle class alone
            cls = type(base.__name__, (EnforceNotMet,), {"kind": kind, "__module__": EnforceNotMet.__module__})
        _RUN_ERRORS[base] = cls
    return cls(f"Executor.run: op {op_type}{api} computing {out!r} failed: {exc}")


_FEED_FETCH = ("feed", "fetch")


def _check_feed_ops(block: Any, feed_names: list[str]) -> None:
    """Paddle's has_feed_operators (1.8.5 and 2.6.2): a program that has feed ops (a saved / normalized one) must be
    fed exactly their targets. Its fetch ops are not checked: 2.x fetches with its own fetch_v2 ops, whatever the
    program's fetch ops name (1.8.5 raises when they differ from fetch_list)."""
    targets = [n.meta["out_names"][0] for n in block.graph.nodes if n.meta.get("op_type") == "feed"]
    if not targets:
        return
    for t in targets:
        if t not in feed_names:
            raise InvalidArgumentError(f"Executor.run: 'feed_targets' does not have {t} variable (the program's feed "
                                       f"ops feed {targets}; the feed gives {list(feed_names)})")
    if len(targets) != len(feed_names):
        raise InvalidArgumentError(f"Executor.run: Feed operators in program desc do not match 'feed_targets' (the "
                                   f"program's feed ops feed {targets}; the feed gives {list(feed_names)})")


# fluid.profiler while it profiles: hook(plan) -> a callable that runs plan.gm timing each op (fluid/profiler.py)
PROFILE_HOOKS: list = []


class Plan:
    """One compiled (program, feed names, fetch names) combination."""

    def __init__(self, program: Program, feed_names: list[str], fetches: list[str], place: Place,
                 graph_transform: Callable[[fx.GraphModule], fx.GraphModule] | None = None,
                 generate_code: bool = True) -> None:
        """`generate_code=False`: the caller runs a rewrite of `self.gm` rather than `self.gm` itself (the
        data-parallel runner splits it into stages), so its Python code is left to be generated lazily."""
        block = program.global_block()
        self.program = program
        g, self.n_fetch = self._graph(block, feed_names, fetches)
        root = torch.nn.Module()
        for k, c in block._consts.items():
            setattr(root, k, c)
        # code is generated once, for the graph that runs: lazily built here, through the transform's passes
        # (engine/passes/__init__.py new_gm / materialize), then forced before `gm.forward` is taken
        gm = new_gm(root, g)
        if graph_transform is not None:
            from paddle_compat.engine.passes import REBUILD

            # the transform's passes may rewrite this fresh graph in place: on a failing pass they get it again
            gm.meta[REBUILD] = lambda: new_gm(root, self._graph(block, feed_names, fetches)[0])
            gm = graph_transform(gm)
            gm.meta.pop(REBUILD, None)
        if nan_inf.ENABLED[0]:  # FLAGS_check_nan_inf (the plan caches are keyed by it)
            gm = nan_inf.instrument(gm)
        self.gm = gm
        if not generate_code:
            self.forward = gm.forward
        elif isinstance(gm, fx.GraphModule):  # not a torch.compile wrapper (engine/static/compile_backend.py)
            # interpreted for its first runs, its code generated only if it keeps running (fx_interp)
            self.forward = fx_interp.warm_forward(gm, self, attr="forward")
        else:
            self.forward = materialize(gm).forward
        self.grad = any(n.meta.get("role") == ROLE_BACKWARD for n in gm.graph.nodes)
        self.device = place.torch_device()
        self.seed = program.random_seed
        # large CPU buffers of the bodies memory_optimize selected come from this plan's own cache
        self.pool = plan_pool(gm.meta, self.device)
        # a training plan's later runs: one joint forward + backward + update graph (engine/static/joint.py)
        # (`joint_off` says why a plan keeps its own path)
        self.joint, self.joint_off = joint.for_plan(
            self, not generate_code or nan_inf.ENABLED[0])

    def _graph(self, block: Any, feed_names: list[str], fetches: list[str]) -> tuple[fx.Graph, int]:
        """A fresh copy of the program's graph with the feeds as placeholders and (fetches + write-backs) as
        outputs; sets the plan's fetch, write-back and input tables. Deterministic: building it again gives the
        same graph and tables (the pass pipeline does so to restore the graph after a failing pass)."""
        _check_feed_ops(block, feed_names)
        g = fx.Graph()
        val_map: dict[fx.Node, fx.Node] = {}
        fx_copy.graph_copy(g, block.graph, val_map)
        for n in list(g.nodes):  # the program's feed / fetch ops (engine/ops/feed_fetch.py): the run feeds and fetches by name
            if n.op == "call_function" and n.meta.get("op_type") in _FEED_FETCH and not n.users:
                g.erase_node(n)
        cur = {name: val_map[v.node] for name, v in block.vars.items() if v.node in val_map}
        first = next(iter(g.nodes), None)
        for fname in feed_names:
            if fname not in block.vars:
                raise NotFoundError(
                    f"Executor.run: the feed name {fname!r} is not a variable of the program; "
                    f"data variables are {sorted(n for n, v in block.vars.items() if v.is_data)}"
                )
            n = cur[fname]
            if n.op != "placeholder" and block.vars[fname].is_data and any(
                    m.op == "placeholder" and m.meta.get("var_name") == fname for m in g.nodes):
                continue  # an in-place op (x[i] = v, increment) rebound a data variable: feed its placeholder
            if n.op != "placeholder":  # feeding a computed variable (e.g. loss@GRAD): the feed wins
                with g.inserting_before(first):
                    ph = g.placeholder(n.name + "_fed")
                ph.meta.update(var_name=fname)
                n.replace_all_uses_with(ph)
                cur[fname] = ph
        self.fetch_names = fetches
        fetch_nodes = []
        for f in fetches:
            if f not in cur:
                raise NotFoundError(
                    f"Executor.run: fetch variable {f!r} is not found in the program "
                    f"(known variables include {sorted(cur)[:20]})"
                )
            if block.vars[f].type == VarType.SELECTED_ROWS:  # Paddle's fetch op holds LoDTensors only
                raise InvalidArgumentError(
                    f"Executor.run: fetch variable {f!r} is a SelectedRows (the gradient of an embedding with "
                    "is_sparse=True, or merge_selected_rows' output), which cannot be fetched; fetch "
                    "fluid.layers.get_tensor_from_selected_rows(...) of it [operator < fetch > error]")
            fetch_nodes.append(cur[f])
        self.fetch_copy = [cur[f].op == "placeholder" or block.vars[f].persistable for f in fetches]
        self.writeback: list[tuple[str, bool]] = []
        wb_nodes = []
        for name, v in block.vars.items():
            n = cur.get(name)
            if v.persistable and n is not None and n.op != "placeholder":
                self.writeback.append((name, bool(getattr(v, "trainable", False))))
                wb_nodes.append(n)
        # inputs, in placeholder order
        self.inputs: list[tuple[str, str, Variable, bool]] = []  # (kind, name, var, needs_grad)
        for n in list(g.nodes):
            if n.op != "placeholder":
                continue
            name = n.meta["var_name"]
            v = block.vars.get(name)
            if name in feed_names:
                self.inputs.append(("feed", name, v, bool(n.meta.get("needs_grad"))))
            elif v is not None and v.persistable:
                # a trainable parameter must require grad however its value reached the scope (startup,
                # scope.var(...).get_tensor().set, set_state_dict / set_program_state before the startup run)
                grad = bool(n.meta.get("needs_grad")) or (isinstance(v, Parameter) and v.trainable)
                self.inputs.append(("scope", name, v, grad))
            elif not n.users and n not in fetch_nodes:
                g.erase_node(n)
            else:
                users = [u.meta.get("op_type") or u.name for u in n.users]
                raise PreconditionNotMetError(
                    f"Executor.run: variable {name!r} is read by op(s) {users} but was not fed; "
                    f"add it to feed={{{name!r}: ...}}"
                )
        g.output(tuple(fetch_nodes + wb_nodes))
        return g, len(fetch_nodes)

    def run(self, scope: Scope, feed: dict, return_numpy: bool = True) -> list:
        outs = self.execute(scope, feed)
        return [self.convert(t, i, return_numpy) for i, t in enumerate(outs[: self.n_fetch])]

    def execute(self, scope: Scope, feed: dict) -> tuple:
        device = self.device
        args = gather_inputs(self.inputs, scope, feed, device)
        jp = self.joint
        if jp is not None and not PROFILE_HOOKS and jp.usable_feed(feed):
            g = jp.graph_for(args)
            if g is not None:
                return self._write_back(scope, self._run_joint(jp, g, args))
            if jp.reason is not None:
                self.joint, self.joint_off = None, jp.reason
            else:
                t0 = time.perf_counter()
                outs = self._run_own(args)
                jp.fastest = min(jp.fastest, time.perf_counter() - t0)
                return self._write_back(scope, outs)
        return self._write_back(scope, self._run_own(args))

    def _run_joint(self, jp: Any, g: Any, args: list) -> tuple:
        """The step as the joint graph `g` (engine/static/joint.py); a graph not yet checked runs on copies of
        the arguments next to the plan's own path, whose results are kept."""
        if type(g) is not joint.Unchecked:
            prev = torch.is_grad_enabled()
            torch._C._set_grad_enabled(False)  # the context manager costs as much as a small op
            try:
                return g(*args)
            except Exception as e:  # noqa: BLE001 - e.g. a label out of range: the plan's own path raises
                # the error naming the Paddle op (the updates come last: a forward or backward error has
                # changed no parameter)
                self.joint, self.joint_off = None, f"the joint graph raised {type(e).__name__}"
            finally:
                torch._C._set_grad_enabled(prev)
            return self._run_own(args)
        with torch.no_grad():
            copies = [a.detach().clone() for a in args]
        rng = joint.rng_state(self.device) if jp.random else None  # both runs draw the same numbers
        try:
            with torch.no_grad():
                joint_outs = g.gm(*copies)
        except Exception as e:  # noqa: BLE001 - the plan keeps its own path
            joint_outs = None
            jp.reason = f"the joint graph failed: {type(e).__name__}: {e}"[:300]
        if rng is not None:
            joint.set_rng_state(self.device, rng)
        outs = self._run_own(args)
        if joint_outs is not None:
            jp.check(g, args, outs, copies, joint_outs)
        if jp.reason is not None:
            self.joint, self.joint_off = None, jp.reason
        return outs

    def _run_own(self, args: list) -> tuple:
        device = self.device
        old_dev, old_gen, old_pool = RUNTIME.device, RUNTIME.generator, RUNTIME.pool
        RUNTIME.device, RUNTIME.pool = device, self.pool
        if self.seed:
            gen = torch.Generator(device=device)
            gen.manual_seed(int(self.seed))
            RUNTIME.generator = gen
        try:
            forward = PROFILE_HOOKS[0](self) if PROFILE_HOOKS else self.forward
            with torch.enable_grad() if self.grad else torch.no_grad():
                outs = forward(*args)
        except Exception as e:  # noqa: BLE001 - re-raised naming the Paddle op that failed
            err = op_run_error(e)
            if err is e:
                raise
            raise err from e
        finally:
            RUNTIME.device, RUNTIME.generator, RUNTIME.pool = old_dev, old_gen, old_pool
            if self.pool is not None:
                self.pool.trim()
        return outs

    def _write_back(self, scope: Scope, outs: tuple) -> tuple:
        for (name, trainable), t in zip(self.writeback, outs[self.n_fetch:]):
            if trainable and t.is_floating_point() and not t.requires_grad:
                t = t.detach().requires_grad_(True)
            scope._set(name, t)
        return outs

    def convert(self, t: Any, i: int, return_numpy: bool, copy: bool | None = None) -> Any:
        if type(t) in (list, tuple):  # a LoDTensorArray: a list of numpy arrays, or a LoDTensorArray, as Paddle
            items = [self.convert(x, i, return_numpy, copy=True) for x in t]
            return items if return_numpy else LoDTensorArray(items)
        if not isinstance(t, torch.Tensor):
            return t
        lod = getattr(t, "_paddle_lod", None)  # runtime LoD set by beam_search & co (engine/ops/rnn_decoding.py)
        t = t.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        elif self.fetch_copy[i] if copy is None else copy:
            t = t.clone()
        if return_numpy:
            return t.numpy()
        out = LoDTensor._from_torch(t)
        if lod:
            out.set_lod(lod)
        return out


def check_feed_dict(feed: Any) -> dict:
    if feed is None:
        return {}
    if isinstance(feed, dict):
        return feed
    if isinstance(feed, (list, tuple)):
        if len(feed) != 1:
            raise AssertionError("Not compiled with data parallel")
        return check_feed_dict(feed[0])
    raise TypeError(f"Executor.run: feed should be a dict of name -> value, but received {type(feed).__name__}")


# Feed hooks (program, feed) -> feed, run before the LoD expansion: fluid/reader.py adds the next batch of a
# started py_reader here. Empty unless a reader was made, so plain runs pay nothing.
FEED_HOOKS: list = []
# The same for data-parallel runs (compiled, exe, feed) -> feed or one feed dict per place (engine/static/compiler.py).
DP_FEED_HOOKS: list = []


def _as_lodtensor(data: Any, place: Any, dtype: Any = None) -> LoDTensor:
    """fluid.executor._as_lodtensor: a LoDTensor (no LoD) holding `data`. Anything but a numpy array needs `dtype`
    (AssertionError otherwise) and is cast to it: a Python scalar becomes shape [1] (Paddle 1.8), a list or tuple
    an array of its shape (a ragged one is a TypeError), anything else a TypeError (Paddle's
    test_executor_feed_non_tensor.py; tests/fluid/test_layers18.py)."""
    if not isinstance(data, np.ndarray):
        assert dtype is not None, "The dtype should be given when feed data is not np.ndarray"
        npdtype = _dt.to_dtype(dtype).numpy
        if np.isscalar(data):
            data = np.array([data]).astype(npdtype)
        elif isinstance(data, (list, tuple)):
            try:
                arr = np.array(data)
            except ValueError:
                arr = np.array(data, dtype=object)
            if arr.dtype == np.object_:
                raise TypeError("fluid.executor._as_lodtensor: failed to convert the input data to a regular "
                                "ndarray: it usually holds nested lists of different lengths; build a LoDTensor "
                                "with fluid.create_lod_tensor for sequences")
            data = arr.astype(npdtype)
        else:
            raise TypeError(f"fluid.executor._as_lodtensor: converting data of type {type(data).__name__} to a "
                            "Tensor is not supported")
    tensor = LoDTensor()
    tensor.set(data, place)
    return tensor


def prepare_feed(program: Program, feed: Any) -> dict:
    """The feed as a dict, with the LoD offsets of fed LoDTensors added as hidden `<name>@LOD` feeds. A name that
    is no variable of the program is dropped with Paddle's warning, as Paddle's Executor does (1.8 and 2.x; a
    data-parallel run raises instead: engine/parallel/feed.py split_feed)."""
    feed = check_feed_dict(feed)
    block = program.global_block()
    unknown = [n for n in feed if n not in block.vars]
    if unknown:
        for n in unknown:
            warnings.warn(f"The variable {n} is not found in program. It is not declared or is pruned.",
                          stacklevel=3)
        feed = {n: v for n, v in feed.items() if n in block.vars}
    for hook in FEED_HOOKS:
        feed = hook(program, feed)
    if feed:
        from paddle_compat.engine.ops.sequence import expand_lod_feed

        feed = expand_lod_feed(program, feed)
    return feed


# Registration hooks: the layers above the static engine plug their runners in here when they are imported
# (the engine never imports them; paddle_compat._export.load_all imports every package).
PSERVER_RUNNER: list[Callable[..., Any]] = []  # fluid pserver-mode programs (engine/parallel/pserver.py)
CLOSE_HOOKS: list[Callable[[], None]] = []  # exe.close(): tell the parameter servers (engine/parallel/collective.py)
DATASET_RUNNER: list[Callable[..., Any]] = []  # train_from_dataset (paddle2/distributed/fleet_dataset.py)


class Executor:
    def __init__(self, place: Any = None) -> None:
        static_entry_point()
        self.place = to_place(place) if place is not None else get_device_place()
        self._closed = False

    def close(self) -> None:
        """Paddle: a trainer's exe.close() tells the parameter servers it is done."""
        if not self._closed:
            for hook in CLOSE_HOOKS:
                hook()
        self._closed = True

    def flush(self) -> None:
        pass

    def _plan(self, program: Program, feed_names: list[str], fetches: list[str], transform=None,
              token: Any = None, make_transform: Callable[[], Any] | None = None) -> Plan:
        """The cached plan of (program version, feeds, fetches, place, token); built on a miss with
        `transform` (or the one `make_transform()` returns: callers on the per-run path build it only then)."""
        key = (tuple(feed_names), tuple(fetches), self.place, token, nan_inf.ENABLED[0], bool(PROFILE_HOOKS))
        plan = program._exec_cache.get(key)
        if plan is None:
            if make_transform is not None:
                transform = make_transform()
            start = fx_sources.mark()
            plan = Plan(program, feed_names, fetches, self.place, transform)
            fx_sources.release_with(plan, start)  # torch.fx keeps every generated source otherwise
            program._exec_cache[key] = plan
        return plan

    def run(self, program: Any = None, feed: Any = None, fetch_list: Any = None, feed_var_name: str = "feed",
            fetch_var_name: str = "fetch", scope: Scope | None = None, return_numpy: bool = True,
            use_program_cache: bool = False, return_merged: bool = True, use_prune: bool = False) -> list:
        if self._closed:
            raise RuntimeError("Attempted to use a closed Executor")
        from paddle_compat.engine.static.compiler import CompiledProgram

        if program is None:
            program = default_main_program()
        if isinstance(program, CompiledProgram):
            return program._run(self, feed, fetch_list, scope, return_numpy, return_merged)
        if not isinstance(program, Program):
            raise TypeError(
                f"Executor.run: program should be a Program or CompiledProgram, but received {type(program).__name__}"
            )
        if "_ps_trainer" in program.__dict__ or "_ps_server" in program.__dict__:  # fluid pserver mode
            return PSERVER_RUNNER[0](self, program, feed, fetch_list, scope, return_numpy)
        scope = scope if scope is not None else global_scope()
        feed = prepare_feed(program, feed)
        _update_lr(program, scope)
        fetches = fetch_names(fetch_list)
        if not return_numpy:
            return self._run_keeping_lod(program, scope, feed, fetches)
        return self._plan(program, sorted(feed), fetches,
                          make_transform=lambda: plain_transform(program, feed, fetches)).run(scope, feed, True)

    def _run_keeping_lod(self, program: Program, scope: Scope, feed: dict, fetches: list[str]) -> list:
        """return_numpy=False: fetched LoDTensors carry the LoD Paddle would give them - the fed LoD of the data
        variable they derive from, or the offsets a sequence op produced (fetched alongside) - where the row
        counts agree."""
        key = ("lod_sources", tuple(sorted(feed)), tuple(fetches))  # the cache is cleared when the program changes
        cached = program._exec_cache.get(key)
        if cached is None:
            from paddle_compat.engine.ops.sequence import fetch_lod_source

            block = program.global_block()
            sources = [fetch_lod_source(block, f) for f in fetches]
            extra: list[str] = []
            for s in sources:
                if s is not None and s[0] == "var":
                    lv = s[1]
                    usable = lv.node.op != "placeholder" or lv.name in feed
                    if usable and lv.name not in fetches and lv.name not in extra:
                        extra.append(lv.name)
            cached = program._exec_cache[key] = (sources, extra)
        sources, extra = cached
        outs = self._plan(program, sorted(feed), fetches + extra,
                          make_transform=lambda: plain_transform(program, feed, fetches + extra)).run(scope, feed, False)
        values = dict(zip(fetches + extra, outs))
        for out, s in zip(outs, sources):
            if s is None or not isinstance(out, LoDTensor) or out.lod() or not out.shape():
                continue
            if s[0] == "feed":
                fed = feed.get(s[1])
                lod = fed.lod() if isinstance(fed, LoDTensor) else None
                lod = lod[:len(lod) - s[2]] if lod else None
            else:
                offs = values.get(s[1].name)
                lod = [np.array(offs).astype(np.int64).reshape(-1).tolist()] if offs is not None else None
            if lod and lod[-1] and lod[-1][-1] == out.shape()[0]:
                out.set_lod(lod)
        return outs[:len(fetches)]

    # fluid.dataset training: one run per batch of the dataset (paddle_compat/paddle2/distributed/fleet_dataset.py).
    def train_from_dataset(self, program: Any = None, dataset: Any = None, scope: Any = None, thread: int = 0,
                           debug: bool = False, fetch_list: Any = None, fetch_info: Any = None,
                           print_period: int = 100, fetch_handler: Any = None) -> None:
        return DATASET_RUNNER[0](self, program, dataset, scope, thread, debug, fetch_list, fetch_info, print_period,
                                fetch_handler)

    infer_from_dataset = train_from_dataset


def plain_transform(program: Program, feed_names: Any, fetches: list[str]) -> Callable[[fx.GraphModule], fx.GraphModule]:
    """A plain Program's plan gets four rewrites that change no bit of what a run returns or writes back:
    - the optimizer's per-parameter updates as one multi-tensor update per optimizer and settings, for groups of
      PLAIN_MIN_FUSED_UPDATES or more (engine/passes/fuse_all_optimizer_ops.py: the same kernels per tensor; a
      model's ~150 momentum ops cost twice torch's whole optimizer step in per-op Python);
    - in an inference plan, linear projections of one input as one GEMM with each projection's bits
      (engine/passes/fuse_multi_linear.py: a transformer's q / k / v);
    - in an inference plan, save_inference_model's `scale(., 1.0)` of a fetch target folded into the bias add before it
      (engine/passes/fold_fetch_scale.py: the same bits, one pass over the logits fewer);
    - BuildStrategy's default `enable_inplace` rewrite (engine/passes/enable_inplace.py): an elementwise op whose
      first input dies with it writes into that input's buffer (feeds, fetch targets and persistables are never
      reused), which saves the fresh buffers' page faults: on a large activation about what the add costs.
    PADDLE_COMPAT_PLAIN_PASSES=0 turns them off; a plan built while fluid.profiler profiles or FLAGS_check_nan_inf
    is on has none of them: their reports name the program's own ops, as Paddle's do (the plan cache is keyed by both)."""
    from paddle_compat.engine.passes import PassContext
    from paddle_compat.engine.passes.enable_inplace import rewrite
    from paddle_compat.engine.passes.fold_fetch_scale import fold_fetch_scale
    from paddle_compat.engine.passes.fuse_all_optimizer_ops import fuse_all_optimizer_ops
    from paddle_compat.engine.passes.fuse_multi_linear import fuse_multi_linear

    protected = set(feed_names) | set(fetches) | {v.name for v in program.list_vars() if v.persistable}

    def transform(gm: fx.GraphModule) -> fx.GraphModule:
        if not PLAIN_PASSES[0] or PROFILE_HOOKS or nan_inf.ENABLED[0]:  # they report the program's own ops
            return gm
        ctx = PassContext(protected=protected, program=program, min_fused_updates=PLAIN_MIN_FUSED_UPDATES)
        gm = fuse_all_optimizer_ops(gm, ctx).gm
        gm = fuse_multi_linear(gm, protected, program)
        gm = fold_fetch_scale(gm, protected)
        return rewrite(gm, protected)

    return transform


PLAIN_PASSES = [os.environ.get("PADDLE_COMPAT_PLAIN_PASSES", "1") != "0"]
# a plain plan fuses a group of updates from this many on: below it the per-op updates cost less than the
# multi-tensor call's set-up (a 2-parameter fc program's step is some 100 us)
PLAIN_MIN_FUSED_UPDATES = 16


def _update_lr(program: Program, scope: Scope) -> None:
    sched = program.lr_sheduler
    if sched is None:
        return
    var = program.global_block().vars.get(getattr(sched, "_var_name", ""))
    if var is None:
        return
    t = scope._get(var.name)
    value = float(sched())
    if t is None:
        scope._set(var.name, torch.tensor([value], dtype=var.dtype.torch))
    else:
        t.fill_(value)
