"""Forward-mode differentiation of the typed normal form (compiler stage 4, beside reverse mode).

``jvp(module, wrt, outputs)`` maps a module whose entry computes ``results = f(params)`` to a module
whose entry takes one tangent per ``wrt`` parameter after its params and returns ``(results...,
tangents of results[outputs]...)``: the Jacobian-vector product, computed alongside the values in one
sweep. The output is ordinary normal form again, so it composes with itself and with reverse mode:
``jvp`` of a gradient module differentiates the backward sweep's ops like any others, and
``differentiate`` of a JVP module differentiates the tangent ops.

## The transform

For every ``out = op(x, y)`` with an operand that has a tangent, the tangent statements come right
after it: ``out_dot = tangent(x, y, out, x_dot, y_dot)`` by the op's rule from ``codegen_templates``
(its own ``tangent`` function, or its family's derivation: ``opdef.DIAGONAL``, ``LINEAR``,
``MULTILINEAR``). Rules are staged like adjoints (``trace.stage_rule``), or are the op itself
applied to tangents.

* **Activity.** A value has a tangent when it depends on a ``wrt`` parameter through
  differentiable operands (the reverse mode's ``varied`` analysis) and has a number dtype: an
  integer cast's tangent is the tangent cast (truncated), as MindSpore 2.10's ``jvp`` gives it.
* **Symbolic zeros.** A value without a tangent is absent from the tangent map; zeros are made only
  where one is needed: a result asked for, an operand of a linear op whose other operand has one,
  a branch or a loop body that yields none where the other path does.
* **Shapes.** A tangent is broadcast to its value's shape and cast to its dtype when a rule gives
  another (an operand's tangent through ``add``, through ``cast``).

## Calls and control flow

* ``targets = callee(args)`` with arguments that have tangents becomes a call of
  ``<callee>_jvp(args..., tangents of those args...) -> (results..., tangents...)``, one per
  (callee, pattern of arguments with tangents): twelve identical layers share one.
* ``If``: both branches get their tangent statements; the tangents of the outputs become extra
  outputs (a branch that has none yields zeros).
* ``ForRange`` / ``While``: loops stay loops. The tangents of carried values are carried too;
  values of the enclosing scope are read with their tangents as they are.
* Tapes (a gradient's loops, for ``jvp`` of ``grad``): a tape whose pushed values have tangents gets a
  tangent tape, pushed and popped at the same points.

Effects (``print``, ``assign``, host calls) have no tangent. Tangents are named ``<name>_dot``.
"""
from __future__ import annotations

import copy

import numpy as np

from ..opdef import Aval, op_table
from . import ir
from .basistangents import Diagonals
from .bproptangent import bprop_transpose
from .builder import BlockBuilder, NameSupply
from .differentiate import TAPE_AVAL, _Activity, _ModuleAD, _nondifferentiable_operands, _prune, function_names
from .errors import not_supported
from .ir import Apply, Block, Call, Const, ForRange, Function, If, Loc, Module, TapeNew, TapePop, TapePush, Var, While
from .jvpspec import UnbatchedTangent
from .tangents import batched_tangent_of, tangent_of, zeros, zero_constant

__all__ = ["jvp", "tangent_of"]


def _has_tangent_dtype(aval) -> bool:
    return getattr(aval, "dtype", np.dtype(object)).kind in "fciu"


def _dot(name: str) -> str:
    return name + "_dot"


def _fit(builder: BlockBuilder, tangent, target: Var, aval: Aval, loc: Loc):
    """``tangent`` broadcast to the shape of ``aval`` (``target``'s tangent's) and cast to its dtype, where
    they differ."""
    if tangent is None or isinstance(tangent, Const):
        if isinstance(tangent, Const) and tangent.value is not None:
            raise TypeError(f"a tangent rule returned the constant {tangent.value!r} for {target.name}; "
                            "tangent rules must return arrays or None")
        return None
    hint = _dot(target.name)
    shape, want = tuple(tangent.aval.shape), tuple(aval.shape)
    if shape != want:
        if any(d is None for d in want):
            tangent = builder.apply("add", (tangent, zeros(builder, aval, target, loc, hint)), loc=loc, hint=hint)
        else:
            tangent = builder.apply("broadcast_to", (tangent,), {"shape": want}, loc=loc, hint=hint)
    if tangent.aval.dtype != aval.dtype:
        tangent = builder.apply("cast", (tangent,), {"dtype": aval.dtype}, loc=loc, hint=hint)
    return tangent


