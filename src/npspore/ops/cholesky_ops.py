"""Cholesky factorization and its uses, as ``mindspore.ops``'s ``Cholesky``, ``CholeskySolve`` and
``CholeskyInverse`` primitives (rows of the primitive table).

``cholesky`` is the Cholesky-Banachiewicz recurrence written over ops of the table, one column at a time (unrolled
over the matrix size, batched over leading dims), so it runs eagerly and compiled and is differentiable;
``cholesky_solve`` and ``cholesky_inverse`` multiply by ``matrix_inverse`` of the product of the factors.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .numeric import _check_tensor

__all__ = ["cholesky", "cholesky_solve", "cholesky_inverse"]


def _check_square(name: str, argument: str, x: Tensor) -> None:
    _check_tensor(name, argument, x)
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{name}', the '{argument}' must be a batch of square matrices, but got shape "
                         f"{list(x.shape)}.")


def _mT(x: Tensor) -> Tensor:
    """``x`` with its last two dims swapped."""
    axes = tuple(range(len(x.shape) - 2)) + (len(x.shape) - 1, len(x.shape) - 2)
    return F.transpose(x, axes)


def cholesky(input_x: Tensor, upper: bool = False) -> Tensor:
    """The lower triangular ``L`` with ``L @ L^T = input_x`` (``upper``: the upper ``U = L^T``, ``U^T @ U =
    input_x``) of each symmetric positive-definite matrix of ``input_x (..., n, n)``; NaN where one is not."""
    _check_square("Cholesky", "input_x", input_x)
    n = input_x.shape[-1]
    columns = []
    for j in range(n):
        row_j = F.stack(columns, -1) if columns else None          # (..., n, j): L's first j columns
        a_col = input_x[..., :, j]                                   # (..., n)
        if row_j is None:
            diagonal = F.sqrt(a_col[..., j:j + 1])
            below = a_col / diagonal
        else:
            l_j = row_j[..., j, :]                                   # (..., j): row j of L so far
            projected = a_col - F.reduce_sum(row_j * F.expand_dims(l_j, -2), -1)
            diagonal = F.sqrt(projected[..., j:j + 1])
            below = projected / diagonal
        keep = Tensor([float(i >= j) for i in range(n)], input_x.dtype)
        columns.append(below * keep)
    lower = F.stack(columns, -1)
    return _mT(lower) if upper else lower


def _gram(factor: Tensor, upper: bool) -> Tensor:
    """``U^T @ U`` (upper) or ``L @ L^T``: the matrix the factor factors."""
    return F.matmul(_mT(factor), factor) if upper else F.matmul(factor, _mT(factor))


def cholesky_solve(x1: Tensor, x2: Tensor, upper: bool = False) -> Tensor:
    """``A^-1 @ x1`` where ``x2`` is the Cholesky factor of ``A`` (lower unless ``upper``)."""
    _check_tensor("CholeskySolve", "x1", x1)
    _check_square("CholeskySolve", "x2", x2)
    return F.matmul(run("matrix_inverse", _gram(x2, upper)), x1)


def cholesky_inverse(input_x: Tensor, upper: bool = False) -> Tensor:
    """``A^-1`` where ``input_x`` is the Cholesky factor of ``A`` (lower unless ``upper``)."""
    _check_square("CholeskyInverse", "input_x", input_x)
    return run("matrix_inverse", _gram(input_x, upper))
