"""Bounding-box ops of MindSpore's detection models: ``IOU``/``iou`` and the delta coding of boxes
(``BoundingBoxEncode``, ``BoundingBoxDecode``). Boxes are ``[x1, y1, x2, y2]`` rows with inclusive pixel
corners: a box's width is ``x2 - x1 + 1``, as MindSpore computes it."""
from __future__ import annotations

import math
from typing import Any

from ..common.tensor import Tensor
from . import functional as F
from .primitives import Primitive

__all__ = ["IOU", "iou", "BoundingBoxEncode", "BoundingBoxDecode"]


def _sides(boxes: Tensor) -> tuple:
    """``(x1, y1, x2, y2)`` columns of ``(n, 4)`` boxes."""
    return tuple(boxes[:, k] for k in range(4))


def _centres_and_sizes(boxes: Tensor) -> tuple:
    """``(cx, cy, w, h)`` of boxes with inclusive corners."""
    x1, y1, x2, y2 = _sides(boxes)
    w, h = x2 - x1 + 1.0, y2 - y1 + 1.0
    return x1 + 0.5 * (w - 1.0), y1 + 0.5 * (h - 1.0), w, h


def iou(input: Tensor, other: Tensor, mode: str = "iou") -> Tensor:
    """The overlap of each box of ``other`` (``(m, 4)``) with each of ``input`` (``(n, 4)``): an ``(m, n)``
    Tensor of intersection over union (``mode='iou'``) or over the area of ``other``'s box (``'iof'``).

    Raises:
        KeyError: if ``mode`` is neither ``'iou'`` nor ``'iof'``.
    """
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    ax1, ay1, ax2, ay2 = _sides(input)
    gx1, gy1, gx2, gy2 = (side[:, None] for side in _sides(other))
    width = F.maximum(F.minimum(ax2, gx2) - F.maximum(ax1, gx1) + 1.0, 0.0)
    height = F.maximum(F.minimum(ay2, gy2) - F.maximum(ay1, gy1) + 1.0, 0.0)
    overlap = width * height
    other_area = (gx2 - gx1 + 1.0) * (gy2 - gy1 + 1.0)
    if mode == "iof":
        return overlap / other_area
    return overlap / ((ax2 - ax1 + 1.0) * (ay2 - ay1 + 1.0) + other_area - overlap)


class IOU(Primitive):
    """``IOU(mode='iou')(anchor_boxes, gt_boxes)``: :func:`iou` of the two sets of boxes, ``(m, n)``."""

    def __init__(self, mode: str = "iou") -> None:
        super().__init__("IOU")
        if mode not in ("iou", "iof"):
            raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
        self.mode = mode
        self.add_prim_attr("mode", mode)

    def __call__(self, anchor_boxes: Tensor, gt_boxes: Tensor) -> Tensor:
        return iou(anchor_boxes, gt_boxes, self.mode)


def _four_floats(value: Any, name: str, prim: str) -> tuple:
    if not isinstance(value, (tuple, list)) or len(value) != 4 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise TypeError(f"For '{prim}', the '{name}' must be a tuple or list of 4 floats, but got {value!r}.")
    return tuple(float(v) for v in value)


class BoundingBoxEncode(Primitive):
    """``BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)``: the deltas ``(dx, dy, dw, dh)`` that move
    each anchor box onto its ground-truth box, normalized as ``(delta - means) / stds``."""

    def __init__(self, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0)) -> None:
        super().__init__("BoundingBoxEncode")
        self.means = _four_floats(means, "means", self.name)
        self.stds = _four_floats(stds, "stds", self.name)
        self.add_prim_attr("means", self.means).add_prim_attr("stds", self.stds)

    def __call__(self, anchor_box: Tensor, groundtruth_box: Tensor) -> Tensor:
        px, py, pw, ph = _centres_and_sizes(anchor_box)
        gx, gy, gw, gh = _centres_and_sizes(groundtruth_box)
        deltas = ((gx - px) / pw, (gy - py) / ph, F.log(gw / pw), F.log(gh / ph))
        return F.stack([(d - m) / s for d, m, s in zip(deltas, self.means, self.stds)], axis=1)


class BoundingBoxDecode(Primitive):
    """``BoundingBoxDecode(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)``: the boxes the
    deltas (as :class:`BoundingBoxEncode` makes them) give, clipped to ``[0, width] x [0, height]`` of
    ``max_shape = (height, width)``; the size deltas are clipped to ``|log(wh_ratio_clip)|``."""

    def __init__(self, max_shape: Any, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip: float = 0.016) -> None:
        super().__init__("BoundingBoxDecode")
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
            raise TypeError(f"For '{self.name}', the 'max_shape' must be a tuple or list of 2 numbers, "
                            f"but got {max_shape!r}.")
        if not isinstance(wh_ratio_clip, float) or wh_ratio_clip <= 0:
            raise TypeError(f"For '{self.name}', the 'wh_ratio_clip' must be a positive float, but got "
                            f"{wh_ratio_clip!r}.")
        self.max_shape = tuple(max_shape)
        self.means = _four_floats(means, "means", self.name)
        self.stds = _four_floats(stds, "stds", self.name)
        self.wh_ratio_clip = wh_ratio_clip
        for name in ("max_shape", "means", "stds", "wh_ratio_clip"):
            self.add_prim_attr(name, getattr(self, name))

    def __call__(self, anchor_box: Tensor, deltas: Tensor) -> Tensor:
        px, py, pw, ph = _centres_and_sizes(anchor_box)
        dx, dy, dw, dh = (deltas[:, k] * s + m for k, m, s in zip(range(4), self.means, self.stds))
        limit = abs(math.log(self.wh_ratio_clip))
        gw, gh = pw * F.exp(F.clamp(dw, -limit, limit)), ph * F.exp(F.clamp(dh, -limit, limit))
        gx, gy = px + pw * dx, py + ph * dy
        height, width = self.max_shape
        x1, x2 = (F.clamp(gx + sign * 0.5 * gw - sign * 0.5, 0.0, float(width)) for sign in (-1.0, 1.0))
        y1, y2 = (F.clamp(gy + sign * 0.5 * gh - sign * 0.5, 0.0, float(height)) for sign in (-1.0, 1.0))
        return F.stack([x1, y1, x2, y2], axis=1)
