"""MindSpore's ``mindspore.runtime`` device knobs (``set_memory``, ``launch_blocking``, ``synchronize``), which
``npspore.runtime`` re-exports: npspore runs each op to completion, in this process's memory, so there is no stream to
wait for and no device memory pool to size."""
from __future__ import annotations

import re

_MEMORY_PATTERN = r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_RESERVE_PATTERN = r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_memory_configured = False


def _check_size(value, pattern):
    if not isinstance(value, str) or re.match(pattern, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by flags're.ASCII.'")
    if pattern == _MEMORY_PATTERN and value in ("0GB", "0.0GB"):
        raise ValueError('The memory value should not be "0GB".')


def set_memory(init_size: str = "2GB", increase_size: str = "2GB", max_size: str = "1024GB",
               optimize_level: str = "O0", huge_page_reserve_size: str = "0GB") -> None:
    """Size MindSpore's device memory pool (checked as MindSpore checks it, once per process); npspore's
    arrays live in the process's memory, allocated by NumPy, so there is no pool to size.

    Raises:
        RuntimeError: If it was called before.
        ValueError: If a size is not ``'<number>GB'`` (or is zero), or `optimize_level` is not ``'O0'``/``'O1'``.
    """
    global _memory_configured
    if _memory_configured:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    for size in (init_size, increase_size, max_size):
        _check_size(size, _MEMORY_PATTERN)
    _check_size(huge_page_reserve_size, _RESERVE_PATTERN)
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}.")
    _memory_configured = True


def launch_blocking() -> None:
    """Run each op to completion before the next starts, so errors point at the line that caused them:
    how npspore always runs, eagerly and compiled."""


def synchronize() -> None:
    """Wait for the device's queued work: npspore has none (each op completes when it returns)."""


# the memory pool's statistics. MindSpore documents them for its CPU backend as always 0 (an empty
# dictionary for memory_stats); npspore has no device memory pool either: its arrays are NumPy's.
def _memory_stats_of_an_empty_pool() -> dict:
    return {"total_reserved_memory": 0, "total_allocated_memory": 0, "total_idle_memory": 0,
            "total_eager_free_memory": 0, "max_reserved_memory": 0, "max_allocated_memory": 0,
            "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}}}


def memory_stats() -> dict:
    """The memory pool's statistics: all zero, as MindSpore's CPU backend reports (npspore has no pool)."""
    return _memory_stats_of_an_empty_pool()


def memory_allocated() -> int:
    """Bytes the memory pool has handed out: 0 (see :func:`memory_stats`)."""
    return 0


def max_memory_allocated() -> int:
    """The peak of :func:`memory_allocated`: 0."""
    return 0


def memory_reserved() -> int:
    """Bytes the memory pool holds: 0 (see :func:`memory_stats`)."""
    return 0


def max_memory_reserved() -> int:
    """The peak of :func:`memory_reserved`: 0."""
    return 0


def reset_peak_memory_stats() -> None:
    """Reset the peaks of the pool's statistics (they stay 0)."""


def reset_max_memory_allocated() -> None:
    """Reset the peak of :func:`memory_allocated` (it stays 0)."""


def reset_max_memory_reserved() -> None:
    """Reset the peak of :func:`memory_reserved` (it stays 0)."""


def empty_cache() -> None:
    """Release the memory MindSpore's device pool caches: npspore's arrays are freed by NumPy when no longer
    referenced, so nothing is cached."""
