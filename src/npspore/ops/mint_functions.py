"""Functions MindSpore 2.10 spells both ``ops.X`` and ``mint.X`` (the very same object): ``cross``,
``nan_to_num``, ``ravel``, ``roll``, ``searchsorted``. They live in ``ops`` (``mint`` imports them), written
over the op table's ops, so they run eagerly and compiled and differentiate.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from ..numpy_more import roll as _roll
from . import functional as F
from .array_functional import gather_d
from .eager import run

__all__ = ["cross", "nan_to_num", "ravel", "roll", "searchsorted"]


def nan_to_num(input: Tensor, nan: float | None = None, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """``input`` with NaN replaced by ``nan`` (0 by default) and the infinities by ``posinf``/``neginf`` (the
    dtype's largest and lowest values by default)."""
    if input.dtype not in mstype.float_type:
        return input
    limits = np.finfo(_np_dtype(input.dtype))
    output = run("where", run("not_equal", input, input), 0.0 if nan is None else nan, input)
    output = run("where", run("equal", output, math.inf), float(limits.max) if posinf is None else posinf, output)
    return run("where", run("equal", output, -math.inf), float(limits.min) if neginf is None else neginf, output)


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (None: the first dim of size 3), broadcast.

    Raises:
        ValueError: if ``dim``'s size is not 3 (or no dim has size 3).
    """
    shape = _broadcast_shape(tuple(input.shape), tuple(other.shape))
    if dim is None:
        dim = next((d for d, size in enumerate(shape) if size == 3), None)
        if dim is None:
            raise ValueError(f"For 'cross', no dim of the inputs has size 3: {shape}.")
    if shape[dim] != 3:
        raise ValueError(f"For 'cross', the size of 'dim' {dim} must be 3, but got {shape[dim]}.")
    input, other = run("broadcast_to", input, shape=shape), run("broadcast_to", other, shape=shape)
    axis = dim % len(shape)
    return run("sub", run("mul", _turned(input, 1, axis), _turned(other, 2, axis)),
               run("mul", _turned(input, 2, axis), _turned(other, 1, axis)))


def _broadcast_shape(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """The shape ``first`` and ``second`` broadcast to (the sizes are checked by the ops that use it)."""
    ndim = max(len(first), len(second))
    first, second = (1,) * (ndim - len(first)) + first, (1,) * (ndim - len(second)) + second
    return tuple(b if a == 1 else a for a, b in zip(first, second))


def _turned(x: Tensor, by: int, axis: int) -> Tensor:
    """The 3 components of ``x`` along ``axis`` rotated ``by`` places (``(y, z, x)`` for 1)."""
    return run("gather", x, Tensor(np.array([(by + k) % 3 for k in range(3)], np.int32)), axis=axis)


def ravel(input: Tensor) -> Tensor:
    """``input`` as a 1-D Tensor."""
    return run("reshape", input, shape=(-1,))


def roll(input: Tensor, shifts: int | tuple, dims: int | tuple | None = None) -> Tensor:
    """``input`` with its elements shifted by ``shifts`` along ``dims`` (the flattened input when None)."""
    return _roll(input, shifts, dims)


def searchsorted(sorted_sequence: Tensor, values: Any, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """The positions at which ``values`` would go into ``sorted_sequence`` along its last dim (``right`` or
    ``side='right'``: after equal elements), Int64 (Int32 with ``out_int32``); ``sorter`` sorts it first.

    Raises:
        ValueError: if ``side`` contradicts ``right``.
    """
    if side is not None:
        if side not in ("left", "right") or (side == "left" and right):
            raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right' and agree with 'right', but got "
                             f"side={side!r}, right={right}.")
        right = side == "right"
    if sorter is not None:
        sorted_sequence = gather_d(sorted_sequence, len(sorted_sequence.shape) - 1, sorter)
    if not isinstance(values, Tensor):
        values = F.full((), values, dtype=sorted_sequence.dtype)
    below = run("less_equal" if right else "less", run("expand_dims", sorted_sequence, axis=-2),
                run("expand_dims", values, axis=-1))
    return run("sum", below, axis=(-1,), keepdims=False, dtype=np.int32 if out_int32 else np.int64)
