"""Training workflow, as in ``mindspore.train``: checkpoints."""
from .serialization import *  # noqa: F401,F403
from . import serialization

__all__ = list(serialization.__all__)
