"""Which values of a module may share memory with one of its constant arrays.

Codegen writes an array constant once, at module level (``_c0 = np.array(...)``); an op that may hand
back its operand or a view of it (``np.asarray``, ``reshape``, basic indexing, a loop that ran no
iteration) passes that array on. A kernel that returned it would let the caller's writes into its
result change every later call's result, so codegen copies such results (:func:`constant_holders`
says which).
"""
from __future__ import annotations

import operator

import numpy as np

from ..opdef import op_table
from . import ir

# ops whose result is always a new array (besides those lowered to a NumPy ufunc)
_FRESH = {"matmul", "dot", "outer_product", "zeros", "zeros_like", "ones", "ones_like", "sum", "mean", "max", "min",
          "prod", "matmul_split", "copy", "empty"}
# ops that write into their first operand and return it: only that operand is passed on
_INTO_FIRST = {"row_add_in_place", "row_set_in_place", "scatter_last_add_in_place", "copy_into", "concat_written",
               "setitem_in_place"}


def _fresh(op: str) -> bool:
    definition = op_table()[op]
    return op in _FRESH or any(isinstance(f, np.ufunc) for f in definition.numpy)


def _constant(atom) -> bool:
    return isinstance(atom, ir.Const) and isinstance(atom.value, np.ndarray) and atom.value.ndim > 0


def _runs(loop) -> bool:
    """Whether a loop surely runs its body: a ``for`` over a non-empty range of constants."""
    if not isinstance(loop, ir.ForRange):
        return False
    bounds = [b.value for b in (loop.start, loop.stop, loop.step) if isinstance(b, ir.Const)]
    return len(bounds) == 3 and len(range(*(operator.index(b) for b in bounds))) > 0  # type: ignore[arg-type]


def constant_holders(module: ir.Module, function: ir.Function) -> set:
    """Ids of the Vars of ``function`` that may be (a view of) an array constant of ``module``."""
    holders: set = set()
    returns: dict[str, tuple[bool, ...]] = {}

    def holds(atom) -> bool:
        return _constant(atom) or (isinstance(atom, ir.Var) and id(atom) in holders)

    def callee_results(name) -> tuple:
        if name not in returns:
            returns[name] = ()  # a recursive call holds nothing more
            callee = module.functions[name]
            inner = constant_holders(module, callee)
            returns[name] = tuple(_constant(a) or id(a) in inner for a in callee.body.results)
        return returns[name]

    def mark(targets, flags) -> bool:
        new = {id(t) for t, flag in zip(targets, flags) if flag} - holders
        holders.update(new)
        return bool(new)

    def block(b: ir.Block) -> bool:
        changed = False
        for stmt in b.stmts:
            if isinstance(stmt, ir.Apply) and not _fresh(stmt.op):
                passed = stmt.args[:1] if stmt.op in _INTO_FIRST else stmt.args
                changed |= mark(stmt.targets, [any(holds(a) for a in passed)] * len(stmt.targets))
            elif isinstance(stmt, ir.Call):
                changed |= mark(stmt.targets, callee_results(stmt.callee))
            elif isinstance(stmt, ir.If):
                changed |= block(stmt.then_block) | block(stmt.else_block)
                changed |= mark(stmt.outputs, [holds(a) or holds(b) for a, b in
                                               zip(stmt.then_block.results, stmt.else_block.results)])
            elif isinstance(stmt, (ir.ForRange, ir.While)):
                carried = [holds(c) or holds(r) for c, r in zip(stmt.carried, stmt.body.results)]
                after = [holds(r) for r in stmt.body.results] if _runs(stmt) else carried
                changed |= mark(stmt.body_params, carried) | mark(stmt.outputs, after)
                changed |= block(stmt.body) | (block(stmt.cond) if isinstance(stmt, ir.While) else False)
        return changed

    while block(function.body):  # until a loop's back edge adds nothing
        pass
    return holders
