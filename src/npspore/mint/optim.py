"""``mindspore.mint.optim``: ``AdamW`` (the PyTorch-style optimizer ``npspore.nn.AdamW`` is)."""
from ..missing_names import module_getattr
from ..nn.optim.adamw import AdamW

__all__ = ["AdamW"]

__getattr__ = module_getattr("mindspore.mint.optim", globals())
