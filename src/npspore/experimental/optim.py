"""``mindspore.experimental.optim``: ``AdamW`` (the class ``npspore.nn.AdamW`` is; MindSpore 2.10
has its AdamW here and in ``mindspore.mint.optim``, not in ``nn``)."""
from ..missing_names import module_getattr
from ..nn.optim.adamw import AdamW

__all__ = ["AdamW"]

__getattr__ = module_getattr("mindspore.experimental.optim", globals())
