"""Losses and distances behind MindSpore's primitives ``SoftMarginLoss``, ``MultiMarginLoss``,
``MultilabelMarginLoss``, ``TripletMarginLoss`` and ``Pdist`` (their classes come from :mod:`primitive_table`):
compositions of ops of the op table, so they run eagerly and compiled and are differentiable."""
from __future__ import annotations

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from .array_functional import cumsum
from .eager import run
from .losses import _check_reduction, _reduce
from .numeric import _check_tensor

__all__ = ["soft_margin_loss", "multi_margin_loss", "triplet_margin_loss", "pdist", "multilabel_margin_loss"]


def soft_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    r"""The two-class soft margin loss :math:`\log(1 + e^{-y x})` of ``input`` and labels ``target`` in
    {-1, 1}, reduced by ``reduction``.

    Raises:
        ValueError: if ``reduction`` is unknown or the shapes differ.
    """
    _check_reduction(reduction, "SoftMarginLoss")
    if input.shape != target.shape:
        raise ValueError(f"For 'SoftMarginLoss', the shape of 'input' and 'target' must be the same, but got "
                         f"{input.shape} and {target.shape}.")
    loss = run("log1p", run("exp", run("neg", run("mul", target, input))))
    return _reduce(loss, reduction)


def multi_margin_loss(x: Tensor, target: Tensor, weight: Tensor | None = None, p: int = 1, margin: float = 1.0,
                      reduction: str = "mean") -> Tensor:
    r"""The multi-class hinge loss of the (N, C) scores ``x`` and class indices ``target``: for each row,
    :math:`\sum_{j \ne y} w_y \max(0, margin - x_y + x_j)^p / C`, reduced by ``reduction``.

    Raises:
        TypeError: if ``p`` is not an int, ``margin`` not a float or ``target`` not int64.
        ValueError: if ``p`` is not 1 or 2, ``reduction`` is unknown or the shapes do not fit.
    """
    name = "MultiMarginLoss"
    check_value_type("p", p, [int], name)
    check_value_type("margin", margin, [float], name)
    _check_reduction(reduction, name)
    if p not in (1, 2):
        raise ValueError(f"For '{name}', the 'p' must be 1 or 2, but got {p}.")
    _check_tensor(name, "x", x)
    if not isinstance(target, Tensor) or target.dtype != mstype.int64:
        raise TypeError(f"For '{name}', the 'target' must be a Tensor of int64.")
    if len(x.shape) != 2 or tuple(target.shape) != (x.shape[0],):
        raise ValueError(f"For '{name}', the 'x' must be (N, C) and 'target' (N,), but got {x.shape} and "
                         f"{target.shape}.")
    classes = x.shape[1]
    chosen = run("equal", run("expand_dims", target, axis=1), Tensor([list(range(classes))], mstype.int64))
    picked = run("sum", run("where", chosen, x, run("zeros_like", x)), axis=1, keepdims=True)
    hinge = run("relu", run("add", run("sub", x, picked), margin))   # MindSpore: no gradient at 0
    if p == 2:
        hinge = run("mul", hinge, hinge)
    hinge = run("where", chosen, run("zeros_like", hinge), hinge)
    if weight is not None:
        hinge = run("mul", hinge, run("expand_dims", F.gather(weight, target, 0), axis=1))
    return _reduce(run("div", run("sum", hinge, axis=1), classes), reduction)


def _distance(a: Tensor, b: Tensor, p: int, eps: float) -> Tensor:
    """The ``p``-norm of ``a - b + eps`` over the last dim."""
    difference = run("abs", run("add", run("sub", a, b), eps))
    return run("pow", run("sum", run("pow", difference, p), axis=-1), 1.0 / p)


