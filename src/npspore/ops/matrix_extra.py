"""Matrix products behind MindSpore's primitives ``MatrixPower``, ``TridiagonalMatMul`` and
``MatrixDeterminant`` (the op ``matrix_determinant`` of ``codegen_templates/matrix.py``) and the selection
``NthElement`` (their classes come from :mod:`primitive_table`): compositions of ops of the op table, so they run
eagerly and compiled and are differentiable."""
from __future__ import annotations

from typing import Any

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .array_extra import swapaxes
from .eager import run
from .nn_functional import topk
from .numeric import _check_tensor

__all__ = ["matrix_power", "tridiagonal_matmul", "nth_element", "matrix_determinant"]


def matrix_power(x: Tensor, n: int) -> Tensor:
    """Each (m, m) matrix of the 3-D ``x`` to the integer power ``n`` (the inverse's for negative ``n``, the
    identity for 0), by repeated squaring.

    Raises:
        TypeError: if ``n`` is not an int. ValueError: if ``x`` is not (b, m, m), or ``n < 0`` for an integer ``x``.
    """
    name = "MatrixPower"
    check_value_type("n", n, [int], name)
    _check_tensor(name, "x", x)
    if len(x.shape) != 3 or x.shape[1] != x.shape[2]:
        raise ValueError(f"For '{name}', the 'x' must be a 3-D tensor of square matrices, but got shape {x.shape}.")
    if n < 0 and x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise ValueError(f"For '{name}', n < 0 is not supported for input of integer type.")
    base = run("matrix_inverse", x) if n < 0 else x
    result = None
    remaining = abs(n)
    while remaining:
        if remaining % 2:
            result = base if result is None else run("matmul", result, base)
        remaining //= 2
        if remaining:
            base = run("matmul", base, base)
    if result is None:
        identity = Tensor([[float(i == j) for j in range(x.shape[1])] for i in range(x.shape[1])], x.dtype)
        result = run("add", run("zeros_like", x), identity)
    return result


def tridiagonal_matmul(superdiag: Tensor, maindiag: Tensor, subdiag: Tensor, rhs: Tensor) -> Tensor:
    """The tridiagonal (M, M) matrices given by their diagonals (each (..., 1, M); the last superdiagonal and the
    first subdiagonal entries are ignored) times the (..., M, N) ``rhs``.

    Raises:
        TypeError: if the dtypes differ. ValueError: if the diagonals are not (..., 1, M) for ``rhs`` of M rows.
    """
    name = "TridiagonalMatMul"
    for argument, value in (("superdiag", superdiag), ("maindiag", maindiag), ("subdiag", subdiag), ("rhs", rhs)):
        _check_tensor(name, argument, value)
        if value.dtype != rhs.dtype:
            raise TypeError(f"For '{name}', the '{argument}' must have the dtype of 'rhs' {rhs.dtype}, but got "
                            f"{value.dtype}.")
    if len(rhs.shape) < 2:
        raise ValueError(f"For '{name}', the rank of 'rhs' must be at least 2, but got {len(rhs.shape)}.")
    m = rhs.shape[-2]
    for argument, value in (("superdiag", superdiag), ("maindiag", maindiag), ("subdiag", subdiag)):
        if tuple(value.shape[-2:]) != (1, m) or tuple(value.shape[:-2]) != tuple(rhs.shape[:-2]):
            raise ValueError(f"For '{name}', the shape of '{argument}' must be {tuple(rhs.shape[:-2]) + (1, m)}, "
                             f"but got {value.shape}.")
    columns = [swapaxes(diagonal, -1, -2) for diagonal in (superdiag, maindiag, subdiag)]   # (..., M, 1)
    out = run("mul", columns[1], rhs)
    if m > 1:
        below = F.concat((run("getitem", rhs, index=(Ellipsis, slice(1, None), slice(None))),
                          run("zeros_like", run("getitem", rhs, index=(Ellipsis, slice(0, 1), slice(None))))), -2)
        above = F.concat((run("zeros_like", run("getitem", rhs, index=(Ellipsis, slice(0, 1), slice(None)))),
                          run("getitem", rhs, index=(Ellipsis, slice(None, -1), slice(None)))), -2)
        upper = run("mul", columns[0], below)   # row i takes superdiag[i] rhs[i + 1] (row m - 1: nothing)
        lower = run("mul", columns[2], above)   # row i takes subdiag[i] rhs[i - 1] (row 0: nothing)
        out = run("add", run("add", out, upper), lower)
    return out


def nth_element(input: Tensor, n: Any, reverse: bool = False) -> Tensor:
    """The ``n``-th smallest (``reverse``: largest) entry along the last dim, counting from 0.

    Raises:
        TypeError: if ``n`` is no int (or 0-D int32 Tensor) or ``reverse`` no bool.
        ValueError: if ``n`` is outside ``[0, input.shape[-1])`` or ``input`` is 0-D.
    """
    name = "NthElement"
    check_value_type("reverse", reverse, [bool], name)
    _check_tensor(name, "input", input)
    if isinstance(n, Tensor):
        n = int(n.asnumpy())
    check_value_type("n", n, [int], name)
    if not input.shape or not 0 <= n < input.shape[-1]:
        raise ValueError(f"For '{name}', the 'n' must be in [0, {input.shape[-1] if input.shape else 0}), but got "
                         f"{n}.")
    values, _ = topk(input, n + 1, largest=reverse)
    return run("getitem", values, index=(Ellipsis, n))


def matrix_determinant(x: Tensor) -> Tensor:
    """The determinant of each square matrix of the last two dims of the float32/float64 ``x``.

    Raises:
        TypeError: if ``x`` is not float32/float64. ValueError: if its last two dims differ or its rank is below 2.
    """
    _check_tensor("MatrixDeterminant", "x", x)
    return run("matrix_determinant", x)