# ---------------------------------------------------------------------------------------- module level


class _ModuleJVP:
    """Per-module state: the source functions and the ``_jvp`` functions made for calls."""

    def __init__(self, module: Module, batch: int | None):
        self.batch = batch
        self.source = module.functions
        self.functions: dict = {}
        self.made: dict = {}          # (callee, active positions) -> (name, tangent result positions)
        self.summary = _ModuleAD(module).summary   # which params each callee's result depends on
        self.function_names = NameSupply(module.functions)

    def bprop_transpose(self, stmt: Call, active: tuple) -> tuple:
        """``(entry, kinds)`` of the function computing the tangents of a call of a cell with a ``bprop``
        (``bproptangent``), made once per (bprop, arguments with tangents)."""
        assert stmt.custom is not None, "a call of a cell with a bprop"
        key = ("bprop", stmt.custom.bprop, active)
        found = self.made.get(key)
        if found is None:
            functions, entry, kinds = bprop_transpose(self.source, stmt, active, self.function_names)
            self.functions.update(functions)
            found = self.made[key] = (entry, kinds)
        return found

    def callee(self, name: str, active: tuple, identities: tuple = ()) -> tuple:
        """``(name of callee's _jvp, positions of the results it gives tangents of)``; ``identities``: the
        active positions whose tangents are the identity basis."""
        key = (name, active, identities)
        found = self.made.get(key)
        if found is None:
            fn = copy.deepcopy(self.source[name])
            transformed, positions = _FunctionJVP(self, fn, active, identities).build(outputs=None)
            transformed.name = self.function_names.fresh(name + "_jvp")
            self.functions[transformed.name] = transformed
            found = (transformed.name, positions)
            self.made[key] = found
        return found


# ---------------------------------------------------------------------------------------- functions


