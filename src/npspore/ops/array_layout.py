"""Array rearrangements behind MindSpore's primitives ``SpaceToDepth``, ``SpaceToBatch``/``SpaceToBatchND``,
``Padding``, ``ParallelConcat``, ``SplitV``, ``MatrixBandPart``, ``TrilIndices``/``TriuIndices``,
``UnravelIndex`` and ``UpperBound`` (their classes come from :mod:`primitive_table`).

Each is a composition of ops of the op table (reshape, transpose, pad, where ...), so it runs eagerly and
compiled and is differentiable where MindSpore's is; the index builders make constants.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .array_functional import pad
from .eager import run

__all__ = ["space_to_depth", "space_to_batch_nd", "space_to_batch", "padding", "parallel_concat", "split_v",
           "matrix_band_part", "tril_indices", "triu_indices", "unravel_index", "upper_bound"]


def _check_block(name: str, argument: str, size: Any) -> int:
    check_value_type(argument, size, [int], name)
    if size < 2:
        raise ValueError(f"For '{name}', the '{argument}' must be greater than or equal to 2, but got {size}.")
    return size


def space_to_depth(x: Tensor, block_size: int) -> Tensor:
    """(N, C, H, W) to (N, C b², H / b, W / b): the pixel at row offset ``i`` and column offset ``j`` of a
    ``b x b`` block of channel ``c`` goes to channel ``(i b + j) C + c`` (the inverse of ``DepthToSpace``).

    Raises:
        ValueError: if ``block_size`` is less than 2, ``x`` is not 4-D or H, W are not divisible by it.
    """
    b = _check_block("SpaceToDepth", "block_size", block_size)
    if len(x.shape) != 4 or x.shape[2] % b or x.shape[3] % b:
        raise ValueError(f"For 'SpaceToDepth', the input must be 4-D with height and width divisible by {b}, "
                         f"but got shape {x.shape}.")
    n, c, h, w = x.shape
    blocks = run("reshape", x, shape=(n, c, h // b, b, w // b, b))
    moved = run("transpose", blocks, axes=(0, 3, 5, 1, 2, 4))
    return run("reshape", moved, shape=(n, c * b * b, h // b, w // b))


def space_to_batch_nd(input_x: Tensor, block_shape: Any, paddings: Any) -> Tensor:
    """The last ``M = len(block_shape)`` dims of ``input_x`` zero-padded by ``paddings`` (M pairs) and cut into
    blocks; the offset within a block goes to the batch dim, outermost: shape (N b_1...b_M, C..., (W_i + pads) / b_i).

    Raises:
        TypeError: if ``block_shape`` is not an int, list or tuple of ints or ``paddings`` not a list/tuple.
        ValueError: if a block size is less than 1, ``paddings`` has no ``M`` pairs of non-negative ints or a
            padded dim is not divisible by its block size.
    """
    name = "SpaceToBatchND"
    check_value_type("block_shape", block_shape, [int, list, tuple], name)
    check_value_type("paddings", paddings, [list, tuple], name)
    blocks = tuple(block_shape) if isinstance(block_shape, (list, tuple)) else (block_shape,) * len(paddings)
    pairs = [tuple(pair) for pair in paddings]
    m = len(blocks)
    if any(not isinstance(size, int) or size < 1 for size in blocks):
        raise ValueError(f"For '{name}', the elements of 'block_shape' must be ints of at least 1, but got {blocks}.")
    if len(pairs) != m or any(len(pair) != 2 or min(pair) < 0 for pair in pairs):
        raise ValueError(f"For '{name}', the 'paddings' must be {m} pairs of non-negative ints, but got {paddings}.")
    rank = len(input_x.shape)
    if rank < m + 1:
        raise ValueError(f"For '{name}', the rank of 'input_x' must be at least {m + 1}, but got {rank}.")
    padded = pad(input_x, tuple(v for pair in reversed(pairs) for v in pair)) if any(map(any, pairs)) else input_x
    shape = tuple(padded.shape)
    lead, spatial = shape[:rank - m], shape[rank - m:]
    if any(size % block for size, block in zip(spatial, blocks)):
        raise ValueError(f"For '{name}', the padded spatial shape {spatial} must be divisible by 'block_shape' "
                         f"{blocks}.")
    split = lead + tuple(v for size, block in zip(spatial, blocks) for v in (size // block, block))
    cut = run("reshape", padded, shape=split)
    k = len(lead)
    offsets = tuple(k + 2 * i + 1 for i in range(m))
    order = offsets + tuple(range(k)) + tuple(k + 2 * i for i in range(m))
    moved = run("transpose", cut, axes=order)
    return run("reshape", moved, shape=(math.prod(blocks) * lead[0],) + lead[1:] +
               tuple(size // block for size, block in zip(spatial, blocks)))


def space_to_batch(input_x: Tensor, block_size: int, paddings: Any) -> Tensor:
    """:func:`space_to_batch_nd` of the 4-D ``input_x`` with the block ``(block_size, block_size)``.

    Raises:
        TypeError: if ``block_size`` is not an int. ValueError: if it is less than 2 or ``input_x`` is not 4-D.
    """
    _check_block("SpaceToBatch", "block_size", block_size)
    if len(input_x.shape) != 4:
        raise ValueError(f"For 'SpaceToBatch', the 'input_x' must be 4-D, but got shape {input_x.shape}.")
    return space_to_batch_nd(input_x, (block_size, block_size), paddings)


def padding(x: Tensor, pad_dim_size: int = 8) -> Tensor:
    """``x`` whose last dim is 1 extended with zeros to ``pad_dim_size``.

    Raises:
        ValueError: if ``pad_dim_size`` is not positive, ``x`` has rank below 2 or its last dim is not 1.
    """
    check_value_type("pad_dim_size", pad_dim_size, [int], "Padding")
    if pad_dim_size < 1:
        raise ValueError(f"For 'Padding', the 'pad_dim_size' must be positive, but got {pad_dim_size}.")
    if len(x.shape) < 2 or x.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the 'x' must have rank at least 2 and last dim 1, but got {x.shape}.")
    return pad(x, (0, pad_dim_size - 1))


def parallel_concat(values: Any) -> Tensor:
    """The tensors of ``values``, each of shape ``(1, ...)`` and all of one shape and dtype, joined on dim 0.

    Raises:
        TypeError: if an element is no Tensor or the dtypes differ. ValueError: if the shapes differ or a first
            dim is not 1.
    """
    check_value_type("values", values, [list, tuple], "ParallelConcat")
    if not values or any(not isinstance(value, Tensor) for value in values):
        raise TypeError("For 'ParallelConcat', the 'values' must be a non-empty list or tuple of Tensors.")
    if len({value.dtype for value in values}) != 1:
        raise TypeError("For 'ParallelConcat', the Tensors of 'values' must have one dtype.")
    if len({tuple(value.shape) for value in values}) != 1 or not values[0].shape or values[0].shape[0] != 1:
        raise ValueError(f"For 'ParallelConcat', the Tensors of 'values' must have one shape (1, ...), but got "
                         f"{[tuple(value.shape) for value in values]}.")
    return F.concat(tuple(values), 0)


def split_v(input_x: Tensor, size_splits: Any, split_dim: int, num_split: int) -> tuple:
    """``input_x`` cut along ``split_dim`` into ``num_split`` pieces of the sizes ``size_splits`` (one of them
    may be -1: the rest).

    Raises:
        TypeError: if ``size_splits`` is not a list/tuple of ints or ``split_dim``/``num_split`` not an int.
        ValueError: if there are not ``num_split`` sizes, they do not add up to the dim or ``split_dim`` is out
            of range.
    """
    name = "SplitV"
    check_value_type("size_splits", size_splits, [list, tuple], name)
    check_value_type("split_dim", split_dim, [int], name)
    check_value_type("num_split", num_split, [int], name)
    for size in size_splits:
        check_value_type("size_splits", size, [int], name)
    rank = len(input_x.shape)
    if not -rank <= split_dim < rank:
        raise ValueError(f"For '{name}', the 'split_dim' must be in range [{-rank}, {rank}), but got {split_dim}.")
    if len(size_splits) != num_split:
        raise ValueError(f"For '{name}', the length of 'size_splits' must be 'num_split' ({num_split}), but got "
                         f"{len(size_splits)}.")
    total = input_x.shape[split_dim]
    sizes = list(size_splits)
    if sizes.count(-1) == 1:
        sizes[sizes.index(-1)] = total - (sum(sizes) + 1)
    if sum(sizes) != total or min(sizes) < 0:
        raise ValueError(f"For '{name}', the sum of 'size_splits' must be the size of dim {split_dim} ({total}), "
                         f"but got {list(size_splits)}.")
    return tuple(F.split(input_x, sizes, split_dim))


def matrix_band_part(x: Tensor, lower: Any, upper: Any) -> Tensor:
    """``x`` with the entries of each innermost matrix outside the band zeroed: ``lower`` subdiagonals and
    ``upper`` superdiagonals are kept (negative: the whole triangle). ``lower``/``upper`` are ints or int
    Tensors (broadcast against the batch dims).

    Raises:
        ValueError: if ``x`` has rank below 2.
    """
    if len(x.shape) < 2:
        raise ValueError(f"For 'MatrixBandPart', the rank of 'x' must be at least 2, but got {len(x.shape)}.")
    m, n = x.shape[-2:]
    below = Tensor(np.subtract.outer(np.arange(m), np.arange(n)), mstype.int64)   # row - column
    bounds = []
    for bound in (lower, upper):
        if isinstance(bound, Tensor):
            bound = run("expand_dims", run("expand_dims", run("cast", bound, dtype=np.int64), axis=-1), axis=-1)
        bounds.append(bound)
    keep_lower = run("logical_or", run("less", bounds[0], 0), run("less_equal", below, bounds[0]))
    keep_upper = run("logical_or", run("less", bounds[1], 0), run("less_equal", run("neg", below), bounds[1]))
    return run("where", run("logical_and", keep_lower, keep_upper), x, run("zeros_like", x))


def _indices(name: str, lower: bool, row: Any, col: Any, offset: Any, dtype: Any) -> Tensor:
    for argument, value in (("row", row), ("col", col), ("offset", offset)):
        check_value_type(argument, value, [int], name)
    if dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'dtype' must be int32 or int64, but got {dtype}.")
    if row < 0 or col < 0:
        raise ValueError(f"For '{name}', the 'row' and 'col' must be non-negative, but got {row} and {col}.")
    cells = [(r, c) for r in range(row) for c in range(col) if (c - r <= offset if lower else c - r >= offset)]
    return Tensor([[r for r, _ in cells], [c for _, c in cells]], dtype)


def tril_indices(row: int, col: int, offset: int = 0, dtype: Any = mstype.int32) -> Tensor:
    """The (2, k) coordinates of the lower triangle (the ``offset`` diagonal and below) of a ``row x col``
    matrix, row by row."""
    return _indices("TrilIndices", True, row, col, offset, dtype)


def triu_indices(row: int, col: int, offset: int = 0, dtype: Any = mstype.int32) -> Tensor:
    """The (2, k) coordinates of the upper triangle (the ``offset`` diagonal and above) of a ``row x col``
    matrix, row by row."""
    return _indices("TriuIndices", False, row, col, offset, dtype)


def unravel_index(indices: Tensor, dims: Tensor) -> Tensor:
    """The coordinates in an array of shape ``dims`` of the flat positions ``indices``: shape (len(dims), N)
    for 1-D ``indices``, (len(dims),) for a scalar; the dtype of ``indices``.

    Raises:
        TypeError: if ``indices`` and ``dims`` are not both int32 or both int64.
        ValueError: if ``dims`` is not 1-D or ``indices`` not 0-D or 1-D.
    """
    name = "UnravelIndex"
    if not isinstance(indices, Tensor) or not isinstance(dims, Tensor) or indices.dtype != dims.dtype \
            or indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'indices' and 'dims' must be Tensors of one dtype, int32 or int64.")
    if len(dims.shape) != 1 or len(indices.shape) > 1:
        raise ValueError(f"For '{name}', the 'dims' must be 1-D and 'indices' 0-D or 1-D, but got shapes "
                         f"{dims.shape} and {indices.shape}.")
    coordinates = []
    for axis in range(dims.shape[0]):
        stride = run("prod", run("getitem", dims, index=slice(axis + 1, None)))
        size = run("getitem", dims, index=axis)
        coordinates.append(run("mod", run("floor_div", indices, stride), size))
    return F.cast(F.stack(coordinates, 0), indices.dtype)


def upper_bound(sorted_x: Tensor, values: Tensor, out_type: Any = mstype.int32) -> Tensor:
    """For each row ``r`` of the 2-D ``values``, the number of entries of row ``r`` of the 2-D ``sorted_x``
    (ascending) not greater than each value: where it would be inserted after its equals.

    Raises:
        TypeError: if the dtypes differ or ``out_type`` is not int32/int64.
        ValueError: if either is not 2-D or their row counts differ.
    """
    name = "UpperBound"
    if out_type not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'out_type' must be int32 or int64, but got {out_type}.")
    if sorted_x.dtype != values.dtype:
        raise TypeError(f"For '{name}', the 'sorted_x' and 'values' must have one dtype, but got "
                        f"{sorted_x.dtype} and {values.dtype}.")
    if len(sorted_x.shape) != 2 or len(values.shape) != 2 or sorted_x.shape[0] != values.shape[0]:
        raise ValueError(f"For '{name}', the 'sorted_x' and 'values' must be 2-D with one row count, but got "
                         f"shapes {sorted_x.shape} and {values.shape}.")
    below = run("less_equal", run("expand_dims", sorted_x, axis=1), run("expand_dims", values, axis=2))
    return F.cast(run("sum", run("cast", below, dtype=np.int64), axis=2), out_type)
