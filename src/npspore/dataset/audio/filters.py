"""IIR filters of ``mindspore.dataset.audio``: ``Biquad`` (any second-order coefficients) and the shelving filters
``BassBiquad`` and ``TrebleBiquad`` (the coefficients of the Audio EQ Cookbook, which MindSpore 2.10 computes from
float32 arguments: ``BassBiquad``'s in double precision, ``TrebleBiquad``'s in float32), applied by MindSpore's
difference equation (:func:`lfilter`).

A waveform is an array of shape ``(..., time)`` of float16, float32 or float64; each channel is filtered from rest
in the waveform's own precision, and the output is clamped to [-1, 1] (the recursion reads the unclamped values).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["Biquad", "BassBiquad", "TrebleBiquad", "lfilter"]

_FLOAT32_INTEGER = 16777216
_INT32 = 2147483647


def lfilter(waveform: np.ndarray, a_coeffs, b_coeffs, clamp: bool = True) -> np.ndarray:
    """``y[n] = sum_j b[j] x[n - j] - sum_{j >= 1} a[j] y[n - j]`` (both divided by ``a[0]``) along the last axis,
    accumulated term by term in the waveform's dtype, as MindSpore's ``LFilter`` kernel does; with ``clamp`` the
    output (not the recursion) is clipped to [-1, 1]."""
    dtype = waveform.dtype
    a = np.array(a_coeffs, dtype)
    b = np.array(b_coeffs, dtype)
    a[1:] /= a[0]
    b /= a[0]
    x = waveform.reshape(-1, waveform.shape[-1])
    y = np.zeros_like(x)
    for n in range(x.shape[1]):
        acc = np.zeros(x.shape[0], dtype)
        for j in range(len(b)):
            if n - j >= 0:
                acc += b[j] * x[:, n - j]
        for j in range(1, len(a)):
            if n - j >= 0:
                acc -= a[j] * y[:, n - j]
        y[:, n] = acc
    if clamp:
        y = np.clip(y, dtype.type(-1), dtype.type(1))
    return y.reshape(waveform.shape)


def _filtered(waveform, who: str, b_coeffs, a_coeffs) -> np.ndarray:
    """``waveform`` through :func:`lfilter` with the coefficients cast to its dtype, after MindSpore's checks."""
    array = np.asarray(waveform)
    if array.ndim < 1:
        raise RuntimeError(f"{who}: the shape of input tensor does not match the requirement of operator. Expecting "
                           f"tensor in shape of <..., time>. But got tensor with dimension {array.ndim}.")
    if array.dtype not in (np.float16, np.float32, np.float64):
        raise RuntimeError(f"{who}: the data type of input tensor does not match the requirement of operator. "
                           f"Expecting tensor in type of [float, double]. But got type {array.dtype}.")
    return lfilter(array, np.asarray(a_coeffs).astype(array.dtype), np.asarray(b_coeffs).astype(array.dtype))


def _number(value, name: str):
    if not isinstance(value, (float, int)) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'float'>, <class 'int'>], but got "
                        f"{type(value)}.")
    return value


def _float32(value, name: str, nonzero: bool = False):
    _number(value, name)
    if nonzero and (value == 0 or not -_FLOAT32_INTEGER <= value <= _FLOAT32_INTEGER):
        raise ValueError(f"Input {name} is not within the required interval of [-16777216, 0) and (0, 16777216].")
    if not -_FLOAT32_INTEGER <= value <= _FLOAT32_INTEGER:
        raise ValueError(f"Input {name} is not within the required interval of [-16777216, 16777216].")
    return value


def _sample_rate(value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument sample_rate with value {value} is not of type [<class 'int'>], but got "
                        f"{type(value)}.")
    if value == 0 or not -_INT32 - 1 <= value <= _INT32:
        raise ValueError("Input sample_rate is not within the required interval of [-2147483648, 0) and "
                         "(0, 2147483647].")
    return value


def _quality(value):
    _number(value, "Q")
    if not 0 < value <= 1:
        raise ValueError("Input Q is not within the required interval of (0, 1].")
    return value


class Biquad:
    """The second-order IIR filter with numerator ``(b0, b1, b2)`` and denominator ``(a0, a1, a2)``.

    Args:
        b0, b1, b2 (float): the numerator's coefficients of x[n], x[n-1], x[n-2].
        a0 (float): the normaliser, non-zero.
        a1, a2 (float): the denominator's coefficients of y[n-1], y[n-2].

    Raises:
        TypeError: if a coefficient is not a float or int. ValueError: if ``a0`` is 0 or one is beyond float32's
            exact integers (MindSpore's messages). RuntimeError: (on a call) for a waveform that is not float.
    """

    def __init__(self, b0, b1, b2, a0, a1, a2) -> None:
        for name, value in (("b0", b0), ("b1", b1), ("b2", b2)):
            _float32(value, name)
        _float32(a0, "a0", nonzero=True)
        for name, value in (("a1", a1), ("a2", a2)):
            _float32(value, name)
        self.b0, self.b1, self.b2, self.a0, self.a1, self.a2 = b0, b1, b2, a0, a1, a2

    def __call__(self, waveform) -> np.ndarray:
        """The filtered waveform, same shape and dtype."""
        coefficients = np.float32([self.b0, self.b1, self.b2, self.a0, self.a1, self.a2])   # MindSpore's floats
        return _filtered(waveform, "Biquad", coefficients[:3], coefficients[3:])


