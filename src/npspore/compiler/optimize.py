"""Optimize: clean typed normal form before codegen.

* constant folding: ops whose operands are all known and whose result is small are computed now;
  ``ones_like``/``zeros_like``/``ones``/``zeros`` of a known shape are known values (small ones become
  constants, large ones are remembered as a broadcast scalar);
* algebraic identities: ``x ** 1``, ``x * 1``, ``x / 1``, ``x + 0``, ``x - 0`` are ``x`` when the
  shape and dtype do not change;
* broadcast absorption: ``c_broadcast * y`` with ``y`` already of the result shape becomes
  ``c * y`` — NumPy broadcasts the scalar, and no full-size array of copies is made (the seeds of
  a backward sweep, ``ones * 2 / n``, end up as one scalar multiplying the residual);
* dead code elimination: a pure op whose results nothing reads is dropped (effects — print and
  Parameter assignment — always stay), inside nested blocks too, and functions no longer called go;
* copy propagation of identity ops (``reshape`` to the same shape, ``cast`` to the same dtype,
  ``broadcast_to`` the same shape): their result is replaced by their operand.

Each pass takes a module and returns a new one; the input is not modified.
"""
from __future__ import annotations

import copy

import numpy as np

from ..opdef import op_table
from . import ir

_IDENTITY_WHEN_SAME_AVAL = {"reshape", "cast", "broadcast_to"}


def optimize(module: ir.Module) -> ir.Module:
    """Run every pass; returns a new module."""
    module = copy.deepcopy(module)
    for function in module.functions.values():
        _propagate_copies(function)
        _Simplifier().block(function.body)
    _eliminate_dead_code(module)
    return module


# ---------------------------------------------------------------- folding and identities

_SMALL = 16
_FILLED = {"ones_like": 1, "zeros_like": 0, "ones": 1, "zeros": 0}
_ELEMENTWISE = {"add", "sub", "mul", "div", "where", "maximum", "minimum"}


