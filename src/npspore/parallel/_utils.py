"""The helpers of MindSpore's private ``mindspore.parallel._utils`` that training scripts call."""
from __future__ import annotations

from ..communication.management import get_group_size
from ..core import parallel_context as _parallel

__all__ = ["_get_parallel_mode", "_get_device_num", "_get_gradients_mean", "_is_sharding_propagation"]


def _get_parallel_mode() -> str:
    """The parallel mode of the auto-parallel context."""
    return _parallel.get_auto_parallel_context("parallel_mode")


def _get_device_num() -> int:
    """1 in stand-alone mode; else ``device_num`` when set, or the world group's size (after ``init``)."""
    if _get_parallel_mode() == _parallel.ParallelMode.STAND_ALONE:
        return 1
    if _parallel.device_num_is_set():
        return _parallel.get_auto_parallel_context("device_num")
    return get_group_size()


def _get_gradients_mean() -> bool:
    """Whether all-reduced gradients are averaged."""
    return _parallel.get_auto_parallel_context("gradients_mean")


def _is_sharding_propagation() -> bool:
    """Whether auto parallel would search strategies by sharding propagation (``search_mode`` or the
    ``sharding_propagation`` flag); npspore records the setting (its parallel training is data parallel)."""
    return (_parallel.recorded_value("search_mode") == "sharding_propagation"
            or bool(_parallel.recorded_value("sharding_propagation", False)))
