"""Ordering ops along the last axis: ``topk`` and the gather/scatter pair its gradient uses.

``topk`` returns the ``k`` largest (or smallest) values along the last axis and their int32 indices,
in order, ties broken by the lower index (a stable sort). Its gradient scatters the values'
cotangent back to those indices (``scatter_last``); ``gather_last`` reads values at indices along
the last axis, and the two are each other's transposes, so gradients of any order stay within them.
``nms_with_mask`` orders boxes by score and marks the ones greedy non-maximum suppression keeps.
"""
import numpy as np

from npspore.core import kernels_np as rt
from npspore.opdef import LINEAR, call, op
from npspore.rules_nn import gather_last_rule, nms_with_mask_rule, scatter_last_add_rule, scatter_last_rule, topk_rule

TANGENT = LINEAR   # gathers and scatters by indices; topk has its own


@op(infer=topk_rule)
class topk:
    """``(values, int32 indices)`` of the ``k`` largest (``largest=False``: smallest) along the last axis (``k=None``:
    all of them, the sort along a dim known only when the kernel runs)."""

    def forward(x, *, k, largest=True):
        order = np.argsort(-x if largest else x, axis=-1, kind="stable")[..., :k]
        return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)

    def adjoint(x, out, dout, *, k, largest=True):
        if k is not None and x.shape[-1] is None:   # k of a last dim known only when the kernel runs: each
            hit = np.expand_dims(out[1], axis=-1) == call("dim_range", x, axis=x.ndim - 1)   # value to its position
            return np.sum(np.where(hit, np.expand_dims(dout[0], axis=-1), 0), axis=x.ndim - 1)
        return call("scatter_last", dout[0], out[1], size=-1 if k is None else x.shape[-1])

    def tangent(x, out, dx, *, k, largest=True):
        return call("gather_last", dx, out[1]), None


@op(infer=gather_last_rule)
class gather_last:
    """The elements of ``x`` at ``indices`` along the last axis (``np.take_along_axis``, as ``rt.gather_last``)."""

    def forward(x, indices):
        return rt.gather_last(x, indices)

    def adjoint(x, indices, out, dout):
        return call("scatter_last", dout, indices, size=x.shape[-1]), None


@op(infer=scatter_last_rule)
class scatter_last:
    """``g`` added into zeros of last dim ``size`` at ``indices`` along the last axis (repeats add up)."""

    def forward(g, indices, *, size):
        return rt.scatter_last(g, indices, size)

    def adjoint(g, indices, out, dout, *, size):
        return call("gather_last", dout, indices), None


@op(infer=scatter_last_add_rule)
class scatter_last_add_in_place:
    """``buf + scatter_last(g, indices, size=buf.shape[-1])`` for one index per row, written into ``buf`` itself:
    only optimize emits it (``compiler/onehotgrads.py``), for a buffer no one else reads."""

    def forward(buf, g, indices):
        return rt.scatter_last_add(buf, g, indices)

    adjoint = None   # emitted after the last differentiation


@op(infer=nms_with_mask_rule)
class nms_with_mask:
    """``(boxes, int32 positions, bool keep)`` of ``[x1, y1, x2, y2, score]`` rows: the rows by descending score
    (stable), their positions 0..n-1 in that order (as MindSpore's CPU kernel returns them), and whether greedy
    non-maximum suppression keeps each (a box goes when its overlap with a kept, higher-scoring box, as
    intersection over union without a +1 pixel, exceeds ``iou_threshold``)."""

    def forward(bboxes, *, iou_threshold):
        boxes = bboxes[np.argsort(-bboxes[:, 4], kind="stable")]
        x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
        area = (x2 - x1) * (y2 - y1)
        keep = np.ones(len(boxes), np.bool_)
        for i in range(len(boxes)):   # a suppressed box (keep[i] False) suppresses none
            width = np.maximum(np.minimum(x2[i], x2[i + 1:]) - np.maximum(x1[i], x1[i + 1:]), 0)
            height = np.maximum(np.minimum(y2[i], y2[i + 1:]) - np.maximum(y1[i], y1[i + 1:]), 0)
            overlap = width * height
            union = area[i] + area[i + 1:] - overlap
            iou = np.divide(overlap, union, out=np.zeros_like(overlap), where=union > 0)
            keep[i + 1:] &= (iou <= iou_threshold) | ~keep[i]
        return boxes, np.arange(len(boxes), dtype=np.int32), keep

    adjoint = None
