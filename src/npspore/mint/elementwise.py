"""``mindspore.mint``'s elementwise and matrix functions: arithmetic with ``alpha``, comparisons, ``isclose``,
logarithms and exponentials in other bases, ``lerp``, ``fmod``, ``sinc``, ``xlogy``, ``cross``, ``cdist`` and the
``mm``/``mv``/``addmm`` family, as MindSpore 2.10 computes them (integers give Float32 where it does).

Each is a composition of the op table's ops, so it runs eagerly and compiled and differentiates as they do.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from ..ops import functional as F
from ..ops.numeric import isfinite as _isfinite
from ..ops.eager import run
# MindSpore 2.10's mint.X here is the very object ops.X
from ..ops.mint_functions import cross, nan_to_num  # noqa: F401
from ..ops import arctanh, atanh, erfc, erfinv, expm1, fmod, isclose, logical_xor, sinc, trunc  # noqa: F401
# and where it is a function of its own, the same computation (mint.atan2(input, other) ...)
from ..ops import acos, arccos, arcsin, arctan, arctan2, asin, atan, atan2, einsum  # noqa: F401

__all__ = ["add", "sub", "mul", "div", "pow", "sqrt", "eq", "equal", "greater_equal", "isfinite", "isneginf",
           "isclose", "allclose", "logical_xor", "log2", "log10", "exp2", "logaddexp", "logaddexp2", "float_power",
           "fmod", "remainder", "frac", "trunc", "lerp", "sinc", "erfc", "xlogy", "nan_to_num", "clamp", "where",
           "softmax", "atanh", "arctanh", "asinh", "arcsinh", "acosh", "arccosh", "expm1", "mm", "mv", "bmm", "dot", "outer", "addmm", "addbmm", "baddbmm", "addmv", "cross", "cdist"]
__all__ += ["erfinv", "acos", "arccos", "arcsin", "arctan", "arctan2", "asin", "atan", "atan2", "einsum"]


def _floating(x: Any) -> Any:
    """Integer and bool Tensors as Float32, for the functions MindSpore computes in floats."""
    if isinstance(x, Tensor) and x.dtype not in mstype.float_type:
        return run("cast", x, dtype=np.float32)
    return x


def _scaled(x: Any, alpha: Any) -> Any:
    if alpha == 1:
        return x
    if not isinstance(x, Tensor) and not isinstance(alpha, Tensor):   # a Python number: the Tensor's dtype rules
        return x * alpha
    return run("mul", x, alpha)


def add(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``input + alpha * other``, broadcast."""
    return run("add", input, _scaled(other, alpha))


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``input - alpha * other``, broadcast."""
    return run("sub", input, _scaled(other, alpha))


def mul(input: Any, other: Any) -> Tensor:
    """``input * other``, broadcast."""
    return run("mul", input, other)


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """``input / other`` (integers give Float32), or rounded ``'floor'``/``'trunc'``."""
    return F.div(input, other, rounding_mode=rounding_mode)


def pow(input: Any, exponent: Any) -> Tensor:  # noqa: A001  (mint's name)
    """``input ** exponent``, broadcast."""
    return run("pow", input, exponent)


def sqrt(input: Tensor) -> Tensor:
    """The square root elementwise (integers give Float32)."""
    return run("sqrt", _floating(input))


def eq(input: Any, other: Any) -> Tensor:
    """Elementwise ``input == other`` (Bool), broadcast."""
    return run("equal", input, other)


def equal(input: Tensor, other: Tensor) -> bool:
    """Whether ``input`` and ``other`` have the same shape and elements (a Python bool)."""
    if tuple(input.shape) != tuple(other.shape):
        return False
    return bool(F.all(run("equal", input, other)).asnumpy())


def greater_equal(input: Any, other: Any) -> Tensor:
    """Elementwise ``input >= other`` (Bool), broadcast."""
    return run("greater_equal", input, other)


def isfinite(input: Tensor) -> Tensor:
    """Elementwise: neither NaN nor infinite (Bool)."""
    return _isfinite(input)


def isneginf(input: Tensor) -> Tensor:
    """Elementwise ``input == -inf`` (Bool)."""
    return run("equal", input, -math.inf)


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """Whether every element pair is :func:`isclose` (a Python bool)."""
    return bool(F.all(isclose(input, other, rtol, atol, equal_nan)).asnumpy())


def log2(input: Tensor) -> Tensor:
    """The base-2 logarithm elementwise (integers give Float32)."""
    return run("div", run("log", _floating(input)), math.log(2.0))


def log10(input: Tensor) -> Tensor:
    """The base-10 logarithm elementwise (integers give Float32)."""
    return run("div", run("log", _floating(input)), math.log(10.0))


def exp2(input: Tensor) -> Tensor:
    """``2 ** input`` elementwise (integers give Float32)."""
    return run("exp", run("mul", _floating(input), math.log(2.0)))


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """``log(exp(input) + exp(other))``, computed without overflow."""
    input, other = _floating(input), _floating(other)
    top = run("maximum", input, other)
    return run("add", top, run("log", run("add", run("exp", run("sub", input, top)),
                                           run("exp", run("sub", other, top)))))


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """``log2(2 ** input + 2 ** other)``, computed without overflow."""
    return run("div", logaddexp(run("mul", _floating(input), math.log(2.0)),
                                run("mul", _floating(other), math.log(2.0))), math.log(2.0))


def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` computed in Float64 (a Float64 result)."""
    as_double = [run("cast", x, dtype=np.float64) if isinstance(x, Tensor) else x for x in (input, exponent)]
    return run("pow", *as_double)


