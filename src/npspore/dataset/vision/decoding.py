"""``vision.Decode``: encoded image bytes (JPEG, PNG, BMP, GIF, TIFF, WebP …) to an RGB array, through Pillow
(the optional extra ``npspore[vision]``). MindSpore decodes with libjpeg-turbo; a JPEG's pixels can differ
from Pillow's by a unit of rounding, lossless formats decode to the same values."""
from __future__ import annotations

import io
from typing import Any

import numpy as np

from ..transforms.transforms import TensorOperation

__all__ = ["Decode"]


def _pillow_image() -> Any:
    """Pillow's ``Image`` module, or an ImportError saying how to install it."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("vision.Decode needs Pillow: pip install 'npspore[vision]'") from None
    return Image


class Decode(TensorOperation):
    """Decode a 1-D uint8 array of encoded image bytes into an (H, W, 3) uint8 RGB array (grey and palette
    images are converted to RGB, as MindSpore's Decode does), or into a Pillow image with ``to_pil=True``.

    Raises:
        TypeError: if ``to_pil`` is not a bool, or the input is not 1-D.
        RuntimeError: if the bytes are no image Pillow can decode.
    """

    def __init__(self, to_pil: bool = False) -> None:
        if not isinstance(to_pil, bool):
            raise TypeError(f"Argument to_pil with value {to_pil!r} is not of type [<class 'bool'>], "
                            f"but got {type(to_pil)}.")
        self.to_pil = to_pil

    def _apply(self, array):
        if array.ndim != 1:
            raise TypeError(f"The number of array dimensions of the encoded image should be 1, but got {array.ndim}.")
        image_module = _pillow_image()
        try:
            with image_module.open(io.BytesIO(np.ascontiguousarray(array, dtype=np.uint8).tobytes())) as image:
                image = image.convert("RGB")
        except (OSError, ValueError, SyntaxError) as error:   # Pillow's errors for data that is no image
            raise RuntimeError(f"Decode: image decode failed ({error}).") from None
        return image if self.to_pil else np.asarray(image, dtype=np.uint8)
