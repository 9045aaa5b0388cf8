"""Loss functions: ``LossBase`` (the reduction), ``MSELoss``, ``L1Loss``, ``SoftmaxCrossEntropyWithLogits``,
``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``, ``BCEWithLogitsLoss``, ``SmoothL1Loss``, ``HuberLoss``,
``KLDivLoss`` and ``CosineEmbeddingLoss`` (the last eight over :mod:`npspore.ops.losses`).

``construct`` and ``get_loss`` are in the compilable subset.
"""
from __future__ import annotations

from typing import Any

from npspore.common import dtype as mstype
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import losses as F
from npspore.ops.eager import run

__all__ = ["LossBase", "MSELoss", "L1Loss", "MAELoss", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss",
           "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss", "KLDivLoss", "CosineEmbeddingLoss",
           "RMSELoss", "DiceLoss", "SoftMarginLoss"]
# A package without files: MindSpore's path nn.loss.loss is this module (npspore.module_aliases).
__path__: list[str] = []


class LossBase(Cell):
    """Base class of losses: subclasses compute elementwise losses and reduce them with :meth:`get_loss`.

    Args:
        reduction (str): ``'mean'`` (average of all elements), ``'sum'``, or ``'none'`` (no
            reduction). Default: ``'mean'``.
        dtype (mindspore.dtype): the dtype the reduction is computed in. Default: ``mstype.float32``.

    Raises:
        ValueError: If `reduction` is not ``'mean'``, ``'sum'`` or ``'none'``.
    """

    def __init__(self, reduction: str = "mean", dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             f"but got {reduction}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"
        self.dtype = dtype

    def get_axis(self, x):
        """All axes of `x`, as a tuple.

        Args:
            x (Tensor): the Tensor.

        Returns:
            tuple[int].
        """
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        """Weight the elementwise losses `x` and reduce them as `reduction` says.

        The computation runs in ``self.dtype``; the result has the dtype of `x`.

        Args:
            x (Tensor): the elementwise losses.
            weights (Union[float, Tensor]): multiplies `x`, broadcasting. Default: ``1.0``.

        Returns:
            Tensor: 0-d for ``'mean'`` and ``'sum'``, the shape of `x` for ``'none'``.
        """
        input_dtype = x.dtype
        if input_dtype != self.dtype:
            x = x.astype(self.dtype)
        if isinstance(weights, Tensor):
            x = (weights if weights.dtype == self.dtype else weights.astype(self.dtype)) * x
        elif weights != 1.0:
            x = weights * x
        if self.reduce and self.average:
            x = x.mean(self.get_axis(x))
        if self.reduce and not self.average:
            x = x.sum(self.get_axis(x))
        if input_dtype != self.dtype:
            x = x.astype(input_dtype)
        return x


class MSELoss(LossBase):
    r"""Mean squared error: :math:`\ell = (x - y)^2` elementwise, then reduced.

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - the predictions.
        - **labels** (Tensor) - the targets, broadcastable with `logits`.

    Outputs:
        Tensor: 0-d for ``'mean'`` and ``'sum'``, the broadcast shape for ``'none'``.

    Raises:
        ValueError: If `reduction` is not ``'mean'``, ``'sum'`` or ``'none'``.
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.get_loss((logits - labels).square())


class L1Loss(LossBase):
    r"""Mean absolute error: :math:`\ell = |x - y|` elementwise, then reduced.

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - the predictions.
        - **labels** (Tensor) - the targets, broadcastable with `logits`.

    Outputs:
        Tensor: 0-d for ``'mean'`` and ``'sum'``, the broadcast shape for ``'none'``.

    Raises:
        ValueError: If `reduction` is not ``'mean'``, ``'sum'`` or ``'none'``.
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.get_loss((logits - labels).abs())


class MAELoss(L1Loss):
    r"""Mean absolute error, MindSpore's other name of :class:`L1Loss`: :math:`\ell = |x - y|`, then reduced.

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
    """


class SoftmaxCrossEntropyWithLogits(LossBase):
    r"""Cross entropy between the softmax of `logits` and `labels`: :math:`-\sum_j y_j \log\operatorname{softmax}(x)_j`.

    Args:
        sparse (bool): whether `labels` are class indices (otherwise one-hot / probability rows).
            Default: ``False``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'none'``.

    Inputs:
        - **logits** (Tensor) - shape :math:`(N, C)`, floating point.
        - **labels** (Tensor) - shape :math:`(N,)` of int32/int64 class indices when `sparse`,
          else shape :math:`(N, C)` with the dtype of `logits`.

    Outputs:
        Tensor: shape :math:`(N,)` for ``'none'``, 0-d otherwise.

    Raises:
        TypeError: If `sparse` is not a bool.
        ValueError: If `reduction` is not ``'mean'``, ``'sum'`` or ``'none'``, or (when called) a sparse
            label is not a class in ``[0, C)``.
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'sparse' must be bool, but got "
                            f"{type(sparse).__name__}.")
        self.sparse = sparse

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        if self.sparse:
            # each sample's log-probability read at its label: no dense one-hot, and log_softmax's
            # gradient reads the log-probabilities instead of computing them again
            labels = run("class_indices", labels, depth=logits.shape[-1], loss=self.cls_name, target="labels")
            log_probs = run("log_softmax", logits, axis=-1)
            picked = run("gather_last", log_probs, run("expand_dims", labels, axis=-1))
            return self.get_loss(-run("squeeze", picked, axis=-1))
        return self.get_loss(run("softmax_cross_entropy", logits, labels))


class CrossEntropyLoss(LossBase):
    r"""Cross entropy between ``softmax(logits)`` over dim 1 and `labels`: class indices, or class
    probabilities shaped like `logits` (see :func:`npspore.ops.cross_entropy`).

    Args:
        weight (Tensor): per-class weights :math:`(C,)`. Default: ``None``.
        ignore_index (int): a class index that contributes nothing. Default: ``-100``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
        label_smoothing (float): in [0, 1]. Default: ``0.0``.

    Inputs:
        - **logits** (Tensor) - :math:`(N, C, ...)`.
        - **labels** (Tensor) - :math:`(N, ...)` int class indices, or probabilities like `logits`.

    Outputs:
        Tensor: 0-d, or :math:`(N, ...)` for ``'none'``.
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    r"""Negative log-likelihood of class indices `labels` under log-probabilities `logits` :math:`(N, C, ...)`.

    Args:
        weight (Tensor): per-class weights :math:`(C,)`. Default: ``None``.
        ignore_index (int): a class index that contributes nothing. Default: ``-100``.
        reduction (str): ``'mean'`` (over the summed weights), ``'sum'`` or ``'none'``. Default: ``'mean'``.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    r"""Binary cross entropy of probabilities `logits` against `labels`:
    :math:`-w (y \log x + (1 - y) \log(1 - x))`.

    Args:
        weight (Tensor): multiplies each element's loss (broadcast). Default: ``None``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
    """

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    r"""Binary cross entropy of ``sigmoid(logits)`` against `labels`, computed without overflow.

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
        weight (Tensor): multiplies each element's loss (broadcast). Default: ``None``.
        pos_weight (Tensor): weights the positive term, per class (broadcast). Default: ``None``.
    """

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)


class SmoothL1Loss(LossBase):
    r"""Smooth L1: :math:`0.5 d^2 / \beta` where :math:`|d| < \beta`, else :math:`|d| - 0.5 \beta`.

    Args:
        beta (float): the switch point. Default: ``1.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'none'``.
    """

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    r"""Huber: :math:`0.5 d^2` where :math:`|d| < \delta`, else :math:`\delta (|d| - 0.5 \delta)`.

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
        delta (float): the switch point. Default: ``1.0``.
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.huber_loss(logits, labels, self.reduction, self.delta)


class KLDivLoss(LossBase):
    r"""Kullback-Leibler divergence of `labels` from log-probabilities `logits`:
    :math:`y (\log y - x)` elementwise, then reduced.

    Args:
        reduction (str): ``'mean'``, ``'batchmean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
    """

    def __init__(self, reduction="mean"):
        super().__init__("mean" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.kl_div(logits, labels, self.reduction)


class CosineEmbeddingLoss(LossBase):
    r"""Cosine embedding loss: :math:`1 - \cos(x_1, x_2)` where `labels` is 1,
    :math:`\max(0, \cos(x_1, x_2) - margin)` where it is -1.

    Args:
        margin (float): in [-1, 1]. Default: ``0.0``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.

    Inputs:
        - **logits_x1** (Tensor) - :math:`(N, D)`.
        - **logits_x2** (Tensor) - :math:`(N, D)`.
        - **labels** (Tensor) - :math:`(N,)` of 1 and -1.
    """

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits_x1: Tensor, logits_x2: Tensor, labels: Tensor) -> Tensor:
        return F.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin, self.reduction)


