"""General transforms for ``dataset.map``, as ``mindspore.dataset.transforms`` (also at the 1.x paths
``transforms.c_transforms`` and ``transforms.py_transforms``: ``npspore.module_aliases``)."""
from .transforms import Compose, Duplicate, OneHot, PadEnd, PyTensorOperation, TensorOperation, TypeCast, not_random
from .random_compositions import RandomApply, RandomChoice
from ...missing_names import module_getattr as _module_getattr

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast", "not_random", "PyTensorOperation", "PadEnd", "Duplicate",
           "RandomApply", "RandomChoice"]

# array transforms of the 2.10 usage list's tail
from .array_ops import Concatenate, Fill, Mask, Relational, Slice  # noqa: E402
__all__ += ["Concatenate", "Fill", "Mask", "Relational", "Slice"]

__getattr__ = _module_getattr("mindspore.dataset.transforms", globals())
