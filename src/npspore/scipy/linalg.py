"""``mindspore.scipy.linalg``: ``eigh``, the eigenvalues and eigenvectors of symmetric matrices, computed by
NumPy's LAPACK on the host (eagerly at once; in compiled code a host call), without a gradient.

An eigenvector is defined up to its sign: MindSpore's CPU kernel (Eigen's solver) and LAPACK may choose
opposite signs for a column, so products that depend on the sign (a projection onto the eigenvectors) may
differ in sign from MindSpore's; the eigenvalues, and what does not depend on the signs, agree.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops.linalg_extra import _HostCall

__all__ = ["eigh"]

_DTYPES = {mstype.float32: np.dtype(np.float32), mstype.float64: np.dtype(np.float64),
           mstype.complex64: np.dtype(np.complex64), mstype.complex128: np.dtype(np.complex128)}


def _eigh_forward(a: np.ndarray, lower: bool) -> tuple:
    return np.linalg.eigh(a, UPLO="L" if lower else "U")


_EIGH = _HostCall("Eigh", _eigh_forward)


def eigh(a: Tensor, b: Any = None, lower: bool = True, eigvals_only: bool = False, overwrite_a: bool = False,
         overwrite_b: bool = False, turbo: bool = True, eigvals: Any = None, type: int = 1,
         check_finite: bool = True) -> Any:
    """The eigenvalues ``w`` (N,) in ascending order and the unit eigenvectors ``v`` (N, N) (the columns) of the
    symmetric (Hermitian) matrix ``a``, read from its lower triangle (``lower=False``: the upper one):
    ``(w, v)``, or ``w`` alone with ``eigvals_only``.

    Raises:
        TypeError: if ``a`` is not a float32/float64/complex Tensor.
        ValueError: if ``a`` is not a square matrix, or ``b`` (a generalized problem) is given.
        NotImplementedError: for ``eigvals`` or a ``type`` other than 1, as MindSpore.
    """
    if not isinstance(a, Tensor) or a.dtype not in _DTYPES:
        raise TypeError(f"For 'eigh', the input 'a' must be a float or complex Tensor, but got {a!r}.")
    if len(a.shape) != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"For 'eigh', the input 'a' must be a square matrix, but got shape {a.shape}.")
    if b is not None:
        raise ValueError("For 'eigh', only the standard eigenvalue problem (b=None) is supported.")
    if eigvals is not None or type != 1:
        raise NotImplementedError("For 'eigh', only eigvals=None and type=1 are supported.")
    n, dtype = a.shape[0], _DTYPES[a.dtype]
    real = np.empty(0, dtype).real.dtype   # the eigenvalues of a complex Hermitian matrix are real
    w, v = _EIGH((((n,), real), ((n, n), dtype)), (bool(lower),), a)
    return w if eigvals_only else (w, v)
