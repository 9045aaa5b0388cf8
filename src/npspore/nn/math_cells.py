"""Math cells of ``mindspore.nn`` (``nn.layer.math``): ``Range``, the Tensor of an arithmetic progression."""
from __future__ import annotations

import numpy as np

from npspore.common import dtype as mstype
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell

__all__ = ["Range"]


class Range(Cell):
    """``Range(start, limit=None, delta=1)()``: ``start, start + delta, ...`` before ``limit`` (``Range(n)``:
    ``0 ... n - 1``), as NumPy's ``arange`` counts them; Float32 when a value is a float, else Int32.

    Raises:
        ValueError: if ``delta`` is 0.
    """

    def __init__(self, start: int | float, limit: int | float | None = None, delta: int | float = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError(f"For '{self.cls_name}', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        self.result_tensor = Tensor(data, dtype=mstype.float32 if data.dtype == np.float64 else mstype.int32)

    def construct(self):
        return self.result_tensor
