"""Large matrix products split into blocks that a small pool of threads computes, one BLAS thread each.

OpenBLAS's own threads spin while they wait for work, so with other processes on the cores a step took
many times longer (:mod:`npspore.core.threads`); npspore therefore runs BLAS on one thread. A product
large enough to be worth a second core is instead cut here into blocks of output rows (or columns, the
longer side; or of its leading batch dim), which the calling thread and the helpers of
:mod:`npspore.core.thread_pool` take in turn (NumPy releases the GIL inside ``matmul``).

Deterministic: the blocks depend only on the operands' shapes (:func:`blocks`), never on the number of
threads or on which thread computes which block, so a product gives the same bits on every run. Without
helpers the product is one ``np.matmul``, with the same bits: a block of rows (columns, matrices) of a
product is summed over the shared dim in the same order as the whole product (OpenBLAS blocks that dim
by its length alone; ``tests/test_matmul_split.py`` checks it), so the thread count does not change them.

The compiler calls :func:`matmul_split` (``rt.matmul_split(a, b, out=...)`` in a kernel) only for products
of at least :data:`MIN_FLOPS` floating-point operations, decided from the static shapes by optimize
(``compiler/splitproducts.py`` makes such a ``matmul`` the op ``matmul_split``, which ``npspore show
--dump-after optimize`` shows); :func:`npspore.core.thread_pool.set_helpers` sets the pool's size (the policy of
:mod:`npspore.core.threads`). Measured with ``tools/bench_threads.py --workload T4`` (or ``T3``) on a
2-core machine that other processes kept busy: 0.55 (T3: 0.46) of one thread's step time with two busy
loops added, 0.65-1.04 without them, where OpenBLAS's own threads took 10-55 times as long.
"""
from __future__ import annotations

import numpy as np

from .thread_pool import helper_count, run_blocks

__all__ = ["MIN_FLOPS", "worth_splitting", "blocks", "matmul_split"]

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


def matmul_split(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``np.matmul(a, b, out=out)`` computed block by block (:func:`blocks`) by the calling thread and the
    pool's helpers; ``out`` (made when not given) must not overlap ``a`` or ``b``."""
    if not helper_count():      # one thread: one call (blocks computed one after another cost 7-24 % more)
        return np.matmul(a, b, out=out)
    if out is None:
        out = np.empty(a.shape[:-1] + b.shape[-1:], np.result_type(a, b))
    axis, bounds = blocks(a.shape, b.shape)

    def compute_block(start: int, stop: int) -> None:
        part = slice(start, stop)
        if axis == 0:
            np.matmul(a[part], b[part], out=out[part])
        elif axis == -2:
            np.matmul(a[..., part, :], b, out=out[..., part, :])
        else:
            np.matmul(a, b[..., part], out=out[..., part])

    run_blocks(compute_block, bounds)
    return out
