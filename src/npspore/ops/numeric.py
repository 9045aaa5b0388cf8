"""Elementwise value tests and small numeric ops, as ``mindspore.ops``: ``isnan``, ``isfinite``,
``ceil`` and the primitives ``IsNan``, ``IsFinite``, ``Ceil``, ``Size``, ``HSwish`` and ``ScalarCast``.

Each is written over ops of the op table that carry their own adjoints (``not_equal``, ``less``, ``where``,
``floor_div``, ``sum`` ...), so it runs eagerly and compiled and differentiates as those ops do. The
argument checks and error messages are MindSpore 2.10's.
"""
from __future__ import annotations

import math

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .array_functional import floor
from .eager import run
from .nn_functional import hardswish
from .primitives import _Stateless
from .shape_queries import size_of

__all__ = ["isnan", "isfinite", "ceil", "IsNan", "IsFinite", "Ceil", "Size", "HSwish", "ScalarCast", "size"]


def _check_tensor(prim: str, name: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For Primitive[{prim}], the type of input argument[{name}] must be Tensor but got "
                        f"{type(x).__name__}.")


def _check_float(prim: str, name: str, x: Tensor, allowed: str) -> None:
    if x.dtype not in mstype.float_type:
        raise TypeError(f"For primitive[{prim}], the input argument[{name}] must be a type of {allowed}, but got "
                        f"{x.dtype}.")


def isnan(input: Tensor) -> Tensor:
    """Whether each element of ``input`` is NaN (Bool; integers and bools are never NaN).

    Raises:
        TypeError: if ``input`` is not a Tensor.
    """
    _check_tensor("IsNan", "x", input)
    return run("not_equal", input, input)


def isfinite(input: Tensor) -> Tensor:
    """Whether each element of ``input`` is finite: neither NaN nor infinite (Bool; integers and bools
    always are).

    Raises:
        TypeError: if ``input`` is not a Tensor.
    """
    _check_tensor("IsFinite", "x", input)
    return run("less", run("abs", input), math.inf)


def ceil(input: Tensor) -> Tensor:
    """The smallest integer not below each element, in ``input``'s float dtype (its gradient is zero).

    Raises:
        TypeError: if ``input`` is not a float Tensor.
    """
    _check_tensor("Ceil", "input_x", input)
    _check_float("Ceil", "input_x", input, "{BFloat16, Float16, Float32, Float64}")
    return run("neg", floor(run("neg", input)))


class IsNan(_Stateless):
    """``IsNan()(x)``: :func:`isnan`."""

    def __call__(self, x):
        return isnan(x)


class IsFinite(_Stateless):
    """``IsFinite()(x)``: :func:`isfinite`."""

    def __call__(self, x):
        return isfinite(x)


class Ceil(_Stateless):
    """``Ceil()(x)``: :func:`ceil`."""

    def __call__(self, x):
        return ceil(x)


def size(input_x: Tensor) -> int:
    """The number of elements of ``input_x``, a Python int (1 for a 0-d Tensor).

    Raises:
        TypeError: if ``input_x`` is not a Tensor.
    """
    return _SIZE(input_x)


class Size(_Stateless):
    """``Size()(x)``: :func:`size`. In compiled code, the count of a dynamic shape is read when the kernel runs."""

    def __call__(self, input_x):
        if not isinstance(input_x, Tensor):
            raise TypeError(f"For 'Size', input must be a Tensor, but got: {type(input_x).__name__}.")
        return size_of(input_x)


_SIZE = Size()


class HSwish(_Stateless):
    """``HSwish()(x)``: ``x * relu6(x + 3) / 6`` (``ops.hardswish``)."""

    def __call__(self, x):
        return hardswish(x)


# ScalarCast's targets in MindSpore 2.10, and the Python conversion each makes
_SCALAR_CASTS = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}


class ScalarCast(_Stateless):
    """``ScalarCast()(x, dtype)``: the Python number ``x`` as ``int`` (``mindspore.int64``, truncated toward
    zero), ``float`` (``float64``) or ``bool`` (``bool_``).

    Raises:
        TypeError: if ``x`` is not a bool or number.
        ValueError: for another ``dtype`` (MindSpore's message).
    """

    def __call__(self, input_x, input_y):
        if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, int, float)):
            raise TypeError(f"For 'ScalarCast', the type of 'x' should be one of '['bool', 'Number']', but got type "
                            f"'{type(input_x).__name__}'.")
        if input_y not in _SCALAR_CASTS:
            raise ValueError(f"For 'ScalarCast', the supported type is in the list: [mindspore.int64, "
                             f"mindspore.float64, mindspore.bool], but got {input_y}")
        return _SCALAR_CASTS[input_y](input_x)
