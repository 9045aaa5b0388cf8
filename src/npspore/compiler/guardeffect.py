"""The ``guard`` effect of a value guard (``compiler.guards.ValueGuard``) and where it goes in a kernel.

A kernel specialized on a value computed from its inputs checks that value where it runs: a
``guard`` effect (:func:`value_guard`, rendered by codegen as ``if ...: raise rt.GuardFailed(i, v)``)
placed before the first statement whose work the caller could see (:func:`place_value_guard`), so a
kernel whose guard fails has written no Parameter and run no hook or ``print``; or, where the value is known
only after Parameters are written, after them, writing them back when it fails. Used by the
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


def _assigned_positions(name: str, functions: dict) -> set:
    """The positions of the params of function ``name`` whose arrays it writes, itself or in a function it calls
    (a Parameter handed to the cell that updates it)."""
    function = functions[name]
    position = {id(p): i for i, p in enumerate(function.params)}
    found = set()
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Effect) and stmt.kind == "assign" and id(stmt.args[0]) in position:
            found.add(position[id(stmt.args[0])])
        elif isinstance(stmt, ir.Call):
            found.update(position[id(stmt.args[k])] for k in _assigned_positions(stmt.callee, functions)
                         if id(stmt.args[k]) in position)
    return found


def written_vars(stmts, functions: dict) -> set:
    """The Vars whose arrays ``stmts`` may write: a Parameter they assign (in a nested block too), an argument
    that a function they call writes."""
    written = set()
    for stmt in stmts:
        for inner in (stmt, *(s for block in ir.nested_blocks(stmt) for s in ir.walk_stmts(block))):
            if isinstance(inner, ir.Effect) and inner.kind == "assign":
                written.add(inner.args[0])
            elif isinstance(inner, ir.Call):
                written.update(inner.args[k] for k in _assigned_positions(inner.callee, functions)
                               if isinstance(inner.args[k], ir.Var))
    return written


def shows(stmt, functions: dict) -> bool:
    """Whether running ``stmt`` does what cannot be undone: a hook (host call) or ``print`` run, here or in a block
    or function it runs (a Parameter written can be written back)."""
    for inner in (stmt, *(s for block in ir.nested_blocks(stmt) for s in ir.walk_stmts(block))):
        if isinstance(inner, ir.Effect) and inner.kind in ("host_call", "print", "print_tree", "print_each"):
            return True
        if isinstance(inner, ir.Call) and any(shows(s, functions) for s in functions[inner.callee].body.stmts):
            return True
    return False


def _guard_writing_back(block: ir.Block, guard: ir.Effect, first: int, functions: dict, names) -> None:
    """Append ``guard`` to ``block`` after Parameters were written (from statement ``first`` on): each of them is
    copied before ``first`` and written back when the guard fails, so a failed kernel leaves them as they were
    (BatchNorm's running statistics, updated before a loss whose value decides an ``if``, MindSpore-GAN's EBGAN)."""
    written = sorted(written_vars(block.stmts[first:], functions), key=lambda v: v.name)
    copies, restores = [], []
    for parameter in written:
        copy = names.var(f"{parameter.name}_before", parameter.aval)
        one = ir.Const(1.0 if parameter.aval.dtype.kind in "fc" else 1)   # never folded: rewrite.changing_vars
        copies.append(ir.Apply((copy,), "mul", (parameter, one), {}, guard.loc))
        restores += [parameter, copy]
    block.stmts = block.stmts[:first] + copies + block.stmts[first:]
    block.stmts.append(ir.Effect("guard", guard.args + tuple(restores), guard.loc))


def place_value_guard(block: ir.Block, guard: ir.Effect, functions: dict, names=None) -> None:
    """Append ``guard`` to ``block`` so that it runs before the first statement the caller can see:
    the statements computing its value move up with it. When they cannot (the value depends on a Parameter
    written before) and ``names`` (the function's ``NameSupply``) is given, the guard follows them and writes the
    Parameters back when it fails (:func:`_guard_writing_back`). Raises NotSupportedError (at the guard's line)
    when a hook or ``print`` ran before the value is known, or a Parameter was written and ``names`` is None."""
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
    written = written_vars(stmts[first:], functions)
    if any(is_visible(stmt, functions) for stmt in moved) or needed & written:
        if names is not None and not any(shows(stmt, functions) for stmt in stmts[first:]):
            return _guard_writing_back(block, guard, first, functions, names)
        raise located(NotSupportedError(
            "this value decides how the code is compiled, and it is read after a Parameter is written or a "
            "hook or print runs, so the kernel could not check it before doing that; read it earlier"), guard.loc)
    moved.reverse()
    kept = [stmt for stmt in stmts[first:] if not any(stmt is m for m in moved)]
    block.stmts = stmts[:first] + moved + [guard] + kept
