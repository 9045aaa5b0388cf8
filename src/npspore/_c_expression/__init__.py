"""``mindspore._c_expression``: the names of MindSpore's C++ extension module that scripts import directly.

MindSpore's ``_c_expression`` is its compiled core; programs reach into it for a handful of names: the base
classes (``TensorPy`` of ``Tensor``, ``Cell_`` of ``Cell``, the dtype classes of :mod:`.typing`), the
context object (``MSContext``), the uninitialized-tensor constructor ``_empty_instance`` and a few runtime
switches. npspore's counterparts are Python: ``TensorPy`` is npspore's ``Tensor`` class, ``Cell_`` its
``Cell``. The switches that tune MindSpore's C++ runtime say in their docstrings what they mean here.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as _dtype
from ..common.tensor import Tensor
from ..missing_names import module_getattr
from ..nn.cell import Cell
from . import typing  # noqa: F401

__all__ = ["MSContext", "TensorPy", "Cell_", "disable_multi_thread", "_empty_instance",
           "_framework_profiler_step_start", "_framework_profiler_step_end", "_ms_memory_recycle"]

TensorPy = Tensor
Cell_ = Cell


def disable_multi_thread() -> None:
    """Run MindSpore's op dispatch on one thread. npspore's dispatch always runs on the calling thread
    (its kernels are the NumPy calls the caller makes), so there is nothing to switch: returns None."""


def _framework_profiler_step_start() -> None:
    """Mark the start of a step for MindSpore's framework profiler. With no such profiler running (MindSpore
    on CPU without one, and always in npspore, whose ``Profiler.step`` marks steps) it does nothing."""


def _framework_profiler_step_end() -> None:
    """Mark the end of a step for MindSpore's framework profiler (see :func:`_framework_profiler_step_start`)."""


def _ms_memory_recycle() -> None:
    """Return MindSpore's cached device memory to the system. npspore keeps no memory pool (NumPy frees an
    array when its last reference goes), so there is nothing to return."""


_DEVICES = ("CPU", "Ascend")


def _empty_instance(size, dtype=_dtype.float32, device: str = "CPU") -> Tensor:
    """An uninitialized tensor of shape ``size`` and ``dtype`` (MindSpore's ``ops.empty`` kernel).

    Args:
        size (Union[int, tuple[int], list[int]]): the shape.
        dtype (mindspore.dtype): the data type. Default: ``mindspore.float32``.
        device (str): ``"CPU"``; ``"Ascend"`` is MindSpore's other choice, which no npspore process has.

    Returns:
        Tensor, whose values are whatever the memory held.

    Raises:
        ValueError: if a dimension is negative or ``device`` is not ``"CPU"``/``"Ascend"``.
        RuntimeError: if ``device`` is ``"Ascend"``.
    """
    if device not in _DEVICES:
        raise ValueError(f"Failed to convert the value \"{device}\" of input 'device' of 'empty' to enum.")
    if device != "CPU":
        raise RuntimeError(f"Create device context failed, please make sure target device:{device} is available")
    shape = (size,) if isinstance(size, int) else tuple(size)
    for index, dim in enumerate(shape):
        if dim < 0:
            raise ValueError(f"For primitive[Empty], the {index}th dimension of input shape must be greater than "
                             f"or equal to 0, but got {dim}.")
    return Tensor(np.empty(shape, _dtype.dtype_to_nptype(dtype)))


class MSContext:
    """MindSpore's context object, as programs query it: which device packages this build supports.

    ``MSContext.get_instance()`` is the one instance. npspore is a CPU package with no device plugins.
    """

    _instance: MSContext | None = None

    @classmethod
    def get_instance(cls) -> MSContext:
        """The context (one per process)."""
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_ascend_soc_version(self) -> str:
        """The Ascend chip's name: ``''`` without an Ascend device (as MindSpore on CPU)."""
        return ""

    def is_pkg_support_device(self, device: str) -> bool:
        """Whether this package runs on ``device``: only ``"CPU"``."""
        return device == "CPU"

    def is_ascend_plugin_loaded(self) -> bool:
        """Whether the Ascend plugin is loaded: never."""
        return False

    def load_plugin_error(self) -> str:
        """The errors of loading device plugins: ``''`` (npspore loads none)."""
        return ""

    def get_backend_policy(self) -> str:
        """The backend policy: ``'ms'``, as MindSpore on CPU reports."""
        return "ms"


__getattr__ = module_getattr("mindspore._c_expression", globals())
