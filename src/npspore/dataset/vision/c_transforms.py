"""The legacy module ``mindspore.dataset.vision.c_transforms``: the same transforms under their old path."""
from .transforms import (CenterCrop, HWC2CHW, Normalize, Pad, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip,
                         Rescale, Resize)
from .utils import Border, Inter

__all__ = ["Border", "CenterCrop", "HWC2CHW", "Inter", "Normalize", "Pad", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Rescale", "Resize"]
