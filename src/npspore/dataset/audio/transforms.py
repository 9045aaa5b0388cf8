"""Audio transforms in NumPy, as ``mindspore.dataset.audio``: ``Spectrogram``, ``MelScale``, ``MelSpectrogram``,
``AmplitudeToDB``, ``FrequencyMasking``, ``TimeMasking`` and ``Resample``, with MindSpore 2.10's formulas (those of
torchaudio; values recorded from MindSpore by ``tools/observe_mindspore_audio.py``).

A waveform is an array of shape ``(..., time)``; a spectrogram ``(..., freq, time)``. Each transform works in
``dataset.map`` and when called directly on an array.
"""
from __future__ import annotations

import math

import numpy as np

from ..vision.transforms import _random_generator
from .utils import (BorderType, MelType, NormType, ResampleMethod, ScaleType, WindowType, melscale_fbanks,
                    window_values)

__all__ = ["Spectrogram", "MelScale", "MelSpectrogram", "AmplitudeToDB", "FrequencyMasking", "TimeMasking",
           "Resample"]

_MAX = 16777216


def _check_int(value, name: str, low: int, high: int = _MAX) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")
    return value


def _check_number(value, name: str, low: float, positive: bool = False) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>, <class 'float'>], but got "
                        f"{type(value)}.")
    if value < low or (positive and value == low):
        interval = f"({low}, {_MAX}]" if positive else f"[{low}, {_MAX}]"
        raise ValueError(f"Input {name} is not within the required interval of {interval}.")
    return float(value)


def _check_enum(value, enum, name: str):
    if not isinstance(value, enum):
        raise TypeError(f"Argument {name} with value {value} is not of type [{enum}], but got {type(value)}.")
    return value


def _waveform(data, who: str) -> np.ndarray:
    array = np.asarray(data)
    if array.dtype.kind not in "iuf" or array.ndim < 1:
        raise TypeError(f"{who}: the input should be a numeric array of shape <..., time>, but got dtype "
                        f"{array.dtype} and shape {array.shape}.")
    return array


def _pad_mode(border: BorderType) -> str:
    return {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge", BorderType.REFLECT: "reflect",
            BorderType.SYMMETRIC: "symmetric"}[border]


class Spectrogram:
    """The spectrogram of a waveform ``(..., time)``: ``(..., n_fft // 2 + 1, frames)`` float (``onesided``).

    Args:
        n_fft (int): the FFT size. Default: ``400``.
        win_length (int): the window's length, at most ``n_fft`` (centred in it). Default: ``None``, ``n_fft``.
        hop_length (int): the frames' step. Default: ``None``, ``win_length // 2``.
        pad (int): zeros added at both ends first. Default: ``0``.
        window (WindowType): the window. Default: ``WindowType.HANN``.
        power (float): the exponent of the magnitude (2: power). Default: ``2.0``.
        normalized (bool): divide by the window's norm. Default: ``False``.
        center (bool): pad ``n_fft // 2`` at both ends with ``pad_mode`` so frames are centred. Default: ``True``.
        pad_mode (BorderType): the padding of ``center``. Default: ``BorderType.REFLECT``.
        onesided (bool): keep the non-negative frequencies only. Default: ``True``.
    """

    def __init__(self, n_fft: int = 400, win_length: int | None = None, hop_length: int | None = None, pad: int = 0,
                 window: WindowType = WindowType.HANN, power: float = 2.0, normalized: bool = False,
                 center: bool = True, pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True) -> None:
        self.n_fft = _check_int(n_fft, "n_fft", 1)
        self.win_length = n_fft if win_length is None else _check_int(win_length, "win_length", 1, n_fft)
        self.hop_length = self.win_length // 2 if hop_length is None else _check_int(hop_length, "hop_length", 1)
        self.pad = _check_int(pad, "pad", 0)
        self.window = _check_enum(window, WindowType, "window")
        self.power = _check_number(power, "power", 0)
        self.normalized, self.center, self.onesided = normalized, center, onesided
        self.pad_mode = _check_enum(pad_mode, BorderType, "pad_mode")

    def __call__(self, waveform) -> np.ndarray:
        return _spectrogram(_waveform(waveform, "Spectrogram"), self)


