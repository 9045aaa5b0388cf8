"""``mindspore.mint.linalg``: ``norm`` (the matrix or vector norm, as ``ops.norm``) and ``vector_norm`` (the
``ord``-norm of the elements over ``dim``), composed from the op table's ops."""
from __future__ import annotations

import math
from typing import Any

from ..common.tensor import Tensor, _axis, _np_dtype
from ..missing_names import module_getattr
from ..ops.array_functional import norm
from ..ops.eager import run

__all__ = ["norm", "vector_norm"]


def vector_norm(x: Tensor, ord: float = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """``sum(|x| ** ord) ** (1 / ord)`` over ``dim`` (every element when None); ``inf``/``-inf`` give the
    largest/smallest ``|x|``, 0 the number of non-zero elements; computed in ``dtype`` when given.

    Raises:
        TypeError: if ``ord`` is not a number.
    """
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(f"For 'vector_norm', 'ord' must be an int or float, but got {type(ord).__name__}.")
    if dtype is not None:
        x = run("cast", x, dtype=_np_dtype(dtype))
    axis = _axis(dim)
    magnitude = run("abs", x)
    if ord == math.inf:
        return run("max", magnitude, axis=axis, keepdims=keepdim)
    if ord == -math.inf:
        return run("min", magnitude, axis=axis, keepdims=keepdim)
    if ord == 0:
        nonzero = run("cast", run("not_equal", x, 0), dtype=_np_dtype(x.dtype))
        return run("sum", nonzero, axis=axis, keepdims=keepdim)
    if ord == 2:
        return run("sqrt", run("sum", run("square", x), axis=axis, keepdims=keepdim))
    return run("pow", run("sum", run("pow", magnitude, ord), axis=axis, keepdims=keepdim), 1.0 / ord)


__getattr__ = module_getattr("mindspore.mint.linalg", globals())
