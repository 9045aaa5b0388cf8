"""Image transforms in NumPy, as ``mindspore.dataset.vision``.

Images are arrays of shape (H, W, C) or (H, W) unless a transform says otherwise. Each transform
works in ``dataset.map`` and when called directly on an array. Random transforms draw from a
generator seeded by the pipeline seed when one is set (``dataset.config.set_seed`` or
``npspore.set_seed``) at the transform's creation.
"""
from __future__ import annotations

import numpy as np

from .. import config
from ..transforms.transforms import TensorOperation, numpy_dtype
from .utils import Border, Inter

__all__ = ["Rescale", "Normalize", "HWC2CHW", "Resize", "CenterCrop", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "ToTensor"]


def _check_image(array, who):
    if array.ndim not in (2, 3):
        raise ValueError(f"{who}: the image should have shape <H, W> or <H, W, C>, but got shape {array.shape}.")


def _size_pair(size, name="size"):
    """``size`` (an int or a (height, width) pair of positive ints) as a pair."""
    pair = (size, size) if isinstance(size, int) and not isinstance(size, bool) else size
    if (not isinstance(pair, (tuple, list)) or len(pair) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in pair)):
        raise ValueError(f"Argument {name} should be a positive int or a sequence of two positive ints, "
                         f"but got {size!r}.")
    return tuple(pair)


def _random_generator():
    return np.random.default_rng(config.user_seed())


class Rescale(TensorOperation):
    """``image * rescale + shift``, as float32."""

    def __init__(self, rescale, shift):
        for name, value in (("rescale", rescale), ("shift", shift)):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError(f"Argument {name} with value {value!r} is not of type "
                                f"[<class 'float'>, <class 'int'>].")
        self.rescale, self.shift = rescale, shift

    def _apply(self, array):
        return array.astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)


class Normalize(TensorOperation):
    """``(image - mean) / std`` per channel, as float32; channels last unless ``is_hwc=False``.

    Raises:
        ValueError: if ``mean`` and ``std`` differ in length, a std is not positive, or their length
            does not match the image's channels.
    """

    def __init__(self, mean, std, is_hwc=True):
        self.mean = np.asarray(mean, np.float32).reshape(-1)
        self.std = np.asarray(std, np.float32).reshape(-1)
        if self.mean.shape != self.std.shape or not self.mean.size:
            raise ValueError(f"Normalize: mean and std should be sequences of equal length, but got {mean} and {std}.")
        if (self.std <= 0).any():
            raise ValueError(f"Normalize: std values should be positive, but got {std}.")
        self.is_hwc = is_hwc

    def _apply(self, array):
        _check_image(array, "Normalize")
        image = array.astype(np.float32)
        channel_axis = (-1 if self.is_hwc else 0) if image.ndim == 3 else None
        channels = 1 if channel_axis is None else image.shape[channel_axis]
        if self.mean.size not in (1, channels):
            raise ValueError(f"Normalize: the image has {channels} channels but mean/std have {self.mean.size} values.")
        shape = [1] * image.ndim
        if channel_axis is not None:
            shape[channel_axis] = self.mean.size
        return ((image - self.mean.reshape(shape)) / self.std.reshape(shape)).astype(np.float32)


class HWC2CHW(TensorOperation):
    """Move the channel axis first: (H, W, C) -> (C, H, W); an (H, W) image is returned unchanged."""

    def _apply(self, array):
        _check_image(array, "HWC2CHW")
        return np.ascontiguousarray(array.transpose(2, 0, 1)) if array.ndim == 3 else array


def _bilinear_taps(in_size, out_size):
    """Source indices and weights of bilinear resampling along one axis (pixel centres aligned)."""
    position = (np.arange(out_size) + 0.5) * (in_size / out_size) - 0.5
    position = np.clip(position, 0, in_size - 1)
    low = np.floor(position).astype(np.int64)
    high = np.minimum(low + 1, in_size - 1)
    return low, high, position - low


class Resize(TensorOperation):
    """Resize to ``size`` (height, width); an int resizes the shorter side, keeping the aspect ratio.

    ``Inter.BILINEAR`` (default) samples at aligned pixel centres as OpenCV does; ``Inter.NEAREST``
    takes the pixel ``floor(i * in / out)``. Integer images are rounded and keep their dtype.

    Raises:
        ValueError: for a bad ``size`` or an interpolation other than NEAREST/BILINEAR.
    """

    def __init__(self, size, interpolation=Inter.BILINEAR):
        _size_pair(size)
        self.size = size
        if interpolation not in (Inter.NEAREST, Inter.BILINEAR):
            raise ValueError(f"Resize: npspore implements Inter.NEAREST and Inter.BILINEAR, but got {interpolation!r}.")
        self.interpolation = Inter(interpolation)

    def _output_size(self, height, width):
        if not isinstance(self.size, int):
            return tuple(self.size)
        if height <= width:
            return self.size, int(width * self.size / height)
        return int(height * self.size / width), self.size

    def _apply(self, array):
        _check_image(array, "Resize")
        out_h, out_w = self._output_size(*array.shape[:2])
        in_h, in_w = array.shape[:2]
        if self.interpolation == Inter.NEAREST:
            rows = np.minimum(np.floor(np.arange(out_h) * (in_h / out_h)).astype(np.int64), in_h - 1)
            cols = np.minimum(np.floor(np.arange(out_w) * (in_w / out_w)).astype(np.int64), in_w - 1)
            return array[rows][:, cols]
        image = array.astype(np.float64)
        top, bottom, dy = _bilinear_taps(in_h, out_h)
        left, right, dx = _bilinear_taps(in_w, out_w)
        dy = dy.reshape((-1, 1) + (1,) * (image.ndim - 2))
        dx = dx.reshape((1, -1) + (1,) * (image.ndim - 2))
        rows = image[top] * (1 - dy) + image[bottom] * dy
        resized = rows[:, left] * (1 - dx) + rows[:, right] * dx
        if array.dtype.kind in "iub":
            info = np.iinfo(array.dtype) if array.dtype.kind != "b" else None
            resized = np.floor(resized + 0.5)
            if info is not None:
                resized = np.clip(resized, info.min, info.max)
        return resized.astype(array.dtype)