def _spectrogram(waveform: np.ndarray, options) -> np.ndarray:
    x = waveform.astype(np.float64)
    if options.pad:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(options.pad, options.pad)])
    if options.center:
        half = options.n_fft // 2
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(half, half)], mode=_pad_mode(options.pad_mode))
    if x.shape[-1] < options.n_fft:
        raise ValueError(f"Spectrogram: the padded waveform ({x.shape[-1]} samples) is shorter than n_fft "
                         f"({options.n_fft}).")
    window = np.zeros(options.n_fft)
    start = (options.n_fft - options.win_length) // 2
    window[start:start + options.win_length] = window_values(options.window, options.win_length)
    frames = np.lib.stride_tricks.sliding_window_view(x, options.n_fft, axis=-1)[..., ::options.hop_length, :]
    spectrum = (np.fft.rfft if options.onesided else np.fft.fft)(frames * window, axis=-1)
    if options.normalized:
        spectrum = spectrum / np.sqrt(np.sum(window ** 2))
    dtype = waveform.dtype if waveform.dtype.kind == "f" else np.float32
    return np.swapaxes(np.abs(spectrum) ** options.power, -1, -2).astype(dtype)


class MelScale:
    """A spectrogram ``(..., n_stft, time)`` on the mel scale: ``(..., n_mels, time)`` (triangular filters).

    Args:
        n_mels (int): the mel bins. Default: ``128``.
        sample_rate (int): the sample rate. Default: ``16000``.
        f_min (float), f_max (float): the frequency range; ``f_max`` ``None``: ``sample_rate // 2``. Default:
            ``0.0``, ``None``.
        n_stft (int): the frequency bins of the input. Default: ``201``.
        norm (NormType): the filters' normalization. Default: ``NormType.NONE``.
        mel_type (MelType): the mel scale. Default: ``MelType.HTK``.
    """

    def __init__(self, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0, f_max: float | None = None,
                 n_stft: int = 201, norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK) -> None:
        self.n_mels = _check_int(n_mels, "n_mels", 1)
        self.sample_rate = _check_int(sample_rate, "sample_rate", 1)
        self.f_min = _check_number(f_min, "f_min", 0)
        self.f_max = float(sample_rate // 2) if f_max is None else _check_number(f_max, "f_max", 0, positive=True)
        if f_max is None and self.f_min >= self.f_max:
            raise ValueError("MelScale: sample_rate // 2 should be greater than f_min when f_max is set to None.")
        if self.f_min >= self.f_max:
            raise ValueError(f"MelScale: f_max should be greater than f_min, but got f_min: {f_min} and f_max: "
                             f"{f_max}.")
        self.n_stft = _check_int(n_stft, "n_stft", 1)
        self.norm = _check_enum(norm, NormType, "norm")
        self.mel_type = _check_enum(mel_type, MelType, "mel_type")
        self._banks = melscale_fbanks(self.n_stft, self.f_min, self.f_max, self.n_mels, self.sample_rate, self.norm,
                                      self.mel_type)

    def __call__(self, spectrogram) -> np.ndarray:
        spec = _waveform(spectrogram, "MelScale")
        if spec.ndim < 2 or spec.shape[-2] != self.n_stft:
            raise ValueError(f"MelScale: the input should have shape <..., {self.n_stft}, time>, but got "
                             f"{spec.shape}.")
        return np.swapaxes(np.swapaxes(spec, -1, -2) @ self._banks.astype(spec.dtype), -1, -2)


class MelSpectrogram:
    """The mel spectrogram of a waveform: :class:`Spectrogram` then :class:`MelScale` (their arguments)."""

    def __init__(self, sample_rate: int = 16000, n_fft: int = 400, win_length: int | None = None,
                 hop_length: int | None = None, f_min: float = 0.0, f_max: float | None = None, pad: int = 0,
                 n_mels: int = 128, window: WindowType = WindowType.HANN, power: float = 2.0, normalized: bool = False,
                 center: bool = True, pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True,
                 norm: NormType = NormType.NONE, mel_scale: MelType = MelType.HTK) -> None:
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power, normalized, center,
                                       pad_mode, onesided)
        self.mel_scale = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def __call__(self, waveform) -> np.ndarray:
        return self.mel_scale(self.spectrogram(waveform))


