"""Matrix products behind MindSpore's primitives ``MatrixPower``, ``TridiagonalMatMul`` and
``MatrixDeterminant`` (the op ``matrix_determinant`` of ``codegen_templates/matrix.py``), the decomposition ``Qr``
and its reflectors (``Orgqr``, ``Ormqr``), the solvers ``MatrixTriangularSolve`` and ``MatrixSolve`` and the
selections ``NthElement`` and ``Quantile`` (their classes come from :mod:`primitive_table`): compositions of ops of the op table,
so they run eagerly and compiled and are differentiable."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from .array_extra import swapaxes
from .array_functional import floor
from .eager import run
from .nn_functional import topk
from .numeric import _check_tensor

__all__ = ["matrix_power", "tridiagonal_matmul", "nth_element", "matrix_determinant", "qr", "orgqr", "ormqr",
           "matrix_triangular_solve", "matrix_solve", "quantile"]


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


def _rows_from(x: Tensor, start: int) -> Tensor:
    return run("getitem", x, index=(Ellipsis, slice(start, None), slice(None)))


def _householder(x: Tensor) -> tuple:
    """LAPACK's Householder QR of each (m, n) matrix of ``x``: ``Q`` (m, m), ``R`` (m, n; below the diagonal
    what the reflections leave, ~0) and each reflection's ``(v, tau)`` (``v`` (m - j, 1) with ``v[0] = 1``)."""
    m, n = x.shape[-2:]
    identity = Tensor([[float(i == j) for j in range(m)] for i in range(m)], x.dtype)
    q = run("add", run("zeros_like", run("matmul", x, F.transpose(x, tuple(range(len(x.shape) - 2)) +
                                                                   (len(x.shape) - 1, len(x.shape) - 2)))), identity)
    r = x
    reflectors = []
    for j in range(min(m - 1, n)):
        column = run("getitem", r, index=(Ellipsis, slice(j, None), slice(j, j + 1)))        # (..., m - j, 1)
        alpha = run("getitem", column, index=(Ellipsis, slice(0, 1), slice(None)))           # (..., 1, 1)
        below = run("sum", run("square", run("getitem", column, index=(Ellipsis, slice(1, None), slice(None)))),
                    axis=(-2, -1), keepdims=True)
        reflect = run("greater", below, 0)   # LAPACK's tau = 0 where nothing is below the diagonal
        norm = run("sqrt", run("add", run("square", alpha), below))
        beta = run("where", run("less", alpha, 0), norm, run("neg", norm))
        head = run("sub", alpha, beta)
        safe_head = run("where", reflect, head, run("ones_like", head))
        v = run("div", column, safe_head)
        v = F.concat((run("ones_like", alpha), run("getitem", v, index=(Ellipsis, slice(1, None), slice(None)))), -2)
        tau = run("where", reflect, run("div", run("sub", beta, alpha), run("where", reflect, beta,
                                                                          run("ones_like", beta))),
                  run("zeros_like", beta))
        lower = _rows_from(r, j)
        lower = run("sub", lower, run("mul", tau, run("mul", v, run("matmul", v, lower, transpose_a=True))))
        r = F.concat((run("getitem", r, index=(Ellipsis, slice(0, j), slice(None))), lower), -2) if j else lower
        right = run("getitem", q, index=(Ellipsis, slice(None), slice(j, None)))
        right = run("sub", right, run("mul", tau, run("matmul", run("matmul", right, v), v, transpose_b=True)))
        q = F.concat((run("getitem", q, index=(Ellipsis, slice(None), slice(0, j))), right), -1) if j else right
        reflectors.append((v, tau))
    return q, r, reflectors


def qr(x: Tensor, full_matrices: bool = False) -> tuple:
    """The QR decomposition of each (m, n) matrix of ``x``: ``Q`` with orthonormal columns ((m, m) with
    ``full_matrices``, else (m, min(m, n))) and upper-triangular ``R`` with ``x = Q R``, by LAPACK's Householder
    reflections (so the signs are LAPACK's: each reflection sends its column to ``-sign(a) |column|``; a column
    already zero below the diagonal is left as it is).

    Raises:
        TypeError: if ``full_matrices`` is not a bool or ``x`` not a float Tensor.
        ValueError: if ``x`` has rank below 2.
    """
    name = "Qr"
    check_value_type("full_matrices", full_matrices, [bool], name)
    _check_tensor(name, "x", x)
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{name}', the dtype of 'x' must be float16, float32 or float64, but got {x.dtype}.")
    if len(x.shape) < 2:
        raise ValueError(f"For '{name}', the rank of 'x' must be at least 2, but got {len(x.shape)}.")
    m, n = x.shape[-2:]
    q, r, _ = _householder(x)
    rows = run("expand_dims", Tensor(list(range(m)), mstype.int64), axis=1)
    upper = run("less_equal", rows, run("expand_dims", Tensor(list(range(n)), mstype.int64), axis=0))
    r = run("where", upper, r, run("zeros_like", r))   # exact zeros below the diagonal, as LAPACK stores them
    if full_matrices or m <= n:
        return q, r
    return (run("getitem", q, index=(Ellipsis, slice(None), slice(0, n))),
            run("getitem", r, index=(Ellipsis, slice(0, n), slice(None))))


