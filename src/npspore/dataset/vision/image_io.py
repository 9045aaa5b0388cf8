"""Reading image files, as ``mindspore.dataset.vision``: ``read_image`` and its ``ImageReadMode``, and
``ToNumpy`` (a PIL image or array as a NumPy array).

``read_image`` decodes with Pillow into (H, W, C) uint8: ``UNCHANGED`` keeps a gray image's one channel and
drops an alpha channel (as MindSpore 2.10's OpenCV reader does), ``COLOR`` gives RGB, ``GRAYSCALE`` one channel,
from a color image the truncated ``(299 R + 587 G + 114 B) / 1000`` (the values MindSpore 2.10 reads from PNG).
"""
from __future__ import annotations

import os
from enum import IntEnum

import numpy as np

from ...core.pillow import pillow

__all__ = ["ImageReadMode", "read_image", "ToNumpy"]


class ImageReadMode(IntEnum):
    """How ``read_image`` reads: as stored, one gray channel, or RGB."""
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


def read_image(filename: str, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> np.ndarray:
    """The image file ``filename`` decoded as an (H, W, C) uint8 array (see the module doc).

    Raises:
        TypeError: If ``filename`` is not a str or ``mode`` not an ImageReadMode (MindSpore's messages).
        ValueError: If the file does not exist or is not an image.
    """
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    if not isinstance(mode, ImageReadMode):
        raise TypeError(f"Input mode is not of type {ImageReadMode}, but got: {type(mode)}.")
    if not os.path.isfile(filename):
        raise ValueError(f"Invalid file path, {filename} does not exist.")
    image = pillow()
    try:
        with image.open(filename) as opened:
            opened.load()
            gray = opened.mode in ("L", "LA", "I", "I;16", "1")
            rgb = np.asarray(opened.convert("RGB"))
            stored = np.asarray(opened.convert("L")) if gray else None
    except (OSError, image.UnidentifiedImageError) as error:
        raise ValueError(f"Invalid image file {filename}: {error}") from None
    if mode is ImageReadMode.COLOR or (mode is ImageReadMode.UNCHANGED and not gray):
        return rgb
    if gray:
        return stored[..., None]
    weighted = rgb.astype(np.int64) @ np.array([299, 587, 114], np.int64)
    return (weighted // 1000).astype(np.uint8)[..., None]


class ToNumpy:
    """A PIL image or array-like as a NumPy array (its dtype kept)."""

    def __call__(self, image):
        return np.array(image)
