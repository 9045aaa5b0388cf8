"""Callbacks of ``Model.train``/``Model.eval``, as in ``mindspore.train.callback``."""
from .callback import Callback, RunContext  # noqa: F401
from .checkpoint_callback import *  # noqa: F401,F403
from .monitors import *  # noqa: F401,F403
from .plateau import *  # noqa: F401,F403
from . import checkpoint_callback, monitors, plateau

__all__ = ["Callback", "RunContext"] + checkpoint_callback.__all__ + monitors.__all__ + plateau.__all__
