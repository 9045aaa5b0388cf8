"""Who is told of the work that runs: the profiler's hook into eager ops and compiled kernels.

``ops.eager.run`` and ``CompiledKernel.run`` time what they run only while ``OBSERVERS`` is not empty
(one list test otherwise) and tell each observer ``record(name, kind, start_ns, duration_ns)``:
``kind`` is ``"op"`` for an op run eagerly (``name`` its op name, ``"matmul"``) or ``"kernel"`` for a
compiled kernel (``name`` its function, ``"Net_construct"``, ``"loss_grad"``).
"""
from __future__ import annotations

import time
from typing import Callable, Protocol, TypeVar

__all__ = ["Observer", "OBSERVERS", "observed"]

R = TypeVar("R")


class Observer(Protocol):
    """What the observers of ``OBSERVERS`` implement."""

    def record(self, name: str, kind: str, start_ns: int, duration_ns: int) -> None: ...


OBSERVERS: list[Observer] = []


def observed(name: str, kind: str, work: Callable[[], R]) -> R:
    """``work()``, timed and reported to every observer."""
    start = time.perf_counter_ns()
    result = work()
    duration = time.perf_counter_ns() - start
    for observer in tuple(OBSERVERS):
        observer.record(name, kind, start, duration)
    return result
