"""Image transforms, as ``mindspore.dataset.vision`` (also under the legacy ``vision.c_transforms``)."""
from . import c_transforms  # noqa: F401
from .transforms import (CenterCrop, HWC2CHW, Normalize, Pad, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip,
                         Rescale, Resize, ToTensor, ToType)
from .utils import Border, Inter
from ...missing_names import module_getattr as _module_getattr

__all__ = ["Border", "CenterCrop", "HWC2CHW", "Inter", "Normalize", "Pad", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Rescale", "Resize", "ToTensor", "ToType", "c_transforms"]

__getattr__ = _module_getattr("mindspore.dataset.vision", globals())
