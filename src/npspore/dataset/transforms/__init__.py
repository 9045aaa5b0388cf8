"""General transforms for ``dataset.map``, as ``mindspore.dataset.transforms``."""
from . import c_transforms  # noqa: F401
from .transforms import Compose, OneHot, TensorOperation, TypeCast
from ...missing_names import module_getattr as _module_getattr

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast", "c_transforms"]

__getattr__ = _module_getattr("mindspore.dataset.transforms", globals())
