"""Finite-difference step and tolerances chosen from the precision a program computes in.

A central difference ``(f(x + eps) - f(x - eps)) / 2eps`` has a truncation error of order ``eps²`` and a
rounding error of order ``machine epsilon / eps``; the step balancing the two is about the cube root
of the machine epsilon. A check uses the entry of the *lowest* precision among the values on the
program's path: a float64 program whose loss reduces in float32 (as MindSpore's losses do) is
checked with float32's step and tolerances.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

__all__ = ["Tolerance", "tolerance_for"]


@dataclass(frozen=True)
class Tolerance:
    """A finite-difference step ``eps`` and the tolerance ``|analytic - numeric| <= atol + rtol * |numeric|``."""

    eps: float
    rtol: float
    atol: float


_BY_PRECISION = {
    np.dtype(np.float64): Tolerance(eps=1e-6, rtol=1e-5, atol=1e-6),
    np.dtype(np.float32): Tolerance(eps=1e-3, rtol=1e-2, atol=1e-3),
    np.dtype(np.float16): Tolerance(eps=1e-1, rtol=1e-1, atol=1e-1),
}


def tolerance_for(dtypes: Iterable[np.dtype]) -> Tolerance:
    """The step and tolerances for a program whose values have ``dtypes`` (non-floating ones are ignored).

    Returns float64's entry when there is no floating dtype, else the entry of the least precise one.
    """
    floats = [np.dtype(d) for d in dtypes if np.dtype(d).kind == "f"]
    if not floats:
        return _BY_PRECISION[np.dtype(np.float64)]
    least = min(floats, key=lambda d: np.finfo(d).precision)
    return _BY_PRECISION.get(least, _BY_PRECISION[np.dtype(np.float16)])
