"""More of ``mindspore.numpy`` (re-exported by :mod:`npspore.numpy`): ``array``, ``roll``, ``diag``, ``squeeze``, ``swapaxes``, ``ceil``,
``floor``, ``sin``, ``cos``, ``max``/``amax``, ``min``/``amin``, ``maximum``, ``equal``, ``tensordot``,
``meshgrid``, ``repeat``, ``tril``, ``triu``, ``take_along_axis`` and ``copy``, with MindSpore 2.10's
dtypes (``ceil``, ``sin`` and ``cos`` of integers give Float32; ``floor`` of integers is refused as
MindSpore's CPU kernel refuses it).

Each is written over the op table's ops and :mod:`npspore.ops`' library functions, so it runs eagerly and
compiled and differentiates as those do.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .common import dtype as mstype
from .common.tensor import Tensor, _axis, _np_dtype
from .ops.array_functional import (floor as _floor, gather_d, identity, meshgrid as _meshgrid, repeat_elements,
                                   tensor_dot)
from .ops.eager import run

__all__ = ["array", "roll", "diag", "squeeze", "swapaxes", "ceil", "floor", "sin", "cos", "max", "amax", "min", "amin", "maximum", "equal",
           "tensordot", "meshgrid", "repeat", "tril", "triu", "take_along_axis", "copy"]


def _with_dtype(result: Tensor, dtype: Any) -> Tensor:
    return result if dtype is None else run("cast", result, dtype=_np_dtype(dtype))


def _floating(x: Tensor | int | float) -> Tensor:
    """Integers and bools as Float32, for the functions MindSpore's numpy computes in floats; a Python number
    as a Float32 Tensor (``mnp.sqrt(64)`` is ``Tensor(8.0)``, EMSA's ``matmul(q, k) / mnp.sqrt(d_k)``)."""
    if isinstance(x, (int, float)):
        return Tensor(np.float32(x))
    return x if x.dtype in mstype.float_type else run("cast", x, dtype=np.float32)


def squeeze(a: Tensor, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``a`` without its size-1 dims (``axis``: only those named)."""
    return run("squeeze", a, axis=_axis(axis))


def swapaxes(x: Tensor, axis1: int, axis2: int) -> Tensor:
    """``x`` with dims ``axis1`` and ``axis2`` exchanged."""
    order = list(range(len(x.shape)))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return run("transpose", x, axes=tuple(order))


def ceil(x: Tensor, dtype: Any = None) -> Tensor:
    """The smallest integer not below each element (integers give Float32; its gradient is zero)."""
    return _with_dtype(run("neg", _floor(run("neg", _floating(x)))), dtype)


def floor(x: Tensor, dtype: Any = None) -> Tensor:
    """The largest integer not above each element of the float Tensor ``x`` (its gradient is zero).

    Raises:
        TypeError: for an integer or bool ``x`` (MindSpore's CPU Floor has no kernel for them).
    """
    if x.dtype not in mstype.float_type:
        raise TypeError(f"For 'floor', the input must be a float Tensor (MindSpore's CPU Floor has no kernel for "
                        f"{x.dtype}).")
    return _with_dtype(_floor(x), dtype)


def sin(x: Tensor, dtype: Any = None) -> Tensor:
    """``sin(x)`` elementwise (integers give Float32)."""
    return _with_dtype(run("sin", _floating(x)), dtype)


def cos(x: Tensor, dtype: Any = None) -> Tensor:
    """``cos(x)`` elementwise (integers give Float32)."""
    return _with_dtype(run("cos", _floating(x)), dtype)


def amax(a: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """The maximum over ``axis`` (all dims when None), in ``a``'s dtype."""
    return run("max", a, axis=_axis(axis), keepdims=keepdims)


def amin(a: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """The minimum over ``axis`` (all dims when None), in ``a``'s dtype."""
    return run("min", a, axis=_axis(axis), keepdims=keepdims)


max, min = amax, amin  # noqa: A001  (mindspore.numpy's names)


def maximum(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise maximum, broadcast, in the promoted dtype (NaN wins)."""
    return _with_dtype(run("maximum", x1, x2), dtype)


def equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise ``x1 == x2`` (Bool), broadcast."""
    return _with_dtype(run("equal", x1, x2), dtype)


def tensordot(a: Tensor, b: Tensor, axes: int | tuple = 2) -> Tensor:
    """The sum of products over the last ``axes`` dims of ``a`` and the first of ``b``, or over the dims the
    pair of sequences ``axes`` names."""
    return tensor_dot(a, b, axes)


def meshgrid(*xi: Tensor, sparse: bool = False, indexing: str = "xy") -> tuple[Tensor, ...]:
    """Coordinate grids of the 1-D ``xi`` (``'xy'``: the first two dims swapped; ``sparse``: each grid only
    along its own dim, the others of size 1)."""
    if not sparse:
        return _meshgrid(*xi, indexing=indexing)
    ndim = len(xi)
    grids = []
    for i, x in enumerate(xi):
        position = (1 - i if i < 2 else i) if indexing == "xy" and ndim > 1 else i
        shape = tuple(-1 if k == position else 1 for k in range(ndim))
        grids.append(run("reshape", x, shape=shape))
    return tuple(grids)


def repeat(a: Tensor, repeats: int | list[int] | tuple[int, ...], axis: int | None = None) -> Tensor:
    """Each element of ``a`` (flattened when ``axis`` is None) or each slice along ``axis`` repeated
    ``repeats`` times, or ``repeats[i]`` times for slice ``i``.

    Raises:
        ValueError: if a sequence ``repeats`` does not have one count per slice.
    """
    if axis is None:
        a, axis = run("reshape", a, shape=(-1,)), 0
    if isinstance(repeats, int):
        return repeat_elements(a, repeats, axis)
    axis = axis % len(a.shape)
    if len(repeats) != a.shape[axis]:
        raise ValueError(f"For 'repeat', 'repeats' must have one count per slice ({a.shape[axis]}), but got "
                         f"{len(repeats)}.")
    positions = [i for i, count in enumerate(repeats) for _ in range(count)]
    return run("gather", a, Tensor(positions, mstype.int32), axis=axis)


def _triangle(m: Tensor, k: int, lower: bool) -> Tensor:
    """``m`` (its last two dims) zeroed above (``lower``) or below the ``k``-th diagonal."""
    rows, cols = m.shape[-2], m.shape[-1]
    keep = Tensor([[(j - i <= k) if lower else (j - i >= k) for j in range(cols)] for i in range(rows)], mstype.bool_)
    return run("where", keep, m, run("zeros_like", m))


def tril(m: Tensor, k: int = 0) -> Tensor:
    """``m`` (its last two dims) with the elements above the ``k``-th diagonal zeroed."""
    return _triangle(m, k, True)


def triu(m: Tensor, k: int = 0) -> Tensor:
    """``m`` (its last two dims) with the elements below the ``k``-th diagonal zeroed."""
    return _triangle(m, k, False)


def take_along_axis(arr: Tensor, indices: Tensor, axis: int | None) -> Tensor:
    """The elements of ``arr`` at ``indices`` along ``axis`` (``arr`` flattened when None); ``indices``
    broadcasts against ``arr`` in the other dims."""
    if axis is None:
        arr, axis = run("reshape", arr, shape=(-1,)), 0
    axis = axis % len(arr.shape)
    shape = tuple(builtins.max(a, i) if k != axis else i for k, (a, i) in enumerate(zip(arr.shape, indices.shape)))
    index = run("broadcast_to", indices, shape=shape)
    source = run("broadcast_to", arr, shape=tuple(a if k == axis else s for k, (a, s) in enumerate(zip(arr.shape,
                                                                                                     shape))))
    return gather_d(source, axis, index)


def copy(a: Tensor) -> Tensor:
    """A new Tensor equal to ``a`` (its gradient passes through)."""
    return identity(a)


def roll(a: Tensor, shift: int | tuple[int, ...], axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``a`` with its elements shifted by ``shift`` along ``axis`` (with None: along the flattened array, then
    reshaped back); elements shifted past the end come in at the start.

    Raises:
        ValueError: if ``shift`` and ``axis`` are tuples of different lengths.
    """
    if axis is None:
        return run("reshape", roll(run("reshape", a, shape=(-1,)), shift, 0), shape=tuple(a.shape))
    shifts, axes = ((shift,), (axis,)) if isinstance(axis, int) else (
        (shift,) * len(axis) if isinstance(shift, int) else tuple(shift), tuple(axis))
    if len(shifts) != len(axes):
        raise ValueError(f"For 'roll', 'shift' and 'axis' should have the same length, but got {len(shifts)} "
                         f"and {len(axes)}.")
    for step, dim in zip(shifts, axes):
        if a.shape[dim] < 0:     # a dim compiled code knows only when it runs (library code reads -1)
            a = run("roll", a, shift=step, axis=dim)
        elif a.shape[dim]:
            cut = (-step) % a.shape[dim]
            a = run("concat", run("getitem", a, index=_along(len(a.shape), dim, builtins.slice(cut, None))),
                    run("getitem", a, index=_along(len(a.shape), dim, builtins.slice(None, cut))), axis=dim)
    return a


def _along(ndim: int, dim: int, part: slice) -> tuple:
    """The index taking ``part`` of axis ``dim`` and all of the others."""
    return tuple(part if d == dim % ndim else builtins.slice(None) for d in range(ndim))


def diag(v: Tensor, k: int = 0) -> Tensor:
    """The ``k``-th diagonal of a matrix ``v``, or the square matrix with the vector ``v`` on its ``k``-th diagonal.

    Raises:
        ValueError: if ``v`` is neither 1-D nor 2-D.
    """
    if len(v.shape) == 1:
        size = v.shape[0] + builtins.abs(k)
        rows = np.arange(v.shape[0]) + builtins.max(-k, 0)
        positions = Tensor((rows * size + rows + k).astype(np.int32))
        flat = run("gather_grad", v, positions, shape=(size * size,), axis=0)
        return run("reshape", flat, shape=(size, size))
    if len(v.shape) != 2:
        raise ValueError(f"For 'diag', the input must be 1-D or 2-D, but got {len(v.shape)}-D.")
    rows, columns = v.shape
    first_row = builtins.max(-k, 0)
    count = builtins.max(0, builtins.min(rows - first_row, columns - first_row - k))
    diagonal = (np.arange(count) + first_row) * columns + np.arange(count) + first_row + k
    return run("gather", run("reshape", v, shape=(rows * columns,)), Tensor(diagonal.astype(np.int32)), axis=0)


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """``obj`` (numbers, nested lists, a NumPy array or a Tensor) as a Tensor: Python ints as Int32 and floats as
    Float32 (MindSpore's ``mindspore.numpy`` defaults) unless ``dtype`` is given; at least ``ndmin`` dims."""
    if isinstance(obj, Tensor):
        result = identity(obj) if copy else obj
    else:
        values = np.asarray(obj)
        if dtype is None and values.dtype.kind in "iu" and not isinstance(obj, np.ndarray):
            values = values.astype(np.int32)
        elif dtype is None and values.dtype == np.float64 and not isinstance(obj, np.ndarray):
            values = values.astype(np.float32)
        result = Tensor(values)
    result = _with_dtype(result, dtype)
    missing = ndmin - len(result.shape)
    return run("reshape", result, shape=(1,) * missing + tuple(result.shape)) if missing > 0 else result
