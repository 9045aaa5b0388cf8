"""``mindspore.mint``'s reductions with PyTorch-style arguments (``dim``, ``keepdim``, keyword ``dtype``):
``sum``, ``mean``, ``prod``, ``max``/``min`` (three forms), ``amax``/``amin``, ``argmax``/``argmin``, ``all``/``any``,
``logsumexp``, ``var``/``std`` (with ``correction``) and their ``*_mean`` forms, ``count_nonzero``, ``nansum``,
``median``, ``trace`` and ``cumsum``, with MindSpore 2.10's dtypes (integer sums and products are Int64, indices
Int64). Each is a composition of the op table's ops, so it runs eagerly and compiled and differentiates."""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _axis, _np_dtype
from ..ops import functional as F
from ..ops.array_functional import cumsum as _cumsum, gather_d, sort as _sort, unstack
from ..ops.eager import run
from .linalg import vector_norm

__all__ = ["norm", "sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "all", "any", "logsumexp", "var",
           "std", "var_mean", "std_mean", "count_nonzero", "nansum", "median", "trace", "cumsum", "cummax", "cummin", "histc"]

_Dim = Any  # an int, a tuple/list of ints, or None (every dim)


def _cast(x: Tensor, dtype: Any) -> Tensor:
    return x if dtype is None else run("cast", x, dtype=_np_dtype(dtype))


