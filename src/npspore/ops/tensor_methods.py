"""Tensor methods that are ``npspore.ops`` functionals applied to ``self``, as MindSpore 2.x's ``Tensor``.

``x.var()``, ``x.cumsum(1)``, ``x.masked_fill(mask, 0.0)``, ``x.float()``: each method below calls the ops
function of the same meaning with MindSpore's Tensor-method arguments and defaults. ``npspore.common``
does not import ``npspore.ops``, so the methods are attached to :class:`~npspore.common.tensor.Tensor`
here, when ``npspore.ops`` is imported; compiled code reads them from the class and interprets them like
the methods written in ``tensor.py``.
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from . import array_extra, array_functional, functional_tail, linalg_extra, linalg_functional
from . import math_functional, mint_functions, nn_functional, numeric


# ---------------------------------------------------------------------- dtype conversions

def float(self):  # noqa: A001 (MindSpore's method name)
    """The Tensor as float32."""
    return self.astype(mstype.float32)


def half(self):
    """The Tensor as float16."""
    return self.astype(mstype.float16)


def double(self):
    """The Tensor as float64."""
    return self.astype(mstype.float64)


def int(self):  # noqa: A001
    """The Tensor as int32."""
    return self.astype(mstype.int32)


def long(self):
    """The Tensor as int64."""
    return self.astype(mstype.int64)


def bool(self):  # noqa: A001
    """The Tensor as bool."""
    return self.astype(mstype.bool_)


def type_as(self, other):
    """The Tensor converted to ``other``'s dtype."""
    return self.astype(other.dtype)


# ---------------------------------------------------------------------- shape and layout

def numel(self):
    """The number of elements."""
    return self.size


def dim(self):
    """The number of dims."""
    return self.ndim


def contiguous(self):
    """The Tensor itself (npspore tensors are always contiguous)."""
    return self


def copy(self):
    """A copy of the Tensor."""
    return F.identity(self)


def unsqueeze(self, dim):
    """Insert a dim of size 1 at ``dim``."""
    return F.unsqueeze(self, dim)


def permute(self, *dims):
    """Permute the dims: ``permute(1, 0)`` or ``permute((1, 0))``."""
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    return F.permute(self, dims)


def swapaxes(self, axis0, axis1):
    """Swap dims ``axis0`` and ``axis1``."""
    return array_extra.swapaxes(self, axis0, axis1)


def expand(self, *size):
    """The Tensor broadcast to ``size``: ``expand(2, 3)`` or ``expand((2, 3))``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return F.broadcast_to(self, size)


def expand_as(self, other=None, *, x=None):
    """The Tensor broadcast to ``other``'s (or ``x``'s) shape (compiled, with a dim known only when the kernel
    runs, by adding zeros of ``other``'s shape: ``-1`` in a shape argument keeps the input's dim)."""
    other = x if other is None else other
    if -1 in other.shape:
        return self + F.cast(F.zeros_like(other), self.dtype)
    return F.broadcast_to(self, other.shape)


def reshape_as(self, other):
    """The Tensor reshaped to ``other``'s shape."""
    return self.reshape(other.shape)


def view_as(self, other):
    """Same as :func:`reshape_as`."""
    return self.reshape(other.shape)


def ravel(self):
    """The Tensor as 1-D."""
    return mint_functions.ravel(self)


def tile(self, dims):
    """The Tensor repeated ``dims[i]`` times along each dim."""
    return F.tile(self, dims)


def flip(self, dims):
    """Reverse the order of elements along ``dims``."""
    return array_functional.flip(self, dims)


def fliplr(self):
    """Reverse dim 1."""
    return array_functional.flip(self, (1,))


def flipud(self):
    """Reverse dim 0."""
    return array_functional.flip(self, (0,))


def roll(self, shifts, dims):
    """Roll elements by ``shifts`` along ``dims``."""
    return mint_functions.roll(self, shifts, dims)


def narrow(self, dim, start, length):
    """``length`` elements of ``dim`` from ``start``."""
    return array_extra.narrow(self, dim, start, length)


