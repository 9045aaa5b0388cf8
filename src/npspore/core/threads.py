"""How many threads npspore's work may use: one policy, for BLAS (through ``threadpoolctl``) and for the
work npspore splits itself on the threads of :mod:`npspore.core.thread_pool` (large matrix products,
:mod:`npspore.core.matmul_split`; large runs of elementwise statements, :mod:`npspore.core.split_rows`).

OpenBLAS's own threads wait for each other by spinning on every product, so with other processes on the
cores a LeNet step took 1368 ms instead of 18 ms, and the summation order (hence the trained weights)
depended on the thread count. npspore therefore runs BLAS on one thread and gives the other cores to the
products large enough to gain from them: a compiled kernel computes each product above
``matmul_split.MIN_FLOPS`` (decided by optimize from its static shapes: ``matmul_split`` in ``npspore show
--dump-after optimize``, ``rt.matmul_split`` in the kernel's text) in blocks that the calling thread and
sleeping helper threads take in turn (the same bits at every thread count where the BLAS sums a block as the
whole: ``core/matmul_split.py``); so, in blocks of rows,
each run of elementwise statements above ``split_rows.MIN_WORK`` (``split_rows`` in the optimize dump,
``rt.split_rows`` in the kernel). The policy:

- by default, one BLAS thread and products split across every core this process may run on, unless the
  user chose a BLAS thread count for the process through ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``,
  ``MKL_NUM_THREADS`` or ``BLIS_NUM_THREADS``: then BLAS is left as configured and npspore splits nothing
  (its threads would compete with BLAS's);
- ``set_context(runtime_num_threads=N)`` (MindSpore's setting of its CPU kernels' thread pool): ``N``
  threads for npspore's split work (one BLAS thread each), at most the cores this process may run on; ``0``
  all of those cores; ``1`` everything on the calling thread.

The counts are set once per setting — when the setting changes, or when npspore runs its first eager
op or builds its first kernel (:func:`ensure_blas_threads`) — never per call: a kernel call pays
nothing, an eager op one attribute test.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from . import thread_pool

__all__ = ["BLAS_ENVIRONMENT", "usable_cores", "blas_thread_count", "product_thread_count",
           "set_runtime_num_threads", "ensure_blas_threads"]

BLAS_ENVIRONMENT = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


class _State:
    setting: int | None = None      # runtime_num_threads, None while not set
    done = False                    # the count for the current setting is set
    controllers: list[Any] | None = None


def usable_cores() -> int:
    """The number of cores this process may run on (its CPU affinity where the OS reports one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def blas_thread_count(setting: int | None, environment: Mapping[str, str] = os.environ) -> int | None:
    """The BLAS thread count the policy (module docstring) chooses.

    Args:
        setting (int | None): ``runtime_num_threads``, or None when it was not set.
        environment (Mapping[str, str]): the environment variables (default ``os.environ``).

    Returns:
        int | None: 1; None to leave BLAS as the environment variables configured it.
    """
    if setting is None and any(environment.get(name) for name in BLAS_ENVIRONMENT):
        return None
    return 1


def product_thread_count(setting: int | None, environment: Mapping[str, str] = os.environ) -> int:
    """The number of threads (the calling one included) that compute the blocks of a split product.

    Args:
        setting (int | None): ``runtime_num_threads``, or None when it was not set.
        environment (Mapping[str, str]): the environment variables (default ``os.environ``).
    """
    if blas_thread_count(setting, environment) is None:
        return 1
    cores = usable_cores()
    return cores if not setting else min(setting, cores)


def set_runtime_num_threads(setting: int | None) -> None:
    """Record ``runtime_num_threads`` and apply the count it chooses now (None: back to the default)."""
    _State.setting = setting
    _apply()


def ensure_blas_threads() -> None:
    """Apply the policy's count if it was not applied yet in this process (then: one attribute test)."""
    if not _State.done:
        _apply()


def _apply() -> None:
    wanted = blas_thread_count(_State.setting)
    thread_pool.set_helpers(product_thread_count(_State.setting) - 1)
    if wanted is not None:
        if _State.controllers is None:
            from threadpoolctl import ThreadpoolController  # ~30 ms: only once npspore runs its first op
            _State.controllers = ThreadpoolController().select(user_api="blas").lib_controllers
        for controller in _State.controllers:
            controller.set_num_threads(wanted)
    _State.done = True
