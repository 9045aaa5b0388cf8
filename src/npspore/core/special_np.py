"""Special functions NumPy lacks, elementwise over arrays: ``erfc`` and ``lgamma`` (the C library's, exact),
``digamma`` and ``trigamma`` (asymptotic series after a shift, within 1e-11).

Generated kernels reach them through :mod:`npspore.runtime` (``rt.erfc(x)``), as the op templates write them.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["erfc", "lgamma", "digamma", "trigamma"]

_ERFC = np.frompyfunc(math.erfc, 1, 1)


def erfc(x: np.ndarray) -> np.ndarray:
    """The complementary error function ``1 - erf(x)`` of each element, in ``x``'s dtype, without the
    cancellation of ``1 - erf(x)`` (``erfc(10)`` is 2.1e-45, not 0)."""
    x = np.asarray(x)
    return np.asarray(_ERFC(x), x.dtype)


def _lgamma_or_pole(value: float) -> float:
    try:
        return math.lgamma(value)
    except ValueError:   # math's domain error at the poles 0, -1, -2 ...
        return math.inf


_LGAMMA = np.frompyfunc(_lgamma_or_pole, 1, 1)


def lgamma(x: np.ndarray) -> np.ndarray:
    """``log|Γ(x)|`` of each element, in ``x``'s dtype; +inf at the poles (0 and the negative integers)."""
    x = np.asarray(x)
    return np.asarray(_LGAMMA(x), x.dtype)


def _shifted(x: np.ndarray) -> tuple:
    """The float (at least float32) values of ``x``, where they lie below 1/2 (reflected), ``r`` (``1 - x`` there)
    and the series point ``y = r + 6``, from which the series' error is below 1e-11."""
    v = np.asarray(x, np.promote_types(np.asarray(x).dtype, np.float32))
    low = v < 0.5
    r = np.where(low, 1 - v, v)
    return v, low, r, r + 6


def digamma(x: np.ndarray) -> np.ndarray:
    """ψ(x) = Γ'(x)/Γ(x) of each element, in ``x``'s dtype: the asymptotic series at ``r + 6`` less ``Σ 1/(r + k)``
    (k < 6), reflected below 1/2 (``ψ(x) = ψ(1 - x) - π/tan(πx)``); -inf at 0, NaN at the negative integers."""
    v, low, r, y = _shifted(x)
    z = 1 / (y * y)
    with np.errstate(divide="ignore", invalid="ignore"):
        series = np.log(y) - 0.5 / y - z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z * 5 / 660))))
        psi = series - sum(1 / (r + k) for k in range(6))
        psi = np.where(low, psi - np.pi / np.tan(np.pi * v), psi)
    pole = (v <= 0) & (v == np.floor(v))
    return np.asarray(np.where(pole, np.where(v == 0, -np.inf, np.nan), psi), np.asarray(x).dtype)


def trigamma(x: np.ndarray) -> np.ndarray:
    """ψ'(x) of each element, in ``x``'s dtype, as :func:`digamma`: the series at ``r + 6`` plus ``Σ 1/(r + k)²``,
    reflected below 1/2 (``ψ'(x) = π²/sin²(πx) - ψ'(1 - x)``); +inf at the poles."""
    v, low, r, y = _shifted(x)
    z = 1 / (y * y)
    with np.errstate(divide="ignore", invalid="ignore"):
        series = 1 / y + z / 2 + z / y * (1 / 6 - z * (1 / 30 - z * (1 / 42 - z * (1 / 30 - z * 5 / 66))))
        psi1 = series + sum(1 / ((r + k) * (r + k)) for k in range(6))
        psi1 = np.where(low, np.pi * np.pi / np.sin(np.pi * v) ** 2 - psi1, psi1)
    pole = (v <= 0) & (v == np.floor(v))
    return np.asarray(np.where(pole, np.inf, psi1), np.asarray(x).dtype)
