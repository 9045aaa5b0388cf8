"""The option values of ``mindspore.profiler`` (``ProfilerLevel``, ``ProfilerActivity``, ``AicoreMetrics``,
``ExportType``, ``HostSystem``) and ``_ExperimentalConfig``, which holds the experimental ones.

npspore's profiler records host times of ops and kernels (``profiling``): the levels, activities and
device metrics select what MindSpore collects on Ascend/GPU and are recorded here without changing that.
"""
from __future__ import annotations

from enum import Enum

__all__ = ["ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem", "_ExperimentalConfig"]


class ProfilerLevel(Enum):
    """How much the profiler collects."""
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    """Which devices' activity is profiled."""
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(Enum):
    """Which Ascend AI Core metrics are collected."""
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(Enum):
    """The formats the results are exported in."""
    Db = "db"
    Text = "text"


class HostSystem(Enum):
    """Which host resources are sampled."""
    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"


class _ExperimentalConfig:
    """The experimental options of ``profile`` (recorded; see the module doc).

    Args:
        profiler_level (ProfilerLevel): Default: ``ProfilerLevel.Level0``.
        aic_metrics (AicoreMetrics): Default: ``AicoreMetrics.AiCoreNone``.
        l2_cache (bool): Default: ``False``.
        mstx (bool): Default: ``False``.
        data_simplification (bool): Default: ``True``.
        export_type (list): Default: ``None``.
        mstx_domain_include (list), mstx_domain_exclude (list): Default: ``None``.
        sys_io (bool), sys_interconnection (bool): Default: ``False``.
        host_sys (list): Default: ``None``.
    """

    def __init__(self, profiler_level: ProfilerLevel = ProfilerLevel.Level0,
                 aic_metrics: AicoreMetrics = AicoreMetrics.AiCoreNone, l2_cache: bool = False, mstx: bool = False,
                 data_simplification: bool = True, export_type: list | None = None,
                 mstx_domain_include: list | None = None, mstx_domain_exclude: list | None = None,
                 sys_io: bool = False, sys_interconnection: bool = False, host_sys: list | None = None) -> None:
        self.profiler_level = profiler_level
        self.aic_metrics = aic_metrics
        self.l2_cache = l2_cache
        self.mstx = mstx
        self.data_simplification = data_simplification
        self.export_type = export_type
        self.mstx_domain_include = mstx_domain_include
        self.mstx_domain_exclude = mstx_domain_exclude
        self.sys_io = sys_io
        self.sys_interconnection = sys_interconnection
        self.host_sys = host_sys
