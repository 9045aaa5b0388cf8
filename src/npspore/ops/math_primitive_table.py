"""Math primitive classes, as ``mindspore.ops`` / ``ops.operations``, from one table of the functional ops they wrap.

``P.ACos()(x)`` is ``ops.acos(x)``, ``P.Addcmul()(x, t1, t2, value)`` is ``ops.addcmul(x, t1, t2, value)``: every
primitive of :data:`WRAPPED` has no constructor arguments and calls its function with the call's arguments, so one
class, :class:`FunctionPrimitive`, made once per row, serves them all (``repr`` ``Prim[ACos]``, as MindSpore's).
Primitives with constructor arguments (``CumProd(exclusive, reverse)``, ``LpNorm(axis, p, ...)``) are classes of
their own below the table.
"""
from __future__ import annotations

from typing import Callable

from ..common.tensor import Tensor, _np_dtype
from . import array_functional as A, functional as F, linalg_functional as L, math_functional as M
from .eager import run
from .numeric import _check_tensor
from .primitives import Primitive, _check_bool


def _squared_difference(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``(x - y) ** 2``, broadcast."""
    difference = run("sub", x, y)
    return run("mul", difference, difference)


def _div_no_nan(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x / y``, 0 where ``y`` is 0."""
    zero = run("equal", y, 0)
    return run("where", zero, 0, run("div", x, run("where", zero, 1, y)))


def _rint(x: Tensor) -> Tensor:
    """The nearest integer, halves to even, in ``x``'s dtype."""
    _check_tensor("Rint", "x", x)
    return run("round", x)


def _sum_ext(input: Tensor, dim=None, keepdim=False, dtype=None) -> Tensor:
    return F.sum(input, dim, keepdim, dtype=dtype)


def _mean_ext(input: Tensor, dim=None, keepdim=False, dtype=None) -> Tensor:
    return F.mean(input if dtype is None else F.cast(input, dtype), dim, keepdim)


def _prod_ext(input: Tensor, dim=None, keepdim=False, dtype=None) -> Tensor:
    return F.prod(input, dim, keepdim, dtype)


def _max_dim(input: Tensor, dim, keepdim=False) -> tuple[Tensor, Tensor]:
    return F.max(input, dim, keepdim)


def _min_dim(input: Tensor, dim, keepdim=False) -> tuple[Tensor, Tensor]:
    return F.min(input, dim, keepdim)


def _argmin_ext(input: Tensor, dim=None, keepdim=False) -> Tensor:
    return F.argmin(input, dim, keepdim)


def _var_ext(input: Tensor, dim=None, correction=1, keepdim=False) -> Tensor:
    return M.var(input, dim, correction, keepdim)


def _std_ext(input: Tensor, dim=None, correction=1, keepdim=False) -> Tensor:
    return M.std(input, dim, correction, keepdim)


def _norm_ext(input: Tensor, p=2.0, dim=None, keepdim=False, dtype=None) -> Tensor:
    """The vector ``p``-norm over ``dim`` (None: all elements, as one vector)."""
    if dtype is not None:
        input = F.cast(input, dtype)
    if dim is None:
        flat = F.reshape(input, (-1,))
        norm = A.norm(flat, ord=p, dim=0)
        return F.reshape(norm, (1,) * len(input.shape)) if keepdim else norm
    return A.norm(input, ord=p, dim=dim, keepdim=keepdim)


def _addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta=1, alpha=1) -> Tensor:
    return L.addmm(input, mat1, mat2, beta=beta, alpha=alpha)


def _addmv(input: Tensor, mat: Tensor, vec: Tensor, beta=1, alpha=1) -> Tensor:
    return L.addmv(input, mat, vec, beta=beta, alpha=alpha)


