"""Linear algebra: ``matmul`` (NumPy semantics, with MindSpore's ``transpose_a``/``transpose_b``),
``batch_matmul``, ``dot`` and ``outer``; ``outer_product`` and ``matmul_split``, which only optimize emits.

A 1-D operand of ``matmul`` is a row (first) or column (second) vector and batch dims broadcast, as
in NumPy; the transpose flags swap the last two dims of a 2-D or higher operand. The adjoints are
matmuls again (with transpose flags), so their cotangents may carry broadcast batch dims, which the
caller sums away.
"""
import numpy as np

from npspore import shape_rules as rules
from npspore.core import matmul_split as rt   # the kernel's ``rt.matmul_split`` (npspore.runtime re-exports it)
from npspore.opdef import MULTILINEAR, call, op

TANGENT = MULTILINEAR   # products: linear in each operand, so the product rule (opdef)

# ---------------------------------------------------------------- matrix products


@op(infer=rules.matmul("MatMulExt", error=rules.OpRuntimeError), operand_dtype=rules.common_dtype,
    numpy=(np.matmul,))
class matmul:
    def forward(x, y, *, transpose_a=False, transpose_b=False):
        return (np.swapaxes(x, -1, -2) if transpose_a else x) @ (np.swapaxes(y, -1, -2) if transpose_b else y)

    def adjoint(x, y, out, dout, *, transpose_a=False, transpose_b=False):
        rows = x if x.ndim > 1 else np.expand_dims(x, axis=0)
        cols = y if y.ndim > 1 else np.expand_dims(y, axis=-1)
        g = dout if y.ndim > 1 else np.expand_dims(dout, axis=-1)
        g = g if x.ndim > 1 else np.expand_dims(g, axis=-2)
        dx = (call("matmul", cols, g, transpose_a=transpose_b, transpose_b=True) if transpose_a
              else call("matmul", g, cols, transpose_b=not transpose_b))
        dy = (call("matmul", g, rows, transpose_a=True, transpose_b=transpose_a) if transpose_b
              else call("matmul", rows, g, transpose_a=not transpose_a))
        return (dx if x.ndim > 1 else np.squeeze(dx, axis=-2)), (dy if y.ndim > 1 else np.squeeze(dy, axis=-1))


@op(infer=rules.matmul("BatchMatMul", min_rank=3), operand_dtype=rules.common_dtype)
class batch_matmul:
    """``matmul`` of operands of rank 3 or more (``ops.BatchMatMul``, ``ops.bmm``)."""

    forward = matmul.forward
    adjoint = matmul.adjoint


@op(infer=rules.dot, operand_dtype=rules.common_dtype, numpy=(np.dot,))
class dot:
    """NumPy's ``dot`` for a second operand of rank 1 or 2, where it equals ``matmul``."""

    def forward(x, y):
        return np.dot(x, y)

    adjoint = matmul.adjoint


@op(infer=rules.outer, operand_dtype=rules.common_dtype, numpy=(np.outer,))
class outer:
    def forward(x, y):
        return np.outer(x, y)

    def adjoint(x, y, out, dout):
        return dout @ y, x @ dout


@op(infer=rules.outer_product, operand_dtype=rules.common_dtype)
class outer_product:
    """The outer products of the last axes of ``x`` ``(..., m)`` and ``y`` ``(..., n)``, batch dims
    broadcast: ``(..., m, n)``. Only optimize emits it (``compiler/products.py``), for a matrix product
    whose contracted dim has size 1: ``einsum`` writes them several times faster than ``matmul`` (a
    GEMM of depth 1) or a broadcast ``*``."""

    def forward(x, y):
        return np.einsum("...i,...j->...ij", x, y)

    adjoint = None   # emitted after the last differentiation


@op(infer=rules.matmul("MatMulExt", error=rules.OpRuntimeError), operand_dtype=rules.common_dtype)
class matmul_start:
    """``matmul_split`` started on the helper threads: the result is read only after the ``wait`` effect that
    optimize places before its first reader (``compiler/deferproducts.py``), while the calling thread runs
    the statements between (a recurrence's loop). Only optimize emits it."""

    def forward(x, y, *, transpose_a=False, transpose_b=False):
        return rt.matmul_start(np.swapaxes(x, -1, -2) if transpose_a else x,
                               np.swapaxes(y, -1, -2) if transpose_b else y)

    adjoint = None   # emitted after the last differentiation


@op(infer=rules.matmul("MatMulExt", error=rules.OpRuntimeError), operand_dtype=rules.common_dtype)
class matmul_split:
    """``matmul`` (or ``batch_matmul``) computed in blocks by the calling thread and a pool of helper
    threads (``core/matmul_split.py``), with the same bits. Only optimize emits it
    (``compiler/splitproducts.py``), for a product of at least ``core.matmul_split.MIN_FLOPS`` known from
    its static shapes."""

    def forward(x, y, *, transpose_a=False, transpose_b=False):
        return rt.matmul_split(np.swapaxes(x, -1, -2) if transpose_a else x,
                               np.swapaxes(y, -1, -2) if transpose_b else y)

    adjoint = None   # emitted after the last differentiation