class _FunctionJVP:
    """Adds the tangent statements to one function (a private copy)."""

    def __init__(self, ctx: _ModuleJVP, fn: Function, wrt: tuple, identities: tuple = ()):
        self.ctx = ctx
        self.identities = identities   # params whose batched tangents are the identity basis
        self.fn = fn
        self.wrt = tuple(wrt)
        self.names = function_names(fn)
        self.activity = _Activity(ctx.summary, fn, self.wrt)
        self.tangent_tapes: dict = {}   # tape Var -> (tangent tape Var, positions with tangents)
        self.batch = ctx.batch
        self.diagonals = Diagonals(ctx.batch) if ctx.batch is not None else None

    def tangent_aval(self, aval: Aval) -> Aval:
        """The aval of a tangent of a value of ``aval``: the same, with the batch axis first if any."""
        return aval if self.batch is None else Aval((self.batch,) + tuple(aval.shape), aval.dtype)

    def tangent_var(self, var: Var) -> Var:
        return self.names.var(_dot(var.name), self.tangent_aval(var.aval))

    @property
    def loc(self) -> Loc:
        return self.fn.loc or Loc("<jvp>", 0)

    def varied(self, var) -> bool:
        return isinstance(var, Var) and bool(self.activity.deps.get(var)) and _has_tangent_dtype(var.aval)

    def build(self, outputs) -> tuple:
        """The transformed function and the result positions whose tangents it returns.

        ``outputs``: the positions to return tangents of (zeros where a result has none), or None
        for those that have one (a callee's ``_jvp``)."""
        fn = self.fn
        tangents: dict = {}
        d_params = []
        for j in self.wrt:
            param = fn.params[j]
            d_params.append(self.tangent_var(param))
            tangents[param] = d_params[-1]
            if j in self.identities and self.diagonals is not None:
                self.diagonals.known[d_params[-1]] = None
        builder = BlockBuilder(self.names)
        self.block(fn.body, tangents, builder)
        results = fn.body.results
        if outputs is None:
            positions = tuple(i for i, r in enumerate(results) if isinstance(r, Var) and r in tangents)
        else:
            positions = tuple(outputs)
        d_results = tuple(self.result_tangent(results[i], tangents, builder) for i in positions)
        body = Block(builder.block.stmts, tuple(results) + d_results)
        transformed = Function(fn.name + "_jvp", tuple(fn.params) + tuple(d_params), body, source=fn.source,
                               loc=fn.loc, param_names=fn.param_names, output_tree=None)
        return transformed, positions

    def result_tangent(self, result, tangents: dict, builder: BlockBuilder):
        if isinstance(result, Var):
            return self.tangent_or_zeros(result, result.aval, tangents, builder, _dot(result.name))
        return zero_constant(result.value)

    def tangent_or_zeros(self, atom, aval: Aval, tangents: dict, builder: BlockBuilder, hint: str):
        """The tangent of ``atom``, or zeros of ``aval`` where it has none."""
        found = tangents.get(atom) if isinstance(atom, Var) else None
        if found is not None:
            return found
        if self.batch is not None and any(d is None for d in aval.shape):
            raise UnbatchedTangent("a value whose shape is known only at run time")
        return zeros(builder, self.tangent_aval(aval), atom, self.loc, hint)

    # --- statements

    def block(self, block: Block, tangents: dict, builder: BlockBuilder) -> None:
        for stmt in block.stmts:
            if isinstance(stmt, Apply):
                builder.append(stmt)
                self.apply(stmt, tangents, builder)
            elif isinstance(stmt, Call):
                self.call(stmt, tangents, builder)
            elif isinstance(stmt, If):
                self.branch(stmt, tangents, builder)
            elif isinstance(stmt, (ForRange, While)):
                self.loop(stmt, tangents, builder)
            elif isinstance(stmt, (TapeNew, TapePush, TapePop)):
                builder.append(stmt)
                self.tape(stmt, tangents, builder)
            else:
                builder.append(stmt)   # effects: print, assign, host code have no tangent

    def apply(self, stmt: Apply, tangents: dict, builder: BlockBuilder) -> None:
        definition = op_table()[stmt.op]
        if definition.tangent is None or not any(self.varied(t) for t in stmt.targets):
            return
        skip = _nondifferentiable_operands(definition)
        d_args = [tangents.get(a) if isinstance(a, Var) and i not in skip else None for i, a in enumerate(stmt.args)]
        if all(d is None for d in d_args):
            return
        hint = _dot(stmt.targets[0].name)
        scratch = BlockBuilder(self.names)
        if self.diagonals is None:
            staged = tangent_of(stmt, d_args, scratch, hint)
        else:
            staged = (self.diagonals.tangent_of(stmt, d_args, scratch, hint)
                      or batched_tangent_of(stmt, d_args, scratch, hint, self.diagonals.batch))
        fitted = [_fit(scratch, d, t, self.tangent_aval(t.aval), stmt.loc) if self.varied(t) else None
                  for d, t in zip(staged, stmt.targets)]
        if self.diagonals is not None:
            self.diagonals.record(stmt, d_args, fitted[0], scratch, hint)
        _prune(scratch.block, [d for d in fitted if d is not None] + self.diagonal_scales())
        builder.block.stmts.extend(scratch.block.stmts)
        for target, d in zip(stmt.targets, fitted):
            if d is not None:
                tangents[target] = d

    def diagonal_scales(self) -> list:
        """The vectors of the diagonal tangents (kept by the rule's pruning; later folds read them)."""
        return [] if self.diagonals is None else [u for u in self.diagonals.known.values() if u is not None]

    def call(self, stmt: Call, tangents: dict, builder: BlockBuilder) -> None:
        active = tuple(j for j, a in enumerate(stmt.args) if isinstance(a, Var) and a in tangents)
        if not active or not any(self.varied(t) for t in stmt.targets):
            builder.append(stmt)
            return
        if stmt.custom is not None and (stmt.custom.bprop or stmt.custom.python_bprop) is not None:
            self.call_with_bprop(stmt, active, tangents, builder)
            return
        identities = tuple(j for j in active if self.diagonals is not None
                           and tangents[stmt.args[j]] in self.diagonals
                           and self.diagonals.known[tangents[stmt.args[j]]] is None)
        name, positions = self.ctx.callee(stmt.callee, active, identities)
        d_targets = tuple(self.tangent_var(stmt.targets[i]) for i in positions)
        for i, d in zip(positions, d_targets):
            tangents[stmt.targets[i]] = d
        # the _jvp callee differentiates through the callee's forward: a custom backward is reverse-mode only
        builder.append(Call(tuple(stmt.targets) + d_targets, name,
                            tuple(stmt.args) + tuple(tangents[stmt.args[j]] for j in active), stmt.loc))

    def call_with_bprop(self, stmt: Call, active: tuple, tangents: dict, builder: BlockBuilder) -> None:
        """A call of a cell with a ``bprop``: its tangents are the bprop's transpose applied to the
        arguments' tangents, as MindSpore's forward mode gives them (``bproptangent``)."""
        assert stmt.custom is not None, "a call of a cell with a bprop"
        if stmt.custom.python_bprop is not None:
            raise not_supported("forward mode (jvp, jacfwd) through a Cell whose bprop runs in Python "
                                "(bprop_debug = True)", stmt.loc)
        if self.batch is not None:
            raise UnbatchedTangent("a cell's bprop")
        builder.append(stmt)
        entry, kinds = self.ctx.bprop_transpose(stmt, active)
        *inputs, positions = kinds
        values = {"arg": stmt.args, "target": stmt.targets}
        args = tuple(item if kind == "var" else zeros(builder, stmt.targets[item].aval, stmt.targets[item], stmt.loc,
                                                        "dout") if kind == "dout" else values[kind][item]
                     for kind, item in inputs)
        results = tuple(self.names.var("d_input", stmt.args[j].aval) for j in positions)
        douts = [item for kind, item in inputs if kind == "dout"]
        d_targets = tuple(self.tangent_var(stmt.targets[i]) for i in douts)
        builder.append(Call(results + d_targets, entry, args + tuple(tangents[stmt.args[j]] for j in positions),
                            stmt.loc))
        for i, d in zip(douts, d_targets):
            tangents[stmt.targets[i]] = d

    def branch(self, stmt: If, tangents: dict, builder: BlockBuilder) -> None:
        branches = []
        for block in (stmt.then_block, stmt.else_block):
            inner = BlockBuilder(self.names)
            local = dict(tangents)
            self.block(block, local, inner)
            branches.append((block, inner, local))
        positions = [i for i, out in enumerate(stmt.outputs) if self.varied(out)
                     and any(isinstance(b.results[i], Var) and b.results[i] in local for b, _, local in branches)]
        for block, inner, local in branches:
            extra = []
            for i in positions:
                output = stmt.outputs[i]
                extra.append(self.tangent_or_zeros(block.results[i], output.aval, local, inner, _dot(output.name)))
            inner.block.results = tuple(block.results) + tuple(extra)
        d_outputs = tuple(self.tangent_var(stmt.outputs[i]) for i in positions)
        builder.append(If(stmt.cond, branches[0][1].block, branches[1][1].block, tuple(stmt.outputs) + d_outputs,
                          stmt.loc))
        for i, d in zip(positions, d_outputs):
            tangents[stmt.outputs[i]] = d

    def loop(self, stmt, tangents: dict, builder: BlockBuilder) -> None:
        carried = [i for i, p in enumerate(stmt.body_params) if self.varied(p)]
        inits = [self.tangent_or_zeros(stmt.carried[i], stmt.outputs[i].aval, tangents, builder,
                                       _dot(stmt.outputs[i].name)) for i in carried]
        d_params = [self.tangent_var(stmt.body_params[i]) for i in carried]
        local = dict(tangents)
        local.update((stmt.body_params[i], d) for i, d in zip(carried, d_params))
        inner = BlockBuilder(self.names)
        self.block(stmt.body, local, inner)
        yields = [self.tangent_or_zeros(stmt.body.results[i], stmt.outputs[i].aval, local, inner,
                                        _dot(stmt.outputs[i].name)) for i in carried]
        inner.block.results = tuple(stmt.body.results) + tuple(yields)
        d_outputs = [self.tangent_var(stmt.outputs[i]) for i in carried]
        stmt.carried = tuple(stmt.carried) + tuple(inits)
        stmt.body_params = tuple(stmt.body_params) + tuple(d_params)
        stmt.body = inner.block
        stmt.outputs = tuple(stmt.outputs) + tuple(d_outputs)
        builder.append(stmt)
        for i, d in zip(carried, d_outputs):
            tangents[stmt.outputs[i]] = d

    def tape(self, stmt, tangents: dict, builder: BlockBuilder) -> None:
        if isinstance(stmt, TapeNew):
            positions = sorted(k for key, deps in self.activity.deps.items()
                               if isinstance(key, tuple) and key[0] is stmt.target and deps for k in (key[1],))
            if positions:
                tangent_tape = self.names.var(_dot(stmt.target.name), TAPE_AVAL)
                self.tangent_tapes[stmt.target] = (tangent_tape, tuple(positions))
                builder.append(TapeNew(tangent_tape, stmt.loc))
            return
        entry = self.tangent_tapes.get(stmt.tape)
        if entry is None:
            return
        tangent_tape, positions = entry
        if isinstance(stmt, TapePush):
            values = [self.tangent_or_zeros(stmt.values[k], _aval(stmt.values[k]), tangents, builder, "zero")
                      for k in positions]
            builder.append(TapePush(tangent_tape, tuple(values), stmt.loc))
        else:
            targets = tuple(self.tangent_var(stmt.targets[k]) for k in positions)
            builder.append(TapePop(targets, tangent_tape, stmt.loc))
            for k, d in zip(positions, targets):
                tangents[stmt.targets[k]] = d


