"""Training workflow, as in ``mindspore.train``: ``Model``, callbacks, metrics and checkpoints."""
from .callback import *  # noqa: F401,F403
from .metrics import *  # noqa: F401,F403
from .model import *  # noqa: F401,F403
from .serialization import *  # noqa: F401,F403
from . import callback, metrics, model, serialization

__all__ = callback.__all__ + metrics.__all__ + model.__all__ + serialization.__all__
