"""Pixel adjustments of uint8 images, as MindSpore 2.10's kernels compute them (checked pixel for pixel):
``Invert``, ``Equalize``, ``AutoContrast``, ``RandomSolarize``, ``RandomPosterize``, ``RandomColor``,
``RandomSharpness`` and ``Crop`` on arrays; ``Grayscale`` and ``RandomGrayscale`` on ``PIL.Image`` images
(MindSpore has them in Python, on Pillow, only).

- equalize: OpenCV's ``equalizeHist`` per channel, ``round(cdf * 255 / (n - first bin's count))``;
- auto contrast: per channel, after dropping ``ignore``'d levels and ``cutoff`` percent of the pixels at each
  end of the histogram, levels ``lo..hi`` stretched to 0..255, ``int((v - lo) * 255 / (hi - lo))``;
- color and sharpness blend the image with a degenerate one, ``image * f + d * (1 - f)`` as OpenCV's
  ``addWeighted`` computes it (``color.add_weighted``): ``d`` its gray version (OpenCV's fixed-point gray) or its
  3x3 smoothing (kernel 1 1 1 / 1 5 1 / 1 1 1 over 13, rounded, the border rows and columns kept).

Seeded, the random ones draw MindSpore's factor, thresholds or bits (``transform_draws``); ``RandomGrayscale``
(Python in MindSpore) draws from Python's ``random``, as MindSpore's.
"""
from __future__ import annotations

import numbers
import random

import numpy as np

from ...core.pillow import pillow
from ..transforms.transforms import TensorOperation
from ..transform_draws import centred_uniform, draws_for
from .color import _gray, add_weighted

__all__ = ["Invert", "Equalize", "AutoContrast", "RandomSolarize", "RandomPosterize", "RandomColor",
           "RandomSharpness", "Crop", "Grayscale", "RandomGrayscale"]

_MAX_FACTOR = 16777216
_WHOLE_PIXEL = 0.00195     # half a gray level of an 8-bit image, as a blend factor (MindSpore's RandomColor)


def _require_uint8(array, who):
    if array.dtype != np.uint8:
        raise RuntimeError(f"{who}: data type of input image should be uint8, but got {array.dtype}")


def _per_channel(array, who, channel_map):
    """``channel_map`` applied to each channel of an (H, W) or (H, W, C) uint8 image."""
    _require_uint8(array, who)
    if array.ndim == 2:
        return channel_map(array)
    if array.ndim != 3:
        raise RuntimeError(f"{who}: input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {array.ndim}")
    return np.stack([channel_map(array[..., c]) for c in range(array.shape[2])], axis=-1)


def _check_rgb(array, who):
    if array.ndim != 3 or array.shape[2] != 3:
        shape = ",".join(str(s) for s in array.shape)
        raise RuntimeError(f"{who}: image shape is not <H,W,C> or channel is not 3, got rank: {array.ndim}, and "
                           f"shape: <{shape}>")
    _require_uint8(array, who)


def _check_degrees(degrees):
    if not isinstance(degrees, (tuple, list)):
        raise TypeError("degrees must be either a tuple or a list.")
    if len(degrees) != 2 or not all(isinstance(d, numbers.Real) and not isinstance(d, bool) for d in degrees):
        raise TypeError(f"degrees should be a (min, max) pair of numbers, but got {degrees!r}.")
    if not all(0 <= d <= _MAX_FACTOR for d in degrees):
        raise ValueError(f"Input is not within the required interval of [0, {_MAX_FACTOR}].")
    if degrees[0] > degrees[1]:
        raise ValueError("degrees should be in (min,max) format. Got (max,min).")
    return tuple(float(d) for d in degrees)


class Invert(TensorOperation):
    """Each pixel ``v`` of an (H, W, C) image becomes ``255 - v``."""

    def _apply(self, array):
        if array.ndim != 3:
            raise RuntimeError(f"Invert: input tensor is not in shape of <H,W,C>, but got rank: {array.ndim}")
        return (255 - array).astype(array.dtype)


def _equalize_channel(channel):
    hist = np.bincount(channel.ravel(), minlength=256)
    first = int(np.flatnonzero(hist)[0])
    if hist[first] == channel.size:
        return np.full_like(channel, first)
    lut = np.cumsum(hist) - hist[first]
    lut = np.clip(np.rint(lut * (255.0 / (channel.size - hist[first]))), 0, 255).astype(np.uint8)
    lut[:first] = 0
    return lut[channel]


class Equalize(TensorOperation):
    """Equalize the histogram of each channel of an (H, W) or (H, W, C) uint8 image."""

    def _apply(self, array):
        return _per_channel(array, "Equalize", _equalize_channel)


def _trim(hist, count):
    """``hist`` without ``count`` pixels from its low end."""
    hist = hist.copy()
    for level in range(256):
        taken = min(count, hist[level])
        hist[level] -= taken
        count -= taken
        if count <= 0:
            break
    return hist


