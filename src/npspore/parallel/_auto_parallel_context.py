"""MindSpore's private ``mindspore.parallel._auto_parallel_context``: the context object whose getters
and setters read and write the attributes of ``set_auto_parallel_context``/``get_auto_parallel_context``."""
from __future__ import annotations

from typing import Any

from ..core import parallel_context as _parallel

__all__ = ["auto_parallel_context"]


class _AutoParallelContext:
    """The auto-parallel context as an object: ``get_device_num()`` is
    ``get_auto_parallel_context("device_num")``, ``set_gradients_mean(True)`` is
    ``set_auto_parallel_context(gradients_mean=True)``, for the attributes npspore keeps."""

    def _get(self, key: str) -> Any:
        return _parallel.get_auto_parallel_context(key)

    def get_parallel_mode(self) -> str:
        """The parallel mode (``'stand_alone'`` unless set)."""
        return self._get("parallel_mode")

    def get_device_num(self) -> int:
        """The device number (1 unless set)."""
        return self._get("device_num")

    def get_device_num_is_set(self) -> bool:
        """Whether ``device_num`` was set."""
        return _parallel.device_num_is_set()

    def get_global_rank(self) -> int:
        """The recorded global rank (0 unless set)."""
        return self._get("global_rank")

    def get_gradients_mean(self) -> bool:
        """Whether all-reduced gradients are averaged (False unless set)."""
        return self._get("gradients_mean")

    def get_full_batch(self) -> bool:
        """Whether each rank loads the full batch (False unless set)."""
        return self._get("full_batch")

    def get_parameter_broadcast(self) -> bool:
        """Whether Parameters are broadcast from rank 0 at the start (False unless set)."""
        return self._get("parameter_broadcast")

    def set_parallel_mode(self, parallel_mode: str) -> None:
        """``set_auto_parallel_context(parallel_mode=parallel_mode)``."""
        _parallel.set_auto_parallel_context(parallel_mode=parallel_mode)

    def set_device_num(self, device_num: int) -> None:
        """``set_auto_parallel_context(device_num=device_num)``."""
        _parallel.set_auto_parallel_context(device_num=device_num)

    def set_global_rank(self, global_rank: int) -> None:
        """``set_auto_parallel_context(global_rank=global_rank)``."""
        _parallel.set_auto_parallel_context(global_rank=global_rank)

    def set_gradients_mean(self, gradients_mean: bool) -> None:
        """``set_auto_parallel_context(gradients_mean=gradients_mean)``."""
        _parallel.set_auto_parallel_context(gradients_mean=gradients_mean)

    def set_full_batch(self, full_batch: bool) -> None:
        """``set_auto_parallel_context(full_batch=full_batch)``."""
        _parallel.set_auto_parallel_context(full_batch=full_batch)

    def reset(self) -> None:
        """``reset_auto_parallel_context()``."""
        _parallel.reset_auto_parallel_context()


_CONTEXT = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    """The process's auto-parallel context object."""
    return _CONTEXT
