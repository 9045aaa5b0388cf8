"""More of MindSpore 2.10's Tensor methods, of math, statistics and linear algebra: ``x.fmod(y)``, ``x.addmm(a, b)``,
``x.nanmean()``, ``x.logdet()``, ``x.cov()``, ``x.argmax_with_value()``, ``x.copysign(y)``, the ``arc*`` and
``greater``/``less`` aliases...

Each calls the ops (or mint) function of the same meaning with MindSpore's Tensor-method arguments, defaults and
result dtypes, as observed on MindSpore 2.10 CPU (``argmax_with_value``'s and ``nanmedian``'s indices are Int64,
``top_k``'s Int32, ``float_power`` gives Float64, ``copysign`` of an int Tensor Float32, ``allclose`` a Python bool).
Attached with :mod:`tensor_methods_tail`'s by ``npspore/__init__.py``.
"""
from __future__ import annotations

import math

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..mint import elementwise as mint_elementwise
from . import functional as F
from . import activation_ops, array_functional, cholesky_ops, linalg_extra, linalg_functional, math_extra
from . import math_functional, matrix_extra, nn_functional, primitive_functions_a_l, segment_sparse

_FLOATING = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _floating(x):
    return x if x.dtype in _FLOATING else F.cast(x, mstype.float32)


# ---------------------------------------------------------------------- elementwise

def fmod(self, other):
    """The remainder of ``self / other`` with the sign of ``self`` (C's fmod)."""
    if not isinstance(other, (Tensor, int, float)) or isinstance(other, bool):
        raise TypeError(f"For 'Tensor.fmod', 'other' must be a Tensor or a number, but got {type(other).__name__}.")
    return mint_elementwise.fmod(self, other)


def hardshrink(self, lambd=0.5):
    """``x`` where ``|x| > lambd``, 0 elsewhere (a negative ``lambd`` keeps every element, as MindSpore 2.10's
    method does; ``ops.hardshrink`` refuses it).

    Raises:
        TypeError: if the Tensor is not floating-point.
    """
    if self.dtype not in _FLOATING:
        raise TypeError(f"For primitive[HShrink], the input argument[input_x] must be a type of "
                        f"{{BFloat16, Float16, Float32}}, but got {self.dtype}.")
    return F.where(F.gt(F.abs(self), lambd), self, F.zeros_like(self))


def erfinv(self):
    """Elementwise inverse error function."""
    return math_functional.erfinv(self)


def lgamma(self):
    """Elementwise log of the absolute gamma function."""
    return math_functional.lgamma(self)


def digamma(self):
    """Elementwise digamma (the derivative of lgamma)."""
    return math_functional.digamma(self)


def float_power(self, other):
    """``self ** other`` computed in Float64 (a Float64 result)."""
    return mint_elementwise.float_power(self, other)


def logaddexp2(self, other):
    """``log2(2 ** self + 2 ** other)``."""
    return mint_elementwise.logaddexp2(self, other)


def fmax(self, other):
    """Elementwise maximum ignoring a NaN where the other element is a number."""
    return primitive_functions_a_l.fmax(self, other)


def sgn(self):
    """Elementwise sign."""
    return F.sign(self)


def positive(self):
    """The Tensor itself (``+x``)."""
    return self


def arcsin(self):
    """Elementwise arcsine."""
    return math_functional.asin(self)


def arccos(self):
    """Elementwise arccosine."""
    return math_functional.acos(self)


def arctan(self):
    """Elementwise arctangent."""
    return math_functional.atan(self)


def arctan2(self, other):
    """Elementwise ``atan(self / other)`` in the right quadrant."""
    return math_functional.atan2(self, other)


def arcsinh(self):
    """Elementwise inverse hyperbolic sine."""
    return math_functional.asinh(self)


def arccosh(self):
    """Elementwise inverse hyperbolic cosine."""
    return math_functional.acosh(self)


def arctanh(self):
    """Elementwise inverse hyperbolic tangent."""
    return math_functional.atanh(self)


