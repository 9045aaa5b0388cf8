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
        layout (tuple): ``((shape, dtype), ...)``, one entry per buffer of a set.
    """

    __slots__ = ("layout", "free")

    def __init__(self, layout):
        self.layout = tuple((tuple(shape), np.dtype(dtype)) for shape, dtype in layout)
        self.free: list = []

    def take(self) -> tuple:
        """A set of buffers no other call holds (made now if none is free); their contents are undefined."""
        try:
            return self.free.pop()
        except IndexError:
            return tuple(np.empty(shape, dtype) for shape, dtype in self.layout)

    def give(self, buffers: tuple) -> None:
        """Return a set taken by :meth:`take`: the call no longer reads or writes it."""
        self.free.append(buffers)
