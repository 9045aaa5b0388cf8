"""``mindspore.nn.metrics``: the metrics of :mod:`npspore.train.metrics` under their older import path."""
from ..train.metrics import *  # noqa: F401,F403
from ..train.metrics import __all__  # noqa: F401
from ..train.confusion_metric import ConfusionMatrixMetric  # noqa: F401,E402

__all__ = [*__all__, "ConfusionMatrixMetric"]
# A package without files: MindSpore 1.x's path nn.metrics.metric is npspore.train.metrics (npspore.module_aliases).
__path__: list[str] = []
