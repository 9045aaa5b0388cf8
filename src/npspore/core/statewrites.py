"""Attributes a kernel sets: the values compiled code assigns to a Cell attribute that is no Parameter.

``self.attention_weights = ops.softmax(...)`` in a compiled ``construct`` sets the attribute, as MindSpore
does (PYNATIVE, and GRAPH mode through its JIT fallback). The kernel cannot hold the Cell (a kernel loaded
from the disk cache names objects only by path), so its generated code calls :func:`keep_state` with the
attribute's slot number and the value; the caller of the kernel (``compiler.kernel.CompiledKernel``) takes
the values kept by that call (:func:`take_states`) and sets the attributes after the kernel returned. A
kernel that raises (a failed value guard) sets nothing: :func:`drop_states` forgets what it kept.

The values wait in a per-thread list, so two threads running kernels at once never take each other's; a
kernel re-entered from a host callback takes only what was kept after its own start (``mark``).
"""
from __future__ import annotations

import threading

import numpy as np

__all__ = ["keep_state", "mark", "take_states", "drop_states"]

_LOCAL = threading.local()


def _pending() -> list:
    pending = getattr(_LOCAL, "pending", None)
    if pending is None:
        pending = _LOCAL.pending = []
    return pending


def keep_state(slot: int, value) -> None:
    """Generated code: the kernel sets attribute ``slot`` to ``value`` (a copy: the kernel may reuse the
    buffer it computed the value in, or the value may view an input or a Parameter)."""
    _pending().append((slot, np.array(value, copy=True)))


def mark() -> int:
    """Where the values kept by the kernel about to run will start."""
    return len(_pending())


def take_states(start: int) -> list:
    """``[(slot, array)]`` kept since ``start``, in the order the kernel kept them; forgotten here."""
    pending = _pending()
    taken = pending[start:]
    del pending[start:]
    return taken


def drop_states(start: int) -> None:
    """Forget what a kernel that raised kept since ``start``."""
    del _pending()[start:]
