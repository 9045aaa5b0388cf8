"""Elementwise math, statistics and logic of ``mindspore.ops``: ``acos``, ``atan2``, ``sinh``, ``erfc``, ``trunc``,
``log2``, ``deg2rad``, ``xlogy``, ``lerp``, ``addcmul``, ``logsumexp``, ``logaddexp``, ``std``, ``var``, ``cumprod`` ...

The inverse trigonometric and hyperbolic functions, ``expm1``, ``erfc``, ``atan2`` and ``trunc`` apply one op of
the table (``codegen_templates/special.py``); the others are compositions of table ops, so each runs eagerly and
compiled and differentiates as its parts do. Dtype rules, defaults and error messages are MindSpore 2.10's.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from .array_functional import moved_last, running_triangle
from .eager import dim, run
from .nn_functional import topk
from .numeric import _check_tensor

__all__ = ["acos", "arccos", "asin", "arcsin", "atan", "arctan", "atan2", "arctan2", "sinh", "cosh", "asinh",
           "arcsinh", "acosh", "arccosh", "atanh", "arctanh", "expm1", "erfc", "trunc", "isinf", "log2", "log10",
           "deg2rad", "rad2deg", "inv", "sinc", "xlogy", "lerp", "addcmul", "addcdiv", "logsumexp", "logaddexp",
           "logical_xor", "multiply", "subtract", "std", "var", "cumprod", "running_product", "frac", "exp2", "nansum",
           "count_nonzero", "floor_mod", "hypot", "heaviside", "logit", "isclose", "top_k", "bitwise_and", "bitwise_or",
           "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "gcd", "lcm", "truncate_div", "truncate_mod",
           "fmod", "diff", "erfinv", "cummax", "cummin", "running_extremum", "bucketize", "lgamma", "digamma"]


def _unary(op: str, prim: str, input: Tensor) -> Tensor:
    _check_tensor(prim, "input", input)
    return run(op, input)


def acos(input: Tensor) -> Tensor:
    """Elementwise arccosine of a float Tensor, in ``[0, pi]`` (NaN outside ``[-1, 1]``).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("acos", "ACos", input)


def asin(input: Tensor) -> Tensor:
    """Elementwise arcsine of a float Tensor, in ``[-pi/2, pi/2]`` (NaN outside ``[-1, 1]``).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("asin", "Asin", input)


def atan(input: Tensor) -> Tensor:
    """Elementwise arctangent of a float Tensor, in ``(-pi/2, pi/2)``.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("atan", "Atan", input)


def atan2(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise angle of the point ``(other, input)``, in ``[-pi, pi]``, broadcast, in the promoted float dtype.

    Raises:
        TypeError: if neither argument is a Tensor, or the promoted dtype is not a float.
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"For 'Atan2', at least one of 'input' and 'other' must be a Tensor, but got "
                        f"{type(input).__name__} and {type(other).__name__}.")
    return run("atan2", input, other)


def sinh(input: Tensor) -> Tensor:
    """Elementwise hyperbolic sine of a float Tensor.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("sinh", "Sinh", input)


def cosh(input: Tensor) -> Tensor:
    """Elementwise hyperbolic cosine of a float Tensor.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("cosh", "Cosh", input)


def asinh(input: Tensor) -> Tensor:
    """Elementwise inverse hyperbolic sine of a float Tensor.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("asinh", "Asinh", input)


def acosh(input: Tensor) -> Tensor:
    """Elementwise inverse hyperbolic cosine of a float Tensor (NaN below 1).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("acosh", "Acosh", input)


def atanh(input: Tensor) -> Tensor:
    """Elementwise inverse hyperbolic tangent of a float Tensor (infinite at -1 and 1, NaN beyond).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("atanh", "Atanh", input)


def expm1(input: Tensor) -> Tensor:
    """Elementwise ``exp(input) - 1``, exact near 0.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("expm1", "Expm1", input)


