"""The global random seed, as in ``mindspore.set_seed`` / ``mindspore.get_seed``.

Random ops draw from one NumPy ``Generator`` (:func:`default_rng`); ``set_seed`` replaces it with a
generator seeded by the given value. Like MindSpore, it also seeds NumPy's legacy global generator, from
which the initializers take their seeds (:mod:`npspore.common.philox`), so the same seed gives the same
initial weights, MindSpore's.
"""
from __future__ import annotations

import numpy as np

__all__ = ["set_seed", "get_seed"]

_seed = None
_rng = None     # made on first use: numpy.random costs ~5 ms to import
_op_rngs: dict = {}   # a per-call seed's generator, by that seed (MindSpore keeps one state per op seed)


def set_seed(seed):
    """Set the global seed.

    Args:
        seed (int): a non-negative integer.

    Raises:
        TypeError: if ``seed`` is not an int.
        ValueError: if ``seed`` is negative.
    """
    global _seed, _rng, _op_rngs
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"The argument 'seed' must be type of int, but got {type(seed)}.")
    if seed < 0:
        raise ValueError(f"For 'global_seed', the 'seed' must be int and must >= 0, but got {seed} with type int.")
    np.random.seed(seed)
    _seed = seed
    _rng = np.random.default_rng(seed)
    _op_rngs = {}


def get_seed():
    """The global seed, or ``None`` if :func:`set_seed` was never called."""
    return _seed


def default_rng() -> np.random.Generator:
    """The generator that random ops draw from (reseeded by :func:`set_seed`)."""
    global _rng
    if _rng is None:
        _rng = np.random.default_rng()
    return _rng


def op_rng(seed=None) -> np.random.Generator:
    """The generator a random op draws from: :func:`default_rng`, or for a per-call ``seed`` (an int, as
    ``ops.normal(..., seed=5)`` takes) a generator of its own, seeded by the global seed and ``seed``.

    As MindSpore's, a seeded op's successive calls draw new numbers, and a program that sets the same seeds
    draws the same ones on every run (with or without ``set_seed``); the numbers are not MindSpore's.
    """
    if seed is None:
        return default_rng()
    if seed not in _op_rngs:
        _op_rngs[seed] = np.random.default_rng([0 if _seed is None else _seed, seed])
    return _op_rngs[seed]