def _xdivy(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x / y``, 0 where ``x`` is 0."""
    zero = run("equal", x, 0)
    return run("where", zero, 0, run("div", x, run("where", zero, 1, y)))


def _square_sum_all(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """The sums of the squares of all elements of ``x`` and of ``y``."""
    return run("sum", run("mul", x, x)), run("sum", run("mul", y, y))


# MindSpore's primitive class name -> the function its call applies to the call's arguments
WRAPPED: dict[str, Callable] = {
    "ACos": M.acos, "Asin": M.asin, "Atan": M.atan, "Atan2": M.atan2, "Sinh": M.sinh, "Cosh": M.cosh,
    "Asinh": M.asinh, "Acosh": M.acosh, "Atanh": M.atanh, "Expm1": M.expm1, "Erfc": M.erfc, "Erfinv": M.erfinv, "Lgamma": M.lgamma,
    "Digamma": M.digamma, "Trunc": M.trunc,
    "IsInf": M.isinf, "Inv": M.inv, "Sinc": M.sinc, "Xlogy": M.xlogy, "Lerp": M.lerp, "Addcmul": M.addcmul,
    "Addcdiv": M.addcdiv, "LogicalXor": M.logical_xor, "Mod": M.truncate_mod, "TruncateMod": M.truncate_mod,
    "TruncateDiv": M.truncate_div, "LerpScalar": M.lerp, "SquaredDifference": _squared_difference, "DivNoNan": _div_no_nan,
    "Rint": _rint,
    "Frac": M.frac, "Exp2": M.exp2, "Log2": M.log2, "Log10": M.log10, "LogSumExp": M.logsumexp,
    "LogAddExp": M.logaddexp, "Nansum": M.nansum, "Hypot": M.hypot, "Heaviside": M.heaviside, "Xdivy": _xdivy,
    "SquareSumAll": _square_sum_all, "Mv": L.mv, "Outer": L.ger, "Ger": L.ger, "Trace": L.trace,
    "Baddbmm": L.baddbmm, "Addmm": _addmm, "Addmv": _addmv, "MatMulExt": F.matmul, "BatchMatMulExt": F.bmm,
    "SumExt": _sum_ext, "MeanExt": _mean_ext, "ProdExt": _prod_ext, "MaxDim": _max_dim, "MinDim": _min_dim,
    "ArgMaxExt": F.argmax, "ArgMinExt": _argmin_ext, "Var": _var_ext, "Std": _std_ext, "Norm": _norm_ext,
    "BitwiseAnd": M.bitwise_and, "BitwiseOr": M.bitwise_or, "BitwiseXor": M.bitwise_xor,
    "LeftShift": M.bitwise_left_shift, "RightShift": M.bitwise_right_shift, "Gcd": M.gcd, "Lcm": M.lcm,
    "Diag": L.diag,
}


class FunctionPrimitive(Primitive):
    """A primitive without constructor arguments whose call is its class's ``function`` of the call's arguments."""

    function: Callable = staticmethod(lambda *args: None)

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, *args):
        return type(self).function(*args)


def _primitive_class(name: str, function: Callable) -> type:
    doc = f"``{name}()(...)``: :func:`{function.__module__}.{function.__name__}` of the call's arguments."
    return type(name, (FunctionPrimitive,), {"function": staticmethod(function), "__doc__": doc,
                                             "__module__": __name__})


globals().update({name: _primitive_class(name, function) for name, function in WRAPPED.items()})


class CumProd(Primitive):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``: running products of ``x`` along ``axis``.

    Raises:
        TypeError: if ``exclusive`` or ``reverse`` is not a bool.
    """

    def __init__(self, exclusive=False, reverse=False):
        super().__init__("CumProd")
        self.exclusive = _check_bool("CumProd", "exclusive", exclusive)
        self.reverse = _check_bool("CumProd", "reverse", reverse)
        self.add_prim_attr("exclusive", exclusive).add_prim_attr("reverse", reverse)

    def __call__(self, x, axis):
        _check_tensor("CumProd", "x", x)
        return M.running_product(x, axis, self.exclusive, self.reverse)


class LpNorm(Primitive):
    """``LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input)``: the p-norm of ``input`` over ``axis`` (an int
    or a tuple/list of ints), ``(sum |x|**p) ** (1/p)``, at least ``epsilon``; ``p=0`` counts the nonzero elements.

    Raises:
        TypeError: if ``axis`` is not an int, tuple or list of ints, ``p`` not an int, ``keep_dims`` not a bool
            or ``epsilon`` not a float.
        ValueError: if ``p`` is negative or an axis is out of range.
    """

    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        super().__init__("LpNorm")
        axes = (axis,) if isinstance(axis, int) else axis
        if not isinstance(axes, (tuple, list)) or not all(isinstance(a, int) and not isinstance(a, bool)
                                                          for a in axes):
            raise TypeError(f"For 'LpNorm', the 'axis' must be an int, tuple or list of ints, but got {axis!r}.")
        if not isinstance(p, int) or isinstance(p, bool):
            raise TypeError(f"For 'LpNorm', the 'p' must be an int, but got {type(p).__name__}.")
        if p < 0:
            raise ValueError(f"For 'LpNorm', the 'p' must be non-negative, but got {p}.")
        if not isinstance(epsilon, float):
            raise TypeError(f"For 'LpNorm', the 'epsilon' must be a float, but got {type(epsilon).__name__}.")
        self.axes, self.p, self.epsilon = tuple(axes), p, epsilon
        self.keep_dims = _check_bool("LpNorm", "keep_dims", keep_dims)
        if isinstance(axis, int):
            self.add_prim_attr("axis", [axis])   # MindSpore 2.10 shows the attribute of an int axis only

    def __call__(self, input):
        _check_tensor("LpNorm", "input", input)
        ndim = len(input.shape)
        for a in self.axes:
            if not -ndim <= a < ndim:
                raise ValueError(f"For 'LpNorm', the 'axis' must be in [{-ndim}, {ndim}), but got {a}.")
        axes = tuple(a % ndim for a in self.axes)
        if self.p == 0:
            norm = run("sum", run("cast", run("not_equal", input, 0), dtype=_np_dtype(input.dtype)), axis=axes,
                       keepdims=self.keep_dims)
        elif self.p == 1:
            norm = run("sum", run("abs", input), axis=axes, keepdims=self.keep_dims)
        elif self.p == 2:
            norm = run("sqrt", run("sum", run("mul", input, input), axis=axes, keepdims=self.keep_dims))
        else:
            powers = run("pow", run("abs", input), float(self.p))
            norm = run("pow", run("sum", powers, axis=axes, keepdims=self.keep_dims), 1 / self.p)
        return run("maximum", norm, self.epsilon)


class Logit(Primitive):
    """``Logit(eps=-1.0)(x)``: :func:`~npspore.ops.math_functional.logit` of ``x`` (clamped when ``eps >= 0``).

    Raises:
        TypeError: if ``eps`` is not a float.
    """

    def __init__(self, eps=-1.0):
        super().__init__("Logit")
        if not isinstance(eps, float):
            raise TypeError(f"For 'Logit', the 'eps' must be a float, but got {type(eps).__name__}.")
        self.eps = eps
        self.add_prim_attr("eps", eps)

    def __call__(self, x):
        return M.logit(x, self.eps)


class IsClose(Primitive):
    """``IsClose(rtol=1e-05, atol=1e-08, equal_nan=False)(input, other)``: :func:`~npspore.ops.math_functional.isclose`.

    Raises:
        TypeError: if ``rtol`` or ``atol`` is not a float or ``equal_nan`` not a bool.
    """

    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=False):
        super().__init__("IsClose")
        for name, value in (("rtol", rtol), ("atol", atol)):
            if not isinstance(value, float):
                raise TypeError(f"For 'IsClose', the '{name}' must be a float, but got {type(value).__name__}.")
        self.rtol, self.atol = rtol, atol
        self.equal_nan = _check_bool("IsClose", "equal_nan", equal_nan)
        self.add_prim_attr("rtol", rtol).add_prim_attr("atol", atol).add_prim_attr("equal_nan", equal_nan)

    def __call__(self, input, other):
        return M.isclose(input, other, self.rtol, self.atol, self.equal_nan)


