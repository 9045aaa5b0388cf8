"""libstdc++'s ``std::uniform_int_distribution`` and ``std::shuffle`` (GCC 9 and later) over any engine, as the C++
of MindSpore draws them: its ``RandomSampler`` over ``std::mt19937``, its ``RandomShuffle`` kernel over
``std::minstd_rand0``.

An engine is given as ``draw()``, its next word less the engine's minimum, and ``engine_range``, its maximum less its
minimum (``2**32 - 1`` for ``mt19937``, ``2**31 - 3`` for ``minstd_rand0``).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = ["uniform_below", "shuffle_in_place", "mt19937_permutation"]


def uniform_below(draw: Callable[[], int], engine_range: int, bound: int) -> int:
    """One sample of ``uniform_int_distribution(0, bound - 1)``: the word divided down by ``engine_range // bound``,
    words at or past the largest multiple of ``bound`` within the range rejected."""
    scaling = engine_range // bound
    past = bound * scaling
    while True:
        word = draw()
        if word < past:
            return word // scaling


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
    kernel). NumPy's ``RandomState(seed)`` seeds the Mersenne Twister as ``std::mt19937`` does for a 32-bit seed."""
    words = np.random.RandomState(seed)
    items = list(range(n))
    shuffle_in_place(items, lambda: int(words.randint(0, 2 ** 32, dtype=np.uint64)), 2 ** 32 - 1)
    return items
