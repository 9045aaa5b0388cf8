"""Matrix functions of the last two dims (batched over the others): ``matrix_inverse``, ``matrix_determinant``.

Each adjoint and tangent reads the forward's result: ``d(A⁻¹) = -A⁻¹ dA A⁻¹``, so the adjoint is
``-A⁻ᵀ dout A⁻ᵀ``, two matmuls, and differentiates again; ``d det A = det A tr(A⁻¹ dA)`` (Jacobi's formula), so
the determinant's adjoint is ``dout det A A⁻ᵀ``.
"""
import numpy as np

from npspore import shape_rules as rules
from npspore.opdef import call, op

TANGENT = None   # each op below has its own


@op(infer=rules.square_matrix("MatrixInverse"), numpy=(np.linalg.inv,))
class matrix_inverse:
    def forward(x):
        return np.linalg.inv(x)

    def adjoint(x, out, dout):
        return -call("matmul", call("matmul", out, dout, transpose_a=True), out, transpose_b=True)

    def tangent(x, out, dx):
        return -call("matmul", call("matmul", out, dx), out)


@op(infer=rules.square_matrix("MatrixDeterminant", scalar=True), numpy=(np.linalg.det,))
class matrix_determinant:
    def forward(x):
        return np.linalg.det(x)

    def adjoint(x, out, dout):
        scale = np.expand_dims(np.expand_dims(dout * out, axis=-1), axis=-1)
        swap = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
        return scale * call("transpose", call("matrix_inverse", x), axes=swap)

    def tangent(x, out, dx):
        swap = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
        return out * np.sum(call("transpose", call("matrix_inverse", x), axes=swap) * dx, axis=(x.ndim - 2, x.ndim - 1))