class AmplitudeToDB:
    """A power (or magnitude) spectrogram in decibels: ``10 log10(max(x, amin)) - 10 log10(max(ref, amin))``
    (20 for magnitudes), floored at its largest value minus ``top_db``.

    Args:
        stype (ScaleType): power or magnitude. Default: ``ScaleType.POWER``.
        ref_value (float): the reference. Default: ``1.0``.
        amin (float): the smallest input used, positive. Default: ``1e-10``.
        top_db (float): the range kept below the maximum, non-negative. Default: ``80.0``.
    """

    def __init__(self, stype: ScaleType = ScaleType.POWER, ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float = 80.0) -> None:
        self.stype = _check_enum(stype, ScaleType, "stype")
        self.ref_value = _check_number(ref_value, "ref_value", 0, positive=True)
        self.amin = _check_number(amin, "amin", 0, positive=True)
        self.top_db = _check_number(top_db, "top_db", 0)

    def __call__(self, spectrogram) -> np.ndarray:
        spec = _waveform(spectrogram, "AmplitudeToDB")
        multiplier = 10.0 if self.stype is ScaleType.POWER else 20.0
        decibels = multiplier * np.log10(np.maximum(spec, self.amin))
        decibels = decibels - multiplier * math.log10(max(self.amin, self.ref_value))
        return np.maximum(decibels, decibels.max() - self.top_db).astype(spec.dtype)


class _Masking:
    """Set ``mask_param`` rows (along ``_AXIS`` from the end) to ``mask_value``: from ``mask_start`` (``iid_masks``
    False), or a uniformly drawn width in [0, ``mask_param``] at a uniformly drawn start (``iid_masks`` True)."""

    _AXIS = -2

    def __init__(self, iid_masks: bool, mask_param: int, mask_start: int, mask_value: float) -> None:
        if not isinstance(iid_masks, bool):
            raise TypeError(f"Argument iid_masks with value {iid_masks} is not of type [<class 'bool'>], but got "
                            f"{type(iid_masks)}.")
        self.iid_masks = iid_masks
        self.mask_param = _check_int(mask_param, "mask_param", 0)
        self.mask_start = _check_int(mask_start, "mask_start", 0)
        self.mask_value = _check_number(mask_value, "mask_value", 0)
        self._rng = _random_generator()

    def __call__(self, spectrogram) -> np.ndarray:
        spec = _waveform(spectrogram, type(self).__name__)
        if spec.ndim < 2:
            raise ValueError(f"{type(self).__name__}: the input should have shape <..., freq, time>, but got "
                             f"{spec.shape}.")
        size = spec.shape[self._AXIS]
        if self.mask_param > size:
            raise ValueError(f"{type(self).__name__}: mask_param ({self.mask_param}) should be at most the length "
                             f"of the masked dim ({size}).")
        if self.iid_masks:
            width = int(self._rng.integers(0, self.mask_param + 1))
            start = int(self._rng.integers(0, size - width + 1))
        else:
            width, start = self.mask_param, self.mask_start
            if start + width > size:
                raise ValueError(f"{type(self).__name__}: mask_start + mask_param ({start + width}) should be at "
                                 f"most the length of the masked dim ({size}).")
        out = spec.copy()
        index = [slice(None)] * spec.ndim
        index[self._AXIS] = slice(start, start + width)
        out[tuple(index)] = self.mask_value
        return out


class FrequencyMasking(_Masking):
    """Mask frequency rows of a spectrogram ``(..., freq, time)`` (see :class:`_Masking`; MindSpore 2.10 masks
    ``[mask_start, mask_start + freq_mask_param)`` when ``iid_masks`` is False, whatever its page says).

    Args:
        iid_masks (bool): draw the mask. Default: ``False``.
        freq_mask_param (int): the mask's width (its largest when drawn). Default: ``0``.
        mask_start (int): the mask's start when not drawn. Default: ``0``.
        mask_value (float): the value written. Default: ``0.0``.
    """

    def __init__(self, iid_masks: bool = False, freq_mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value)


