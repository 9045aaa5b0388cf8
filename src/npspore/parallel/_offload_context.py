"""MindSpore 2.0-2.3's offload context, ``mindspore.set_offload_context`` / ``get_offload_context`` (defined in its
``mindspore.parallel._offload_context``): where heterogeneous training moves parameters and activations when
``set_context(memory_offload="ON")`` lets device memory overflow to host memory or disk.

npspore computes in host memory, so there is no device memory to offload from: the settings are checked with
MindSpore's types, ranges and messages, recorded, and read back (sizes in bytes, as MindSpore returns them), as
scripts that print or log them expect; they change where nothing is stored.
"""
from __future__ import annotations

import os
import re
import shutil
from typing import Any

import numpy as np

from .._checkparam import INC_RIGHT, args_type_check, check_bool, check_float_range, check_positive_int, check_string

__all__ = ["set_offload_context", "get_offload_context"]

_SIZE = re.compile(r'[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB')
_GB = 1 << 30
_MEM_RETENTION_RATE = 0.2   # the share of host memory MindSpore keeps back from an unset offload_cpu_size

# MindSpore's defaults (its C++ OffloadContext); offload_cpu_size and offload_disk_size 0: the machine's
_config: dict[str, Any] = {
    "offload_param": "", "offload_path": "./offload/", "offload_checkpoint": "", "offload_cpu_size": 0,
    "offload_disk_size": 0, "enable_aio": True, "aio_block_size": 1 << 20, "aio_queue_depth": 1024,
    "enable_pinned_mem": True, "auto_offload": True, "host_mem_block_size": _GB, "cpu_ratio": 1.0, "hbm_ratio": 1.0,
}


def _destination(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For 'set_{name}', the argument '{name}' must be str, but got the type : {type(value)}.")
    return check_string(value.lower(), ["cpu", "disk"], name, f"set_{name}")


def _size(name: str, value: Any) -> int:
    """A size given as ``"xxGB"``, in bytes."""
    if not isinstance(value, str):
        raise TypeError(f"For 'set_{name}', the argument '{name}' must be str, but got the type : {type(value)}.")
    if not _SIZE.match(value):
        raise ValueError(f"The argument '{name}' should be in correct  format! It must be a string ending with 'GB', "
                         "in addition to that, it must contain only numbers or decimal points, such as \"5GB\" or "
                         f"\"3.5GB\", but got {value}.")
    return int(float(value[:-2]) * _GB)


def _path(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For 'set_{name}', the argument '{name}' must be str, but got the type : {type(value)}.")
    return value


def _ratio(name: str, value: Any) -> float:
    return float(np.float32(check_float_range(value, 0, 1, INC_RIGHT, name)))


_SETTERS = {
    "offload_param": _destination, "offload_checkpoint": _destination, "offload_path": _path,
    "offload_cpu_size": _size, "offload_disk_size": _size, "aio_block_size": _size, "host_mem_block_size": _size,
    "enable_aio": lambda name, value: check_bool(value, name, f"set_{name}"),
    "enable_pinned_mem": lambda name, value: check_bool(value, name, f"set_{name}"),
    "auto_offload": lambda name, value: check_bool(value, name, f"set_{name}"),
    "aio_queue_depth": lambda name, value: check_positive_int(value, name, f"set_{name}"),
    "cpu_ratio": _ratio, "hbm_ratio": _ratio,
}


@args_type_check(offload_config=dict)
def set_offload_context(offload_config):
    """Configure where heterogeneous training offloads to (MindSpore 2.0-2.3; recorded, see the module doc).

    Args:
        offload_config (dict): any of ``offload_param`` and ``offload_checkpoint`` (``"cpu"`` or ``"disk"``),
            ``offload_path`` (str), the sizes ``offload_cpu_size``, ``offload_disk_size``, ``aio_block_size``,
            ``host_mem_block_size`` (str ``"xxGB"``), ``enable_aio``, ``enable_pinned_mem``, ``auto_offload``
            (bool), ``aio_queue_depth`` (positive int), ``cpu_ratio`` and ``hbm_ratio`` (float in (0, 1]).
            Keys before a bad one are set, as in MindSpore.

    Raises:
        TypeError: if ``offload_config`` is not a dict, or a value has the wrong type.
        ValueError: for an unknown key (``Unknown config: ['x']``), a size not written ``"xxGB"``, a destination
            other than cpu or disk, or a ratio outside (0, 1].
    """
    for name, value in offload_config.items():
        if name not in _SETTERS:
            raise ValueError(f"Unknown config: {[name]}")
        _config[name] = _SETTERS[name](name, value)


def _available_memory() -> int:
    """MemAvailable of /proc/meminfo in bytes (what MindSpore offloads to when offload_cpu_size is unset)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def get_offload_context() -> dict:
    """The offload configuration, as MindSpore 2.0-2.3 returns it: every key of :func:`set_offload_context`,
    sizes in bytes; an unset ``offload_cpu_size`` is 80 % of the host's available memory and an unset
    ``offload_disk_size`` the free space of the disk holding ``offload_path`` (or the current directory)."""
    config = dict(_config)
    cpu_size = config["offload_cpu_size"] or _available_memory()
    config["offload_cpu_size"] = cpu_size - int(cpu_size * _MEM_RETENTION_RATE)
    if not config["offload_disk_size"]:
        path = config["offload_path"] if os.path.exists(config["offload_path"]) else "."
        config["offload_disk_size"] = shutil.disk_usage(path).free
    return config
