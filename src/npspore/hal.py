"""``mindspore.hal``: MindSpore's device layer, as far as it has a meaning where every op runs on the CPU
in this process: waiting for queued work (there is none) and releasing a device memory cache (there is none)."""
from __future__ import annotations

from .device_knobs import synchronize

__all__ = ["synchronize", "empty_cache"]


def empty_cache() -> None:
    """Release the memory MindSpore's device pool caches: npspore's arrays are freed by NumPy when no longer
    referenced, so nothing is cached."""
