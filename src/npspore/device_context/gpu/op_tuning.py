"""``mindspore.device_context.gpu.op_tuning``: the GPU convolution algorithms (no effect on CPU)."""
from ..knobs import device_only_setting

__all__ = ["conv_fprop_algo", "conv_wgrad_algo", "conv_dgrad_algo"]

conv_fprop_algo = device_only_setting("GPU", "conv_fprop_algo")
conv_wgrad_algo = device_only_setting("GPU", "conv_wgrad_algo")
conv_dgrad_algo = device_only_setting("GPU", "conv_dgrad_algo")
