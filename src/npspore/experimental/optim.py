"""``mindspore.experimental.optim``: ``AdamW`` (the class ``npspore.nn.AdamW`` is; MindSpore 2.10
has its AdamW here and in ``mindspore.mint.optim``, not in ``nn``) and ``Adam``."""
from ..missing_names import module_getattr
from ..nn.optim.adamw import Adam, AdamW

__all__ = ["AdamW", "Adam"]

__getattr__ = module_getattr("mindspore.experimental.optim", globals())
