"""The random numbers of MindSpore's initializers, bit for bit.

MindSpore 2.10 fills a random initializer's float32 buffer from a Philox4x32-10 counter-based generator
(``mindspore._c_expression._random_uniform`` / ``_random_normal`` / ``_truncated_normal``) whose seed is one
``numpy.random.randint(1, 2**63, dtype=int64)`` drawn from NumPy's legacy global generator per filled array.
So a program that seeds NumPy (or calls ``set_seed``, which seeds NumPy), builds a network and then draws
data sees MindSpore's initial weights and MindSpore's data. Each function here draws that seed and returns a
float32 array; the distributions compute in float64 from float32 arguments, as the C++ kernels do.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["uniform", "normal", "truncated_normal"]

_WORD = 0xFFFFFFFF
_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)
_PI = float(np.float32(3.1415926))          # the kernels' float constants, widened to double
_SQRT2 = float(np.float32(1.4142135))
_TINY = float(np.float32(1.0e-7))
_BLOCKS_PER_RUN = 1 << 15


def _numpy_seed() -> int:
    """One draw of NumPy's global generator, as MindSpore's ``_numpy_seed``."""
    return int(np.random.randint(low=1, high=1 << 63, dtype=np.int64))


def _draw(shape: tuple, transform) -> np.ndarray:
    """A float32 array of ``shape`` from one seed of NumPy's global generator: ``transform`` maps each run of
    the Philox words (a multiple of four, in order) to float64 samples, a cache-sized run at a time."""
    seed = _numpy_seed()
    lo, hi = seed & _WORD, seed >> 32
    count = math.prod(shape)
    blocks = (count + 3) // 4
    out = np.empty(blocks * 4, np.float32)
    for first in range(0, blocks, _BLOCKS_PER_RUN):
        block = np.arange(first, min(first + _BLOCKS_PER_RUN, blocks), dtype=np.uint64)
        out[4 * first:4 * (first + block.size)] = transform(_philox_rounds(block, lo, hi))
    return out[:count].reshape(shape)


def _philox_rounds(block: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """MindSpore's Philox4x32-10: the four uint32 words of block ``k`` are ten rounds on the counter
    ``(k mod 2**32, k div 2**32, lo, hi)`` (little-endian words) under the key ``(lo, hi)``, in order."""
    shift, word = np.uint64(32), np.uint64(_WORD)
    counter = (block & word, block >> shift, np.full_like(block, lo), np.full_like(block, hi))
    return np.stack(philox_block(counter, (lo, hi)), axis=1).reshape(-1).astype(np.uint32)


def philox_block(counter: tuple, key: tuple) -> tuple:
    """Philox4x32-10 on the four counter words ``counter`` (uint64 arrays holding uint32 values) under the key
    ``(k0, k1)``: the four result words, uint64 arrays."""
    shift, word = np.uint64(32), np.uint64(_WORD)
    c0, c1, c2, c3 = counter
    k0, k1 = key
    m0, m1 = np.uint64(_MULTIPLIERS[0]), np.uint64(_MULTIPLIERS[1])
    for _ in range(10):
        t0, t1 = m0 * c0, m1 * c2
        c0, c1, c2, c3 = (t1 >> shift) ^ c1 ^ np.uint64(k0), t1 & word, (t0 >> shift) ^ c3 ^ np.uint64(k1), t0 & word
        k0, k1 = (k0 + _KEY_STEPS[0]) & _WORD, (k1 + _KEY_STEPS[1]) & _WORD
    return c0, c1, c2, c3


def _unit_uniform(words: np.ndarray) -> np.ndarray:
    """``word / 2**32``: MindSpore's ``UniformDistribution`` in [0, 1)."""
    return words.astype(np.float64) / 4294967296.0


def uniform(shape: tuple, low: float, high: float) -> np.ndarray:
    """float32 samples of U(``low``, ``high``) in ``shape``, as ``_init_random_uniform``."""
    low, high = float(np.float32(low)), float(np.float32(high))
    return _draw(shape, lambda words: (high - low) * _unit_uniform(words) + low)


def normal(shape: tuple, mean: float, sigma: float) -> np.ndarray:
    """float32 samples of N(``mean``, ``sigma``^2) in ``shape``, as ``_init_random_normal``: Box-Muller on
    pairs of words, each word's 23 low bits read as a float in [0, 1).

    Raises:
        ValueError: if ``sigma`` is negative (MindSpore's message).
    """
    if sigma < 0:
        raise ValueError("sigma < 0")
    mean, sigma = float(np.float32(mean)), float(np.float32(sigma))

    def box_muller(words):
        fractions = ((words & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)
        fractions = np.maximum(fractions.astype(np.float64), _TINY)
        radius = np.sqrt(-2.0 * np.log(fractions[0::2])) * sigma
        angle = 2.0 * _PI * fractions[1::2]
        samples = np.empty(words.size)
        samples[0::2] = mean + radius * np.cos(angle)
        samples[1::2] = mean + radius * np.sin(angle)
        return samples

    return _draw(shape, box_muller)


def _normal_cdf(x: float) -> float:
    return math.erfc(-x / _SQRT2) / 2.0


def _normal_quantile(p: np.ndarray) -> np.ndarray:
    """The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9)."""
    a = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
         -3.066479806614716e+01, 2.506628277459239e+00)
    b = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
         -1.328068155288572e+01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
         4.374664141464968e+00, 2.938163982698783e+00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00)
    p = np.clip(p, 1e-300, 1 - 1e-16)
    tail = np.minimum(p, 1 - p)
    q = np.sqrt(-2 * np.log(tail))
    outer = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    outer = np.where(p < 0.5, outer, -outer)
    q = p - 0.5
    r = q * q
    central = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    return np.where(tail < 0.02425, outer, central)


def truncated_normal(shape: tuple, low: float, high: float, mean: float, sigma: float) -> np.ndarray:
    """float32 samples of N(``mean``, ``sigma``^2) truncated to [``low``, ``high``] in ``shape``, as
    ``_init_truncated_normal``: the inverse CDF of one uniform word per sample (the quantile agrees with
    MindSpore's to about 1e-9, so a sample can differ from MindSpore's in its last float32 bit).

    Raises:
        ValueError: if ``sigma`` is negative (MindSpore's message).
        RuntimeError: if ``sigma`` is 0 (MindSpore's message).
    """
    if sigma < 0:
        raise ValueError("sigma < 0")
    if sigma == 0:
        raise RuntimeError("TruncatedNormal: invalid sigma 0.")
    low, high, mean, sigma = (float(np.float32(v)) for v in (low, high, mean, sigma))
    cdf_low, cdf_high = _normal_cdf((low - mean) / sigma), _normal_cdf((high - mean) / sigma)

    def inverse_cdf(words):
        # MindSpore's quantile scales by its float sqrt(2), not the exact one: Phi^-1(p) * (1.4142135f / sqrt 2)
        p = cdf_low + _unit_uniform(words) * (cdf_high - cdf_low)
        return mean + _normal_quantile(p) * (_SQRT2 / math.sqrt(2.0)) * sigma

    return _draw(shape, inverse_cdf)
