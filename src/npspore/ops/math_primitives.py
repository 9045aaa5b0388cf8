"""Losses and checks of the model-zoo era, as ``mindspore.ops`` / ``ops.operations``: ``L2Loss`` and
``FloatStatus``, built from ops of the table, so they work eagerly and in compiled code (``AddN``, ``range`` and
the ``Dropout`` primitive are in :mod:`array_primitives`, :mod:`ranges` and :mod:`nn_primitives`)."""
from __future__ import annotations

from ..common.tensor import _np_dtype
from .eager import run
from .primitives import _Stateless

__all__ = ["L2Loss", "FloatStatus"]


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
