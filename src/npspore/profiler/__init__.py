"""Profiling, as ``mindspore.profiler``: ``Profiler`` (also ``ms.Profiler`` and ``profiler.profiling.Profiler``),
and ``profile`` driven by a ``schedule`` with ``tensorboard_trace_handler``."""
from .profiling import Profiler
from ..missing_names import module_getattr as _module_getattr
from .options import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel, _ExperimentalConfig
from .profile import profile, tensorboard_trace_handler
from .schedule import Schedule as schedule
from .mstx import Mstx as mstx

__all__ = ["Profiler", "profile", "schedule", "tensorboard_trace_handler", "ProfilerLevel", "ProfilerActivity",
           "AicoreMetrics", "ExportType", "HostSystem", "_ExperimentalConfig", "mstx"]

__getattr__ = _module_getattr("mindspore.profiler", globals())
