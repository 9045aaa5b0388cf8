"""Pipeline-wide settings, as ``mindspore.dataset.config``.

The seed that seeded shuffles use is the one set last by either ``dataset.config.set_seed`` or
``npspore.set_seed`` (MindSpore's global ``set_seed`` also seeds the data pipeline, while
``dataset.config.set_seed`` leaves the global seed alone). With no seed set, ``get_seed`` returns
MindSpore's default 5489 but unsharded shuffles draw a fresh order every run, as MindSpore's do.
Worker counts, the prefetch size and the shared-memory flag are recorded and reported; npspore's pipeline runs in the
calling thread, so they do not change results.
"""
from __future__ import annotations

import os
import random

import numpy as np

from ..common import seed as global_seed
from .arguments import check_int

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size", "set_enable_shared_mem", "get_enable_shared_mem"]

_DEFAULT_SEED = 5489
_UINT32_MAX = 4294967295

_seed = None
# The global generator at the time of the last dataset.config.set_seed: npspore.set_seed replaces
# that object, so a different one means the global seed was set later and wins.
_generator_at_seed = None
_num_parallel_workers = min(os.cpu_count() or 1, 8)
_prefetch_size = 16
_enable_shared_mem = True


def set_seed(seed):
    """Set the seed of the data pipeline's random operations (shuffles, random transforms), and, as MindSpore's
    does, of Python's ``random`` and of ``numpy.random``.

    Args:
        seed (int): in [0, 4294967295].

    Raises:
        TypeError: if ``seed`` is not an int.
        ValueError: if ``seed`` is out of range.
    """
    global _seed, _generator_at_seed
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed isn't of type int.")
    if not 0 <= seed <= _UINT32_MAX:
        raise ValueError(f"seed given is not within the required range [0, UINT32_MAX({_UINT32_MAX})].")
    _seed = seed
    _generator_at_seed = global_seed.default_rng()
    random.seed(seed)          # as MindSpore's: its Python transforms draw from these two
    np.random.seed(seed)


def user_seed():
    """The seed set by ``dataset.config.set_seed`` or ``npspore.set_seed`` (the later one), or ``None``."""
    if _seed is not None and global_seed.default_rng() is _generator_at_seed:
        return _seed
    return global_seed.get_seed()


def get_seed():
    """The pipeline's seed: the last one set (see the module docstring), else MindSpore's default 5489."""
    seed = user_seed()
    return _DEFAULT_SEED if seed is None else seed


def set_num_parallel_workers(num):
    """Set the default number of workers of dataset operations (recorded; npspore runs them in-line).

    Raises:
        TypeError: if ``num`` is not an int.
        ValueError: if ``num`` is not in [1, 2147483647].
    """
    global _num_parallel_workers
    check_int(num, "num", 1)
    _num_parallel_workers = num


def get_num_parallel_workers():
    """The default number of workers of dataset operations (the number of CPUs up to 8, unless set)."""
    return _num_parallel_workers


def set_prefetch_size(size):
    """Set the queue size between operations (recorded; npspore's pipeline pulls rows on demand).

    Raises:
        TypeError: if ``size`` is not an int.
        ValueError: if ``size`` is not in [1, 2147483647].
    """
    global _prefetch_size
    check_int(size, "size", 1)
    _prefetch_size = size


def get_prefetch_size():
    """The queue size between operations (16 unless set)."""
    return _prefetch_size


def set_enable_shared_mem(enable):
    """Set whether worker processes pass rows through shared memory (recorded; npspore's pipeline has
    no worker processes).

    Raises:
        TypeError: if ``enable`` is not a bool.
    """
    global _enable_shared_mem
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    _enable_shared_mem = enable


def get_enable_shared_mem():
    """Whether worker processes pass rows through shared memory (True unless set)."""
    return _enable_shared_mem


def set_numa_enable(numa_enable):
    """Set whether MindSpore binds dataset threads to NUMA nodes (recorded; npspore's pipeline binds none).

    Raises:
        TypeError: if ``numa_enable`` is not a bool.
    """
    global _numa_enable
    if not isinstance(numa_enable, bool):
        raise TypeError("numa_enable must be a boolean dtype.")
    _numa_enable = numa_enable


def get_numa_enable():
    """Whether dataset threads are bound to NUMA nodes (False unless set)."""
    return _numa_enable


_numa_enable = False


# MindSpore's tuning and debugging switches, recorded and reported (npspore's pipeline has no
# autotuner, no device offload and runs its maps in the calling thread, where a debugger already reaches them)
_autotune = {"enable": False, "filepath_prefix": None, "interval": 0}
_auto_offload = False
_debug_mode = False
__all__ += ["set_enable_autotune", "get_enable_autotune", "set_autotune_interval", "get_autotune_interval",
            "set_auto_offload", "get_auto_offload", "set_debug_mode", "get_debug_mode"]


def set_enable_autotune(enable: bool, filepath_prefix: str | None = None) -> None:
    """Set whether MindSpore tunes the pipeline's workers and queues (recorded; npspore has no autotuner).

    Raises:
        TypeError: if ``enable`` is not a bool or ``filepath_prefix`` not a str (MindSpore's messages).
    """
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    if filepath_prefix is not None and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix}.")
    _autotune.update(enable=enable, filepath_prefix=filepath_prefix)


def get_enable_autotune() -> bool:
    """Whether autotuning was asked for (False unless set)."""
    return _autotune["enable"]


def set_autotune_interval(interval: int) -> None:
    """Set the autotuner's step interval (recorded).

    Raises:
        TypeError: if ``interval`` is not an int. ValueError: if it is negative or above INT32_MAX.
    """
    if not isinstance(interval, int) or isinstance(interval, bool):
        raise TypeError("interval must be of type int.")
    if not 0 <= interval <= 2147483647:
        raise ValueError("Interval given is not within the required range [0, INT32_MAX(2147483647)].")
    _autotune["interval"] = interval


def get_autotune_interval() -> int:
    """The autotuner's step interval (0 unless set)."""
    return _autotune["interval"]


def set_auto_offload(offload: bool) -> None:
    """Set whether MindSpore moves map operations to the device (recorded; npspore runs them on NumPy).

    Raises:
        TypeError: if ``offload`` is not a bool.
    """
    global _auto_offload
    if not isinstance(offload, bool):
        raise TypeError("offload must be a bool dtype")
    _auto_offload = offload


def get_auto_offload() -> bool:
    """Whether automatic offload was asked for (False unless set)."""
    return _auto_offload


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list | None = None) -> None:
    """Set MindSpore's dataset debug mode (recorded: npspore's maps already run in the calling thread, one row at a
    time, so breakpoints in them are reached).

    Raises:
        TypeError: if ``debug_mode_flag`` is not a bool.
        ValueError: if ``debug_hook_list`` is given (npspore runs no debug hooks).
    """
    global _debug_mode
    if not isinstance(debug_mode_flag, bool):
        raise TypeError("debug_mode_flag isn't of type boolean.")
    if debug_hook_list:
        raise ValueError("set_debug_mode: npspore runs no debug hooks (debug_hook_list must be None).")
    _debug_mode = debug_mode_flag


def get_debug_mode() -> bool:
    """Whether the debug mode was set (False unless set)."""
    return _debug_mode
