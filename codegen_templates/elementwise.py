"""Elementwise ops: arithmetic, comparisons, unary math, activations, where/clip/cast."""
import numpy as np

from npspore import shape_rules as rules
from npspore.opdef import op

# ---------------------------------------------------------------- arithmetic


@op(infer=rules.arithmetic, operand_dtype=rules.arithmetic_operand_dtype, aliases=("multiply",), numpy=(np.multiply,))
class mul:
    def forward(x, y):
        return x * y

    def adjoint(x, y, out, dout):
        return dout * y, dout * x
