"""Loss functions: ``LossBase`` (the reduction), ``MSELoss``, ``L1Loss``, ``SoftmaxCrossEntropyWithLogits``.

``construct`` and ``get_loss`` are in the compilable subset.
"""
from __future__ import annotations

from npspore.common import dtype as mstype
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops.eager import run

__all__ = ["LossBase", "MSELoss", "L1Loss", "SoftmaxCrossEntropyWithLogits"]


class LossBase(Cell):
    """Base class of losses: subclasses compute elementwise losses and reduce them with :meth:`get_loss`.

    Args:
        reduction (str): ``'mean'`` (average of all elements), ``'sum'``, or ``'none'`` (no
            reduction). Default: ``'mean'``.
        dtype (mindspore.dtype): the dtype the reduction is computed in. Default: ``mstype.float32``.

    Raises:
        ValueError: If `reduction` is not ``'mean'``, ``'sum'`` or ``'none'``.
    """

    def __init__(self, reduction="mean", dtype=mstype.float32):
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

    def construct(self, logits, labels):
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

    def construct(self, logits, labels):
        return self.get_loss((logits - labels).abs())


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
        ValueError: If `reduction` is not ``'mean'``, ``'sum'`` or ``'none'``.
    """

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'sparse' must be bool, but got "
                            f"{type(sparse).__name__}.")
        self.sparse = sparse

    def construct(self, logits, labels):
        if self.sparse:
            labels = run("one_hot", labels, Tensor(1.0, logits.dtype), Tensor(0.0, logits.dtype),
                         depth=logits.shape[-1])
        return self.get_loss(run("softmax_cross_entropy", logits, labels))
