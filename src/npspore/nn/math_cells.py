"""Math cells of ``mindspore.nn`` (``nn.layer.math``): ``Range``, the Tensor of an arithmetic progression, and
``ReduceLogSumExp``."""
from __future__ import annotations

import numpy as np

from npspore.common import dtype as mstype
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell

__all__ = ["Range", "ReduceLogSumExp", "Moments"]


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


class ReduceLogSumExp(Cell):
    r""":math:`\log \sum e^x` over `axis`, computed as MindSpore does, shifted by the largest element.

    Args:
        axis (Union[int, tuple[int], list[int]]): the dims to reduce; ``()`` reduces all.
        keep_dims (bool): whether the reduced dims stay, of length 1. Default: ``False``.

    Raises:
        TypeError: If `axis` is not an int, tuple or list, or `keep_dims` is not a bool.
    """

    def __init__(self, axis: int | tuple[int, ...] | list[int], keep_dims: bool = False) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"For 'ReduceLogSumExp', the type of 'axis' should be one of '[int, list, tuple]', but "
                            f"got '{type(axis).__name__}'.")
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'ReduceLogSumExp', the type of 'keep_dims' should be 'bool', but got "
                            f"'{type(keep_dims).__name__}'.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis
        self.keep_dims = keep_dims

    def construct(self, x: Tensor) -> Tensor:
        shift = x.max()
        axis = None if self.axis == () else self.axis
        return (x - shift).exp().sum(axis, keepdims=self.keep_dims).log() + shift


class Moments(Cell):
    """The mean and the (population) variance of `x` over `axis` (all dims when None), as a pair (float16 inputs
    computed in float32).

    Args:
        axis (Union[int, tuple[int], None]): the dims to reduce. Default: ``None``.
        keep_dims (bool, optional): keep the reduced dims, of length 1. Default: ``None`` (False).
    """

    def __init__(self, axis: int | tuple[int, ...] | None = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        self.axis = axis
        self.keep_dims = bool(keep_dims)

    def construct(self, x: Tensor) -> tuple[Tensor, Tensor]:
        dtype = x.dtype
        if dtype == mstype.float16:  # computed in float32, as MindSpore does
            x = x.astype(mstype.float32)
        mean = x.mean(self.axis, keep_dims=True)
        variance = ((x - mean) ** 2).mean(self.axis, keep_dims=self.keep_dims)
        if not self.keep_dims:
            mean = x.mean(self.axis)
        return mean.astype(dtype), variance.astype(dtype)
