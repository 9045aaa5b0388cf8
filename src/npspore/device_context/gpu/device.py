"""``mindspore.device_context.gpu.device``: a CPU build has no GPU."""
from ..knobs import device_unavailable, missing_device_count

__all__ = ["device_count", "is_available"]

device_count = missing_device_count("Device_target GPU not exist.")
is_available = device_unavailable("GPU")
