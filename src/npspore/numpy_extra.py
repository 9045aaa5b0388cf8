"""More of ``mindspore.numpy`` (re-exported by :mod:`npspore.numpy`): creation (``empty``, ``rand``, ``randn``,
``randint``, ``asarray``, ``identity``, ``full_like``, ``tri*_indices``), arithmetic and comparisons with a ``dtype``
argument, the hyperbolic functions, ``pad`` (constant, edge, reflect, symmetric), stacking and splitting
(``vstack``, ``hstack``, ``column_stack``, ``array_split``, ``append``), products (``matmul``, ``dot``,
``multi_dot``, ``outer``, ``cross``), statistics (``average``, ``std``, ``var``, ``corrcoef``, ``count_nonzero``,
``cumprod``) and indexing (``take``, ``diagonal``, ``diagflat``, ``trace``, ``rot90``, ``moveaxis``,
``unravel_index``, ``isin``), with MindSpore 2.10's dtypes (recorded: ``sign`` and ``tanh`` of integers give
Float32, ``argmin`` and ``count_nonzero`` give Int32, ``argmax`` Int64).

Each is written over the op table's ops and :mod:`npspore.mint`'s compositions, so it runs eagerly and compiled
and differentiates as those do.
"""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from .common import dtype as mstype
from .common.tensor import Tensor, _axis, _np_dtype
from .mint import creation as _creation, elementwise as _elementwise, reductions as _reductions
from .mint import shapes as _shapes
from .numpy_more import _floating, _with_dtype, array
from .ops import functional as F
from .ops.array_functional import pad_pairs, tensor_dot
from .ops.eager import run
from .ops.mint_functions import _broadcast_shape
from .ops.numeric import isfinite as _isfinite, isnan as _isnan

__all__ = ["empty", "empty_like", "rand", "randn", "randint", "asarray", "identity", "full_like", "triu_indices",
           "tril_indices", "add", "multiply", "divide", "true_divide", "mod", "remainder", "fmod", "floor_divide", "sign", "tanh",
           "tan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh", "cbrt", "hypot", "log1p", "expm1", "trunc",
           "round", "logaddexp", "logaddexp2", "isnan", "isinf", "isfinite", "isclose", "greater", "greater_equal",
           "less", "less_equal", "not_equal", "logical_not", "logical_and", "logical_or", "logical_xor", "pad",
           "vstack", "hstack", "column_stack", "array_split", "append", "ravel", "broadcast_arrays", "moveaxis",
           "rot90", "take", "diagonal", "diagflat", "trace", "diff", "unravel_index", "isin", "matmul", "dot",
           "multi_dot", "outer", "cross", "average", "std", "var", "corrcoef", "count_nonzero", "cumsum", "cumprod",
           "argmax", "argmin", "searchsorted", "interp"]


# ---------------------------------------------------------------- creation


