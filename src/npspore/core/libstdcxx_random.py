"""libstdc++'s ``std::uniform_int_distribution``, ``std::generate_canonical``, ``std::uniform_real_distribution<float>``
and ``std::shuffle`` (GCC 9 and later) over any engine, as the C++ of MindSpore draws them: its samplers and data
transforms over ``std::mt19937`` (:class:`Mt19937`), its ``RandomShuffle`` kernel over ``std::minstd_rand0``.

An engine is given as ``draw()``, its next word less the engine's minimum, and ``engine_range``, its maximum less its
minimum (``2**32 - 1`` for ``mt19937``, ``2**31 - 3`` for ``minstd_rand0``).
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

__all__ = ["Mt19937", "MT19937_RANGE", "uniform_below", "canonical_double", "uniform_float", "shuffle_in_place",
           "mt19937_permutation"]

MT19937_RANGE = (1 << 32) - 1
_WORDS = float(1 << 32)


class Mt19937:
    """The 32-bit words of ``std::mt19937(seed)``, taken from NumPy in blocks (NumPy's ``MT19937`` in the state
    ``RandomState(seed)`` starts from is ``std::mt19937(seed)``)."""

    def __init__(self, seed: int):
        self._bits = np.random.MT19937()
        state: Any = np.random.RandomState(seed).get_state(legacy=False)
        self._bits.state = state
        self._block: list = []
        self._next = 0

    def draw(self) -> int:
        """The next word."""
        if self._next == len(self._block):
            self._block, self._next = self._bits.random_raw(1024).tolist(), 0
        self._next += 1
        return self._block[self._next - 1]


def uniform_below(draw: Callable[[], int], engine_range: int, bound: int) -> int:
    """One sample of ``uniform_int_distribution(0, bound - 1)``: the word divided down by ``engine_range // bound``,
    words at or past the largest multiple of ``bound`` within the range rejected."""
    scaling = engine_range // bound
    past = bound * scaling
    while True:
        word = draw()
        if word < past:
            return word // scaling


def canonical_double(draw: Callable[[], int]) -> float:
    """``std::generate_canonical<double, 53>`` over a 32-bit engine: two words, the second the high one, below 1."""
    low, high = float(draw()), float(draw())
    value = (low + high * _WORDS) / (_WORDS * _WORDS)
    return value if value < 1.0 else math.nextafter(1.0, 0.0)


def uniform_float(draw: Callable[[], int], low: float, high: float) -> float:
    """One sample of ``std::uniform_real_distribution<float>(low, high)`` over a 32-bit engine: one word as a float
    over ``2**32`` (below 1), times ``high - low``, plus ``low``, all in float32."""
    unit = np.float32(draw()) / np.float32(_WORDS)
    if unit >= 1:
        unit = np.nextafter(np.float32(1), np.float32(0))
    low32 = np.float32(low)
    return float(unit * (np.float32(high) - low32) + low32)


def shuffle_in_place(items: list, draw: Callable[[], int], engine_range: int) -> None:
    """``std::shuffle(items, engine)``: Fisher-Yates that, while ``n * n`` fits the engine's range, draws the swap
    positions of two steps ``i`` and ``i + 1`` from one sample uniform in ``[0, (i + 1) * (i + 2))``."""
    n = len(items)
    if n < 2:
        return
    if engine_range // n >= n:
        i = 1
        if n % 2 == 0:
            j = uniform_below(draw, engine_range, 2)
            items[1], items[j] = items[j], items[1]
            i = 2
        while i < n:
            width = i + 2
            first, second = divmod(uniform_below(draw, engine_range, (i + 1) * width), width)
            items[i], items[first] = items[first], items[i]
            items[i + 1], items[second] = items[second], items[i + 1]
            i += 2
    else:
        for i in range(1, n):
            j = uniform_below(draw, engine_range, i + 1)
            items[i], items[j] = items[j], items[i]


def mt19937_permutation(n: int, seed: int) -> list:
    """``0 .. n - 1`` shuffled by ``std::shuffle`` over ``std::mt19937(seed)`` (MindSpore's ``RandpermV2`` CPU
    kernel)."""
    items = list(range(n))
    shuffle_in_place(items, Mt19937(seed).draw, MT19937_RANGE)
    return items
