"""``linear(x, weight, bias)``: :math:`x W^T + b` over the last axis, the projection recurrent and attention
layers share (defined beside the functional ops, which use it too)."""
from npspore.ops.attention import linear  # noqa: F401
