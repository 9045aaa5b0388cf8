"""Large matrix products split across threads (optimize, a NumPy step).

A ``matmul`` or ``batch_matmul`` of floating-point matrices whose static shapes make it worth a second core
(``core.matmul_split.worth_splitting``: at least ``MIN_FLOPS`` floating-point operations, and at least two
blocks) becomes ``matmul_split``: the same product, computed in blocks of output rows, columns or matrices by
the calling thread and the pool of helper threads that ``core.threads`` sizes (with the same bits wherever the BLAS
sums a block as it sums the whole product: ``core/matmul_split.py``). A
product with a small result and a long shared dim (a convolution's weight gradient) becomes ``matmul_split``
too: it is summed over blocks of the shared dim, faster in OpenBLAS even on one thread, with the same bits at
every thread count (not those of one ``np.matmul``). The
kernel calls ``rt.matmul_split(a, b)`` (``rt.matmul_split(a, b, out=buffer)`` into a workspace buffer), and
``npspore show --dump-after optimize`` shows which products are split.

It is the last step of optimize: it changes no value, dtype or buffer, only which NumPy call computes a
product, so the in-place and workspace plans made for the ``matmul`` hold for it unchanged, and a product
NumPy's promotion makes cast (``Apply.result_cast``) stays one ``@``. Export and the transforms (``vmap``,
``jvp``) read the IR before it, so they never see ``matmul_split``.
"""
from __future__ import annotations

import numpy as np

from ..core.matmul_split import worth_splitting
from . import ir

_PRODUCTS = {"matmul", "batch_matmul"}
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def split_large_products(function: ir.Function) -> None:
    """Turn each product of ``function`` worth splitting across threads into ``matmul_split``, in place."""
    for stmt in ir.walk_stmts(function.body):
        if _worth_splitting(stmt):
            stmt.op = "matmul_split"


def _worth_splitting(stmt) -> bool:
    """Whether ``stmt`` is a product of floating-point operands of rank 2 or more, every dim known, that
    ``core.matmul_split`` splits (its shapes as the transpose flags make them)."""
    if not (isinstance(stmt, ir.Apply) and stmt.op in _PRODUCTS and stmt.result_cast is None
            and stmt.targets[0].aval.dtype in _FLOATS and all(isinstance(a, ir.Var) for a in stmt.args)):
        return False
    shapes = product_shapes(stmt)
    return shapes is not None and worth_splitting(*shapes)


def product_shapes(stmt: ir.Apply) -> tuple | None:
    """The static shapes of a product's operands as its transpose flags make them, or None where one has a
    rank under 2 or a dim known only at run time."""
    shapes = []
    for operand, flag in zip(stmt.args, ("transpose_a", "transpose_b")):
        shape = tuple(operand.aval.shape)
        if len(shape) < 2 or None in shape:
            return None
        shapes.append(shape[:-2] + shape[:-3:-1] if stmt.static.get(flag, False) else shape)
    return tuple(shapes)
