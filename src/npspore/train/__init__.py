"""Training workflow, as in ``mindspore.train``: ``Model``, callbacks, metrics, checkpoints, loss scale managers.

Every public name here is also at the top level (``ms.Model``, ``ms.LossMonitor``, ``ms.save_checkpoint`` ...).
"""
import typing as _typing

from .callback import *  # noqa: F401,F403
from .metrics import *  # noqa: F401,F403
from .model import *  # noqa: F401,F403
from .serialization import *  # noqa: F401,F403
from .loss_scale_manager import *  # noqa: F401,F403
from .data_sink import data_sink  # noqa: F401
from .dataset_helper import DatasetHelper  # noqa: F401
from .summary import SummaryRecord  # noqa: F401
from .. import amp  # noqa: F401
from ..amp import build_train_network  # noqa: F401
from . import callback, loss_scale_manager, metrics, model, serialization

# mypy exports the star imports' names; it reads only a literal __all__, not one built from the submodules'
if not _typing.TYPE_CHECKING:
    __all__ = (callback.__all__ + metrics.__all__ + model.__all__ + serialization.__all__ + loss_scale_manager.__all__
               + ["build_train_network", "data_sink", "SummaryRecord", "DatasetHelper"])
# data-nn-fn: metrics of the 2.10 usage list's tail (a module of their own, importing Metric from .metrics)
from .confusion_metric import ConfusionMatrixMetric  # noqa: E402,F401
if not _typing.TYPE_CHECKING:
    __all__ += ["ConfusionMatrixMetric"]
