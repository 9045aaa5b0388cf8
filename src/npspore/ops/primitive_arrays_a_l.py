"""Array and window functions behind primitive classes of ``mindspore.ops.operations`` named A-L, made by the
primitive table (:mod:`npspore.ops.primitive_table`): the windows ``BartlettWindow``, ``BlackmanWindow`` and
``HammingWindow``; ``AccumulateNV2``, ``GLU``, ``LogSpace``, ``DataFormatDimMap``, ``DataFormatVecPermute``,
``CheckNumerics``, ``InplaceUpdateV2``, ``IndexFill`` and ``LowerBound``.

Compositions of op-table ops (eager, compiled, differentiable where they compute with floats); a window's length
is read as a Python int (a value guard in compiled code), its values made by NumPy as MindSpore's formulas give them.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from . import scatter_ops as sc
from .eager import run
from .numeric import _check_tensor, isfinite, isnan

__all__ = ["bartlett_window", "blackman_window", "hamming_window", "accumulate_n_v2", "glu", "log_space",
           "data_format_dim_map", "data_format_vec_permute", "check_numerics", "inplace_update_v2", "index_fill",
           "lower_bound"]


def _window_length(name: str, window_length: Tensor) -> int:
    _check_tensor(name, "window_length", window_length)
    if window_length.dtype not in (mstype.int32, mstype.int64) or window_length.size != 1:
        raise TypeError(f"For '{name}', the 'window_length' must be an int32 or int64 Tensor of one element, but got "
                        f"{window_length.dtype} of shape {list(window_length.shape)}.")
    length = int(window_length.asnumpy().reshape(-1)[0])
    if length < 0:
        raise ValueError(f"For '{name}', the 'window_length' must be non-negative, but got {length}.")
    return length


def _window(name: str, window_length: Tensor, periodic: bool, dtype: Any, values) -> Tensor:
    """``values(n)`` (float64, the symmetric window of ``n`` points) of the window's length, one point longer
    and cut when ``periodic``, in ``dtype``."""
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{name}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    length = _window_length(name, window_length)
    if length <= 1:
        return Tensor(np.ones(length, _np_dtype(dtype)))
    window = values(length + 1)[:-1] if periodic else values(length)
    return Tensor(window.astype(_np_dtype(dtype)))


def bartlett_window(window_length: Tensor, periodic: bool = True, dtype: Any = mstype.float32) -> Tensor:
    """The triangular window ``1 - |2n / (N - 1) - 1|``."""
    return _window("BartlettWindow", window_length, periodic, dtype, np.bartlett)


def blackman_window(window_length: Tensor, periodic: bool = True, dtype: Any = mstype.float32) -> Tensor:
    """``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    return _window("BlackmanWindow", window_length, periodic, dtype, np.blackman)


def hamming_window(window_length: Tensor, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46,
                   dtype: Any = mstype.float32) -> Tensor:
    """``alpha - beta cos(2 pi n / (N - 1))``."""
    return _window("HammingWindow", window_length, periodic, dtype,
                   lambda n: alpha - beta * np.cos(2 * np.pi * np.arange(n) / (n - 1)))


def accumulate_n_v2(inputs) -> Tensor:
    """The elementwise sum of the Tensors of the tuple or list ``inputs``."""
    if not isinstance(inputs, (tuple, list)) or not inputs or not all(isinstance(t, Tensor) for t in inputs):
        raise TypeError(f"For 'AccumulateNV2', the input must be a non-empty tuple or list of Tensors, but got "
                        f"{type(inputs).__name__}.")
    return F.addn(inputs)