def erfc(input: Tensor) -> Tensor:
    """Elementwise complementary error function ``1 - erf(input)``, without its cancellation for large inputs.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("erfc", "Erfc", input)


def erfinv(input: Tensor) -> Tensor:
    """Elementwise inverse error function on (-1, 1): ±inf at ±1, NaN beyond.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("erfinv", "Erfinv", input)


def lgamma(input: Tensor) -> Tensor:
    """Elementwise ``log|Γ(input)|`` of a float Tensor (+inf at 0 and the negative integers).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("lgamma", "Lgamma", input)


def digamma(input: Tensor) -> Tensor:
    """Elementwise digamma ψ = Γ'/Γ of a float Tensor (-inf at 0, NaN at the negative integers).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _unary("digamma", "Digamma", input)


def trunc(input: Tensor) -> Tensor:
    """Each element rounded toward zero, in ``input``'s dtype (its gradient is zero).

    Raises:
        TypeError: if ``input`` is not a Tensor.
    """
    return _unary("trunc", "Trunc", input)


def _check_float(prim: str, name: str, input: Tensor) -> None:
    _check_tensor(prim, name, input)
    if input.dtype not in mstype.float_type:
        raise TypeError(f"Select CPU operator[{prim}] fail! Unsupported data type! The supported data types are "
                        f"Float16, Float32 and Float64, but got {input.dtype}.")


def isinf(input: Tensor) -> Tensor:
    """Whether each element of the float Tensor ``input`` is an infinity (Bool; NaN is not).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    _check_float("IsInf", "input", input)
    return run("equal", run("abs", input), math.inf)


def _log_base(input: Tensor, base: float) -> Tensor:
    _check_tensor("Log", "input", input)
    return run("div", run("log", input), run("log", Tensor(base, input.dtype)))


def log2(input: Tensor) -> Tensor:
    """Elementwise base-2 logarithm of a float Tensor: ``log(input) / log(2)`` in its dtype.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _log_base(input, 2.0)


def log10(input: Tensor) -> Tensor:
    """Elementwise base-10 logarithm of a float Tensor: ``log(input) / log(10)`` in its dtype.

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    return _log_base(input, 10.0)


def _scaled_angle(x: Tensor, factor: float) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"The input x must be tensor, but got {type(x).__name__}.")
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], but "
                        f"got 'mindspore.{str(x.dtype).lower()}'.")
    return run("mul", x, factor)


def deg2rad(x: Tensor) -> Tensor:
    """Angles in degrees converted to radians (``x * pi / 180``).

    Raises:
        TypeError: if ``x`` is not a Tensor of float16, float32 or float64.
    """
    return _scaled_angle(x, math.pi / 180)


def rad2deg(x: Tensor) -> Tensor:
    """Angles in radians converted to degrees (``x * 180 / pi``).

    Raises:
        TypeError: if ``x`` is not a Tensor of float16, float32 or float64.
    """
    return _scaled_angle(x, 180 / math.pi)


def inv(x: Tensor) -> Tensor:
    """Elementwise reciprocal ``1 / x`` in ``x``'s dtype (integers: the quotient truncated toward zero).

    Raises:
        TypeError: if ``x`` is not a Tensor.
    """
    _check_tensor("Inv", "x", x)
    if x.dtype in mstype.float_type:
        return run("div", 1, x)
    return run("cast", run("trunc", run("div", 1, x)), dtype=_np_dtype(x.dtype))


def sinc(input: Tensor) -> Tensor:
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0; integers and bools give Float32.

    Raises:
        TypeError: if ``input`` is not a Tensor.
    """
    _check_tensor("Sinc", "input", input)
    if input.dtype not in mstype.float_type:
        input = run("cast", input, dtype=_np_dtype(mstype.float32))
    zero = run("equal", input, 0)
    angle = run("mul", run("where", zero, 1, input), math.pi)   # 1 at 0, so the unused branch stays finite
    return run("where", zero, 1, run("div", run("sin", angle), angle))


