"""Image transforms in NumPy, as ``mindspore.dataset.vision``.

Images are arrays of shape (H, W, C) or (H, W) unless a transform says otherwise. Each transform
works in ``dataset.map`` and when called directly on an array. With a seed set (``dataset.config.set_seed`` or
``npspore.set_seed``) the random transforms draw MindSpore's numbers (``transform_draws``; ``MixUpBatch`` and the
audio masks excepted: they draw from a generator of the seed made at the transform's creation).
"""
from __future__ import annotations

import numpy as np

from ...missing_names import module_getattr
from .. import config
from ..transform_draws import draws_for
from ..arguments import numpy_dtype
from ..transforms.transforms import PyTensorOperation, TensorOperation, TypeCast  # noqa: F401 - MindSpore's here too
from .resampling import resize_area, resize_cubic, resize_linear, resize_nearest
from .utils import Border, Inter

__all__ = ["Rescale", "Normalize", "HWC2CHW", "Resize", "RandomResize", "CenterCrop", "Pad", "RandomCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "ToTensor", "ToType", "HorizontalFlip", "VerticalFlip"]


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


_RESAMPLERS = {Inter.NEAREST: resize_nearest, Inter.BILINEAR: resize_linear, Inter.BICUBIC: resize_cubic,
               Inter.AREA: resize_area}


class Resize(TensorOperation):
    """Resize to ``size`` (height, width); an int resizes the shorter side, keeping the aspect ratio.

    ``Inter.BILINEAR`` (default), ``Inter.NEAREST``, ``Inter.BICUBIC`` and ``Inter.AREA`` compute what MindSpore's
    CPU Resize does (OpenCV's arithmetic, see ``resampling.py``); the image keeps its dtype.

    Raises:
        ValueError: for a bad ``size`` or an interpolation other than these four.
    """

    def __init__(self, size, interpolation=Inter.BILINEAR):
        _size_pair(size)
        self.size = size
        if interpolation not in _RESAMPLERS:
            raise ValueError(f"Resize: npspore implements Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC and Inter.AREA, "
                             f"but got {interpolation!r}.")
        self.interpolation = Inter(interpolation)

    def _output_size(self, height, width):
        if not isinstance(self.size, int):
            return tuple(self.size)
        if height <= width:
            return self.size, int(width * self.size / height)
        return int(height * self.size / width), self.size

    def _resized(self, array, interpolation):
        _check_image(array, type(self).__name__)
        return _RESAMPLERS[interpolation](array, *self._output_size(*array.shape[:2]))

    def _apply(self, array):
        return self._resized(array, self.interpolation)


class RandomResize(Resize):
    """Resize to ``size`` as :class:`Resize` does, with an interpolation drawn for each image: bilinear, nearest,
    bicubic or area, with equal chances (MindSpore's ``RandomResize``).

    Raises:
        ValueError: for a bad ``size``.
    """

    _CHOICES = (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)   # MindSpore's modes 0-3
    random = True          # draws through ``transform_draws``

    def _apply(self, array):
        return self._resized(array, self._CHOICES[draws_for(self).integer(0, len(self._CHOICES) - 1)])


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


def _padding_sides(padding, who):
    """``padding`` (an int, or 2 or 4 of them) as (left, top, right, bottom)."""
    values = [padding] if isinstance(padding, int) else list(padding)
    if len(values) not in (1, 2, 4) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                               for v in values):
        raise ValueError(f"{who}: padding should be a non-negative int or a sequence of 2 or 4 of them, "
                         f"but got {padding!r}.")
    if len(values) == 1:
        return tuple(values * 4)
    return tuple(values * 2) if len(values) == 2 else tuple(values)


def _pad(array, sides, fill_value, padding_mode):
    """``array`` padded by ``sides`` (left, top, right, bottom) in ``padding_mode`` (a ``Border``)."""
    left, top, right, bottom = sides
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (array.ndim - 2)
    if padding_mode != Border.CONSTANT:
        return np.pad(array, widths, mode=padding_mode.value)
    if isinstance(fill_value, int) or array.ndim == 2:
        return np.pad(array, widths, mode="constant", constant_values=fill_value)
    planes = [np.pad(array[..., c], widths[:2], mode="constant", constant_values=value)
              for c, value in enumerate(fill_value)]
    return np.stack(planes, axis=-1).astype(array.dtype)


