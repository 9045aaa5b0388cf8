"""Matrix functions of the last two dims (batched over the others): ``matrix_inverse``.

Each adjoint and tangent reads the forward's result: ``d(A⁻¹) = -A⁻¹ dA A⁻¹``, so the adjoint is
``-A⁻ᵀ dout A⁻ᵀ``, two matmuls, and differentiates again.
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