def greater(self, other):
    """Elementwise ``self > other``."""
    return F.gt(self, other)


def greater_equal(self, other):
    """Elementwise ``self >= other``."""
    return F.ge(self, other)


def less(self, other):
    """Elementwise ``self < other``."""
    return F.lt(self, other)


def less_equal(self, other):
    """Elementwise ``self <= other``."""
    return F.le(self, other)


def not_equal(self, other):
    """Elementwise ``self != other``."""
    return F.ne(self, other)


def equal(self, other):
    """Elementwise ``self == other``."""
    return F.eq(self, other)


def multiply(self, value):
    """Elementwise ``self * value``."""
    return F.mul(self, value)


def divide(self, other, *, rounding_mode=None):
    """Elementwise ``self / other``; ``rounding_mode`` ``'floor'`` or ``'trunc'`` rounds the quotient."""
    return F.div(self, other, rounding_mode=rounding_mode)


def subtract(self, other, *, alpha=1):
    """Elementwise ``self - alpha * other``."""
    return F.sub(self, other if alpha == 1 else F.mul(other, alpha))


def signbit(self):
    """Elementwise: whether the sign bit is set (``-0.0`` included)."""
    if self.dtype not in _FLOATING:
        return F.less(self, 0)
    return F.logical_or(F.less(self, 0), F.logical_and(F.eq(self, 0), F.less(math_functional.atan2(self, -1.0), 0)))


def copysign(self, other):
    """``|self|``, negated where ``other`` (a Tensor or a number) is below 0; ints give Float32. A ``-0.0`` in
    ``other`` counts as positive, as MindSpore 2.10 CPU gives it (observed)."""
    magnitude = F.abs(_floating(self))
    if not isinstance(other, Tensor):
        return F.neg(magnitude) if other < 0 else magnitude
    return F.where(F.less(other, 0), F.neg(magnitude), magnitude)


def ldexp(self, other):
    """``self * 2 ** other``."""
    return F.mul(self, F.pow(2.0, F.cast(other, self.dtype) if isinstance(other, Tensor) else other))


def xdivy(self, y):
    """``self / y``, 0 where ``self`` is 0."""
    return F.where(F.eq(self, 0), F.zeros_like(F.div(self, y)), F.div(self, y))


def fmin(self, other):
    """Elementwise minimum ignoring a NaN where the other element is a number."""
    return primitive_functions_a_l.fmin(self, other)


def isneginf(self):
    """Elementwise test for negative infinity."""
    return mint_elementwise.isneginf(self)


def isposinf(self):
    """Elementwise test for positive infinity."""
    return F.logical_and(math_functional.isinf(self), F.gt(self, 0))


def isreal(self):
    """Elementwise: whether the element is real (True everywhere for a real dtype)."""
    return F.ones(tuple(self.shape), mstype.bool_)


def is_signed(self):
    """Whether the dtype is signed (a Python bool)."""
    return self.dtype not in (mstype.bool_, mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64)


def invert(self):
    """Bitwise NOT of an integer Tensor.

    Raises:
        TypeError: if the Tensor is not of an integer dtype.
    """
    if self.dtype in _FLOATING or self.dtype == mstype.bool_:
        raise TypeError(f"For primitive[Invert], the input argument[x] must be an integer Tensor, but got "
                        f"Tensor[{self.dtype}].")
    return primitive_functions_a_l.invert(self)


def bitwise_not(self):
    """Bitwise NOT (logical NOT of a bool Tensor)."""
    return F.logical_not(self) if self.dtype == mstype.bool_ else invert(self)


def bitwise_left_shift(self, other):
    """Elementwise ``self << other``."""
    return math_functional.bitwise_left_shift(self, other)


def bitwise_right_shift(self, other):
    """Elementwise ``self >> other`` (arithmetic for signed integers)."""
    return math_functional.bitwise_right_shift(self, other)


def gcd(self, other):
    """Elementwise greatest common divisor."""
    return math_functional.gcd(self, other)


def lcm(self, other):
    """Elementwise least common multiple."""
    return math_functional.lcm(self, other)


