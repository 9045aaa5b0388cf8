"""Color adjustments of RGB uint8 images, as MindSpore 2.10 computes them (its OpenCV kernels, exactly):
``RandomColorAdjust`` and the four adjustments it applies in a random order.

- brightness ``f``: ``round(image * f)``;
- contrast ``f``: ``round(image * f + m * (1 - f))``, ``m`` the rounded mean of the image's gray levels;
- saturation ``f``: ``round(image * f + gray * (1 - f))``, per pixel;

in float32 as OpenCV computes them, ``f`` a C++ float (:func:`add_weighted` for the blends);
- hue ``h``: OpenCV's 8-bit full-range HSV (hue in 0..255), the hue byte shifted by ``int(h * 255)``
  modulo 256, back to RGB.

Rounding is to nearest, halves to even, then clipped to [0, 255]; gray levels are OpenCV's 15-bit fixed point
``(9798 R + 19235 G + 3735 B + 16384) >> 15`` (its vector path's: the 14-bit one of its scalar path gave another
gray level for 1 of 30 images MindSpore 2.10 saturated, the 15-bit one none).
"""
from __future__ import annotations

import numbers

import numpy as np

from ..transform_draws import draws_for

__all__ = ["RandomColorAdjust", "adjust_brightness", "adjust_contrast", "adjust_saturation", "adjust_hue",
           "add_weighted"]

_MAX_FACTOR = 16777216
# Which of (v, v(1-s), v(1-sf), v(1-s(1-f))) are blue, green and red in each hue sector (OpenCV's table)
_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def _to_uint8(values: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(values), 0, 255).astype(np.uint8)


def _gray(image: np.ndarray) -> np.ndarray:
    r, g, b = (image[..., i].astype(np.int64) for i in range(3))
    return (r * 9798 + g * 19235 + b * 3735 + (1 << 14)) >> 15


def adjust_brightness(image: np.ndarray, factor: float) -> np.ndarray:
    """``image * factor``, rounded and clipped."""
    return _to_uint8((image * float(np.float32(factor))).astype(np.float32))


def add_weighted(first: np.ndarray, first_weight: float, second: np.ndarray, second_weight: float) -> np.ndarray:
    """OpenCV's ``addWeighted`` of uint8 images (its vector path): the weights as C floats, ``second *
    second_weight`` rounded to float32, then ``first * first_weight`` added in one fused multiply-add, rounded to
    the nearest level and clipped."""
    alpha, beta = float(np.float32(first_weight)), float(np.float32(second_weight))
    return _to_uint8((first * alpha + (second * beta).astype(np.float32)).astype(np.float32))


def adjust_contrast(image: np.ndarray, factor: float) -> np.ndarray:
    """The image blended with its mean gray level: ``factor`` 0 gives flat gray, 1 the image."""
    alpha = float(np.float32(factor))
    return add_weighted(np.rint(_gray(image).mean()), 1.0 - alpha, image, alpha)


def adjust_saturation(image: np.ndarray, factor: float) -> np.ndarray:
    """The image blended with its gray version: ``factor`` 0 gives gray, 1 the image."""
    alpha = float(np.float32(factor))
    return add_weighted(_gray(image)[..., None], 1.0 - alpha, image, alpha)


