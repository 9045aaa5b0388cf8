"""Functional losses, as ``mindspore.ops``: ``cross_entropy``, ``nll_loss``, ``binary_cross_entropy``,
``binary_cross_entropy_with_logits``, ``smooth_l1_loss``, ``huber_loss``, ``kl_div`` and
``cosine_embedding_loss``, with MindSpore's arguments (``weight``, ``ignore_index``,
``label_smoothing``, ``reduction``).

Each is a composition of existing ops (log-softmax, one-hot, elementwise arithmetic, reductions), in
the compilable subset, so its gradients of every order come from those ops' adjoints.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import _np_dtype
from .eager import dim, run

__all__ = [
    "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss",
    "huber_loss", "kl_div", "cosine_embedding_loss",
]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction, fn_name, allowed=_REDUCTIONS):
    if reduction not in allowed:
        raise ValueError(f"For '{fn_name}', the 'reduction' must be in {list(allowed)}, but got {reduction}.")


def _reduce(loss, reduction):
    """``loss`` averaged, summed or kept as it is."""
    if reduction == "mean":
        return run("mean", loss)
    if reduction == "sum":
        return run("sum", loss)
    return loss


def _class_vector(weight, ndim):
    """A per-class ``(C,)`` weight, shaped to broadcast along dim 1 of an ``ndim``-dim input."""
    return run("reshape", weight, shape=(1, -1) + (1,) * (ndim - 2))


def _picked(log_probs, target):
    """Each sample's log-probability at its class in ``target``: ``log_probs (N, C, ...)`` read along
    dim 1 (``np.take_along_axis``; its gradient writes each back, no dense one-hot), ``(N, ...)``."""
    ndim = len(log_probs.shape)
    if ndim > 2:
        log_probs = run("transpose", log_probs, axes=(0,) + tuple(range(2, ndim)) + (1,))
    return run("squeeze", run("gather_last", log_probs, run("expand_dims", target, axis=-1)), axis=-1)


def _nll(log_probs, target, weight, ignore_index, reduction, label_smoothing):
    """The negative log-likelihood of class indices ``target`` under ``log_probs (N, C, ...)``,
    with per-class ``weight``, ``ignore_index`` and ``label_smoothing`` (PyTorch's definition)."""
    classes = log_probs.shape[1]
    dtype = _np_dtype(log_probs.dtype)
    target = run("class_indices", target, depth=classes, ignore_index=ignore_index)
    counted = target != ignore_index
    kept = run("cast", counted, dtype=dtype)
    target = run("where", counted, target, 0)   # an ignored sample reads class 0, with weight 0
    weights = kept if weight is None else kept * run("gather", weight, target, axis=0)
    loss = -_picked(log_probs, target) * weights
    if label_smoothing > 0:
        everywhere = log_probs if weight is None else log_probs * _class_vector(weight, len(log_probs.shape))
        smooth = -run("sum", everywhere, axis=1) * kept
        loss = loss * (1 - label_smoothing) + smooth * (label_smoothing / classes)
    if reduction == "mean":
        return run("sum", loss) / run("sum", weights)
    return _reduce(loss, reduction)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Negative log-likelihood of the class indices ``target (N, ...)`` under log-probabilities
    ``inputs (N, C, ...)``; ``'mean'`` divides by the summed weights of the counted targets."""
    _check_reduction(reduction, "nll_loss")
    return _nll(inputs, target, weight, ignore_index, reduction, label_smoothing)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Cross entropy between ``softmax(input)`` over dim 1 (dim 0 of a 1-D ``input``) and ``target``:
    class indices ``(N, ...)`` (int), or class probabilities shaped like ``input`` (float).

    Args:
        weight (Tensor): per-class weights ``(C,)``. Default: ``None``.
        ignore_index (int): a class index that contributes nothing (indices only). Default: ``-100``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        label_smoothing (float): mixes the target with the uniform distribution, in [0, 1].
    """
    _check_reduction(reduction, "cross_entropy")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For 'cross_entropy', the 'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    if len(input.shape) == 1:  # one sample, classes along dim 0: MindSpore's class_dim is 0
        loss = _cross_entropy(run("expand_dims", input, axis=0), run("expand_dims", target, axis=0), weight,
                              ignore_index, reduction, label_smoothing)
        return run("squeeze", loss, axis=0) if reduction == "none" else loss
    return _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


def _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing):
    """:func:`cross_entropy` of an ``(N, C, ...)`` input."""
    log_probs = run("log_softmax", input, axis=1)
    if _np_dtype(target.dtype).kind == "f" and target.shape != input.shape:
        raise ValueError(f"For 'cross_entropy', the 'target' must be class indices (an int tensor of shape "
                         f"{input.shape[:1] + input.shape[2:]}) or class probabilities of the input's shape "
                         f"{input.shape}, but got {target.dtype} of shape {target.shape}.")
    if target.dtype == input.dtype:
        classes = input.shape[1]
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        weighted = log_probs * target
        if weight is not None:
            weighted = weighted * _class_vector(weight, len(input.shape))
        loss = -run("sum", weighted, axis=1)
        if reduction == "mean":
            return run("sum", loss) / (input.size // classes)
        return _reduce(loss, reduction)
    return _nll(log_probs, target, weight, ignore_index, reduction, label_smoothing)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """``-weight * (labels * log(logits) + (1 - labels) * log(1 - logits))`` for probabilities ``logits``;
    each log is clamped at ``-100`` as MindSpore does."""
    _check_reduction(reduction, "binary_cross_entropy")
    loss = -(labels * run("maximum", run("log", logits), -100.0)
             + (1 - labels) * run("maximum", run("log", 1 - logits), -100.0))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    """Binary cross entropy of ``sigmoid(input)``, without overflow:
    ``(1 - target) * input + (1 + (pos_weight - 1) * target) * softplus(-input)``, times ``weight``."""
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    half = input.dtype == mstype.float16
    if half:  # MindSpore's CPU kernel computes a float16 loss in float32 and rounds the result once
        input, target, weight, pos_weight = (None if t is None else run("cast", t, dtype=np.float32)
                                             for t in (input, target, weight, pos_weight))
    log_weight = 1 if pos_weight is None else (pos_weight - 1) * target + 1
    loss = (1 - target) * input + log_weight * run("softplus", -input)
    if weight is not None:
        loss = loss * weight
    loss = _reduce(loss, reduction)
    return run("cast", loss, dtype=np.float16) if half else loss


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``, for ``d = input - target``."""
    _check_reduction(reduction, "smooth_l1_loss")
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', the 'beta' must be positive, but got {beta}.")
    diff = input - target
    size = run("abs", diff)  # squaring diff itself keeps the second derivative right at diff == 0
    loss = run("where", size < beta, run("square", diff) * (0.5 / beta), size - 0.5 * beta)
    return _reduce(loss, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """``0.5 * d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 * delta)``, for ``d = input - target``."""
    _check_reduction(reduction, "huber_loss")
    if delta <= 0:
        raise ValueError(f"For 'huber_loss', the 'delta' must be positive, but got {delta}.")
    diff = input - target
    size = run("abs", diff)  # squaring diff itself keeps the second derivative right at diff == 0
    loss = run("where", size < delta, run("square", diff) * 0.5, (size - 0.5 * delta) * delta)
    return _reduce(loss, reduction)


def kl_div(logits, labels, reduction="mean"):
    """``labels * (log(labels) - logits)`` (0 where ``labels`` is 0), for log-probabilities ``logits``;
    as in MindSpore, no gradient flows to ``labels``.

    Args:
        reduction (str): ``'mean'`` (over all elements), ``'batchmean'`` (the sum over the batch
            size), ``'sum'`` or ``'none'``.
    """
    _check_reduction(reduction, "kl_div", ("mean", "batchmean", "sum", "none"))
    labels = run("stop_gradient", labels)
    positive = labels > 0
    safe = run("where", positive, labels, 1.0)
    loss = run("where", positive, labels * (run("log", safe) - logits), -labels * logits)
    if reduction == "batchmean":
        return run("sum", loss) / dim(logits, 0)
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1
    (cosine along the last dim, each norm at least ``sqrt(1e-12)``)."""
    _check_reduction(reduction, "cosine_embedding_loss")
    axis = len(input1.shape) - 1
    dot = run("sum", input1 * input2, axis=axis)
    norms = run("sqrt", (run("sum", run("square", input1), axis=axis) + 1e-12)
                * (run("sum", run("square", input2), axis=axis) + 1e-12))
    cosine = dot / norms
    loss = run("where", target == 1, 1 - cosine, run("relu", cosine - margin))
    return _reduce(loss, reduction)
