"""``mindspore.hal``: MindSpore's device layer, as far as it has a meaning where every op runs on the CPU
in this process: waiting for queued work (there is none) and releasing a device memory cache (there is none)."""
from __future__ import annotations

from .device_knobs import empty_cache, synchronize

__all__ = ["synchronize", "empty_cache", "get_device_properties", "get_device_capability"]

_TARGETS = ["CPU", "GPU", "Ascend"]


def _checked_device(device_id, device_target) -> None:
    """MindSpore's checks of a device query's arguments; only the CPU is available."""
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"The argument 'device_id' must be int, but got {device_id}, type is {type(device_id)}.")
    if device_id < 0:
        raise ValueError(f"The argument 'device_id' should not be negative, but got {device_id}.")
    if device_target is None:
        return
    if not isinstance(device_target, str):
        raise TypeError(f"The argument 'device_target' must be str, but got {device_target}, "
                        f"type is {type(device_target)}.")
    if device_target not in _TARGETS:
        raise ValueError(f"The argument 'device_target' must be one of {_TARGETS}, but got {device_target}.")
    if device_target != "CPU":
        raise ValueError(f"{device_target} backend is not available for this MindSpore package."
                         "You can call hal.is_available to check the reason.")


def get_device_properties(device_id: int, device_target: str | None = None) -> None:
    """The properties of device ``device_id``: None for the CPU (MindSpore returns them for GPU/Ascend only).

    Raises:
        TypeError: if ``device_id`` is not an int or ``device_target`` not a str.
        ValueError: if ``device_id`` is negative, or ``device_target`` is not ``"CPU"``, ``"GPU"`` or
            ``"Ascend"`` or names a backend this package does not have.
    """
    _checked_device(device_id, device_target)


def get_device_capability(device_id: int, device_target: str | None = None) -> None:
    """The compute capability of device ``device_id``: None for the CPU (see :func:`get_device_properties`)."""
    _checked_device(device_id, device_target)
