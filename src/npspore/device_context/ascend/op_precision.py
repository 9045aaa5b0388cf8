"""``mindspore.device_context.ascend.op_precision``: the Ascend precision settings (no effect on CPU)."""
from ..knobs import device_only_setting

__all__ = ["precision_mode", "op_precision_mode", "matmul_allow_hf32", "conv_allow_hf32"]

precision_mode = device_only_setting("Ascend", "precision_mode", (
    "force_fp16", "allow_fp32_to_fp16", "allow_mix_precision", "must_keep_origin_dtype", "force_fp32",
    "allow_fp32_to_bf16", "allow_mix_precision_fp16", "allow_mix_precision_bf16"))
op_precision_mode = device_only_setting("Ascend", "op_precision_mode")
matmul_allow_hf32 = device_only_setting("Ascend", "matmul_allow_hf32")
conv_allow_hf32 = device_only_setting("Ascend", "conv_allow_hf32")
