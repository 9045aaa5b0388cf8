"""The PIL helpers of MindSpore's ``dataset.vision.py_transforms_util`` that scripts import: ``is_pil``,
``augment_error_message``, ``adjust_brightness``/``adjust_contrast``/``adjust_saturation`` (Pillow's
``ImageEnhance``, as MindSpore's), ``rotate`` (Pillow's rotation) and ``random_crop`` (a crop at a random place,
after optional padding; the place drawn from Python's ``random``, as MindSpore's)."""
from __future__ import annotations

import random

import numpy as np

from ...core.pillow import pillow

__all__ = ["augment_error_message", "is_pil", "adjust_brightness", "adjust_contrast", "adjust_saturation",
           "rotate", "random_crop"]

augment_error_message = "img should be PIL image. Got {}. Use Decode() for encoded data or ToPIL() for decoded data."


def is_pil(img) -> bool:
    """Whether ``img`` is a PIL image."""
    return isinstance(img, pillow().Image)


def _check_pil(img) -> None:
    if not is_pil(img):
        raise TypeError(augment_error_message.format(type(img)))


def _enhanced(img, kind: str, factor: float):
    _check_pil(img)
    from PIL import ImageEnhance
    return getattr(ImageEnhance, kind)(img).enhance(factor)


def adjust_brightness(img, brightness_factor: float):
    """``img`` with its brightness scaled by ``brightness_factor`` (0: black, 1: unchanged)."""
    return _enhanced(img, "Brightness", brightness_factor)


def adjust_contrast(img, contrast_factor: float):
    """``img`` with its contrast scaled by ``contrast_factor`` (0: gray, 1: unchanged)."""
    return _enhanced(img, "Contrast", contrast_factor)


def adjust_saturation(img, saturation_factor: float):
    """``img`` with its saturation scaled by ``saturation_factor`` (0: gray, 1: unchanged)."""
    return _enhanced(img, "Color", saturation_factor)


def rotate(img, angle: float, resample, expand: bool, center, fill_value):
    """``img`` rotated ``angle`` degrees counter-clockwise by Pillow (``resample`` an ``Inter`` value).

    Raises:
        TypeError: If ``img`` is not a PIL image. ValueError: For ``Inter.ANTIALIAS`` with a center or an angle
            that is not a multiple of 90 (MindSpore's message).
    """
    _check_pil(img)
    fill = tuple([fill_value] * 3) if isinstance(fill_value, int) else tuple(fill_value)
    angle = angle % 360.0
    if int(resample) == 1 and (angle not in (0, 90, 180, 270) or center):
        raise ValueError("When using Inter.ANTIALIAS, center needs to be None and angle needs to be an integer "
                         "multiple of 90.")
    return img.rotate(angle, int(resample), expand, center, fillcolor=fill)


def _pad(img, padding, fill_value, padding_mode: str):
    """``img`` padded by ``padding`` (an int, (left/right, top/bottom) or (left, top, right, bottom))."""
    if isinstance(padding, int):
        padding = (padding,) * 4
    elif len(padding) == 2:
        padding = (padding[0], padding[1], padding[0], padding[1])
    left, top, right, bottom = padding
    array = np.asarray(img)
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (array.ndim - 2)
    if padding_mode == "constant":
        channels = array.shape[2] if array.ndim == 3 else 1
        fill = np.broadcast_to(np.asarray(fill_value, array.dtype), (channels,))
        out = np.stack([np.pad(array[..., c] if array.ndim == 3 else array, widths[:2], constant_values=fill[c])
                        for c in range(channels)], axis=-1)
        out = out if array.ndim == 3 else out[..., 0]
    else:
        out = np.pad(array, widths, mode=padding_mode)
    return pillow().fromarray(out, img.mode)


def random_crop(img, size, padding, pad_if_needed: bool, fill_value, padding_mode: str):
    """A ``size`` (an int or ``(height, width)``) crop of ``img`` at a random place, after padding it by
    ``padding`` and, with ``pad_if_needed``, up to ``size``.

    Raises:
        TypeError: If ``img`` is not a PIL image or ``size`` is malformed. ValueError: If the crop is larger than
            the (padded) image.
    """
    _check_pil(img)
    if isinstance(size, int):
        size = (size, size)
    elif not (isinstance(size, (tuple, list)) and len(size) == 2):
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    fill_value = tuple(fill_value) if isinstance(fill_value, list) else fill_value
    if padding is not None:
        img = _pad(img, padding, fill_value, padding_mode)
    if pad_if_needed and img.size[0] < size[1]:
        img = _pad(img, (size[1] - img.size[0], 0), fill_value, padding_mode)
    if pad_if_needed and img.size[1] < size[0]:
        img = _pad(img, (0, size[0] - img.size[1]), fill_value, padding_mode)
    width, height = img.size
    if size[0] > height or size[1] > width:
        raise ValueError(f"Crop size {tuple(size)} is larger than input image size {(height, width)}.")
    top = random.randint(0, height - size[0])       # MindSpore's Python implementation: Python's random
    left = random.randint(0, width - size[1])
    return img.crop((left, top, left + size[1], top + size[0]))
