"""Staging an op's tangent rule: :func:`tangent_of` (one tangent per value) and
:func:`batched_tangent_of` (tangents with a leading batch axis), for ``forwardmode``.

An op's rule is its own ``tangent`` function, staged like an adjoint (``trace.stage_rule``), or its
family's derivation (``opdef``): ``DIAGONAL`` stages the adjoint on each operand's tangent,
``LINEAR`` applies the op to the tangents, ``MULTILINEAR`` sums the op over each tangent in turn.

## Batched tangents

A batched tangent has a leading axis of size N: N tangents of one value, computed in one sweep (the
basis of ``jacfwd``; the basis of cotangents of ``jacrev``, pushed forward through a gradient). The
primal values have no such axis. Each family's derivation carries over with a small change:

* ``DIAGONAL``: an elementwise rule broadcasts from the right, so the rule itself applies once each
  operand's tangent has the result's rank (a ``1`` inserted after the batch axis where NumPy would
  have added a leading one);
* ``LINEAR``: the op applied to the tangents with its static attributes moved past the batch axis
  (``sum(axis=0)`` becomes ``sum(axis=-nd)``, ``reshape(s)`` becomes ``reshape((N,) + s)``...);
* ``matmul``/``batch_matmul``/``dot``: a batched matrix operand is a stack of matrices, which
  ``matmul`` broadcasts; a batched vector operand is a matrix of rows (``x @ v`` is ``v @ xᵀ``);
* an op's own rule whose only static attribute is ``axis`` (default ``-1``: softmax & co.): the axis
  counted from the right reads the same dims of the batched tangents as of the primal values.

Any other op raises :class:`~npspore.compiler.jvpspec.UnbatchedTangent` (the caller takes one
tangent at a time).
"""
from __future__ import annotations

import numpy as np

from ..opdef import DIAGONAL, LINEAR, MULTILINEAR, Aval, op_table
from . import ir
from .builder import BlockBuilder
from .differentiate import _nondifferentiable_operands
from .ir import Apply, Const, Loc, Var
from .jvpspec import UnbatchedTangent
from .trace import stage_rule

__all__ = ["tangent_of", "batched_tangent_of", "zeros", "zero_constant"]


def tangent_of(stmt: Apply, d_args: list, builder: BlockBuilder, hint: str) -> tuple:
    """Stage the tangent of ``stmt``'s results from its operands' tangents (``None``: a zero).

    Returns one atom or ``None`` per target, not yet fitted to the targets' shapes and dtypes.
    """
    definition = op_table()[stmt.op]
    rule = definition.tangent
    multi = ir.returns_tuple(stmt)
    out = tuple(stmt.targets) if multi else stmt.targets[0]
    if rule == DIAGONAL:
        total = None
        for i, d in enumerate(d_args):
            if d is None:
                continue
            staged = stage_rule(definition.adjoint, builder, (*stmt.args, out, d), stmt.static, stmt.loc, hint=hint)
            part = staged[i] if len(definition.operands) > 1 else staged
            total = part if total is None else builder.apply("add", (total, part), loc=stmt.loc, hint=hint)
        return (total,)
    if rule == LINEAR:
        skip = _nondifferentiable_operands(definition)
        args = tuple(a if i in skip else d_args[i] if d_args[i] is not None else _zero_like(a, builder, stmt.loc, hint)
                     for i, a in enumerate(stmt.args))
        staged = builder.apply(stmt.op, args, stmt.static, loc=stmt.loc, hint=hint)
        return staged if multi else (staged,)
    if rule == MULTILINEAR:
        total = None
        for i, d in enumerate(d_args):
            if d is None:
                continue
            args = stmt.args[:i] + (d,) + stmt.args[i + 1:]
            term = builder.apply(stmt.op, args, stmt.static, loc=stmt.loc, hint=hint)
            total = term if total is None else builder.apply("add", (total, term), loc=stmt.loc, hint=hint)
        return (total,)
    staged = stage_rule(rule, builder, (*stmt.args, out, *d_args), stmt.static, stmt.loc, hint=hint)
    return staged if multi else (staged,)


def _zero_like(atom, builder: BlockBuilder, loc: Loc, hint: str):
    """A zero standing for the tangent of ``atom`` (a constant operand: a zero of its kind)."""
    if isinstance(atom, Const):
        return atom if atom.value is None else zero_constant(atom.value)
    return zeros(builder, atom.aval, atom, loc, hint)