def glu(x: Tensor, axis: int = -1) -> Tensor:
    """The first half of ``x`` along ``axis`` times the sigmoid of the second half."""
    _check_tensor("GLU", "x", x)
    size = x.shape[axis]
    if size % 2:
        raise ValueError(f"For 'GLU', the size of 'x' along 'axis' must be even, but got {size}.")
    first, second = F.split(x, size // 2, axis)
    return first * F.sigmoid(second)


def log_space(start: Tensor, end: Tensor, steps: int = 10, base: int = 10, dtype: Any = mstype.float32) -> Tensor:
    """``base ** linspace(start, end, steps)`` in ``dtype``."""
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For 'LogSpace', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    exponents = F.linspace(F.cast(start, mstype.float64), F.cast(end, mstype.float64), steps)
    return F.cast(F.pow(float(base), exponents), dtype)


def _format(name: str, argument: str, value: str) -> str:
    if not isinstance(value, str) or sorted(value) != sorted("NCHW"):
        raise ValueError(f"For '{name}', the '{argument}' must be a permutation of 'NCHW' or 'NHWC', but got "
                         f"{value!r}.")
    return value


def data_format_dim_map(input_x: Tensor, src_format: str = "NHWC", dst_format: str = "NCHW") -> Tensor:
    """Each dim index ``i`` of ``input_x`` (in ``[-4, 4)``) mapped to ``src_format.index(dst_format[i])``, as
    MindSpore 2.10 maps it (``[0, 1, 2, 3]`` from NHWC to NCHW is ``[0, 3, 1, 2]``)."""
    _check_tensor("DataFormatDimMap", "input_x", input_x)
    src, dst = _format("DataFormatDimMap", "src_format", src_format), _format("DataFormatDimMap", "dst_format",
                                                                              dst_format)
    table = F.cast(Tensor(np.array([src.index(axis) for axis in dst], np.int64)), input_x.dtype)
    return F.gather(table, run("mod", input_x + 4, 4), 0)


def data_format_vec_permute(x: Tensor, src_format: str = "NHWC", dst_format: str = "NCHW") -> Tensor:
    """The rows of ``x`` (``(4,)`` or ``(4, 2)``: one per dim of ``src_format``) in ``dst_format``'s order."""
    _check_tensor("DataFormatVecPermute", "x", x)
    if tuple(x.shape) not in ((4,), (4, 2)):
        raise ValueError(f"For 'DataFormatVecPermute', the shape of 'x' must be (4,) or (4, 2), but got "
                         f"{list(x.shape)}.")
    src = _format("DataFormatVecPermute", "src_format", src_format)
    dst = _format("DataFormatVecPermute", "dst_format", dst_format)
    return F.gather(x, Tensor(np.array([src.index(axis) for axis in dst], np.int32)), 0)


def check_numerics(x: Tensor) -> Tensor:
    """``x``, after checking that it holds no NaN or infinity (MindSpore's ``RuntimeError`` otherwise)."""
    _check_tensor("CheckNumerics", "x", x)
    if bool(run("any", isnan(x))):
        raise RuntimeError("For 'CheckNumerics', Tensor had NaN values")
    if not bool(run("all", isfinite(x))):
        raise RuntimeError("For 'CheckNumerics', Tensor had Inf values")
    return x


def _row_indices(name: str, indices, rows: int) -> Tensor:
    """The ``(k, 1)`` int32 row indices of an int or a tuple of ints (or a 1-D int Tensor)."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        indices = (indices,)
    if isinstance(indices, (tuple, list)):
        if not all(isinstance(i, int) and not isinstance(i, bool) and -rows <= i < rows for i in indices):
            raise ValueError(f"For '{name}', the 'indices' must be ints in [{-rows}, {rows}), but got {indices}.")
        return Tensor(np.array([i % rows for i in indices], np.int32).reshape(-1, 1))
    _check_tensor(name, "indices", indices)
    return F.reshape(F.cast(indices, mstype.int32), (-1, 1))


def inplace_update_v2(x: Tensor, indices, v: Tensor) -> Tensor:
    """``x`` with its rows ``indices`` (an int, a tuple of ints or an int Tensor) replaced by the rows of ``v``."""
    _check_tensor("InplaceUpdateV2", "x", x)
    return sc.tensor_scatter_update(x, _row_indices("InplaceUpdateV2", indices, x.shape[0]), v)


def index_fill(x: Tensor, dim, index: Tensor, value) -> Tensor:
    """``x`` with the slices ``index`` along ``dim`` set to ``value`` (a number or a 0-d Tensor)."""
    _check_tensor("IndexFill", "x", x)
    if isinstance(dim, Tensor):
        dim = int(dim)
    rank = len(x.shape)
    dim = dim % rank
    size = x.shape[dim]
    positions = Tensor(np.arange(size, dtype=np.int32).reshape(-1, 1))
    chosen = run("any", F.equal(positions, F.reshape(F.cast(index, mstype.int32) % size, (1, -1))), axis=1)
    mask = F.reshape(chosen, tuple(size if d == dim else 1 for d in range(rank)))
    fill = F.cast(value, x.dtype) if isinstance(value, Tensor) else value
    return F.where(mask, F.zeros_like(x) + fill, x)


def lower_bound(sorted_x: Tensor, values: Tensor, out_type: Any = mstype.int32) -> Tensor:
    """For each row ``b`` and value ``values[b, j]``, the first index of ``sorted_x[b]`` (ascending) not less."""
    _check_tensor("LowerBound", "sorted_x", sorted_x)
    _check_tensor("LowerBound", "values", values)
    if len(sorted_x.shape) != 2 or len(values.shape) != 2 or sorted_x.shape[0] != values.shape[0]:
        raise ValueError(f"For 'LowerBound', 'sorted_x' and 'values' must be 2-D with the same number of rows, but "
                         f"got {list(sorted_x.shape)} and {list(values.shape)}.")
    below = F.less(F.expand_dims(sorted_x, 1), F.expand_dims(values, 2))          # (B, M, N)
    return F.cast(F.reduce_sum(F.cast(below, mstype.int32), 2), out_type)
