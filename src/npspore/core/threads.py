"""How many threads BLAS may use for npspore's work: one policy, applied through ``threadpoolctl``.

npspore's kernels are sequences of small NumPy operations; their matrix products are small (a
LeNet step's largest is a few MFLOP). A multi-threaded BLAS gains little on them and loses badly
when the machine is busy: OpenBLAS's threads wait for each other on every product, so with other
processes on the cores a LeNet step took 1368 ms instead of 18 ms, and the summation order (hence
the trained weights) depended on the thread count. The policy:

- by default one BLAS thread, unless the user chose a count for the process through
  ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``, ``MKL_NUM_THREADS`` or ``BLIS_NUM_THREADS``,
  which are then left as they are;
- ``set_context(runtime_num_threads=N)`` (MindSpore's setting of its CPU kernels' thread pool):
  ``N`` threads, at most the cores this process may run on; ``0`` all of those cores.

The count is set once per setting — when the setting changes, or when npspore runs its first eager
op or builds its first kernel (:func:`ensure_blas_threads`) — never per call: a kernel call pays
nothing, an eager op one attribute test.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

__all__ = ["BLAS_ENVIRONMENT", "usable_cores", "blas_thread_count", "set_runtime_num_threads",
           "ensure_blas_threads"]

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
        int | None: the thread count; None to leave BLAS as the environment variables configured it.
    """
    if setting is None:
        return None if any(environment.get(name) for name in BLAS_ENVIRONMENT) else 1
    cores = usable_cores()
    return cores if setting == 0 else min(setting, cores)


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
    if wanted is not None:
        if _State.controllers is None:
            from threadpoolctl import ThreadpoolController  # ~30 ms: only once npspore runs its first op
            _State.controllers = ThreadpoolController().select(user_api="blas").lib_controllers
        for controller in _State.controllers:
            controller.set_num_threads(wanted)
    _State.done = True