class _AxisExtremum(Primitive):
    """``Cummax(axis)(x)`` / ``Cummin(axis)(x)``: the running extremum of ``x`` along ``axis`` and its indices."""

    _function = staticmethod(M.cummax)

    def __init__(self, axis):
        super().__init__(type(self).__name__)
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For '{self.name}', the 'axis' must be an int, but got {type(axis).__name__}.")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, x):
        return type(self)._function(x, self.axis)


class Cummax(_AxisExtremum):
    """``Cummax(axis)(x)``: :func:`~npspore.ops.math_functional.cummax` (Int64 indices)."""


class Cummin(_AxisExtremum):
    """``Cummin(axis)(x)``: :func:`~npspore.ops.math_functional.cummin` (Int32 indices)."""

    _function = staticmethod(M.cummin)


class Cross(Primitive):
    """``Cross(dim=-65530)(x1, x2)``: the cross product along ``dim`` (-65530: the first dim of size 3)."""

    def __init__(self, dim=-65530):
        super().__init__("Cross")
        self.dim = dim
        self.add_prim_attr("dim", dim)

    def __call__(self, x1, x2):
        return L.cross(x1, x2, None if self.dim == -65530 else self.dim)


class Cdist(Primitive):
    """``Cdist(p=2.0)(x1, x2)``: :func:`~npspore.ops.linalg_functional.cdist`."""

    def __init__(self, p=2.0):
        super().__init__("Cdist")
        if not isinstance(p, float):
            raise TypeError(f"For 'Cdist', the 'p' must be a float, but got {type(p).__name__}.")
        self.p = p
        self.add_prim_attr("p", p)

    def __call__(self, x1, x2):
        return L.cdist(x1, x2, self.p)


