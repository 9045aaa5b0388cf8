"""Neural-network Cells, as in ``mindspore.nn``: the Cell base class, layers, containers and losses."""
import typing as _typing

from .cell import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .layers import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .learning_rate_schedule import *  # noqa: F401,F403
from .optim import *  # noqa: F401,F403
from .dynamic_lr import *  # noqa: F401,F403
from .wrap import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .pooling3d import *  # noqa: F401,F403
from .image_quality import *  # noqa: F401,F403
from .math_cells import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .activation import *  # noqa: F401,F403
from .embedding import *  # noqa: F401,F403
from .rnn_cells import *  # noqa: F401,F403
from .rnns import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .unfold import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .resize import *  # noqa: F401,F403
from .combined import *  # noqa: F401,F403
from .cell_grad import *  # noqa: F401,F403
from .graph_cell import *  # noqa: F401,F403
from . import cell, container, layers, loss
from . import dynamic_lr, learning_rate_schedule, optim, wrap
from . import activation, conv, normalization, pooling, pooling3d, image_quality, math_cells
from . import cell_grad, combined, embedding, graph_cell, padding, resize, rnn_cells, rnns, transformer, unfold

from .metrics import (Metric, Accuracy, Loss, MAE, MSE, Precision, Recall, Fbeta, F1,  # noqa: E402
                      TopKCategoricalAccuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                      ConfusionMatrix, rearrange_inputs, get_metric_fn, names)

# mypy exports the star imports' names; it reads only a literal __all__, not one built from the submodules'
if not _typing.TYPE_CHECKING:
    __all__ = cell.__all__ + container.__all__ + layers.__all__ + loss.__all__
    __all__ += learning_rate_schedule.__all__ + optim.__all__ + dynamic_lr.__all__ + wrap.__all__
    __all__ += conv.__all__ + pooling.__all__ + pooling3d.__all__ + image_quality.__all__ + math_cells.__all__
    __all__ += normalization.__all__ + activation.__all__
    __all__ += embedding.__all__ + rnn_cells.__all__ + rnns.__all__ + transformer.__all__ + unfold.__all__
    __all__ += padding.__all__
    __all__ += resize.__all__ + combined.__all__
    __all__ += cell_grad.__all__ + graph_cell.__all__
# layers of the 2.10 usage list's tail (CELU, InstanceNorm1d/3d, Dropout3d, EmbeddingLookup ...)
from .layers_tail import *  # noqa: E402,F401,F403
from . import layers_tail  # noqa: E402
if not _typing.TYPE_CHECKING:
    __all__ += layers_tail.__all__
from ..missing_names import module_getattr as _module_getattr

__getattr__ = _module_getattr("mindspore.nn", globals())