def split(self, split_size, dim=0, *, axis=None):
    """Pieces of ``split_size`` along ``dim`` (or ``axis``; an int size or a list of sizes)."""
    return F.split(self, split_size, dim if axis is None else axis)


def tensor_split(self, indices_or_sections, axis=0):
    """Split along ``axis`` into sections or at indices."""
    return functional_tail.tensor_split(self, indices_or_sections, axis)


def chunk(self, chunks, dim=0, *, axis=None):
    """``chunks`` pieces along ``dim`` (or ``axis``)."""
    return array_extra.chunk(self, chunks, dim if axis is None else axis)


def unbind(self, dim=0):
    """The slices along ``dim``, as a tuple."""
    return array_extra.unbind(self, dim)


def tril(self, diagonal=0):
    """The lower triangle (zeros above ``diagonal``)."""
    return array_extra.tril(self, diagonal)


def triu(self, diagonal=0):
    """The upper triangle (zeros below ``diagonal``)."""
    return array_extra.triu(self, diagonal)


def diag(self):
    """A diagonal matrix of a 1-D Tensor."""
    return linalg_functional.diag(self)


def repeat_interleave(self, repeats, dim=None):
    """Each element repeated ``repeats`` times along ``dim`` (of the flattened Tensor when ``None``)."""
    return array_extra.repeat_interleave(self, repeats, dim)


# ---------------------------------------------------------------------- indexing and selection

def index_select(self, axis, index):
    """Entries of ``axis`` at ``index``."""
    return array_extra.index_select(self, axis, index)


def gather_elements(self, dim, index):
    """Elements along ``dim`` at ``index`` (same rank as the Tensor)."""
    return array_functional.gather_elements(self, dim, index)


def masked_fill(self, mask, value):
    """``value`` where ``mask`` is true, the Tensor elsewhere."""
    return array_functional.masked_fill(self, mask, value)


def masked_select(self, mask):
    """The elements where ``mask`` is true, as 1-D."""
    return F.masked_select(self, mask)


def where(self, condition, y):
    """The Tensor where ``condition`` is true, ``y`` elsewhere."""
    return F.where(condition, self, y)


def nonzero(self, *, as_tuple=False):
    """Indices of the non-zero elements."""
    return array_extra.nonzero(self, as_tuple=as_tuple)


# ---------------------------------------------------------------------- elementwise, one operand

def neg(self):
    """Elementwise ``-x``."""
    return F.neg(self)


def negative(self):
    """Elementwise ``-x``."""
    return F.neg(self)


def absolute(self):
    """Elementwise absolute value."""
    return F.abs(self)


def sign(self):
    """Elementwise sign."""
    return F.sign(self)


def floor(self):
    """Elementwise floor."""
    return array_functional.floor(self)


def ceil(self):
    """Elementwise ceiling."""
    return numeric.ceil(self)


def trunc(self):
    """Elementwise rounding toward zero."""
    return math_functional.trunc(self)


def frac(self):
    """Elementwise fractional part."""
    return math_functional.frac(self)


def round(self, decimals=0):  # noqa: A001
    """Elementwise rounding half to even, to ``decimals`` places."""
    return array_functional.round(self, decimals=decimals)


def reciprocal(self):
    """Elementwise ``1 / x``."""
    return array_functional.reciprocal(self)


def rsqrt(self):
    """Elementwise ``1 / sqrt(x)``."""
    return F.rsqrt(self)


def log1p(self):
    """Elementwise ``log(1 + x)``."""
    return F.log1p(self)


def expm1(self):
    """Elementwise ``exp(x) - 1``."""
    return math_functional.expm1(self)


def log2(self):
    """Elementwise base-2 logarithm."""
    return math_functional.log2(self)


def log10(self):
    """Elementwise base-10 logarithm."""
    return math_functional.log10(self)


def sigmoid(self):
    """Elementwise logistic sigmoid."""
    return F.sigmoid(self)


def tan(self):
    """Elementwise tangent."""
    return F.tan(self)


