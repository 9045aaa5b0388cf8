"""The random numbers of the data transforms, drawn as MindSpore's C++ transforms draw them.

Observed on MindSpore 2.10: a ``map`` builds its random transforms once per worker (``num_parallel_workers``, by
default the pipeline's :func:`~npspore.dataset.config.get_num_parallel_workers`) when an iterator is created, each
with its own ``std::mt19937`` seeded with the pipeline seed plus the worker's index; it hands its rows to the workers
in turn, starting again at the first worker on every pass (an epoch, or one repetition of a ``repeat``), and the
engines go on from pass to pass of one iterator. A transform held by another (``RandomApply``, ``RandomChoice``,
``RandomSelectSubpolicy``, a ``Compose`` inside one of them) has its own engine in each worker too, seeded with
the seed alone (a ``Compose`` given to ``map`` is unpacked into the map's own transforms). A transform called
directly on an image is built anew for the call, so with a seed every call draws the seed's first numbers.

With a seed set (``dataset.config.set_seed`` or ``set_seed``), npspore's transforms that draw through
:func:`draws_for` therefore draw MindSpore's numbers: the engine is :class:`~npspore.core.libstdcxx_random.Mt19937`,
the distributions libstdc++'s. Without one, a NumPy generator from fresh entropy per worker and transform.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

import numpy as np

from ..core.libstdcxx_random import (MT19937_RANGE, Mt19937, canonical_double, shuffle_in_place, uniform_below,
                                     uniform_float)
from . import config

__all__ = ["StdDraws", "NumpyDraws", "MapWorkers", "draws_for", "centred_uniform"]


class StdDraws:
    """``std::mt19937(seed)`` under libstdc++'s distributions, one sample per call."""

    def __init__(self, seed: int):
        self._draw = Mt19937(seed % (MT19937_RANGE + 1)).draw

    def canonical(self) -> float:
        """``generate_canonical<double>``: what ``std::bernoulli_distribution(p)`` compares with ``p``."""
        return canonical_double(self._draw)

    def integer(self, low: int, high: int) -> int:
        """``std::uniform_int_distribution<int>(low, high)``: ``high`` included."""
        return low + uniform_below(self._draw, MT19937_RANGE, high - low + 1)

    def uniform_float(self, low: float, high: float) -> float:
        """``std::uniform_real_distribution<float>(low, high)``."""
        return uniform_float(self._draw, low, high)

    def shuffle(self, items: list) -> None:
        """``std::shuffle(items, engine)``, in place."""
        shuffle_in_place(items, self._draw, MT19937_RANGE)


class NumpyDraws:
    """The same samples' kinds from a NumPy generator (an unseeded pipeline)."""

    def __init__(self, generator: np.random.Generator):
        self._generator = generator

    def canonical(self) -> float:
        return float(self._generator.random())

    def integer(self, low: int, high: int) -> int:
        return int(self._generator.integers(low, high + 1))

    def uniform_float(self, low: float, high: float) -> float:
        return float(np.float32(self._generator.uniform(low, high)))

    def shuffle(self, items: list) -> None:
        self._generator.shuffle(items)


class _Worker:
    """One worker of a map: the draws of each transform it runs, made on its first use."""

    def __init__(self, seed: int | None, index: int, entropy: int, mapped: frozenset):
        self.seed, self.index, self.entropy, self.mapped = seed, index, entropy, mapped
        self.by_transform: dict[int, tuple[Any, StdDraws | NumpyDraws]] = {}

    def draws(self, transform: Any) -> StdDraws | NumpyDraws:
        entry = self.by_transform.get(id(transform))
        if entry is None:
            draws: StdDraws | NumpyDraws
            if self.seed is not None:
                draws = StdDraws(self.seed + (self.index if id(transform) in self.mapped else 0))
            else:
                draws = NumpyDraws(np.random.default_rng([self.entropy, self.index, len(self.by_transform)]))
            entry = self.by_transform[id(transform)] = (transform, draws)   # the transform kept: its id stays its own
        return entry[1]


_RUNNING = threading.local()   # .worker: the map worker whose transforms run on this thread now


class MapWorkers:
    """The workers of one map for one iterator (the module docstring): row ``position`` of a pass runs on worker
    ``position % count``; ``transforms`` are the map's own (those a transform holds are not)."""

    def __init__(self, count: int, seed: int | None, entropy: int, transforms: list):
        mapped = frozenset(id(transform) for transform in transforms)
        self.workers = [_Worker(seed, index, entropy, mapped) for index in range(max(1, count))]

    def run(self, position: int, function: Callable, *args: Any) -> Any:
        """``function(*args)`` with the random transforms it calls drawing from worker ``position``'s engines."""
        previous = getattr(_RUNNING, "worker", None)
        _RUNNING.worker = self.workers[position % len(self.workers)]
        try:
            return function(*args)
        finally:
            _RUNNING.worker = previous


def draws_for(transform: Any) -> StdDraws | NumpyDraws:
    """The draws ``transform`` makes now: its map worker's; called directly on an image, a new engine of the seed
    (MindSpore builds the transform anew for the call), or unseeded the transform's own NumPy generator."""
    worker = getattr(_RUNNING, "worker", None)
    if worker is not None:
        return worker.draws(transform)
    seed = config.user_seed()
    if seed is not None:
        return StdDraws(seed)
    own = transform.__dict__.get("_own_draws")
    if own is None:
        own = transform._own_draws = NumpyDraws(np.random.default_rng())
    return own


def centred_uniform(draws: StdDraws | NumpyDraws, start: float, end: float) -> float:
    """A value of ``[start, end)`` as MindSpore's ``RandomRotation`` and ``RandomSharpness`` draw it: the middle plus
    half the width times a float uniform in [-1, 1), in float32."""
    low, high = np.float32(start), np.float32(end)
    unit = np.float32(draws.uniform_float(-1.0, 1.0))
    return float((high + low) / np.float32(2) + unit * ((high - low) / np.float32(2)))
