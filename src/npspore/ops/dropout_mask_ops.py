"""``DropoutGenMask`` and ``DropoutDoMask``: MindSpore's deprecated two-step dropout (Ascend kernels only; no
docstring example), kept by the models that build dropout from them: ``mask = DropoutGenMask()(shape, keep_prob)``
then ``DropoutDoMask()(x, mask, keep_prob)`` is ``x`` with each element kept with probability ``keep_prob`` and
scaled by ``1 / keep_prob``, else 0.

The mask is MindSpore's shape, ``uint8`` of ``ceil(n / 128) * 16`` bytes for ``n`` elements, one bit per element;
npspore packs the bits least significant first (the layout of Ascend's mask is its own: a mask is only meant for
the ``DropoutDoMask`` of the same shape). The draws come from npspore's seeded generator (``set_seed``); ``Seed0``
and ``Seed1`` are recorded. Written over ops of the table, so both run eagerly and compiled; ``DropoutDoMask`` is
differentiable in ``x``.
"""
from __future__ import annotations

import math

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .primitives import Primitive

__all__ = ["DropoutGenMask", "DropoutDoMask"]

_BITS = Tensor(np.array([1 << bit for bit in range(8)], np.int32))


def _mask_bytes(count: int) -> int:
    return math.ceil(count / 128) * 16


class DropoutGenMask(Primitive):
    """``DropoutGenMask(Seed0=0, Seed1=0)(shape, keep_prob)``: a random keep mask for ``shape`` (a tuple of ints),
    each bit 1 with probability ``keep_prob`` (a 0-d float Tensor or a number)."""

    def __init__(self, Seed0=0, Seed1=0):  # noqa: N803 - MindSpore's argument names
        super().__init__("DropoutGenMask")
        check_value_type("Seed0", Seed0, [int], self.name)
        check_value_type("Seed1", Seed1, [int], self.name)
        self.add_prim_attr("Seed0", Seed0).add_prim_attr("Seed1", Seed1)

    def __call__(self, shape, keep_prob) -> Tensor:
        if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise TypeError(f"For '{self.name}', the 'shape' must be a tuple of ints, but got {shape!r}.")
        count = math.prod(shape)
        size = _mask_bytes(count)
        draws = run("random_uniform", shape=(size * 8,), dtype=np.dtype(np.float32))
        bits = F.cast(F.less(draws, keep_prob), mstype.int32)
        keep = Tensor(np.arange(size * 8) < count)   # the padding bits stay 0
        packed = F.reduce_sum(F.reshape(bits * F.cast(keep, mstype.int32), (size, 8)) * _BITS, 1)
        return F.cast(packed, mstype.uint8)


class DropoutDoMask(Primitive):
    """``DropoutDoMask()(input_x, mask, keep_prob)``: ``input_x * bit / keep_prob`` with each element's bit of
    ``mask`` (a :class:`DropoutGenMask` of ``input_x``'s shape)."""

    def __init__(self):
        super().__init__("DropoutDoMask")

    def __call__(self, input_x: Tensor, mask: Tensor, keep_prob) -> Tensor:
        if not isinstance(input_x, Tensor) or not isinstance(mask, Tensor):
            raise TypeError(f"For '{self.name}', the 'input_x' and 'mask' must be Tensors.")
        count = math.prod(input_x.shape)
        if mask.dtype != mstype.uint8 or tuple(mask.shape) != (_mask_bytes(count),):
            raise ValueError(f"For '{self.name}', the 'mask' must be uint8 of shape ({_mask_bytes(count)},) for "
                             f"'input_x' of shape {tuple(input_x.shape)}, but got {mask.dtype} of shape "
                             f"{tuple(mask.shape)}.")
        shifted = run("right_shift", F.reshape(F.cast(mask, mstype.int32), (-1, 1)),
                      Tensor(np.arange(8, dtype=np.int32)))
        bits = F.reshape(run("bitwise_and", shifted, 1), (-1,))[:count]
        kept = F.cast(F.reshape(bits, tuple(input_x.shape)), input_x.dtype)
        return input_x * kept / F.cast(keep_prob, input_x.dtype) if isinstance(keep_prob, Tensor) else \
            input_x * kept / keep_prob