def sinh(self):
    """Elementwise hyperbolic sine."""
    return math_functional.sinh(self)


def cosh(self):
    """Elementwise hyperbolic cosine."""
    return math_functional.cosh(self)


def asin(self):
    """Elementwise arcsine."""
    return math_functional.asin(self)


def acos(self):
    """Elementwise arccosine."""
    return math_functional.acos(self)


def atan(self):
    """Elementwise arctangent."""
    return math_functional.atan(self)


def asinh(self):
    """Elementwise inverse hyperbolic sine."""
    return math_functional.asinh(self)


def acosh(self):
    """Elementwise inverse hyperbolic cosine."""
    return math_functional.acosh(self)


def atanh(self):
    """Elementwise inverse hyperbolic tangent."""
    return math_functional.atanh(self)


def erf(self):
    """Elementwise error function."""
    return F.erf(self)


def erfc(self):
    """Elementwise complementary error function."""
    return math_functional.erfc(self)


def deg2rad(self):
    """Degrees to radians."""
    return math_functional.deg2rad(self)


def rad2deg(self):
    """Radians to degrees."""
    return math_functional.rad2deg(self)


def isnan(self):
    """Elementwise test for NaN."""
    return numeric.isnan(self)


def isinf(self):
    """Elementwise test for infinity."""
    return math_functional.isinf(self)


def isfinite(self):
    """Elementwise test for finite values."""
    return numeric.isfinite(self)


def inv(self):
    """Elementwise ``1 / x``."""
    return math_functional.inv(self)


def sinc(self):
    """Elementwise normalized sinc ``sin(pi x) / (pi x)``."""
    return math_functional.sinc(self)


def logit(self, eps=None):
    """Elementwise ``log(x / (1 - x))``, ``x`` clipped to ``[eps, 1 - eps]`` when ``eps`` is given."""
    return math_functional.logit(self, eps)