def zero_constant(value) -> Const:
    """A zero of the kind of the constant ``value`` (a number stays a number)."""
    zero = np.zeros_like(np.asarray(value))
    return Const(zero.item() if zero.ndim == 0 else zero)


def zeros(builder: BlockBuilder, aval: Aval, like, loc: Loc, hint: str):
    """Zeros of ``aval``: from its static shape, else shaped like ``like`` at run time."""
    if any(d is None for d in aval.shape):
        return builder.apply("zeros_like", (like,), {"dtype": aval.dtype}, loc=loc, hint=hint)
    return builder.apply("zeros", (), {"shape": tuple(aval.shape), "dtype": aval.dtype}, loc=loc, hint=hint)



# ---------------------------------------------------------------------------------------- batched


def _negative(axis, ndim: int):
    """``axis`` (None for all, an int or a tuple) as negative axes of an ``ndim``-dim value."""
    if axis is None:
        return tuple(range(-ndim, 0))
    if isinstance(axis, int):
        return axis % ndim - ndim if ndim else axis
    return tuple(a % ndim - ndim for a in axis)


def _ranked(builder: BlockBuilder, tangent, ndim: int, stmt: Apply, hint: str):
    """A batched tangent reshaped to rank ``1 + ndim`` (ones after the batch axis), as broadcasting
    would see the unbatched tangent."""
    if not isinstance(tangent, Var) or tangent.aval.ndim >= ndim + 1:
        return tangent
    shape = tuple(tangent.aval.shape)
    ranked = (shape[0],) + (1,) * (ndim + 1 - len(shape)) + shape[1:]
    return builder.apply("reshape", (tangent,), {"shape": ranked}, loc=stmt.loc, hint=hint)


def _linear_static(stmt: Apply, batch: int) -> dict:
    """The static attributes of a linear op applied to batched tangents."""
    static = dict(stmt.static)
    first = next(a for a in stmt.args if isinstance(a, Var))
    nd, out_nd = first.aval.ndim, stmt.targets[0].aval.ndim
    op = stmt.op
    if op in ("sum", "mean"):
        static["axis"] = _negative(static.get("axis"), nd)
    elif op in ("concat", "split"):
        static["axis"] = _negative(static.get("axis", 0), nd)
    elif op in ("stack", "expand_dims"):
        static["axis"] = _negative(static.get("axis", 0), out_nd)
    elif op == "squeeze":
        axis = static.get("axis")
        static["axis"] = (tuple(i - nd for i, d in enumerate(first.aval.shape) if d == 1) if axis is None
                          else _negative(axis, nd))
    elif op in ("reshape", "broadcast_to"):
        shape = static["shape"]
        static["shape"] = (batch,) + (tuple(shape) if isinstance(shape, (tuple, list)) else (shape,))
    elif op == "transpose":
        axes = static.get("axes")
        static["axes"] = (0,) + (tuple(range(nd, 0, -1)) if axes is None else tuple(a % nd + 1 for a in axes))
    elif op == "getitem":
        index = static["index"]
        static["index"] = (slice(None),) + (index if isinstance(index, tuple) else (index,))
    elif op == "flatten":
        static["start_dim"] = static.get("start_dim", 0) % nd + 1
        static["end_dim"] = static.get("end_dim", -1) % nd + 1
    else:
        raise UnbatchedTangent(op)
    return static


