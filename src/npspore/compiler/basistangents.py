"""Batched tangents known to be diagonal: the basis of ``jacfwd``/``jacrev``, carried without products
by the identity.

``jacfwd`` pushes the identity basis through ``f`` (tangent ``k`` is the unit vector ``e_k``);
``jacrev`` pushes it through the backward sweep as cotangents. Applied blindly, the first linear op
on it is a product by the identity (``eye @ Wᵀ``) and the first scaling makes ``diag(s)`` only to
multiply a matrix by it — work a careful hand-written Jacobian never does. :class:`Diagonals`
records which batched tangents ``t`` (batch ``N``) are ``diag(u)`` when flattened to ``(N, N)``
(``u`` a vector Var, or ``None`` for the identity), and :meth:`Diagonals.tangent_of` stages a cheaper
rule where an op allows one:

* a reshape-like op keeps the structure (a reshape keeps each row's element order);
* ``x * b`` with ``b`` of ``N`` elements and no tangent: ``diag(u · b)`` (only ``u · b`` is computed
  for later folds; the tangent itself is still the product, which the optimizer drops when no one
  reads it);
* ``x @ y`` with ``x`` of ``N`` elements a diagonal tangent: the rows of ``y`` (or of ``yᵀ``) scaled
  by ``u``: no product at all for the identity; with ``y`` a diagonal tangent, the columns of ``x``.

Everything else takes the ordinary batched rule (``tangents.batched_tangent_of``).
"""
from __future__ import annotations

import math

from .builder import BlockBuilder
from .ir import Apply, Var

__all__ = ["Diagonals"]

_SHAPE_OPS = frozenset({"reshape", "expand_dims", "squeeze", "flatten"})
_PRODUCTS = frozenset({"mul", "multiply"})


def _size(var) -> int | None:
    shape = getattr(getattr(var, "aval", None), "shape", None)
    if shape is None or any(d is None for d in shape):
        return None
    return math.prod(shape)


class Diagonals:
    """The diagonal batched tangents of one function, by Var (``None``: the identity)."""

    def __init__(self, batch: int, identities=()):
        self.batch = batch
        self.known: dict = {var: None for var in identities}

    def __contains__(self, tangent) -> bool:
        return isinstance(tangent, Var) and tangent in self.known

    def tangent_of(self, stmt: Apply, d_args: list, builder: BlockBuilder, hint: str):
        """The batched tangent of ``stmt`` by a rule that uses a diagonal operand, or None (the
        ordinary rule applies)."""
        if stmt.op == "matmul" and not stmt.static.get("transpose_a") and d_args[0] in self:
            return self._scaled_rows(stmt, d_args, builder, hint)
        if stmt.op == "matmul" and not stmt.static.get("transpose_b") and d_args[1] in self:
            return self._scaled_columns(stmt, d_args, builder, hint)
        return None

    def record(self, stmt: Apply, d_args: list, tangent, builder: BlockBuilder, hint: str) -> None:
        """After ``tangent`` was staged for ``stmt``: remember it as diagonal where it is."""
        if not isinstance(tangent, Var) or len(stmt.targets) != 1 or _size(stmt.targets[0]) != self.batch:
            return
        if stmt.op in _SHAPE_OPS and d_args[0] in self:
            self.known[tangent] = self.known[d_args[0]]
        elif stmt.op in _PRODUCTS and len(stmt.args) == 2:
            for position, other in ((0, 1), (1, 0)):
                scale = stmt.args[other]
                if (d_args[position] in self and d_args[other] is None and isinstance(scale, Var)
                        and _size(scale) == self.batch and _size(stmt.args[position]) == self.batch):
                    u = self.known[d_args[position]]
                    flat = builder.apply("reshape", (scale,), {"shape": (self.batch,)}, loc=stmt.loc, hint="scale")
                    self.known[tangent] = flat if u is None else builder.apply("mul", (u, flat), loc=stmt.loc,
                                                                               hint="scale")
                    return

    def _scaled_rows(self, stmt: Apply, d_args: list, builder: BlockBuilder, hint: str):
        """``x @ y`` with ``x``'s tangent ``diag(u)`` (``x`` a vector or one row): the rows of ``y`` (``yᵀ``)
        scaled by ``u``."""
        x, y = stmt.args
        if d_args[1] is not None or not isinstance(y, Var) or y.aval.ndim != 2:
            return None
        if x.aval.ndim not in (1, 2) or _size(x) != self.batch or x.aval.shape[-1] != self.batch:
            return None
        return self._scaled(y, stmt.static.get("transpose_b", False), d_args[0], stmt, builder, hint)

    def _scaled_columns(self, stmt: Apply, d_args: list, builder: BlockBuilder, hint: str):
        """``x @ y`` with ``y``'s tangent ``diag(u)`` (``y`` a vector or one column): the columns of ``x``
        (``xᵀ``) scaled by ``u``, as rows."""
        x, y = stmt.args
        if d_args[0] is not None or not isinstance(x, Var) or x.aval.ndim != 2:
            return None
        if y.aval.ndim not in (1, 2) or _size(y) != self.batch or y.aval.shape[0] != self.batch:
            return None
        return self._scaled(x, not stmt.static.get("transpose_a", False), d_args[1], stmt, builder, hint)

    def _scaled(self, matrix: Var, transposed: bool, d, stmt: Apply, builder: BlockBuilder, hint: str) -> tuple:
        """The batched tangent ``diag(u) @ matrix`` (``matrixᵀ``), shaped as ``stmt``'s result's."""
        rows = matrix
        if transposed:
            rows = builder.apply("transpose", (matrix,), {"axes": (1, 0)}, loc=stmt.loc, hint=hint)
        u = self.known[d]
        if u is not None:
            column = builder.apply("reshape", (u,), {"shape": (self.batch, 1)}, loc=stmt.loc, hint=hint)
            rows = builder.apply("mul", (column, rows), loc=stmt.loc, hint=hint)
        shape = (self.batch,) + tuple(stmt.targets[0].aval.shape)
        return (builder.apply("reshape", (rows,), {"shape": shape}, loc=stmt.loc, hint=hint),)
