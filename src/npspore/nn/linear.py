"""``linear(x, weight, bias)``: :math:`x W^T + b` over the last axis, the projection recurrent and attention
layers share."""
from __future__ import annotations

from npspore.common.tensor import Tensor
from npspore.ops.eager import run


def linear(x, weight, bias=None):
    """``x @ weight.T + bias`` on the last axis of `x` (any leading dims), as one GEMM over all of them.

    Args:
        x (Tensor): shape :math:`(*, in)`.
        weight (Tensor): shape :math:`(out, in)`.
        bias (Tensor, None): shape :math:`(out,)`, or None for no bias.

    Returns:
        Tensor of shape :math:`(*, out)`.
    """
    lead = x.shape[:-1]
    out = run("matmul", x.reshape((-1, x.shape[-1])), weight, transpose_b=True)
    if isinstance(bias, Tensor):  # not 'is not None': compiled code cannot compare a tensor with 'is'
        out = out + bias
    return out.reshape(lead + (weight.shape[0],))