def _matmul(stmt: Apply, d_args: list, builder: BlockBuilder, hint: str):
    """The product rule of a matrix product with batched tangents."""
    x, y = stmt.args
    flags = {k: v for k, v in stmt.static.items() if v}
    if stmt.op == "dot" and flags:
        raise UnbatchedTangent(stmt.op)
    total = None
    for position, d in enumerate(d_args):
        if d is None:
            continue
        other = y if position == 0 else x
        vector = (x if position == 0 else y).aval.ndim == 1
        if not vector:   # its batch dims line up with the other operand's once it has the result's rank
            d = _ranked(builder, d, stmt.targets[0].aval.ndim, stmt, hint)
        if not vector and position == 0 and y.aval.ndim == 2 and not flags.get("transpose_a") and None not in x.aval.shape:
            # rows of a stack of matrices times one matrix: one product of all the rows (not one per matrix)
            rows = builder.apply("reshape", (d,), {"shape": (-1, x.aval.shape[-1])}, loc=stmt.loc, hint=hint)
            if flags.get("transpose_b"):
                # rows @ yᵀ as (y @ rowsᵀ)ᵀ: a basis pushed through layers stays in columns, each layer's
                # product then reads both operands in memory order (a faster BLAS kernel than with yᵀ)
                product = builder.apply("matmul", (y, rows), {"transpose_b": True}, loc=stmt.loc, hint=hint)
                product = builder.apply("transpose", (product,), {"axes": (1, 0)}, loc=stmt.loc, hint=hint)
            else:
                product = builder.apply("matmul", (rows, y), loc=stmt.loc, hint=hint)
            term = builder.apply("reshape", (product,), {"shape": (d.aval.shape[0],) + tuple(stmt.targets[0].aval.shape)},
                                 loc=stmt.loc, hint=hint)
            total = term if total is None else builder.apply("add", (total, term), loc=stmt.loc, hint=hint)
            continue
        if not vector and position == 1 and x.aval.ndim == 2 and y.aval.ndim == 2 and y.aval.shape[-1] == 1 \
                and not flags.get("transpose_b"):
            # a matrix times one column per tangent: the columns as the rows of one product with xᵀ
            rows = builder.apply("reshape", (d,), {"shape": (-1, y.aval.shape[0])}, loc=stmt.loc, hint=hint)
            product = builder.apply("matmul", (rows, x), {"transpose_b": True} if not flags.get("transpose_a") else {},
                                    loc=stmt.loc, hint=hint)
            term = builder.apply("reshape", (product,), {"shape": (d.aval.shape[0],) + tuple(stmt.targets[0].aval.shape)},
                                 loc=stmt.loc, hint=hint)
            total = term if total is None else builder.apply("add", (total, term), loc=stmt.loc, hint=hint)
            continue
        if not vector:
            args = (d, y) if position == 0 else (x, d)
            static = flags
        elif position == 0 and other.aval.ndim <= 2:     # rows v (N, k) @ y
            args, static = (d, y), {"transpose_b": flags.get("transpose_b", False)}
        elif position == 1 and other.aval.ndim <= 2:     # x @ v for each row v: v @ xᵀ
            args, static = (d, x), {"transpose_b": not flags.get("transpose_a", False)} if other.aval.ndim == 2 else {}
        else:
            raise UnbatchedTangent(stmt.op)
        term = builder.apply("matmul", args, {k: v for k, v in static.items() if v}, loc=stmt.loc, hint=hint)
        total = term if total is None else builder.apply("add", (total, term), loc=stmt.loc, hint=hint)
    return (total,)


def batched_tangent_of(stmt: Apply, d_args: list, builder: BlockBuilder, hint: str, batch: int) -> tuple:
    """``forwardmode.tangent_of`` for tangents with a leading batch axis of size ``batch``."""
    definition = op_table()[stmt.op]
    rule = definition.tangent
    out_nd = stmt.targets[0].aval.ndim
    if rule == DIAGONAL:
        return tangent_of(stmt, [None if d is None else _ranked(builder, d, out_nd, stmt, hint) for d in d_args],
                          builder, hint)
    if stmt.op in ("matmul", "batch_matmul", "dot"):
        return _matmul(stmt, d_args, builder, hint)
    if rule == LINEAR:
        static = _linear_static(stmt, batch)
        if stmt.op == "broadcast_to":
            d_args = [_ranked(builder, d_args[0], len(stmt.static["shape"]), stmt, hint)]
        args = []
        for a, d in zip(stmt.args, d_args):
            if d is not None:
                args.append(d)
            elif isinstance(a, Var):
                args.append(zeros(builder, type(a.aval)((batch,) + tuple(a.aval.shape), a.aval.dtype), a, stmt.loc,
                                  hint))
            else:
                args.append(a if isinstance(a, Const) else Const(a))
        staged = builder.apply(stmt.op, tuple(args), static, loc=stmt.loc, hint=hint)
        return staged if isinstance(staged, tuple) else (staged,)
    if callable(rule) and definition.static == {"axis": -1}:
        first = next(a for a in stmt.args if isinstance(a, Var))
        static = {"axis": _negative(stmt.static.get("axis", -1), first.aval.ndim)}
        staged = stage_rule(rule, builder, (*stmt.args, stmt.targets[0], *d_args), static, stmt.loc, hint=hint)
        return (staged,)
    raise UnbatchedTangent(stmt.op)
