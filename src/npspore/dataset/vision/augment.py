"""Random augmentations of ImageNet-style training: ``RandomResizedCrop``, ``RandomCropDecodeResize`` and
``RandomColorAdjust``, in NumPy.

The crop follows MindSpore's (and torchvision's) sampling: up to ``max_attempts`` draws of an area fraction in
``scale`` and a log-uniform aspect ratio in ``ratio``, else the centre crop with the ratio clamped. The colour
adjustments are OpenCV's arithmetic as MindSpore's CPU kernels use it (float32, rounded half to even):
brightness equals MindSpore's, contrast and saturation come within one grey level of it, hue (through an
HSV round trip with H in 0..255) within six; MindSpore applies the four in a random order, and so does npspore.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..transforms.transforms import TensorOperation
from .decoding import Decode
from .resampling import resize_linear, resize_nearest
from .transforms import _check_image, _random_generator, _size_pair
from .utils import Inter

__all__ = ["RandomResizedCrop", "RandomCropDecodeResize", "RandomColorAdjust"]


def _check_range(values: Any, name: str, low: float, high: float, reversed_message: str = "") -> tuple[float, float]:
    """``values`` as a (min, max) pair within ``[low, high]``, with MindSpore's messages (``reversed_message``
    for a pair given as (max, min))."""
    if not isinstance(values, (tuple, list)) or len(values) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise TypeError(f"Argument {name} with value {values!r} is not of type [<class 'list'>, <class 'tuple'>].")
    for value in values:
        if not low <= value <= high:
            raise ValueError(f"Input is not within the required interval of [{low:g}, {high:.8g}].")
    if values[0] > values[1]:
        raise ValueError(reversed_message or f"{name} should be in (min,max) format. Got (max,min).")
    return float(values[0]), float(values[1])


class RandomResizedCrop(TensorOperation):
    """A random region (area fraction in ``scale``, aspect ratio in ``ratio``) resized to ``size``.

    Raises:
        ValueError: for a bad ``size``, a range given as (max, min), or ``max_attempts`` below 1.
    """

    def __init__(self, size: Any, scale: Any = (0.08, 1.0), ratio: Any = (3.0 / 4.0, 4.0 / 3.0),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10) -> None:
        if isinstance(size, int) and not isinstance(size, bool) and size < 1:
            raise ValueError("Input is not within the required interval of [1, 16777216].")
        self.size = _size_pair(size)
        self.scale = _check_range(scale, "scale", 0, 16777216)
        self.ratio = _check_range(ratio, "ratio", 0, 16777216)
        if interpolation not in (Inter.NEAREST, Inter.BILINEAR):
            raise ValueError(f"RandomResizedCrop: npspore implements Inter.NEAREST and Inter.BILINEAR, "
                             f"but got {interpolation!r}.")
        self.interpolation = Inter(interpolation)
        if not isinstance(max_attempts, int) or isinstance(max_attempts, bool) or max_attempts < 1:
            raise ValueError("Input max_attempts is not within the required interval of [1, 2147483647].")
        self.max_attempts = max_attempts
        self._rng = _random_generator()

    def _region(self, height: int, width: int) -> tuple[int, int, int, int]:
        """``(top, left, h, w)`` of the crop."""
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * self._rng.uniform(*self.scale)
            aspect = math.exp(self._rng.uniform(*log_ratio))
            w, h = round(math.sqrt(target * aspect)), round(math.sqrt(target / aspect))
            if 0 < w <= width and 0 < h <= height:
                return int(self._rng.integers(height - h + 1)), int(self._rng.integers(width - w + 1)), h, w
        aspect = width / height      # the centre crop, its aspect ratio clamped to ``ratio``
        if aspect < self.ratio[0]:
            w, h = width, round(width / self.ratio[0])
        elif aspect > self.ratio[1]:
            w, h = round(height * self.ratio[1]), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply(self, array):
        _check_image(array, type(self).__name__)
        top, left, h, w = self._region(*array.shape[:2])
        resample = resize_nearest if self.interpolation == Inter.NEAREST else resize_linear
        return resample(array[top:top + h, left:left + w], *self.size)


class RandomCropDecodeResize(RandomResizedCrop):
    """``Decode`` then :class:`RandomResizedCrop` of the encoded image bytes (arguments as RandomResizedCrop's)."""

    def _apply(self, array):
        return super()._apply(Decode()(array))


def _factor_range(value: Any, name: str, *, centre: float, low: float, high: float) -> tuple[float, float]:
    """A factor argument (a number: ``[centre - v, centre + v]`` clipped at ``low``; or a (min, max) pair)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if centre == 1.0 and value < 0:
            raise ValueError(f"The input value of {name} cannot be negative.")
        if centre == 0.0 and not 0 <= value <= high:
            raise ValueError(f"Input is not within the required interval of [0, {high:g}].")
        return max(low, centre - value), centre + value
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'numbers.Number'>, "
                        f"<class 'list'>, <class 'tuple'>], but got {type(value)}.")
    return _check_range(value, name, low, high, f"{name} value should be in (min,max) format. Got {tuple(value)}.")


def _saturate(values: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(values), 0, 255).astype(np.uint8)


def _grey(image: np.ndarray) -> np.ndarray:
    """OpenCV's RGB-to-grey of uint8 pixels (fixed point, 14 bits)."""
    r, g, b = (image[..., k].astype(np.int64) for k in range(3))
    return (r * 4899 + g * 9617 + b * 1868 + (1 << 13)) >> 14


def _blend(image: np.ndarray, other: np.ndarray | float, factor: float) -> np.ndarray:
    """``image * factor + other * (1 - factor)`` in float32, saturated to uint8."""
    return _saturate(image.astype(np.float32) * np.float32(factor) + np.float32(other) * np.float32(1 - factor))


def _divisor_table(numerator: float) -> np.ndarray:
    """``round(numerator * 2**12 / i)`` for i in 1..255 (0 at 0): OpenCV's HSV division tables."""
    table = np.zeros(256, np.int64)
    table[1:] = np.rint(numerator * 4096 / np.arange(1, 256))
    return table


_S_DIVISORS, _H_DIVISORS = _divisor_table(255), _divisor_table(256 / 6)


def _shift_hue(image: np.ndarray, shift: float) -> np.ndarray:
    """Rotate the hue of uint8 RGB pixels by ``shift`` of a turn (HSV with H in 0..255, as OpenCV's _FULL)."""
    r, g, b = (image[..., k].astype(np.int64) for k in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    s = (diff * _S_DIVISORS[v] + 2048) >> 12
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = ((h * _H_DIVISORS[diff] + 2048) >> 12) % 256
    h = (h + int(shift * 255)) % 256
    hue = h.astype(np.float32) * np.float32(6 / 256)
    sector = np.floor(hue)
    f = hue - sector
    sf, vf = s.astype(np.float32) / np.float32(255), v.astype(np.float32) / np.float32(255)
    levels = [vf, vf * (1 - sf), vf * (1 - sf * f), vf * (1 - sf * (1 - f))]
    # which level each of r, g, b takes in each sixth of the hue circle
    order = np.array([[0, 3, 1], [2, 0, 1], [1, 0, 3], [1, 2, 0], [3, 1, 0], [0, 1, 2]])[sector.astype(np.int64) % 6]
    rgb = np.stack([np.choose(order[..., c], levels) for c in range(3)], axis=-1)
    return _saturate(rgb * 255)


class RandomColorAdjust(TensorOperation):
    """Random brightness, contrast, saturation (factors; a number ``v`` means ``[max(0, 1 - v), 1 + v]``) and hue
    (a shift in ``[-0.5, 0.5]`` of a turn; a number ``v`` means ``[-v, v]``) of an (H, W, 3) uint8 RGB image,
    applied in a random order (see the module docstring for how close each comes to MindSpore's).

    Raises:
        TypeError: if an argument is no number or pair.
        ValueError: for a negative factor, a hue outside [-0.5, 0.5], or a range given as (max, min).
    """

    def __init__(self, brightness: Any = (1, 1), contrast: Any = (1, 1), saturation: Any = (1, 1),
                 hue: Any = (0, 0)) -> None:
        self.brightness = _factor_range(brightness, "brightness", centre=1.0, low=0, high=16777216)
        self.contrast = _factor_range(contrast, "contrast", centre=1.0, low=0, high=16777216)
        self.saturation = _factor_range(saturation, "saturation", centre=1.0, low=0, high=16777216)
        self.hue = _factor_range(hue, "hue", centre=0.0, low=-0.5, high=0.5)
        self._rng = _random_generator()

    def _apply(self, array):
        if array.ndim != 3 or array.shape[2] != 3:
            raise RuntimeError(f"RandomColorAdjust: the image should be <H, W, 3> RGB, but got shape {array.shape}.")
        image = array.astype(np.uint8)
        for step in self._rng.permutation(4):
            if step == 0:
                image = _blend(image, 0.0, self._rng.uniform(*self.brightness))
            elif step == 1:
                image = _blend(image, float(np.rint(_grey(image).mean())), self._rng.uniform(*self.contrast))
            elif step == 2:
                image = _blend(image, _grey(image)[..., None], self._rng.uniform(*self.saturation))
            else:
                shift = self._rng.uniform(*self.hue)
                image = _shift_hue(image, shift) if shift else image
        return image
