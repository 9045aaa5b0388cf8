"""Image decoding and PIL images, as ``mindspore.dataset.vision``: ``Decode`` and ``ToPIL``.

Decoding uses Pillow (``pip install 'npspore[vision]'``), whose libjpeg-turbo and libpng give the pixels
MindSpore 2.10 gives. A decoded image is RGB, (H, W, 3) uint8, whatever the file's mode (gray, RGBA,
palette), as MindSpore's.
"""
from __future__ import annotations

import io

import numpy as np

from ...core.pillow import pillow

__all__ = ["Decode", "ToPIL"]


def _encoded_bytes(data) -> bytes:
    """The encoded image: bytes, a 1-D uint8 array, or the bytes array MindDataset gives (shape (1,))."""
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    array = np.asarray(data)
    if array.dtype.kind == "S":
        if array.size != 1:
            raise TypeError(f"The encoded image should be one bytes value, but got {array.size}.")
        return bytes(array.reshape(-1)[0])
    if array.ndim != 1:
        raise TypeError(f"The number of array dimensions of the encoded image should be 1, but got {array.ndim}.")
    if array.dtype != np.uint8:
        raise TypeError(f"The type of the encoded image should be uint8, but got {array.dtype}.")
    return array.tobytes()


class Decode:
    """Decode an encoded image (JPEG, PNG, BMP, GIF, TIFF ...) into an RGB (H, W, 3) uint8 array.

    Args:
        to_pil (bool, optional): give a ``PIL.Image`` instead of an array. Default: ``False``.

    Inputs:
        - **image** (Union[numpy.ndarray, bytes]) - the file's bytes: a 1-D uint8 array (``np.fromfile``),
          bytes, or a bytes column of ``MindDataset``.

    Raises:
        TypeError: If ``to_pil`` is not a bool, or the input is not 1-D uint8 or bytes.
        RuntimeError: If the bytes are no image Pillow can decode (``Decode: image decode failed.``).

    Examples:
        >>> output = vision.Decode()(np.fromfile("./2.jpg", np.uint8))
        >>> print(output.shape, output.dtype)
        (300, 300, 3) uint8
    """

    def __init__(self, to_pil: bool = False):
        if not isinstance(to_pil, bool):
            raise TypeError(f"Argument to_pil with value {to_pil!r} is not of type [<class 'bool'>], but got "
                            f"{type(to_pil)}.")
        self.to_pil = to_pil
        pillow()

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"Decode takes 1 input column, but got {len(inputs)}.")
        Image = pillow()
        try:
            with Image.open(io.BytesIO(_encoded_bytes(inputs[0]))) as image:
                rgb = image.convert("RGB")
        except (OSError, ValueError, SyntaxError) as error:
            raise RuntimeError(f"Decode: image decode failed ({error}).") from None
        return rgb if self.to_pil else np.asarray(rgb)


class ToPIL:
    """Convert an (H, W), (H, W, 1), (H, W, 3) or (H, W, 4) uint8 array to a ``PIL.Image`` (mode ``L``, ``RGB``
    or ``RGBA``); a PIL image passes through.

    Raises:
        TypeError: If the array is not uint8 (MindSpore's message) or not of those shapes.
    """

    def __init__(self):
        pillow()

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"ToPIL takes 1 input column, but got {len(inputs)}.")
        Image = pillow()
        if isinstance(inputs[0], Image.Image):
            return inputs[0]
        array = np.asarray(inputs[0])
        if array.ndim == 3 and array.shape[2] == 1:
            array = array[:, :, 0]
        if not (array.ndim == 2 or (array.ndim == 3 and array.shape[2] in (3, 4))):
            raise TypeError(f"ToPIL: the image should have shape [H, W], [H, W, 1], [H, W, 3] or [H, W, 4], "
                            f"but got {list(array.shape)}.")
        if array.dtype != np.uint8:
            raise TypeError(f"The input image type {array.dtype} is not supported when image shape is [H, W, 2], "
                            f"[H, W, 3] or [H, W, 4].")
        return Image.fromarray(array)