def _aval(atom) -> Aval:
    return atom.aval if isinstance(atom, Var) else Aval.of(np.asarray(atom.value))


def jvp(module: Module, wrt: tuple, outputs: tuple, batch: int | None = None, identities: tuple = ()) -> Module:
    """Forward-mode derivative of a module's entry function.

    Args:
        module: typed normal form (not modified).
        wrt: positions of the entry's params that get a tangent (flat tensor inputs first, then
            the captured Parameter arrays); the new entry takes those tangents after all its params.
        outputs: positions of the entry's results whose tangents are returned (zeros for a result
            that does not depend on a ``wrt`` param).
        batch: every tangent has a leading axis of this size (``batch`` tangents at once: a basis, for
            ``jacfwd``); the rules are applied to them by ``tangents.batched_tangent_of``.
        identities: the ``wrt`` positions whose batched tangents are the identity basis (``batch`` is
            the size of that param): products by them are folded (``basistangents``).

    Returns:
        A new module whose entry returns ``(results..., one tangent per outputs position)``.

    Raises:
        ValueError: a ``wrt`` or ``outputs`` position is out of range.
        UnbatchedTangent: with ``batch``, an op whose rule is not applied to batched tangents.
    """
    copied = copy.deepcopy(module)
    entry = copied.functions[copied.entry]
    for j in wrt:
        if not 0 <= j < len(entry.params):
            raise ValueError(f"wrt position {j} is out of range for {len(entry.params)} entry params")
    for i in outputs:
        if not 0 <= i < len(entry.body.results):
            raise ValueError(f"output position {i} is out of range for {len(entry.body.results)} results")
    ctx = _ModuleJVP(copied, batch)
    transformed, _ = _FunctionJVP(ctx, entry, wrt, tuple(identities)).build(outputs)
    transformed.name = ctx.function_names.fresh(transformed.name)
    functions = {**copied.functions, **ctx.functions, transformed.name: transformed}
    header = dict(copied.header)
    header["jvp"] = {"wrt": tuple(wrt), "outputs": tuple(outputs), **({"batch": batch} if batch else {})}
    return Module(ir.reachable_functions(functions, transformed.name), transformed.name, header)