class _Simplifier:
    """One forward walk: known values (``consts``), broadcast scalars (``scalars``), rewrites."""

    def __init__(self):
        self.consts: dict[int, np.ndarray] = {}    # Var id -> its (small) value
        self.scalars: dict[int, np.ndarray] = {}   # Var id -> 0-d value it is a broadcast of
        self.replace: dict[int, object] = {}       # Var id -> atom to use instead

    def block(self, block: ir.Block) -> None:
        kept = []
        for stmt in block.stmts:
            _rewrite_uses(stmt, self.replace)
            for inner in ir.nested_blocks(stmt):
                self.block(inner)
            if isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and self.apply(stmt):
                continue
            kept.append(stmt)
        block.stmts = kept
        block.results = tuple(_sub(a, self.replace) for a in block.results)

    def value(self, atom):
        """The known value of an atom (a NumPy array or Python scalar), or None."""
        if isinstance(atom, ir.Const):
            return atom.value if isinstance(atom.value, (np.ndarray, np.generic, bool, int, float)) else None
        return self.consts.get(id(atom))

    def apply(self, stmt: ir.Apply) -> bool:
        """Record what is known about ``stmt``'s result; True if the statement can be dropped."""
        target = stmt.targets[0]
        aval = target.aval
        static_shape = None not in aval.shape
        size = int(np.prod(aval.shape)) if static_shape else None
        if stmt.op in _FILLED and static_shape:
            return self.known(target, np.full(aval.shape, _FILLED[stmt.op], aval.dtype))
        values = [self.value(a) for a in stmt.args]
        if stmt.args and all(v is not None for v in values) and static_shape and size <= _SMALL:
            folded = _evaluate(stmt, values)
            if folded is not None:
                return self.known(target, folded)
        identity = self.identity_operand(stmt, values)
        if identity is not None:
            self.replace[id(target)] = identity
            return True
        if stmt.op == "broadcast_to" and values[0] is not None and np.size(values[0]) == 1:
            self.scalars[id(target)] = np.asarray(values[0], aval.dtype).reshape(())
        elif stmt.op in _ELEMENTWISE:
            self.absorb_broadcast(stmt, values)
        return False

    def known(self, target, value) -> bool:
        """Bind ``target`` to a known value: a constant if it is one element, else (uniform
        values only) a broadcast scalar; other values stay computed at run time."""
        if value.size == 1:
            self.consts[id(target)] = value
            self.replace[id(target)] = ir.Const(value)
            return True
        first = value.reshape(-1)[0]
        if value.size and (value == first).all():
            self.scalars[id(target)] = np.asarray(first, value.dtype)
        elif value.size <= _SMALL:
            self.consts[id(target)] = value
            self.replace[id(target)] = ir.Const(value)
            return True
        return False

    def identity_operand(self, stmt, values):
        if stmt.op not in ("pow", "mul", "div", "add", "sub"):
            return None
        unit = 0 if stmt.op in ("add", "sub") else 1
        candidates = [(0, 1)] if stmt.op in ("pow", "div", "sub") else [(0, 1), (1, 0)]
        for keep, other in candidates:
            atom, value = stmt.args[keep], values[other]
            if isinstance(atom, ir.Var) and atom.aval == stmt.targets[0].aval and _all_equal(value, unit):
                return atom
        scalar_ones = [i for i, a in enumerate(stmt.args) if self.scalars.get(id(a)) is not None
                       and _all_equal(self.scalars[id(a)], unit)]
        if stmt.op == "mul" and scalar_ones:
            other = stmt.args[1 - scalar_ones[0]]
            if isinstance(other, ir.Var) and other.aval == stmt.targets[0].aval:
                return other
        return None

    def absorb_broadcast(self, stmt, values) -> None:
        target = stmt.targets[0]
        scalars = [self.scalars.get(id(a)) if isinstance(a, ir.Var) else None for a in stmt.args]
        if all(s is None for s in scalars):
            return
        # Another operand is already an array of the result's shape and dtype, so NumPy broadcasts
        # the scalar and promotes the same way under NumPy 1.26 (value-based) and 2.x (NEP 50).
        full_array = any(isinstance(a, ir.Var) and a.aval == target.aval and s is None
                         for a, s in zip(stmt.args, scalars))
        if full_array:
            stmt.args = tuple(ir.Const(s) if s is not None else a for a, s in zip(stmt.args, scalars))
            return
        operands = [s if s is not None else v for s, v in zip(scalars, values)]
        if all(o is not None and np.size(o) == 1 for o in operands):
            folded = _evaluate(stmt, [np.asarray(o).reshape(()) for o in operands], shape=())
            if folded is not None:
                self.scalars[id(target)] = np.asarray(folded, target.aval.dtype).reshape(())


def _all_equal(value, unit) -> bool:
    """Whether ``value`` is a single element equal to ``unit`` (0 or 1)."""
    if value is None or isinstance(value, bool):
        return False
    array = np.asarray(value)
    return array.size == 1 and bool(array.reshape(()) == unit)


def _evaluate(stmt: ir.Apply, values, shape=None):
    """Run an op now on known values, with the compiled code's casts; None if it cannot be folded.

    The result must have the target's shape, or ``shape`` when given (folding broadcast scalars)."""
    definition = op_table()[stmt.op]
    if definition.name in ("print",) or stmt.op.startswith("random") or definition.family == "collective":
        return None
    target = stmt.targets[0].aval
    try:
        operand_dtype = definition.operand_dtype(*values, **stmt.static) if definition.operand_dtype else None
        if operand_dtype is not None:
            values = [np.asarray(v).astype(operand_dtype) if isinstance(v, np.ndarray) else v for v in values]
        with np.errstate(all="ignore"):
            result = definition.forward(*values, **stmt.static)
        result = np.asarray(result, dtype=target.dtype)
    except Exception:  # noqa: BLE001 - anything odd is simply left to run time
        return None
    expected = target.shape if shape is None else shape
    return result if result.shape == expected else None


# ---------------------------------------------------------------- copy propagation


def _propagate_copies(function: ir.Function) -> None:
    replace: dict[int, ir.Var] = {}
    _copies_in_block(function.body, replace)


