"""``mindspore.device_context.ascend.op_debug``: the Ascend debugging settings (no effect on CPU)."""
from ..knobs import device_only_setting

__all__ = ["execute_timeout", "debug_option", "aclinit_config"]

execute_timeout = device_only_setting("Ascend", "execute_timeout")
debug_option = device_only_setting("Ascend", "debug_option")
aclinit_config = device_only_setting("Ascend", "aclinit_config")
