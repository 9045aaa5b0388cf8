"""Pillow, the optional image library (the ``vision`` extra) that decodes dataset images and encodes
summary images: found when first needed, with an ImportError saying how to get it."""
from __future__ import annotations

__all__ = ["pillow"]


def pillow():
    """The ``PIL.Image`` module, or an ImportError saying how to get it."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("Decoding and encoding images needs Pillow: pip install 'npspore[vision]' (or pip install "
                          "Pillow).") from None
    return Image
