"""The image of an image summary, as MindSpore 2.10's summary adapter makes it (``_fill_image_summary``).

A batch of NCHW images (1 or 3 channels) becomes one RGB canvas with 8 images to a row; its values are mapped
to bytes (uint8 as they are, [0, 1] times 255, any other range linearly from its minimum) and encoded as PNG
with Pillow.
"""
from __future__ import annotations

import io
import math

import numpy as np

from ...core.pillow import pillow

__all__ = ["fill_image"]

_IMAGES_PER_ROW = 8


def _canvas(images: np.ndarray) -> np.ndarray:
    """The NCHW ``images`` tiled on one HWC canvas (grayscale repeated to RGB), 8 to a row."""
    if images.shape[1] == 1:
        images = np.concatenate([images] * 3, axis=1)
    count, _, height, width = images.shape
    cols = min(count, _IMAGES_PER_ROW)
    rows = math.ceil(count / cols)
    canvas = np.zeros((3, height * rows, width * cols))
    for i in range(count):
        y, x = divmod(i, cols)
        canvas[:, y * height:(y + 1) * height, x * width:(x + 1) * width] = images[i]
    return canvas.transpose(1, 2, 0)


def _as_bytes(canvas: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """MindSpore's mapping of the canvas values to uint8 (``dtype``: the images' own dtype)."""
    high, low = np.max(canvas), np.min(canvas)
    scale, shift = 1.0, 0.0
    if dtype != np.uint8:
        if high <= 1 and low >= 0:
            scale = 255.0
        else:
            if high != low:
                scale = 255 / (high - low + 1)
            shift = low
    return ((canvas.astype(np.float32) - shift) * scale).astype(np.uint8)


def fill_image(image, images: np.ndarray) -> None:
    """Fill the summary ``Image`` message ``image`` from the NCHW array ``images``.

    Raises:
        ValueError: if ``images`` is not of rank 4 with 1 or 3 channels, or has a zero dim.
        ImportError: if Pillow is not installed.
    """
    if images.ndim != 4 or images.shape[1] not in (1, 3) or 0 in images.shape:
        raise ValueError(f"An image summary takes an (N, C, H, W) Tensor with C 1 or 3, but got shape {images.shape}.")
    canvas = _as_bytes(_canvas(images), images.dtype)
    output = io.BytesIO()
    pillow().fromarray(canvas).save(output, format="PNG")
    image.height, image.width, image.colorspace = canvas.shape
    image.encoded_image = output.getvalue()