def _float_matrices(name: str, **tensors: Tensor) -> None:
    first = next(iter(tensors.values()))
    for argument, value in tensors.items():
        _check_tensor(name, argument, value)
        if value.dtype not in (mstype.float32, mstype.float64) or value.dtype != first.dtype:
            raise TypeError(f"For '{name}', the '{argument}' must be a float32 or float64 Tensor of the dtype of the "
                            f"others, but got {value.dtype}.")


def _swap_last(x: Tensor) -> Tensor:
    rank = len(x.shape)
    return F.transpose(x, tuple(range(rank - 2)) + (rank - 1, rank - 2))


def _householder_product(x: Tensor, tau: Tensor) -> Tensor:
    """``H_0 H_1 ... H_{k-1}`` (m, m) for the reflectors LAPACK stores below the diagonal of ``x`` (m, .) and the
    coefficients ``tau`` (k,): ``H_i = I - tau_i v_i v_i^T``, ``v_i`` 0 above row i, 1 at it, ``x[i + 1:, i]`` below."""
    m = x.shape[-2]
    identity = Tensor([[float(i == j) for j in range(m)] for i in range(m)], x.dtype)
    q = run("add", run("zeros_like", run("matmul", x, _swap_last(x))), identity)
    for i in range(tau.shape[-1]):
        below = run("getitem", x, index=(Ellipsis, slice(i + 1, None), slice(i, i + 1)))
        v = run("add", Tensor([[float(r == i)] for r in range(m)], x.dtype),
                F.concat((run("zeros_like", run("getitem", x, index=(Ellipsis, slice(0, i + 1), slice(i, i + 1)))),
                          below), -2))
        coefficient = run("expand_dims", run("getitem", tau, index=(Ellipsis, slice(i, i + 1))), axis=-1)
        q = run("sub", q, run("mul", coefficient, run("matmul", run("matmul", q, v), v, transpose_b=True)))
    return q


def orgqr(x: Tensor, tau: Tensor) -> Tensor:
    """The first ``n`` columns of the product of the Householder reflectors stored in the (..., m, n) ``x`` and
    ``tau`` (..., k) (LAPACK's ``orgqr``, the ``Q`` of a ``geqrf``).

    Raises:
        TypeError: if the dtypes are not one float dtype. ValueError: if the shapes do not fit (k <= n <= m).
    """
    _float_matrices("Orgqr", x=x, tau=tau)
    if len(x.shape) < 2 or x.shape[-1] > x.shape[-2] or tau.shape[-1] > x.shape[-1] \
            or tuple(tau.shape[:-1]) != tuple(x.shape[:-2]):
        raise ValueError(f"For 'Orgqr', the 'x' must be (*, M, N) with M >= N and 'tau' (*, K) with K <= N, but got "
                         f"{x.shape} and {tau.shape}.")
    q = _householder_product(x, tau)
    return run("getitem", q, index=(Ellipsis, slice(None), slice(0, x.shape[-1])))


def ormqr(x: Tensor, tau: Tensor, other: Tensor, left: bool = True, transpose: bool = False) -> Tensor:
    """``other`` multiplied by the ``Q`` of the reflectors in ``x`` and ``tau`` (see :func:`orgqr`): ``Q other``
    (``left``) or ``other Q``, with ``Q`` transposed first when ``transpose`` (LAPACK's ``ormqr``).

    Raises:
        TypeError: if the flags are not bools or the dtypes differ. ValueError: if the shapes do not fit.
    """
    check_value_type("left", left, [bool], "Ormqr")
    check_value_type("transpose", transpose, [bool], "Ormqr")
    _float_matrices("Ormqr", x=x, tau=tau, other=other)
    size = other.shape[-2] if left else other.shape[-1]
    if len(x.shape) < 2 or x.shape[-2] != size or tau.shape[-1] > min(size, x.shape[-1]):
        raise ValueError(f"For 'Ormqr', the 'x' must be (*, {size}, k) and 'tau' (*, min({size}, k)), but got "
                         f"{x.shape} and {tau.shape}.")
    q = _householder_product(x, tau)
    q = _swap_last(q) if transpose else q
    return run("matmul", q, other) if left else run("matmul", other, q)


