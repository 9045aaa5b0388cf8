"""``mindspore.profiler.mstx``: marks and ranges for the Ascend tools extension (MSTX). MindSpore records them
only on an Ascend device with the MSPTI library preloaded; elsewhere — its CPU builds, and npspore —
``mark`` and ``range_end`` do nothing and ``range_start`` returns 0, the id of no range."""
from __future__ import annotations

__all__ = ["Mstx"]


class Mstx:
    """MindSpore's MSTX interface (``mindspore.profiler.mstx``), as it answers without an Ascend device."""

    NPU_PROFILER = None
    enable = False

    @staticmethod
    def mark(message: str, stream=None, domain: str = "default") -> None:
        """Mark an instant named ``message``: nothing records it without an Ascend device."""

    @staticmethod
    def range_start(message: str, stream=None, domain: str = "default") -> int:
        """Open a range named ``message``: 0 (no range) without an Ascend device."""
        return 0

    @staticmethod
    def range_end(range_id: int, domain: str = "default") -> None:
        """Close the range ``range_id``: nothing to close without an Ascend device."""
