"""The batching transform (``vmap``): typed normal form of one sample → typed normal form of a batch.

``vmap(f)`` specializes ``f`` for one sample (each batched argument without its batch axis) and then
rewrites the IR so that every value that depends on a batched input carries the batch as its leading
axis, statement by statement, through the op's batching rule (``batching_rules``). Values that depend
on no batched input stay as they are (the weights of a network are never copied per sample). The
result is one kernel over the whole batch, never a Python loop over the samples:

* the entry's batched inputs enter at their ``in_axes`` and are moved to the front once; its results
  leave at their ``out_axes`` (an unbatched result with an axis is broadcast over the batch);
* a call of another function calls a batched copy of it, made once per pattern of batched arguments;
* an ``if`` whose condition is the same for every sample stays an ``if``; one whose condition differs
  per sample runs both branches and selects each sample's result (``where``), so a side effect in
  either branch is an error at its line;
* a loop whose trip count is the same for every sample stays the loop; a ``while`` whose condition
  differs per sample runs until every sample is done, each sample's carried values frozen (masked)
  from the iteration its condition turned false on.

Which values are batched is decided first (:func:`batched_vars`, a fixpoint over loops), so each
statement is rewritten once.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..opdef import OpShapeError, OpTypeError
from . import ir
from .batching_rules import BATCHING_RULES, NoBatchingRule
from .builder import BlockBuilder, NameSupply
from .cachekey import resolve_path
from .errors import located


@dataclass(frozen=True)
class BatchRequest:
    """One ``vmap`` level: the batch axis of each tensor input leaf of the entry (None: not batched,
    else non-negative), the user's ``out_axes`` (an int, None, or a tuple/list matching the
    results) and the batch size."""

    in_axes: tuple
    out_axes: object
    size: int
    ensemble: tuple = ()      # the other cells of a CellList whose first cell is the target


class StackedArrays:
    """The same Parameter of every cell of an ensemble, stacked along a new leading axis at each call
    (the kernel reads captured objects' ``_array``), so updates of the cells' Parameters are seen."""

    def __init__(self, objects: list):
        self.objects = objects

    @property
    def _array(self) -> np.ndarray:
        return np.stack([obj._array for obj in self.objects])


def ensemble_captures(request: BatchRequest, captured: list, paths: list) -> tuple:
    """``(captured, their batch axes)`` of a model ensemble: each Parameter of the first cell with the same
    Parameter of the others, stacked (axis 0); a value that is not a cell's attribute is shared (None)."""
    if not request.ensemble:
        return list(captured), (None,) * len(captured)
    new: list = []
    axes: list = []
    for obj, path in zip(captured, paths):
        if path is None or path[0] != "self":
            new.append(obj)
            axes.append(None)
            continue
        where = ".".join(str(key) for key in path[1] if not str(key).startswith("_"))   # no _params, _cells
        try:
            others = [resolve_path(path, cell) for cell in request.ensemble[1:]]
        except (AttributeError, KeyError, IndexError, TypeError):
            raise VmapError("The cells of the CellList given to vmap must have the same structure, but "
                            f"{where} is missing from one of them.") from None
        if any(tuple(o._array.shape) != tuple(obj._array.shape) for o in others):
            raise VmapError("The cells of the CellList given to vmap must have the same structure, but "
                            f"{where} differs in shape between them.")
        new.append(StackedArrays([obj, *others]))
        axes.append(0)
    return new, tuple(axes)


class VmapError(RuntimeError):
    """A vmap that cannot be compiled (MindSpore raises RuntimeError for these)."""


def batch_module(module: ir.Module, output_node: tuple, request: BatchRequest, captured_axes: tuple = (),
                 names: NameSupply | None = None) -> ir.Module:
    """``module`` with a new entry that computes the old entry over a batch (see the module doc);
    ``captured_axes``: the batch axis of each captured input (a model ensemble's stacked Parameters);
    ``names``: the supply of the module's function names (a fresh one by default)."""
    batcher = ModuleBatcher(module, request.size, names)
    entry = module.functions[module.entry]
    inputs = len(entry.params) - len(captured_axes)
    axes = tuple(request.in_axes) + (None,) * (inputs - len(request.in_axes)) + tuple(captured_axes)
    name = batcher.function_name(entry.name)
    function = FunctionBatcher(batcher, entry).batch_entry(name, axes, result_axes(output_node, request.out_axes,
                                                                                 len(entry.body.results)))
    batcher.functions[name] = function
    return ir.Module({**module.functions, **batcher.functions}, name, dict(module.header))


# ----------------------------------------------------------------------------------- out_axes


def result_axes(node: tuple, out_axes, n_results: int) -> list:
    """The out axis of each result of the entry, from the user's ``out_axes`` and the output tree."""
    axes: list = [None] * n_results
    if not isinstance(out_axes, (tuple, list)):
        _assign(node, out_axes, axes)
        return axes
    kind = node[0]
    children = node[-1] if kind in ("tuple", "list", "dict") else (node,)
    if len(children) != len(out_axes):
        raise VmapError(f"The size of vmap's 'out_axes' should be equal to the result size: {len(children)}, "
                        f"but got size: {len(out_axes)}.")
    for child, axis in zip(children, out_axes):
        if isinstance(axis, (tuple, list)):
            nested = result_axes(child, axis, n_results)
            for i, value in enumerate(nested):
                if value is not None:
                    axes[i] = value
        else:
            _assign(child, axis, axes)
    return axes


def _assign(node: tuple, axis, axes: list) -> None:
    kind = node[0]
    if kind == "leaf":
        axes[node[1]] = axis
    elif kind in ("tuple", "list", "dict"):
        for child in node[-1]:
            _assign(child, axis, axes)


# ----------------------------------------------------------------------------------- which values are batched


def batched_vars(block: ir.Block, batched: set) -> set:
    """The Vars of ``block`` (and its nested blocks) that depend on a Var of ``batched``; adds them to
    ``batched`` and returns it. A loop's carried value is batched if its initial or next value is."""
    for stmt in block.stmts:
        if isinstance(stmt, (ir.Apply, ir.Call, ir.Effect)):
            if any(a in batched for a in stmt.args if isinstance(a, ir.Var)):
                batched.update(stmt.targets)
        elif isinstance(stmt, ir.If):
            batched_vars(stmt.then_block, batched)
            batched_vars(stmt.else_block, batched)
            every = stmt.cond in batched
            batched.update(o for o, t, e in zip(stmt.outputs, stmt.then_block.results, stmt.else_block.results)
                           if every or t in batched or e in batched)
        elif isinstance(stmt, (ir.ForRange, ir.While)):
            flags = loop_flags(stmt, batched)
            batched.update(o for o, f in zip(stmt.outputs, flags) if f)
        elif isinstance(stmt, ir.TapePush):
            if any(v in batched for v in stmt.values if isinstance(v, ir.Var)):
                batched.add(stmt.tape)
        elif isinstance(stmt, ir.TapePop) and stmt.tape in batched:
            batched.update(stmt.targets)
    return batched


def loop_flags(loop, batched: set) -> list:
    """Whether each carried value of a loop is batched: a fixpoint over its body (and condition: a
    ``while`` whose condition is batched carries every value batched)."""
    flags = [isinstance(c, ir.Var) and c in batched for c in loop.carried]
    blocks = (loop.cond, loop.body) if isinstance(loop, ir.While) else (loop.body,)
    while True:
        batched.update(p for p, f in zip(loop.body_params, flags) if f)
        for block in blocks:
            batched_vars(block, batched)
        if isinstance(loop, ir.While) and loop.cond.results[0] in batched:
            new = [True] * len(flags)
        else:
            new = [f or r in batched for f, r in zip(flags, loop.body.results)]
        if new == flags:
            return flags
        flags = new


# ----------------------------------------------------------------------------------- the rewrite


class ModuleBatcher:
    """The batched copies of a module's functions, one per (function, batched parameters)."""

    def __init__(self, module: ir.Module, size: int, names: NameSupply | None = None):
        self.module = module
        self.size = size
        self.functions: dict = {}
        self._copies: dict = {}
        self._names = names if names is not None else NameSupply(module.functions)

    def function_name(self, name: str) -> str:
        return self._names.fresh(f"{name}_vmap")

    def batched_callee(self, name: str, flags: tuple) -> tuple:
        """``(name, result flags)`` of the copy of function ``name`` taking the params ``flags`` marks batched."""
        key = (name, flags)
        if key not in self._copies:
            new_name = self.function_name(name)
            function, result_flags = FunctionBatcher(self, self.module.functions[name]).batch_callee(new_name, flags)
            self.functions[new_name] = function
            self._copies[key] = (new_name, result_flags)
        return self._copies[key]


def _batched_aval(aval, size: int, axis: int = 0):
    shape = list(aval.shape)
    shape.insert(axis, size)
    return type(aval)(tuple(shape), aval.dtype)


class FunctionBatcher:
    """Rewrites one function; batching rules call :meth:`apply`, :meth:`emit`, :meth:`align` and
    :meth:`broadcast` on it."""

    def __init__(self, owner: ModuleBatcher, function: ir.Function):
        self.owner = owner
        self.function = function
        self.size = owner.size
        self.names = NameSupply()
        self.env: dict = {}           # old Var -> (new atom, batched)
        self.builder = BlockBuilder(self.names)
        self.loc: ir.Loc = function.loc if function.loc is not None else ir.Loc(function.name, 0)
        self.masked: str | None = None   # why effects are refused here (both branches run, a masked loop)
        self.region = None               # under per-sample ifs: which samples take the branch (a bool batch)
        self.batched: set = set()

    # --- entry points

    def batch_entry(self, name: str, axes: tuple, out_axes: list) -> ir.Function:
        """The entry function: batched params arrive with the batch at ``axes``; results leave at ``out_axes``."""
        params = []
        for param, axis in zip(self.function.params, axes):
            if axis is None:
                new = self._copy(param)
                self.env[param] = (new, False)
            else:
                new = ir.Var(self.names.fresh(param.name), _batched_aval(param.aval, self.size, axis))
                front = new
                if axis != 0:
                    order = (axis, *(i for i in range(len(param.aval.shape) + 1) if i != axis))
                    front = self.apply("transpose", [new], {"axes": order}, param.name)
                self.env[param] = (front, True)
                self.batched.add(param)
            params.append(new)
        batched_vars(self.function.body, self.batched)
        self.block(self.function.body)
        results = []
        for atom, axis in zip(self.function.body.results, out_axes):
            value, flag = self.read(atom)
            results.append(self._place_result(value, flag, axis, atom))
        self.builder.block.results = tuple(results)
        return self._function(name, params)

    def batch_callee(self, name: str, flags: tuple) -> tuple:
        params = []
        for param, flag in zip(self.function.params, flags):
            new = ir.Var(self.names.fresh(param.name), _batched_aval(param.aval, self.size) if flag else param.aval)
            self.env[param] = (new, flag)
            if flag:
                self.batched.add(param)
            params.append(new)
        batched_vars(self.function.body, self.batched)
        self.block(self.function.body)
        read = [self.read(atom) for atom in self.function.body.results]
        self.builder.block.results = tuple(atom for atom, _ in read)
        return self._function(name, params), tuple(flag for _, flag in read)

    def _function(self, name: str, params: list) -> ir.Function:
        old = self.function
        return ir.Function(name, tuple(params), self.builder.block, old.source, old.loc, old.param_names,
                           old.output_tree)

    def _place_result(self, value, batched: bool, axis, old):
        rank = len(old.aval.shape) if isinstance(old, ir.Var) else np.ndim(old.value)
        if axis is None:
            if batched:
                raise VmapError("It is invalid that source is not None and dst is None.")
            return value
        if not -(rank + 1) <= axis < rank + 1:
            raise VmapError(f"The axis: {axis} in 'out_axes' is out of bounds for array of dimension "
                            f"[{-(rank + 1)},{rank + 1}).")
        if not batched:
            value = self.broadcast(value)
        axis %= rank + 1
        if axis == 0:
            return value
        order = (*range(1, axis + 1), 0, *range(axis + 1, rank + 1))
        return self.apply("transpose", [value], {"axes": order}, getattr(old, "name", "result"))

    # --- what rules call

    def apply(self, op: str, args, static, hint: str):
        try:
            return self.builder.apply(op, args, static, loc=self.loc, hint=hint)
        except (OpShapeError, OpTypeError) as error:
            raise located(error, self.loc)

    def emit(self, stmt: ir.Apply, operands, static, *, all_batched: bool) -> list:
        """``stmt``'s op on new operands and attributes; each result batched if ``all_batched``."""
        result = self.apply(stmt.op, operands, static, stmt.targets[0].name)
        results = result if isinstance(result, tuple) else (result,)
        return [(r, all_batched) for r in results]

    def align(self, atom, ndim: int, rank: int):
        """A batched value of per-sample rank ``ndim`` with size-1 axes after the batch axis up to ``rank``."""
        if rank <= ndim:
            return atom
        shape = atom.aval.shape
        return self.apply("reshape", [atom], {"shape": (shape[0], *(1,) * (rank - ndim), *shape[1:])},
                          atom.name)

    def broadcast(self, atom):
        """An unbatched value repeated over the batch (a broadcast view)."""
        shape = atom.aval.shape if isinstance(atom, ir.Var) else np.shape(atom.value)
        return self.apply("broadcast_to", [atom], {"shape": (self.size, *shape)}, getattr(atom, "name", "value"))

    # --- statements

    def read(self, atom):
        if isinstance(atom, ir.Var):
            return self.env[atom]
        return atom, False

    def read_all(self, atoms) -> tuple:
        """``(new atoms, whether each is batched)`` of the atoms a statement reads."""
        read = [self.read(a) for a in atoms]
        return tuple(atom for atom, _ in read), tuple(flag for _, flag in read)

    def _copy(self, var: ir.Var, batched: bool = False) -> ir.Var:
        aval = _batched_aval(var.aval, self.size) if batched and var.aval is not None else var.aval
        return ir.Var(self.names.fresh(var.name), aval)

    def _bind_copies(self, old_vars, flags=None) -> tuple:
        new = []
        for i, var in enumerate(old_vars):
            flag = bool(flags[i]) if flags is not None else False
            copy = self._copy(var, flag)
            self.env[var] = (copy, flag)
            new.append(copy)
        return tuple(new)

    def block(self, block: ir.Block) -> None:
        for stmt in block.stmts:
            self.loc = stmt.loc
            getattr(self, "_" + type(stmt).__name__)(stmt)

    @contextmanager
    def sub_block(self):
        """Statements emitted inside go to a new block (a branch, a loop body), yielded."""
        saved = self.builder
        self.builder = BlockBuilder(self.names)
        try:
            yield self.builder.block
        finally:
            self.builder = saved

    def _Apply(self, stmt: ir.Apply) -> None:
        args, flags = self.read_all(stmt.args)
        if not any(flags):
            targets = self._bind_copies(stmt.targets)
            self.builder.append(ir.Apply(targets, stmt.op, args, dict(stmt.static), stmt.loc))
            return
        rule = BATCHING_RULES.get(stmt.op)
        if rule is None:
            raise located(VmapError(f"vmap: the op '{stmt.op}' has no batching rule"), stmt.loc)
        try:
            results = rule(self, stmt, args, flags)
        except NoBatchingRule as error:
            raise located(VmapError(f"vmap: no batching rule for {error}"), stmt.loc)
        for target, result in zip(stmt.targets, results):
            self.env[target] = result

    def _Call(self, stmt: ir.Call) -> None:
        args, flags = self.read_all(stmt.args)
        if not any(flags):
            targets = self._bind_copies(stmt.targets)
            self.builder.append(ir.Call(targets, stmt.callee, args, stmt.loc))
            return
        callee, result_flags = self.owner.batched_callee(stmt.callee, flags)
        targets = self._bind_copies(stmt.targets, result_flags)
        self.builder.append(ir.Call(targets, callee, args, stmt.loc))

    def _Effect(self, stmt: ir.Effect) -> None:
        args, flags = self.read_all(stmt.args)
        if self.masked is not None and stmt.kind != "release":
            raise located(VmapError(f"vmap cannot batch a side effect ({stmt.kind}) in {self.masked}"), stmt.loc)
        if any(flags) and stmt.kind not in ("print", "print_tree"):
            what = "a write of a batched value into a Parameter" if stmt.kind == "assign" else \
                f"a {stmt.kind} of a batched value"
            raise located(VmapError(f"vmap cannot batch {what}"), stmt.loc)
        targets = self._bind_copies(stmt.targets)
        self.builder.append(ir.Effect(stmt.kind, args, stmt.loc, targets))

    def _If(self, stmt: ir.If) -> None:
        cond, cond_batched = self.read(stmt.cond)
        if cond_batched:
            self._select(stmt, cond)
            return
        flags = [o in self.batched for o in stmt.outputs]
        blocks = []
        for branch in (stmt.then_block, stmt.else_block):
            with self.sub_block() as block:
                self.block(branch)
                block.results = tuple(self._as(self.read(r), f) for r, f in zip(branch.results, flags))
            blocks.append(block)
        outputs = self._bind_copies(stmt.outputs, flags)
        self.builder.append(ir.If(cond, blocks[0], blocks[1], outputs, stmt.loc))

    def _select(self, stmt: ir.If, cond) -> None:
        """An ``if`` whose condition differs per sample: both branches, then each sample's result.
        Each branch is a region of the samples that take it (a ``while`` there runs for those only)."""
        saved = self.masked, self.region
        self.masked = "a tensor `if` whose condition differs per sample"
        taken = cond if self.region is None else self.apply("logical_and", [self.region, cond], {}, "taken")
        skipped = self.apply("logical_not", [cond], {}, "skipped")
        if self.region is not None:
            skipped = self.apply("logical_and", [self.region, skipped], {}, "skipped")
        try:
            self.region = taken
            self.block(stmt.then_block)
            then_results = [self.read(r) for r in stmt.then_block.results]
            self.region = skipped
            self.block(stmt.else_block)
            else_results = [self.read(r) for r in stmt.else_block.results]
        finally:
            self.masked, self.region = saved
        self.loc = stmt.loc
        for output, (t, _), (e, _) in zip(stmt.outputs, then_results, else_results):
            mask = self.align(cond, 0, len(output.aval.shape))
            self.env[output] = (self.apply("where", [mask, t, e], {}, output.name), True)

    def _as(self, read: tuple, batched: bool):
        atom, flag = read
        return self.broadcast(atom) if batched and not flag else atom

    def _ForRange(self, stmt: ir.ForRange) -> None:
        bounds = [self.read(a) for a in (stmt.start, stmt.stop, stmt.step)]
        if any(flag for _, flag in bounds):
            raise located(VmapError("vmap cannot batch a for loop whose range differs per sample"), stmt.loc)
        flags = [p in self.batched for p in stmt.body_params]
        carried = tuple(self._as(self.read(c), f) for c, f in zip(stmt.carried, flags))
        index = self._bind_copies((stmt.index,))[0]
        params = self._bind_copies(stmt.body_params, flags)
        with self.sub_block() as body:
            self.block(stmt.body)
            body.results = tuple(self._as(self.read(r), f) for r, f in zip(stmt.body.results, flags))
        outputs = self._bind_copies(stmt.outputs, flags)
        (start, _), (stop, _), (step, _) = bounds
        self.builder.append(ir.ForRange(index, start, stop, step, carried, params, body, outputs, stmt.loc))

    def _While(self, stmt: ir.While) -> None:
        flags = [p in self.batched for p in stmt.body_params]
        if stmt.cond.results[0] in self.batched or self.region is not None:
            self._masked_while(stmt)
            return
        carried = tuple(self._as(self.read(c), f) for c, f in zip(stmt.carried, flags))
        params = self._bind_copies(stmt.body_params, flags)
        with self.sub_block() as cond:
            self.block(stmt.cond)
            cond.results = (self.read(stmt.cond.results[0])[0],)
        with self.sub_block() as body:
            self.block(stmt.body)
            body.results = tuple(self._as(self.read(r), f) for r, f in zip(stmt.body.results, flags))
        outputs = self._bind_copies(stmt.outputs, flags)
        self.builder.append(ir.While(carried, params, cond, body, outputs, stmt.loc))

    def _masked_while(self, stmt: ir.While) -> None:
        """A ``while`` whose condition differs per sample (or under a per-sample ``if``): it runs while
        any sample is active; a sample's carried values stop changing on the iteration its condition
        turns false (a sample that does not take the enclosing branch is never active)."""
        carried = [self._as(self.read(c), True) for c in stmt.carried]
        for param, value in zip(stmt.body_params, carried):
            self.env[param] = (value, True)
        saved, self.masked = self.masked, "a tensor `while` whose trip count differs per sample"
        try:
            self.block(stmt.cond)     # which samples run the first iteration
            first = self.read(stmt.cond.results[0])[0]
            if self.region is not None:
                first = self.apply("logical_and", [self.region, first], {}, "active")
            params = self._bind_copies(stmt.body_params, [True] * len(stmt.body_params))
            active = ir.Var(self.names.fresh("active"), first.aval)
            with self.sub_block() as cond:
                cond.results = (self.apply("any", [active], {}, "any_active"),)
            with self.sub_block() as body:
                self.block(stmt.body)
                chosen = []
                for param, result in zip(params, stmt.body.results):
                    new = self._as(self.read(result), True)
                    mask = self.align(active, 0, len(param.aval.shape) - 1)
                    chosen.append(self.apply("where", [mask, new, param], {}, param.name))
                for param, value in zip(stmt.body_params, chosen):
                    self.env[param] = (value, True)
                self.block(stmt.cond)
                still = self.apply("logical_and", [active, self.read(stmt.cond.results[0])[0]], {}, "active")
                body.results = (*chosen, still)
        finally:
            self.masked = saved
        outputs = self._bind_copies(stmt.outputs, [True] * len(stmt.outputs))
        done = ir.Var(self.names.fresh("active"), first.aval)
        self.builder.append(ir.While((*carried, first), (*params, active), cond, body, (*outputs, done), stmt.loc))

    def _TapeNew(self, stmt: ir.TapeNew) -> None:
        self._bind_copies((stmt.target,))
        self.builder.append(ir.TapeNew(self.read(stmt.target)[0], stmt.loc))

    def _TapePush(self, stmt: ir.TapePush) -> None:
        if self.masked is not None:
            raise located(VmapError(f"vmap cannot batch the gradient of {self.masked}"), stmt.loc)
        batched = stmt.tape in self.batched
        values = tuple(self._as(self.read(v), batched) for v in stmt.values)
        self.builder.append(ir.TapePush(self.read(stmt.tape)[0], values, stmt.loc))

    def _TapePop(self, stmt: ir.TapePop) -> None:
        targets = self._bind_copies(stmt.targets, [stmt.tape in self.batched] * len(stmt.targets))
        self.builder.append(ir.TapePop(targets, self.read(stmt.tape)[0], stmt.loc))
