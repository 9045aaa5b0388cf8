"""Vision transforms of the 2.10 usage list's tail: ``Rotate`` (a fixed ``RandomRotation``), ``AdjustBrightness``,
``AdjustContrast``, ``AdjustSaturation``, ``AdjustHue`` (the adjustments ``RandomColorAdjust`` draws, with a given
factor), ``NormalizePad`` (``Normalize`` plus a zero fourth channel) and ``SlicePatches`` with ``SliceMode``, as
MindSpore 2.10's (values recorded by ``tools/observe_mindspore_vision_tail.py``)."""
from __future__ import annotations

import math
from enum import IntEnum

import numpy as np

from ..arguments import numpy_dtype
from . import color
from .geometry import RandomRotation
from .transforms import Normalize, TensorOperation, _check_image
from .utils import Inter

__all__ = ["Rotate", "AdjustBrightness", "AdjustContrast", "AdjustSaturation", "AdjustHue", "NormalizePad",
           "SliceMode", "SlicePatches"]


class Rotate(RandomRotation):
    """Rotate the image by ``degrees`` counter-clockwise (the arguments of :class:`RandomRotation`, one angle).

    Raises:
        TypeError: If ``degrees`` is not a number.
    """

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        if not isinstance(degrees, (int, float)) or isinstance(degrees, bool):
            raise TypeError(f"Argument degrees with value {degrees} is not of type [<class 'float'>, <class 'int'>],"
                            f" but got {type(degrees)}.")
        super().__init__((degrees, degrees), resample, expand, center, fill_value)

    def _angle(self) -> float:
        return float(self.degrees[0])


class _Adjust(TensorOperation):
    """Apply the colour adjustment ``_ADJUST`` with a fixed factor to an RGB (H, W, 3) uint8 image."""

    _NAME = ""
    _LOW, _HIGH = 0.0, float("inf")

    def __init__(self, factor) -> None:
        if not isinstance(factor, (int, float)) or isinstance(factor, bool):
            raise TypeError(f"Argument {self._NAME} with value {factor} is not of type [<class 'float'>, <class "
                            f"'int'>], but got {type(factor)}.")
        if not self._LOW <= factor <= self._HIGH:
            high = 16777216 if math.isinf(self._HIGH) else self._HIGH
            raise ValueError(f"Input {self._NAME} is not within the required interval of [{self._LOW}, {high}].")
        self.factor = factor

    def _apply(self, array):
        if array.ndim != 3 or array.shape[-1] != 3:
            raise RuntimeError(f"{type(self).__name__}: the image should be <H, W, 3>, but got {array.shape}.")
        if array.dtype != np.uint8:
            raise RuntimeError(f"{type(self).__name__}: npspore adjusts uint8 images, but got {array.dtype}.")
        return self._adjusted(array)


class AdjustBrightness(_Adjust):
    """The image's brightness scaled by ``brightness_factor`` (>= 0)."""

    _NAME = "brightness_factor"

    def _adjusted(self, array):
        return color.adjust_brightness(array, self.factor)


class AdjustContrast(_Adjust):
    """The image's contrast scaled by ``contrast_factor`` (>= 0)."""

    _NAME = "contrast_factor"

    def _adjusted(self, array):
        return color.adjust_contrast(array, self.factor)


class AdjustSaturation(_Adjust):
    """The image's saturation scaled by ``saturation_factor`` (>= 0)."""

    _NAME = "saturation_factor"

    def _adjusted(self, array):
        return color.adjust_saturation(array, self.factor)


class AdjustHue(_Adjust):
    """The image's hue turned by ``hue_factor`` of a full turn, in [-0.5, 0.5]."""

    _NAME = "hue_factor"
    _LOW, _HIGH = -0.5, 0.5

    def _adjusted(self, array):
        return color.adjust_hue(array, self.factor)


class NormalizePad(TensorOperation):
    """``(image - mean) / std`` per channel, with a fourth channel of zeros appended, as ``dtype``
    (``'float32'`` or ``'float16'``)."""

    def __init__(self, mean, std, dtype: str = "float32", is_hwc: bool = True) -> None:
        if dtype not in ("float32", "float16"):
            raise ValueError(f"dtype should be 'float32' or 'float16', but got {dtype}.")
        self.normalize, self.dtype, self.is_hwc = Normalize(mean, std, is_hwc), numpy_dtype(dtype), is_hwc

    def _apply(self, array):
        normalized = self.normalize._apply(array)
        axis = -1 if self.is_hwc else 0
        pad = [(0, 0)] * normalized.ndim
        pad[axis] = (0, 1)
        return np.pad(normalized, pad).astype(self.dtype)


class SliceMode(IntEnum):
    """How ``SlicePatches`` treats a size not divisible by the patches: pad the image, or drop the rest."""
    PAD = 0
    DROP = 1


class SlicePatches:
    """An (H, W, ...) image cut into ``num_height x num_width`` patches (row by row): with ``SliceMode.PAD`` it is
    first padded at the bottom and right with ``fill_value`` to a size the patches divide, with ``DROP`` the rest is
    left out."""

    def __init__(self, num_height: int = 1, num_width: int = 1, slice_mode: SliceMode = SliceMode.PAD,
                 fill_value: int = 0) -> None:
        for name, value in (("num_height", num_height), ("num_width", num_width)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], but got "
                                f"{type(value)}.")
            if not 1 <= value <= 2147483647:
                raise ValueError(f"Input {name} is not within the required interval of [1, 2147483647].")
        if not isinstance(slice_mode, SliceMode):
            raise TypeError(f"Argument slice_mode with value {slice_mode} is not of type [<enum 'SliceMode'>], but "
                            f"got {type(slice_mode)}.")
        if not isinstance(fill_value, int) or not 0 <= fill_value <= 255:
            raise ValueError("Input fill_value is not within the required interval of [0, 255].")
        self.num_height, self.num_width, self.slice_mode, self.fill_value = num_height, num_width, slice_mode, \
            fill_value

    def __call__(self, image):
        array = np.asarray(image)
        _check_image(array, "SlicePatches")
        height, width = array.shape[:2]
        if self.slice_mode is SliceMode.PAD:
            patch_h, patch_w = -(-height // self.num_height), -(-width // self.num_width)
            pad = [(0, patch_h * self.num_height - height), (0, patch_w * self.num_width - width)]
            array = np.pad(array, pad + [(0, 0)] * (array.ndim - 2), constant_values=self.fill_value)
        else:
            patch_h, patch_w = height // self.num_height, width // self.num_width
        return tuple(array[r * patch_h:(r + 1) * patch_h, c * patch_w:(c + 1) * patch_w]
                     for r in range(self.num_height) for c in range(self.num_width))
