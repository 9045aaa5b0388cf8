"""Large matrix products split into blocks that a small pool of threads computes, one BLAS thread each.

OpenBLAS's own threads spin while they wait for work, so with other processes on the cores a step took
many times longer (:mod:`npspore.core.threads`); npspore therefore runs BLAS on one thread. A product
large enough to be worth a second core is instead cut here into blocks of output rows (or columns, the
longer side; or of its leading batch dim), which the calling thread and the helpers of
:mod:`npspore.core.thread_pool` take in turn (NumPy releases the GIL inside ``matmul``).

Deterministic: whether a product is split depends only on the operands' shapes (:func:`blocks`, decided
when the kernel is compiled). It is cut into at most :func:`blocks`'s blocks, one per thread (on 2 cores,
two blocks were faster than four: T3's query-key-value product 0.40 ms instead of 0.58, T4's 0.29-0.51 ms
products equal or faster). Without helpers the product is one ``np.matmul``. Where the BLAS sums a block of rows
(columns, matrices) of a product over the shared dim in the same order as the whole product (OpenBLAS on the Intel
machines measured, which blocks that dim by its length alone), neither the blocks nor the thread count change
the bits; OpenBLAS 0.3.31 (NumPy 2.4's) on an AMD EPYC sums a block of rows in another order, so there the bits of
a split product differ by rounding between thread counts (``tests/test_matmul_split.py`` checks which holds). Each
thread count gives the same bits on every call.

A product with a small result (at most :data:`_SMALL_RESULT` elements) and a long shared dim (a convolution's
weight gradient: ``(6, 25088) @ (25088, 25)`` in LeNet) is instead cut along the shared dim into blocks of at
most :data:`_SHARED_BLOCK_WORK` multiply-adds, their products summed in order: OpenBLAS computes such blocks
with its small-matrix kernels, 2-3.5 times faster than the whole product (measured on one thread for results of
150, 400 and 864 elements and shared dims of 3,200 and 25,088; no gain from 1,728 elements up). They are
computed in blocks with or without helpers, so they give the same bits at every thread count (not those of one
``np.matmul``). So is the long side of a result with at most :data:`_NARROW` rows or columns (a convolution's
output channels): LeNet's conv1 product ``(6, 25) @ (25, 25088)`` in 4 blocks of columns 0.14 ms instead of 0.29,
conv2's weight gradient ``(16, 3200) @ (3200, 150)`` in 8, 0.27 ms instead of 0.37 (one thread).

The compiler calls :func:`matmul_split` (``rt.matmul_split(a, b, out=...)`` in a kernel) only for products
of at least :data:`MIN_FLOPS` floating-point operations or cut into small-matrix blocks, decided from the
static shapes by optimize
(``compiler/splitproducts.py`` makes such a ``matmul`` the op ``matmul_split``, which ``npspore show
--dump-after optimize`` shows); :func:`npspore.core.thread_pool.set_helpers` sets the pool's size (the policy of
:mod:`npspore.core.threads`). Measured with ``tools/bench_threads.py --workload T4`` (or ``T3``) on a
2-core machine that other processes kept busy: 0.55 (T3: 0.46) of one thread's step time with two busy
loops added, 0.65-1.04 without them, where OpenBLAS's own threads took 10-55 times as long.
"""
from __future__ import annotations

import threading

import numpy as np

from .thread_pool import finish_blocks, helper_count, run_blocks, start_blocks

__all__ = ["MIN_FLOPS", "SHARED", "NARROW_ROWS", "NARROW_COLUMNS", "worth_splitting", "blocks", "matmul_split",
           "deferrable", "matmul_start", "matmul_wait"]

