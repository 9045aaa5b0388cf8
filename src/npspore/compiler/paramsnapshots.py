"""Reads of a Parameter that the call then updates, taken as they are (before reverse-mode differentiation).

A Parameter is one array that ``ops.assign`` (an ``assign`` effect, ``assign_add``, a sub-cell updating its own
state, BatchNorm's running statistics) overwrites in place. A value computed from it before the update keeps the
old value, but the backward sweep runs after the whole forward sweep: where an op's adjoint reads the Parameter
itself (``a = p * x; ops.assign(p, 3 * p)``: ``d_x = d_a * p``), it would read the new array. So, in a program
to be differentiated, an op that reads such a Parameter (other than a view, whose adjoint reads nothing of it,
and ``add``/``sub``/``neg``, whose adjoints read no operand), or a call handing it to a function that reads it
without updating it (a sub-cell's weight the caller then updates), reads a copy taken just before it instead
(``p_read = p * 1.0``; optimize never folds it into ``p``: ``rewrite.changing_vars``). The forward computes the
same values; the backward reads the values the forward read, as MindSpore 2.10's GRAPH mode does (its PYNATIVE
mode reads the new array; ``docs/known-differences.md``). Only gradient programs change, and only where a
Parameter is updated in the call being differentiated.
"""
from __future__ import annotations

import copy

from ..opdef import op_table
from . import ir
from .rewrite import Namer

# ops whose result may be a view of an operand, and ops whose adjoint reads no operand
_NOT_SNAPSHOT = {"reshape", "transpose", "expand_dims", "squeeze", "flatten", "broadcast_to", "getitem", "row",
                 "swapaxes", "add", "sub", "neg", "stop_gradient"}


def snapshot_updated_reads(module: ir.Module) -> ir.Module:
    """A copy of ``module`` in which each differentiable op reading a Parameter that its function (or a function
    it calls) updates reads a copy of it taken just before (module docstring); ``module`` itself when no function
    updates one."""
    written = _written_parameters(module)
    if not any(written.values()):
        return module
    module = copy.deepcopy(module)
    for function in module.functions.values():
        changing = _changing(function, written)
        if changing:
            _snapshot_reads(function, changing, written)
    return module


def _written_parameters(module: ir.Module) -> dict:
    """``{function name: positions of its parameters it updates, itself or through the functions it calls}``."""
    written: dict = {name: set() for name in module.functions}
    grew = True
    while grew:
        grew = False
        for name, function in module.functions.items():
            changing = _changing(function, written)
            positions = {k for k, p in enumerate(function.params) if id(p) in changing}
            if not positions <= written[name]:
                written[name] |= positions
                grew = True
    return written


def _changing(function: ir.Function, written: dict) -> set:
    """The ids of the Vars of ``function`` an update may overwrite: those it assigns, and those it passes to a
    function at a position that function updates."""
    changing = set()
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Effect) and stmt.kind == "assign" and isinstance(stmt.args[0], ir.Var):
            changing.add(id(stmt.args[0]))
        elif isinstance(stmt, ir.Call):
            changing.update(id(a) for k, a in enumerate(stmt.args)
                            if isinstance(a, ir.Var) and k in written.get(stmt.callee, ()))
    return changing


def _snapshot_reads(function: ir.Function, changing: set, written: dict) -> None:
    table = op_table()
    namer = Namer(function)
    for block in ir.all_blocks(function.body):
        stmts: list = []
        for stmt in block.stmts:
            if isinstance(stmt, ir.Apply) and stmt.op not in _NOT_SNAPSHOT and stmt.op in table \
                    and table[stmt.op].differentiable:
                read = list(range(len(stmt.args)))
            elif isinstance(stmt, ir.Call):   # a callee reading it (not one updating it, which needs the array)
                read = [k for k in range(len(stmt.args)) if k not in written.get(stmt.callee, ())]
            else:
                read = []
            reads: dict = {}
            for position in read:
                atom = stmt.args[position]
                if (isinstance(atom, ir.Var) and id(atom) in changing and atom.aval.dtype.kind in "fc"
                        and id(atom) not in reads):
                    reads[id(atom)] = namer.named(f"{atom.name}_read", atom.aval)
                    stmts.append(ir.Apply((reads[id(atom)],), "mul", (atom, ir.Const(1.0)), {}, stmt.loc))
            if reads:
                stmt.args = tuple(reads.get(id(a), a) if isinstance(a, ir.Var) and k in read else a
                                  for k, a in enumerate(stmt.args))
            stmts.append(stmt)
        block.stmts = stmts