class _Shelf:
    """A shelving filter: ``gain`` dB above (treble) or below (bass) ``central_freq``, of quality ``Q``."""

    _NAME = ""

    def __init__(self, sample_rate, gain, central_freq, Q) -> None:
        self.sample_rate = _sample_rate(sample_rate)
        self.gain = _float32(gain, "gain")
        self.central_freq = _float32(central_freq, "central_freq")
        self.quality_factor = _quality(Q)

    def __call__(self, waveform) -> np.ndarray:
        """The filtered waveform, same shape and dtype."""
        b_coeffs, a_coeffs = self._coefficients(*(np.float32(value) for value in (self.gain, self.central_freq,
                                                                                  self.quality_factor)))
        return _filtered(waveform, self._NAME, b_coeffs, a_coeffs)


class BassBiquad(_Shelf):
    """A two-pole low-shelf filter (``sox bass``): ``gain`` dB on the frequencies below about ``central_freq``.

    Args:
        sample_rate (int): the waveform's sampling rate in Hz, non-zero.
        gain (float): the boost (or cut, negative) in dB.
        central_freq (float): the shelf's frequency in Hz. Default: ``100.0``.
        Q (float): the quality factor, in (0, 1]. Default: ``0.707``.

    Raises:
        TypeError, ValueError: for an argument of the wrong type or out of range (MindSpore's messages).
        RuntimeError: (on a call) for a waveform that is not float.
    """

    _NAME = "BassBiquad"

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707) -> None:
        super().__init__(sample_rate, gain, central_freq, Q)

    def _coefficients(self, gain, central_freq, quality):
        """MindSpore's: in double precision, normalised by ``a0`` before the cast to the waveform's dtype."""
        w0 = 2 * math.pi * float(central_freq) / self.sample_rate
        alpha = math.sin(w0) / 2 / float(quality)
        amplitude = math.exp(float(gain) / 40 * math.log(10))
        temp1, temp2, temp3 = (2 * math.sqrt(amplitude) * alpha, (amplitude - 1) * math.cos(w0),
                               (amplitude + 1) * math.cos(w0))
        a0 = (amplitude + 1) + temp2 + temp1
        b = (amplitude * ((amplitude + 1) - temp2 + temp1), 2 * amplitude * ((amplitude - 1) - temp3),
             amplitude * ((amplitude + 1) - temp2 - temp1))
        return [value / a0 for value in b], [1.0, -2 * ((amplitude - 1) + temp3) / a0,
                                             ((amplitude + 1) + temp2 - temp1) / a0]


class TrebleBiquad(_Shelf):
    """A two-pole high-shelf filter (``sox treble``): ``gain`` dB on the frequencies above about ``central_freq``.
    Arguments and errors as :class:`BassBiquad`'s; ``central_freq`` defaults to ``3000``."""

    _NAME = "TrebleBiquad"

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707) -> None:
        super().__init__(sample_rate, gain, central_freq, Q)

    def _coefficients(self, gain, central_freq, quality):
        """MindSpore's: each intermediate a float32, the coefficients passed unnormalised (``lfilter`` divides by
        ``a0`` in the waveform's dtype)."""
        f32 = np.float32   # every operand a float32 (NumPy 1.26 computes float32 with a Python number in float64)
        one = f32(1)
        w0 = f32(2 * math.pi * float(central_freq) / self.sample_rate)
        alpha = f32(f32(math.sin(w0)) / f32(2) / f32(quality))
        amplitude = f32(math.exp(float(f32(gain) / f32(40)) * math.log(10)))
        temp1 = f32(2) * f32(math.sqrt(amplitude)) * alpha
        temp2 = (amplitude - one) * f32(math.cos(w0))
        temp3 = (amplitude + one) * f32(math.cos(w0))
        b = (amplitude * ((amplitude + one) + temp2 + temp1), f32(-2) * amplitude * ((amplitude - one) + temp3),
             amplitude * ((amplitude + one) + temp2 - temp1))
        a = ((amplitude + one) - temp2 + temp1, f32(2) * ((amplitude - one) - temp3), (amplitude + one) - temp2 - temp1)
        return np.float32(b), np.float32(a)
