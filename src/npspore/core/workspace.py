"""Workspaces: the buffers a kernel writes its temporaries into, made once and reused.

Generated code declares one :class:`Workspace` per kernel module whose functions have planned buffers
(the ``workspace`` pass of ``compiler.optimize``): its layout lists every function's buffers. The entry
function takes a set of buffers when a call starts, hands it to the functions it calls, each of which
reads its own slice and writes its temporaries into them with ``out=``, and gives the set back before it
returns. A set is never held by two calls at once: a call from another thread, or a call re-entered while
this one runs (a host callback calling the same kernel), finds no free set and makes a new one, which
joins the free list when given back. ``list.pop``/``list.append`` are atomic, so no lock is taken. The
buffers live as long as the kernel module that declares them: memory is released with the kernel.
"""
from __future__ import annotations

import numpy as np

__all__ = ["Workspace"]


class Workspace:
    """Sets of buffers of fixed shapes and dtypes, handed to one call at a time.

    Args:
        layout (tuple): ``((shape, dtype), ...)``, one entry per buffer of a set; an entry
            ``(shape, dtype, order)`` makes a buffer laid out as ``base.transpose(order)`` of a C-contiguous
            ``base`` (as the transposed views its values are computed from, so an elementwise op reads and
            writes memory in the same order).
    """

    __slots__ = ("layout", "orders", "free")

    def __init__(self, layout):
        self.layout = tuple((tuple(entry[0]), np.dtype(entry[1])) for entry in layout)
        self.orders = tuple(tuple(entry[2]) if len(entry) > 2 else None for entry in layout)
        self.free: list = []

    def take(self) -> tuple:
        """A set of buffers no other call holds (made now if none is free); their contents are undefined."""
        try:
            return self.free.pop()
        except IndexError:
            return tuple(_buffer(shape, dtype, order) for (shape, dtype), order in zip(self.layout, self.orders))

    def give(self, buffers: tuple) -> None:
        """Return a set taken by :meth:`take`: the call no longer reads or writes it."""
        self.free.append(buffers)


def _buffer(shape: tuple, dtype: np.dtype, order: tuple | None) -> np.ndarray:
    """An uninitialized array of ``shape``: C-contiguous, or ``base.transpose(order)`` of a C-contiguous ``base``."""
    if order is None:
        return np.empty(shape, dtype)
    base_shape = [0] * len(shape)
    for axis, source in enumerate(order):
        base_shape[source] = shape[axis]
    return np.empty(base_shape, dtype).transpose(order)
