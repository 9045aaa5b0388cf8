"""Profiling, as ``mindspore.profiler``: ``Profiler`` (also ``ms.Profiler`` and ``profiler.profiling.Profiler``)."""
from .profiling import Profiler
from ..missing_names import module_getattr as _module_getattr

__all__ = ["Profiler"]

__getattr__ = _module_getattr("mindspore.profiler", globals())