def empty(shape: int | tuple | list, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` whose values are unspecified (npspore fills it with zeros)."""
    return F.zeros(shape, dtype)


def empty_like(prototype: Tensor, dtype: Any = None, shape: int | tuple | list | None = None) -> Tensor:
    """A Tensor of ``prototype``'s shape and dtype (or ``shape``/``dtype``) whose values are unspecified (zeros)."""
    return F.zeros(prototype.shape if shape is None else shape, prototype.dtype if dtype is None else dtype)


def rand(*shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """Uniform samples in ``[0, 1)`` of ``shape`` (ints or one tuple), from npspore's seeded generator."""
    return F.rand(*shape, dtype=dtype)


def randn(*shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """Standard normal samples of ``shape`` (ints or one tuple), from npspore's seeded generator."""
    return F.randn(*shape, dtype=dtype)


def randint(minval: int, maxval: int | None = None, shape: Any = None, dtype: Any = mstype.int32) -> Tensor:
    """Integers drawn uniformly from ``[minval, maxval)`` (``[0, minval)`` without ``maxval``), Int32 unless
    ``dtype`` is given."""
    low, high = (0, minval) if maxval is None else (minval, maxval)
    size = () if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
    return _creation.randint(low, high, size, dtype=dtype)


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """``a`` as a Tensor (a Tensor itself when it already is one of ``dtype``); Python ints as Int32 and floats as
    Float32."""
    return array(a, dtype, copy=False)


def identity(n: int, dtype: Any = mstype.float32) -> Tensor:
    """The ``n`` x ``n`` identity matrix (Float32 unless ``dtype`` is given)."""
    return Tensor(np.eye(n), dtype=dtype)


def full_like(a: Tensor, fill_value: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """``fill_value`` in ``a``'s shape and dtype (or ``shape``/``dtype``), converted to that dtype."""
    return F.full(a.shape if shape is None else shape, fill_value, dtype=a.dtype if dtype is None else dtype)


def _triangle_indices(n: int, k: int, m: int | None, upper: bool) -> tuple[Tensor, Tensor]:
    columns = n if m is None else m
    pairs = [(i, j) for i in range(n) for j in range(columns) if (j - i >= k if upper else j - i <= k)]
    return (Tensor(np.array([i for i, _ in pairs], np.int32)), Tensor(np.array([j for _, j in pairs], np.int32)))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """The Int32 row and column indices of the ``n`` x ``m`` upper triangle from the ``k``-th diagonal."""
    return _triangle_indices(n, k, m, True)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """The Int32 row and column indices of the ``n`` x ``m`` lower triangle up to the ``k``-th diagonal."""
    return _triangle_indices(n, k, m, False)


# ---------------------------------------------------------------- elementwise


def add(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 + x2``, broadcast."""
    return _with_dtype(run("add", x1, x2), dtype)


def multiply(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 * x2``, broadcast."""
    return _with_dtype(run("mul", x1, x2), dtype)


def divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 / x2``, broadcast (integers give Float32)."""
    return _with_dtype(run("div", x1, x2), dtype)


true_divide = divide


def mod(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The remainder of ``x1 / x2`` with the sign of ``x2`` (Python's ``%``; 0 where an integer ``x2`` is 0, as
    NumPy's)."""
    return _with_dtype(_zero_by_zero(F.remainder(x1, x2), x2), dtype)


def _zero_by_zero(result: Tensor, divisor: Any) -> Tensor:
    """``result`` with 0 where an integer ``divisor`` is 0: mindspore.numpy's remainders there (NumPy's)."""
    if result.dtype in mstype.int_type + mstype.uint_type:
        return run("where", run("equal", divisor, 0), run("zeros_like", result), result)
    return result


remainder = mod


def fmod(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The remainder of ``x1 / x2`` with the sign of ``x1`` (C's fmod; 0 where an integer ``x2`` is 0)."""
    return _with_dtype(_zero_by_zero(_elementwise.fmod(x1, x2), x2), dtype)


def floor_divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``floor(x1 / x2)``, in the inputs' dtype."""
    return _with_dtype(F.floor_divide(x1, x2), dtype)


def sign(x: Tensor, dtype: Any = None) -> Tensor:
    """-1, 0 or 1 by the sign of each element (integers give Float32, as MindSpore 2.10's numpy)."""
    return _with_dtype(run("sign", _floating(x)), dtype)


def tanh(x: Tensor, dtype: Any = None) -> Tensor:
    """The hyperbolic tangent elementwise (integers give Float32)."""
    return _with_dtype(run("tanh", _floating(x)), dtype)


def tan(x: Tensor, dtype: Any = None) -> Tensor:
    """The tangent elementwise (integers give Float32)."""
    return _with_dtype(run("tan", _floating(x)), dtype)


def sinh(x: Tensor, dtype: Any = None) -> Tensor:
    """``(exp(x) - exp(-x)) / 2`` elementwise (integers give Float32)."""
    x = _floating(x)
    return _with_dtype(run("mul", run("sub", run("exp", x), run("exp", run("neg", x))), 0.5), dtype)


def cosh(x: Tensor, dtype: Any = None) -> Tensor:
    """``(exp(x) + exp(-x)) / 2`` elementwise (integers give Float32)."""
    x = _floating(x)
    return _with_dtype(run("mul", run("add", run("exp", x), run("exp", run("neg", x))), 0.5), dtype)


def arcsinh(x: Tensor, dtype: Any = None) -> Tensor:
    """The inverse hyperbolic sine (integers give Float32)."""
    return _with_dtype(_elementwise.asinh(x), dtype)


def arccosh(x: Tensor, dtype: Any = None) -> Tensor:
    """The inverse hyperbolic cosine (integers give Float32)."""
    return _with_dtype(_elementwise.acosh(x), dtype)


def arctanh(x: Tensor, dtype: Any = None) -> Tensor:
    """The inverse hyperbolic tangent (integers give Float32)."""
    return _with_dtype(_elementwise.atanh(x), dtype)


def cbrt(x: Tensor, dtype: Any = None) -> Tensor:
    """The real cube root ``sign(x) |x| ** (1/3)`` (integers give Float32; 0 gives 0, where MindSpore 2.10's
    numpy gives NaN)."""
    x = _floating(x)
    return _with_dtype(run("mul", run("sign", x), run("pow", run("abs", x), 1.0 / 3.0)), dtype)


def hypot(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``sqrt(x1^2 + x2^2)`` elementwise (integers give Float32)."""
    return _with_dtype(run("sqrt", run("add", run("square", _floating(x1)), run("square", _floating(x2)))), dtype)


def log1p(x: Tensor, dtype: Any = None) -> Tensor:
    """``log(1 + x)`` elementwise, computed as MindSpore 2.10's numpy computes it (``1 + x`` first, so tiny ``x``
    round as they do there; integers give Float32)."""
    return _with_dtype(run("log", run("add", _floating(x), 1.0)), dtype)


def expm1(x: Tensor, dtype: Any = None) -> Tensor:
    """``exp(x) - 1`` elementwise, computed as MindSpore 2.10's numpy computes it (integers give Float32)."""
    return _with_dtype(_elementwise.expm1(x), dtype)


def trunc(x: Tensor, dtype: Any = None) -> Tensor:
    """Each element rounded toward zero."""
    return _with_dtype(_elementwise.trunc(x), dtype)


def round(a: Tensor, decimals: int = 0) -> Tensor:  # noqa: A001  (mindspore.numpy's name)
    """Each element rounded to ``decimals`` places, halves to even."""
    if decimals == 0:
        return F.round(a)
    scale = 10.0 ** decimals
    return run("div", F.round(run("mul", a, scale)), scale)


def logaddexp(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``log(exp(x1) + exp(x2))``, computed without overflow."""
    return _with_dtype(_elementwise.logaddexp(x1, x2), dtype)


def logaddexp2(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``log2(2 ** x1 + 2 ** x2)``, computed without overflow."""
    return _with_dtype(_elementwise.logaddexp2(x1, x2), dtype)


def isnan(x: Tensor, dtype: Any = None) -> Tensor:
    """Elementwise: is NaN (Bool)."""
    return _with_dtype(_isnan(x), dtype)


def isinf(x: Tensor, dtype: Any = None) -> Tensor:
    """Elementwise: is infinite (Bool)."""
    return _with_dtype(run("equal", run("abs", x), math.inf), dtype)


def isfinite(x: Tensor, dtype: Any = None) -> Tensor:
    """Elementwise: neither NaN nor infinite (Bool)."""
    return _with_dtype(_isfinite(x), dtype)


def isclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (Bool); NaNs are close to each other only with
    ``equal_nan``."""
    return _elementwise.isclose(a, b, rtol, atol, equal_nan)


def _compare(op: str, x1: Any, x2: Any, dtype: Any) -> Tensor:
    return _with_dtype(run(op, x1, x2), dtype)


def greater(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise ``x1 > x2`` (Bool), broadcast."""
    return _compare("greater", x1, x2, dtype)


def greater_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise ``x1 >= x2`` (Bool), broadcast."""
    return _compare("greater_equal", x1, x2, dtype)


def less(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise ``x1 < x2`` (Bool), broadcast."""
    return _compare("less", x1, x2, dtype)


def less_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise ``x1 <= x2`` (Bool), broadcast."""
    return _compare("less_equal", x1, x2, dtype)


def not_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise ``x1 != x2`` (Bool), broadcast."""
    return _compare("not_equal", x1, x2, dtype)


def _truth(x: Any) -> Any:
    return run("cast", x, dtype=np.bool_) if isinstance(x, Tensor) and x.dtype != mstype.bool_ else x


def logical_not(a: Tensor, dtype: Any = None) -> Tensor:
    """Elementwise not of the truth values (Bool)."""
    return _with_dtype(run("logical_not", _truth(a)), dtype)


def logical_and(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise and of the truth values (Bool)."""
    return _with_dtype(run("logical_and", _truth(x1), _truth(x2)), dtype)


def logical_or(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise or of the truth values (Bool)."""
    return _with_dtype(run("logical_or", _truth(x1), _truth(x2)), dtype)


def logical_xor(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Elementwise exclusive or of the truth values (Bool)."""
    return _with_dtype(_elementwise.logical_xor(x1, x2), dtype)


# ---------------------------------------------------------------- shapes


def _pairs(width: Any, ndim: int, name: str) -> list[tuple[Any, Any]]:
    """NumPy's per-axis ``(before, after)`` spelling of ``width``: a number, a pair, or one pair per axis."""
    if not isinstance(width, (tuple, list)):
        return [(width, width)] * ndim
    if len(width) == 1 and isinstance(width[0], (tuple, list)):
        return [tuple(width[0])] * ndim
    if not isinstance(width[0], (tuple, list)):
        if len(width) == 1:
            return [(width[0], width[0])] * ndim
        if len(width) == 2:
            return [tuple(width)] * ndim
        raise ValueError(f"For '{name}', a flat sequence must hold 1 or 2 values, but got {len(width)}.")
    if len(width) != ndim:
        raise ValueError(f"For '{name}', there must be one pair per dim ({ndim}), but got {len(width)}.")
    return [tuple(pair) for pair in width]


def _edge_positions(size: int, before: int, after: int) -> list[int]:
    return [0] * before + list(range(size)) + [size - 1] * after


def pad(arr: Tensor, pad_width: Any, mode: str = "constant", stat_length: Any = None, constant_values: Any = 0,
        end_values: Any = 0, reflect_type: str = "even", **kwargs: Any) -> Tensor:
    """``arr`` padded by ``pad_width`` (NumPy's spelling) with ``mode`` ``'constant'`` (``constant_values``, per
    side and axis), ``'edge'``, ``'reflect'`` or ``'symmetric'``.

    Raises:
        ValueError: for another ``mode`` (not implemented in npspore) or a malformed ``pad_width``.
    """
    ndim = len(arr.shape)
    widths = _pairs(pad_width, ndim, "pad")
    if mode in ("reflect", "symmetric"):
        return pad_pairs(arr, tuple(widths), mode)
    if mode == "edge":
        for axis, (before, after) in enumerate(widths):
            positions = _edge_positions(arr.shape[axis], before, after)
            arr = run("gather", arr, Tensor(np.array(positions, np.int32)), axis=axis)
        return arr
    if mode != "constant":
        raise ValueError(f"For 'pad', npspore implements the modes 'constant', 'edge', 'reflect' and 'symmetric', "
                         f"but got {mode!r}.")
    values = _pairs(constant_values, ndim, "pad")
    for axis, ((before, after), (low, high)) in enumerate(zip(widths, values)):
        shape = list(arr.shape)
        parts = []
        if before:
            parts.append(F.full(tuple(shape[:axis] + [before] + shape[axis + 1:]), low, dtype=arr.dtype))
        parts.append(arr)
        if after:
            parts.append(F.full(tuple(shape[:axis] + [after] + shape[axis + 1:]), high, dtype=arr.dtype))
        arr = run("concat", *parts, axis=axis) if len(parts) > 1 else arr
    return arr


def vstack(tup: tuple | list) -> Tensor:
    """The Tensors of ``tup`` joined along the first dim (1-D ones as rows)."""
    return run("concat", *[run("reshape", t, shape=(1, -1)) if len(t.shape) < 2 else t for t in tup], axis=0)


def hstack(tup: tuple | list) -> Tensor:
    """The Tensors of ``tup`` joined along the second dim (along the first for 1-D ones)."""
    return run("concat", *tup, axis=0 if len(tup[0].shape) == 1 else 1)


def column_stack(tup: tuple | list) -> Tensor:
    """The Tensors of ``tup`` joined as columns (1-D ones become columns)."""
    return run("concat", *[run("reshape", t, shape=(-1, 1)) if len(t.shape) < 2 else t for t in tup], axis=1)


def array_split(x: Tensor, indices_or_sections: int | list | tuple, axis: int = 0) -> tuple:
    """``x`` cut along ``axis`` into ``indices_or_sections`` near-equal parts (the first ones one longer), or
    before each index of the list; a tuple of Tensors, as MindSpore's."""
    size = x.shape[axis]
    if isinstance(indices_or_sections, int):
        base, extra = divmod(size, indices_or_sections)
        sizes = [base + 1] * extra + [base] * (indices_or_sections - extra)
    else:
        cuts = [0, *indices_or_sections, size]
        sizes = [cuts[i + 1] - cuts[i] for i in range(len(cuts) - 1)]
    return tuple(F.split(x, sizes, axis))


def append(arr: Tensor, values: Tensor, axis: int | None = None) -> Tensor:
    """``values`` joined after ``arr`` along ``axis`` (both flattened when None)."""
    if axis is None:
        return run("concat", run("reshape", arr, shape=(-1,)), run("reshape", values, shape=(-1,)), axis=0)
    return run("concat", arr, values, axis=axis)


def ravel(x: Tensor) -> Tensor:
    """``x`` as a 1-D Tensor."""
    return run("reshape", x, shape=(-1,))


def broadcast_arrays(*args: Tensor) -> list:
    """The Tensors broadcast to their common shape."""
    shape = ()
    for arg in args:
        shape = _broadcast_shape(shape, tuple(arg.shape))
    return [run("broadcast_to", arg, shape=shape) for arg in args]


def moveaxis(a: Tensor, source: int | tuple | list, destination: int | tuple | list) -> Tensor:
    """``a`` with the dims ``source`` moved to the positions ``destination``, the others in order."""
    ndim = len(a.shape)
    sources = [s % ndim for s in ((source,) if isinstance(source, int) else source)]
    destinations = [d % ndim for d in ((destination,) if isinstance(destination, int) else destination)]
    order = [d for d in range(ndim) if d not in sources]
    for position, dim in sorted(zip(destinations, sources)):
        order.insert(position, dim)
    return run("transpose", a, axes=tuple(order))


def rot90(a: Tensor, k: int = 1, axes: tuple | list = (0, 1)) -> Tensor:
    """``a`` rotated by 90 degrees ``k`` times in the plane of ``axes``, from the first toward the second."""
    first, second = axes
    k %= 4
    if k == 0:
        return a
    if k == 2:
        return F.flip(F.flip(a, (first,)), (second,))
    swapped = _shapes.transpose(a, first, second)
    return F.flip(swapped, (first,)) if k == 1 else F.flip(swapped, (second,))


def take(a: Tensor, indices: Tensor, axis: int | None = None, mode: str = "clip") -> Tensor:
    """The elements of ``a`` (flattened when ``axis`` is None) at ``indices`` along ``axis``; out-of-range
    indices are clipped (``'clip'``, the default: negative ones count from the end first, as MindSpore 2.10's
    numpy takes them) or wrapped (``'wrap'``).

    Raises:
        ValueError: for another ``mode``.
    """
    if axis is None:
        a, axis = run("reshape", a, shape=(-1,)), 0
    size = a.shape[axis]
    if mode == "clip":
        from_end = run("add", indices, run("mul", run("cast", run("less", indices, 0), dtype=_np_dtype(indices.dtype)),
                                           size))
        indices = run("clip", from_end, 0, size - 1)
    elif mode == "wrap":
        indices = F.remainder(indices, size)
    else:
        raise ValueError(f"For 'take', 'mode' must be 'clip' or 'wrap', but got {mode!r}.")
    return run("gather", a, indices, axis=axis)


def diagonal(a: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The ``offset``-th diagonal of the planes of ``axis1`` and ``axis2``, as the last dim.

    Raises:
        ValueError: if ``a`` has fewer than 2 dims.
    """
    ndim = len(a.shape)
    if ndim < 2:
        raise ValueError(f"For 'diagonal', the input must have at least 2 dims, but got {ndim}.")
    axis1, axis2 = axis1 % ndim, axis2 % ndim
    rest = [d for d in range(ndim) if d not in (axis1, axis2)]
    planes = run("transpose", a, axes=tuple(rest + [axis1, axis2]))
    rows, columns = a.shape[axis1], a.shape[axis2]
    first_row = builtins.max(-offset, 0)
    count = builtins.max(0, builtins.min(rows - first_row, columns - first_row - offset))
    positions = [(first_row + i) * columns + first_row + i + offset for i in range(count)]
    flat = run("reshape", planes, shape=tuple(a.shape[d] for d in rest) + (rows * columns,))
    return run("gather", flat, Tensor(np.array(positions, np.int32)), axis=len(rest))


def diagflat(v: Tensor, k: int = 0) -> Tensor:
    """The square matrix with the flattened ``v`` on its ``k``-th diagonal."""
    return _shapes.diag(run("reshape", v, shape=(-1,)), k)


def trace(a: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """The sum of the ``offset``-th diagonal of the planes of ``axis1`` and ``axis2`` (integers sum as Int64)."""
    return F.sum(diagonal(a, offset, axis1, axis2), -1, dtype=dtype)


def diff(a: Tensor, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th forward difference along ``axis``, after joining ``prepend`` and ``append`` (numbers are
    broadcast to one slice)."""
    return _shapes.diff(a, n, axis, _as_slice(prepend, a, axis), _as_slice(append, a, axis))


def _as_slice(value: Any, a: Tensor, axis: int) -> Any:
    """A number as one slice of ``a`` along ``axis`` filled with it (a Tensor or None as it is)."""
    if value is None or isinstance(value, Tensor):
        return value
    shape = tuple(1 if d == axis % len(a.shape) else size for d, size in enumerate(a.shape))
    return F.full(shape, value, dtype=a.dtype)


def unravel_index(indices: Any, shape: tuple | list, order: str = "C") -> tuple:
    """The coordinates in an array of ``shape`` of the flat ``indices`` (a tuple of Tensors; Int32 for a Python
    int, the indices' dtype for a Tensor).

    Raises:
        ValueError: if ``order`` is not ``'C'`` or ``'F'``.
    """
    if order not in ("C", "F"):
        raise ValueError(f"For 'unravel_index', 'order' must be 'C' or 'F', but got {order!r}.")
    flat = indices if isinstance(indices, Tensor) else Tensor(indices, mstype.int32)
    sizes = list(shape) if order == "C" else list(shape)[::-1]
    coordinates = []
    for size in reversed(sizes):
        coordinates.append(F.remainder(flat, size))
        flat = F.floor_divide(flat, size)
    return tuple(coordinates[::-1] if order == "C" else coordinates)


def isin(element: Tensor, test_elements: Tensor, invert: bool = False) -> Tensor:
    """Elementwise: is the element among ``test_elements`` (Bool; negated with ``invert``)."""
    matches = run("equal", run("expand_dims", element, axis=-1), run("reshape", test_elements, shape=(-1,)))
    found = run("any", matches, axis=(-1,), keepdims=False)
    return run("logical_not", found) if invert else found


# ---------------------------------------------------------------- products


def matmul(x1: Tensor, x2: Tensor, dtype: Any = None) -> Tensor:
    """The matrix product of ``x1`` and ``x2`` (batched, with 1-D operands as vectors)."""
    return _with_dtype(run("matmul", x1, x2), dtype)


def dot(a: Tensor, b: Tensor) -> Tensor:
    """NumPy's dot: the inner product of vectors, the matrix product, or the sum over the last dim of ``a`` and
    the second-to-last of ``b``."""
    if len(a.shape) <= 2 and len(b.shape) <= 2:
        return run("matmul", a, b)
    return tensor_dot(a, b, ((len(a.shape) - 1,), (builtins.max(len(b.shape) - 2, 0),)))


def multi_dot(arrays: list | tuple) -> Tensor:
    """The product of the matrices of ``arrays`` (the first and last may be vectors), left to right.

    Raises:
        ValueError: with fewer than two arrays.
    """
    if len(arrays) < 2:
        raise ValueError(f"For 'multi_dot', at least 2 arrays are needed, but got {len(arrays)}.")
    result = arrays[0]
    for array in arrays[1:]:
        result = run("matmul", result, array)
    return result


def outer(a: Tensor, b: Tensor) -> Tensor:
    """``a[i] * b[j]`` of the flattened ``a`` and ``b``."""
    return F.outer(run("reshape", a, shape=(-1,)), run("reshape", b, shape=(-1,)))


def cross(a: Tensor, b: Tensor, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None) -> Tensor:
    """The cross product of the 3-vectors along ``axisa`` of ``a`` and ``axisb`` of ``b`` (``axis`` sets all
    three), placed along ``axisc``."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    return moveaxis(_elementwise.cross(a, b, -1), -1, axisc)


# ---------------------------------------------------------------- statistics


def average(x: Tensor, axis: int | tuple | None = None, weights: Tensor | None = None,
            returned: bool = False) -> Any:
    """The mean of ``x`` over ``axis`` weighted by ``weights`` (1-D along a single ``axis``, or ``x``'s shape);
    with ``returned``, also the sum of the weights."""
    x = _floating(x)
    if weights is None:
        result = run("mean", x, axis=_axis(axis), keepdims=False)
        total = F.full(result.shape, _reductions._count(x, _axis(axis)), dtype=result.dtype)
        return (result, total) if returned else result
    if len(weights.shape) == 1 and len(x.shape) > 1:
        weights = run("reshape", weights, shape=tuple(-1 if d == axis % len(x.shape) else 1
                                                       for d in range(len(x.shape))))
    weights = run("broadcast_to", weights, shape=tuple(x.shape))
    total = run("sum", weights, axis=_axis(axis), keepdims=False)
    result = run("div", run("sum", run("mul", x, weights), axis=_axis(axis), keepdims=False), total)
    return (result, total) if returned else result


def var(x: Tensor, axis: int | tuple | None = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` (every dim when None), dividing by ``N - ddof``."""
    return _reductions.var(x, axis, correction=ddof, keepdim=keepdims)


def std(x: Tensor, axis: int | tuple | None = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis`` (every dim when None), dividing by ``N - ddof``."""
    return _reductions.std(x, axis, correction=ddof, keepdim=keepdims)


def corrcoef(x: Tensor, y: Tensor | None = None, rowvar: bool = True, dtype: Any = None) -> Tensor:
    """The Pearson correlation coefficients of the variables (rows, or columns without ``rowvar``) of ``x`` and
    ``y``."""
    variables = x if y is None else vstack([x, y])
    if len(variables.shape) == 1:
        variables = run("reshape", variables, shape=(1, -1))
    if not rowvar:
        variables = run("transpose", variables, axes=(1, 0))
    variables = _floating(variables if dtype is None else run("cast", variables, dtype=_np_dtype(dtype)))
    centred = run("sub", variables, run("mean", variables, axis=(1,), keepdims=True))
    covariance = run("matmul", centred, centred, transpose_b=True)
    scale = run("sqrt", run("sum", run("square", centred), axis=(1,), keepdims=False))
    return run("div", covariance, F.outer(scale, scale))


def count_nonzero(x: Tensor, axis: int | tuple | None = None, keepdims: bool = False) -> Tensor:
    """The Int32 number of non-zero elements over ``axis`` (every dim when None)."""
    return run("sum", run("not_equal", x, 0), axis=_axis(axis), keepdims=keepdims, dtype=np.int32)


def cumsum(a: Tensor, axis: int | None = None, dtype: Any = None) -> Tensor:
    """The running sum along ``axis`` (of the flattened ``a`` when None), in ``a``'s dtype unless ``dtype``."""
    if axis is None:
        a, axis = run("reshape", a, shape=(-1,)), 0
    return F.cumsum(a, axis, a.dtype if dtype is None else dtype)


def cumprod(a: Tensor, axis: int | None = None, dtype: Any = None) -> Tensor:
    """The running product along ``axis`` (of the flattened ``a`` when None); integers give Int64 unless
    ``dtype`` is given."""
    if axis is None:
        a, axis = run("reshape", a, shape=(-1,)), 0
    if dtype is None and a.dtype not in mstype.float_type:
        dtype = mstype.int64
    a = _with_dtype(a, dtype)
    slices = list(F.unstack(a, axis))
    products = [slices[0]]
    for part in slices[1:]:
        products.append(run("mul", products[-1], part))
    return run("stack", *products, axis=axis)


def argmax(a: Tensor, axis: int | None = None) -> Tensor:
    """The Int64 index of the first maximum along ``axis`` (of the flattened ``a`` when None)."""
    return _reductions.argmax(a, axis)


def argmin(a: Tensor, axis: int | None = None) -> Tensor:
    """The Int32 index of the first minimum along ``axis`` (of the flattened ``a`` when None), as MindSpore
    2.10's numpy returns it."""
    return run("cast", _reductions.argmin(a, axis), dtype=np.int32)


def searchsorted(a: Tensor, v: Any, side: str = "left", sorter: Tensor | None = None) -> Tensor:
    """The Int32 positions at which the elements of ``v`` would go into the sorted 1-D ``a`` (``side='right'``:
    after equal elements); ``sorter`` sorts ``a`` first.

    Raises:
        ValueError: if ``side`` is not ``'left'`` or ``'right'``.
    """
    if side not in ("left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
    return _shapes.searchsorted(a, v, out_int32=True, right=side == "right", sorter=sorter)


def interp(x: Tensor, xp: Tensor, fp: Tensor, left: float | None = None, right: float | None = None) -> Tensor:
    """The piecewise-linear interpolant through ``(xp, fp)`` (``xp`` increasing) at ``x``; ``left``/``right``
    (``fp[0]``/``fp[-1]`` by default) outside ``xp``'s range."""
    size = xp.shape[0]
    upper = run("clip", _shapes.searchsorted(xp, x, right=True), 1, size - 1)
    lower = run("sub", upper, 1)
    x0, x1 = run("gather", xp, lower, axis=0), run("gather", xp, upper, axis=0)
    y0, y1 = run("gather", fp, lower, axis=0), run("gather", fp, upper, axis=0)
    result = run("add", y0, run("mul", run("sub", x, x0), run("div", run("sub", y1, y0), run("sub", x1, x0))))
    first = run("getitem", fp, index=(0,)) if left is None else left
    last = run("getitem", fp, index=(size - 1,)) if right is None else right
    result = run("where", run("less", x, run("getitem", xp, index=(0,))), first, result)
    return run("where", run("greater", x, run("getitem", xp, index=(size - 1,))), last, result)


# inverse trigonometric functions (tail)
def arctan(x: Tensor, dtype: Any = None) -> Tensor:
    """The inverse tangent elementwise, in radians (integers give Float32)."""
    return _with_dtype(run("atan", _floating(x)), dtype)


def arcsin(x: Tensor, dtype: Any = None) -> Tensor:
    """The inverse sine elementwise, in radians (NaN outside [-1, 1]; integers give Float32)."""
    return _with_dtype(run("asin", _floating(x)), dtype)


def arccos(x: Tensor, dtype: Any = None) -> Tensor:
    """The inverse cosine elementwise, in radians (NaN outside [-1, 1]; integers give Float32)."""
    return _with_dtype(run("acos", _floating(x)), dtype)


def arctan2(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The angle of the point ``(x2, x1)`` elementwise, in ``[-pi, pi]`` (integers give Float32)."""
    return _with_dtype(run("atan2", _floating(x1), _floating(x2)), dtype)


__all__ += ["arctan", "arcsin", "arccos", "arctan2"]


def bincount(x: Any, weights: Any = None, minlength: int = 0, length: int | None = None) -> Tensor:
    """The number of occurrences of each value ``0 .. length - 1`` in the 1-D int array ``x`` (negative values
    count as 0), or the sum of ``weights`` at them; Float32, as MindSpore's. ``length`` defaults to
    ``max(max(x), minlength - 1) + 1``, which reads ``x``'s values.

    Raises:
        ValueError: if ``x`` is not 1-D, or ``weights`` has another shape. TypeError: if ``x`` is not of ints.
    """
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("`x` should be one-dimensional")
    if _np_dtype(x.dtype).kind not in "iu":
        raise TypeError("`x` should be an array of ints")
    x = F.maximum(x, 0)
    if length is None:
        length = int(max(float(F.reduce_max(F.cast(x, mstype.float32)).asnumpy()), minlength - 1)) + 1
    matches = F.cast(F.equal(x, F.reshape(F.cast(Tensor(np.arange(length)), x.dtype), (length, 1))), mstype.float32)
    if weights is not None:
        weights = asarray(weights)
        if weights.shape != x.shape:
            raise ValueError("`x` and `weights` must have the same length")
        matches = weights * matches
    return F.reduce_sum(F.cast(matches, mstype.float32), 1)


__all__ += ["bincount"]
