"""Matrix products of depth 1 lowered to outer products (optimize, a NumPy step).

A matrix product whose contracted dim has size 1 (``x.T @ d`` with one row each: a Dense layer's weight
gradient for one sample, or under ``vmap`` for each sample of a batch) computes no sums: it is a batch
of outer products. NumPy runs it as a GEMM of depth 1 (one per matrix of a stack), which writes its
result several times slower than ``np.einsum('...i,...j->...ij')``; so such a product becomes
``outer_product`` of its two operands with the size-1 dim dropped (the value before an
``expand_dims``/``reshape`` added it, else a ``squeeze``, a view). Measured with float32 on the project's
2-core machine: 64 outer products of 784 and 256 elements into a reused buffer 4.7 ms as einsum, 16.1 ms
as a broadcast ``*``, 20.8 ms as a stacked matmul (wall time, load 0.9); one 784x256 product 77 us as
einsum, 513 us as a GEMM (CPU time, load 3.5). Below :data:`MIN_OUTER_ELEMENTS` result elements the GEMM's
smaller call overhead wins (2 x 4 x 4: 3.3 us against 4.1 us), and the product stays.

Export reads the IR before the NumPy steps, so an exported graph keeps the matrix product.
"""
from __future__ import annotations

import math

from ..opdef import Aval
from . import ir
from .rewrite import Namer

MIN_OUTER_ELEMENTS = 1 << 10
_PRODUCTS = {"matmul", "batch_matmul", "dot"}
_RESHAPES = {"reshape", "expand_dims", "squeeze"}   # the elements in the same (C) order, another shape


def lower_outer_products(function: ir.Function, assigning: set) -> None:
    """Rewrite each matrix product of depth 1 in ``function`` (module docstring) in place (``assigning``: the
    functions that assign a Parameter)."""
    namer = Namer(function)
    made_by = {id(t): s for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) for t in s.targets}
    if function.name in assigning:
        made_by = {}   # a Parameter read after its assignment has another value than a reshape of it made before
    for block in list(ir.all_blocks(function.body)):
        lowered = []
        for stmt in block.stmts:
            if _depth_one(stmt):
                lowered.extend(_as_outer_product(stmt, namer, made_by))
            else:
                lowered.append(stmt)
        block.stmts = lowered


def _depth_one(stmt) -> bool:
    """Whether ``stmt`` is a product of two matrices (or stacks of them) contracting a static dim of size 1
    into a result of at least :data:`MIN_OUTER_ELEMENTS` elements."""
    if not (isinstance(stmt, ir.Apply) and stmt.op in _PRODUCTS and all(isinstance(a, ir.Var) for a in stmt.args)):
        return False
    x, y = (a.aval.shape for a in stmt.args)
    if len(x) < 2 or len(y) < 2 or (stmt.op == "dot" and len(y) != 2):   # dot of a 2-D y is matmul
        return False
    depth = x[-2] if stmt.static.get("transpose_a") else x[-1]
    shape = stmt.targets[0].aval.shape
    return depth == 1 and None not in shape and math.prod(shape) >= MIN_OUTER_ELEMENTS


def _as_outer_product(stmt: ir.Apply, namer: Namer, made_by: dict) -> list:
    """``stmt`` as ``outer_product`` of its operands without their contracted dim, and the squeezes
    that this needs."""
    x, y = stmt.args
    before: list = []
    rows = _without_dim(x, -2 if stmt.static.get("transpose_a") else -1, namer, made_by, stmt.loc, before)
    cols = _without_dim(y, -1 if stmt.static.get("transpose_b") else -2, namer, made_by, stmt.loc, before)
    return before + [ir.Apply(stmt.targets, "outer_product", (rows, cols), {}, stmt.loc)]


def _without_dim(var: ir.Var, axis: int, namer: Namer, made_by: dict, loc, before: list):
    """``var`` without its size-1 dim ``axis``: the value a reshape made ``var`` from if it has that
    shape (``expand_dims(x, 0)`` is read as ``x``), else a new ``squeeze`` appended to ``before``."""
    shape = list(var.aval.shape)
    del shape[axis]
    source = made_by.get(id(var))
    while source is not None and source.op in _RESHAPES and isinstance(source.args[0], ir.Var):
        if tuple(source.args[0].aval.shape) == tuple(shape):
            return source.args[0]
        source = made_by.get(id(source.args[0]))
    squeezed = ir.Apply((namer.var(Aval(tuple(shape), var.aval.dtype)),), "squeeze", (var,), {"axis": axis}, loc)
    before.append(squeezed)
    return squeezed.targets[0]