MIN_FLOPS = 8_000_000          # about 60 µs on one core: well above a helper's hand-over (~10 µs)
_BLOCK_FLOPS = 4_000_000       # a block at least this large (BLAS stays efficient)
_MAX_BLOCKS = 4                # the calling thread catches up on blocks a late helper has not taken
_MIN_EXTENT = 16               # rows or columns per block
SHARED = "shared"              # the axis of :func:`blocks` for a cut along the shared dim
NARROW_ROWS, NARROW_COLUMNS = "narrow rows", "narrow columns"   # ... of a narrow result's long side
_NARROW = 16                   # rows or columns of a result narrow enough for small-matrix blocks
_SMALL_RESULT = 1024           # elements of a result small enough for the shared dim to be cut
_SHARED_BLOCK_WORK = 1_000_000  # multiply-adds of a block of the shared dim, at most
_MAX_SHARED_BLOCKS = 32
_MIN_SHARED_EXTENT = 64


class _Started(threading.local):
    """A thread's products started and not yet waited for: ``id(result) -> (job, result)``."""

    def __init__(self):
        self.products: dict = {}


_STARTED = _Started()


def _flops(a_shape: tuple, b_shape: tuple) -> int:
    batch = 1
    for dim in a_shape[:-2]:
        batch *= dim
    return 2 * batch * a_shape[-2] * a_shape[-1] * b_shape[-1]


def worth_splitting(a_shape: tuple, b_shape: tuple) -> bool:
    """Whether the product of operands of these static shapes is split (rank 2, or equal batch dims):
    at least two blocks (:func:`blocks`), and at least :data:`MIN_FLOPS` unless it is cut into small-matrix
    blocks (along the shared dim or a narrow result's long side)."""
    if len(a_shape) < 2 or len(b_shape) < 2 or tuple(a_shape[:-2]) != tuple(b_shape[:-2]):
        return False
    axis, bounds = blocks(a_shape, b_shape)
    small_matrices = axis in (SHARED, NARROW_ROWS, NARROW_COLUMNS)
    return len(bounds) > 1 and (small_matrices or _flops(a_shape, b_shape) >= MIN_FLOPS)


