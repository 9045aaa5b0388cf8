"""MindSpore's shuffled row orders: ``std::shuffle`` of libstdc++ driven by ``std::mt19937``.

MindSpore's ``RandomSampler`` (what ``shuffle=True`` of a random-access source makes) seeds a 32-bit Mersenne
Twister with the pipeline seed and shuffles the row ids ``0..n-1`` with ``std::shuffle``; at the end of each pass
(an epoch, or one repetition of a ``repeat``) it adds 1 to the seed, reseeds, and shuffles the ids it already
has again. With a seed set (``dataset.config.set_seed`` or ``set_seed``), the orders are therefore its own, and
:func:`pass_order` computes them: the rows of a seeded pipeline come in MindSpore's order.

libstdc++'s ``std::shuffle`` (GCC 9 and later) draws one number per two positions where the generator's range
allows (``n * n`` below 2^32): a draw uniform in ``[0, (i + 1) * (i + 2))`` gives the swap positions of ``i`` and
``i + 1``; ``std::uniform_int_distribution`` scales a 32-bit draw down by division and rejects the remainder.
NumPy's ``MT19937`` with its legacy seeding is ``std::mt19937(seed)``.
"""
from __future__ import annotations

import numpy as np

__all__ = ["pass_order"]

_UINT32 = 1 << 32


def pass_order(n: int, seed: int, passes: int, cache: dict) -> np.ndarray:
    """The row ids MindSpore's ``RandomSampler`` gives on pass ``passes`` (0: the first) over ``n`` rows.

    ``cache`` (the sampler's) keeps the last order computed per ``(n, seed)``, so consecutive passes cost one
    shuffle each.
    """
    known_passes, ids = cache.get((n, seed), (-1, None))
    if known_passes > passes:
        known_passes, ids = -1, None
    if ids is None:
        ids = np.arange(n, dtype=np.int64)
    for k in range(known_passes + 1, passes + 1):
        ids = _shuffled(ids, (seed + k) % _UINT32)
    cache[(n, seed)] = (passes, ids)
    return ids


class _Mt19937:
    """32-bit draws of ``std::mt19937(seed)``, taken from NumPy in blocks."""

    def __init__(self, seed: int):
        self._bits = np.random.MT19937()
        self._bits._legacy_seeding(seed)
        self._block, self._next = [], 0

    def draw(self) -> int:
        if self._next == len(self._block):
            self._block, self._next = self._bits.random_raw(1024).tolist(), 0
        self._next += 1
        return self._block[self._next - 1]


def _uniform(g: _Mt19937, count: int) -> int:
    """``std::uniform_int_distribution(0, count - 1)(g)`` of libstdc++ for a 32-bit generator."""
    scaling = (_UINT32 - 1) // count
    past = count * scaling
    while True:
        value = g.draw()
        if value < past:
            return value // scaling


def _shuffled(ids: np.ndarray, seed: int) -> np.ndarray:
    """``std::shuffle(ids, std::mt19937(seed))`` as libstdc++ computes it."""
    out = ids.tolist()
    n = len(out)
    if n < 2:
        return ids.copy()
    g = _Mt19937(seed)
    if (_UINT32 - 1) // n >= n:
        i = 1
        if n % 2 == 0:
            j = _uniform(g, 2)
            out[1], out[j] = out[j], out[1]
            i = 2
        while i < n:
            width = i + 2
            both = _uniform(g, (i + 1) * width)
            first, second = divmod(both, width)
            out[i], out[first] = out[first], out[i]
            out[i + 1], out[second] = out[second], out[i + 1]
            i += 2
    else:
        for i in range(1, n):
            j = _uniform(g, i + 1)
            out[i], out[j] = out[j], out[i]
    return np.asarray(out, dtype=np.int64)
