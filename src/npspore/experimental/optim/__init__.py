"""``mindspore.experimental.optim``: the PyTorch-style optimizers (``AdamW`` — the class ``npspore.nn.AdamW``
is; MindSpore 2.10 has its AdamW here and in ``mindspore.mint.optim``, not in ``nn`` — and ``Adam``), their
base class ``Optimizer`` and the learning-rate schedulers of :mod:`.lr_scheduler`."""
from ...missing_names import module_getattr
from ...nn.optim.adamw import Adam, AdamW
from ...nn.optim.group_optimizer import Optimizer
from . import lr_scheduler

__all__ = ["AdamW", "Adam", "Optimizer", "lr_scheduler"]

__getattr__ = module_getattr("mindspore.experimental.optim", globals())
