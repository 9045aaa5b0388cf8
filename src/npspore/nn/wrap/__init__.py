"""Wrapper cells for training, as ``mindspore.nn.wrap``: loss and evaluation wrappers, one-step
training cells and loss scaling."""
import typing as _typing

from .cell_wrapper import *  # noqa: F401,F403
from .loss_scale import *  # noqa: F401,F403
from .grad_reducer import DistributedGradReducer  # noqa: F401
from . import cell_wrapper, grad_reducer, loss_scale

# mypy exports the star imports' names; it reads only a literal __all__, not one built from the submodules'
if not _typing.TYPE_CHECKING:
    __all__ = cell_wrapper.__all__ + loss_scale.__all__ + ["DistributedGradReducer"]
