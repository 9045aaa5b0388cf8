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
# metrics of the 2.10 usage list's tail (a module of their own, importing Metric from .metrics)
from .confusion_metric import ConfusionMatrixMetric  # noqa: E402,F401
if not _typing.TYPE_CHECKING:
    __all__ += ["ConfusionMatrixMetric"]

# the distributed-checkpoint functions, which MindSpore also has in train.serialization
# (distributed_checkpoint imports serialization, so serialization cannot import them itself)
from .distributed_checkpoint import (build_searched_strategy, load_distributed_checkpoint,  # noqa: E402
                                     merge_sliced_parameter, sync_pipeline_shared_parameters)

for _name in ("build_searched_strategy", "load_distributed_checkpoint", "merge_sliced_parameter",
              "sync_pipeline_shared_parameters"):
    setattr(serialization, _name, globals()[_name])
if not _typing.TYPE_CHECKING:
    __all__ += ["build_searched_strategy", "load_distributed_checkpoint", "merge_sliced_parameter",
                "sync_pipeline_shared_parameters"]
# the format conversions, also in train.serialization as in MindSpore
from .checkpoint_convert import ckpt_to_safetensors, safetensors_to_ckpt  # noqa: E402

serialization.ckpt_to_safetensors, serialization.safetensors_to_ckpt = ckpt_to_safetensors, safetensors_to_ckpt
if not _typing.TYPE_CHECKING:
    __all__ += ["ckpt_to_safetensors", "safetensors_to_ckpt"]

# submodules not imported yet (train.node_strategy_pb2, train.train_thor) load on first use
from ..missing_names import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("mindspore.train", globals())
