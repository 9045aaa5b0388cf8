"""A convolution's input gradient from columns in (OH, OW, N) order (optimize, a NumPy step).

``nn.Conv2d`` stages a convolution as im2col columns and one product with the filter, so its input
gradient is ``col2im(w.T @ d_y)`` with ``d_y`` the output gradient's channels as rows, ``(O, N * OH *
OW)``: the columns are in ``(N, OH, OW)`` order, and col2im adds each kernel tap's block back along
rows of only ``OW`` elements. Here the product reads ``d_y`` as ``(O, OH * OW * N)`` instead (a copy of
the output gradient, which is ``KH * KW / C`` times smaller than the columns), so its columns come out
in ``(OH, OW, N)`` order and col2im (``batch_last``) adds along rows of ``OW * N`` elements: LeNet's
conv2 input gradient 0.58 ms instead of 1.03 (product, copy and col2im, one thread). Each pixel's gradient is
the same sum over the same taps (each column entry a dot product over the same channels).

The pattern, as differentiation writes it (``groups=1``, at least :data:`MIN_COLUMN_ELEMENTS` column entries,
``m`` and ``cols`` read once)::

    t = transpose(d_out, axes=(1, 0, 2, 3)); d_y = reshape(t, shape=(O, P))
    m = matmul(w, d_y, transpose_a=True); cols = reshape(m, shape=(1, K, P))
    d_x = conv2d_columns_grad(cols, ..., groups=1)

``t`` and ``d_y`` may have other readers (the filter's gradient reads ``d_y``): they stay, and the
product reads a new ``reshape(transpose(d_out, axes=(1, 2, 3, 0)))``. Export reads the IR before the
NumPy steps, so it never sees ``batch_last``.
"""
from __future__ import annotations

import math

from ..opdef import Aval
from . import ir
from .rewrite import Namer

MIN_COLUMN_ELEMENTS = 1 << 16   # below, the copy of ``d_out`` costs about what col2im saves


def order_columns_batch_last(function: ir.Function) -> None:
    """Rewrite each convolution input gradient of ``function`` matching the pattern (module docstring), in
    place."""
    made_by = {id(t): s for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) for t in s.targets}
    reads = ir.use_counts(function)
    namer = Namer(function)
    for block in list(ir.all_blocks(function.body)):
        in_block = {id(stmt) for stmt in block.stmts}
        sources = {}          # id(matmul) -> the output gradient it reads
        for stmt in block.stmts:
            found = _product_of_columns(stmt, made_by, reads)
            if found is not None and id(found[0]) in in_block:
                sources[id(found[0])] = found[1]
                stmt.static = {**stmt.static, "batch_last": True}
        stmts = []
        for stmt in block.stmts:
            if id(stmt) in sources:
                stmts.extend(_read_batch_last(stmt, sources[id(stmt)], namer))
            stmts.append(stmt)
        block.stmts = stmts


def _made(atom, op: str, made_by: dict) -> ir.Apply | None:
    stmt = made_by.get(id(atom)) if isinstance(atom, ir.Var) else None
    return stmt if stmt is not None and stmt.op == op and isinstance(stmt.args[0], ir.Var) else None


def _product_of_columns(stmt, made_by: dict, reads: dict) -> tuple | None:
    """``(matmul, d_out)``: the product whose columns ``stmt`` (a ``conv2d_columns_grad``) adds back and the
    output gradient it reads, when they match the pattern."""
    if not (isinstance(stmt, ir.Apply) and stmt.op == "conv2d_columns_grad" and stmt.static.get("groups", 1) == 1
            and not stmt.static.get("batch_last") and isinstance(stmt.args[0], ir.Var)
            and None not in stmt.args[0].aval.shape and math.prod(stmt.args[0].aval.shape) >= MIN_COLUMN_ELEMENTS):
        return None
    cols = _made(stmt.args[0], "reshape", made_by)
    product = _made(cols.args[0], "matmul", made_by) if cols is not None else None
    if cols is None or product is None or reads.get(id(stmt.args[0])) != 1 or reads.get(id(cols.args[0])) != 1 \
            or product.static.get("transpose_b") or not isinstance(product.args[1], ir.Var):
        return None
    rows = _made(product.args[1], "reshape", made_by)
    moved = _made(rows.args[0], "transpose", made_by) if rows is not None else None
    if moved is None or tuple(moved.static.get("axes", ())) != (1, 0, 2, 3):
        return None
    d_out = moved.args[0]
    if len(d_out.aval.shape) != 4 or None in d_out.aval.shape:
        return None
    return product, d_out


def _read_batch_last(product: ir.Apply, d_out: ir.Var, namer: Namer) -> list:
    """The statements making ``product``'s right operand, ``d_out`` in ``(O, OH * OW * N)`` order; ``product``
    reads it."""
    n, o, oh, ow = d_out.aval.shape
    dtype = d_out.aval.dtype
    moved = ir.Apply((namer.named(f"{d_out.name}_by_pixel", Aval((o, oh, ow, n), dtype)),), "transpose", (d_out,),
                     {"axes": (1, 2, 3, 0)}, product.loc)
    rows = ir.Apply((namer.named(f"{d_out.name}_rows", Aval((o, oh * ow * n), dtype)),), "reshape",
                    (moved.targets[0],), {"shape": (o, oh * ow * n)}, product.loc)
    product.args = (product.args[0], rows.targets[0])
    return [moved, rows]
