"""Math primitive classes, as ``mindspore.ops`` / ``ops.operations``, whose constructors check or convert their
arguments beyond a type check (``CumProd(exclusive, reverse)``, ``LpNorm(axis, p, ...)``, ``Cross(dim)`` ...).

The math primitives that only call a functional op (``P.ACos()(x)`` is ``ops.acos(x)``) are rows of
:mod:`primitive_table`.
"""
from __future__ import annotations

from ..common.tensor import _np_dtype
from . import functional as F, linalg_functional as L, math_functional as M
from .eager import run
from .numeric import _check_tensor
from .primitives import Primitive, _check_bool


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


__all__ = ["CumProd", "LpNorm", "Logit", "IsClose", "Cummax", "Cummin", "Cross", "Cdist", "Bucketize",
           "ReduceStd"]
