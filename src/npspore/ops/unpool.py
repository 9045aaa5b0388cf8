"""``MaxUnpool2D``/``MaxUnpool3D``'s inverse of max pooling (their classes come from :mod:`primitive_table`): each
value of ``x`` written at the flat position its ``argmax`` names within its channel's output plane (or volume),
zeros elsewhere. A composition of op-table ops (a membership mask), so compiled and differentiable."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .array_functional import arange
from .eager import run
from .numeric import _check_tensor

__all__ = ["max_unpool2d", "max_unpool3d"]


def _sizes(name: str, argument: str, value: Any, count: int, positive: bool) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * count
    if not isinstance(value, (tuple, list)) or len(value) != count or \
            any(not isinstance(v, int) or isinstance(v, bool) for v in value):
        raise TypeError(f"For '{name}', the '{argument}' must be an int or a tuple of {count} ints, but got {value}.")
    if any(v < (1 if positive else 0) for v in value):
        raise ValueError(f"For '{name}', the '{argument}' must be {'positive' if positive else 'non-negative'}, but "
                         f"got {value}.")
    return tuple(value)


def _unpool(name: str, x: Tensor, argmax: Any, ksize: Any, strides: Any, pads: Any, output_shape: Any,
            channels_last: bool, spatial: int) -> Tensor:
    _check_tensor(name, "x", x)
    _check_tensor(name, "argmax", argmax)
    if argmax.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'argmax' must be int32 or int64, but got {argmax.dtype}.")
    if len(x.shape) != spatial + 2 or x.shape != argmax.shape:
        raise ValueError(f"For '{name}', the 'x' and 'argmax' must be {spatial + 2}-D of one shape, but got "
                         f"{x.shape} and {argmax.shape}.")
    kernel = _sizes(name, "ksize", ksize, spatial, True)
    step = _sizes(name, "strides", strides, spatial, False)
    step = tuple(k if s == 0 else s for k, s in zip(kernel, step))   # strides 0: the kernel size
    padding = _sizes(name, "pads", pads, spatial, False)
    order = (0, spatial + 1) + tuple(range(1, spatial + 1))         # channels last to channels first
    data, index = (F.transpose(x, order), F.transpose(argmax, order)) if channels_last else (x, argmax)
    n, c, sizes = data.shape[0], data.shape[1], data.shape[2:]
    if output_shape:
        out = tuple(output_shape)[-spatial:]
    else:
        out = tuple((size - 1) * s - 2 * p + k for size, s, p, k in zip(sizes, step, padding, kernel))
    plane, length = math.prod(out), math.prod(sizes)
    largest = int(index.asnumpy().max()) if length else 0   # read when the kernel runs in compiled code
    if largest >= plane or int(index.asnumpy().min()) < 0:
        raise ValueError(f"For '{name}', the values of 'argmax' must be in [0, {plane}) (the output plane), but got "
                         f"{largest}.")
    values = run("reshape", data, shape=(n, c, 1, length))
    where = run("reshape", run("cast", index, dtype=np.int64), shape=(n, c, 1, length))
    slots = run("reshape", arange(plane, dtype=mstype.int64), shape=(plane, 1))
    placed = run("sum", run("where", run("equal", where, slots), values, run("zeros_like", values)), axis=-1)
    result = run("reshape", placed, shape=(n, c) + out)
    back = (0,) + tuple(range(2, spatial + 2)) + (1,)
    return F.transpose(result, back) if channels_last else result


def max_unpool2d(x: Tensor, argmax: Tensor, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (),
                 data_format: str = "NCHW") -> Tensor:
    """The (N, C, H, W) (or NHWC) ``x`` unpooled: output (H - 1) stride - 2 pad + ksize per dim (or
    ``output_shape``), each value at its ``argmax`` within its channel's plane.

    Raises:
        TypeError: if ``argmax`` is not int32/int64 or a size is not an int/tuple.
        ValueError: if ``data_format`` is unknown, a size is out of range, the shapes differ or an ``argmax`` value
            is outside the output plane (as MindSpore's CPU kernel).
    """
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"For 'MaxUnpool2D', the 'data_format' must be 'NCHW' or 'NHWC', but got {data_format!r}.")
    return _unpool("MaxUnpool2D", x, argmax, ksize, strides, pads, output_shape, data_format == "NHWC", 2)


def max_unpool3d(x: Tensor, argmax: Tensor, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (),
                 data_format: str = "NCDHW") -> Tensor:
    """:func:`max_unpool2d` of the (N, C, D, H, W) (or NDHWC) ``x`` over its volumes."""
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError(f"For 'MaxUnpool3D', the 'data_format' must be 'NCDHW' or 'NDHWC', but got {data_format!r}.")
    return _unpool("MaxUnpool3D", x, argmax, ksize, strides, pads, output_shape, data_format == "NDHWC", 3)
