"""The small pool of helper threads that npspore's split work runs on (products, row blocks).

A piece of work is cut into blocks (by :mod:`npspore.core.matmul_split` for a large matrix product, by
:mod:`npspore.core.split_rows` for a run of elementwise statements), which the calling thread and the pool's
helpers take in turn (:func:`run_blocks`; or :func:`start_blocks`, the calling thread going on with other work
until :func:`finish_blocks`: a product a loop overlaps). NumPy releases the GIL inside its loops, so the blocks
run in parallel; a helper waits for work on a lock (it sleeps, never spins), and the calling thread takes every
block no helper has started, so a helper that the OS does not schedule in time costs nothing but its
wake-up. :func:`set_helpers` sets the pool's size (the policy of :mod:`npspore.core.threads`).
"""
from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence

__all__ = ["run_blocks", "start_blocks", "finish_blocks", "set_helpers", "helper_count"]


class _Job:
    """One piece of split work: its blocks, handed out one at a time to whichever thread asks first."""

    __slots__ = ("compute_block", "bounds", "pending", "finished")

    def __init__(self, compute_block: Callable, bounds: Sequence):
        self.compute_block = compute_block
        self.bounds = bounds
        self.pending = iter(bounds)           # a list iterator: ``next`` is atomic under the GIL
        self.finished: queue.SimpleQueue = queue.SimpleQueue()

    def compute(self) -> int:
        """Compute blocks until none is left; how many this thread computed."""
        done = 0
        for start, stop in self.pending:
            self.compute_block(start, stop)
            done += 1
        return done


class _Pool:
    """Helper threads that sleep on a queue until a job needs them (daemons: they never keep a process
    alive)."""

    def __init__(self):
        self.work: queue.SimpleQueue = queue.SimpleQueue()
        self.helpers: list = []
        self.wanted = 0
        self.lock = threading.Lock()

    def resize(self, count: int) -> None:
        with self.lock:
            self.wanted = count
            while len(self.helpers) < count:
                helper = threading.Thread(target=self._serve, name=f"npspore-helper-{len(self.helpers)}",
                                          daemon=True)
                self.helpers.append(helper)
                helper.start()
            while len(self.helpers) > count:
                self.helpers.pop()
                self.work.put(None)       # one helper leaves

    def _serve(self) -> None:
        while True:
            job = self.work.get()
            if job is None:
                return
            try:
                job.finished.put(job.compute())
            except Exception as error:    # handed to the calling thread, which raises it
                job.finished.put(error)


_POOL = _Pool()


def _after_fork_in_child() -> None:
    """A forked child has none of its parent's threads: it starts its own helpers, as many as the parent had."""
    global _POOL
    wanted, _POOL = _POOL.wanted, _Pool()
    _POOL.resize(wanted)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def set_helpers(count: int) -> None:
    """Keep ``count`` helper threads (0: the calling thread does all split work itself, with the same
    results)."""
    _POOL.resize(max(0, count))


def helper_count() -> int:
    """The number of helper threads split work runs on (besides the calling thread)."""
    return _POOL.wanted


def run_blocks(compute_block: Callable[[int, int], object], bounds: Sequence[tuple]) -> None:
    """Call ``compute_block(start, stop)`` once for each ``(start, stop)`` of ``bounds``, on the calling
    thread and the pool's helpers; returns when every block is done, raising the first error a block
    raised. The blocks must write disjoint memory."""
    finish_blocks(start_blocks(compute_block, bounds, helpers=min(_POOL.wanted, len(bounds) - 1)))


def start_blocks(compute_block: Callable[[int, int], object], bounds: Sequence[tuple],
                 helpers: int | None = None) -> _Job:
    """Hand the blocks of ``bounds`` to ``helpers`` of the pool's helpers (default: all of them, at most one
    a block) and return at once: the calling thread goes on with other work until :func:`finish_blocks`.
    The blocks must write disjoint memory that nothing reads or writes before :func:`finish_blocks`."""
    job = _Job(compute_block, bounds)
    for _ in range(min(_POOL.wanted, len(bounds)) if helpers is None else helpers):
        _POOL.work.put(job)
    return job


def finish_blocks(job: _Job) -> None:
    """Compute the blocks of ``job`` no helper has started, then wait for those the helpers took, raising the
    first error a block raised."""
    waiting = len(job.bounds) - job.compute()     # the blocks helpers took, still to report
    while waiting:
        report = job.finished.get()
        if isinstance(report, Exception):
            raise report
        waiting -= report
