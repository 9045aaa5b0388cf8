"""The allocator policy of processes that run compiled kernels: freed heap memory is kept for the next call.

A kernel's temporaries that no workspace holds (NumPy's own buffers inside ``matmul``, ``einsum`` and
reductions, the values a forward function hands its backward function) are freed when a call returns.
glibc's ``malloc`` then gives the top of the heap back to the system as soon as more than 128 KiB of it is
free (``M_TRIM_THRESHOLD``), and maps every block over 128 KiB afresh (``M_MMAP_THRESHOLD``), so the next
call of the same kernel faults the same pages in again: about 1,700 minor page faults and 3 ms of system
time per LeNet training step. Compiled frameworks keep such memory (PyTorch's caching allocator, XLA's
buffer assignment); :func:`keep_freed_memory` makes glibc do the same for npspore's kernels:

* ``M_TRIM_THRESHOLD`` = :data:`TRIM_THRESHOLD` (512 MiB): the top of the heap goes back to the system
  only when more than that is free;
* ``M_MMAP_MAX`` = 0: no block is mapped on its own; blocks of any size come from the heap and are reused
  instead of being mapped and unmapped on every call. (``M_MMAP_THRESHOLD`` cannot do this for all: glibc
  refuses thresholds over 32 MiB, and a kernel's result can be larger — the per-sample weight gradients
  of ``vmap(grad)`` over a 784x256 layer and 64 samples are 51 MB, faulted in afresh on every call:
  281 minor faults and about 7 ms of system time per call, as long as the kernel's own work.)

The process keeps its peak heap (up to the trim threshold) instead of returning it between calls; a large
block freed below the top of the heap stays with the process until a later block reuses it. The
policy is set once, when the first kernel module loads (``npspore.runtime`` imports this module's
:func:`keep_freed_memory`), on Linux with glibc only; ``NPSPORE_KEEP_FREED_MEMORY=0`` leaves the
allocator as it was.
"""
from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["keep_freed_memory", "TRIM_THRESHOLD"]

TRIM_THRESHOLD = 512 << 20
_M_TRIM_THRESHOLD, _M_MMAP_MAX = -1, -4    # glibc's <malloc.h>
_applied: list = []


def keep_freed_memory() -> bool:
    """Set the policy of the module docstring once per process; whether it is in force.

    Returns False (and changes nothing) when ``NPSPORE_KEEP_FREED_MEMORY`` is ``0``, off Linux, or when the
    C library is not glibc (no ``mallopt``)."""
    if not _applied:
        _applied.append(_apply())
    return _applied[0]


def _apply() -> bool:
    if os.environ.get("NPSPORE_KEEP_FREED_MEMORY", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt   # the process's own symbols: the C library Python runs on
    except (OSError, AttributeError):         # a C library without mallopt
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and bool(mallopt(_M_MMAP_MAX, 0))
