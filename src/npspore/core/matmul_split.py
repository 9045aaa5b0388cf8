"""Large matrix products split into blocks that a small pool of threads computes, one BLAS thread each.

OpenBLAS's own threads spin while they wait for work, so with other processes on the cores a step took
many times longer (:mod:`npspore.core.threads`); npspore therefore runs BLAS on one thread. A product
large enough to be worth a second core is instead cut here into blocks of output rows (or columns, the
longer side; or of its leading batch dim), which the calling thread and the pool's helpers take in turn.
NumPy releases the GIL inside ``matmul``, so the blocks run in parallel; a helper waits for work on a
lock (it sleeps, never spins), and the calling thread takes every block no helper has started, so a
helper that the OS does not schedule in time costs nothing but its wake-up.

Deterministic: the blocks depend only on the operands' shapes (:func:`blocks`), never on the number of
threads or on which thread computes which block, so a product gives the same bits on every run. Without
helpers the product is one ``np.matmul``, with the same bits: a block of rows (columns, matrices) of a
product is summed over the shared dim in the same order as the whole product (OpenBLAS blocks that dim
by its length alone; ``tests/test_matmul_split.py`` checks it), so the thread count does not change them.

The compiler calls :func:`matmul_split` (``rt.matmul_split(a, b, out=...)`` in a kernel) only for products
of at least :data:`MIN_FLOPS` floating-point operations, decided from the static shapes by optimize
(``compiler/splitproducts.py`` makes such a ``matmul`` the op ``matmul_split``, which ``npspore show
--dump-after optimize`` shows); :func:`set_helpers` sets the pool's size (the policy of
:mod:`npspore.core.threads`). Measured with ``tools/bench_threads.py --workload T4`` (or ``T3``) on a
2-core machine that other processes kept busy: 0.55 (T3: 0.46) of one thread's step time with two busy
loops added, 0.65-1.04 without them, where OpenBLAS's own threads took 10-55 times as long.
"""
from __future__ import annotations

import os
import queue
import threading

import numpy as np

__all__ = ["MIN_FLOPS", "worth_splitting", "blocks", "matmul_split", "set_helpers", "helper_count"]

MIN_FLOPS = 8_000_000          # about 60 µs on one core: well above a helper's hand-over (~10 µs)
_BLOCK_FLOPS = 4_000_000       # a block at least this large (BLAS stays efficient)
_MAX_BLOCKS = 4                # the calling thread catches up on blocks a late helper has not taken
_MIN_EXTENT = 16               # rows or columns per block


def _flops(a_shape: tuple, b_shape: tuple) -> int:
    batch = 1
    for dim in a_shape[:-2]:
        batch *= dim
    return 2 * batch * a_shape[-2] * a_shape[-1] * b_shape[-1]


def worth_splitting(a_shape: tuple, b_shape: tuple) -> bool:
    """Whether the product of operands of these static shapes is split (rank 2, or equal batch dims):
    at least :data:`MIN_FLOPS` and at least two blocks (:func:`blocks`)."""
    if len(a_shape) < 2 or len(b_shape) < 2 or tuple(a_shape[:-2]) != tuple(b_shape[:-2]):
        return False
    return _flops(a_shape, b_shape) >= MIN_FLOPS and len(blocks(a_shape, b_shape)[1]) > 1


def blocks(a_shape: tuple, b_shape: tuple) -> tuple:
    """``(axis, bounds)``: the output axis the product is cut along (0 batch, -2 rows, -1 columns) and the
    ``(start, stop)`` of each block. A function of the shapes only."""
    flops = _flops(a_shape, b_shape)
    count = max(1, min(_MAX_BLOCKS, flops // _BLOCK_FLOPS))
    if len(a_shape) > 2:
        axis, extent, least = 0, a_shape[0], 1
    elif a_shape[-2] >= b_shape[-1]:
        axis, extent, least = -2, a_shape[-2], _MIN_EXTENT
    else:
        axis, extent, least = -1, b_shape[-1], _MIN_EXTENT
    count = max(1, min(count, extent // least))
    size = -(-extent // count)
    return axis, tuple((start, min(start + size, extent)) for start in range(0, extent, size))


class _Product:
    """One split product: its blocks, handed out one at a time to whichever thread asks first."""

    __slots__ = ("a", "b", "out", "axis", "pending", "finished")

    def __init__(self, a, b, out, axis, bounds):
        self.a, self.b, self.out, self.axis = a, b, out, axis
        self.pending = iter(bounds)           # a list iterator: ``next`` is atomic under the GIL
        self.finished: queue.SimpleQueue = queue.SimpleQueue()

    def compute(self) -> int:
        """Compute blocks until none is left; how many this thread computed."""
        done = 0
        for start, stop in self.pending:
            part = slice(start, stop)
            if self.axis == 0:
                np.matmul(self.a[part], self.b[part], out=self.out[part])
            elif self.axis == -2:
                np.matmul(self.a[..., part, :], self.b, out=self.out[..., part, :])
            else:
                np.matmul(self.a, self.b[..., part], out=self.out[..., part])
            done += 1
        return done


class _Pool:
    """Helper threads that sleep on a queue until a product needs them (daemons: they never keep a
    process alive)."""

    def __init__(self):
        self.work: queue.SimpleQueue = queue.SimpleQueue()
        self.helpers: list = []
        self.wanted = 0
        self.lock = threading.Lock()

    def resize(self, count: int) -> None:
        with self.lock:
            self.wanted = count
            while len(self.helpers) < count:
                helper = threading.Thread(target=self._serve, name=f"npspore-matmul-{len(self.helpers)}",
                                          daemon=True)
                self.helpers.append(helper)
                helper.start()
            while len(self.helpers) > count:
                self.helpers.pop()
                self.work.put(None)       # one helper leaves

    def _serve(self) -> None:
        while True:
            product = self.work.get()
            if product is None:
                return
            try:
                product.finished.put(product.compute())
            except Exception as error:    # handed to the calling thread, which raises it
                product.finished.put(error)


_POOL = _Pool()


def _after_fork_in_child() -> None:
    """A forked child has none of its parent's threads: it starts its own helpers, as many as the parent had."""
    global _POOL
    wanted, _POOL = _POOL.wanted, _Pool()
    _POOL.resize(wanted)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def set_helpers(count: int) -> None:
    """Keep ``count`` helper threads (0: the calling thread computes each product in one call, with the same
    results)."""
    _POOL.resize(max(0, count))


def helper_count() -> int:
    """The number of helper threads products are split across (besides the calling thread)."""
    return _POOL.wanted


def matmul_split(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``np.matmul(a, b, out=out)`` computed block by block (:func:`blocks`) by the calling thread and the
    pool's helpers; ``out`` (made when not given) must not overlap ``a`` or ``b``."""
    if not _POOL.wanted:      # one thread: one call (blocks computed one after another cost 7-24 % more)
        return np.matmul(a, b, out=out)
    if out is None:
        out = np.empty(a.shape[:-1] + b.shape[-1:], np.result_type(a, b))
    axis, bounds = blocks(a.shape, b.shape)
    product = _Product(a, b, out, axis, bounds)
    helpers = min(_POOL.wanted, len(bounds) - 1)
    for _ in range(helpers):
        _POOL.work.put(product)
    waiting = len(bounds) - product.compute()     # the blocks helpers took, still to report
    while waiting:
        report = product.finished.get()
        if isinstance(report, Exception):
            raise report
        waiting -= report
    return out
