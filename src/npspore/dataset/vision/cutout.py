"""``vision.CutOut``: zero random square patches of an image (DeVries and Taylor's Cutout), placed as MindSpore 2.10's
``CutOutOp`` places them (its ``Erase``, unbounded)."""
from __future__ import annotations

import numpy as np

from ..transform_draws import draws_for
from .transforms import _check_image

__all__ = ["CutOut"]

_MAX = 16777216


class CutOut:
    """Zero ``num_patches`` square patches of side ``length``, each with its corner drawn uniformly from ``length``
    before the image to its far edge and clipped to the image (so a patch near an edge is smaller, or empty). The
    image keeps its shape and dtype.

    Args:
        length (int): the side of the patches, in [1, 16777216].
        num_patches (int): how many patches. Default: ``1``.
        is_hwc (bool): the image is (H, W, C) (else (C, H, W)); an (H, W) image is also accepted.
            Default: ``True``.

    Raises:
        ValueError: If ``length`` or ``num_patches`` is out of range (MindSpore's message).
        TypeError: If ``is_hwc`` is not a bool.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True):
        for value in (length, num_patches):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= _MAX:
                raise ValueError(f"Input is not within the required interval of [1, {_MAX}].")
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Argument is_hwc with value {is_hwc} is not of type [<class 'bool'>], but got "
                            f"{type(is_hwc)}.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"CutOut takes 1 input column, but got {len(inputs)}.")
        image = np.array(inputs[0])
        _check_image(image, "CutOut")
        height, width = image.shape[:2] if self.is_hwc or image.ndim == 2 else image.shape[1:]
        draws = draws_for(self)
        for _ in range(self.num_patches):
            top = draws.integer(0, height + self.length) - self.length
            left = draws.integer(0, width + self.length) - self.length
            rows = slice(max(top, 0), max(min(top + self.length, height), 0))
            cols = slice(max(left, 0), max(min(left + self.length, width), 0))
            if self.is_hwc or image.ndim == 2:
                image[rows, cols] = 0
            else:
                image[:, rows, cols] = 0
        return image
