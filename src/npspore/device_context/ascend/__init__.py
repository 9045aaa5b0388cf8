"""``mindspore.device_context.ascend``: Ascend settings, as a CPU build answers them (see ``knobs``)."""
from ..knobs import device_unavailable, missing_device_count
from . import op_debug, op_precision, op_tuning  # noqa: F401
from .op_debug import *  # noqa: F401,F403
from .op_precision import *  # noqa: F401,F403
from .op_tuning import *  # noqa: F401,F403

device_count = missing_device_count("Device Ascend not exist.")
is_available = device_unavailable("Ascend")

__all__ = ["device_count", "is_available"]
