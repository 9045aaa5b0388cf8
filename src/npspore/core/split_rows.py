"""Runs of elementwise statements computed in blocks of rows by a small pool of threads.

A kernel's elementwise work (an optimizer's update of a large weight, a layer's bias and activation) runs
on one thread in NumPy; a run of such statements on arrays of one shape, large enough to be worth a second
core, is instead outlined by the compiler (``compiler/splitregions.py``) as a function of row blocks and
called through :func:`split_rows`: the calling thread and the helpers of :mod:`npspore.core.thread_pool`
each call it on views of a block of rows of the arrays it slices (the rest, which broadcast against one
block, whole). An in-place statement on a view writes the full array, so after the last block every array
holds what the statements computed on the whole arrays. NumPy releases the GIL inside its loops, so the
blocks run in parallel.

Exact: an elementwise result element depends only on the operands' elements at its own position, so the
blocks give the same bits as one call on whole arrays, at any thread count. Safe: the blocks depend only
on the arrays' shapes (:func:`blocks`); with no helper, or when an array the function slices may share
memory with another of its arrays (a view of one of them, the same buffer twice), the function is called
once on the whole arrays, exactly the statements it outlines.

:data:`MIN_WORK` (elements of the arrays times statements): on a 2-core machine with a load average of 1.4-1.5
(``tools/bench_split_rows.py``: Adam's update of one weight, 12 statements, by a calling thread and one helper
against one thread) a split took 1.10 of one thread's time at 0.8 M element-statements (128x512), 0.88 at 1.6 M,
0.57 at 3.1 M, 0.47 at 12.6 M, repeated runs varying by up to 0.25 below 2 M. On a quiet 2-core AMD EPYC (NumPy
2.4.6) it took 0.89 at 0.13-0.26 M (a ReLU, and a bias and ReLU, of (1024, 128)), 0.82 at 0.79 M (Adam on
128x512) and 0.56-0.61 from 0.52 M to 8.4 M (a ReLU of (1024, 512), T3's feed-forward; T2's (700, 1000) logits'
bias; Adam on (700, 1000)). A helper the OS does not schedule in time costs only its wake-up (tens of µs: the
calling thread takes every block no helper started), a few percent of 0.5 M element-statements' 0.3-0.6 ms; so
regions start there.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .thread_pool import helper_count, run_blocks

__all__ = ["MIN_WORK", "worth_splitting", "blocks", "split_rows"]

MIN_WORK = 500_000             # element-statements: 0.3-0.6 ms on one core, far above a hand-over (~10 µs)
_BLOCK_SIZE = 32_768           # elements per block at least (a block's statements cost more than their calls)
_MAX_BLOCKS = 4                # the calling thread catches up on blocks a late helper has not taken


def blocks(shape: tuple) -> tuple:
    """The ``(start, stop)`` rows of each block of arrays of ``shape``: a function of the shape only."""
    rows = shape[0]
    size = 1
    for dim in shape:
        size *= dim
    count = max(1, min(_MAX_BLOCKS, rows, size // _BLOCK_SIZE))
    step = -(-rows // count)
    return tuple((start, min(start + step, rows)) for start in range(0, rows, step))


def worth_splitting(shape: tuple, statements: int) -> bool:
    """Whether ``statements`` elementwise statements on arrays of static ``shape`` are split into row blocks:
    at least :data:`MIN_WORK` element-statements and at least two blocks."""
    if not shape:
        return False
    size = 1
    for dim in shape:
        size *= dim
    return size * statements >= MIN_WORK and len(blocks(shape)) > 1


def _overlapping(sliced: tuple, whole: tuple) -> bool:
    """Whether an array of ``sliced`` may share memory with another array of ``sliced`` or ``whole``."""
    arrays = [a for a in sliced + whole if isinstance(a, np.ndarray)]
    return any(np.may_share_memory(arrays[i], other) for i in range(len(sliced)) for other in arrays[i + 1:])


def split_rows(function: Callable, sliced: tuple, whole: tuple) -> None:
    """Call ``function(*sliced_block, *whole)`` for each block of rows of the arrays of ``sliced`` (all of one
    leading dim), on the calling thread and the pool's helpers; ``function`` must compute only elementwise
    statements, whose results it writes into (views of) the arrays of ``sliced``. Called once on the whole
    arrays when there is no helper or when the arrays may share memory (module docstring)."""
    bounds = blocks(sliced[0].shape)
    if not helper_count() or len(bounds) == 1 or _overlapping(sliced, whole):
        function(*sliced, *whole)
        return

    def compute_block(start: int, stop: int) -> None:
        function(*(array[start:stop] for array in sliced), *whole)

    run_blocks(compute_block, bounds)
