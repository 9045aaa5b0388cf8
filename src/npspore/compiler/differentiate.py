"""Reverse-mode differentiation of the typed normal form (compiler stage 4).

``differentiate(module, wrt, seeds)`` maps a module whose entry computes ``results = f(params)`` to a
module whose entry computes ``(results..., d_params[wrt]...)``: the forward values and one cotangent
per requested parameter. The output is ordinary normal form again, so running this stage on its own
output gives higher-order derivatives.

## The transform

For every assignment ``out = op(x, y)`` the backward sweep adds ``d_x, d_y += adjoint(x, y, out,
d_out)``, in reverse program order, where ``adjoint`` is the op's runnable NumPy rule from
``codegen_templates``. The rule is *staged* (``trace.stage_rule``): called on tracers, it appends
ordinary ``Apply`` statements, so the backward sweep is built from the same ops as user code.

* **Activity.** Only *active* values get adjoints: values that depend on a ``wrt`` parameter through
  differentiable operands (``varied``) and that reach a seeded result (``useful``). Asking for one
  input's gradient never computes another's: after a rule is staged, statements that only feed
  inactive operands' cotangents are dropped.
* **Symbolic zeros.** A value with no cotangent yet is simply absent from the adjoint map. Zeros are
  materialised only where a value is needed: a ``wrt`` parameter that received nothing, the branch of an
  ``If`` or the body of a loop that contributes nothing to a cotangent the other path defines, and
  the missing outputs of a multi-output op whose rule reads them (unless the op takes ``None`` for
  them: ``OpDef.absent_cotangent_is_none``).
* **Unbroadcasting.** Rules may return cotangents of the broadcast (output) shape. Shapes are known,
  so the sweep sums over the fixed broadcast axes and reshapes, or adds nothing when shapes agree.
* **Accumulation.** A value used several times gets ``d_x = d_x + contribution`` for each extra use.
* **Seeds.** ``"ones"``: every result gets an all-ones cotangent (MindSpore sums a tuple output's
  contributions); ``"first"``: only ``results[0]`` (``has_aux``); a tuple of result positions: only
  those; ``"given"``: the entry takes one extra parameter per result, its sensitivity (``sens_param``).
  Seeds and zeros of a static shape are ``ones``/``zeros`` ops, so the value they stand for need not be
  computed (a gradient alone never computes the forward result it is seeded at).
* **Results.** Integer parameters get their cotangent cast to their dtype, as MindSpore does.

## Calls

``targets = callee(args)`` with active arguments turns into a pair of functions per (callee, activity
pattern) — twelve identical layers share one pair:

* ``<callee>_fwd(params) -> (results..., residuals...)`` runs the callee and returns the values its
  backward sweep reads (only those: what the staged rules read, found as free variables);
* ``<callee>_bwd(residuals..., d_results...) -> d_params`` for the active parameters.

When the callee's forward sweep already returns everything its backward reads (its results and
parameters), the primal callee itself is called instead of a ``_fwd`` copy. When the backward reads a
tape (the callee has a tensor-dependent loop), ``_bwd`` runs the callee's forward sweep itself and the
caller calls the primal callee: tapes never cross functions.

## Control flow

* ``If``: the backward sweep is an ``If`` on the same condition (a Var of the forward sweep), whose
  branches are the branches' backward sweeps. Forward values a backward branch reads are exported as
  extra outputs of the forward ``If`` (the other branch yields ``None`` for them). Cotangents of
  outer values are threaded through the backward ``If`` as its outputs.
* ``ForRange`` / ``While``: loops stay loops. The forward loop pushes each iteration's residuals onto
  a tape (``ir.TapeNew``, ``ir.TapePush``: a Python list); the backward loop runs the same number
  of iterations (a ``While`` counts them) and pops them (``ir.TapePop``), so it visits iterations in
  reverse. Cotangents of carried values are carried; cotangents of loop-invariant outer values are
  accumulated in extra carried values.
* Tapes are differentiable themselves (the adjoint of a pop pushes onto an adjoint tape that the
  adjoint of the matching push pops), so loops work at higher orders too.

Effects stay in the forward sweep: ``print`` prints once; ``assign`` has no derivative.
Every backward statement carries the ``Loc`` of the forward statement it comes from, and adjoints
are named ``d_<name>``.
"""
from __future__ import annotations

import ast
import copy
import inspect
from dataclasses import dataclass

import numpy as np

from ..opdef import Aval, op_table
from .builder import BlockBuilder, NameSupply
from .fitshape import fit_shape
from . import complexadjoint, hostadjoint, ir
from .recompute import recompute_outputs
from .ir import (Apply, Block, Call, Const, ForRange, Function, If, Loc, Module, TapeNew, TapePop, TapePush,
                 Var, While)
from .trace import stage_rule

__all__ = ["differentiate", "function_names", "TAPE_AVAL"]

SEED_MODES = ("ones", "first", "given")

TAPE_AVAL = Aval((), np.dtype(object))
"""The aval of a tape variable (a Python list of per-iteration residual tuples)."""

_INDEX_AVAL = Aval((), np.dtype(np.int64))


# ---------------------------------------------------------------------------------------- IR helpers


def _block_bound(stmt) -> tuple:
    """Vars a statement binds inside its nested blocks (loop indices and parameters)."""
    if isinstance(stmt, ForRange):
        return (stmt.index, *stmt.body_params)
    if isinstance(stmt, While):
        return stmt.body_params
    return ()


