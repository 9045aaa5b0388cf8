"""The global random seed, as in ``mindspore.set_seed`` / ``mindspore.get_seed``.

MindSpore's seeded random primitives draw as its CPU kernels do (:mod:`npspore.common.kernel_random`), from the
seeds :func:`_get_graph_seed` gives them; ``set_seed`` resets the op seeds.
npspore's own random compositions draw from one NumPy ``Generator`` (:func:`default_rng`), which ``set_seed``
replaces with a generator seeded by the given value. Like MindSpore, it also seeds NumPy's legacy global generator, from
which the initializers take their seeds (:mod:`npspore.common.philox`), so the same seed gives the same
initial weights, MindSpore's, and Python's ``random`` (MindSpore's ``set_seed`` sets the dataset seed, which seeds it).

The private ``_get_graph_seed(op_seed, kernel_name)`` is MindSpore's pair of seeds for a random primitive
(``seed0, seed1 = _get_graph_seed(0, "dropout")``, passed to ``DropoutGenMask(Seed0=..., Seed1=...)``): the
global seed (MindSpore's default graph seed when it is 0) and an op seed that each call advances, so that two
primitives made with the same op seed draw differently; ``set_seed`` resets the op seeds.
"""
from __future__ import annotations

import random

import numpy as np

from .._checkparam import check_non_negative_int

__all__ = ["set_seed", "get_seed"]

_seed = None
_rng = None     # made on first use: numpy.random costs ~5 ms to import

# MindSpore's constants of the op seeds (mindspore/common/seed.py)
_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_OP_SEED_STEP = 3528531795 ^ 3449720151
_op_seeds: dict[tuple[str, int], int] = {}    # (kernel name, op seed given) -> the op seed it has now


def set_seed(seed):
    """Set the global seed.

    Args:
        seed (int): a non-negative integer.

    Raises:
        TypeError: if ``seed`` is not an int.
        ValueError: if ``seed`` is negative.
    """
    global _seed, _rng
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"The argument 'seed' must be type of int, but got {type(seed)}.")
    if seed < 0:
        raise ValueError(f"For 'global_seed', the 'seed' must be int and must >= 0, but got {seed} with type int.")
    np.random.seed(seed)
    random.seed(seed)          # MindSpore's sets the dataset seed, which seeds Python's random too
    _seed = seed
    _rng = np.random.default_rng(seed)
    for kernel_name, op_seed in _op_seeds:
        _op_seeds[kernel_name, op_seed] = op_seed



def get_seed():
    """The global seed, or ``None`` if :func:`set_seed` was never called."""
    return _seed


def default_rng() -> np.random.Generator:
    """The generator that random ops draw from (reseeded by :func:`set_seed`)."""
    global _rng
    if _rng is None:
        _rng = np.random.default_rng()
    return _rng


def _get_op_seed(op_seed, kernel_name):
    """The current op seed of random primitive ``kernel_name`` made with ``op_seed`` (``op_seed`` the first time)."""
    return _op_seeds.setdefault((kernel_name, op_seed), op_seed)


def _get_graph_seed(op_seed, kernel_name):
    """The ``(global seed, op seed)`` pair a random primitive ``kernel_name`` made with ``op_seed`` runs with, as
    MindSpore computes it: ``(0, 0)`` (the kernel picks its own) when neither seed is set; otherwise both
    truncated to int32, a global seed of 0 read as MindSpore's default graph seed and an unset one as 0, and the
    op seed advanced after each call.

    Args:
        op_seed (int): the primitive's seed; ``None`` or 0: not set.
        kernel_name (str): the primitive's name (``'dropout'``), which keeps its op seeds apart from others'.

    Returns:
        tuple[int, int]: the two seeds.

    Raises:
        TypeError, ValueError: if a seed is needed and ``op_seed`` is not a non-negative int (MindSpore's
            ``For 'dropout', the 'seed' must be int and must >= 0 ...``).
    """
    global_seed = get_seed()
    if global_seed == 0:
        global_seed = _DEFAULT_GRAPH_SEED
    elif global_seed is None:
        global_seed = 0
    if op_seed is None:
        op_seed = 0
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    check_non_negative_int(op_seed, "seed", kernel_name)
    seeds = global_seed % _MAXINT32, _get_op_seed(op_seed, kernel_name) % _MAXINT32
    _op_seeds[kernel_name, op_seed] += _OP_SEED_STEP
    return seeds
