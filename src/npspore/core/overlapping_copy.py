"""Writing a PYNATIVE view into an overlapping view of the same Tensor, as MindSpore's CPU copy kernel does.

In PYNATIVE mode ``x[:, 1:] = x[:, :-1]`` copies a view of ``x`` into another view of ``x``. MindSpore's
CopyWithSlice kernel walks the destination's outer dims in row-major order and copies one innermost row at a
time, reading the source as it stands at that moment: a row written early is read again by a later one, so a
shift towards higher indices repeats the first row (S²-MLP's ``spatial_shift``: every row becomes row 0),
where NumPy's assignment (a copy first) shifts. A shift towards lower indices, or rows that do not overlap,
come out the same either way.
"""
from __future__ import annotations

import numpy as np

__all__ = ["copy_into_view"]


def copy_into_view(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[...] = src``, row by row along ``dst``'s leading dims where ``src`` shares its memory.

    Args:
        dst: a writable view (basic indexing of the written Tensor's array).
        src: the value, broadcastable to ``dst``'s shape.
    """
    if dst.ndim <= 1 or not np.shares_memory(dst, src):
        dst[...] = src
        return
    for row, value in zip(dst, np.broadcast_to(src, dst.shape)):
        copy_into_view(row, value)
