"""Samplers: which rows of a random-access source one pass reads, and in what order.

A random-access source (``GeneratorDataset`` over an object with ``__getitem__``/``__len__``,
``NumpySlicesDataset``, ``MnistDataset``, ``Cifar10Dataset``) asks its sampler for the indices of
each pass. The ``shuffle``/``num_samples``/``num_shards``/``shard_id`` arguments of a source
become one of these samplers, as in MindSpore.

Every pass has a :class:`PassKey`: the iterator's seed material plus the pass's position (epoch,
then one number per enclosing ``repeat``). Seeded shuffles draw from a generator built from the
pipeline seed and that position, so the same seed gives the same orders, and each epoch and each
repeat gets a different one. A seeded ``RandomSampler`` (``shuffle=True``; with replacement when ``num_samples`` is
given too) gives MindSpore's own orders and draws (``stdshuffle.py``), from the number of passes made before
(``PassKey.passes``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import config
from .arguments import check_bool, check_int
from .stdshuffle import pass_draws, pass_order, subset_order, weighted_draws

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetSampler",
           "SubsetRandomSampler", "WeightedRandomSampler", "SplitPartSampler"]


@dataclass(frozen=True)
class PassKey:
    """Identifies one pass over a pipeline node: ``seed`` (``None`` when unseeded), ``entropy``
    (fresh per iterator, used when unseeded), ``position`` (epoch, then repeat indices), ``passes``
    (how many passes over the node the iterator made before this one: epochs times repetitions) and
    ``iterator_state`` (what the nodes keep from pass to pass of one iterator, by node: a map's workers)."""
    seed: int | None
    entropy: int
    position: tuple = ()
    passes: int = 0
    iterator_state: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def for_epoch(cls, epoch, seed, entropy, iterator_state=None):
        return cls(seed, entropy, (epoch,), epoch, {} if iterator_state is None else iterator_state)

    def child(self, index, count=None):
        """The key of the ``index``-th pass a node makes over its child within this pass: one of ``count``
        repetitions (a ``repeat``), or, without ``count``, of the node's ``index``-th child."""
        passes = self.passes * count + index if count is not None and count > 0 else self.passes
        return PassKey(self.seed, self.entropy, self.position + (index,), passes, self.iterator_state)

    def generator(self, *, stream=0):
        """A NumPy generator for this pass. ``stream`` separates independent users of one pass."""
        base = self.seed if self.seed is not None else self.entropy
        return np.random.default_rng([base, stream, *self.position])


_INT64_MAX = 2 ** 63 - 1


def _check_num_samples(num_samples):
    """A dataset's ``num_samples`` argument: an int in [0, INT32_MAX]."""
    if num_samples is not None:
        check_int(num_samples, "num_samples", 0)


def _check_sampler_num_samples(num_samples):
    """A sampler's ``num_samples``: MindSpore's samplers take any int in [0, INT64_MAX] (minGPT's trainer
    asks ``RandomSampler(replacement=True, num_samples=int(1e10))`` for an endless stream)."""
    if num_samples is None:
        return
    if not isinstance(num_samples, int):
        raise TypeError(f"num_samples must be integer but was: {num_samples}.")
    if not 0 <= num_samples <= _INT64_MAX:
        raise ValueError(f"num_samples exceeds the boundary between 0 and {_INT64_MAX}(INT64_MAX)!")


class Sampler:
    """Base of the samplers: ``num_samples`` (``None`` or 0: all) caps how many indices a pass gives.

    A user's subclass defines ``__iter__``, as MindSpore's ``Sampler`` asks: every pass iterates it
    anew, with ``self.dataset_size`` set to the source's row count first.
    """

    def __init__(self, num_samples=None):
        _check_sampler_num_samples(num_samples)
        self.num_samples = num_samples or None

    def _all_indices(self, n, key):
        return self._user_indices(n)

    def _count(self, n):
        """How many indices ``_all_indices`` gives for a source of ``n`` rows."""
        return len(self._user_indices(n))

    def _user_indices(self, n):
        if not hasattr(type(self), "__iter__"):
            raise TypeError(f"{type(self).__name__} derives from mindspore.dataset.Sampler but defines no "
                            f"__iter__ giving the indices of a pass.")
        self.dataset_size = n
        indices = _index_array(list(iter(self)))
        _check_in_range(indices, n)
        return indices

    def indices(self, n, key):
        """The source indices of the pass ``key`` over a source of ``n`` rows (an int64 array)."""
        chosen = self._all_indices(n, key)
        return chosen if self.num_samples is None else chosen[:self.num_samples]

    def size(self, n):
        """The number of rows one pass reads from a source of ``n`` rows."""
        count = self._count(n)
        return count if self.num_samples is None else min(count, self.num_samples)


class SequentialSampler(Sampler):
    """Indices in order from ``start_index`` (default 0)."""

    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        if start_index is not None and (not isinstance(start_index, int) or start_index < 0):
            raise ValueError(f"start_index should be a non-negative int, but got {start_index!r}.")
        self.start_index = start_index or 0

    def _all_indices(self, n, key):
        return np.arange(min(self.start_index, n), n, dtype=np.int64)

    def _count(self, n):
        return max(n - self.start_index, 0)


class RandomSampler(Sampler):
    """A fresh random order every pass; with ``replacement``, ``n`` indices drawn independently
    (as MindSpore, never more than the source's ``n`` rows, whatever ``num_samples``)."""

    def __init__(self, replacement=False, num_samples=None):
        super().__init__(num_samples)
        check_bool(replacement, "replacement")
        self.replacement = replacement
        self._orders = {}   # the last seeded order per (rows, seed): stdshuffle.pass_order's cache

    def _all_indices(self, n, key):
        if key.seed is not None:
            if self.replacement:
                return pass_draws(n, n if self.num_samples is None else min(n, self.num_samples), key.seed, key.passes)
            return pass_order(n, key.seed, key.passes, self._orders)
        rng = key.generator()
        if self.replacement:
            return rng.integers(0, n, size=n, dtype=np.int64)
        return rng.permutation(n).astype(np.int64)

    def _count(self, n):
        return n


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: every shard gets ``ceil(n / num_shards)`` rows, taking
    every ``num_shards``-th index of the (shuffled) order and wrapping around to fill the last ones.

    The shuffled order of every pass is MindSpore 2.10's, the same in every process: ``RandomSampler``'s orders
    (``stdshuffle.pass_order``) of the pipeline seed the sampler was made with (``dataset.config.get_seed()``,
    5489 when none was set) plus one, every iterator starting again from the first."""

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        check_shards(num_shards, shard_id)
        check_bool(shuffle, "shuffle")
        self.num_shards, self.shard_id, self.shuffle, self.offset = num_shards, shard_id, shuffle, offset
        self.seed = config.get_seed()
        self._orders: dict = {}   # stdshuffle.pass_order's cache

    def _all_indices(self, n, key):
        if n == 0:
            return np.zeros(0, np.int64)
        order = pass_order(n, (self.seed + 1) % (1 << 32), key.passes, self._orders) if self.shuffle else np.arange(n)
        positions = np.arange(self.shard_id, self._count(n) * self.num_shards, self.num_shards)
        return order[positions % n].astype(np.int64)

    def _count(self, n):
        return math.ceil(n / self.num_shards)


class SubsetSampler(Sampler):
    """The given ``indices``, in the given order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        self.subset = _index_array(indices)

    def _all_indices(self, n, key):
        _check_in_range(self.subset, n)
        return self.subset

    def _count(self, n):
        return len(self.subset)


class SubsetRandomSampler(SubsetSampler):
    """The given ``indices`` (the first ``num_samples`` of them) in a new random order every pass; seeded,
    MindSpore's orders (``stdshuffle.subset_order``)."""

    def _all_indices(self, n, key):
        subset = super()._all_indices(n, key)[:self.num_samples]   # as MindSpore, shuffles only the kept ones
        if key.seed is not None:
            return subset_order(subset, key.seed, key.passes)
        return key.generator().permutation(subset)


class SplitPartSampler(Sampler):
    """One part of :meth:`Dataset.split` of a random-access source: of the indices ``base`` (the source's own sampler)
    gives in a pass, those at positions ``start`` to ``start + count`` of a permutation, as MindSpore 2.10 chains a
    ``RandomSampler`` that does not reshuffle under the source's sampler: with a seed, the first pass's order of the
    seed the iterator is made with (``stdshuffle.pass_order``), at every pass; unseeded, ``unseeded_order`` (drawn once
    by ``split``, so the parts stay disjoint); without ``randomize``, the positions in order."""

    def __init__(self, base, start, count, randomize, unseeded_order=None):
        super().__init__()
        self.base, self.start, self.count = base, start, count
        self.randomize, self.unseeded_order = randomize, unseeded_order
        self._orders: dict = {}   # stdshuffle.pass_order's cache

    def _all_indices(self, n, key):
        ids = self.base.indices(n, key)
        if not self.randomize:
            positions = np.arange(len(ids))
        elif key.seed is not None:
            positions = pass_order(len(ids), key.seed, 0, self._orders)
        else:
            positions = self.unseeded_order
        return ids[positions[self.start:self.start + self.count]]

    def _count(self, n):
        return self.count


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices (default: one per row of the source) of ``[0, len(weights))``, each drawn with
    probability proportional to its weight, with or without ``replacement``. Seeded, MindSpore's draws, the same at
    every pass (``stdshuffle.weighted_draws``); unseeded, a fresh draw every pass.

    Raises:
        TypeError: If a weight is not a number or ``replacement`` not a bool.
        ValueError: If ``weights`` is empty, a weight is negative or all are zero, ``num_samples`` is not
            positive, or (without replacement) exceeds the weights that are not zero.
    """

    def __init__(self, weights, num_samples=None, replacement=True):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        if not isinstance(weights, (list, tuple)):
            weights = [weights]
        for i, weight in enumerate(weights):
            if isinstance(weight, bool) or not isinstance(weight, (int, float)):
                raise TypeError(f"type of weights element must be number, but got w[{i}]: {weight}, type: "
                                f"{type(weight)}.")
        if not weights or min(weights) < 0 or max(weights) == 0:
            raise ValueError(f"weights should be a non-empty list of non-negative numbers, not all zero, but got "
                             f"{list(weights)}.")
        if num_samples is not None:
            check_int(num_samples, "num_samples", 1)
        count = len(weights) if num_samples is None else num_samples
        if not replacement and count > sum(1 for w in weights if w > 0):
            raise ValueError(f"num_samples {count} should not exceed the weights that are not zero when "
                             f"replacement is False.")
        super().__init__(num_samples)
        self._given = list(weights)
        self.weights = np.asarray(weights, np.float64) / float(sum(weights))
        self.replacement = replacement

    def _all_indices(self, n, key):
        if key.seed is not None:
            indices = weighted_draws(self._given, self._count(n), self.replacement, key.seed)
        else:
            indices = key.generator().choice(len(self.weights), size=self._count(n), replace=self.replacement,
                                             p=self.weights).astype(np.int64)
        _check_in_range(indices, n)
        return indices

    def _count(self, n):
        """As MindSpore: ``num_samples``, at most ``n``; without it, ``n`` (one per row, not per weight)."""
        return n if self.num_samples is None else min(self.num_samples, n)


class IterableSampler(SubsetSampler):
    """A user's sampler: any iterable of indices (read anew every pass), as MindSpore accepts."""

    def __init__(self, iterable):
        Sampler.__init__(self)
        self.iterable = iterable

    def _all_indices(self, n, key):
        indices = _index_array(list(self.iterable))
        _check_in_range(indices, n)
        return indices

    def _count(self, n):
        return len(_index_array(list(self.iterable)))


def _index_array(indices):
    array = np.asarray(indices)
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise TypeError(f"A sampler's indices must be a flat sequence of ints, but got {indices!r}.")
    return array.astype(np.int64)


def _check_in_range(indices, n):
    bad = indices[(indices < 0) | (indices >= n)]
    if bad.size:
        raise RuntimeError(f"Sample ID ({int(bad[0])}) is out of bound, expected range [0, {n - 1}].")


def check_shards(num_shards, shard_id):
    """Check a ``num_shards``/``shard_id`` pair (both ``None``, or a valid shard)."""
    if (num_shards is None) != (shard_id is None):
        raise ValueError("num_shards and shard_id need to be passed in together.")
    if num_shards is None:
        return
    check_int(num_shards, "num_shards", 1)
    check_int(shard_id, "shard_id", 0)
    if shard_id >= num_shards:
        raise ValueError("shard_id should be less than num_shards.")


def sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id, default_shuffle=True):
    """The sampler a random-access source uses, from its MindSpore arguments.

    Raises:
        ValueError: if ``sampler`` is given together with ``shuffle`` or sharding, or the shard
            arguments are inconsistent.
        TypeError: if ``shuffle`` is not a bool.
    """
    check_shards(num_shards, shard_id)
    _check_num_samples(num_samples)
    if shuffle is not None:
        check_bool(shuffle, "shuffle")
    if sampler is not None:
        if shuffle is not None or num_shards is not None:
            raise ValueError(f"Conflicting arguments during sampler assignments. num_samples: {num_samples}, "
                             f"num_shards: {num_shards}, shard_id: {shard_id}, shuffle: {shuffle}.")
        if isinstance(sampler, Sampler):
            return sampler
        if hasattr(sampler, "__iter__") or hasattr(sampler, "__getitem__"):
            return IterableSampler(sampler)
        raise TypeError(f"sampler must be a mindspore.dataset sampler or an iterable of indices, "
                        f"but got {type(sampler).__name__}.")
    shuffle = default_shuffle if shuffle is None else shuffle
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle, num_samples=num_samples)
    if shuffle:   # as MindSpore's select_sampler: a shuffled source given num_samples draws with replacement
        return RandomSampler(replacement=num_samples is not None, num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)
