"""Special functions NumPy lacks, elementwise over arrays: ``erfc``, exact to the C library's precision.

Generated kernels reach them through :mod:`npspore.runtime` (``rt.erfc(x)``), as the op templates write them.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["erfc"]

_ERFC = np.frompyfunc(math.erfc, 1, 1)


def erfc(x: np.ndarray) -> np.ndarray:
    """The complementary error function ``1 - erf(x)`` of each element, in ``x``'s dtype, without the
    cancellation of ``1 - erf(x)`` (``erfc(10)`` is 2.1e-45, not 0)."""
    x = np.asarray(x)
    return np.asarray(_ERFC(x), x.dtype)
