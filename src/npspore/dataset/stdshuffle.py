"""MindSpore's shuffled row orders: ``std::shuffle`` of libstdc++ driven by ``std::mt19937``.

MindSpore's ``RandomSampler`` (what ``shuffle=True`` of a random-access source makes) seeds a 32-bit Mersenne
Twister with the pipeline seed and shuffles the row ids ``0..n-1`` with ``std::shuffle``; at the end of each pass
(an epoch, or one repetition of a ``repeat``) it adds 1 to the seed, reseeds, and shuffles the ids it already
has again; with replacement it draws each id with ``std::uniform_int_distribution`` from the engine of the pass
(:func:`pass_draws`). With a seed set (``dataset.config.set_seed`` or ``set_seed``), the orders are therefore its
own, and :func:`pass_order` computes them: the rows of a seeded pipeline come in MindSpore's order. Its
``SubsetRandomSampler`` and ``WeightedRandomSampler`` reseed with the same seed at every pass (:func:`subset_order`,
:func:`weighted_draws`).

libstdc++'s ``std::shuffle`` is :func:`npspore.core.libstdcxx_random.shuffle_in_place`, its engine
:class:`npspore.core.libstdcxx_random.Mt19937`.

``Dataset.shuffle(buffer_size)`` is MindSpore's ``ShuffleOp`` (:func:`buffer_shuffled`): a buffer filled with the
first ``buffer_size`` rows; each step sends the row at ``std::mt19937_64() % len`` of the buffer, moves the buffer's
last row into its slot and puts the next incoming row last; once the input is exhausted the buffer drains the same
way. The generator is seeded once per pipeline with the seed and goes on across epochs and repetitions.
"""
from __future__ import annotations

import bisect
import math

import numpy as np

from ..core.libstdcxx_random import Mt19937, canonical_double, shuffle_in_place, uniform_below

__all__ = ["pass_order", "pass_draws", "subset_order", "weighted_draws", "Mt19937x64", "buffer_shuffled"]

_UINT32 = 1 << 32
_UINT64 = (1 << 64) - 1


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


def pass_draws(n: int, count: int, seed: int, passes: int) -> np.ndarray:
    """The first ``count`` row ids MindSpore's ``RandomSampler`` with replacement gives on pass ``passes`` over ``n``
    rows: ``std::uniform_int_distribution<int64_t>(0, n - 1)`` over ``std::mt19937(seed + passes)`` (the sampler
    reseeds with one more at the end of each pass, as without replacement)."""
    draw = Mt19937((seed + passes) % _UINT32).draw
    return np.array([uniform_below(draw, _UINT32 - 1, n) for _ in range(count)], dtype=np.int64)


def subset_order(indices: np.ndarray, seed: int, passes: int) -> np.ndarray:
    """The order MindSpore's ``SubsetRandomSampler`` gives ``indices`` on pass ``passes``: at each pass it reseeds
    ``std::mt19937`` with the same seed and shuffles the order of the pass before again."""
    for _ in range(passes + 1):
        indices = _shuffled(indices, seed % _UINT32)
    return indices


def weighted_draws(weights: list, count: int, replacement: bool, seed: int) -> np.ndarray:
    """The ``count`` ids MindSpore's ``WeightedRandomSampler`` draws (the same at every pass: it reseeds
    ``std::mt19937`` with the same seed): with ``replacement``, ``std::discrete_distribution`` (the first cumulative
    probability not below a canonical double); without, the ``count`` smallest ``Exp(1) / weight`` (Efraimidis and
    Spirakis's one-pass sampling, ties by id)."""
    draw = Mt19937(seed % _UINT32).draw
    if replacement:
        total = 0.0
        for w in weights:   # std::accumulate, left to right (Python's sum of floats compensates)
            total += float(w)
        cumulative = []
        for w in weights:
            cumulative.append((cumulative[-1] if cumulative else 0.0) + float(w) / total)
        cumulative[-1] = 1.0
        ids = [bisect.bisect_left(cumulative, canonical_double(draw)) for _ in range(count)]
    else:
        waits = [-math.log(1.0 - canonical_double(draw)) for _ in weights]   # one draw per weight, zero weights too
        keys = sorted((wait / w if w else math.inf, i) for i, (wait, w) in enumerate(zip(waits, weights)))
        ids = [i for _, i in keys[:count]]
    return np.array(ids, dtype=np.int64)


def _shuffled(ids: np.ndarray, seed: int) -> np.ndarray:
    """``std::shuffle(ids, std::mt19937(seed))`` as libstdc++ computes it."""
    out = ids.tolist()
    shuffle_in_place(out, Mt19937(seed).draw, _UINT32 - 1)
    return np.asarray(out, dtype=np.int64)


class Mt19937x64:
    """``std::mt19937_64(seed)``: the 64-bit Mersenne Twister (Matsumoto and Nishimura's MT19937-64)."""

    _N, _M = 312, 156

    def __init__(self, seed: int):
        state = [seed & _UINT64]
        for i in range(1, self._N):
            previous = state[-1]
            state.append((6364136223846793005 * (previous ^ (previous >> 62)) + i) & _UINT64)
        self._state, self._index = state, self._N

    def _twist(self):
        state, n, m = self._state, self._N, self._M
        for i in range(n):
            bits = (state[i] & 0xFFFFFFFF80000000) | (state[(i + 1) % n] & 0x7FFFFFFF)
            state[i] = state[(i + m) % n] ^ (bits >> 1) ^ (0xB5026F5AA96619E9 if bits & 1 else 0)
        self._index = 0

    def __call__(self) -> int:
        if self._index == self._N:
            self._twist()
        x = self._state[self._index]
        self._index += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        return (x ^ (x >> 43)) & _UINT64


def buffer_shuffled(rows, size: int, rng: Mt19937x64):
    """The rows of the iterable ``rows`` in the order MindSpore's ``ShuffleOp`` with a buffer of ``size`` gives."""
    buffer = []
    source = iter(rows)
    for row in source:
        buffer.append(row)
        if len(buffer) == size:
            break
    active = len(buffer) == size
    while buffer:
        slot = rng() % len(buffer)
        yield buffer[slot]
        buffer[slot] = buffer[-1]
        incoming = next(source, None) if active else None
        if incoming is not None:
            buffer[-1] = incoming
        else:
            active = False
            buffer.pop()
