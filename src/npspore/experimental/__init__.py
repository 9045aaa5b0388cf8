"""``mindspore.experimental``: of it, the PyTorch-style optimizer ``optim.AdamW``."""
from . import optim

__all__ = ["optim"]