def xlogy(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input * log(other)``, broadcast, in the promoted float dtype. As MindSpore 2.10's CPU kernel,
    ``0 * log(0)`` and ``0 * log(-1)`` are NaN, not 0.

    Raises:
        TypeError: if neither argument is a Tensor, or the promoted dtype is not a float.
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"For 'Xlogy', at least one of 'input' and 'other' must be a Tensor, but got "
                        f"{type(input).__name__} and {type(other).__name__}.")
    return run("mul", input, run("log", other))


def lerp(input: Tensor, end: Tensor, weight: Tensor | float) -> Tensor:
    """Linear interpolation ``input + weight * (end - input)``, broadcast.

    Raises:
        TypeError: if ``input`` or ``end`` is not a Tensor, or ``weight`` is neither a Tensor nor a float.
    """
    _check_tensor("Lerp", "input", input)
    _check_tensor("Lerp", "end", end)
    if not isinstance(weight, (Tensor, float)):
        raise TypeError(f"For 'Lerp', the 'weight' must be a Tensor or a float, but got {type(weight).__name__}.")
    return run("add", input, run("mul", weight, run("sub", end, input)))


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Tensor | float = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``, broadcast.

    Raises:
        TypeError: if ``input``, ``tensor1`` or ``tensor2`` is not a Tensor.
    """
    for name, x in (("input", input), ("tensor1", tensor1), ("tensor2", tensor2)):
        _check_tensor("Addcmul", name, x)
    return run("add", input, run("mul", value, run("mul", tensor1, tensor2)))


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Tensor | float = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``, broadcast.

    Raises:
        TypeError: if ``input``, ``tensor1`` or ``tensor2`` is not a Tensor.
    """
    for name, x in (("input", input), ("tensor1", tensor1), ("tensor2", tensor2)):
        _check_tensor("Addcdiv", name, x)
    return run("add", input, run("mul", value, run("div", tensor1, tensor2)))


def _axes(input: Tensor, dim: Any, prim: str) -> tuple[int, ...]:
    """``dim`` (None, ``()``, an int or a tuple of ints) as a tuple of non-negative axes, ``()`` meaning all."""
    ndim = len(input.shape)
    if isinstance(dim, Tensor):    # MindSpore takes Tensor(1)
        if dim.dtype not in mstype.int_type + mstype.uint_type or dim.size != 1:
            raise TypeError(f"For '{prim}', the 'dim' must be an int or a tuple of ints, but got {dim!r}.")
        dim = int(dim)
    dims = () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    for axis in dims:
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For '{prim}', the 'dim' must be an int or a tuple of ints, but got {dim!r}.")
        if not -max(ndim, 1) <= axis < max(ndim, 1):
            raise ValueError(f"For '{prim}', the 'dim' must be in range [{-max(ndim, 1)}, {max(ndim, 1)}), "
                             f"but got {axis}.")
    return tuple(axis % max(ndim, 1) for axis in dims) if dims else tuple(range(ndim))


def logsumexp(input: Tensor, dim: int | tuple[int, ...], keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input), dim))``, computed after subtracting the maximum (no overflow); ``dim=()`` reduces all.

    Raises:
        TypeError: if ``input`` is not a Tensor or ``dim`` is not an int or tuple of ints.
        ValueError: if an axis of ``dim`` is out of range.
    """
    _check_tensor("LogSumExp", "input", input)
    axes = _axes(input, dim, "LogSumExp")
    peak = run("stop_gradient", run("max", input, axis=axes, keepdims=True))
    summed = run("sum", run("exp", run("sub", input, peak)), axis=axes, keepdims=keepdim)
    return run("add", run("log", summed), peak if keepdim else run("reshape", peak, shape=summed.shape))


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise ``log(exp(input) + exp(other))`` without overflow, broadcast.

    Raises:
        TypeError: if ``input`` or ``other`` is not a Tensor.
    """
    _check_tensor("LogAddExp", "input", input)
    _check_tensor("LogAddExp", "other", other)
    peak = run("stop_gradient", run("maximum", input, other))
    summed = run("add", run("exp", run("sub", input, peak)), run("exp", run("sub", other, peak)))
    return run("add", run("log", summed), peak)


