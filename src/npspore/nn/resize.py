"""Resizing layers, as MindSpore 1.x's ``mindspore.nn``: ``ResizeBilinear`` (MindSpore 2.x dropped it for
``ops.interpolate``; programs written for 1.x still call it)."""
from __future__ import annotations

from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import resize

__all__ = ["ResizeBilinear"]


class ResizeBilinear(Cell):
    """Bilinear resizing of (N, C, H, W) images to ``size`` or by an int ``scale_factor``.

    Args:
        half_pixel_centers (bool): source coordinates at pixel centres (else ``i * H / new_H``).
            Default: ``False``.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
        - **size** (tuple[int, int]) - the new (H, W); give it or ``scale_factor``.
        - **scale_factor** (int) - the new size is (H * scale_factor, W * scale_factor).
        - **align_corners** (bool) - corners on corners. Default: ``False``.

    Raises:
        ValueError: if neither or both of ``size`` and ``scale_factor`` are given, or both
            ``align_corners`` and ``half_pixel_centers`` are True.
    """

    def __init__(self, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.half_pixel_centers = half_pixel_centers

    def construct(self, x: Tensor, size=None, scale_factor=None, align_corners: bool = False) -> Tensor:
        if (size is None) == (scale_factor is None):
            raise ValueError("For 'ResizeBilinear', exactly one of 'size' and 'scale_factor' must be given.")
        if size is None:
            size = (x.shape[2] * scale_factor, x.shape[3] * scale_factor)
        return resize.resize_bilinear(x, size, align_corners, self.half_pixel_centers)
