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