def adjust_hue(image: np.ndarray, factor: float) -> np.ndarray:
    """The hue turned by ``factor`` of a full turn (in [-0.5, 0.5]), in OpenCV's 8-bit HSV."""
    r, g, b = (image[..., i].astype(np.int64) for i in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    s = (diff * np.rint((255 << 12) / np.maximum(v, 1)).astype(np.int64) * (v > 0) + (1 << 11)) >> 12
    hue = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    hue = (hue * np.rint((256 << 12) / (6.0 * np.maximum(diff, 1))).astype(np.int64) * (diff > 0) + (1 << 11)) >> 12
    hue = np.minimum(np.where(hue < 0, hue + 256, hue), 255)
    hue = (hue + (int(np.float32(factor) * np.float32(255)) & 0xFF)) % 256
    h = np.fmod(hue.astype(np.float32) * np.float32(6.0 / 255), np.float32(6))
    sector = np.floor(h).astype(np.int64)
    frac = h - sector
    sf, vf = s.astype(np.float32) * np.float32(1 / 255), v.astype(np.float32) * np.float32(1 / 255)
    table = np.stack([vf, vf * (1 - sf), vf * (1 - sf * frac), vf * (1 - sf * (1 - frac))], -1)
    bgr = np.take_along_axis(table, _SECTORS[sector], -1)
    rgb = np.where((s == 0)[..., None], vf[..., None], bgr[..., ::-1])
    return _to_uint8(rgb * np.float32(255))


def _factor_range(value, name: str, center: float, low: float, high: float) -> tuple[float, float]:
    """A (min, max) range from a number (``center`` ± it) or a pair, checked as MindSpore checks it."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"The input value of {name} cannot be negative.")
        if center == 0 and value > high:
            raise ValueError(f"Input is not within the required interval of [{low}, {high}].")
        return (max(low, center - value), center + value) if center else (-value, value)
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise TypeError(f"If {name} is a sequence, the length must be 2.")
        if not all(low <= v <= high for v in value):
            raise ValueError(f"Input is not within the required interval of [{low}, {high}].")
        if value[0] > value[1]:
            raise ValueError(f"{name} value should be in (min,max) format. Got {tuple(value)}.")
        return float(value[0]), float(value[1])
    raise TypeError(f"Argument {name} with value {value} is not of type [<class 'numbers.Number'>, <class 'list'>, "
                    f"<class 'tuple'>], but got {type(value)}.")


class RandomColorAdjust:
    """Randomly adjust the brightness, contrast, saturation and hue of an RGB (H, W, 3) uint8 image.

    Each call draws a factor from each range and applies the adjustments in a random order, skipping those
    whose range is only their identity (``(1, 1)``, hue ``(0, 0)``), as MindSpore 2.10 does; with a seed set, the
    order and the factors are MindSpore's (``transform_draws``).

    Args:
        brightness (Union[float, Sequence[float]]): a factor ``f >= 0`` draws from ``[max(0, 1 - f), 1 + f]``,
            a pair ``(min, max)`` from it. Default: ``(1, 1)``.
        contrast (Union[float, Sequence[float]]): as ``brightness``. Default: ``(1, 1)``.
        saturation (Union[float, Sequence[float]]): as ``brightness``. Default: ``(1, 1)``.
        hue (Union[float, Sequence[float]]): ``h`` in [0, 0.5] draws from ``[-h, h]``, a pair from it (within
            [-0.5, 0.5]). Default: ``(0, 0)``.

    Raises:
        TypeError: If a range is not a number or a pair, or the image is not uint8.
        ValueError: If a range is negative or out of bounds, or its min exceeds its max.
        RuntimeError: If the image is not (H, W, 3) (MindSpore's message).
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.ranges = [(adjust_brightness, _factor_range(brightness, "brightness", 1, 0, _MAX_FACTOR)),
                       (adjust_contrast, _factor_range(contrast, "contrast", 1, 0, _MAX_FACTOR)),
                       (adjust_saturation, _factor_range(saturation, "saturation", 1, 0, _MAX_FACTOR)),
                       (adjust_hue, _factor_range(hue, "hue", 0, -0.5, 0.5))]

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"RandomColorAdjust takes 1 input column, but got {len(inputs)}.")
        image = np.asarray(inputs[0])
        if image.ndim != 3:
            raise RuntimeError(f"RandomColorAdjust: the dimension of image tensor does not match the requirement of "
                               f"operator. Expecting tensor in dimension of (3), in shape of <H, W, C>. But got "
                               f"dimension {image.ndim}.")
        if image.shape[2] != 3:
            raise RuntimeError(f"RandomColorAdjust: the channel of image tensor does not match the requirement of "
                               f"operator. Expecting tensor in channel of (3). But got channel {image.shape[2]}.")
        if image.dtype != np.uint8:
            raise TypeError(f"RandomColorAdjust: npspore adjusts uint8 images, but got {image.dtype}.")
        draws = draws_for(self)
        order = list(self.ranges)
        draws.shuffle(order)
        for adjust, (low, high) in order:   # an adjustment whose range is only its identity is skipped, as MindSpore's
            if (low, high) != ((0, 0) if adjust is adjust_hue else (1, 1)):
                image = adjust(image, draws.uniform_float(low, high))
        return image
