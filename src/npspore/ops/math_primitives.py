"""Sums, losses and checks of the model-zoo era, as ``mindspore.ops`` / ``ops.operations``: ``AddN``,
``L2Loss``, ``FloatStatus``, ``Dropout`` (the primitive, which also returns its mask), and the functional
``addn`` and ``range`` (MindSpore's Tensor-argument ``arange``). Each is built from ops of the table, so
it is differentiable where it is continuous and works eagerly and in compiled code.
"""
from __future__ import annotations

import builtins

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import array_functional as A
from .eager import run
from .primitives import Primitive, _Stateless

__all__ = ["AddN", "L2Loss", "FloatStatus", "Dropout", "addn", "range"]


def addn(x) -> Tensor:
    """The elementwise sum of the Tensors of the tuple or list ``x`` (all of one shape and dtype).

    Raises:
        TypeError: If ``x`` is not a non-empty tuple or list of Tensors.
        ValueError: If the shapes differ.
    """
    if not isinstance(x, (tuple, list)) or not x or not all(isinstance(t, Tensor) for t in x):
        raise TypeError(f"For 'AddN', the input must be a non-empty tuple or list of Tensors, but got {type(x)}.")
    for t in x[1:]:
        if t.shape != x[0].shape:
            raise ValueError(f"For 'AddN', every input must have shape {x[0].shape}, but got {t.shape}.")
    total = x[0]
    for t in x[1:]:
        total = total + t
    return total


def range(start: Tensor, end: Tensor, step: Tensor, maxlen: int = 1000000) -> Tensor:  # noqa: A001 - MindSpore's name
    """``start, start + step, ...`` below ``end``, from 0-d Tensors (``ops.range``): Int64 for integer
    inputs, else the dtype of ``start``.

    Raises:
        ValueError: If ``step`` is 0 or the result would have more than ``maxlen`` elements.
    """
    values = [t.item() if isinstance(t, Tensor) else t for t in (start, end, step)]
    numbers = A.arange_values("range", *values)
    if len(numbers) > maxlen:
        raise ValueError(f"For 'range', the number of elements {len(numbers)} exceeds 'maxlen' {maxlen}.")
    every_int = all(isinstance(v, int) for v in values)
    dtype = mstype.int64 if every_int else (start.dtype if isinstance(start, Tensor) else mstype.float32)
    return A.arange(*values, dtype=dtype)


class AddN(_Stateless):
    """``AddN()(x)``: the elementwise sum of the Tensors of ``x`` (see :func:`addn`)."""

    def __call__(self, x):
        return addn(x)


class L2Loss(_Stateless):
    """``L2Loss()(x)``: ``sum(x ** 2) / 2``, a 0-d Tensor of ``x``'s dtype."""

    def __call__(self, input_x):
        return (input_x * input_x).sum() / 2


class FloatStatus(_Stateless):
    """``FloatStatus()(x)``: ``[1.]`` when ``x`` holds a NaN or an infinity, else ``[0.]``, of ``x``'s dtype
    and shape (1,) (MindSpore 2.10 has no CPU kernel for it; this is its documented result)."""

    def __call__(self, x):
        finite = run("abs", x) < float("inf")   # False for infinities and NaN
        bad = run("logical_not", run("all", finite, axis=None, keepdims=False))
        return run("reshape", run("cast", bad, dtype=_np_dtype(x.dtype)), shape=(1,))


class Dropout(Primitive):
    """``Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)``: ``(output, mask)``: ``x`` with each element kept with
    probability ``keep_prob`` and scaled by ``1 / keep_prob``, and the mask of kept elements (1. or 0.).

    Raises:
        ValueError: If ``keep_prob`` is not in (0, 1].
    """

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):  # noqa: N803 - MindSpore's argument names
        super().__init__("Dropout")
        if not isinstance(keep_prob, (int, float)) or isinstance(keep_prob, bool) or not 0 < keep_prob <= 1:
            raise ValueError(f"For 'Dropout', the 'keep_prob' must be in range (0, 1], but got {keep_prob}.")
        self.keep_prob = builtins.float(keep_prob)
        self.add_prim_attr("keep_prob", keep_prob)

    def __call__(self, x):
        if self.keep_prob == 1.0:
            return x * 1, run("ones_like", x)
        scaled = run("dropout_mask", shape=x.shape, keep_prob=self.keep_prob, dtype=_np_dtype(x.dtype))
        return x * scaled, run("cast", scaled > 0, dtype=_np_dtype(x.dtype))