def remainder(input: Any, other: Any) -> Tensor:
    """The remainder of ``input / other`` with the sign of ``other`` (Python's ``%``)."""
    return F.remainder(input, other)


def frac(input: Tensor) -> Tensor:
    """The fractional part ``input - trunc(input)``, with the sign of ``input``."""
    return run("sub", input, trunc(input))


def lerp(input: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``input + weight * (end - input)``, broadcast."""
    return run("add", input, run("mul", weight, run("sub", end, input)))


def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)`` (integers give Float32; ``xlogy(0, 0)`` is NaN, as MindSpore 2.10 gives it)."""
    return run("mul", _floating(input), run("log", _floating(other)))


def clamp(input: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002  (mint's names)
    """``input`` limited to ``[min, max]`` (either may be None).

    Raises:
        ValueError: if both bounds are None.
    """
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must not be None.")
    return F.clamp(input, min, max)


def where(condition: Tensor, input: Any = None, other: Any = None) -> Tensor:
    """``input`` where ``condition`` holds, else ``other`` (broadcast).

    Raises:
        ValueError: if ``input`` or ``other`` is missing (the one-argument form, the indices of the true
            elements, is not implemented in npspore).
    """
    if input is None or other is None:
        raise ValueError("For 'where', npspore needs both 'input' and 'other' (the one-argument form is not "
                         "implemented).")
    return run("where", condition, input, other)


def softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """``exp(input) / sum(exp(input), dim)``, computed without overflow; ``dtype`` casts the input first."""
    return F.softmax(input, dim, dtype=dtype)


def asinh(input: Tensor) -> Tensor:
    """The inverse hyperbolic sine ``sign(x) log(|x| + sqrt(x^2 + 1))`` (integers give Float32)."""
    input = _floating(input)
    magnitude = run("log", run("add", run("abs", input), run("sqrt", run("add", run("square", input), 1.0))))
    return run("mul", run("sign", input), magnitude)


arcsinh = asinh


def acosh(input: Tensor) -> Tensor:
    """The inverse hyperbolic cosine ``log(x + sqrt(x^2 - 1))`` (integers give Float32)."""
    input = _floating(input)
    return run("log", run("add", input, run("sqrt", run("sub", run("square", input), 1.0))))


arccosh = acosh


def _matrix_product(name: str, input: Tensor, other: Tensor, ranks: tuple[int, int]) -> Tensor:
    """``input @ other``, after checking the operands have the ``ranks`` the function ``name`` takes.

    Raises:
        ValueError: if an operand has another rank.
    """
    if (len(input.shape), len(other.shape)) != ranks:
        raise ValueError(f"For '{name}', the inputs must be {ranks[0]}-D and {ranks[1]}-D, but got "
                         f"{len(input.shape)}-D and {len(other.shape)}-D.")
    return run("matmul", input, other)


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The matrix product of two 2-D Tensors (ValueError for other ranks)."""
    return _matrix_product("mm", input, mat2, (2, 2))


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """The product of the matrix ``input`` and the vector ``vec`` (ValueError for other ranks)."""
    return _matrix_product("mv", input, vec, (2, 1))


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """The batched matrix product of two 3-D Tensors (ValueError for other ranks)."""
    return _matrix_product("bmm", input, mat2, (3, 3))


def dot(input: Tensor, other: Tensor) -> Tensor:
    """The inner product of two 1-D Tensors, a 0-D Tensor (ValueError for other ranks)."""
    return _matrix_product("dot", input, other, (1, 1))


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product ``input[i] * vec2[j]`` of two 1-D Tensors."""
    return F.outer(input, vec2)


def _add_scaled(input: Tensor, product: Tensor, beta: Any, alpha: Any) -> Tensor:
    return run("add", _scaled(input, beta), _scaled(product, alpha))


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``."""
    return _add_scaled(input, mm(mat1, mat2), beta, alpha)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    return _add_scaled(input, bmm(batch1, batch2), beta, alpha)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    return _add_scaled(input, run("sum", bmm(batch1, batch2), axis=(0,), keepdims=False), beta, alpha)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    return _add_scaled(input, mv(mat, vec), beta, alpha)


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2`` (batched over leading dims).

    Raises:
        ValueError: if ``p`` is negative.
    """
    if p < 0:
        raise ValueError(f"For 'cdist', 'p' must be non-negative, but got {p}.")
    differences = run("abs", run("sub", run("expand_dims", x1, axis=-2), run("expand_dims", x2, axis=-3)))
    if p == 0:
        return run("sum", run("cast", run("not_equal", differences, 0.0), dtype=_np_dtype(x1.dtype)), axis=(-1,),
                   keepdims=False)
    if p == math.inf:
        return run("max", differences, axis=(-1,), keepdims=False)
    return run("pow", run("sum", run("pow", differences, p), axis=(-1,), keepdims=False), 1.0 / p)