def soft_shrink(self, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between."""
    return activation_ops.softshrink(self, lambd)


def approximate_equal(self, other, tolerance=1e-05):
    """Elementwise ``|self - other| < tolerance``."""
    return primitive_functions_a_l.approximate_equal(self, other, tolerance)


def fill(self, value):
    """A Tensor of the same shape and dtype filled with ``value``."""
    return F.full(tuple(self.shape), value, dtype=self.dtype)


# ---------------------------------------------------------------------- reductions

def nanmean(self, axis=None, keepdims=False, *, dtype=None):
    """The mean over ``axis`` of the non-NaN elements.

    Raises:
        TypeError: if the Tensor is not floating-point.
    """
    if self.dtype not in _FLOATING:
        raise TypeError(f"For 'nanmean', input should be floating point dtype, but got {self.dtype}.")
    x = self if dtype is None else F.cast(self, dtype)
    keep = F.logical_not(F.isnan(x))
    axes = () if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    total = F.sum(F.where(keep, x, F.zeros_like(x)), axes, keepdims)
    count = F.sum(F.cast(keep, x.dtype), axes, keepdims)
    return F.div(total, count)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element pair is close (``|self - other| <= atol + rtol * |other|``), a Python bool."""
    return mint_elementwise.allclose(self, other, rtol, atol, equal_nan)


def aminmax(self, *, axis=0, keepdims=False):
    """``(min, max)`` over ``axis``."""
    return F.amin(self, axis, keepdims), F.amax(self, axis, keepdims)


def ptp(self, axis=None, keepdims=False):
    """The range ``max - min`` over ``axis``."""
    return F.sub(F.amax(self, axis, keepdims), F.amin(self, axis, keepdims))


def argmax_with_value(self, axis=0, keep_dims=False):
    """``(values, Int64 indices)`` of the maxima over ``axis``."""
    return F.amax(self, axis, keep_dims), F.cast(F.argmax(self, axis, keep_dims), mstype.int64)


def argmin_with_value(self, axis=0, keep_dims=False):
    """``(values, Int64 indices)`` of the minima over ``axis``."""
    return F.amin(self, axis, keep_dims), F.cast(F.argmin(self, axis, keep_dims), mstype.int64)


def nanmedian(self, axis=-1, keepdims=False):
    """``(values, Int64 indices)`` of the lower median of the non-NaN elements over ``axis`` (NaN and index 0 where
    all are NaN)."""
    nan = F.isnan(self)
    values, indices = array_functional.sort(F.where(nan, F.full(tuple(self.shape), float("inf"), dtype=self.dtype),
                                                    self), axis)
    count = F.sum(F.cast(F.logical_not(nan), mstype.int32), axis, True)
    middle = F.floor_divide(F.sub(F.maximum(count, 1), 1), 2)
    median = F.where(F.eq(count, 0), F.full(tuple(count.shape), float("nan"), dtype=self.dtype),
                     array_functional.gather_elements(values, axis, middle))
    index = F.cast(array_functional.gather_elements(indices, axis, middle), mstype.int64)
    if not keepdims:
        median, index = F.squeeze(median, axis), F.squeeze(index, axis)
    return median, index


def kthvalue(self, k, dim=-1, keepdim=False):
    """``(values, Int64 indices)`` of the ``k``-th smallest entry along ``dim``.

    Raises:
        ValueError: if ``k`` is not in ``[1, size of dim]``.
    """
    size = self.shape[dim] if self.shape else 1
    if not 1 <= k <= size:
        raise ValueError(f"For 'kthvalue', 'k' must be in [1, {size}], but got {k}.")
    values, indices = array_functional.sort(self, dim)
    position = tuple(slice(k - 1, k) if d == dim % len(self.shape) else slice(None) for d in range(len(self.shape)))
    value, index = values[position], F.cast(indices[position], mstype.int64)
    if not keepdim:
        value, index = F.squeeze(value, dim), F.squeeze(index, dim)
    return value, index


def quantile(self, q, axis=None, keepdims=False):
    """The ``q``-quantiles (a float or a 0-D/1-D Tensor) along ``axis`` (None: all elements), interpolating linearly;
    a 1-D ``q`` makes the first dim."""
    return matrix_extra.quantile(self, q, axis, keepdims)


def nanquantile(self, q, axis=None, keepdims=False):
    """:func:`quantile` of the non-NaN elements (NaN where a slice holds none)."""
    x = self.reshape(-1) if axis is None else self
    axis = 0 if axis is None else axis % len(self.shape)
    nan = F.isnan(x)
    ordered = array_functional.sort(F.where(nan, F.full(tuple(x.shape), float("inf"), dtype=x.dtype), x), axis)[0]
    count = F.cast(F.sum(F.cast(F.logical_not(nan), mstype.int32), axis, True), x.dtype)     # size 1 along axis
    ordered = F.where(F.eq(count, 0), F.zeros_like(ordered), ordered)   # an all-NaN slice: no inf - inf below
    levels = q if isinstance(q, Tensor) else Tensor(q, x.dtype)
    shape = (-1,) + (1,) * len(x.shape)
    position = F.mul(F.reshape(F.cast(levels, x.dtype), shape), F.maximum(F.sub(count, 1), 0))   # (Q, ..., 1, ...)
    below = array_functional.floor(position)
    last = F.cast(F.maximum(F.sub(count, 1), 0), mstype.int32)
    stacked = F.broadcast_to(F.expand_dims(ordered, 0), (position.shape[0],) + tuple(ordered.shape))
    low = array_functional.gather_elements(stacked, axis + 1, F.cast(below, mstype.int32))
    high = array_functional.gather_elements(stacked, axis + 1, F.minimum(F.add(F.cast(below, mstype.int32), 1), last))
    value = F.add(low, F.mul(F.sub(high, low), F.sub(position, below)))
    value = F.where(F.eq(count, 0), F.full(tuple(value.shape), float("nan"), dtype=x.dtype), value)
    if not keepdims:
        value = F.squeeze(value, axis + 1)
    return value if len(levels.shape) else F.squeeze(value, 0)


def top_k(self, k, sorted=True):  # noqa: A002 (MindSpore's argument name)
    """``(values, Int32 indices)`` of the ``k`` largest entries along the last dim."""
    return nn_functional.topk(self, k, -1, True, sorted)


def logcumsumexp(self, axis):
    """``log(cumsum(exp(x)))`` along ``axis``, computed stably."""
    return linalg_extra.logcumsumexp(self, axis)


def unsorted_segment_max(self, segment_ids, num_segments):
    """The maximum of the rows of each segment (the dtype's lowest value for an empty one)."""
    return segment_sparse.unsorted_segment_max(self, segment_ids, num_segments)


def unsorted_segment_min(self, segment_ids, num_segments):
    """The minimum of the rows of each segment (the dtype's highest value for an empty one)."""
    return segment_sparse.unsorted_segment_min(self, segment_ids, num_segments)


def unsorted_segment_prod(self, segment_ids, num_segments):
    """The product of the rows of each segment (1 for an empty one)."""
    return segment_sparse.unsorted_segment_prod(self, segment_ids, num_segments)


def renorm(self, p, axis, maxnorm):
    """Each slice along ``axis`` whose ``p``-norm exceeds ``maxnorm`` scaled down to that norm."""
    return math_extra.renorm(self, p, axis, maxnorm)


# ---------------------------------------------------------------------- linear algebra

def mm(self, mat2):
    """Matrix product of two 2-D Tensors."""
    return F.matmul(self, mat2)


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    """``beta * self + alpha * (mat1 @ mat2)``."""
    return linalg_functional.addmm(self, mat1, mat2, beta=beta, alpha=alpha)


def addmv(self, mat, vec, *, beta=1, alpha=1):
    """``beta * self + alpha * (mat @ vec)``."""
    return linalg_functional.addmv(self, mat, vec, beta=beta, alpha=alpha)


def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """``beta * self + alpha * sum_b(batch1[b] @ batch2[b])``."""
    return mint_elementwise.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)


