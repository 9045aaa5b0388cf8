"""Image transforms, as ``mindspore.dataset.vision`` (also at the 1.x paths ``vision.c_transforms`` and
``vision.py_transforms``: ``npspore.module_aliases``)."""
from .transforms import (CenterCrop, HorizontalFlip, HWC2CHW, Normalize, Pad, RandomCrop, RandomHorizontalFlip,
                         RandomResize, RandomVerticalFlip, Rescale, Resize, ToTensor, ToType, VerticalFlip)
from .color import RandomColorAdjust
from .cutout import CutOut
from .decode import Decode, ToPIL
from .resized_crop import RandomCropDecodeResize, RandomResizedCrop
from .mixing import MixUpBatch
from .utils import Border, Inter
from ..transforms.random_compositions import RandomSelectSubpolicy
from .geometry import RandomAffine, RandomRotation
from .adjust import (AutoContrast, Crop, Equalize, Grayscale, Invert, RandomColor, RandomGrayscale, RandomPosterize,
                     RandomSharpness, RandomSolarize)
from ...missing_names import module_getattr as _module_getattr

__all__ = ["Border", "CenterCrop", "CutOut", "Decode", "HWC2CHW", "Inter", "Normalize", "Pad", "RandomColorAdjust",
           "RandomCrop", "RandomCropDecodeResize", "RandomResize", "RandomResizedCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip",
           "Rescale", "Resize", "ToPIL", "ToTensor", "ToType", "HorizontalFlip", "VerticalFlip", "MixUpBatch",
           "AutoContrast", "Crop", "Equalize", "Grayscale", "Invert", "RandomColor", "RandomGrayscale",
           "RandomPosterize", "RandomSharpness", "RandomSolarize", "RandomSelectSubpolicy", "RandomRotation",
           "RandomAffine"]

# vision transforms of the 2.10 usage list's tail
from .erasing import RandomErasing  # noqa: E402
from .image_io import ImageReadMode, ToNumpy, read_image  # noqa: E402
from .vision_tail import (AdjustBrightness, AdjustContrast, AdjustHue, AdjustSaturation, NormalizePad,  # noqa: E402
                          Rotate, SliceMode, SlicePatches)
from . import py_transforms_util  # noqa: E402,F401
__all__ += ["RandomErasing", "ImageReadMode", "ToNumpy", "read_image", "AdjustBrightness", "AdjustContrast",
            "AdjustHue", "AdjustSaturation", "NormalizePad", "Rotate", "SliceMode", "SlicePatches"]

__getattr__ = _module_getattr("mindspore.dataset.vision", globals())
