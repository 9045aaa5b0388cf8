"""General transforms for ``dataset.map``, as ``mindspore.dataset.transforms``."""
from . import c_transforms  # noqa: F401
from .transforms import Compose, OneHot, TensorOperation, TypeCast

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast", "c_transforms"]
