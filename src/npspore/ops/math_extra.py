"""Elementwise math behind MindSpore's primitives ``MulNoNan``, ``Mvlgamma``, ``Renorm`` and ``PopulationCount``
(their classes come from :mod:`primitive_table`): compositions of ops of the op table, so they run eagerly and
compiled, and the float ones are differentiable."""
from __future__ import annotations

import math

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from .eager import run
from .math_functional import lgamma
from .numeric import _check_tensor

__all__ = ["mul_no_nan", "mvlgamma", "renorm", "population_count"]


def mul_no_nan(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x * y``, 0 where ``y`` is 0 (even where ``x`` is inf or nan).

    Raises:
        TypeError: if neither input is a Tensor.
    """
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError(f"For 'MulNoNan', at least one of 'x' and 'y' must be a Tensor, but got "
                        f"{type(x).__name__} and {type(y).__name__}.")
    zero = run("equal", y, 0)
    product = run("mul", x, run("where", zero, run("ones_like", y), y))   # no inf * 0 to warn about
    return run("where", zero, run("zeros_like", product), product)


def mvlgamma(x: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma function of dimension ``p``: ``sum_j lgamma(x - j / 2) + p (p - 1) / 4
    log(pi)`` over ``j < p``.

    Raises:
        TypeError: if ``p`` is not an int or ``x`` not a float32/float64 Tensor.
        ValueError: if ``p`` is less than 1.
    """
    check_value_type("p", p, [int], "Mvlgamma")
    if p < 1:
        raise ValueError(f"For 'Mvlgamma', the 'p' must be greater than or equal to 1, but got {p}.")
    _check_tensor("Mvlgamma", "x", x)
    if x.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"For 'Mvlgamma', the 'x' must be float32 or float64, but got {x.dtype}.")
    total = lgamma(x)
    for j in range(1, p):
        total = run("add", total, lgamma(run("sub", x, j / 2)))
    return run("add", total, p * (p - 1) / 4 * math.log(math.pi))


def renorm(x: Tensor, p: int, dim: int, maxnorm: float) -> Tensor:
    """``x`` with each slice along ``dim`` whose ``p``-norm (over its other dims) exceeds ``maxnorm`` scaled
    by ``maxnorm / (norm + 1e-7)``.

    Raises:
        TypeError: if ``p``/``dim`` are not ints or ``maxnorm`` not a float.
        ValueError: if ``p`` is not positive, ``maxnorm`` negative or ``dim`` out of range.
    """
    name = "Renorm"
    check_value_type("p", p, [int], name)
    check_value_type("dim", dim, [int], name)
    check_value_type("maxnorm", maxnorm, [float], name)
    _check_tensor(name, "x", x)
    rank = len(x.shape)
    if p <= 0:
        raise ValueError(f"For '{name}', the 'p' must be greater than 0, but got {p}.")
    if maxnorm < 0:
        raise ValueError(f"For '{name}', the 'maxnorm' must be greater than or equal to 0, but got {maxnorm}.")
    if not -rank <= dim < max(rank, 1):
        raise ValueError(f"For '{name}', the 'dim' must be in range [{-rank}, {rank}), but got {dim}.")
    others = tuple(axis for axis in range(rank) if axis != dim % max(rank, 1))
    magnitude = run("abs", x)
    norm = run("pow", run("sum", run("pow", magnitude, p), axis=others, keepdims=True), 1.0 / p)
    scale = run("where", run("greater", norm, maxnorm), run("div", maxnorm, run("add", norm, 1e-7)),
                run("ones_like", norm))
    return run("mul", x, scale)


_BITS = {mstype.int8: 8, mstype.uint8: 8, mstype.int16: 16, mstype.uint16: 16, mstype.int32: 32,
         mstype.uint32: 32, mstype.int64: 64, mstype.uint64: 64}


def population_count(input_x: Tensor) -> Tensor:
    """The number of set bits of each element (two's complement for negative ones), as uint8.

    Raises:
        TypeError: if ``input_x`` is not an integer Tensor.
    """
    _check_tensor("PopulationCount", "input_x", input_x)
    if input_x.dtype not in _BITS:
        raise TypeError(f"For 'PopulationCount', the 'input_x' must be an integer Tensor, but got {input_x.dtype}.")
    count = None
    one = Tensor(1, input_x.dtype)
    for bit in range(_BITS[input_x.dtype]):
        shifted = run("right_shift", input_x, Tensor(bit, input_x.dtype)) if bit else input_x
        set_bit = run("bitwise_and", shifted, one)
        count = set_bit if count is None else run("add", count, set_bit)
    return run("cast", count, dtype=np.uint8)
