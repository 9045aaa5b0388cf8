"""Optimize: clean typed normal form before codegen.

* dead code elimination: a pure op whose results nothing reads is dropped (effects — print and
  Parameter assignment — always stay), inside nested blocks too, and functions no longer called go;
* copy propagation of identity ops (``reshape`` to the same shape, ``cast`` to the same dtype,
  ``broadcast_to`` the same shape): their result is replaced by their operand.

Each pass takes a module and returns a new one; the input is not modified.
"""
from __future__ import annotations

import copy

from . import ir

_IDENTITY_WHEN_SAME_AVAL = {"reshape", "cast", "broadcast_to", "stop_gradient_identity"}


def optimize(module: ir.Module) -> ir.Module:
    """Run every pass; returns a new module."""
    module = copy.deepcopy(module)
    for function in module.functions.values():
        _propagate_copies(function)
    _eliminate_dead_code(module)
    return module


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
    return any(isinstance(s, (ir.Effect, ir.Call)) for block in ir.nested_blocks(stmt)
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