def logical_xor(input: Any, other: Any) -> Tensor:
    """Elementwise exclusive or of the truth values of two Tensors or numbers (Bool), broadcast; MindSpore
    2.10 takes any dtype (``logical_xor(Int32 [1, 0, 2], Int32 [1, 0, 2])`` is all False)."""
    return run("not_equal", run("cast", input, dtype=np.bool_), run("cast", other, dtype=np.bool_))


def multiply(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input * other``, broadcast, in the promoted dtype (``ops.mul``)."""
    return run("mul", input, other)


def subtract(input: Tensor | float, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """``input - alpha * other``, broadcast, in the promoted dtype."""
    return run("sub", input, other if alpha == 1 else run("mul", other, alpha))


def _variance(input: Tensor, axis: Any, ddof: int | bool, keepdims: bool, prim: str) -> Tensor:
    _check_tensor(prim, "input", input)
    if isinstance(ddof, bool):
        ddof = int(ddof)
    if not isinstance(ddof, int):
        raise TypeError(f"For '{prim}', the 'ddof' must be an int or a bool, but got {type(ddof).__name__}.")
    axes = _axes(input, axis, prim)
    count = 1
    for a in axes:
        count = count * dim(input, a)
    deviation = run("sub", input, run("mean", input, axis=axes, keepdims=True))
    squares = run("sum", run("mul", deviation, deviation), axis=axes, keepdims=keepdims)
    return run("div", squares, count - ddof)


def var(input: Tensor, axis: int | tuple[int, ...] | None = None, ddof: int | bool = 0,
        keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` (None: all): the sum of squared deviations from the mean over ``N - ddof``.

    Raises:
        TypeError: if ``input`` is not a Tensor or ``ddof`` is not an int or bool.
        ValueError: if an axis is out of range.
    """
    return _variance(input, axis, ddof, keepdims, "var")


def std(input: Tensor, axis: int | tuple[int, ...] | None = None, ddof: int | bool = 0,
        keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis`` (None: all): the square root of :func:`var`.

    Raises:
        TypeError: if ``input`` is not a Tensor or ``ddof`` is not an int or bool.
        ValueError: if an axis is out of range.
    """
    return run("sqrt", _variance(input, axis, ddof, keepdims, "std"))


def cumprod(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """Running products of ``input`` along ``dim`` (``dtype`` casts ``input`` first; bool and integers give Int64).

    Raises:
        TypeError: if ``input`` is not a Tensor or ``dim`` is not an int.
        ValueError: if ``dim`` is out of range.
    """
    _check_tensor("CumProd", "input", input)
    if dtype is None and input.dtype not in mstype.float_type:
        dtype = mstype.int64   # as sum: bool and integers multiply in Int64
    if dtype is not None:
        input = run("cast", input, dtype=_np_dtype(dtype))
    return running_product(input, dim, False, False)


def running_product(x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    """Running products of ``x`` along ``axis``: ``exclusive`` leaves each element out of its own product,
    ``reverse`` multiplies from the end (``CumProd``'s flags). One multiplication per position, so it
    differentiates exactly where elements are zero.

    Raises:
        TypeError: if ``axis`` is not an int.
        ValueError: if ``axis`` is out of range.
    """
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For 'CumProd', the 'axis' must be an int, but got {type(axis).__name__}.")
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"For 'CumProd', the 'axis' must be in [{-ndim}, {ndim}), but got {axis}.")
    axis = axis % ndim
    n = x.shape[axis]
    if n < 0:   # a dim known only when the kernel runs: each position multiplies the elements its triangle picks
        moved, back = moved_last(x, axis)
        picked = run("where", running_triangle(x, axis, exclusive, reverse, mstype.bool_),
                     run("expand_dims", moved, axis=ndim), 1)
        return run("transpose", run("prod", picked, axis=ndim - 1), axes=back)
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    lead = (slice(None),) * axis
    products = [None] * n
    running = run("ones_like", run("getitem", x, index=lead + (order[0],)))
    for k in order:
        element = run("getitem", x, index=lead + (k,))
        if exclusive:
            products[k] = running
            running = run("mul", running, element)
        else:
            running = run("mul", running, element)
            products[k] = running
    return run("stack", *products, axis=axis)


def frac(x: Tensor) -> Tensor:
    """The fractional part ``x - trunc(x)`` of each element, with ``x``'s sign (its gradient passes through).

    Raises:
        TypeError: if ``x`` is not a Tensor.
    """
    _check_tensor("Frac", "x", x)
    return run("sub", x, run("trunc", x))


def exp2(input: Tensor) -> Tensor:
    """Elementwise ``2 ** input``; integers and bools give Float32.

    Raises:
        TypeError: if ``input`` is not a Tensor.
    """
    _check_tensor("Exp2", "input", input)
    if input.dtype not in mstype.float_type:
        input = run("cast", input, dtype=_np_dtype(mstype.float32))
    return run("pow", 2.0, input)


def nansum(input: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, *,
           dtype: Any = None) -> Tensor:
    """The sum over ``axis`` (None: all) with NaN counted as 0, in ``input``'s dtype unless ``dtype`` is given.

    Raises:
        TypeError: if ``input`` is not a Tensor.
        ValueError: if an axis is out of range.
    """
    _check_tensor("nansum", "input", input)
    axes = _axes(input, axis, "nansum")
    if input.dtype in mstype.float_type:
        input = run("where", run("not_equal", input, input), 0, input)
    return run("sum", input, axis=axes, keepdims=keepdims, dtype=_np_dtype(input.dtype if dtype is None else dtype))


def count_nonzero(x: Tensor, axis: int | tuple[int, ...] = (), keep_dims: bool = False,
                  dtype: Any = mstype.int32) -> Tensor:
    """The number of nonzero elements over ``axis`` (``()``: all), as ``dtype``.

    Raises:
        TypeError: if ``x`` is not a Tensor.
        ValueError: if an axis is out of range.
    """
    _check_tensor("count_nonzero", "x", x)
    axes = _axes(x, axis, "count_nonzero")
    nonzero = run("cast", run("not_equal", x, 0), dtype=_np_dtype(dtype))
    return run("sum", nonzero, axis=axes, keepdims=keep_dims, dtype=_np_dtype(dtype))


def floor_mod(x: Tensor | float, y: Tensor | float) -> Tensor:
    """The remainder of floor division, with the sign of ``y`` (``ops.remainder``)."""
    return run("mod", x, y)


def hypot(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise ``sqrt(input ** 2 + other ** 2)``, broadcast, in the promoted float dtype.

    Raises:
        TypeError: if an argument is not a Tensor.
    """
    _check_tensor("Hypot", "input", input)
    _check_tensor("Hypot", "other", other)
    return run("sqrt", run("add", run("mul", input, input), run("mul", other, other)))


def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The Heaviside step of each element: 0 below 0, ``values`` at 0, 1 above, broadcast.

    Raises:
        TypeError: if an argument is not a Tensor.
    """
    _check_tensor("Heaviside", "input", input)
    _check_tensor("Heaviside", "values", values)
    step = run("cast", run("greater", input, 0), dtype=_np_dtype(input.dtype))
    return run("where", run("equal", input, 0), values, step)


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """Elementwise ``log(x / (1 - x))`` of ``x`` = ``input`` clamped to ``[eps, 1 - eps]`` (not clamped when ``eps``
    is None or negative).

    Raises:
        TypeError: if ``input`` is not a float Tensor or ``eps`` is not a float.
    """
    _check_float("Logit", "input", input)
    if eps is not None and not isinstance(eps, float):
        raise TypeError(f"For 'Logit', the 'eps' must be a float, but got {type(eps).__name__}.")
    if eps is not None and eps >= 0:
        input = run("clip", input, eps, 1 - eps)
    return run("log", run("div", input, run("sub", 1, input)))


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Elementwise ``|input - other| <= atol + rtol * |other|`` (Bool); infinities are close only to themselves and
    NaN to NaN only with ``equal_nan``.

    Raises:
        TypeError: if an argument is not a Tensor, or ``equal_nan`` not a bool.
    """
    _check_tensor("IsClose", "input", input)
    _check_tensor("IsClose", "other", other)
    if not isinstance(equal_nan, bool):
        raise TypeError(f"For 'IsClose', the 'equal_nan' must be a bool, but got {type(equal_nan).__name__}.")
    gap = run("abs", run("sub", input, other))
    within = run("less_equal", gap, run("add", atol, run("mul", rtol, run("abs", other))))
    # an infinite or NaN gap is close only where the two are equal (the same infinity)
    close = run("logical_or", run("equal", input, other), run("logical_and", run("less", gap, math.inf), within))
    if equal_nan:
        close = run("logical_or", close, run("logical_and", run("not_equal", input, input),
                                             run("not_equal", other, other)))
    return close


def top_k(input_x: Tensor, k: int, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """The ``k`` largest elements along the last dim and their Int32 indices, largest first. With ``sorted=False``
    MindSpore leaves the order unspecified; npspore returns them sorted too.

    Raises:
        TypeError: if ``input_x`` is not a Tensor, ``k`` not an int or ``sorted`` not a bool.
    """
    _check_tensor("TopK", "input_x", input_x)
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"For 'TopK', the 'k' must be an int, but got {type(k).__name__}.")
    if not isinstance(sorted, bool):
        raise TypeError(f"For 'TopK', the 'sorted' must be a bool, but got {type(sorted).__name__}.")
    return topk(input_x, k)


def _integer_op(op: str, prim: str, input: Tensor, other: Tensor | int) -> Tensor:
    _check_tensor(prim, "input", input)
    return run(op, input, other)


def bitwise_and(input: Tensor, other: Tensor | int) -> Tensor:
    """Elementwise bitwise AND of integer or Bool Tensors, broadcast, in the promoted dtype.

    Raises:
        TypeError: if ``input`` is not a Tensor, or an operand is not of an integer or Bool dtype.
    """
    return _integer_op("bitwise_and", "BitwiseAnd", input, other)


def bitwise_or(input: Tensor, other: Tensor | int) -> Tensor:
    """Elementwise bitwise OR of integer or Bool Tensors (see :func:`bitwise_and`)."""
    return _integer_op("bitwise_or", "BitwiseOr", input, other)


def bitwise_xor(input: Tensor, other: Tensor | int) -> Tensor:
    """Elementwise bitwise XOR of integer or Bool Tensors (see :func:`bitwise_and`)."""
    return _integer_op("bitwise_xor", "BitwiseXor", input, other)


def bitwise_left_shift(input: Tensor, other: Tensor | int) -> Tensor:
    """``input << other`` of integer Tensors of one dtype (or an int), broadcast; shifts below 0 or by the width or
    more give 0.

    Raises:
        TypeError: if ``input`` is not a Tensor, an operand is not an integer, or two Tensors differ in dtype.
    """
    return _integer_op("left_shift", "LeftShift", input, other)


def bitwise_right_shift(input: Tensor, other: Tensor | int) -> Tensor:
    """``input >> other`` of integer Tensors of one dtype (or an int), arithmetic for signed ones (see
    :func:`bitwise_left_shift`)."""
    return _integer_op("right_shift", "RightShift", input, other)


def gcd(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise greatest common divisor (nonnegative) of integer Tensors, broadcast.

    Raises:
        TypeError: if ``input`` is not a Tensor or an operand is not an integer.
    """
    return _integer_op("gcd", "Gcd", input, other)


def lcm(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise least common multiple (nonnegative; 0 with a 0) of integer Tensors, broadcast."""
    return _integer_op("lcm", "Lcm", input, other)


def truncate_mod(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x - trunc(x / y) * y``: the remainder with the sign of ``x`` (C's ``fmod``; 0 where an integer ``y`` is 0,
    NaN where a float one is), broadcast."""
    return run("truncate_mod", x, y)


def fmod(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input - trunc(input / other) * other``, the remainder with the sign of ``input``, broadcast (the quotient
    in Float32 for integers, as ``ops.div(..., rounding_mode='trunc')``): where an integer ``other`` is 0, ``input``.

    Raises:
        TypeError: if neither operand is a Tensor.
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"For 'fmod', at least one of 'input' and 'other' must be a Tensor, but got "
                        f"{type(input).__name__} and {type(other).__name__}.")
    quotient = run("trunc", run("div", input, other))
    dtype = (input if isinstance(input, Tensor) else other).dtype
    if dtype in mstype.int_type + mstype.uint_type:
        quotient = run("cast", quotient, dtype=_np_dtype(dtype))
    return run("sub", input, run("mul", other, quotient))


def truncate_div(x: Tensor | float, y: Tensor | float) -> Tensor:
    """The quotient rounded toward zero, broadcast, in the promoted dtype; where ``y`` is 0, floor division's
    values (the integer maximum or ``inf`` for a positive ``x`` ...)."""
    quotient = run("floor_div", x, y)
    floored_past_zero = run("logical_and", run("not_equal", run("truncate_mod", x, y), 0),
                            run("not_equal", run("less", x, 0), run("less", y, 0)))
    return run("where", floored_past_zero, run("add", quotient, 1), quotient)


def diff(x: Tensor, n: int = 1, axis: int = -1, prepend: Tensor | None = None, append: Tensor | None = None) -> Tensor:
    """The differences of neighbours along ``axis`` (``x[1:] - x[:-1]``; Bool: where they differ), after
    ``prepend`` and ``append`` are joined to ``x`` there.

    Raises:
        TypeError: if ``x`` is not a Tensor.
        RuntimeError: if ``n`` is not 1 (MindSpore 2.10's only order).
        ValueError: if ``axis`` is out of range.
    """
    _check_tensor("diff", "x", x)
    if n != 1:
        raise RuntimeError(f"For 'diff', 'n' must be 1, but got {n}")
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"For 'diff', the 'axis' must be in [{-ndim}, {ndim}), but got {axis}.")
    axis = axis % ndim
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = run("concat", *parts, axis=axis)
    lead = (slice(None),) * axis
    later, earlier = run("getitem", x, index=lead + (slice(1, None),)), run("getitem", x, index=lead + (slice(None, -1),))
    return run("not_equal" if x.dtype == mstype.bool_ else "sub", later, earlier)


def running_extremum(x: Tensor, axis: int, largest: bool, index_dtype: Any, prim: str) -> tuple[Tensor, Tensor]:
    """The running maximum (``largest``) or minimum of ``x`` along ``axis`` and the index it was last reached at (a
    tie takes the later index, as MindSpore's), one comparison per position; the gradient goes to that element.

    Raises:
        TypeError: if ``x`` is not a Tensor or ``axis`` not an int.
        ValueError: if ``axis`` is out of range.
    """
    _check_tensor(prim, "input", x)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For '{prim}', the 'axis' must be an int, but got {type(axis).__name__}.")
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"For '{prim}', the 'axis' must be in [{-ndim}, {ndim}), but got {axis}.")
    axis = axis % ndim
    if x.shape[axis] < 0:
        return _running_extremum_along_dynamic(x, axis, largest, index_dtype)
    lead = (slice(None),) * axis
    best = run("getitem", x, index=lead + (0,))
    where = run("cast", run("zeros_like", best), dtype=_np_dtype(index_dtype))
    values, indices = [best], [where]
    for k in list(range(1, x.shape[axis])):   # a list: compiled code unrolls it (a range would stage a loop)
        element = run("getitem", x, index=lead + (k,))
        take = run("greater_equal" if largest else "less_equal", element, best)
        best = run("where", take, element, best)
        where = run("where", take, k, where)
        values.append(best)
        indices.append(where)
    return run("stack", *values, axis=axis), run("stack", *indices, axis=axis)


def _running_extremum_along_dynamic(x: Tensor, axis: int, largest: bool, index_dtype: Any) -> tuple[Tensor, Tensor]:
    """:func:`running_extremum` along a dim known only when the kernel runs: at each position ``j`` the extremum of
    the elements ``i <= j`` (the others masked out by the running triangle), read from the end so that a tie takes
    the later index; the gradient goes to that element (``max_with_indices``)."""
    ndim = len(x.shape)
    moved, back = moved_last(x, axis)
    if x.dtype in mstype.float_type:
        fill = -math.inf if largest else math.inf
    else:
        info = np.iinfo(_np_dtype(x.dtype))
        fill = info.min if largest else info.max
    masked = run("where", running_triangle(x, axis, False, False, mstype.bool_), run("expand_dims", moved, axis=ndim),
                 fill)
    from_end = run("getitem", masked, index=(Ellipsis, slice(None, None, -1), slice(None)))
    values, found = run("max_with_indices" if largest else "min_with_indices", from_end, axis=ndim - 1)
    indices = run("sub", run("sub", dim(x, axis), 1), found)
    return (run("transpose", values, axes=back),
            run("transpose", run("cast", indices, dtype=_np_dtype(index_dtype)), axes=back))


def cummax(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:
    """The running maximum of ``input`` along ``axis`` and its Int64 indices (ties: the later index)."""
    return running_extremum(input, axis, True, mstype.int64, "cummax")


def cummin(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:
    """The running minimum of ``input`` along ``axis`` and its Int32 indices (ties: the later index)."""
    return running_extremum(input, axis, False, mstype.int32, "cummin")


def bucketize(input: Tensor, boundaries: list, *, right: bool = False) -> Tensor:
    """The Int32 index of the bucket of each element among the sorted float ``boundaries``: how many boundaries are
    below it (``right=True``: at or below it).

    Raises:
        TypeError: if ``input`` is not a Tensor or ``boundaries`` not a list of numbers.
    """
    _check_tensor("Bucketize", "input", input)
    if not isinstance(boundaries, list):
        raise TypeError(f"For 'Bucketize', the 'boundaries' must be a list of floats, but got {boundaries!r}.")
    for index, boundary in enumerate(boundaries):
        if not isinstance(boundary, float):
            raise TypeError(f"For 'Bucketize', the type of 'boundaries[{index}]' should be 'float', but got type "
                            f"'{type(boundary).__name__}'.")
    values = run("expand_dims", input, axis=-1)
    edges = Tensor([float(b) for b in boundaries], mstype.float32)
    below = run("less_equal" if right else "less", edges, run("cast", values, dtype=_np_dtype(mstype.float32)))
    return run("sum", run("cast", below, dtype=_np_dtype(mstype.int32)), axis=(len(input.shape),),
               dtype=_np_dtype(mstype.int32))


# NumPy's spellings, as MindSpore 2.10 has them
arccos, arcsin, arctan, arctan2, arcsinh, arccosh, arctanh = acos, asin, atan, atan2, asinh, acosh, atanh