# ---- losses composed of others (data-nn)


class _Loss(LossBase):
    """MindSpore 1.x's name of :class:`LossBase` (deprecated there since 1.3), for subclasses written against it."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)


class RMSELoss(LossBase):
    r"""Root mean squared error: :math:`\sqrt{\frac{1}{n} \sum (x_i - y_i)^2}` over all elements.

    Inputs:
        - **logits** (Tensor) - any shape.
        - **labels** (Tensor) - broadcastable with `logits`.

    Outputs:
        Tensor, 0-d.

    Examples:
        >>> nn.RMSELoss()(Tensor(np.array([1, 2, 3]), ms.float32), Tensor(np.array([1, 2, 2]), ms.float32))
        Tensor(shape=[], dtype=Float32, value= 0.57735)
    """

    def __init__(self) -> None:
        super().__init__()
        self.mse = MSELoss()

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        for name, value in (("logits", logits), ("labels", label)):
            if value.dtype in mstype.uint_type:
                raise TypeError(f"For 'RMSELoss', the dtype of '{name}' can not be unsigned, but got {value.dtype}.")
        return self.mse(logits, label).sqrt()


class DiceLoss(LossBase):
    r"""One minus the Dice coefficient of `logits` and `labels`, over all elements:
    :math:`1 - \frac{2 \sum x y}{\sum x^2 + \sum y^2 + smooth}`.

    Args:
        smooth (float): added to the denominator, a positive float. Default: ``1e-5``.

    Inputs:
        - **logits** (Tensor) - any shape, not uint8.
        - **labels** (Tensor) - the shape of `logits`, not uint8.

    Outputs:
        Tensor, 0-d.

    Raises:
        TypeError: If `smooth` is not a float, or an input is uint8.
        ValueError: If `smooth` is not positive, or the shapes differ.
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if not isinstance(smooth, float):
            raise TypeError(f"The 'smooth' must be float, but got '{type(smooth).__name__}'")
        if smooth <= 0:
            raise ValueError(f"The 'smooth' must be positive, but got {smooth}.")
        self.smooth = smooth

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        if logits.shape != label.shape:
            raise ValueError(f"For 'DiceLoss', the 'logits_shape' should be = label_shape: {label.shape}, but got "
                             f"{logits.shape}.")
        for name, value in (("logits", logits), ("labels", label)):
            if value.dtype == mstype.uint8:
                raise TypeError(f"For 'DiceLoss', the dtype of '{name}' can not be uint8.")
        x = logits.reshape(-1)
        y = label.reshape(-1)
        union = (x * x).sum() + (y * y).sum()
        return 1 - (2 * (x * y).sum()) / (union + self.smooth)


class SoftMarginLoss(LossBase):
    r"""The two-class soft margin loss :math:`\log(1 + e^{-y x})` of `logits` and labels :math:`y \in \{-1, 1\}`,
    reduced in the inputs' dtype (MindSpore 2.10 has no CPU kernel for it; these are its docstring's numbers).

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - any shape.
        - **labels** (Tensor) - the shape and dtype of `logits`.

    Outputs:
        Tensor: 0-d, or the shape of `logits` for ``'none'``.

    Raises:
        ValueError: If `reduction` is unknown, or the shapes differ.
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        if logits.shape != labels.shape:
            raise ValueError(f"For 'SoftMarginLoss', the shape of 'logits' and 'labels' must be the same, but got "
                             f"{logits.shape} and {labels.shape}.")
        loss = (1 + (-labels * logits).exp()).log()
        if self.reduction == "mean":
            return loss.mean()
        return loss.sum() if self.reduction == "sum" else loss
