"""Counting and sampling functions behind primitive classes of ``mindspore.ops.operations`` named A-L, made by the
primitive table (:mod:`npspore.ops.primitive_table`): ``Histogram``, ``Bincount``, ``Bernoulli`` and
``LogNormalReverse``.

Compositions of op-table ops, eager and compiled; the samplers draw from npspore's seeded generator (``set_seed``;
MindSpore's ``seed``/``offset`` arguments are recorded), so their values are npspore's draws with MindSpore's
distribution.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from .eager import run
from .numeric import _check_tensor

__all__ = ["histogram", "bincount", "bernoulli", "log_normal_reverse"]


def _counts(bin_index: Tensor, bins: int, weights=None) -> Tensor:
    """How many entries of the int ``bin_index`` (flat) fall in each of ``bins`` bins (weighted: their sum)."""
    slots = Tensor(np.arange(bins, dtype=np.int32).reshape(1, -1))
    hits = F.equal(F.reshape(bin_index, (-1, 1)), slots)                                 # (n, bins)
    if weights is None:
        return F.reduce_sum(F.cast(hits, mstype.int32), 0)
    return F.reduce_sum(F.cast(hits, weights.dtype) * F.reshape(weights, (-1, 1)), 0)


def histogram(x: Tensor, bins: int = 100, min: float = 0.0,  # noqa: A002 - MindSpore's names
              max: float = 0.0) -> Tensor:  # noqa: A002
    """The counts of ``x``'s elements in ``bins`` equal bins over ``[min, max]`` (the last bin closed; elements
    outside ignored; ``min == max``: the elements' own range), in ``x``'s dtype."""
    _check_tensor("Histogram", "x", x)
    if min > max:
        raise ValueError(f"For 'Histogram', 'min' must be less than or equal to 'max', but got {min} and {max}.")
    values = F.cast(x, mstype.float64)
    low, high = (F.reduce_min(values), F.reduce_max(values)) if min == max else (min, max)
    span = F.maximum(high - low, 1e-300) if min == max else high - low
    index = F.cast(F.floor((values - low) / span * bins), mstype.int32)
    index = F.where(F.equal(values, high), bins - 1, index)
    inside = F.logical_and(F.greater_equal(values, low), F.less_equal(values, high))
    return F.cast(_counts(F.where(inside, index, -1), bins), x.dtype)


def bincount(array: Tensor, size: Tensor, weights: Tensor) -> Tensor:
    """``out[i]`` = the sum of ``weights`` where ``array == i``, for ``i < size`` (a 0-d int Tensor)."""
    _check_tensor("Bincount", "array", array)
    _check_tensor("Bincount", "weights", weights)
    bins = int(size)
    if bins < 0:
        raise ValueError(f"For 'Bincount', the 'size' must be non-negative, but got {bins}.")
    return _counts(F.cast(array, mstype.int32), bins, weights)


def bernoulli(x: Tensor, p=0.5, seed=None, offset: int = 0) -> Tensor:
    """1 with probability ``p`` (a number, as Float32, or a Tensor broadcast to ``x``'s shape), else 0, in ``x``'s
    dtype. With a ``seed`` (or ``offset``), MindSpore's numbers: its ``Bernoulli`` kernel's Philox generator of
    ``(seed, offset)``, which each call restarts after using up the words left in the previous call's last block.
    Without (``seed`` None or -1), MindSpore seeds from ``/dev/urandom``: npspore draws from its seeded generator.

    Raises:
        TypeError: if ``x`` is not a Tensor or ``seed`` not an int.
    """
    _check_tensor("Bernoulli", "x", x)
    seed = -1 if seed is None else seed
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"For 'bernoulli', the 'seed' must be an int, but got {type(seed).__name__}.")
    if seed == -1 and offset == 0:
        draws = run("random_uniform", shape=tuple(x.shape), dtype=np.dtype(np.float64))
        return F.cast(F.less(draws, p), x.dtype)
    p = p if isinstance(p, Tensor) else Tensor(p, mstype.float32)
    return run("bernoulli_draw", p, shape=tuple(x.shape), dtype=_np_dtype(x.dtype), seeds=(seed, offset))


def log_normal_reverse(input: Tensor, mean: float = 1.0, std: float = 2.0) -> Tensor:  # noqa: A002
    """Samples of ``exp(N(mean, std ** 2))`` of ``input``'s shape and dtype."""
    _check_tensor("LogNormalReverse", "input", input)
    draws = run("random_normal", shape=tuple(input.shape), dtype=_np_dtype(input.dtype))
    return F.exp(draws * std + mean)