class Bucketize(Primitive):
    """``Bucketize(boundaries)(input)``: how many ``boundaries`` are at or below each element (MindSpore 2.10's
    primitive counts as ``ops.bucketize(..., right=True)`` does)."""

    def __init__(self, boundaries):
        super().__init__("Bucketize")
        if not isinstance(boundaries, list):
            raise TypeError(f"For 'Bucketize', the 'boundaries' must be a list, but got {type(boundaries).__name__}.")
        self.boundaries = boundaries
        self.add_prim_attr("boundaries", boundaries)

    def __call__(self, input):
        return M.bucketize(input, self.boundaries, right=True)


class ReduceStd(Primitive):
    """``ReduceStd(axis=[], unbiased=True, keep_dims=False)(x)``: ``(std, mean)`` of ``x`` over ``axis`` (``[]``:
    all), the std over ``N - 1`` when ``unbiased``.

    Raises:
        TypeError: if ``unbiased`` or ``keep_dims`` is not a bool.
    """

    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        super().__init__("ReduceStd")
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else axis
        self.unbiased = _check_bool("ReduceStd", "unbiased", unbiased)
        self.keep_dims = _check_bool("ReduceStd", "keep_dims", keep_dims)
        self.add_prim_attr("axis", axis).add_prim_attr("unbiased", unbiased).add_prim_attr("keep_dims", keep_dims)

    def __call__(self, x):
        std = M.std(x, self.axis, int(self.unbiased), self.keep_dims)
        return std, F.mean(x, self.axis if self.axis != () else None, self.keep_dims)


__all__ = [*WRAPPED, "CumProd", "LpNorm", "Logit", "IsClose", "Cummax", "Cummin", "Cross", "Cdist", "Bucketize",
           "ReduceStd"]