class AutoContrast(TensorOperation):
    """Stretch each channel's levels to 0..255 (see the module doc).

    Args:
        cutoff (float): the percent of pixels dropped at each end of the histogram, in [0, 50). Default: ``0.0``.
        ignore (Union[int, Sequence[int]]): levels left out of the histogram. Default: ``None``.
    """

    def __init__(self, cutoff: float = 0.0, ignore: int | list[int] | tuple[int, ...] | None = None) -> None:
        if isinstance(cutoff, bool) or not isinstance(cutoff, numbers.Real):
            raise TypeError(f"Argument cutoff with value {cutoff} is not of type [<class 'int'>, <class 'float'>], "
                            f"but got {type(cutoff)}.")
        if not 0 <= cutoff < 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        if ignore is not None and not isinstance(ignore, (list, tuple, int)):
            raise TypeError(f"Argument ignore with value {ignore} is not of type [<class 'list'>, <class 'tuple'>, "
                            f"<class 'int'>], but got {type(ignore)}.")
        levels = [] if ignore is None else [ignore] if isinstance(ignore, int) else list(ignore)
        if not all(isinstance(v, int) and 0 <= v <= 255 for v in levels):
            raise ValueError("Input ignore is not within the required interval of [0, 255].")
        self.cutoff, self.ignore = float(cutoff), levels

    def _channel(self, channel):
        hist = np.bincount(channel.ravel(), minlength=256).astype(np.int64)
        hist[self.ignore] = 0
        if self.cutoff:
            cut = int(hist.sum() * self.cutoff / 100)
            hist = _trim(_trim(hist, cut)[::-1], cut)[::-1]
        levels = np.flatnonzero(hist)
        if len(levels) == 0 or levels[-1] <= levels[0]:
            return channel
        lo, hi = int(levels[0]), int(levels[-1])
        lut = ((np.arange(256) - lo) * (255.0 / (hi - lo))).astype(np.int64)
        return np.clip(lut, 0, 255).astype(np.uint8)[channel]

    def _apply(self, array):
        return _per_channel(array, "AutoContrast", self._channel)


class RandomSolarize(TensorOperation):
    """Invert (``255 - v``) the pixels between two thresholds drawn from ``threshold``: those in [lo, hi], or,
    when the two draws are equal, those at least that level.

    Args:
        threshold (tuple[int, int]): ``(min, max)`` within [0, 255]. Default: ``(0, 255)``.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, threshold: tuple[int, int] = (0, 255)) -> None:
        if not isinstance(threshold, tuple):
            raise TypeError(f"Argument threshold with value {threshold} is not of type [<class 'tuple'>], but got "
                            f"{type(threshold)}.")
        if len(threshold) != 2 or not all(isinstance(v, int) and 0 <= v <= 255 for v in threshold):
            raise ValueError("Input is not within the required interval of [0, 255].")
        if threshold[0] > threshold[1]:
            raise ValueError("threshold must be in min max format numbers.")
        self.threshold = threshold

    def _apply(self, array):
        _require_uint8(array, "RandomSolarize")
        draws = draws_for(self)
        lo, hi = sorted(draws.integer(*self.threshold) for _ in range(2))
        inside = array >= lo if lo == hi else (array >= lo) & (array <= hi)
        return np.where(inside, 255 - array, array).astype(np.uint8)


class RandomPosterize(TensorOperation):
    """Keep the top ``b`` bits of each pixel, ``b`` drawn from ``bits``.

    Args:
        bits (Union[int, Sequence[int]]): a bit count, or a ``(min, max)`` range, within [1, 8]. Default: ``(8, 8)``.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, bits: int | tuple[int, int] = (8, 8)) -> None:
        pair = (bits, bits) if isinstance(bits, int) else tuple(bits)
        if len(pair) != 2 or not all(isinstance(b, int) and 1 <= b <= 8 for b in pair) or pair[0] > pair[1]:
            raise ValueError("Input is not within the required interval of [1, 8].")
        self.bits = pair

    def _apply(self, array):
        if array.dtype != np.uint8:
            raise RuntimeError(f"Posterize: data type of input image should be int8 or uint8, but got {array.dtype}")
        bits = self.bits[0] if self.bits[0] == self.bits[1] else draws_for(self).integer(*self.bits)
        return array & np.uint8((0xFF << (8 - bits)) & 0xFF)


class _RandomBlend(TensorOperation):
    """Blend the image with a degenerate version of it (``_degenerate``) by a factor drawn from ``degrees``.

    Args:
        degrees (Sequence[float]): ``(min, max)``, non-negative. Default: ``(0.1, 1.9)``.
    """

    random = True          # draws through ``transform_draws``

    def __init__(self, degrees: tuple[float, float] = (0.1, 1.9)) -> None:
        self.degrees = _check_degrees(degrees)

    def _degenerate(self, array):
        raise NotImplementedError

    def _factor(self) -> float:
        raise NotImplementedError

    def _apply(self, array):
        factor = float(np.float32(self._factor()))
        return add_weighted(array, factor, self._degenerate(array), 1.0 - factor)


