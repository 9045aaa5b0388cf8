"""General transforms for ``dataset.map``, as ``mindspore.dataset.transforms`` (also at the 1.x paths
``transforms.c_transforms`` and ``transforms.py_transforms``: ``npspore.module_aliases``)."""
from .transforms import Compose, OneHot, PyTensorOperation, TensorOperation, TypeCast, not_random
from ...missing_names import module_getattr as _module_getattr

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast", "not_random", "PyTensorOperation"]

__getattr__ = _module_getattr("mindspore.dataset.transforms", globals())
