"""``mindspore.device_context.cpu``: the CPU device and its kernels' thread count."""
from . import device, op_tuning  # noqa: F401
from .device import device_count, is_available
from .op_tuning import threads_num

__all__ = ["device_count", "is_available", "threads_num"]