def _copies_in_block(block: ir.Block, replace: dict) -> None:
    kept = []
    for stmt in block.stmts:
        _rewrite_uses(stmt, replace)
        if (isinstance(stmt, ir.Apply) and stmt.op in _IDENTITY_WHEN_SAME_AVAL and len(stmt.targets) == 1
                and isinstance(stmt.args[0], ir.Var) and stmt.args[0].aval == stmt.targets[0].aval):
            replace[id(stmt.targets[0])] = stmt.args[0]
            continue
        for inner in ir.nested_blocks(stmt):
            _copies_in_block(inner, replace)
        kept.append(stmt)
    block.stmts = kept
    block.results = tuple(_sub(a, replace) for a in block.results)


def _sub(atom, replace):
    return replace.get(id(atom), atom) if isinstance(atom, ir.Var) else atom


def _rewrite_uses(stmt, replace) -> None:
    if isinstance(stmt, (ir.Apply, ir.Call, ir.Effect)):
        stmt.args = tuple(_sub(a, replace) for a in stmt.args)
    elif isinstance(stmt, ir.If):
        stmt.cond = _sub(stmt.cond, replace)
    elif isinstance(stmt, ir.ForRange):
        stmt.start, stmt.stop, stmt.step = (_sub(a, replace) for a in (stmt.start, stmt.stop, stmt.step))
        stmt.carried = tuple(_sub(a, replace) for a in stmt.carried)
    elif isinstance(stmt, ir.While):
        stmt.carried = tuple(_sub(a, replace) for a in stmt.carried)
    elif isinstance(stmt, ir.TapePush):
        stmt.values = tuple(_sub(a, replace) for a in stmt.values)


# ---------------------------------------------------------------- dead code


def _eliminate_dead_code(module: ir.Module) -> None:
    for function in module.functions.values():
        _dead_in_block(function.body, set())
    reachable = {module.entry}
    pending = [module.entry]
    while pending:
        function = module.functions[pending.pop()]
        for stmt in ir.walk_stmts(function.body):
            if isinstance(stmt, ir.Call) and stmt.callee not in reachable:
                reachable.add(stmt.callee)
                pending.append(stmt.callee)
    module.functions = {name: f for name, f in module.functions.items() if name in reachable}


def _dead_in_block(block: ir.Block, live_after: set) -> set:
    """Remove dead statements; returns the ids of Vars live at the block's start."""
    live = set(live_after) | {id(a) for a in block.results if isinstance(a, ir.Var)}
    kept = []
    for stmt in reversed(block.stmts):
        defined = ir.defined_vars(stmt)
        needed = any(id(v) in live for v in defined)
        if isinstance(stmt, (ir.Apply, ir.TapePop)) and not needed:
            continue
        if isinstance(stmt, ir.Call) and not needed and not stmt.targets == ():
            continue
        if isinstance(stmt, (ir.If, ir.ForRange, ir.While)) and not needed and not _has_effect(stmt):
            continue
        live.update(_uses_with_nested(stmt, live))
        kept.append(stmt)
    block.stmts = kept[::-1]
    return live


def _has_effect(stmt) -> bool:
    """Whether a control-flow statement does something besides computing its outputs: prints,
    assigns Parameters, calls a function, or saves residuals on a tape for the backward sweep."""
    return any(isinstance(s, (ir.Effect, ir.Call, ir.TapePush)) for block in ir.nested_blocks(stmt)
               for s in ir.walk_stmts(block))


def _uses_with_nested(stmt, live) -> set:
    uses = {id(a) for a in ir.used_atoms(stmt) if isinstance(a, ir.Var)}
    if isinstance(stmt, ir.If):
        for block in (stmt.then_block, stmt.else_block):
            uses |= _dead_in_block(block, set())
    elif isinstance(stmt, (ir.ForRange, ir.While)):
        # Loop bodies: everything the body yields is live (it feeds the next iteration).
        body_live = _dead_in_block(stmt.body, set())
        uses |= body_live
        if isinstance(stmt, ir.While):
            uses |= _dead_in_block(stmt.cond, set())
    return uses
