"""``mindspore.device_context.gpu.op_precision``: the GPU precision settings (no effect on CPU)."""
from ..knobs import device_only_setting

__all__ = ["matmul_allow_tf32", "conv_allow_tf32"]

matmul_allow_tf32 = device_only_setting("GPU", "matmul_allow_tf32")
conv_allow_tf32 = device_only_setting("GPU", "conv_allow_tf32")
