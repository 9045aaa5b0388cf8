"""A NumPy step of optimize: the exponential of a log-softmax is the softmax its lowering already summed.

log-softmax's adjoint reads ``exp(out)`` (``dout - exp(out) * sum(dout)``; a sparse cross-entropy's gradient is
``exp(log_probs) * -g`` with ``g`` added at the labels, ``onehotgrads.py``), so a training step exponentiates its
logits twice: once in the forward, inside ``log(sum(exp(shifted)))``, and again in the backward. Where
``y = exp(out)`` and ``out = log_softmax(x)`` are statements of one block, the forward becomes
``out, y = log_softmax_probs(x)`` (``rt.log_softmax_probs``): the same log-probabilities, bit for bit, and the
exponentials it summed times their sum's reciprocal as ``y``, one product instead of a second exponentiation (T2's
(700, 1000) float32 logits: about 2 ms a step on the project's 2-core machine). ``y`` differs from
``exp(out)`` by rounding only (a few units in the last place).
"""
from __future__ import annotations

from . import ir
from .rewrite import Namer


def reuse_softmax_probabilities(function: ir.Function) -> None:
    """Rewrite each ``exp`` of a log-softmax computed in the same block (module docstring), in place; the
    probabilities are named after the log-probabilities (``probs`` for ``log_probs``)."""
    namer = Namer(function)
    renamed: dict = {}
    for block in ir.all_blocks(function.body):
        made_by = {id(s.targets[0]): s for s in block.stmts
                   if isinstance(s, ir.Apply) and s.op == "log_softmax" and len(s.targets) == 1}
        kept = []
        for stmt in block.stmts:
            forward = _log_softmax_exponentiated(stmt, made_by)
            if forward is None:
                kept.append(stmt)
                continue
            out = forward.targets[0]
            probs = namer.named(out.name[4:] if out.name.startswith("log_") else f"{out.name}_probs", out.aval)
            renamed[stmt.targets[0]] = probs
            forward.op, forward.targets = "log_softmax_probs", (out, probs)
            del made_by[id(out)]   # one exponential a log-softmax
        block.stmts = kept
    ir.substitute(function.body, renamed)


def _log_softmax_exponentiated(stmt, made_by: dict) -> ir.Apply | None:
    """The ``log_softmax`` statement whose result ``stmt`` exponentiates, when it can give the probabilities."""
    if not (isinstance(stmt, ir.Apply) and stmt.op == "exp" and len(stmt.args) == 1 and stmt.into is None
            and isinstance(stmt.args[0], ir.Var)):
        return None
    forward = made_by.get(id(stmt.args[0]))
    if forward is None or forward.into is not None or not isinstance(forward.args[0], ir.Var):
        return None
    x = forward.args[0]
    if not x.aval.shape or forward.static.get("axis", -1) == () or stmt.targets[0].aval != forward.targets[0].aval:
        return None
    return forward