def _all_defined(block: Block) -> set:
    """Every Var bound anywhere in a block, nested blocks included."""
    found: set = set()
    for stmt in block.stmts:
        found.update(ir.defined_vars(stmt))
        found.update(_block_bound(stmt))
        for inner in ir.nested_blocks(stmt):
            found |= _all_defined(inner)
    return found


def _free_vars(block: Block, exclude=()) -> list:
    """The Vars a block reads but does not bind (in first-use order)."""
    used: dict = {}

    def visit(b):
        for stmt in b.stmts:
            for atom in ir.used_atoms(stmt):
                if isinstance(atom, Var):
                    used.setdefault(atom)
            for inner in ir.nested_blocks(stmt):
                visit(inner)
        for atom in b.results:
            if isinstance(atom, Var):
                used.setdefault(atom)

    visit(block)
    bound = _all_defined(block) | set(exclude)
    return [v for v in used if v not in bound]


def function_names(fn: Function) -> NameSupply:
    """A name supply that knows every name already used in a function."""
    taken = {v.name for v in fn.params} | {v.name for v in _all_defined(fn.body)}
    return NameSupply(taken)


# ---------------------------------------------------------------------------------------- op facts

_NONDIFF_CACHE: dict = {}


def _nondifferentiable_operands(definition) -> frozenset:
    """Operand positions for which the op's adjoint always returns ``None``."""
    cached = _NONDIFF_CACHE.get(definition.name)
    if cached is not None:
        return cached
    n = len(definition.operands)
    if definition.adjoint is None:
        result = frozenset(range(n))
    else:
        common: set | None = None
        for node in ast.walk(definition.adjoint_ast()):
            if not isinstance(node, ast.Return) or node.value is None:
                continue
            value = node.value
            elems = value.elts if isinstance(value, ast.Tuple) and n != 1 else [value]
            here = {i for i, e in enumerate(elems) if isinstance(e, ast.Constant) and e.value is None}
            common = here if common is None else common & here
        result = frozenset(common or ())
    _NONDIFF_CACHE[definition.name] = result
    return result


def _keyword_out_dout(definition) -> bool:
    """Whether the adjoint takes ``*operands`` and so needs ``out``/``dout`` by keyword."""
    params = inspect.signature(definition.adjoint).parameters.values()
    return any(p.kind is p.VAR_POSITIONAL for p in params)


# ---------------------------------------------------------------------------------------- activity


class _Activity:
    """Which values of one function need adjoints: varied (depend on a source) and useful.

    ``deps[v]`` is the set of source ids ``v`` depends on through differentiable operands; tapes are
    tracked per position. ``useful`` holds the values whose cotangent reaches a seeded result.
    """

    def __init__(self, summaries, fn: Function | None = None, wrt=()):
        self.summaries = summaries
        self.deps: dict = {}
        self.useful: set = set()
        if fn is not None:   # the values of fn that depend on its params at positions wrt: varied
            self.deps.update((fn.params[j], frozenset((j,))) for j in wrt)
            self.propagate(fn.body)

    def dep(self, atom) -> frozenset:
        return self.deps.get(atom, frozenset()) if isinstance(atom, Var) else frozenset()

    def active(self, atom) -> bool:
        return isinstance(atom, Var) and atom in self.useful and bool(self.deps.get(atom))

    # --- forward: varied

    def propagate(self, block: Block) -> None:
        for stmt in block.stmts:
            if isinstance(stmt, Apply):
                definition = op_table()[stmt.op]
                if definition.adjoint is None:
                    continue
                skip = _nondifferentiable_operands(definition)
                found = frozenset().union(*(self.dep(a) for i, a in enumerate(stmt.args) if i not in skip))
                if found:
                    for target in stmt.targets:
                        self.deps[target] = found
            elif isinstance(stmt, Call):
                summary = self.summaries(stmt.callee)
                for target, sources in zip(stmt.targets, summary):
                    found = frozenset().union(*(self.dep(stmt.args[j]) for j in sources))
                    if found:
                        self.deps[target] = found
            elif isinstance(stmt, If):
                self.propagate(stmt.then_block)
                self.propagate(stmt.else_block)
                for i, out in enumerate(stmt.outputs):
                    found = self.dep(stmt.then_block.results[i]) | self.dep(stmt.else_block.results[i])
                    if found:
                        self.deps[out] = found
            elif isinstance(stmt, (ForRange, While)):
                self._propagate_loop(stmt)
            elif isinstance(stmt, TapePush):
                for k, value in enumerate(stmt.values):
                    key = (stmt.tape, k)
                    self.deps[key] = self.deps.get(key, frozenset()) | self.dep(value)
            elif isinstance(stmt, TapePop):
                for k, target in enumerate(stmt.targets):
                    found = self.deps.get((stmt.tape, k), frozenset())
                    if found:
                        self.deps[target] = found
            else:
                hostadjoint.propagate(self, stmt)

    def _propagate_loop(self, stmt) -> None:
        def entering():
            return [self.dep(stmt.carried[i]) | self.dep(stmt.body.results[i]) | self.dep(p)
                    for i, p in enumerate(stmt.body_params)]

        while True:
            before = entering()
            for param, found in zip(stmt.body_params, before):
                if found:
                    self.deps[param] = found
            self.propagate(stmt.body)
            if entering() == before:
                break
        for i, out in enumerate(stmt.outputs):
            found = self.dep(stmt.body_params[i]) | self.dep(stmt.carried[i])
            if found:
                self.deps[out] = found

    # --- backward: useful

    def mark(self, block: Block) -> None:
        useful = self.useful
        for stmt in reversed(block.stmts):
            if isinstance(stmt, Apply):
                definition = op_table()[stmt.op]
                if definition.adjoint is None or not any(t in useful for t in stmt.targets):
                    continue
                skip = _nondifferentiable_operands(definition)
                useful.update(a for i, a in enumerate(stmt.args) if i not in skip and isinstance(a, Var))
            elif isinstance(stmt, Call):
                summary = self.summaries(stmt.callee)
                for target, sources in zip(stmt.targets, summary):
                    if target in useful:
                        useful.update(stmt.args[j] for j in sources if isinstance(stmt.args[j], Var))
            elif isinstance(stmt, If):
                for i, out in enumerate(stmt.outputs):
                    if out in useful:
                        for branch in (stmt.then_block, stmt.else_block):
                            if isinstance(branch.results[i], Var):
                                useful.add(branch.results[i])
                self.mark(stmt.then_block)
                self.mark(stmt.else_block)
            elif isinstance(stmt, (ForRange, While)):
                self._mark_loop(stmt)
            elif isinstance(stmt, TapePop):
                for k, target in enumerate(stmt.targets):
                    if target in useful:
                        useful.add((stmt.tape, k))
            elif isinstance(stmt, TapePush):
                for k, value in enumerate(stmt.values):
                    if (stmt.tape, k) in useful and isinstance(value, Var):
                        useful.add(value)
            else:
                hostadjoint.mark(self, stmt)

    def _mark_loop(self, stmt) -> None:
        useful = self.useful
        while True:
            size = len(useful)
            for i, result in enumerate(stmt.body.results):
                if (stmt.outputs[i] in useful or stmt.body_params[i] in useful) and isinstance(result, Var):
                    useful.add(result)
            self.mark(stmt.body)
            if len(useful) == size:
                break
        for i, init in enumerate(stmt.carried):
            if (stmt.outputs[i] in useful or stmt.body_params[i] in useful) and isinstance(init, Var):
                useful.add(init)


