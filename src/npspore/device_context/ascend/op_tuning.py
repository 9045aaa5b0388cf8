"""``mindspore.device_context.ascend.op_tuning``: the Ascend tuning settings (no effect on CPU)."""
from ..knobs import device_only_setting

__all__ = ["op_compile", "aoe_tune_mode", "aoe_job_type", "aclnn_cache"]

op_compile = device_only_setting("Ascend", "op_compile")
aoe_tune_mode = device_only_setting("Ascend", "aoe_tune_mode")
aoe_job_type = device_only_setting("Ascend", "aoe_job_type")
aclnn_cache = device_only_setting("Ascend", "aclnn_cache")
