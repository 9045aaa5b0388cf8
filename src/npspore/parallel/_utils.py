"""The helpers of MindSpore's private ``mindspore.parallel._utils`` that training scripts call."""
from __future__ import annotations

from ..communication.management import get_group_size, get_rank
from ..core import parallel_context as _parallel

__all__ = ["_get_parallel_mode", "_get_device_num", "_get_gradients_mean", "_is_sharding_propagation",
           "_get_enable_parallel_optimizer", "_get_pipeline_stages", "_get_global_rank", "_get_parameter_broadcast",
           "_device_number_check"]


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


# MindSpore 2.10 names of the 2.10 usage list's tail
def _get_enable_parallel_optimizer() -> bool:
    """Whether ``enable_parallel_optimizer`` was set (recorded: one process holds every optimizer shard)."""
    return bool(_parallel.recorded_value("enable_parallel_optimizer", False))


def _get_pipeline_stages() -> int:
    """The ``pipeline_stages`` set in the auto-parallel context (1 by default)."""
    return _parallel.recorded_value("pipeline_stages", 1)


def _get_global_rank() -> int:
    """0 in stand-alone mode; else the ``global_rank`` set in the context, or this process's rank."""
    if _get_parallel_mode() == _parallel.ParallelMode.STAND_ALONE:
        return 0
    if "global_rank" in _parallel._context:
        return _parallel.get_auto_parallel_context("global_rank")
    return get_rank()


def _get_parameter_broadcast() -> bool:
    """The context's ``parameter_broadcast``."""
    return _parallel.get_auto_parallel_context("parameter_broadcast")


def _device_number_check(parallel_mode: str, device_number: int) -> None:
    """Check that stand-alone mode runs on one device.

    Raises:
        ValueError: if ``parallel_mode`` is ``"stand_alone"`` and ``device_number`` is not 1.
    """
    if parallel_mode == "stand_alone" and device_number != 1:
        raise ValueError("If parallel_mode is stand_alone, device_number must be 1, "
                         f"device_number: {device_number}, parallel_mode:{parallel_mode}")