class RandomColor(_RandomBlend):
    """Blend an RGB image with its gray version by a factor drawn from ``degrees`` (0: gray, 1: the image).

    Args:
        degrees (Sequence[float]): ``(min, max)``, non-negative. Default: ``(0.1, 1.9)``.
    """

    def _degenerate(self, array):
        _check_rgb(array, "RandomColor")
        return _gray(array)[..., None].astype(np.float64)

    def _factor(self) -> float:
        """A float uniform in ``degrees``, as MindSpore's ``RandomColorOp`` draws it."""
        return draws_for(self).uniform_float(*self.degrees)

    def _apply(self, array):
        gray = self._degenerate(array)
        factor = self._factor()
        if abs(factor - 1.0) < _WHOLE_PIXEL:      # MindSpore's shortcuts: the image, or its gray version
            return array
        if abs(factor) < _WHOLE_PIXEL:
            return np.broadcast_to(gray, array.shape).astype(np.uint8)
        return add_weighted(array, factor, gray, 1.0 - factor)


class RandomSharpness(_RandomBlend):
    """Blend the image with its smoothing by a factor drawn from ``degrees`` (0: smoothed, 1: the image, above 1:
    sharpened).

    Args:
        degrees (Sequence[float]): ``(min, max)``, non-negative. Default: ``(0.1, 1.9)``.
    """

    def _factor(self) -> float:
        return centred_uniform(draws_for(self), *self.degrees)

    def _degenerate(self, array):
        _require_uint8(array, "RandomSharpness")
        if array.ndim not in (2, 3):
            raise RuntimeError(f"RandomSharpness: the image should have shape <H,W> or <H,W,C>, but got rank: "
                               f"{array.ndim}")
        image = array.astype(np.float64)
        height, width = image.shape[:2]
        if height < 3 or width < 3:
            return image
        kernel = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]]) / 13
        inner = sum(kernel[dy, dx] * image[dy:dy + height - 2, dx:dx + width - 2]
                    for dy in range(3) for dx in range(3))
        image[1:-1, 1:-1] = np.rint(inner)
        return image


class Crop(TensorOperation):
    """The ``size`` region of the image whose top-left corner is ``coordinates``.

    Args:
        coordinates (Sequence[int]): ``(top, left)``, non-negative.
        size (Union[int, Sequence[int]]): the height and width (an int for both), positive.
    """

    def __init__(self, coordinates: tuple[int, int], size: int | tuple[int, int]) -> None:
        if not isinstance(coordinates, (list, tuple)):
            raise TypeError(f"Argument coordinates with value {coordinates} is not of type [<class 'list'>, "
                            f"<class 'tuple'>], but got {type(coordinates)}.")
        for i, value in enumerate(coordinates):
            if not isinstance(value, int) or not 0 <= value <= 2147483647:
                raise ValueError(f"Input coordinates[{i}] is not within the required interval of [0, 2147483647].")
        pair = (size, size) if isinstance(size, int) else tuple(size)
        if len(coordinates) != 2 or len(pair) != 2 or not all(isinstance(s, int) and 1 <= s <= _MAX_FACTOR
                                                               for s in pair):
            raise ValueError(f"Input is not within the required interval of [1, {_MAX_FACTOR}].")
        self.coordinates, self.size = tuple(coordinates), pair

    def _apply(self, array):
        top, left = self.coordinates
        height, width = self.size
        if top + height > array.shape[0]:
            raise RuntimeError(f"Crop: Crop height dimension: {top + height} exceeds image height: {array.shape[0]}")
        if left + width > array.shape[1]:
            raise RuntimeError(f"Crop: Crop width dimension: {left + width} exceeds image width: {array.shape[1]}")
        return array[top:top + height, left:left + width].copy()


def _pil_image(img):
    Image = pillow()
    if not isinstance(img, Image.Image):
        raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded data or ToPIL() for "
                        f"decoded data.")
    return img


def _grayscale(img, channels):
    gray = img.convert("L")
    if channels == 1:
        return gray
    return pillow().fromarray(np.dstack([np.asarray(gray)] * 3), "RGB")


class Grayscale:
    """A ``PIL.Image`` in gray (Pillow's ``convert('L')``), with 1 or 3 (equal) channels.

    Args:
        num_output_channels (int): 1 or 3. Default: ``1``.
    """

    def __init__(self, num_output_channels: int = 1) -> None:
        if num_output_channels not in (1, 3):
            raise ValueError(f"Number of channels of the output grayscale imageshould be either 1 or 3. Got "
                             f"{num_output_channels}.")
        self.num_output_channels = num_output_channels

    def __call__(self, img):
        return _grayscale(_pil_image(img), self.num_output_channels)


class RandomGrayscale:
    """With probability ``prob``, a ``PIL.Image`` in gray, keeping its channel count (1 for mode ``L``, else 3).

    Args:
        prob (float): in [0, 1]. Default: ``0.1``.
    """
    random = True          # draws from Python's random

    def __init__(self, prob: float = 0.1) -> None:
        if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
        self.prob = prob

    def __call__(self, img):
        img = _pil_image(img)
        if self.prob > random.random():       # MindSpore's Python implementation: Python's random
            return _grayscale(img, 1 if img.mode == "L" else 3)
        return img
