"""Enumerations and filter-bank helpers of ``mindspore.dataset.audio`` (``audio.utils``): the window, scale,
border, mel and norm types, ``melscale_fbanks``, ``linear_fbanks`` and ``create_dct`` (torchaudio's formulas, which
MindSpore 2.10 implements; float32 as its are)."""
from __future__ import annotations

import math
from enum import Enum

import numpy as np

__all__ = ["BorderType", "DensityFunction", "FadeShape", "GainType", "Interpolation", "MelType", "Modulation",
           "NormMode", "NormType", "ResampleMethod", "ScaleType", "WindowType", "create_dct", "linear_fbanks",
           "melscale_fbanks"]


class BorderType(str, Enum):
    """How a waveform is padded: a constant, its edge, a mirror without or with the edge."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class DensityFunction(str, Enum):
    """Dither noise densities."""
    TPDF = "TPDF"
    RPDF = "RPDF"
    GPDF = "GPDF"


class FadeShape(str, Enum):
    """Fade shapes."""
    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


class GainType(str, Enum):
    """Gain units."""
    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class Interpolation(str, Enum):
    """Interpolations."""
    LINEAR = "linear"
    QUADRATIC = "quadratic"


class MelType(str, Enum):
    """Mel scales: HTK's ``2595 log10(1 + f / 700)`` or Slaney's (linear below 1 kHz)."""
    HTK = "htk"
    SLANEY = "slaney"


class Modulation(str, Enum):
    """Modulations."""
    SINUSOIDAL = "sinusoidal"
    TRIANGULAR = "triangular"


class NormMode(str, Enum):
    """DCT normalizations."""
    ORTHO = "ortho"
    NONE = "none"


class NormType(str, Enum):
    """Mel filter normalizations: Slaney's area normalization, or none."""
    SLANEY = "slaney"
    NONE = "none"


class ResampleMethod(str, Enum):
    """Resampling windows."""
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


class ScaleType(str, Enum):
    """Whether a spectrogram holds power or magnitude."""
    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(str, Enum):
    """STFT windows (periodic)."""
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


def window_values(window: WindowType, length: int) -> np.ndarray:
    """The periodic ``window`` of ``length`` points (Kaiser's with beta 12), float32."""
    k = np.arange(length, dtype=np.float64)
    phase = 2 * math.pi * k / max(length, 1)
    values = {
        WindowType.HANN: lambda: 0.5 - 0.5 * np.cos(phase),
        WindowType.HAMMING: lambda: 0.54 - 0.46 * np.cos(phase),
        WindowType.BLACKMAN: lambda: 0.42 - 0.5 * np.cos(phase) + 0.08 * np.cos(2 * phase),
        WindowType.BARTLETT: lambda: 1 - np.abs(2 * k / max(length, 1) - 1),
        WindowType.KAISER: lambda: np.kaiser(length + 1, 12.0)[:-1],
    }[WindowType(window)]()
    return values.astype(np.float32)


def _hz_to_mel(freq, mel_type: MelType):
    if mel_type is MelType.HTK:
        return 2595.0 * np.log10(1.0 + np.asarray(freq, np.float64) / 700.0)
    freq = np.asarray(freq, np.float64)
    logstep = math.log(6.4) / 27.0
    linear = freq / (200.0 / 3)
    return np.where(freq >= 1000.0, 15.0 + np.log(np.maximum(freq, 1e-12) / 1000.0) / logstep, linear)


def _mel_to_hz(mels, mel_type: MelType):
    mels = np.asarray(mels, np.float64)
    if mel_type is MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    logstep = math.log(6.4) / 27.0
    return np.where(mels >= 15.0, 1000.0 * np.exp(logstep * (mels - 15.0)), 200.0 / 3 * mels)


def _triangles(all_freqs: np.ndarray, f_pts: np.ndarray) -> np.ndarray:
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def melscale_fbanks(n_freqs: int, f_min: float, f_max: float, n_mels: int, sample_rate: int,
                    norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK) -> np.ndarray:
    """The ``(n_freqs, n_mels)`` float32 triangular mel filters over ``n_freqs`` bins of 0 to ``sample_rate // 2``."""
    mel_type = MelType(mel_type)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    banks = _triangles(all_freqs, f_pts)
    if NormType(norm) is NormType.SLANEY:
        banks = banks * (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels]))[None, :]
    return banks.astype(np.float32)


def linear_fbanks(n_freqs: int, f_min: float, f_max: float, n_filter: int, sample_rate: int) -> np.ndarray:
    """The ``(n_freqs, n_filter)`` float32 triangular filters with centers evenly spaced in hertz."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    return _triangles(all_freqs, np.linspace(f_min, f_max, n_filter + 2)).astype(np.float32)


def create_dct(n_mfcc: int, n_mels: int, norm: NormMode = NormMode.NONE) -> np.ndarray:
    """The ``(n_mels, n_mfcc)`` float32 DCT-II matrix (orthonormal with ``NormMode.ORTHO``)."""
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / n_mels * (n + 0.5) * k)
    if NormMode(norm) is NormMode.ORTHO:
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / n_mels)
    else:
        dct *= 2.0
    return dct.T.astype(np.float32)