# ---------------------------------------------------------------------------------------- module level


@dataclass
class _Pair:
    """The forward-with-residuals and backward functions generated for one callee activity pattern."""

    fwd: str
    bwd: str
    active_args: tuple        # positions of the callee's params that get cotangents
    active_results: tuple     # positions of the callee's results whose cotangents bwd takes
    residuals: tuple          # what the caller passes to bwd first, each ("param", j): its argument j,
    #                           ("target", i): the call's result i, or ("result", k): fwd's extra result k


class _ModuleAD:
    """Per-module state: the source functions, generated pairs and call summaries."""

    def __init__(self, module: Module, tapes_cross_functions: bool = False):
        self.source = module.functions
        self.tapes_cross_functions = tapes_cross_functions
        self.functions: dict = {}
        self.pairs: dict = {}
        self._summaries: dict = {}
        self.function_names = NameSupply(module.functions)

    def summary(self, name: str) -> tuple:
        """For each result of function ``name``, the param positions it depends on."""
        found = self._summaries.get(name)
        if found is None:
            fn = self.source[name]
            activity = _Activity(self.summary, fn, range(len(fn.params)))
            found = tuple(activity.dep(r) for r in fn.body.results)
            self._summaries[name] = found
        return found

    def pair(self, name: str, active_args: tuple, active_results: tuple, recompute: bool = False) -> _Pair:
        key = (name, active_args, active_results, recompute)
        found = self.pairs.get(key)
        if found is None:
            found = _FunctionAD(self, copy.deepcopy(self.source[name]), active_args).make_pair(active_results,
                                                                                               recompute)
            self.pairs[key] = found
        return found


# ---------------------------------------------------------------------------------------- functions


