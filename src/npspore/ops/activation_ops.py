"""Activations and losses of ``mindspore.ops`` written over ops of the table: ``selu``, ``celu``, ``hardshrink``,
``softshrink``, ``mse_loss`` and the computation of ``SparseSoftmaxCrossEntropyWithLogits`` (the primitive
classes ``SeLU``, ``CeLU``, ``HShrink``, ``SoftShrink`` ... come from :mod:`primitive_table`). Each is a
composition, so it runs eagerly and compiled and is differentiable."""
from __future__ import annotations

from .._checkparam import check_value_type
from ..common.tensor import Tensor
from .eager import run

__all__ = ["selu", "celu", "hardshrink", "softshrink", "mse_loss", "fast_gelu", "rms_norm"]

_SELU_ALPHA, _SELU_SCALE = 1.67326324, 1.05070098


def _negative_part(x: Tensor, alpha: float, scale: float = 1.0, width: float = 1.0) -> Tensor:
    """``scale * alpha * (exp(x / width) - 1)`` where ``x`` is not positive, else ``scale * x``."""
    below = (run("exp", run("minimum", x, 0.0) / width) - 1) * (alpha * scale)
    return run("where", x > 0, x * scale, below)


def selu(input_x: Tensor) -> Tensor:
    """``scale * x`` where positive, else ``scale * alpha * (exp(x) - 1)`` (``alpha = 1.67326324``,
    ``scale = 1.05070098``)."""
    return _negative_part(input_x, _SELU_ALPHA, _SELU_SCALE)


def celu(x: Tensor, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Raises:
        TypeError: if ``alpha`` is not a float. ValueError: if it is 0.
    """
    check_value_type("alpha", alpha, [float], "CeLU")
    if alpha == 0:
        raise ValueError("For 'CeLU', the 'alpha' can not be equal to zero.")
    return _negative_part(x, alpha, width=alpha)


def _check_lambd(name: str, lambd) -> None:
    check_value_type("lambd", lambd, [float], name)
    if lambd < 0:
        raise ValueError(f"For '{name}', the 'lambd' must be no less than 0, but got {lambd}.")


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0."""
    _check_lambd("HShrink", lambd)
    return run("where", run("abs", input) > lambd, input, input * 0)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input - lambd`` above ``lambd``, ``input + lambd`` below ``-lambd``, else 0."""
    _check_lambd("SoftShrink", lambd)
    return run("where", input > lambd, input - lambd, run("where", input < -lambd, input + lambd, input * 0))


def elu_alpha_one(input_x: Tensor, alpha: float = 1.0) -> Tensor:
    """``P.Elu(alpha)(x)``: :func:`npspore.ops.elu`, whose primitive takes only ``alpha=1.0`` in MindSpore 2.10.

    Raises:
        ValueError: for another ``alpha``.
    """
    if alpha != 1.0:
        raise ValueError(f"For 'Elu', the 'alpha' must be 1.0 (MindSpore's Elu primitive), but got {alpha}.")
    return _negative_part(input_x, 1.0)


def fast_gelu(x: Tensor) -> Tensor:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, MindSpore's fast GeLU approximation."""
    magnitude = run("abs", x)
    return x / (run("exp", magnitude * -1.702) + 1) * run("exp", (x - magnitude) * 0.851)


_REDUCTIONS = ("mean", "sum", "none")


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """``(input - target) ** 2`` (broadcast), averaged (``'mean'``), summed (``'sum'``) or not (``'none'``).

    Raises:
        ValueError: if ``reduction`` is none of these.
    """
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For 'mse_loss', 'reduction' must be str and must be in '{list(_REDUCTIONS)}', but got "
                         f"'{reduction}'.")
    difference = input - target
    squared = difference * difference
    if reduction == "none":
        return squared
    return run("mean" if reduction == "mean" else "sum", squared)


def sparse_softmax_cross_entropy(logits: Tensor, labels: Tensor, is_grad: bool = False) -> Tensor:
    """The mean over the batch of ``-log(softmax(logits)[label])`` for ``logits (N, C)`` and int ``labels (N,)``;
    with ``is_grad`` its gradient in the logits, ``(softmax(logits) - one_hot(labels)) / N``.

    Raises:
        ValueError: if ``logits`` is not 2-D or ``labels`` not ``(N,)``.
    """
    if len(logits.shape) != 2 or tuple(labels.shape) != (logits.shape[0],):
        raise ValueError(f"For 'SparseSoftmaxCrossEntropyWithLogits', the 'logits' must be (N, C) and 'labels' (N,),"
                         f" but got {logits.shape} and {labels.shape}.")
    batch, classes = logits.shape
    chosen = run("one_hot", labels, run("ones_like", logits[0, 0]), run("zeros_like", logits[0, 0]),
                 depth=classes, axis=-1)
    if is_grad:
        return (run("softmax", logits, axis=-1) - chosen) / batch
    return -run("sum", run("log_softmax", logits, axis=-1) * chosen) / batch


def rms_norm(x: Tensor, gamma: Tensor, epsilon: float = 1e-6) -> tuple[Tensor, Tensor]:
    """Root-mean-square normalization over the last ``gamma.ndim`` dims: ``x * rstd * gamma`` and
    ``rstd = 1 / sqrt(mean(x ** 2) + epsilon)`` (those dims kept as 1).

    Raises:
        TypeError: if ``epsilon`` is not a float. ValueError: if it is not in ``(0, 1]`` or ``gamma`` has more
            dims than ``x``.
    """
    check_value_type("epsilon", epsilon, [float], "RmsNorm")
    if not 0 < epsilon <= 1:
        raise ValueError(f"For 'RmsNorm', the 'epsilon' must be in (0, 1], but got {epsilon}.")
    if len(gamma.shape) > len(x.shape):
        raise ValueError(f"For 'RmsNorm', the rank of 'gamma' ({len(gamma.shape)}) must not exceed the rank of 'x' "
                         f"({len(x.shape)}).")
    axes = tuple(range(len(x.shape) - len(gamma.shape), len(x.shape)))
    rstd = run("rsqrt", run("mean", x * x, axis=axes, keepdims=True) + epsilon) if axes else \
        run("rsqrt", x * x + epsilon)
    return x * rstd * gamma, rstd
