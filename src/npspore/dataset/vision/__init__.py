"""Image transforms, as ``mindspore.dataset.vision`` (also under the legacy ``vision.c_transforms``)."""
from . import c_transforms  # noqa: F401
from .transforms import (CenterCrop, HWC2CHW, Normalize, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip,
                         Rescale, Resize, ToTensor)
from .utils import Border, Inter

__all__ = ["Border", "CenterCrop", "HWC2CHW", "Inter", "Normalize", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Rescale", "Resize", "ToTensor", "c_transforms"]