def _check_crop_fits(array, height, width, who):
    if height > array.shape[0] or width > array.shape[1]:
        raise ValueError(f"{who}: the crop size ({height}, {width}) is larger than the image "
                         f"{tuple(array.shape[:2])}.")


class CenterCrop(TensorOperation):
    """The central ``size`` (height, width; an int for a square) region of the image."""

    def __init__(self, size):
        self.size = _size_pair(size)

    def _apply(self, array):
        _check_image(array, "CenterCrop")
        height, width = self.size
        _check_crop_fits(array, height, width, "CenterCrop")
        top = (array.shape[0] - height) // 2
        left = (array.shape[1] - width) // 2
        return array[top:top + height, left:left + width]


class RandomCrop(TensorOperation):
    """A ``size`` region at a random place, after optional ``padding`` of the borders.

    Args:
        size (Union[int, Sequence[int]]): (height, width) of the crop.
        padding (Union[int, Sequence[int]], optional): pixels added on every side (an int), on
            left/right and top/bottom (2 values) or on left, top, right, bottom (4 values).
        pad_if_needed (bool): pad an image smaller than ``size`` up to it.
        fill_value (Union[int, tuple[int]]): the constant of ``Border.CONSTANT`` padding.
        padding_mode (Border): how padded pixels are filled.
    """

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _size_pair(size)
        self.padding = self._padding(padding)
        self.pad_if_needed, self.fill_value, self.padding_mode = pad_if_needed, fill_value, Border(padding_mode)
        self._rng = _random_generator()

    @staticmethod
    def _padding(padding):
        """``padding`` as (left, top, right, bottom)."""
        if padding is None:
            return (0, 0, 0, 0)
        values = [padding] if isinstance(padding, int) else list(padding)
        if len(values) not in (1, 2, 4) or not all(isinstance(v, int) and v >= 0 for v in values):
            raise ValueError(f"RandomCrop: padding should be a non-negative int or a sequence of 2 or 4 of them, "
                             f"but got {padding!r}.")
        if len(values) == 1:
            return tuple(values * 4)
        return tuple(values * 2) if len(values) == 2 else tuple(values)

    def _pad(self, array, left, top, right, bottom):
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (array.ndim - 2)
        if self.padding_mode == Border.CONSTANT:
            if isinstance(self.fill_value, int) or array.ndim == 2:
                return np.pad(array, widths, mode="constant", constant_values=self.fill_value)
            padded = np.stack([np.pad(array[..., c], widths[:2], mode="constant", constant_values=value)
                               for c, value in enumerate(self.fill_value)], axis=-1)
            return padded.astype(array.dtype)
        return np.pad(array, widths, mode=self.padding_mode.value)

    def _apply(self, array):
        _check_image(array, "RandomCrop")
        image = self._pad(array, *self.padding) if any(self.padding) else array
        height, width = self.size
        if self.pad_if_needed:
            extra_h, extra_w = max(height - image.shape[0], 0), max(width - image.shape[1], 0)
            if extra_h or extra_w:
                image = self._pad(image, extra_w, extra_h, extra_w, extra_h)
        _check_crop_fits(image, height, width, "RandomCrop")
        top = int(self._rng.integers(image.shape[0] - height + 1))
        left = int(self._rng.integers(image.shape[1] - width + 1))
        return image[top:top + height, left:left + width]


class _RandomFlip(TensorOperation):
    """Flip along ``_axis`` with probability ``prob``."""
    _axis = None

    def __init__(self, prob=0.5):
        if not isinstance(prob, (int, float)) or not 0 <= prob <= 1:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0], but got {prob!r}.")
        self.prob = prob
        self._rng = _random_generator()

    def _apply(self, array):
        _check_image(array, type(self).__name__)
        if self._rng.random() < self.prob:
            return np.flip(array, axis=self._axis).copy()
        return array


class RandomHorizontalFlip(_RandomFlip):
    """Mirror the image left-right with probability ``prob`` (default 0.5)."""
    _axis = 1


class RandomVerticalFlip(_RandomFlip):
    """Mirror the image top-bottom with probability ``prob`` (default 0.5)."""
    _axis = 0


class ToTensor(TensorOperation):
    """An (H, W, C) image with values in [0, 255] as a (C, H, W) array in [0, 1] of ``output_type``
    (float32 by default); an (H, W) image becomes (1, H, W)."""

    def __init__(self, output_type=np.float32):
        self.output_type = numpy_dtype(output_type, "output_type")

    def _apply(self, array):
        _check_image(array, "ToTensor")
        image = array[:, :, None] if array.ndim == 2 else array
        return (image.transpose(2, 0, 1) / 255.0).astype(self.output_type)
