"""``mindspore.device_context.gpu``: GPU settings, as a CPU build answers them (see ``knobs``)."""
from . import device, op_precision, op_tuning  # noqa: F401
from .device import device_count, is_available
from .op_precision import *  # noqa: F401,F403
from .op_tuning import *  # noqa: F401,F403

__all__ = ["device_count", "is_available"]