def nan_to_num(self, nan=None, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced (by default with 0 and the dtype's largest and smallest values)."""
    return mint_functions.nan_to_num(self, nan, posinf, neginf)


def logical_not(self):
    """Elementwise logical NOT."""
    return F.logical_not(self)


def clamp(self, min=None, max=None):  # noqa: A002 (MindSpore's argument names)
    """Limit the values to ``[min, max]`` (either bound may be ``None``)."""
    return F.clamp(self, min, max)


# ---------------------------------------------------------------------- elementwise, two or more operands

def add(self, other, *, alpha=1):
    """Elementwise ``self + alpha * other``."""
    return F.add(self, other if alpha == 1 else F.mul(other, alpha))


def sub(self, other, *, alpha=1):
    """Elementwise ``self - alpha * other``."""
    return F.sub(self, other if alpha == 1 else F.mul(other, alpha))


def mul(self, other):
    """Elementwise ``self * other``."""
    return F.mul(self, other)


def div(self, other, *, rounding_mode=None):
    """Elementwise ``self / other``; ``rounding_mode`` ``'floor'`` or ``'trunc'`` rounds the quotient."""
    return F.div(self, other, rounding_mode=rounding_mode)


def true_divide(self, other):
    """Elementwise ``self / other``."""
    return F.div(self, other)


def floor_divide(self, other):
    """Elementwise ``floor(self / other)``."""
    return F.floor_divide(self, other)


def remainder(self, other=None, *, divisor=None):
    """Elementwise remainder with the sign of ``other`` (MindSpore's older keyword: ``divisor``).

    Raises:
        TypeError: if neither ``other`` nor ``divisor`` is given.
    """
    if (other is None) == (divisor is None):
        raise TypeError("Tensor.remainder() takes one of 'other' and 'divisor'")
    return F.remainder(self, divisor if other is None else other)


def maximum(self, other):
    """Elementwise maximum."""
    return F.maximum(self, other)


def minimum(self, other):
    """Elementwise minimum."""
    return F.minimum(self, other)


def atan2(self, other):
    """Elementwise ``atan(self / other)`` in the right quadrant."""
    return math_functional.atan2(self, other)


def hypot(self, other):
    """Elementwise ``sqrt(self**2 + other**2)``."""
    return math_functional.hypot(self, other)


def logaddexp(self, other):
    """Elementwise ``log(exp(self) + exp(other))``."""
    return math_functional.logaddexp(self, other)


def xlogy(self, other):
    """Elementwise ``self * log(other)``, 0 where ``self`` is 0."""
    return math_functional.xlogy(self, other)


def lerp(self, end, weight):
    """Linear interpolation ``self + weight * (end - self)``."""
    return math_functional.lerp(self, end, weight)


def addcmul(self, tensor1, tensor2, value=1):
    """``self + value * tensor1 * tensor2``."""
    return math_functional.addcmul(self, tensor1, tensor2, value)


def addcdiv(self, tensor1, tensor2, *, value=1):
    """``self + value * tensor1 / tensor2``."""
    return math_functional.addcdiv(self, tensor1, tensor2, value)


def eq(self, other):
    """Elementwise ``self == other``."""
    return F.eq(self, other)


def ne(self, other):
    """Elementwise ``self != other``."""
    return F.ne(self, other)


def gt(self, other):
    """Elementwise ``self > other``."""
    return F.gt(self, other)


def ge(self, other):
    """Elementwise ``self >= other``."""
    return F.ge(self, other)


def lt(self, other):
    """Elementwise ``self < other``."""
    return F.lt(self, other)


def le(self, other):
    """Elementwise ``self <= other``."""
    return F.le(self, other)


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|self - other| <= atol + rtol * |other|``."""
    return math_functional.isclose(self, other, rtol, atol, equal_nan)


def heaviside(self, values):
    """Elementwise step: 0 below zero, 1 above, ``values`` at zero."""
    return math_functional.heaviside(self, values)


def bitwise_and(self, other):
    """Elementwise bitwise AND."""
    return math_functional.bitwise_and(self, other)


def bitwise_or(self, other):
    """Elementwise bitwise OR."""
    return math_functional.bitwise_or(self, other)


def bitwise_xor(self, other):
    """Elementwise bitwise XOR."""
    return math_functional.bitwise_xor(self, other)


def logical_and(self, other):
    """Elementwise logical AND."""
    return F.logical_and(self, other)


def logical_or(self, other):
    """Elementwise logical OR."""
    return F.logical_or(self, other)


def logical_xor(self, other):
    """Elementwise logical XOR."""
    return math_functional.logical_xor(self, other)


# ---------------------------------------------------------------------- reductions and scans

def var(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
    """Variance over ``axis`` (or ``dim``) with ``ddof`` (or ``correction``) delta degrees of freedom."""
    axis, ddof, keepdims = _spread_arguments(axis, ddof, keepdims, dim, correction, keepdim)
    return math_functional.var(self, axis, ddof, keepdims)


def std(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
    """Standard deviation over ``axis`` (or ``dim``) with ``ddof`` (or ``correction``) delta degrees of freedom
    (0 by default in both spellings, as MindSpore 2.10 computes it)."""
    axis, ddof, keepdims = _spread_arguments(axis, ddof, keepdims, dim, correction, keepdim)
    return math_functional.std(self, axis, ddof, keepdims)


def _spread_arguments(axis, ddof, keepdims, dim, correction, keepdim):
    """``(axis, ddof, keepdims)`` of ``var``/``std`` from either spelling of MindSpore's arguments."""
    return (axis if dim is None else dim, ddof if correction is None else correction,
            keepdims if keepdim is None else keepdim)


def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Vector or matrix norm (2-norm of the flattened Tensor by default)."""
    return array_functional.norm(self, ord, dim, keepdim, dtype=dtype)


def logsumexp(self, dim, keepdim=False):
    """``log(sum(exp(x)))`` over ``dim``, computed stably."""
    return math_functional.logsumexp(self, dim, keepdim)


def amax(self, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over ``axis``."""
    return F.amax(self, axis, keepdims, initial=initial, where=where)


def amin(self, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum over ``axis``."""
    return F.amin(self, axis, keepdims, initial=initial, where=where)


def nansum(self, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim``, NaNs counted as zero."""
    return math_functional.nansum(self, dim, keepdim, dtype=dtype)


def median(self, axis=-1, keepdims=False, *, dim=None, keepdim=None):
    """``(values, indices)`` of the median over ``axis`` (or ``dim``)."""
    return functional_tail.median(self, axis if dim is None else dim, keepdims if keepdim is None else keepdim)


def cumsum(self, dim=None, dtype=None, *, axis=None):
    """Cumulative sum along ``dim`` (or ``axis``, the older spelling MindSpore 2.10 still takes:
    ``A.cumsum(axis=0)`` in d2l); of the flattened tensor when neither is given.

    Raises:
        TypeError: if both ``dim`` and ``axis`` are given.
    """
    if axis is not None and dim is not None:
        raise TypeError("For 'Tensor.cumsum', give 'dim' or 'axis', not both.")
    dim = axis if dim is None else dim
    if dim is None:
        return array_functional.cumsum(self.reshape(-1), 0, dtype)
    return array_functional.cumsum(self, dim, dtype)


def cumprod(self, dim, dtype=None):
    """Cumulative product along ``dim``."""
    return math_functional.cumprod(self, dim, dtype)


def cummax(self, axis):
    """``(values, indices)`` of the running maximum along ``axis``."""
    return math_functional.cummax(self, axis)


def cummin(self, axis):
    """``(values, indices)`` of the running minimum along ``axis``."""
    return math_functional.cummin(self, axis)


def diff(self, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``axis``."""
    return math_functional.diff(self, n, axis, prepend, append)


def trace(self):
    """Sum of the main diagonal of a 2-D Tensor."""
    return linalg_functional.trace(self)


# ---------------------------------------------------------------------- sorting

def sort(self, dim=-1, descending=False, *, axis=None):
    """``(values, Int32 indices)`` sorted along ``dim`` (or ``axis``)."""
    return array_functional.sort(self, dim if axis is None else axis, descending)


def argsort(self, axis=-1, descending=False):
    """Indices that sort the Tensor along ``axis``."""
    return functional_tail.argsort(self, axis, descending)


def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """``(values, indices)`` of the ``k`` largest (or smallest) entries along ``dim``."""
    return nn_functional.topk(self, k, dim, largest, sorted)


# ---------------------------------------------------------------------- linear algebra and nn

def matmul(self, tensor2):
    """Matrix product ``self @ tensor2``."""
    return F.matmul(self, tensor2)


def bmm(self, mat2):
    """Batched matrix product."""
    return F.bmm(self, mat2)


def dot(self, other):
    """Dot product of two 1-D Tensors."""
    return F.dot(self, other)


def outer(self, vec2):
    """Outer product of two 1-D Tensors."""
    return F.outer(self, vec2)


def inner(self, other):
    """Inner product over the last dims."""
    return linalg_functional.inner(self, other)


def cross(self, other, dim=None):
    """Cross product along ``dim`` (the first dim of size 3 when ``None``)."""
    return mint_functions.cross(self, other, dim)


def det(self):
    """Determinant of (a batch of) square matrices."""
    return linalg_extra.det(self)


def inverse(self):
    """Inverse of (a batch of) square matrices."""
    return linalg_functional.inverse(self)


def softmax(self, axis, dtype=None):
    """Softmax over ``axis``."""
    return F.softmax(self, axis, dtype=dtype)


METHODS = {name: value for name, value in dict(globals()).items()
           if callable(value) and getattr(value, "__module__", None) == __name__}
"""Every method of this module, by name: attached to Tensor by :func:`attach`."""


def attach(methods: dict | None = None) -> None:
    """Make each function (or property) of ``methods`` (by default :data:`METHODS`) a method of :class:`Tensor`,
    never replacing one it has."""
    for name, function in (METHODS if methods is None else methods).items():
        if name not in vars(Tensor):
            if not isinstance(function, property):
                function.__qualname__ = f"Tensor.{name}"
            setattr(Tensor, name, function)
