"""A start of ``mindspore.numpy``: NumPy-style functions on Tensors, with MindSpore's defaults and dtypes.

``import mindspore.numpy as mnp`` then ``mnp.arange(4)``, ``mnp.zeros((2, 3))``, ``mnp.concatenate(...)``.
Each function is written over the op table's ops, so it runs eagerly and compiled and differentiates
as those ops do. Creation functions default to MindSpore's dtypes (``arange`` of ints is Int32, of floats
Float32; ``zeros``/``ones`` are Float32); ``sum`` of integers is Int64 and ``mean`` of integers keeps
their dtype, as MindSpore 2.10 gives them. Names MindSpore has and npspore does not yet raise
``AttributeError`` saying so.
"""
from __future__ import annotations

import builtins
import math
from typing import Any

from .common import dtype as mstype
from .common.dtype import (bool_, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
                           uint64)
from .common.tensor import Tensor, _axis, _np_dtype
from .missing_names import module_getattr
import numpy as np

from .ops.array_functional import arange_values, flip as _flip, norm as _norm, reciprocal as _reciprocal
from .ops.eager import run
from . import numpy_more as _numpy_more
from .numpy_more import *  # noqa: F401,F403,A004
from .numpy_more import _floating, _with_dtype
from . import numpy_extra as _numpy_extra
from .numpy_extra import *  # noqa: F401,F403,A004

__all__ = ["arange", "flip", "zeros", "ones", "full", "zeros_like", "ones_like", "concatenate", "stack", "reshape",
           "expand_dims", "tile", "broadcast_to", "where", "sum", "mean", "sqrt", "square", "abs", "absolute",
           "exp", "log", "clip", "linspace", "norm", "reciprocal", "split", "eye", "transpose",
           "minimum", "power", "bool_", "float16", "float32", "float64", "float_", "int8", "int16", "int32",
           "int64", "int_", "uint8", "uint16", "uint32", "uint64", "pi", "inf", "nan", *_numpy_more.__all__,
           *_numpy_extra.__all__]

# A package without files: MindSpore's paths numpy.utils and numpy.utils_const are npspore.numpy_utils
# (npspore.module_aliases).
__path__: list[str] = []
# mindspore.numpy's dtype names (its float_ and int_ are Float32 and Int32) and constants
float_, int_ = float32, int32
pi, inf, nan = math.pi, math.inf, math.nan

_INTEGER_KINDS = ("i", "u", "b")


def _kind(x: Tensor) -> str:
    return _np_dtype(x.dtype).kind


def arange(start: float, stop: float | None = None, step: float | None = None, dtype: Any = None) -> Tensor:
    """``start, start + step, ...`` below ``stop`` (``arange(n)``: ``0 ... n - 1``): Int32 when every
    argument is an int, else Float32, unless ``dtype`` is given.

    Raises:
        TypeError: if an argument is not a number.
        ValueError: if ``step`` is 0.
    """
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = arange_values("arange", start, stop, step)
    if dtype is None:
        every_int = builtins.all(isinstance(v, int) for v in (start, stop, step))
        dtype = mstype.int32 if every_int else mstype.float32
    return Tensor(values, dtype=dtype) if values else run("zeros", shape=(0,), dtype=_np_dtype(dtype))


