"""The Ascend and GPU settings of ``mindspore.device_context`` as a CPU build answers them."""
from __future__ import annotations

from typing import Callable

from .. import log as _log

__all__ = ["device_only_setting", "missing_device_count", "device_unavailable"]


def device_only_setting(device: str, name: str, choices: tuple | None = None) -> Callable[..., None]:
    """The setting ``name`` of ``device`` (``"Ascend"``/``"GPU"``) as MindSpore 2.10 on CPU has it: it logs
    MindSpore's error "CPU device is not supported. Please use correct device" and changes nothing.

    Args:
        device (str): the device the setting is for.
        name (str): the setting's name (``precision_mode``).
        choices (tuple, optional): the values its first argument may take (checked; any when None).
    """
    def setting(*args, **kwargs) -> None:
        if choices is not None and args and args[0] not in choices:
            raise ValueError(f"For '{name}', the value of mode {args[0]} must be one of {list(choices)}, "
                             f"but got {args[0]}.")
        _log.error("CPU device is not supported. Please use correct device")

    setting.__name__ = setting.__qualname__ = name
    setting.__doc__ = (f"MindSpore's {device} setting ``{name}``. On a CPU build (MindSpore's and npspore) it "
                       "logs \"CPU device is not supported. Please use correct device\" and changes nothing."
                       + (f" Its value must be one of {list(choices)} (ValueError otherwise)." if choices else ""))
    return setting


def missing_device_count(message: str) -> Callable[[], int]:
    """``device_count`` of a device this build has none of: raises ``RuntimeError(message)`` as MindSpore."""
    def device_count() -> int:
        raise RuntimeError(message)

    device_count.__doc__ = f"The number of devices: a CPU build has none, so it raises RuntimeError('{message}')."
    return device_count


def device_unavailable(device: str) -> Callable[[], bool]:
    """``is_available`` of ``device``: False (logging MindSpore's warning)."""
    def is_available() -> bool:
        _log.warning(f"Device {device} is not available.")
        return False

    is_available.__doc__ = f"Whether {device} is available: never in npspore (a CPU package)."
    return is_available
