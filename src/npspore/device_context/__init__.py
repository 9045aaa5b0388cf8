"""``mindspore.device_context``: per-device settings (``ascend``, ``gpu``, ``cpu``).

npspore is a CPU package, as a MindSpore CPU build is: the Ascend and GPU settings answer as MindSpore
2.10's do on CPU (the knobs log "CPU device is not supported" and change nothing; ``device_count`` raises;
``is_available`` is False); ``cpu.op_tuning.threads_num`` sets the CPU kernels' thread count.
"""
from . import ascend, cpu, gpu  # noqa: F401

__all__ = ["ascend", "cpu", "gpu"]
