"""Random crops resized to a fixed size, as ``mindspore.dataset.vision``: ``RandomResizedCrop`` and
``RandomCropDecodeResize`` (decode first).

Each call tries ``max_attempts`` times to draw a crop whose area is a ``scale`` fraction of the image
and whose aspect ratio (width / height, drawn uniformly in log space) is within ``ratio``: its width is
``round(sqrt(area * scale * aspect))``, its height ``round(width / aspect)``, and it is placed uniformly.
When no draw fits, the crop is the largest centred one whose aspect is within ``ratio`` (the whole image
when its own aspect is). The crop is then resized with MindSpore's ``Resize`` arithmetic. With a seed set the
draws are MindSpore's (``transform_draws``).
"""
from __future__ import annotations

import math

import numpy as np

from .decode import Decode
from .resampling import resize_linear, resize_nearest
from ..transform_draws import draws_for
from .transforms import _check_image, _size_pair
from .utils import Inter

__all__ = ["RandomResizedCrop", "RandomCropDecodeResize"]

_MAX_SIZE = 16777216


def _round(value: float) -> int:
    """C's ``round``: halves away from zero."""
    return int(math.floor(value + 0.5)) if value >= 0 else -int(math.floor(-value + 0.5))


def _check_range(value, name: str, positive: bool) -> tuple[float, float]:
    if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'tuple'>, <class 'list'>] of two "
                        f"numbers.")
    for i, v in enumerate(value):
        if (positive and not 0 < v <= _MAX_SIZE) or (not positive and not 0 <= v <= _MAX_SIZE):
            interval = f"(0, {_MAX_SIZE}]" if positive else f"[0, {_MAX_SIZE}]"
            raise ValueError(f"Input {name}[{i}] is not within the required interval of {interval}.")
    if value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return float(value[0]), float(value[1])


class RandomResizedCrop:
    """Crop a random part of an (H, W) or (H, W, C) image and resize it to ``size`` (see the module doc).

    Args:
        size (Union[int, Sequence[int]]): the output (height, width); an int for a square.
        scale (Sequence[float]): the range of the crop's area as a fraction of the image's. Default: ``(0.08, 1.0)``.
        ratio (Sequence[float]): the range of the crop's aspect ratio (width / height). Default: ``(3/4, 4/3)``.
        interpolation (Inter): ``Inter.BILINEAR`` (default) or ``Inter.NEAREST``.
        max_attempts (int): draws before the centred fallback. Default: ``10``.

    Raises:
        ValueError: If an argument is out of range (MindSpore's messages) or the interpolation is another.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3), interpolation=Inter.BILINEAR, max_attempts=10):
        if isinstance(size, int) and not isinstance(size, bool) and not 1 <= size <= _MAX_SIZE:
            raise ValueError(f"Input is not within the required interval of [1, {_MAX_SIZE}].")
        self.size = _size_pair(size)
        self.scale = _check_range(scale, "scale", positive=False)
        self.ratio = _check_range(ratio, "ratio", positive=True)
        if interpolation not in (Inter.NEAREST, Inter.BILINEAR):
            raise ValueError(f"{type(self).__name__}: npspore implements Inter.NEAREST and Inter.BILINEAR, but got "
                             f"{interpolation!r}.")
        self.resample = resize_nearest if interpolation == Inter.NEAREST else resize_linear
        if not isinstance(max_attempts, int) or isinstance(max_attempts, bool) or not 1 <= max_attempts <= 2 ** 31 - 1:
            raise ValueError("Input max_attempts is not within the required interval of [1, 2147483647].")
        self.max_attempts = max_attempts

    def crop_box(self, height: int, width: int) -> tuple[int, int, int, int]:
        """A random ``(top, left, crop height, crop width)`` for an image of that size, drawn as MindSpore's
        ``RandomCropAndResizeOp`` draws it (float samples of the scale and of the log aspect, then the column and
        the row of the corner)."""
        draws = draws_for(self)
        scale_low, scale_high = (float(np.float32(bound)) for bound in self.scale)
        aspect_low, aspect_high = (float(np.float32(bound)) for bound in self.ratio)
        log_low, log_high = math.log(aspect_low), math.log(aspect_high)
        for _ in range(self.max_attempts):
            fraction = draws.uniform_float(scale_low, scale_high)
            aspect = math.exp(draws.uniform_float(log_low, log_high))
            crop_w = max(1, _round(math.sqrt(height * width * fraction * aspect)))
            crop_h = max(1, _round(crop_w / aspect))
            if crop_w <= width and crop_h <= height:
                left = draws.integer(0, width - crop_w)
                return draws.integer(0, height - crop_h), left, crop_h, crop_w
        aspect = width / height
        crop_h, crop_w = height, width
        if aspect < aspect_low:
            crop_h = max(1, _round(width / aspect_low))
        elif aspect > aspect_high:
            crop_w = max(1, _round(height * aspect_high))
        return _round((height - crop_h) / 2), _round((width - crop_w) / 2), crop_h, crop_w

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"{type(self).__name__} takes 1 input column, but got {len(inputs)}.")
        image = self._image(inputs[0])
        _check_image(image, type(self).__name__)
        top, left, crop_h, crop_w = self.crop_box(*image.shape[:2])
        return self.resample(image[top:top + crop_h, left:left + crop_w], *self.size)

    def _image(self, value) -> np.ndarray:
        return np.asarray(value)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode an encoded image (as :class:`Decode`), then crop and resize it as :class:`RandomResizedCrop`;
    the arguments are RandomResizedCrop's."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3), interpolation=Inter.BILINEAR, max_attempts=10):
        super().__init__(size, scale, ratio, interpolation, max_attempts)
        self._decode = Decode()

    def _image(self, value) -> np.ndarray:
        return self._decode(value)
