"""Resizing layers, as ``mindspore.nn``: ``Upsample`` (``ops.interpolate`` as a Cell) and MindSpore 1.x's
``ResizeBilinear`` (MindSpore 2.x dropped it for ``ops.interpolate``; programs written for 1.x still call it)."""
from __future__ import annotations

from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import resize

__all__ = ["Upsample", "ResizeBilinear"]


class Upsample(Cell):
    """``ops.interpolate`` of the input with this layer's arguments (see there for the modes npspore has).

    Args:
        size (Union[int, tuple[int]]): the output's trailing dims.
        scale_factor (Union[float, tuple[float]]): the output's trailing dims are ``floor(dim * scale_factor)``;
            needs ``recompute_scale_factor=True``, as on MindSpore 2.10 CPU.
        mode (str): ``'nearest'``, ``'linear'`` or ``'bilinear'``. Default: ``'nearest'``.
        align_corners (bool): corners on corners in the linear modes. Default: ``None`` (False).
        recompute_scale_factor (bool): as ``interpolate``'s.
    """

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                 recompute_scale_factor=None) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x: Tensor) -> Tensor:
        return resize.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                                  self.recompute_scale_factor)


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