class _FunctionAD:
    """Differentiates one function (a private copy): forward sweep in place, backward sweep built."""

    def __init__(self, ctx: _ModuleAD, fn: Function, wrt: tuple):
        self.ctx = ctx
        self.fn = fn
        self.wrt = tuple(wrt)
        self.names = function_names(fn)
        self.activity = _Activity(ctx.summary, fn, self.wrt)
        self.calls: dict = {}          # id(Call) -> (pair, number of original targets)
        self.adjoint_tapes: dict = {}  # forward tape Var -> (adjoint tape Var, active positions)
        self.hoisted: list = []        # TapeNew of adjoint tapes, run before the backward sweep
        self.forward_changed = False   # whether the forward sweep differs from the primal body

    @property
    def loc(self) -> Loc:
        return self.fn.loc or Loc("<grad>", 0)

    def active(self, atom) -> bool:
        return self.activity.active(atom)

    # --- entry points

    def seed_results(self, positions) -> None:
        self.activity.useful.update(r for i, r in enumerate(self.fn.body.results)
                                    if i in positions and isinstance(r, Var))
        self.activity.mark(self.fn.body)

    def make_gradient(self, seeds) -> Function:
        """The entry function: forward sweep, seeds, backward sweep; returns results + cotangents."""
        fn = self.fn
        results = fn.body.results
        seeded: tuple[int, ...] | range = seeds if isinstance(seeds, tuple) else (
            range(len(results)) if seeds != "first" else range(min(1, len(results))))
        self.seed_results(set(seeded))
        self.forward(fn.body)
        backward = BlockBuilder(self.names)
        adj: dict = {}
        sens_params: tuple[Var, ...] = ()
        if seeds == "given":
            sens_params = tuple(self.names.var("sens", _aval_of(r)) for r in results)
        for i in seeded:
            result = results[i]
            if not self.active(result):
                continue
            seed = sens_params[i] if seeds == "given" else self.filled("ones", backward, result, self.loc)
            self.accumulate(adj, result, seed, backward, self.loc)
        self.backward(fn.body, adj, backward)
        sweep = Block(backward.block.stmts, tuple(self.final_cotangent(fn.params[j], adj, backward) for j in self.wrt))
        recompute_outputs(fn.body, sweep, self.names)
        body = Block(fn.body.stmts + self.hoisted + sweep.stmts, tuple(results) + sweep.results)
        return Function(fn.name + "_grad", tuple(fn.params) + sens_params, body, source=fn.source,
                        loc=fn.loc, param_names=fn.param_names, output_tree=None)

    def make_pair(self, active_results: tuple, recompute: bool = False) -> _Pair:
        """Split the function into ``_fwd`` (results + residuals) and ``_bwd`` (cotangents); with
        ``recompute`` (``Cell.recompute()``) ``_bwd`` runs the forward sweep again from the inputs,
        so the caller keeps no intermediate value of the callee."""
        fn = self.fn
        results = fn.body.results
        self.seed_results(set(active_results))
        self.forward(fn.body)
        backward = BlockBuilder(self.names)
        adj: dict = {}
        d_results = []
        for i in active_results:
            d_result = self.names.var("d_" + _hint(results[i]), _aval_of(results[i]))
            d_results.append(d_result)
            if self.active(results[i]):
                self.accumulate(adj, results[i], d_result, backward, self.loc)
        self.backward(fn.body, adj, backward)
        sweep = Block(backward.block.stmts, tuple(self.final_cotangent(fn.params[j], adj, backward, cast=False)
                                                  for j in self.wrt))
        recompute_outputs(fn.body, sweep, self.names)
        bwd_body = Block(self.hoisted + sweep.stmts, sweep.results)
        needed = _free_vars(bwd_body, exclude=d_results)
        # A backward that pops a tape filled by a forward loop runs that forward itself: tapes never
        # cross functions (the caller runs the primal callee), so higher orders see one-function loops.
        # A gradient that is final (never differentiated again) lets ``_fwd`` return the tape instead,
        # so the loop runs once.
        recompute = recompute or (not self.ctx.tapes_cross_functions
                                  and any(var.aval == TAPE_AVAL for var in needed))
        if recompute:
            bwd_body = Block(fn.body.stmts + bwd_body.stmts, bwd_body.results)
            needed = _free_vars(bwd_body, exclude=d_results)
        # each residual comes from the caller's argument, the callee's result, or an extra result
        params = {p: j for j, p in enumerate(fn.params)}
        result_positions: dict = {}
        for i, result in enumerate(results):
            if isinstance(result, Var):
                result_positions.setdefault(result, i)
        slots: list = []
        returned: list = []
        for var in needed:
            if var in params:
                slots.append(("param", params[var]))
            elif var in result_positions:
                slots.append(("target", result_positions[var]))
            else:
                slots.append(("result", len(returned)))
                returned.append(var)
        # the backward function gets its own Vars for the residuals it receives
        received = {var: Var(var.name, var.aval) for var in needed}
        ir.substitute(bwd_body, received)
        if returned or (self.forward_changed and not recompute):
            fwd_name = self.ctx.function_names.fresh(fn.name + "_fwd")
            self.ctx.functions[fwd_name] = Function(
                fwd_name, fn.params, Block(fn.body.stmts, tuple(results) + tuple(returned)),
                source=fn.source, loc=fn.loc, param_names=fn.param_names)
        else:
            fwd_name = fn.name  # the primal function itself computes everything the backward needs
        bwd_name = self.ctx.function_names.fresh(fn.name + "_bwd")
        self.ctx.functions[bwd_name] = Function(
            bwd_name, tuple(received.values()) + tuple(d_results), bwd_body, source=fn.source, loc=fn.loc)
        return _Pair(fwd_name, bwd_name, self.wrt, tuple(active_results), tuple(slots))

    def final_cotangent(self, param: Var, adj: dict, builder: BlockBuilder, cast: bool = True):
        """The cotangent returned for a parameter: zeros if it got none, cast to an integer dtype; of a real
        parameter, the real part of a complex cotangent."""
        grad = adj.get(param)
        if grad is None:
            return builder.apply("zeros_like", (param,), loc=self.loc, hint="d_" + param.name)
        if cast and _aval_of(grad).dtype.kind == "c" and param.aval.dtype.kind != "c":
            grad = builder.apply("real", (grad,), loc=self.loc, hint="d_" + param.name)
        if cast and _aval_of(grad).dtype != param.aval.dtype:
            return builder.apply("cast", (grad,), {"dtype": param.aval.dtype}, loc=self.loc,
                                 hint="d_" + param.name)
        return grad

    # --- forward sweep (in place on the private copy)

    def forward(self, block: Block) -> None:
        for stmt in block.stmts:
            if isinstance(stmt, Call):
                self.forward_call(stmt)
            for inner in ir.nested_blocks(stmt):
                self.forward(inner)

    def forward_call(self, stmt: Call) -> None:
        summary = self.ctx.summary(stmt.callee)
        active_results = tuple(i for i, t in enumerate(stmt.targets) if self.active(t))
        reachable = set().union(*(summary[i] for i in active_results)) if active_results else set()
        active_args = tuple(j for j, a in enumerate(stmt.args) if j in reachable and self.active(a))
        if not active_results or not active_args:
            return
        if stmt.custom is not None and (stmt.custom.bprop or stmt.custom.python_bprop) is not None:
            self.calls[id(stmt)] = (None, len(stmt.targets))  # the bprop replaces the callee's derivative
            return
        pair = self.ctx.pair(stmt.callee, active_args, active_results,
                             recompute=stmt.custom is not None and stmt.custom.recompute)
        n_targets = len(stmt.targets)
        fwd = self.ctx.functions.get(pair.fwd) or self.ctx.source[pair.fwd]
        returned = fwd.body.results[n_targets:]
        self.forward_changed |= bool(returned) or pair.fwd != stmt.callee
        stmt.callee = pair.fwd
        stmt.targets = tuple(stmt.targets) + tuple(self.names.var(v.name, v.aval) for v in returned)
        self.calls[id(stmt)] = (pair, n_targets)

    # --- backward sweep

    def backward(self, block: Block, adj: dict, builder: BlockBuilder) -> None:
        for stmt in reversed(list(block.stmts)):
            if isinstance(stmt, Apply):
                self.backward_apply(stmt, adj, builder)
            elif isinstance(stmt, Call):
                self.backward_call(stmt, adj, builder)
            elif isinstance(stmt, If):
                self.backward_if(stmt, adj, builder)
            elif isinstance(stmt, (ForRange, While)):
                self.backward_loop(stmt, adj, builder)
            elif isinstance(stmt, TapePop):
                self.backward_pop(stmt, adj, builder)
            elif isinstance(stmt, TapePush):
                self.backward_push(stmt, adj, builder)
            else:
                hostadjoint.backward(self, stmt, adj, builder)

    def accumulate(self, adj: dict, var, contribution, builder: BlockBuilder, loc: Loc) -> None:
        if not isinstance(var, Var):
            return
        previous = adj.get(var)
        if previous is None:
            adj[var] = contribution
        else:
            adj[var] = builder.apply("add", (previous, contribution), loc=loc, hint="d_" + var.name)

    def zeros(self, builder: BlockBuilder, like: Var, loc: Loc, dtype=None):
        return self.filled("zeros", builder, like, loc, dtype)

    def filled(self, op: str, builder: BlockBuilder, like: Var, loc: Loc, dtype=None):
        """Zeros or ones shaped like ``like`` (in its dtype, or ``dtype``): from its static shape when
        known (so that the forward value need not be computed or kept for it), else ``zeros_like``/``ones_like``."""
        shape = tuple(like.aval.shape)
        if any(d is None for d in shape):
            return builder.apply(op + "_like", (like,), {"dtype": dtype} if dtype else {}, loc=loc, hint="d_" + like.name)
        return builder.apply(op, (), {"shape": shape, "dtype": dtype or like.aval.dtype}, loc=loc, hint="d_" + like.name)

    def backward_apply(self, stmt: Apply, adj: dict, builder: BlockBuilder) -> None:
        definition = op_table()[stmt.op]
        if definition.adjoint is None or not any(t in adj for t in stmt.targets):
            return
        skip = _nondifferentiable_operands(definition)
        wanted = [i for i, a in enumerate(stmt.args) if i not in skip and self.active(a)]
        if not wanted:
            return
        scratch = BlockBuilder(self.names)
        if not ir.returns_tuple(stmt):
            out, dout = stmt.targets[0], adj[stmt.targets[0]]
        else:
            out = tuple(stmt.targets)
            dout = tuple(adj[t] if t in adj else None if definition.absent_cotangent_is_none
                         else self.zeros(scratch, t, stmt.loc) for t in stmt.targets)
        args, out = complexadjoint.rule_values(definition, stmt, out, scratch)
        if _keyword_out_dout(definition):
            staged = stage_rule(definition.adjoint, scratch, args, {**stmt.static, "out": out, "dout": dout},
                                stmt.loc)
        else:
            staged = stage_rule(definition.adjoint, scratch, (*args, out, dout), stmt.static, stmt.loc)
        staged = complexadjoint.rule_results(definition, stmt, staged, scratch)
        if len(definition.operands) == 1 or not isinstance(staged, tuple):
            staged = (staged,)
        kept = []
        for i in wanted:
            grad = staged[i]
            if grad is None:
                continue
            if isinstance(grad, Const):
                raise TypeError(f"the adjoint of op {stmt.op!r} returned the constant {grad.value!r}; "
                                "adjoint rules must return arrays or None")
            operand = stmt.args[i]
            kept.append((operand, fit_shape(scratch, grad, operand.aval, stmt.loc, "d_" + operand.name)))
        _prune(scratch.block, [g for _, g in kept])
        created = _all_defined(scratch.block)
        for operand, grad in kept:
            if grad in created and not grad.name.startswith("d_"):
                grad.name = self.names.fresh("d_" + operand.name)
        builder.block.stmts.extend(scratch.block.stmts)
        for operand, grad in kept:
            self.accumulate(adj, operand, grad, builder, stmt.loc)

    def backward_call(self, stmt: Call, adj: dict, builder: BlockBuilder) -> None:
        info = self.calls.get(id(stmt))
        if info is None:
            return
        pair, n_targets = info
        targets = stmt.targets[:n_targets]
        if stmt.custom is not None:
            self.backward_custom(stmt, pair, targets, adj, builder)
            return
        douts = [adj.get(targets[i]) for i in pair.active_results]
        if all(d is None for d in douts):
            return
        douts = [d if d is not None else self.zeros(builder, targets[i], stmt.loc)
                 for d, i in zip(douts, pair.active_results)]
        for j, grad in self.call_backward(stmt, pair, targets, douts, builder).items():
            self.accumulate(adj, stmt.args[j], grad, builder, stmt.loc)

    def call_backward(self, stmt: Call, pair: _Pair, targets: tuple, douts, builder: BlockBuilder) -> dict:
        """Call ``pair.bwd`` on the cotangents of the active results: argument position -> cotangent."""
        sources = {"param": stmt.args, "target": targets, "result": stmt.targets[len(targets):]}
        residuals = tuple(sources[kind][j] for kind, j in pair.residuals)
        grads = tuple(self.names.var("d_" + _hint(stmt.args[j]), _aval_of(stmt.args[j]))
                      for j in pair.active_args)
        builder.append(Call(grads, pair.bwd, residuals + tuple(douts), stmt.loc))
        return dict(zip(pair.active_args, grads))

    def backward_custom(self, stmt: Call, pair, targets: tuple, adj: dict, builder: BlockBuilder) -> None:
        """The backward of a call of a cell with a ``bprop`` or backward hooks (``ir.CustomBackward``):
        pre-hooks on the results' cotangents, then the bprop (or the callee's derivative), then the
        hooks on the inputs' cotangents; each hook is a call out of the kernel (``host_call``)."""
        custom = stmt.custom
        assert custom is not None, "backward_custom is called for calls with a custom backward"
        if all(adj.get(t) is None for t in targets):
            return
        douts = tuple(adj[t] if adj.get(t) is not None else self.zeros(builder, t, stmt.loc) for t in targets)
        if custom.pre_hook is not None:
            douts = self.host_call(custom.pre_hook, douts, douts, builder, stmt.loc)
        if custom.python_bprop is not None:
            grads = hostadjoint.python_bprop(self, stmt, targets, douts, builder)
        elif custom.bprop is not None:
            values = {"arg": stmt.args, "target": targets, "dout": douts}
            args = tuple(Const(item) if kind == "const" else item if kind == "var" else values[kind][item]
                         for kind, item in custom.bprop_args)
            callee = self.ctx.source[custom.bprop]
            results = tuple(self.names.var("d_" + _hint(r), _aval_of(r)) for r in callee.body.results)
            builder.append(Call(results, custom.bprop, args, stmt.loc))
            grads = {j: g for j, g in zip(custom.inputs, results) if j is not None}
        else:
            grads = self.call_backward(stmt, pair, targets, [douts[i] for i in pair.active_results], builder)
        if custom.hook is not None:
            positions = [j for j in custom.inputs if j is not None]
            grad_input = tuple(grads[j] if j in grads else self.zeros(builder, stmt.args[j], stmt.loc)
                               for j in positions)
            grads.update(zip(positions, self.host_call(custom.hook, grad_input + douts, grad_input, builder,
                                                       stmt.loc)))
        for j, grad in grads.items():
            if self.active(stmt.args[j]):
                grad = fit_shape(builder, grad, stmt.args[j].aval, stmt.loc, "d_" + stmt.args[j].name)
                self.accumulate(adj, stmt.args[j], grad, builder, stmt.loc)

    def host_call(self, key: str, values: tuple, like: tuple, builder: BlockBuilder, loc: Loc) -> tuple:
        """``host_call(key, *values)`` out of the kernel; its results are shaped like ``like``."""
        targets = tuple(self.names.var(_hint(v), _aval_of(v)) for v in like)
        builder.append(ir.Effect("host_call", (Const(key), *values), loc, targets))
        return targets

    def backward_if(self, stmt: If, adj: dict, builder: BlockBuilder) -> None:
        seeds = [(i, adj[o]) for i, o in enumerate(stmt.outputs) if o in adj]
        if not seeds and not self.pops_adjoints(stmt.then_block) and not self.pops_adjoints(stmt.else_block):
            return
        branches = []
        for block in (stmt.then_block, stmt.else_block):
            inner = BlockBuilder(self.names)
            inner_adj = dict(adj)
            for i, seed in seeds:
                self.accumulate(inner_adj, block.results[i], seed, inner, stmt.loc)
            self.backward(block, inner_adj, inner)
            branches.append((block, inner, inner_adj))
        local = _all_defined(stmt.then_block) | _all_defined(stmt.else_block)
        changed = []
        for _, _, inner_adj in branches:
            for var, grad in inner_adj.items():
                if var not in local and grad is not adj.get(var) and var not in changed:
                    changed.append(var)
        # a cotangent's dtype may not be its value's (an int input's is accumulated in float and cast when
        # returned): both branches yield the dtype of the cotangents they have
        dtypes = [np.result_type(*(_aval_of(inner_adj[var]).dtype for _, _, inner_adj in branches if var in inner_adj))
                  for var in changed]
        for block, inner, inner_adj in branches:
            yields = []
            for var, dtype in zip(changed, dtypes):
                grad = inner_adj.get(var)
                if grad is None:
                    grad = self.zeros(inner, var, stmt.loc, dtype)
                elif _aval_of(grad).dtype != dtype:
                    grad = inner.apply("cast", (grad,), {"dtype": dtype}, loc=stmt.loc, hint="d_" + var.name)
                yields.append(grad)
            inner.block.results = tuple(yields)
        self.export_residuals(stmt, [inner.block for _, inner, _ in branches])
        outputs = tuple(self.names.var("d_" + v.name, Aval(tuple(v.aval.shape), dtype)) for v, dtype in zip(changed, dtypes))
        builder.append(If(stmt.cond, branches[0][1].block, branches[1][1].block, outputs, stmt.loc))
        for var, out in zip(changed, outputs):
            adj[var] = out

    def export_residuals(self, stmt: If, backward_blocks) -> None:
        """Make forward values the backward branches read available after the forward ``If``."""
        then_defs = {v for s in stmt.then_block.stmts for v in ir.defined_vars(s)}
        else_defs = {v for s in stmt.else_block.stmts for v in ir.defined_vars(s)}
        mapping = {}
        for block in backward_blocks:
            for var in _free_vars(block):
                if (var in then_defs or var in else_defs) and var not in mapping:
                    mapping[var] = self.names.var(var.name, var.aval)
        if not mapping:
            return
        self.forward_changed = True
        stmt.outputs = tuple(stmt.outputs) + tuple(mapping.values())
        for block, defs in ((stmt.then_block, then_defs), (stmt.else_block, else_defs)):
            placeholders = (v if v in defs else ir.placeholder(v.aval) for v in mapping)
            block.results = tuple(block.results) + tuple(placeholders)
        for block in backward_blocks:
            ir.substitute(block, mapping)

    def backward_loop(self, stmt, adj: dict, builder: BlockBuilder) -> None:
        n = len(stmt.outputs)
        carried = [i for i in range(n) if self.active(stmt.outputs[i]) or self.active(stmt.body_params[i])]
        if all(adj.get(stmt.outputs[i]) is None for i in carried) and not self.pops_adjoints(stmt.body):
            return
        loc = stmt.loc
        inits = [adj.get(stmt.outputs[i]) or self.zeros(builder, stmt.outputs[i], loc) for i in carried]
        d_in = [self.names.var("d_" + stmt.outputs[i].name, stmt.outputs[i].aval) for i in carried]
        inner = BlockBuilder(self.names)
        inner_adj: dict = {}
        for i, d in zip(carried, d_in):
            self.accumulate(inner_adj, stmt.body.results[i], d, inner, loc)
        self.backward(stmt.body, inner_adj, inner)
        yields = [inner_adj.get(stmt.body_params[i]) or self.zeros(inner, stmt.body_params[i], loc)
                  for i in carried]
        index = stmt.index if isinstance(stmt, ForRange) else None
        local = _all_defined(stmt.body) | set(stmt.body_params) | ({index} if index is not None else set())
        outer = [v for v in inner_adj if v not in local]
        # an accumulator has its cotangents' dtype (an integer input's gradient is cast when returned)
        acc_avals = [Aval(v.aval.shape, _aval_of(inner_adj[v]).dtype) for v in outer]
        acc_in = [self.names.var("d_" + v.name, aval) for v, aval in zip(outer, acc_avals)]
        for v, acc in zip(outer, acc_in):
            yields.append(inner.apply("add", (acc, inner_adj[v]), loc=loc, hint="d_" + v.name))
        acc_init = [adj.get(v) or self.zeros(builder, v, loc, aval.dtype) for v, aval in zip(outer, acc_avals)]
        body = inner.block
        body.results = tuple(yields)
        # residuals: forward values of the iteration that the backward body reads
        body_defs = {v for s in stmt.body.stmts for v in ir.defined_vars(s)} | set(stmt.body_params)
        if index is not None:
            body_defs.add(index)
        needed = [v for v in _free_vars(body, exclude=d_in + acc_in) if v in body_defs]
        if isinstance(stmt, ForRange):
            start, stop, step = stmt.start, stmt.stop, stmt.step
        else:
            start, stop, step = Const(0), self.count_iterations(stmt), Const(1)
        if needed:
            self.forward_changed = True
            # one tape per function, created first: a loop nested in a branch or in another loop pushes
            # onto it too, and the backward sweep pops in exactly the reverse order. The tape is then
            # never an If output nor a residual of an outer loop, which a higher order would lose.
            tape = self.names.var("tape", TAPE_AVAL)
            self.fn.body.stmts.insert(0, TapeNew(tape, loc))
            stmt.body.stmts.append(TapePush(tape, tuple(needed), loc))
            restored = [self.names.var(v.name, v.aval) for v in needed]
            ir.substitute(body, dict(zip(needed, restored)))
            body.stmts.insert(0, TapePop(tuple(restored), tape, loc))
        d_outs = [self.names.var("d_" + _hint(stmt.carried[i]), stmt.outputs[i].aval) for i in carried]
        acc_out = [self.names.var("d_" + v.name, aval) for v, aval in zip(outer, acc_avals)]
        builder.append(ForRange(self.names.var("i", _INDEX_AVAL), start, stop, step,
                                tuple(inits) + tuple(acc_init), tuple(d_in) + tuple(acc_in), body,
                                tuple(d_outs) + tuple(acc_out), loc))
        # the outer values' accumulators started from their adjoints, so they replace them first;
        # a carried init may be one of those outer values (out = a; ... out + a): it then adds to it
        for v, d in zip(outer, acc_out):
            adj[v] = d
        for i, d in zip(carried, d_outs):
            if self.active(stmt.carried[i]):
                self.accumulate(adj, stmt.carried[i], d, builder, loc)

    def pops_adjoints(self, block: Block) -> bool:
        """Whether a block pushes onto a tape whose adjoint tape the backward sweep has filled: its
        backward must then run (and pop) even when its outputs received no cotangent."""
        return any(isinstance(s, TapePush) and s.tape in self.adjoint_tapes for s in ir.walk_stmts(block))

    def count_iterations(self, stmt: While):
        """Add an iteration counter to a forward ``While``; returns the Var holding the count."""
        self.forward_changed = True
        counter = self.names.var("n_iter", _INDEX_AVAL)
        step = BlockBuilder(self.names, stmt.body)
        following = step.apply("add", (counter, Const(1)), loc=stmt.loc, hint="n_iter")
        count = self.names.var("n_iter", _INDEX_AVAL)
        stmt.carried = tuple(stmt.carried) + (Const(0),)
        stmt.body_params = tuple(stmt.body_params) + (counter,)
        stmt.body.results = tuple(stmt.body.results) + (following,)
        stmt.outputs = tuple(stmt.outputs) + (count,)
        return count

    def backward_pop(self, stmt: TapePop, adj: dict, builder: BlockBuilder) -> None:
        positions = tuple(k for k, t in enumerate(stmt.targets) if self.active(t))
        if not positions:
            return
        entry = self.adjoint_tapes.get(stmt.tape)
        if entry is None:
            entry = (self.names.var("d_" + stmt.tape.name, TAPE_AVAL), positions)
            self.adjoint_tapes[stmt.tape] = entry
            self.hoisted.append(TapeNew(entry[0], stmt.loc))
        values = tuple(adj.get(stmt.targets[k]) or self.zeros(builder, stmt.targets[k], stmt.loc)
                       for k in positions)
        builder.append(TapePush(entry[0], values, stmt.loc))

    def backward_push(self, stmt: TapePush, adj: dict, builder: BlockBuilder) -> None:
        entry = self.adjoint_tapes.get(stmt.tape)
        if entry is None:
            return
        tape, positions = entry
        grads = tuple(self.names.var("d_" + _hint(stmt.values[k]), _aval_of(stmt.values[k])) for k in positions)
        builder.append(TapePop(grads, tape, stmt.loc))
        for k, grad in zip(positions, grads):
            if self.active(stmt.values[k]):
                self.accumulate(adj, stmt.values[k], grad, builder, stmt.loc)


