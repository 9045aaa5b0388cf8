"""Ordering ops along the last axis: ``topk`` and the gather/scatter pair its gradient uses.

``topk`` returns the ``k`` largest (or smallest) values along the last axis and their int32 indices,
in order, ties broken by the lower index (a stable sort). Its gradient scatters the values'
cotangent back to those indices (``scatter_last``); ``gather_last`` reads values at indices along
the last axis, and the two are each other's transposes, so gradients of any order stay within them.
"""
import numpy as np

from npspore.opdef import call, op
from npspore.rules_nn import gather_last_rule, scatter_last_rule, topk_rule


@op(infer=topk_rule)
class topk:
    """``(values, int32 indices)`` of the ``k`` largest (``largest=False``: smallest) along the last axis."""

    def forward(x, *, k, largest=True):
        order = np.argsort(-x if largest else x, axis=-1, kind="stable")[..., :k]
        return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)

    def adjoint(x, out, dout, *, k, largest=True):
        return call("scatter_last", dout[0], out[1], size=x.shape[-1])


@op(infer=gather_last_rule)
class gather_last:
    """The elements of ``x`` at ``indices`` along the last axis (``np.take_along_axis``)."""

    def forward(x, indices):
        return np.take_along_axis(x, indices, axis=-1)

    def adjoint(x, indices, out, dout):
        return call("scatter_last", dout, indices, size=x.shape[-1]), None


@op(infer=scatter_last_rule)
class scatter_last:
    """``g`` written into zeros of last dim ``size`` at ``indices`` along the last axis (distinct indices)."""

    def forward(g, indices, *, size):
        grad = np.zeros(g.shape[:-1] + (size,), g.dtype)
        np.put_along_axis(grad, indices, g, axis=-1)
        return grad

    def adjoint(g, indices, out, dout, *, size):
        return call("gather_last", dout, indices), None