def sum(input: Tensor, dim: _Dim = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A001
    """The sum over ``dim`` (every dim when None); bool and int inputs give Int64 unless ``dtype`` is given."""
    return F.sum(input, dim, keepdim, dtype=dtype)


def mean(input: Tensor, dim: _Dim = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The mean over ``dim`` (every dim when None), computed in ``dtype`` when given."""
    return F.mean(_cast(input, dtype), dim, keepdim)


def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The product over ``dim`` (every element when None); bool and int inputs give Int64 unless ``dtype``."""
    return F.prod(input, dim, keepdim, dtype)


def _extremum(name: str, input: Tensor, args: tuple, kwargs: dict) -> Any:
    """``max``/``min``'s three forms: of all elements; ``(values, indices)`` over ``dim``; elementwise with a
    second Tensor."""
    other = kwargs.pop("other", args[0] if args and isinstance(args[0], Tensor) else None)
    if other is not None:
        return run("maximum" if name == "max" else "minimum", input, other)
    dim = kwargs.pop("dim", args[0] if args else None)
    keepdim = kwargs.pop("keepdim", args[1] if len(args) > 1 else False)
    if kwargs:
        raise TypeError(f"For '{name}', unexpected keyword arguments {sorted(kwargs)}.")
    if dim is None:
        return run(name, input)
    if not isinstance(dim, int):
        raise TypeError(f"For '{name}', 'dim' must be an int, but got {type(dim).__name__}.")
    return (F.max if name == "max" else F.min)(input, dim, keepdim)


def max(input: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    """``max(input)``: the largest element; ``max(input, dim, keepdim=False)``: ``(values, indices)`` (Int64)
    over ``dim``; ``max(input, other)``: the elementwise maximum."""
    return _extremum("max", input, args, kwargs)


def min(input: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    """``min(input)``: the smallest element; ``min(input, dim, keepdim=False)``: ``(values, indices)`` (Int64)
    over ``dim``; ``min(input, other)``: the elementwise minimum."""
    return _extremum("min", input, args, kwargs)


def amax(input: Tensor, dim: _Dim = (), keepdim: bool = False) -> Tensor:
    """The maximum over ``dim`` (every dim when ``()`` or None)."""
    return run("max", input, axis=_axis(None if dim == () else dim), keepdims=keepdim)


def amin(input: Tensor, dim: _Dim = (), keepdim: bool = False) -> Tensor:
    """The minimum over ``dim`` (every dim when ``()`` or None)."""
    return run("min", input, axis=_axis(None if dim == () else dim), keepdims=keepdim)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """The Int64 index of the first maximum over ``dim`` (of the flattened input when None)."""
    return _cast(F.argmax(input, dim, keepdim), mstype.int64)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """The Int64 index of the first minimum over ``dim`` (of the flattened input when None)."""
    if dim is None:
        return _cast(F.argmin(run("reshape", input, shape=(-1,)), 0, False), mstype.int64)
    return _cast(F.argmin(input, dim, keepdim), mstype.int64)


def all(input: Tensor, dim: _Dim = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether every element over ``dim`` is true (Bool)."""
    return F.all(input, dim, keepdim)


def any(input: Tensor, dim: _Dim = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether some element over ``dim`` is true (Bool)."""
    return F.any(input, dim, keepdim)


def logsumexp(input: Tensor, dim: _Dim, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input), dim))``, computed without overflow."""
    axis = _axis(dim)
    top = run("stop_gradient", run("max", input, axis=axis, keepdims=True))
    total = run("log", run("sum", run("exp", run("sub", input, top)), axis=axis, keepdims=True))
    result = run("add", total, top)
    return result if keepdim else run("squeeze", result, axis=axis)


def _count(input: Tensor, axis: Any) -> int:
    """The number of elements each reduction over ``axis`` (an int, a tuple or None) sees."""
    sizes = input.shape if axis is None else [input.shape[d] for d in ((axis,) if isinstance(axis, int) else axis)]
    return math.prod(sizes)


def var(input: Tensor, dim: _Dim = None, *, correction: int = 1, keepdim: bool = False) -> Tensor:
    """The variance over ``dim`` (every dim when None), dividing by ``N - correction``."""
    axis = _axis(dim)
    centred = run("sub", input, run("mean", input, axis=axis, keepdims=True))
    total = run("sum", run("square", centred), axis=axis, keepdims=keepdim)
    return run("div", total, _count(input, axis) - correction)


def std(input: Tensor, dim: _Dim = None, *, correction: int = 1, keepdim: bool = False) -> Tensor:
    """The standard deviation over ``dim`` (every dim when None), dividing by ``N - correction``."""
    return run("sqrt", var(input, dim, correction=correction, keepdim=keepdim))


def var_mean(input: Tensor, dim: _Dim = None, *, correction: int = 1, keepdim: bool = False) -> tuple:
    """``(var, mean)`` over ``dim``."""
    return var(input, dim, correction=correction, keepdim=keepdim), F.mean(input, dim, keepdim)


def std_mean(input: Tensor, dim: _Dim = None, *, correction: int = 1, keepdim: bool = False) -> tuple:
    """``(std, mean)`` over ``dim``."""
    return std(input, dim, correction=correction, keepdim=keepdim), F.mean(input, dim, keepdim)


def count_nonzero(input: Tensor, dim: _Dim = None) -> Tensor:
    """The Int64 number of non-zero elements over ``dim`` (every dim when None)."""
    return run("sum", run("not_equal", input, 0), axis=_axis(dim), keepdims=False, dtype=np.int64)


def nansum(input: Tensor, dim: _Dim = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The sum over ``dim`` counting NaNs as zero."""
    cleaned = run("where", run("not_equal", input, input), run("zeros_like", input), input)
    return F.sum(cleaned, dim, keepdim, dtype=dtype)


def median(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median of all elements (a 0-D Tensor), or over ``dim`` with its Int64 index:
    ``(values, indices)``."""
    if dim is None:
        ordered = _sort(run("reshape", input, shape=(-1,)))[0]
        return run("getitem", ordered, index=((math.prod(input.shape) - 1) // 2,))
    dim = dim % len(input.shape)
    values, indices = _sort(input, dim)
    middle = tuple((input.shape[dim] - 1) // 2 if d == dim else slice(None) for d in range(len(input.shape)))
    if keepdim:
        middle = tuple(slice(m, m + 1) if isinstance(m, int) else m for m in middle)
    return run("getitem", values, index=middle), _cast(run("getitem", indices, index=middle), mstype.int64)


def norm(input: Tensor, p: Any = "fro", dim: _Dim = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The ``p``-norm of ``input``'s elements over ``dim`` (every element when None); ``'fro'`` is the 2-norm.

    Raises:
        ValueError: for ``p='nuc'`` (not implemented in npspore).
    """
    if p == "nuc":
        raise ValueError("For 'norm', the nuclear norm (p='nuc') is not implemented in npspore.")
    return vector_norm(input, 2 if p == "fro" else p, dim, keepdim, dtype=dtype)


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a 2-D Tensor (integers sum as Int64).

    Raises:
        ValueError: if ``input`` is not 2-D.
    """
    if len(input.shape) != 2:
        raise ValueError(f"For 'trace', the input must be 2-D, but got {len(input.shape)}-D.")
    rows, columns = input.shape
    diagonal = np.arange(builtins.min(rows, columns)) * (columns + 1)
    flat = run("reshape", input, shape=(-1,))
    return F.sum(run("gather", flat, Tensor(diagonal.astype(np.int32)), axis=0))


def cumsum(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """The running sum along ``dim``; bool and int inputs give Int64 unless ``dtype`` is given."""
    if dtype is None and input.dtype not in mstype.float_type:
        dtype = mstype.int64
    return _cumsum(input, dim, dtype)


def _running_extremum(input: Tensor, dim: int, larger: str) -> tuple[Tensor, Tensor]:
    """The running maximum (``larger='greater_equal'``) or minimum (``'less_equal'``) along ``dim`` and the Int64
    index of the last element reaching it; the values are gathered at those indices, so the gradient goes
    to the element each one came from."""
    dim = dim % len(input.shape)
    steady = run("stop_gradient", input)
    slices = unstack(steady, dim)
    best, index = slices[0], F.zeros_like(slices[0], dtype=mstype.int64)
    indices = [index]
    for position, part in enumerate(slices[1:], start=1):
        reaches = run(larger, part, best)
        best = run("where", reaches, part, best)
        index = run("where", reaches, F.full(part.shape, position, dtype=mstype.int64), index)
        indices.append(index)
    stacked = run("stack", *indices, axis=dim)
    return gather_d(input, dim, stacked), stacked


def cummax(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """The running maximum along ``dim`` and the Int64 index of the last element reaching it."""
    return _running_extremum(input, dim, "greater_equal")


def cummin(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """The running minimum along ``dim`` and the Int64 index of the last element reaching it."""
    return _running_extremum(input, dim, "less_equal")


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """The counts of ``input``'s elements in ``bins`` equal bins over ``[min, max]`` (the data's range when both
    are 0), in ``input``'s dtype; elements outside are not counted.

    Raises:
        ValueError: if ``bins`` is not positive or ``min > max``.
    """
    if bins <= 0 or min > max:
        raise ValueError(f"For 'histc', 'bins' must be positive and 'min' <= 'max', but got bins={bins}, "
                         f"min={min}, max={max}.")
    values = run("stop_gradient", run("reshape", input, shape=(-1,)))
    low, high = (run("min", values), run("max", values)) if min == max == 0 else (min, max)
    width = run("sub", high, low)
    scaled = run("div", run("mul", run("sub", values, low), bins), run("where", run("equal", width, 0), 1.0, width))
    position = run("clip", F.floor(scaled), 0, bins - 1)
    inside = run("logical_and", run("greater_equal", values, low), run("less_equal", values, high))
    matches = run("equal", run("expand_dims", position, axis=-1), Tensor(np.arange(bins, dtype=np.float64)))
    counted = run("logical_and", matches, run("expand_dims", inside, axis=-1))
    return run("sum", counted, axis=(0,), keepdims=False, dtype=_np_dtype(input.dtype))
