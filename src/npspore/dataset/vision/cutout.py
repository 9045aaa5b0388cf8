"""``vision.CutOut``: zero random square patches of an image (DeVries and Taylor's Cutout)."""
from __future__ import annotations

import numpy as np

from .transforms import _check_image, _random_generator

__all__ = ["CutOut"]

_MAX = 16777216


class CutOut:
    """Zero ``num_patches`` square patches of side ``length``, each centred on a uniformly drawn pixel and
    clipped to the image (so a patch near an edge is smaller). The image keeps its shape and dtype.

    Args:
        length (int): the side of the patches, in [1, 16777216].
        num_patches (int): how many patches. Default: ``1``.
        is_hwc (bool): the image is (H, W, C) (else (C, H, W)); an (H, W) image is also accepted.
            Default: ``True``.

    Raises:
        ValueError: If ``length`` or ``num_patches`` is out of range (MindSpore's message).
        TypeError: If ``is_hwc`` is not a bool.
    """

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True):
        for value in (length, num_patches):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= _MAX:
                raise ValueError(f"Input is not within the required interval of [1, {_MAX}].")
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Argument is_hwc with value {is_hwc} is not of type [<class 'bool'>], but got "
                            f"{type(is_hwc)}.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc
        self._rng = _random_generator()

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"CutOut takes 1 input column, but got {len(inputs)}.")
        image = np.array(inputs[0])
        _check_image(image, "CutOut")
        height, width = image.shape[:2] if self.is_hwc or image.ndim == 2 else image.shape[1:]
        for _ in range(self.num_patches):
            top = int(self._rng.integers(height)) - self.length // 2
            left = int(self._rng.integers(width)) - self.length // 2
            rows = slice(max(top, 0), max(top + self.length, 0))
            cols = slice(max(left, 0), max(left + self.length, 0))
            if self.is_hwc or image.ndim == 2:
                image[rows, cols] = 0
            else:
                image[:, rows, cols] = 0
        return image