def triplet_margin_loss(x: Tensor, positive: Tensor, negative: Tensor, margin: Tensor, p: int = 2,
                        swap: bool = False, eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    r""":math:`\max(d(x, positive) - d(x, negative) + margin, 0)` with :math:`d` the ``p``-norm of the difference
    plus ``eps`` over the last dim (with ``swap``, the negative distance is the smaller of ``d(x, negative)`` and
    ``d(positive, negative)``), reduced by ``reduction``.

    Raises:
        TypeError: if ``p`` is not an int, ``swap`` not a bool, ``eps`` not a float or an input no Tensor.
        ValueError: if ``reduction`` is unknown or the shapes differ.
    """
    name = "TripletMarginLoss"
    check_value_type("p", p, [int], name)
    check_value_type("swap", swap, [bool], name)
    check_value_type("eps", eps, [float], name)
    _check_reduction(reduction, name)
    for argument, value in (("x", x), ("positive", positive), ("negative", negative), ("margin", margin)):
        _check_tensor(name, argument, value)
    if x.shape != positive.shape or x.shape != negative.shape:
        raise ValueError(f"For '{name}', the 'x', 'positive' and 'negative' must have one shape, but got "
                         f"{x.shape}, {positive.shape} and {negative.shape}.")
    near = _distance(x, positive, p, eps)
    far = _distance(x, negative, p, eps)
    if swap:
        far = run("minimum", far, _distance(positive, negative, p, eps))
    loss = run("maximum", run("add", run("sub", near, far), margin), 0)
    return _reduce(loss, reduction)


def pdist(x: Tensor, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between the rows of the (N, M) ``x``, pair ``(i, j)`` for ``i < j`` in
    row-major order: shape (N (N - 1) / 2,).

    Raises:
        TypeError: if ``p`` is not a float. ValueError: if it is negative or ``x`` is not 2-D.
    """
    check_value_type("p", p, [float], "Pdist")
    if p < 0:
        raise ValueError(f"For 'Pdist', the 'p' must be non-negative, but got {p}.")
    _check_tensor("Pdist", "x", x)
    if len(x.shape) != 2:
        raise ValueError(f"For primitive[Pdist], the x dim must be equal to 2, but got {len(x.shape)}.")
    n = x.shape[0]
    first = [i for i in range(n) for _ in range(i + 1, n)]
    second = [j for i in range(n) for j in range(i + 1, n)]
    difference = run("abs", run("sub", F.gather(x, Tensor(first, mstype.int64), 0),
                                F.gather(x, Tensor(second, mstype.int64), 0)))
    if p == float("inf"):
        return run("max", difference, axis=-1)
    if p == 0:
        return run("sum", run("cast", run("not_equal", difference, 0), dtype=_np_dtype(x.dtype)), axis=-1)
    return run("pow", run("sum", run("pow", difference, p), axis=-1), 1.0 / p)


def multilabel_margin_loss(x: Tensor, target: Tensor, reduction: str = "mean") -> tuple:
    r"""The multi-label hinge loss of the scores ``x`` ((C,) or (N, C)) and the int32 class lists ``target`` (of
    ``x``'s shape, each list ended by its first -1): for each row,
    :math:`\sum_{j \in targets} \sum_{i \notin targets} \max(0, 1 - (x_j - x_i)) / C`, reduced by ``reduction``;
    with it ``is_target``, 1 where a class is among the row's targets.

    Raises:
        TypeError: if ``target`` is not int32. ValueError: if ``reduction`` is unknown or the shapes differ.
    """
    name = "MultilabelMarginLoss"
    _check_reduction(reduction, name)
    _check_tensor(name, "x", x)
    if not isinstance(target, Tensor) or target.dtype != mstype.int32:
        raise TypeError(f"For '{name}', the 'target' must be a Tensor of int32.")
    if x.shape != target.shape or len(x.shape) not in (1, 2):
        raise ValueError(f"For '{name}', the 'x' and 'target' must have one shape (C,) or (N, C), but got "
                         f"{x.shape} and {target.shape}.")
    rows = x if len(x.shape) == 2 else run("expand_dims", x, axis=0)
    labels = target if len(x.shape) == 2 else run("expand_dims", target, axis=0)
    classes = rows.shape[1]
    ended = run("greater", cumsum(run("cast", run("equal", labels, -1), dtype=np.int64), 1), 0)
    valid = run("logical_not", ended)                                                       # (N, K)
    named = run("equal", run("expand_dims", labels, axis=2),
                Tensor([[list(range(classes))]], mstype.int32))                               # (N, K, C)
    is_target = run("any", run("logical_and", named, run("expand_dims", valid, axis=2)), axis=1)  # (N, C)
    safe = run("where", valid, labels, run("zeros_like", labels))
    picked = run("equal", run("expand_dims", safe, axis=2), Tensor([[list(range(classes))]], mstype.int32))
    spread = run("expand_dims", rows, axis=1)
    scores = run("sum", run("where", picked, spread, run("zeros_like", spread)), axis=2)     # x at each target
    hinge = run("maximum", run("add", run("sub", run("expand_dims", rows, axis=1), run("expand_dims", scores, axis=2)),
                               1.0), 0)                                                    # (N, K, C)
    counted = run("logical_and", run("expand_dims", valid, axis=2), run("expand_dims", run("logical_not", is_target),
                                                                        axis=1))
    loss = run("div", run("sum", run("where", counted, hinge, run("zeros_like", hinge)), axis=(1, 2)), classes)
    if len(x.shape) == 1:
        loss = run("reshape", loss, shape=())
        is_target = run("reshape", is_target, shape=(classes,))
    return _reduce(loss, reduction), run("cast", is_target, dtype=np.int32)
