"""A NumPy step of optimize: the gradient of values read at class indices without its one-hot array.

A loss that reads one value per row at a class index (``gather_last``: the sparse cross-entropies read
each sample's log-probability at its label) sends back ``scatter_last(g, labels)``, zeros with ``g`` at
the labels. Where that array is only summed along its rows and added to another, nothing needs it:

* ``sum(scatter_last(g, i), axis=-1)``, one index per row, is ``g`` itself (each row's only element);
* ``scatter_last(g, i) - y`` is ``-y`` with ``g`` added at the indices (``y + scatter_last(g, i)``: ``y``
  with ``g`` added), written into that new array (``scatter_last_add_in_place``); a product by a factor
  that broadcasts, ``-(a * b)``, negates the smaller factor instead (``a * -b``).

log-softmax's adjoint ``dout - exp(out) * sum(dout)`` of the sparse cross-entropy then reads
``exp(out) * -g``, ``g`` added at the labels: two passes over the logits instead of five.
"""
from __future__ import annotations

import numpy as np

from . import ir
from .inplace import makes_new_array
from .rewrite import Namer


def fold_one_hot_gradients(function: ir.Function) -> None:
    """Apply both rewrites to ``function``, in place (before dead code elimination: a product whose
    factor is negated instead is left unread)."""
    defs = {id(t): s for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) for t in s.targets}
    uses = ir.use_counts(function)
    namer = Namer(function)
    rows: dict = {}   # a sum's target -> the values summed, when they keep its shape
    for block in ir.all_blocks(function.body):
        stmts: list = []
        for stmt in block.stmts:
            if isinstance(stmt, ir.Apply) and stmt.op == "sum" and _sum_of_one_per_row(stmt, defs, uses, rows):
                continue
            if isinstance(stmt, ir.Apply) and stmt.op in ("add", "sub"):
                stmts.extend(_added_at_indices(stmt, stmts, defs, uses, namer))
            stmts.append(stmt)
        block.stmts = stmts
    ir.substitute(function.body, rows)


def _one_per_row(atom, defs: dict) -> ir.Apply | None:
    """The ``scatter_last`` that made ``atom``, when it writes one value per row."""
    stmt = defs.get(id(atom)) if isinstance(atom, ir.Var) else None
    if stmt is None or stmt.op != "scatter_last" or not all(isinstance(a, ir.Var) for a in stmt.args):
        return None
    g = stmt.args[0]
    return stmt if g.aval.shape[-1:] == (1,) and g.aval.dtype == stmt.targets[0].aval.dtype else None


def _sum_of_one_per_row(stmt: ir.Apply, defs: dict, uses: dict, rows: dict) -> bool:
    """Whether ``stmt``, a sum, is dropped for the values it sums (in ``rows``); it may become their
    reshape instead (no kept dim)."""
    scatter = _one_per_row(stmt.args[0], defs)
    ndim = len(stmt.args[0].aval.shape) if isinstance(stmt.args[0], ir.Var) else 0
    axis = stmt.static.get("axis")
    if scatter is None or stmt.static.get("dtype") is not None or axis not in (-1, ndim - 1, (-1,), (ndim - 1,)):
        return False
    g = scatter.args[0]
    uses[id(stmt.args[0])] -= 1
    if stmt.static.get("keepdims"):
        rows[stmt.targets[0]] = g
        return True
    stmt.op, stmt.args, stmt.static = "reshape", (g,), {"shape": g.aval.shape[:-1]}
    return False


def _added_at_indices(stmt: ir.Apply, before_it: list, defs: dict, uses: dict, namer: Namer) -> list:
    """The statements to put before ``stmt`` when it becomes ``scatter_last_add_in_place`` (``stmt`` is
    changed in place), else none. ``before_it``: the statements before it in its block."""
    target = stmt.targets[0]
    for position in (0, 1) if stmt.op == "add" else (0,):
        scatter, other = _one_per_row(stmt.args[position], defs), stmt.args[1 - position]
        if (scatter is not None and uses.get(id(stmt.args[position])) == 1 and isinstance(other, ir.Var)
                and other.aval == target.aval == scatter.targets[0].aval):
            break
    else:
        return []
    g, indices = scatter.args
    if stmt.op == "add":
        made = defs.get(id(other))   # written into: made in this block (a loop body's step would see it written)
        if (made is None or uses.get(id(other)) != 1 or not makes_new_array(made.op)
                or not any(s is made for s in before_it)):
            return []
        before, buffer = [], other
    else:
        before = _negated(other, defs, uses, namer, stmt.loc)
        buffer = before[-1].targets[0]
    stmt.op, stmt.args, stmt.static, stmt.into = "scatter_last_add_in_place", (buffer, g, indices), {}, buffer
    for new in before:
        defs.update((id(t), new) for t in new.targets)
    return before


def _negated(value: ir.Var, defs: dict, uses: dict, namer: Namer, loc) -> list:
    """Statements computing ``-value`` into a new array (the last one's target)."""
    product = defs.get(id(value))
    if product is not None and product.op == "mul" and uses.get(id(value)) == 1:
        for position in (0, 1):
            factor, other = product.args[position], product.args[1 - position]
            if (isinstance(factor, ir.Var) and isinstance(other, ir.Var) and other.aval == value.aval
                    and factor.aval.dtype == value.aval.dtype and _size(factor) < _size(value)):
                negated = ir.Apply((namer.var(factor.aval),), "neg", (factor,), {}, loc)
                args = (other, negated.targets[0]) if position == 1 else (negated.targets[0], other)
                return [negated, ir.Apply((namer.var(value.aval),), "mul", args, {}, loc)]
    return [ir.Apply((namer.var(value.aval),), "neg", (value,), {}, loc)]


def _size(var: ir.Var) -> float:
    return float(np.prod(var.aval.shape)) if None not in var.aval.shape else float("inf")
