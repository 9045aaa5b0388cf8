"""Enumerations of the vision transforms' options, as ``mindspore.dataset.vision.Inter``/``Border``."""
from enum import Enum, IntEnum

__all__ = ["Inter", "Border"]


class Inter(IntEnum):
    """Interpolation modes of ``Resize`` (npspore implements ``NEAREST``, ``BILINEAR``/``LINEAR``,
    ``BICUBIC``/``CUBIC`` and ``AREA``)."""
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes of ``RandomCrop``: a constant, the edge pixel, or a mirror image."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"
