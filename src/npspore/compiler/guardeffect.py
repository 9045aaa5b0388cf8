"""The ``guard`` effect of a value guard (``compiler.guards.ValueGuard``) and where it goes in a kernel.

A kernel specialized on a value computed from its inputs checks that value where it runs: a
``guard`` effect (:func:`value_guard`, rendered by codegen as ``if ...: raise rt.GuardFailed(i, v)``)
placed before the first statement whose work the caller could see (:func:`place_value_guard`), so a
kernel whose guard fails has written no Parameter and run no hook or ``print``. Used by the
specializer (``compiler.fallback``) and by tracing (``compiler.tracing``).
"""
from __future__ import annotations

from . import ir
from .errors import NotSupportedError, located


def value_guard(atom, kind: str, expected, index: int, loc) -> ir.Effect:
    """The ``guard`` effect checking, where the kernel runs, that ``atom`` read as ``kind`` is still
    ``expected`` (else ``GuardFailed(index, value)``)."""
    return ir.Effect("guard", (atom, ir.Const(kind), ir.Const(expected), ir.Const(index)), loc)


def is_visible(stmt, functions: dict) -> bool:
    """Whether running ``stmt`` can be seen by the caller: a Parameter written, a hook (host call)
    or ``print`` run, here or in a block or function it runs."""
    for inner in (stmt, *(s for block in ir.nested_blocks(stmt) for s in ir.walk_stmts(block))):
        if isinstance(inner, ir.Effect) and inner.kind in ("assign", "host_call", "print", "print_tree", "print_each"):
            return True
        if isinstance(inner, ir.Call) and any(is_visible(s, functions) for s in functions[inner.callee].body.stmts):
            return True
    return False


def _assigns(function: ir.Function, functions: dict) -> bool:
    """Whether ``function`` writes a Parameter, itself or in a function it calls."""
    return any(isinstance(s, ir.Effect) and s.kind == "assign"
               or isinstance(s, ir.Call) and _assigns(functions[s.callee], functions)
               for s in ir.walk_stmts(function.body))


def _written(stmts, functions: dict) -> set:
    """The Vars whose arrays ``stmts`` may write: a Parameter they assign (in a nested block too), an argument
    of a call to a function that assigns one (a Parameter is handed to the cell that updates it)."""
    written = set()
    for stmt in stmts:
        for inner in (stmt, *(s for block in ir.nested_blocks(stmt) for s in ir.walk_stmts(block))):
            if isinstance(inner, ir.Effect) and inner.kind == "assign":
                written.add(inner.args[0])
            elif isinstance(inner, ir.Call) and _assigns(functions[inner.callee], functions):
                written.update(a for a in inner.args if isinstance(a, ir.Var))
    return written


def place_value_guard(block: ir.Block, guard: ir.Effect, functions: dict) -> None:
    """Append ``guard`` to ``block`` so that it runs before the first statement the caller can see:
    the statements computing its value move up with it. Raises NotSupportedError (at the guard's
    line) when they cannot (the value depends on a Parameter written or a hook run before)."""
    stmts = block.stmts
    first = next((i for i, stmt in enumerate(stmts) if is_visible(stmt, functions)), None)
    if first is None:
        stmts.append(guard)
        return
    needed = {a for a in guard.args if isinstance(a, ir.Var)}
    moved = []
    for stmt in reversed(stmts[first:]):
        if needed.intersection(ir.defined_vars(stmt)):
            moved.append(stmt)
            needed.update(ir.used_vars_deep(stmt))
    written = _written(stmts[first:], functions)
    if any(is_visible(stmt, functions) for stmt in moved) or needed & written:
        raise located(NotSupportedError(
            "this value decides how the code is compiled, and it is read after a Parameter is written or a "
            "hook or print runs, so the kernel could not check it before doing that; read it earlier"), guard.loc)
    moved.reverse()
    kept = [stmt for stmt in stmts[first:] if not any(stmt is m for m in moved)]
    block.stmts = stmts[:first] + moved + [guard] + kept
