"""``ROIAlign``, as ``mindspore.ops``: features of regions of interest pooled to a fixed size by bilinear
sampling (Mask R-CNN's RoIAlign, as MindSpore's kernel computes it).

Each output cell averages ``sample_num x sample_num`` points spread evenly over its bin, each read
from the feature map by bilinear interpolation. The weight a point gives a feature row is a
product of a weight along the height and one along the width, so the pooling of one region is two
matrix products, ``Wy @ features @ Wx^T``, with ``Wy (pooled_height, H)`` and ``Wx (pooled_width, W)``
built from the region's box. The boxes are held fixed (``stop_gradient``): as MindSpore's, the
gradient reaches the features only.
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from .array_functional import floor
from .eager import run
from .primitives import Primitive

__all__ = ["ROIAlign"]


def _axis_weights(start: Tensor, bin_size: Tensor, grid: int, pooled: int, size: int) -> Tensor:
    """``(R, pooled, size)`` weights: each of ``pooled`` bins of ``R`` regions starting at ``start``,
    as the mean over ``grid`` sample points of their linear-interpolation weights on ``size`` cells.
    A point more than one cell outside the map weighs nothing; one below 0 reads cell 0, one past the
    last cell reads the last cell."""
    dtype = start.dtype
    offsets = Tensor([[p + (i + 0.5) / grid for i in range(grid)] for p in range(pooled)], dtype)
    position = run("expand_dims", start, axis=(1, 2)) + offsets * run("expand_dims", bin_size, axis=(1, 2))
    inside = F.logical_and(F.greater_equal(position, -1.0), F.less_equal(position, float(size)))
    position = F.maximum(position, 0.0)
    at_end = F.greater_equal(floor(position), float(size - 1))
    low = F.where(at_end, float(size - 1), floor(position))
    fraction = F.where(at_end, 0.0, position - low)
    high = F.where(at_end, low, low + 1.0)
    cells = Tensor([float(i) for i in range(size)], dtype)
    weight = ((1.0 - fraction)[..., None] * F.equal(low[..., None], cells).astype(dtype)
              + fraction[..., None] * F.equal(high[..., None], cells).astype(dtype))
    weight = weight * inside.astype(dtype)[..., None]
    return run("sum", weight, axis=2) / float(grid)


def _roi_align(features: Tensor, rois: Tensor, pooled_height: int, pooled_width: int, spatial_scale: float,
               sample_num: int, roi_end_mode: int) -> Tensor:
    boxes = run("stop_gradient", rois.astype(features.dtype))
    batch = run("cast", run("round", boxes[:, 0]), dtype=_np_dtype(mstype.int64))
    start_w, start_h = boxes[:, 1] * spatial_scale, boxes[:, 2] * spatial_scale
    width = (boxes[:, 3] + float(roi_end_mode)) * spatial_scale - start_w
    height = (boxes[:, 4] + float(roi_end_mode)) * spatial_scale - start_h
    if roi_end_mode == 0:   # MindSpore's backward compatibility: a malformed box is at least 1 x 1
        width, height = F.maximum(width, 1.0), F.maximum(height, 1.0)
    rows = _axis_weights(start_h, height / float(pooled_height), sample_num, pooled_height, features.shape[2])
    cols = _axis_weights(start_w, width / float(pooled_width), sample_num, pooled_width, features.shape[3])
    regions = run("gather", features, batch, axis=0)
    pooled = F.matmul(run("expand_dims", rows, axis=1), regions)
    return F.matmul(pooled, run("transpose", run("expand_dims", cols, axis=1), axes=(0, 1, 3, 2)))


def _check_int(name: str, value) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For 'ROIAlign', the type of '{name}' should be 'int', but got type '{type(value).__name__}'.")


class ROIAlign(Primitive):
    """``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features, rois)``:
    the regions ``rois`` (``(R, 5)`` rows ``[batch index, x1, y1, x2, y2]`` in input coordinates, scaled
    by ``spatial_scale``) of ``features`` (``(N, C, H, W)``, float16 or float32) pooled to
    ``(R, C, pooled_height, pooled_width)``. ``roi_end_mode=1`` adds one to ``x2``/``y2`` (pixel-aligned
    ends); ``0`` makes a box at least one cell wide and high.

    Raises:
        TypeError: for a non-int size, ``sample_num`` or ``roi_end_mode``, a non-float ``spatial_scale``, or
            features that are not float16/float32.
        ValueError: for ``roi_end_mode`` not 0 or 1, ``sample_num`` below 1 (MindSpore's adaptive sampling
            is not implemented in npspore), features not 4-D, or ``rois`` not ``(R, 5)``.
    """

    def __init__(self, pooled_height: int, pooled_width: int, spatial_scale: float, sample_num: int = 2,
                 roi_end_mode: int = 1) -> None:
        super().__init__("ROIAlign")
        _check_int("pooled_height", pooled_height)
        _check_int("pooled_width", pooled_width)
        if not isinstance(spatial_scale, float):
            raise TypeError(f"For 'ROIAlign', the type of 'spatial_scale' should be 'float', but got type "
                            f"'{type(spatial_scale).__name__}'.")
        _check_int("sample_num", sample_num)
        _check_int("roi_end_mode", roi_end_mode)
        if roi_end_mode not in (0, 1):
            raise ValueError(f"For 'ROIAlign', the 'roi_end_mode' must be in range of [0, 1], but got {roi_end_mode} "
                             f"with type 'int'.")
        if sample_num < 1:
            raise ValueError(f"For 'ROIAlign', a 'sample_num' below 1 (adaptive sampling) is not implemented in "
                             f"npspore, but got {sample_num}.")
        self.pooled_height, self.pooled_width, self.spatial_scale = pooled_height, pooled_width, spatial_scale
        self.sample_num, self.roi_end_mode = sample_num, roi_end_mode
        for name in ("pooled_height", "pooled_width", "spatial_scale", "sample_num", "roi_end_mode"):
            self.add_prim_attr(name, getattr(self, name))

    def __call__(self, features: Tensor, rois: Tensor) -> Tensor:
        if not isinstance(features, Tensor) or features.dtype not in (mstype.float16, mstype.float32):
            shown = f"Tensor[{features.dtype}]" if isinstance(features, Tensor) else type(features).__name__
            raise TypeError(f"For primitive[ROIAlign], the input argument[feature] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32]}}, but got {shown}.")
        if len(features.shape) != 4:
            raise ValueError(f"For 'ROIAlign', the 'features' must be a 4-D Tensor, but got shape {features.shape}.")
        if not isinstance(rois, Tensor) or len(rois.shape) != 2 or rois.shape[1] != 5:
            shown = rois.shape[1] if isinstance(rois, Tensor) and len(rois.shape) == 2 else getattr(rois, "shape", rois)
            raise ValueError(f"The argument[second dim of rois shape] must be equal to 5, but got {shown}.")
        return _roi_align(features, rois, self.pooled_height, self.pooled_width, self.spatial_scale,
                          self.sample_num, self.roi_end_mode)