def matrix_triangular_solve(matrix: Tensor, rhs: Tensor, lower: bool = True, adjoint: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = rhs`` (``A^T X = rhs`` with ``adjoint``) for the lower (``lower``) or upper
    triangle ``A`` of each (M, M) ``matrix`` (the other triangle is not read), by substitution.

    Raises:
        TypeError: if the flags are not bools or the dtypes differ. ValueError: if the shapes do not fit.
    """
    name = "MatrixTriangularSolve"
    check_value_type("lower", lower, [bool], name)
    check_value_type("adjoint", adjoint, [bool], name)
    _float_matrices(name, matrix=matrix, rhs=rhs)
    if len(matrix.shape) < 2 or matrix.shape[-1] != matrix.shape[-2] \
            or tuple(rhs.shape[:-1]) != tuple(matrix.shape[:-1]):
        raise ValueError(f"For '{name}', the 'matrix' must be (*, M, M) and 'rhs' (*, M, N) of its batch, but got "
                         f"{matrix.shape} and {rhs.shape}.")
    m = matrix.shape[-1]
    a = _swap_last(matrix) if adjoint else matrix
    forward = lower != adjoint   # the solved triangle is lower: substitute from the first row down
    solved = {}
    for i in (range(m) if forward else range(m - 1, -1, -1)):
        total = run("getitem", rhs, index=(Ellipsis, slice(i, i + 1), slice(None)))
        for j in solved:
            entry = run("getitem", a, index=(Ellipsis, slice(i, i + 1), slice(j, j + 1)))
            total = run("sub", total, run("mul", entry, solved[j]))
        solved[i] = run("div", total, run("getitem", a, index=(Ellipsis, slice(i, i + 1), slice(i, i + 1))))
    return F.concat(tuple(solved[i] for i in range(m)), -2)


def matrix_solve(matrix: Tensor, rhs: Tensor, adjoint: bool = False) -> Tensor:
    """The solution ``X`` of ``matrix X = rhs`` (``matrix^T X = rhs`` with ``adjoint``) for square ``matrix``.

    Raises:
        TypeError: if ``adjoint`` is not a bool or the dtypes differ. ValueError: if the shapes do not fit.
    """
    check_value_type("adjoint", adjoint, [bool], "MatrixSolve")
    _float_matrices("MatrixSolve", matrix=matrix, rhs=rhs)
    if len(matrix.shape) < 2 or matrix.shape[-1] != matrix.shape[-2] \
            or tuple(rhs.shape[:-1]) != tuple(matrix.shape[:-1]):
        raise ValueError(f"For 'MatrixSolve', the 'matrix' must be (..., M, M) and 'rhs' (..., M, K), but got "
                         f"{matrix.shape} and {rhs.shape}.")
    inverse = run("matrix_inverse", _swap_last(matrix) if adjoint else matrix)
    return run("matmul", inverse, rhs)


def quantile(input: Tensor, q: Any, dim: Any = None, keep_dims: bool = False, ignore_nan: bool = False) -> Tensor:
    """The ``q``-quantiles (a float or a 0-D/1-D Tensor in [0, 1]) of ``input`` along ``dim`` (None: all elements),
    interpolating linearly between the sorted neighbours; a 1-D ``q`` makes the first dim. A slice holding NaN gives
    NaN (``ignore_nan=True``, which skips NaNs, is not implemented in npspore).

    Raises:
        TypeError: if ``dim`` is not an int or None or the flags not bools.
        ValueError: if ``q`` is not 0-D/1-D, ``dim`` is out of range, or ``ignore_nan`` is True.
    """
    name = "Quantile"
    check_value_type("keep_dims", keep_dims, [bool], name)
    check_value_type("ignore_nan", ignore_nan, [bool], name)
    if dim is not None:
        check_value_type("dim", dim, [int], name)
    if ignore_nan:
        raise ValueError(f"For '{name}', 'ignore_nan=True' is not implemented in npspore.")
    _check_tensor(name, "input", input)
    q = q if isinstance(q, Tensor) else Tensor(q, input.dtype)
    if len(q.shape) > 1:
        raise ValueError(f"For '{name}', the 'q' must be a scalar or 1-D, but got shape {q.shape}.")
    rank = len(input.shape)
    if dim is not None and not -max(rank, 1) <= dim < max(rank, 1):
        raise ValueError(f"For '{name}', the 'dim' must be in range [{-rank}, {rank}), but got {dim}.")
    data = run("reshape", input, shape=(-1,)) if dim is None or not input.shape else input
    axis = 0 if dim is None or not input.shape else dim % rank
    others = tuple(d for d in range(len(data.shape)) if d != axis)
    moved = F.transpose(data, others + (axis,))                                               # (others..., n)
    count = moved.shape[-1]
    ordered = F.sort(moved, -1)[0]
    levels = run("reshape", run("cast", q, dtype=_np_dtype(input.dtype)), shape=(-1,))
    position = run("mul", levels, float(count - 1))
    below = floor(position)
    weight = run("sub", position, below)
    low = run("cast", below, dtype=np.int64)
    high = run("minimum", run("add", low, 1), count - 1)
    lower = run("gather", ordered, low, axis=len(others))
    upper = run("gather", ordered, high, axis=len(others))
    value = run("add", lower, run("mul", run("sub", upper, lower), weight))                   # (others..., Q)
    has_nan = run("any", run("not_equal", ordered, ordered), axis=-1, keepdims=True)
    value = run("where", has_nan, run("add", run("zeros_like", value), float("nan")), value)
    value = F.transpose(value, (len(others),) + tuple(range(len(others))))                    # (Q, others...)
    if keep_dims:
        kept = tuple(1 if d == axis or dim is None else input.shape[d] for d in range(rank))
        value = run("reshape", value, shape=(levels.shape[0],) + kept)
    if not q.shape:
        value = run("reshape", value, shape=tuple(value.shape[1:]))
    return value
