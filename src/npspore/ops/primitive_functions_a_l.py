"""The functions behind primitive classes of ``mindspore.ops.operations`` named A-L that npspore makes from its
primitive table (:mod:`npspore.ops.primitive_table`): ``EqualCount``, ``EuclideanNorm``, ``ApproximateEqual``,
``Fmax``, ``Fmin``, ``Invert``, ``Fills``, ``IdentityN``, ``InvertPermutation``, ``LogSoftmaxExt``.

Each is a composition of op-table ops (so it runs eagerly and compiled, and is differentiable where it computes
with floats) with MindSpore 2.10's argument order, dtypes and errors.
"""
from __future__ import annotations

from typing import Any

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .numeric import _check_tensor, isnan

__all__ = ["log_softmax_ext", "equal_count", "euclidean_norm", "approximate_equal", "fmax", "fmin", "invert",
           "fills", "identity_n", "invert_permutation"]

_INTEGER_TYPES = mstype.int_type + mstype.uint_type


def log_softmax_ext(input: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:
    """``LogSoftmaxExt()(input, dim=None, dtype=None)``: ``log_softmax`` over ``dim`` (the last when None) of
    ``input`` cast to ``dtype`` first when given."""
    _check_tensor("LogSoftmaxExt", "input", input)
    if dtype is not None:
        input = F.cast(input, dtype)
    return F.log_softmax(input, -1 if dim is None else dim)


def equal_count(x: Tensor, y: Tensor) -> Tensor:
    """How many elements of ``x`` equal those of ``y``, a shape-(1,) Tensor of ``x``'s dtype."""
    _check_tensor("EqualCount", "x", x)
    _check_tensor("EqualCount", "y", y)
    count = F.cast(run("sum", run("equal", x, y)), x.dtype)
    return run("reshape", count, shape=(1,))


def _axes_value(name: str, axes) -> tuple[int, ...]:
    """The reduction axes given as an int, a tuple/list of ints or a 1-D integer Tensor."""
    if isinstance(axes, Tensor):
        axes = axes.asnumpy().reshape(-1).tolist()
    if isinstance(axes, int) and not isinstance(axes, bool):
        return (axes,)
    if isinstance(axes, (tuple, list)) and all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        return tuple(axes)
    raise TypeError(f"For '{name}', the 'axes' must be an int, a tuple or list of ints or a 1-D int Tensor, "
                    f"but got {axes!r}.")


def euclidean_norm(x: Tensor, axes, keep_dims: bool = False) -> Tensor:
    """``sqrt(sum(x * x, axes))`` in ``x``'s dtype (integers: the root truncated, as MindSpore's docstring shows
    ``[[5 13]]`` for ``[[3, 5], [4, 12]]``)."""
    _check_tensor("EuclideanNorm", "x", x)
    values = F.cast(x, mstype.float64) if x.dtype in _INTEGER_TYPES else x
    norm = run("sqrt", run("sum", run("mul", values, values), axis=_axes_value("EuclideanNorm", axes),
                           keepdims=keep_dims))
    return F.cast(norm, x.dtype)


def approximate_equal(x: Tensor, y: Tensor, tolerance: float = 1e-5) -> Tensor:
    """``|x - y| < tolerance``, elementwise (bool)."""
    _check_tensor("ApproximateEqual", "x", x)
    return run("less", run("abs", run("sub", x, y)), tolerance)


def fmax(x1: Tensor, x2: Tensor) -> Tensor:
    """The elementwise maximum, ignoring a NaN where the other element is a number (NaN where both are).
    As MindSpore's ``Fmax``, a tie takes ``x1``: all of its gradient goes to ``x1``."""
    return run("where", run("logical_or", run("greater_equal", x1, x2), isnan(x2)), x1, x2)


def fmin(x1: Tensor, x2: Tensor) -> Tensor:
    """The elementwise minimum, ignoring a NaN where the other element is a number (NaN where both are).
    A tie takes ``x1``, as ``fmax``."""
    return run("where", run("logical_or", run("less_equal", x1, x2), isnan(x2)), x1, x2)


def invert(x: Tensor) -> Tensor:
    """The bitwise NOT of an integer Tensor (``~x``: ``-x - 1`` for signed, ``max - x`` for unsigned)."""
    _check_tensor("Invert", "x", x)
    if x.dtype not in _INTEGER_TYPES:
        raise TypeError(f"For 'Invert', the 'x' must be an int or uint Tensor, but got {x.dtype}.")
    return run("bitwise_xor", x, F.full_like(x, -1))


def fills(x: Tensor, value) -> Tensor:
    """A Tensor of ``x``'s shape and dtype filled with ``value`` (a number or a 0-d Tensor, cast to ``x``'s dtype)."""
    _check_tensor("Fills", "x", x)
    if isinstance(value, Tensor):
        return run("broadcast_to", F.cast(value, x.dtype), shape=tuple(x.shape))
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"For 'Fills', the 'value' must be a number or a 0-d Tensor, but got {type(value).__name__}.")
    return F.full_like(x, value)


def identity_n(x) -> tuple:
    """The Tensors of the list or tuple ``x``, as a tuple of new Tensors with the same values."""
    if not isinstance(x, (tuple, list)) or not x or not all(isinstance(t, Tensor) for t in x):
        raise TypeError(f"For 'IdentityN', the input 'x' must be a non-empty list or tuple of Tensors, but got {x!r}.")
    return tuple(F.identity(t) for t in x)


def invert_permutation(x) -> tuple[int, ...]:
    """The inverse of the permutation ``x`` (a tuple or list of the ints ``0 .. n-1``): ``y[x[i]] = i``."""
    if not isinstance(x, (tuple, list)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in x):
        raise TypeError(f"For 'InvertPermutation', the input 'x' must be a tuple or list of ints, but got {x!r}.")
    if sorted(x) != list(range(len(x))):
        raise ValueError(f"For 'InvertPermutation', the input 'x' must be a permutation of 0 .. {len(x) - 1}, "
                         f"but got {x!r}.")
    inverse = [0] * len(x)
    for position, value in enumerate(x):
        inverse[value] = position
    return tuple(inverse)
