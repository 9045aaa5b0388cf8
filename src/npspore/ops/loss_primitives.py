"""Loss primitives of the model-zoo era, as ``mindspore.ops`` / ``ops.operations``: ``NLLLoss``, which
returns the loss and the summed weight of the counted targets (over :func:`npspore.ops.nll_loss`)."""
from __future__ import annotations

from ..common.tensor import Tensor, _np_dtype
from .eager import run
from .losses import nll_loss
from .primitives import Primitive

__all__ = ["NLLLoss"]

# MindSpore 2.10 records the reduction as an enum value (Prim[NLLLoss]<reduction=1, ...> for 'mean').
_REDUCTION_CODES = {"sum": 0, "mean": 1, "none": 2}


class NLLLoss(Primitive):
    """``NLLLoss(reduction='mean', ignore_index=-100)(logits, labels, weight)``: the negative log-likelihood
    of the class indices ``labels (N,)`` under the log-probabilities ``logits (N, C)`` weighted by
    ``weight (C,)``, and ``total_weight``, the summed weights of the targets not equal to ``ignore_index``
    (``'mean'`` divides by it). As MindSpore's kernel, only ``logits`` has a gradient: ``weight`` gets zeros
    and ``total_weight`` passes none back.

    Raises:
        ValueError: for another ``reduction`` or ``logits`` that are not 2-D (MindSpore's messages).
    """

    def __init__(self, reduction: str = "mean", ignore_index: int = -100) -> None:
        super().__init__("NLLLoss")
        if reduction not in _REDUCTION_CODES:
            raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduction' of 'NLLLoss' to enum.")
        self.reduction, self.ignore_index = reduction, ignore_index
        self.add_prim_attr("reduction", _REDUCTION_CODES[reduction]).add_prim_attr("ignore_index", ignore_index)

    def __call__(self, logits: Tensor, labels: Tensor, weight: Tensor) -> tuple[Tensor, Tensor]:
        if len(logits.shape) != 2:
            raise ValueError(f"For 'NLLLoss', the dimension of 'logits' should be 2, but got: {len(logits.shape)}")
        weight = run("stop_gradient", weight)
        loss = nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        counted = run("not_equal", labels, self.ignore_index)
        classes = run("where", counted, labels, 0)   # an ignored label need not name a class
        weights = run("gather", weight, classes, axis=0) * run("cast", counted, dtype=_np_dtype(weight.dtype))
        total_weight = run("sum", weights)
        return loss, run("stop_gradient", total_weight)
