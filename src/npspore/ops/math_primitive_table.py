"""Math primitive classes, as ``mindspore.ops`` / ``ops.operations``, from one table of the functional ops they wrap.

``P.ACos()(x)`` is ``ops.acos(x)``, ``P.Addcmul()(x, t1, t2, value)`` is ``ops.addcmul(x, t1, t2, value)``: every
primitive of :data:`WRAPPED` has no constructor arguments and calls its function with the call's arguments, so one
class, :class:`FunctionPrimitive`, made once per row, serves them all (``repr`` ``Prim[ACos]``, as MindSpore's).
Primitives with constructor arguments (``CumProd(exclusive, reverse)``, ``LpNorm(axis, p, ...)``) are classes of
their own below the table.
"""
from __future__ import annotations

from typing import Callable

from ..common.tensor import Tensor
from . import math_functional as M
from .eager import run
from .numeric import _check_tensor
from .primitives import Primitive, _check_bool


def _floored_past_zero(x: Tensor | float, y: Tensor | float, floor_mod: Tensor) -> Tensor:
    """Where floor division of ``x`` by ``y`` rounded a negative quotient down (a remainder, and signs that differ)."""
    return run("logical_and", run("not_equal", floor_mod, 0),
               run("not_equal", run("less", x, 0), run("less", y, 0)))


def _truncated_mod(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x - trunc(x / y) * y``: the remainder with the sign of ``x`` (C's ``fmod``), from the floor remainder."""
    floor_mod = run("mod", x, y)
    return run("where", _floored_past_zero(x, y, floor_mod), run("sub", floor_mod, y), floor_mod)


def _truncated_div(x: Tensor | float, y: Tensor | float) -> Tensor:
    """The quotient rounded toward zero, in the promoted dtype (the floor quotient, plus one where it was rounded
    down past zero)."""
    quotient = run("floor_div", x, y)
    return run("where", _floored_past_zero(x, y, run("mod", x, y)), run("add", quotient, 1), quotient)


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


# MindSpore's primitive class name -> the function its call applies to the call's arguments
WRAPPED: dict[str, Callable] = {
    "ACos": M.acos, "Asin": M.asin, "Atan": M.atan, "Atan2": M.atan2, "Sinh": M.sinh, "Cosh": M.cosh,
    "Asinh": M.asinh, "Acosh": M.acosh, "Atanh": M.atanh, "Expm1": M.expm1, "Erfc": M.erfc, "Trunc": M.trunc,
    "IsInf": M.isinf, "Inv": M.inv, "Sinc": M.sinc, "Xlogy": M.xlogy, "Lerp": M.lerp, "Addcmul": M.addcmul,
    "Addcdiv": M.addcdiv, "LogicalXor": M.logical_xor, "Mod": _truncated_mod, "TruncateMod": _truncated_mod,
    "TruncateDiv": _truncated_div, "SquaredDifference": _squared_difference, "DivNoNan": _div_no_nan,
    "Rint": _rint,
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


__all__ = [*WRAPPED, "CumProd"]