def flip(m: Tensor, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``m`` with the order of its elements reversed along ``axis`` (every dim when None)."""
    axes = range(len(m.shape)) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    return _flip(m, tuple(axes))


def zeros(shape: int | tuple[int, ...], dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` filled with 0 (Float32 unless ``dtype`` is given)."""
    return run("zeros", shape=_shape(shape), dtype=_np_dtype(dtype))


def ones(shape: int | tuple[int, ...], dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` filled with 1 (Float32 unless ``dtype`` is given)."""
    return run("ones", shape=_shape(shape), dtype=_np_dtype(dtype))


def full(shape: int | tuple[int, ...], fill_value: Any, dtype: Any = None) -> Tensor:
    """A Tensor of ``shape`` filled with ``fill_value``; without ``dtype``, Bool for a bool, Int32 for an
    int, Float32 for a float, the Tensor's own dtype for a Tensor."""
    if dtype is None:
        if isinstance(fill_value, Tensor):
            dtype = fill_value.dtype
        elif isinstance(fill_value, bool):
            dtype = mstype.bool_
        else:
            dtype = mstype.int32 if isinstance(fill_value, int) else mstype.float32
    return run("fill", fill_value, shape=_shape(shape), dtype=_np_dtype(dtype))


def zeros_like(a: Tensor, dtype: Any = None, shape: int | tuple[int, ...] | None = None) -> Tensor:
    """Zeros with ``a``'s shape and dtype (or ``shape``/``dtype`` when given)."""
    if shape is None:
        return run("zeros_like", a, dtype=None if dtype is None else _np_dtype(dtype))
    return zeros(shape, a.dtype if dtype is None else dtype)


def ones_like(a: Tensor, dtype: Any = None, shape: int | tuple[int, ...] | None = None) -> Tensor:
    """Ones with ``a``'s shape and dtype (or ``shape``/``dtype`` when given)."""
    if shape is None:
        return run("ones_like", a, dtype=None if dtype is None else _np_dtype(dtype))
    return ones(shape, a.dtype if dtype is None else dtype)


def concatenate(arrays: Tensor | tuple[Tensor, ...] | list[Tensor], axis: int | None = 0) -> Tensor:
    """The Tensors of ``arrays`` joined along ``axis`` (``None``: flattened first)."""
    if isinstance(arrays, Tensor):
        arrays = (arrays,)
    if axis is None:
        arrays = [run("reshape", a, shape=(-1,)) for a in arrays]
        axis = 0
    return run("concat", *arrays, axis=axis)


def stack(arrays: tuple[Tensor, ...] | list[Tensor], axis: int = 0) -> Tensor:
    """The Tensors of ``arrays`` (one shape) stacked along a new dim ``axis``."""
    return run("stack", *arrays, axis=axis)


def reshape(x: Tensor, new_shape: int | tuple[int, ...] | list[int]) -> Tensor:
    """``x`` with the shape ``new_shape`` (one entry may be -1)."""
    return run("reshape", x, shape=_shape(new_shape))


def expand_dims(a: Tensor, axis: int | tuple[int, ...]) -> Tensor:
    """``a`` with a dim of size 1 inserted at ``axis`` (each of them, for a tuple)."""
    return run("expand_dims", a, axis=axis)


def tile(a: Tensor, reps: int | tuple[int, ...]) -> Tensor:
    """``a`` repeated ``reps`` times along each dim (NumPy's ``tile``)."""
    return run("tile", a, reps=_shape(reps))


def broadcast_to(array: Tensor, shape: tuple[int, ...]) -> Tensor:
    """``array`` broadcast to ``shape``."""
    return run("broadcast_to", array, shape=_shape(shape))


def where(condition: Tensor, x: Any = None, y: Any = None) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (both given: MindSpore's numpy needs them).

    Raises:
        ValueError: if only one of ``x`` and ``y`` is given, or neither (the indices form is not
            implemented in npspore).
    """
    if x is None or y is None:
        raise ValueError("For 'where', npspore needs both 'x' and 'y' (the one-argument form is not implemented).")
    return run("where", condition, x, y)


def sum(a: Tensor, axis: int | tuple[int, ...] | None = None, dtype: Any = None, keepdims: bool = False,
        initial: float | None = None) -> Tensor:
    """The sum over ``axis`` (all dims when None), plus ``initial``; integers and bools sum as Int64
    (MindSpore's numpy, as NumPy) unless ``dtype`` is given."""
    if dtype is None and _kind(a) in _INTEGER_KINDS:
        dtype = mstype.int64
    total = run("sum", a, axis=_axis(axis), keepdims=keepdims, dtype=None if dtype is None else _np_dtype(dtype))
    return total if initial is None else run("add", total, initial)


def mean(a: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """The mean over ``axis`` (all dims when None); the mean of integers is computed in Float32 and
    returned in their dtype (truncated), as MindSpore 2.10 gives it, unless ``dtype`` is given."""
    if _kind(a) in _INTEGER_KINDS:
        average = run("mean", run("cast", a, dtype=_np_dtype(mstype.float32)), axis=_axis(axis), keepdims=keepdims)
        return run("cast", average, dtype=_np_dtype(a.dtype if dtype is None else dtype))
    return _with_dtype(run("mean", a, axis=_axis(axis), keepdims=keepdims), dtype)


def sqrt(x: Tensor, dtype: Any = None) -> Tensor:
    """The square root elementwise (integers give Float32)."""
    return _with_dtype(run("sqrt", _floating(x)), dtype)


def square(x: Tensor, dtype: Any = None) -> Tensor:
    """``x * x`` elementwise, in ``x``'s dtype."""
    return _with_dtype(run("square", x), dtype)


def abs(x: Tensor, dtype: Any = None) -> Tensor:
    """The absolute value elementwise, in ``x``'s dtype."""
    return _with_dtype(run("abs", x), dtype)


absolute = abs


def exp(x: Tensor, dtype: Any = None) -> Tensor:
    """``e ** x`` elementwise (integers give Float32)."""
    return _with_dtype(run("exp", _floating(x)), dtype)


def log(x: Tensor, dtype: Any = None) -> Tensor:
    """The natural logarithm elementwise (integers give Float32)."""
    return _with_dtype(run("log", _floating(x)), dtype)


def clip(x: Tensor, xmin: Any, xmax: Any, dtype: Any = None) -> Tensor:
    """``x`` limited to ``[xmin, xmax]`` (either may be None), in ``x``'s dtype.

    Raises:
        ValueError: if both bounds are None.
    """
    if xmin is None and xmax is None:
        raise ValueError("For 'clip', the 'xmin' and 'xmax' cannot both be None.")
    return _with_dtype(run("clip", x, xmin, xmax), dtype)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False, dtype: Any = None,
             axis: int = 0) -> Tensor | tuple:
    """``num`` evenly spaced values from ``start`` to ``stop`` (included when ``endpoint``), Float32 unless
    ``dtype`` is given; with ``retstep`` also the spacing. Array ``start``/``stop`` give one row per element
    along ``axis``."""
    bounds = [value.asnumpy() if isinstance(value, Tensor) else value for value in (start, stop)]
    values, step = np.linspace(*bounds, num=num, endpoint=endpoint, retstep=True, axis=axis)
    result = Tensor(values.astype(np.float32) if dtype is None else values, dtype=dtype)
    return (result, step) if retstep else result


def norm(x: Tensor, ord: Any = None, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """The matrix or vector norm of ``x`` (``ops.norm`` with NumPy's argument names)."""
    if axis is None and keepdims:
        return run("reshape", _norm(x, ord), shape=(1,) * len(x.shape))
    return _norm(x, ord, axis, keepdims)


def reciprocal(x: Tensor, dtype: Any = None) -> Tensor:
    """``1 / x`` elementwise."""
    return _with_dtype(_reciprocal(x), dtype)


def split(x: Tensor, indices_or_sections: int | list[int] | tuple[int, ...], axis: int = 0) -> tuple | list:
    """``x`` cut along ``axis``: into ``indices_or_sections`` equal parts (a tuple), or before each index of the
    list (a list, as MindSpore returns it).

    Raises:
        ValueError: if an int number of sections does not divide the dim's size.
    """
    size = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if size % indices_or_sections:
            raise ValueError(f"For 'split', array split does not result in an equal division: {size} by "
                             f"{indices_or_sections}.")
        cuts = [size // indices_or_sections * i for i in range(1, indices_or_sections)]
        return tuple(run("split", x, indices_or_sections=cuts, axis=axis))
    return list(run("split", x, indices_or_sections=list(indices_or_sections), axis=axis))


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:
    """The ``N`` x ``M`` Tensor with ones on the ``k``-th diagonal (Float32 unless ``dtype`` is given)."""
    return Tensor(np.eye(N, M, k), dtype=dtype)


def transpose(a: Tensor, axes: tuple[int, ...] | list[int] | None = None) -> Tensor:
    """``a`` with its dims permuted by ``axes`` (reversed when None)."""
    order = tuple(range(len(a.shape)))[::-1] if axes is None else tuple(axes)
    return run("transpose", a, axes=order)


def minimum(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise minimum, broadcast."""
    return _with_dtype(run("minimum", x1, x2), dtype)


def power(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 ** x2`` elementwise, broadcast."""
    return _with_dtype(run("pow", x1, x2), dtype)


def _shape(shape: int | tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, int) else tuple(shape)


__getattr__ = module_getattr("mindspore.numpy", globals())
