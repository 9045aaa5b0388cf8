"""Floor division and remainders as MindSpore's CPU kernels compute them where a divisor is zero.

NumPy's integer ``x // 0`` and ``x % 0`` are 0. Where the divisor is 0, MindSpore 2.10's kernels give:

* ``floor_divide`` (FloorDiv): for ``x > 0`` the integer maximum or ``inf``, for ``x == 0`` 0 or NaN, otherwise
  (``x < 0``, a NaN ``x``) the integer minimum or ``-inf``, whatever the zero's sign (NumPy: ``7.5 // -0.0`` is
  ``-inf``, NaN ``// 0`` NaN);
* ``floor_mod`` (FloorMod): for int32 and int64 the minimum (C's cast of the NaN its double arithmetic makes), for
  narrower integers 0 and for floats NaN (as NumPy);
* ``remainder`` (``ops.remainder``: ``x - floor_div(x, y) * y``): for integers ``x``, for floats NaN.

Elsewhere the result is NumPy's. Each function looks for a zero divisor first (1.3 us a call on a small array,
3 % of a floor division on a large one), so the common case is the plain NumPy expression. Generated kernels
call them as ``rt.floor_divide`` ...; a nonzero literal divisor is written as the plain operator instead
(``compiler/inlinefold.LiteralDivisors``). ``out`` lets the compiler write the result into a buffer, as a
ufunc's ``out=``.
"""
from __future__ import annotations

import numpy as np

from .kernels_np import sign   # noqa: F401 - the elementwise templates' ``rt`` is this module

__all__ = ["floor_divide", "floor_mod", "remainder"]


def _nonzero(y) -> bool:
    """Whether no element of the divisor ``y`` (an array, a NumPy or Python scalar) is zero."""
    if type(y) is np.ndarray:
        # count_nonzero is the cheapest test of a small array (0.8 us; all() takes 2.4), all() of a large one
        # (no temporary: 23 us for 100000 float32, count_nonzero 94)
        return np.count_nonzero(y) == y.size if y.size <= 4096 else bool(y.all())
    return bool(y)   # a NaN divisor is no zero


def _store(result, out):
    if out is None:
        return result[()] if result.ndim == 0 else result
    np.copyto(out, result)
    return out


def floor_divide(x, y, out=None):
    """``x // y``; where ``y`` is 0, MindSpore's FloorDiv values (module doc)."""
    if _nonzero(y):
        return x // y if out is None else np.floor_divide(x, y, out=out)
    quotient = np.asarray(np.floor_divide(x, y))
    dtype = quotient.dtype
    if dtype.kind == "f":
        high, at_zero, low = np.inf, np.nan, -np.inf
    else:
        info = np.iinfo(dtype)
        high, at_zero, low = info.max, 0, info.min
    by_zero = np.where(np.greater(x, 0), high, np.where(np.equal(x, 0), at_zero, low)).astype(dtype)
    return _store(np.where(np.equal(y, 0), by_zero, quotient), out)


def floor_mod(x, y, out=None):
    """``x % y`` (the sign of ``y``); where ``y`` is 0, MindSpore's FloorMod values (module doc)."""
    if _nonzero(y):
        return x % y if out is None else np.remainder(x, y, out=out)
    result = np.asarray(np.remainder(x, y))
    if result.dtype.kind == "i" and result.dtype.itemsize >= 4:
        # the kernel computes in double and casts the NaN of x - floor(x / 0) * 0 to the integer type
        result = np.where(np.equal(y, 0), np.iinfo(result.dtype).min, result).astype(result.dtype)
    return _store(result, out)


def remainder(x, y, out=None):
    """``x % y`` as ``ops.remainder``: where an integer ``y`` is 0, ``x`` (module doc)."""
    if _nonzero(y):
        return x % y if out is None else np.remainder(x, y, out=out)
    result = np.asarray(np.remainder(x, y))
    if result.dtype.kind in "iu":
        result = np.where(np.equal(y, 0), x, result).astype(result.dtype)
    return _store(result, out)