def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """``beta * self + alpha * (batch1 @ batch2)``, batched."""
    return linalg_functional.baddbmm(self, batch1, batch2, beta, alpha)


def addr(self, vec1, vec2, beta=1, alpha=1):
    """``beta * self + alpha * outer(vec1, vec2)``."""
    return F.add(F.mul(self, beta) if beta != 1 else self, F.mul(F.outer(vec1, vec2), alpha) if alpha != 1
                 else F.outer(vec1, vec2))


def logdet(self):
    """Log of the determinant of (a batch of) square matrices (NaN for a negative determinant)."""
    return linalg_extra.logdet(self)


def slogdet(self):
    """``(sign, log|det|)`` of (a batch of) square matrices."""
    return linalg_extra.slogdet(self)


def matrix_determinant(self):
    """Determinant of (a batch of) square matrices."""
    return linalg_extra.matrix_determinant(self)


def log_matrix_determinant(self):
    """``(sign, log|det|)`` of (a batch of) square matrices."""
    return linalg_extra.log_matrix_determinant(self)


def matrix_power(self, n):
    """The (batch of) square matrices raised to the integer power ``n`` (the inverse's power for negative ``n``)."""
    shape = tuple(self.shape)
    return matrix_extra.matrix_power(self.reshape((-1,) + shape[-2:]), n).reshape(shape)