class Pad(TensorOperation):
    """Pad the image's borders.

    Args:
        padding (Union[int, Sequence[int]]): pixels added on every side (an int), on left/right and
            top/bottom (2 values) or on left, top, right, bottom (4 values).
        fill_value (Union[int, tuple[int]]): the constant of ``Border.CONSTANT`` padding (one per
            channel for a tuple).
        padding_mode (Border): ``CONSTANT``, ``EDGE``, ``REFLECT`` or ``SYMMETRIC``.
    """

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.sides = _padding_sides(padding, "Pad")
        self.fill_value, self.padding_mode = fill_value, Border(padding_mode)

    def _apply(self, array):
        _check_image(array, "Pad")
        return _pad(array, self.sides, self.fill_value, self.padding_mode)


class RandomCrop(TensorOperation):
    """A ``size`` region at a random place, after optional ``padding`` of the borders.

    Args:
        size (Union[int, Sequence[int]]): (height, width) of the crop.
        padding (Union[int, Sequence[int]], optional): as for :class:`Pad`.
        pad_if_needed (bool): pad an image smaller than ``size`` up to it.
        fill_value, padding_mode: as for :class:`Pad`.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _size_pair(size)
        self.sides = None if padding is None else _padding_sides(padding, "RandomCrop")
        self.pad_if_needed, self.fill_value, self.padding_mode = pad_if_needed, fill_value, Border(padding_mode)

    def _apply(self, array):
        _check_image(array, "RandomCrop")
        image = array if self.sides is None else _pad(array, self.sides, self.fill_value, self.padding_mode)
        height, width = self.size
        if self.pad_if_needed:
            extra_h, extra_w = max(height - image.shape[0], 0), max(width - image.shape[1], 0)
            if extra_h or extra_w:
                image = _pad(image, (extra_w, extra_h, extra_w, extra_h), self.fill_value, self.padding_mode)
        _check_crop_fits(image, height, width, "RandomCrop")
        draws = draws_for(self)
        left = draws.integer(0, image.shape[1] - width)     # MindSpore draws the column first
        top = draws.integer(0, image.shape[0] - height)
        return image[top:top + height, left:left + width]


class _RandomFlip(TensorOperation):
    """Flip along ``_axis`` with probability ``prob``."""
    _axis = None
    random = True          # draws through ``transform_draws``

    def __init__(self, prob=0.5):
        if not isinstance(prob, (int, float)) or not 0 <= prob <= 1:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0], but got {prob!r}.")
        self.prob = prob

    def _apply(self, array):
        _check_image(array, type(self).__name__)
        if draws_for(self).canonical() < self.prob:
            return np.flip(array, axis=self._axis).copy()
        return array


class _Flip(TensorOperation):
    """Mirror an image (<H, W>, <H, W, C> or a batch <..., H, W, C>) along its width (``_FROM_END`` 2) or height (3)."""
    _FROM_END = 2

    def _apply(self, array):
        if array.ndim < 2:
            raise RuntimeError(f"{type(self).__name__}: the image should have shape <H, W>, <H, W, C> or "
                               f"<..., H, W, C>, but got shape {array.shape}.")
        axis = 3 - self._FROM_END if array.ndim == 2 else array.ndim - self._FROM_END
        return np.flip(array, axis=axis).copy()


class HorizontalFlip(_Flip):
    """Mirror the image left-right (MindSpore's ``HorizontalFlip``)."""
    _FROM_END = 2


class VerticalFlip(_Flip):
    """Mirror the image top-bottom (MindSpore's ``VerticalFlip``)."""
    _FROM_END = 3


class RandomHorizontalFlip(_RandomFlip):
    """Mirror the image left-right with probability ``prob`` (default 0.5)."""
    _axis = 1


class RandomVerticalFlip(_RandomFlip):
    """Mirror the image top-bottom with probability ``prob`` (default 0.5)."""
    _axis = 0


class ToType(TypeCast):
    """Cast the image to ``data_type`` (a MindSpore or NumPy type), as ``TypeCast``."""


class ToTensor(TensorOperation):
    """An (H, W, C) image with values in [0, 255] as a (C, H, W) array in [0, 1] of ``output_type``
    (float32 by default); an (H, W) image becomes (1, H, W)."""

    def __init__(self, output_type=np.float32):
        self.output_type = numpy_dtype(output_type, "output_type")

    def _apply(self, array):
        _check_image(array, "ToTensor")
        image = array[:, :, None] if array.ndim == 2 else array
        # Multiplying by the float32 1/255 (not dividing by 255) gives MindSpore's last bits.
        scaled = image.transpose(2, 0, 1).astype(np.float32) * np.float32(1 / 255)
        return scaled.astype(self.output_type)

# MindSpore defines every vision transform in this module; npspore answers the ones mindspore.dataset.vision exports
__getattr__ = module_getattr("mindspore.dataset.vision.transforms", globals(), fallback="npspore.dataset.vision")