def blocks(a_shape: tuple, b_shape: tuple) -> tuple:
    """``(axis, bounds)``: the axis the product is cut along (0 batch, -2 rows, -1 columns of the result,
    :data:`SHARED`, :data:`NARROW_ROWS` or :data:`NARROW_COLUMNS`) and the ``(start, stop)`` of each block. A
    function of the shapes only."""
    rows, shared, columns = a_shape[-2], a_shape[-1], b_shape[-1]
    if len(a_shape) == 2 and rows * columns <= _SMALL_RESULT:
        count = min(_MAX_SHARED_BLOCKS, -(-rows * columns * shared // _SHARED_BLOCK_WORK),
                    shared // _MIN_SHARED_EXTENT)
        if count > 1:
            return SHARED, _even_blocks(shared, count)
    if len(a_shape) == 2 and min(rows, columns) <= _NARROW:
        side, length = (NARROW_COLUMNS, columns) if columns >= rows else (NARROW_ROWS, rows)
        count = min(_MAX_SHARED_BLOCKS, -(-rows * columns * shared // _SHARED_BLOCK_WORK), length // _MIN_EXTENT)
        return side, _even_blocks(length, max(1, count))
    flops = _flops(a_shape, b_shape)
    count = max(1, min(_MAX_BLOCKS, flops // _BLOCK_FLOPS))
    if len(a_shape) > 2:
        axis, extent, least = 0, a_shape[0], 1
    elif a_shape[-2] >= b_shape[-1]:
        axis, extent, least = -2, a_shape[-2], _MIN_EXTENT
    else:
        axis, extent, least = -1, b_shape[-1], _MIN_EXTENT
    return axis, _even_blocks(extent, max(1, min(count, extent // least)))


def _even_blocks(extent: int, count: int) -> tuple:
    size = -(-extent // count)
    return tuple((start, min(start + size, extent)) for start in range(0, extent, size))


def matmul_split(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``np.matmul(a, b, out=out)`` computed block by block (:func:`blocks`) by the calling thread and the
    pool's helpers; ``out`` (made when not given) must not overlap ``a`` or ``b``."""
    axis, bounds = blocks(a.shape, b.shape)
    if axis == SHARED:
        return _sum_of_shared_blocks(a, b, out, bounds)
    if axis not in (NARROW_ROWS, NARROW_COLUMNS) and helper_count() == 0:
        return np.matmul(a, b, out=out)   # one thread: one call (blocks one after another cost 7-24 % more)
    compute_block, bounds, out = _blocks_of_product(a, b, out, axis, bounds)
    run_blocks(compute_block, bounds)
    return out


def deferrable(a_shape: tuple, b_shape: tuple) -> bool:
    """Whether :func:`matmul_start` can compute the product of operands of these static shapes (one that
    :func:`matmul_split` does not sum over blocks of the shared dim)."""
    return blocks(a_shape, b_shape)[0] != SHARED


def matmul_start(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Start ``matmul_split(a, b, out=out)`` on the pool's helpers and return its result array at once,
    before it holds the product: the calling thread goes on with other work and calls :func:`matmul_wait` on
    the array before anything reads it. ``a``, ``b`` and ``out`` must not be written, nor ``out`` read, until
    then. The same blocks as :func:`matmul_split`, so the same bits; without helpers (or blocks to hand them),
    the product is computed here."""
    axis, bounds = blocks(a.shape, b.shape)
    if helper_count() == 0 or axis == SHARED or len(bounds) < 2:
        return matmul_split(a, b, out)
    compute_block, bounds, out = _blocks_of_product(a, b, out, axis, bounds)
    pending = _STARTED.products
    if id(out) in pending:        # a product a failed call left unfinished in this array
        finish_blocks(pending.pop(id(out))[0])
    pending[id(out)] = (start_blocks(compute_block, bounds), out)
    return out


def matmul_wait(out: np.ndarray) -> None:
    """Wait until the product :func:`matmul_start` is computing into ``out`` is done (computing the blocks no
    helper started); raises the first error a block raised."""
    job = _STARTED.products.pop(id(out), None)
    if job is not None:
        finish_blocks(job[0])


def _blocks_of_product(a: np.ndarray, b: np.ndarray, out: np.ndarray | None, axis, bounds: tuple) -> tuple:
    """``(compute_block, bounds, out)``: the product cut along ``axis`` (0 batch, -2 rows, -1 columns, or a
    narrow result's long side) into one block a thread, or into ``bounds`` for a narrow result."""
    if axis in (NARROW_ROWS, NARROW_COLUMNS):   # these blocks at every thread count: their bits
        axis = -2 if axis == NARROW_ROWS else -1
    elif len(bounds) > helper_count() + 1:   # one block a thread: faster on 2 cores (T3's qkv product 0.40 ms, not 0.58)
        bounds = _even_blocks(bounds[-1][1], helper_count() + 1)
    if out is None:
        out = np.empty(a.shape[:-1] + b.shape[-1:], np.result_type(a, b))

    def compute_block(start: int, stop: int) -> None:
        part = slice(start, stop)
        if axis == 0:
            np.matmul(a[part], b[part], out=out[part])
        elif axis == -2:
            np.matmul(a[..., part, :], b, out=out[..., part, :])
        else:
            np.matmul(a, b[..., part], out=out[..., part])

    return compute_block, bounds, out


def _sum_of_shared_blocks(a: np.ndarray, b: np.ndarray, out: np.ndarray | None, bounds: tuple) -> np.ndarray:
    """``a @ b`` as the sum, in block order, of the products of the blocks ``bounds`` of the shared dim."""
    partials = np.empty((len(bounds), a.shape[0], b.shape[1]), np.result_type(a, b))
    index = {start: position for position, (start, _) in enumerate(bounds)}
    run_blocks(lambda start, stop: np.matmul(a[:, start:stop], b[start:stop], out=partials[index[start]]), bounds)
    out = np.add(partials[0], partials[1], out=out)
    for partial in partials[2:]:
        out += partial
    return out
