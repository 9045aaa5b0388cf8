"""Neural-network Cells, as in ``mindspore.nn``: the Cell base class, layers, containers and losses."""
from .cell import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .layers import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from . import cell, container, layers, loss

__all__ = cell.__all__ + container.__all__ + layers.__all__ + loss.__all__
from ..missing_names import module_getattr

__getattr__ = module_getattr("mindspore.nn", globals())
