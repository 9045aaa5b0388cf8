"""Op-level recompute (``Primitive.recompute()``) in the backward sweep of the caller.

Part of the differentiate stage. A call of a recomputed primitive (``ir.CustomBackward`` with
``recompute_output``) already has a backward that computes the op again from its inputs
(``differentiate``'s recompute pairs, as for ``Cell.recompute()``). As MindSpore documents, the op's
output is not kept for any other backward node either: where the caller's backward sweep reads the
output (the adjoint of ``y * w`` reads ``y``), it calls the primitive again just before that first
read, so the forward value can die after its last forward use. Only calls at the top level of the
function are recomputed this way (the inputs of a call inside a branch or a loop are local to it).
"""
from __future__ import annotations

from . import ir


def _reads(stmt, wanted: set) -> bool:
    """Whether ``stmt`` (with its nested blocks and their results) reads a Var of ``wanted``."""
    if any(isinstance(a, ir.Var) and a in wanted for a in ir.used_atoms(stmt)):
        return True
    for inner in ir.nested_blocks(stmt):
        if any(_reads(s, wanted) for s in inner.stmts):
            return True
        if any(isinstance(a, ir.Var) and a in wanted for a in inner.results):
            return True
    return False


def recompute_outputs(forward: ir.Block, backward: ir.Block, names) -> None:
    """Call each recomputed primitive of ``forward`` (top level) again in ``backward``, in place,
    before the first backward statement that reads its results; ``names`` makes the new Vars."""
    for stmt in forward.stmts:
        custom = stmt.custom if isinstance(stmt, ir.Call) else None
        if custom is None or not custom.recompute_output:
            continue
        wanted = set(stmt.targets)
        first = next((i for i, s in enumerate(backward.stmts) if _reads(s, wanted)), None)
        if first is None:
            if not any(isinstance(a, ir.Var) and a in wanted for a in backward.results):
                continue
            first = len(backward.stmts)
        again = tuple(names.var(t.name, t.aval) for t in stmt.targets)
        rest = ir.Block(backward.stmts[first:], backward.results)
        ir.substitute(rest, dict(zip(stmt.targets, again)))
        backward.stmts[first:] = [ir.Call(again, stmt.callee, stmt.args, stmt.loc), *rest.stmts]
        backward.results = rest.results