class TimeMasking(_Masking):
    """Mask time columns of a spectrogram ``(..., freq, time)`` (as :class:`FrequencyMasking`, along time).

    Args:
        iid_masks (bool): draw the mask. Default: ``False``.
        time_mask_param (int): the mask's width (its largest when drawn). Default: ``0``.
        mask_start (int): the mask's start when not drawn. Default: ``0``.
        mask_value (float): the value written. Default: ``0.0``.
    """

    _AXIS = -1

    def __init__(self, iid_masks: bool = False, time_mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)


_KAISER_BETA = 14.769656459379492


class Resample:
    """A waveform ``(..., time)`` resampled from ``orig_freq`` to ``new_freq`` by band-limited sinc interpolation
    (a Hann or Kaiser window of ``lowpass_filter_width`` zero crossings, cut off at ``rolloff`` of the lower
    Nyquist frequency): ``ceil(time * new / orig)`` samples.

    Args:
        orig_freq (float), new_freq (float): the rates, positive. Default: ``16000`` each.
        resample_method (ResampleMethod): the window. Default: ``ResampleMethod.SINC_INTERPOLATION`` (Hann).
        lowpass_filter_width (int): the filter's half width in zero crossings, positive. Default: ``6``.
        rolloff (float): the cut-off as a share of the lower Nyquist frequency, in (0, 1]. Default: ``0.99``.
        beta (float): the Kaiser window's shape. Default: ``None``, ``14.769656459379492``.
    """

    def __init__(self, orig_freq: float = 16000, new_freq: float = 16000,
                 resample_method: ResampleMethod = ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width: int = 6,
                 rolloff: float = 0.99, beta: float | None = None) -> None:
        self.orig_freq = _check_number(orig_freq, "orig_freq", 0, positive=True)
        self.new_freq = _check_number(new_freq, "new_freq", 0, positive=True)
        self.resample_method = _check_enum(resample_method, ResampleMethod, "resample_method")
        self.lowpass_filter_width = _check_int(lowpass_filter_width, "lowpass_filter_width", 1)
        self.rolloff = _check_number(rolloff, "rolloff", 0, positive=True)
        if self.rolloff > 1:
            raise ValueError("Input rolloff is not within the required interval of (0, 1.0].")
        self.beta = _KAISER_BETA if beta is None else _check_number(beta, "beta", 0)

    def _kernel(self, orig: int, new: int) -> tuple[np.ndarray, int]:
        base = min(orig, new) * self.rolloff
        width = math.ceil(self.lowpass_filter_width * orig / base)
        index = np.arange(-width, width + orig, dtype=np.float64) / orig
        t = (np.arange(0, -new, -1, dtype=np.float64)[:, None] / new + index[None, :]) * base
        t = np.clip(t, -self.lowpass_filter_width, self.lowpass_filter_width)
        if self.resample_method is ResampleMethod.SINC_INTERPOLATION:
            window = np.cos(t * math.pi / self.lowpass_filter_width / 2) ** 2
        else:
            window = np.i0(self.beta * np.sqrt(1 - (t / self.lowpass_filter_width) ** 2)) / np.i0(self.beta)
        t = t * math.pi
        sinc = np.where(t == 0, 1.0, np.sin(t) / np.where(t == 0, 1.0, t))
        return sinc * window * (base / orig), width

    def __call__(self, waveform) -> np.ndarray:
        wave = _waveform(waveform, "Resample")
        if self.orig_freq == self.new_freq:
            return wave
        divisor = math.gcd(int(self.orig_freq), int(self.new_freq))
        orig, new = int(self.orig_freq) // divisor, int(self.new_freq) // divisor
        kernel, width = self._kernel(orig, new)
        length = wave.shape[-1]
        flat = wave.reshape(-1, length).astype(np.float64)
        padded = np.pad(flat, [(0, 0), (width, width + orig)])
        frames = np.lib.stride_tricks.sliding_window_view(padded, kernel.shape[1], axis=-1)[:, ::orig, :]
        out = np.einsum("bfk,nk->bfn", frames, kernel).reshape(flat.shape[0], -1)
        target = math.ceil(new * length / orig)
        return out[:, :target].reshape(wave.shape[:-1] + (target,)).astype(wave.dtype)
