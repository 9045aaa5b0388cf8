"""Training workflow, as in ``mindspore.train``: metrics and checkpoints."""
from .metrics import *  # noqa: F401,F403
from .serialization import *  # noqa: F401,F403
from . import metrics, serialization

__all__ = metrics.__all__ + serialization.__all__