def _hint(atom) -> str:
    return atom.name if isinstance(atom, Var) else "c"


def _aval_of(atom) -> Aval:
    if isinstance(atom, Var):
        return atom.aval
    return Aval.of(np.asarray(atom.value))


def _prune(block: Block, keep) -> None:
    """Drop staged statements whose results no kept value needs (all staged statements are pure)."""
    needed = {v for v in keep if isinstance(v, Var)}
    kept = []
    for stmt in reversed(block.stmts):
        if any(t in needed for t in ir.defined_vars(stmt)):
            kept.append(stmt)
            needed.update(a for a in ir.used_atoms(stmt) if isinstance(a, Var))
    block.stmts[:] = reversed(kept)


def differentiate(module: Module, wrt: tuple, seeds="ones", *, final: bool = False) -> Module:
    """Reverse-mode derivative of a module's entry function.

    Args:
        module: typed normal form (not modified).
        wrt: positions of the entry's params to differentiate (flat tensor inputs first, then the
            captured Parameter arrays).
        seeds: ``"ones"`` (every result gets an all-ones cotangent, contributions summed),
            ``"first"`` (only ``results[0]``, for ``has_aux``), ``"given"`` (the entry takes one
            extra param per result: its sensitivity), or a tuple of result positions that get
            all-ones cotangents (``has_aux`` when the first output has several leaves; the
            derivative of one result of an earlier gradient, for higher orders).
        final: the result is compiled as it is, never differentiated again: a callee's ``_fwd`` may
            then hand the tape of its loops to its ``_bwd`` instead of ``_bwd`` running the loops again.

    Returns:
        A new module whose entry has the same params (plus the sensitivities for ``"given"``) and
        returns ``(results..., one cotangent per wrt position, in wrt order)``.

    Raises:
        ValueError: ``seeds`` is unknown or a ``wrt`` position is out of range.
    """
    copied = copy.deepcopy(module)
    entry = copied.functions[copied.entry]
    if isinstance(seeds, tuple):
        if not all(isinstance(i, int) and 0 <= i < len(entry.body.results) for i in seeds):
            raise ValueError(f"seed positions {seeds} are out of range for {len(entry.body.results)} results")
    elif seeds not in SEED_MODES:
        raise ValueError(f"seeds must be one of {SEED_MODES} or a tuple of result positions, but got {seeds!r}")
    for j in wrt:
        if not 0 <= j < len(entry.params):
            raise ValueError(f"wrt position {j} is out of range for {len(entry.params)} entry params")
    ctx = _ModuleAD(copied, tapes_cross_functions=final)
    gradient = _FunctionAD(ctx, entry, wrt).make_gradient(seeds)
    gradient.name = ctx.function_names.fresh(gradient.name)
    functions = {**copied.functions, **ctx.functions, gradient.name: gradient}
    header = dict(copied.header)
    header["grad"] = {"wrt": tuple(wrt), "seeds": seeds}
    return Module(ir.reachable_functions(functions, gradient.name), gradient.name, header)