def ger(self, vec2):
    """Outer product of two 1-D Tensors."""
    return linalg_functional.ger(self, vec2)


def svd(self, full_matrices=False, compute_uv=True):
    """``(s, u, v)`` of the singular value decomposition (``s`` alone without ``compute_uv``)."""
    return linalg_extra.svd(self, full_matrices, compute_uv)


def qr(self, some=True):
    """``(q, r)``: the reduced (``some``) or complete QR decomposition."""
    return linalg_extra.qr(self, "reduced" if some else "complete")


def cholesky(self, upper=False):
    """The lower (or ``upper``) Cholesky factor of a symmetric positive-definite matrix."""
    return linalg_extra.cholesky(self, upper)


def cholesky_inverse(self, upper=False):
    """The inverse of the matrix whose lower (or ``upper``) Cholesky factor is the Tensor."""
    return cholesky_ops.cholesky_inverse(self, upper)


def cholesky_solve(self, input2, upper=False):
    """The solution ``x`` of ``A x = self`` where ``input2`` is ``A``'s lower (or ``upper``) Cholesky factor."""
    return cholesky_ops.cholesky_solve(self, input2, upper)


def lstsq(self, A):  # noqa: N803 (MindSpore's argument name)
    """The least-squares solution ``x`` of ``self x = A``."""
    return linalg_extra.lstsq(self, A)


def mvlgamma(self, p):
    """The multivariate log-gamma of dimension ``p``: ``p(p-1)/4 log(pi) + sum_i lgamma(x - i/2)``."""
    total = math_functional.lgamma(self)
    for i in range(1, p):
        total = F.add(total, math_functional.lgamma(F.sub(self, i / 2)))
    return F.add(total, p * (p - 1) / 4 * math.log(math.pi))


def cov(self, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows (observations in the columns).

    Raises:
        NotImplementedError: for ``fweights`` or ``aweights``.
    """
    if fweights is not None or aweights is not None:
        raise NotImplementedError("For 'cov', 'fweights' and 'aweights' are not supported by npspore.")
    x = self.reshape(1, -1) if len(self.shape) == 1 else self
    centered = F.sub(x, F.mean(x, 1, True))
    product = F.matmul(centered, F.transpose(centered, (1, 0)))
    result = F.div(product, x.shape[1] - correction)
    return result.reshape(()) if len(self.shape) == 1 else result


METHODS = {name: value for name, value in dict(globals()).items()
           if callable(value) and not name.startswith("_") and getattr(value, "__module__", None) == __name__}
"""Every method of this module, by name (attached by ``tensor_methods.attach``)."""
