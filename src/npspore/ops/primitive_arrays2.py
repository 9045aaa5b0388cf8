"""Small compositions behind the arrays2 rows of the primitive table (:mod:`npspore.ops.primitive_table`):
``CountNonZero``, ``FillV2``, ``InplaceSub``, ``InplaceUpdate``, ``ChannelShuffle``, ``HSVToRGB``,
``AdaptiveAvgPool3D`` and ``AdaptiveMaxPool2D``, written with existing ops (so differentiable and compiled as
they are).
"""
from __future__ import annotations

from typing import Any

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from . import math_functional as M
from . import nn_functional as nnf
from .nn_array_primitives import inplace_add
from .eager import run
from .numeric import _check_tensor
from .primitive_arrays_a_l import inplace_update_v2


def count_nonzero_dims(x: Tensor, dims: Any = None) -> Tensor:
    """The int64 number of nonzero elements of ``x`` over ``dims`` (None or ``[]``: all)."""
    axis = () if dims is None else (dims if isinstance(dims, int) else tuple(dims))
    return M.count_nonzero(x, axis, dtype=mstype.int64)


def fill_v2(shape: Any, value: Tensor) -> Tensor:
    """A Tensor of ``shape`` (a 1-D int Tensor, tuple or list) filled with the 0-d Tensor ``value``, in its dtype."""
    _check_tensor("FillV2", "value", value)
    if isinstance(shape, Tensor):
        shape = tuple(int(size) for size in shape.asnumpy().reshape(-1))
    return F.fill(value.dtype, shape, value)


def inplace_sub(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x`` with ``v``'s rows subtracted from its rows ``indices`` (an int or a tuple of ints)."""
    return inplace_add(x, F.neg(v), indices)


def inplace_update(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x`` with its rows ``indices`` (an int or a tuple of ints) replaced by the rows of ``v``."""
    return inplace_update_v2(x, indices, v)


def channel_shuffle(x: Tensor, group: int) -> Tensor:
    """The channels (dim 1) of ``x (N, C, ...)``, at least 4-D, as ``group`` groups interleaved."""
    _check_tensor("ChannelShuffle", "x", x)
    shape = tuple(x.shape)
    if len(shape) <= 3:
        raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {len(shape)}.")
    if group <= 0 or shape[1] % group:
        raise ValueError(f"For ChannelShuffle, the 'group' must be a positive divisor of the channels {shape[1]}, "
                         f"but got {group}.")
    grouped = F.reshape(x, (shape[0], group, shape[1] // group) + shape[2:])
    return F.reshape(F.transpose(grouped, (0, 2, 1) + tuple(range(3, len(shape) + 1))), shape)


def hsv_to_rgb(images: Tensor) -> Tensor:
    """The RGB of HSV ``images (..., 3)`` (all in [0, 1]): channel ``n`` of (5, 3, 1) is
    ``v - v s clip(min(k, 4 - k), 0, 1)`` with ``k = (n + 6 h) mod 6``."""
    _check_tensor("HSVToRGB", "images", images)
    if len(images.shape) != 4 or images.shape[-1] != 3:
        raise ValueError(f"For 'HSVToRGB', the 'images' must be 4-D with last dim 3, but got {images.shape}.")
    hue, saturation, value = (images[..., channel] for channel in range(3))
    channels = []
    for offset in (5.0, 3.0, 1.0):
        k = M.floor_mod(hue * 6.0 + offset, 6.0)
        ramp = F.maximum(F.minimum(F.minimum(k, 4.0 - k), 1.0), 0.0)
        channels.append(value - value * saturation * ramp)
    return F.stack(channels, -1)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """The mean over near-equal windows of the last three dims (window ``i`` of a dim of size ``L`` into ``n``:
    ``floor(i L / n)`` to ``ceil((i + 1) L / n)``), ``output_size`` an int or a triple (None keeps a dim)."""
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    ndim = len(input.shape)
    for offset, count in enumerate(sizes):
        axis = ndim - 3 + offset
        length = input.shape[axis]
        count = length if count is None else count
        windows = [(i * length // count, -(-(i + 1) * length // count)) for i in range(count)]
        input = run("concat", *[run("mean", run("getitem", input, index=(Ellipsis,) + (slice(None),) * offset
                                                  + (slice(start, end),) + (slice(None),) * (2 - offset)),
                                    axis=(axis,), keepdims=True) for start, end in windows], axis=axis)
    return input


def adaptive_max_pool2d(x: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    """``(maxima, int64 flat (H, W) argmax)`` of ``output_size`` windows spanning ``x (N, C, H, W)``."""
    return nnf.adaptive_max_pool2d(x, output_size, return_indices=True)
