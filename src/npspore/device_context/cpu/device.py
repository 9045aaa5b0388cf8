"""``mindspore.device_context.cpu.device``: the CPU, always there."""

__all__ = ["device_count", "is_available"]


def is_available() -> bool:
    """Whether the CPU backend is available: True."""
    return True


def device_count() -> int:
    """The number of CPU devices: 1, as MindSpore always returns."""
    return 1
