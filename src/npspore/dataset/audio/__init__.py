"""Audio transforms, as ``mindspore.dataset.audio`` (:mod:`.transforms`), and their enumerations and filter banks
(:mod:`.utils`, also ``audio.utils``)."""
from . import utils  # noqa: F401
from .filters import BassBiquad, Biquad, TrebleBiquad
from .transforms import (AmplitudeToDB, FrequencyMasking, MelScale, MelSpectrogram, Resample, Spectrogram,
                         TimeMasking)
from .utils import (BorderType, DensityFunction, FadeShape, GainType, Interpolation, MelType, Modulation, NormMode,
                    NormType, ResampleMethod, ScaleType, WindowType, create_dct, linear_fbanks, melscale_fbanks)
from ...missing_names import module_getattr as _module_getattr

__all__ = ["utils", "BassBiquad", "Biquad", "TrebleBiquad", "AmplitudeToDB", "FrequencyMasking", "MelScale", "MelSpectrogram", "Resample", "Spectrogram",
           "TimeMasking", "BorderType", "DensityFunction", "FadeShape", "GainType", "Interpolation", "MelType",
           "Modulation", "NormMode", "NormType", "ResampleMethod", "ScaleType", "WindowType", "create_dct",
           "linear_fbanks", "melscale_fbanks"]

__getattr__ = _module_getattr("mindspore.dataset.audio", globals())
