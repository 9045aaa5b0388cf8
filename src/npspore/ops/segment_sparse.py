"""Segment reductions, sparse-to-dense products and masked scatter behind MindSpore's primitives
``UnsortedSegmentSum``/``Max``/``Min``/``Prod``, ``SparseToDense``, ``SparseTensorDenseAdd``,
``SparseTensorDenseMatmul`` and ``MaskedScatter`` (their classes come from :mod:`primitive_table`).

Each is a composition of ops of the op table (a segment is the ``where`` of a membership mask, a sparse tensor
is :func:`scatter_nd` of its values), so it runs eagerly and compiled and is differentiable.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from .array_functional import arange, cumsum, scatter_nd
from .eager import run
from .numeric import _check_tensor

__all__ = ["unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
           "segment_sum", "segment_max", "segment_min", "segment_mean", "segment_prod",
           "sparse_to_dense", "sparse_tensor_dense_add", "sparse_tensor_dense_matmul", "masked_scatter"]

# how a segment's rows combine, and what an empty segment holds (None: the dtype's extreme)
# an empty max/min segment's value: the dtype's lowest/highest (Tensors: a Python float would be float32)
_EXTREMES = {getattr(mstype, name): tuple(Tensor(np.array(bound, name)) for bound in (kind(name).min, kind(name).max))
             for name, kind in (("float16", np.finfo), ("float32", np.finfo), ("float64", np.finfo),
                                ("int8", np.iinfo), ("int16", np.iinfo), ("int32", np.iinfo), ("int64", np.iinfo),
                                ("uint8", np.iinfo))}
_SEGMENT = {"sum": ("sum", 0), "prod": ("prod", 1), "max": ("max", "lowest"), "min": ("min", "highest")}


def _segment(name: str, kind: str, input_x: Tensor, segment_ids: Tensor, num_segments: Any) -> Tensor:
    _check_tensor(name, "input_x", input_x)
    if not isinstance(segment_ids, Tensor) or segment_ids.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'segment_ids' must be a Tensor of int32 or int64.")
    if isinstance(num_segments, Tensor):
        num_segments = int(num_segments.asnumpy())
    check_value_type("num_segments", num_segments, [int], name)
    if num_segments < 1:
        raise ValueError(f"For '{name}', the 'num_segments' must be positive, but got {num_segments}.")
    depth = len(segment_ids.shape)
    if tuple(input_x.shape[:depth]) != tuple(segment_ids.shape):
        raise ValueError(f"For '{name}', the shape of 'segment_ids' must be a prefix of the shape of 'input_x', "
                         f"but got {segment_ids.shape} and {input_x.shape}.")
    if segment_ids.size and int(segment_ids.asnumpy().max()) >= num_segments:
        raise ValueError(f"For '{name}', segment_ids value should be [0, {num_segments}), but got "
                         f"{int(segment_ids.asnumpy().max())}.")
    reduction, empty = _SEGMENT[kind]
    inner = tuple(input_x.shape[depth:])
    rows = run("reshape", input_x, shape=(-1,) + inner)
    count = rows.shape[0]
    ids = run("reshape", run("cast", segment_ids, dtype=np.int64), shape=(1, count) + (1,) * len(inner))
    segments = run("reshape", arange(num_segments, dtype=mstype.int64), shape=(num_segments, 1) + (1,) * len(inner))
    member = run("equal", segments, ids)   # (num_segments, count, 1...): ids out of range belong to none
    if isinstance(empty, str):
        lowest, highest = _EXTREMES[input_x.dtype]
        empty = lowest if empty == "lowest" else highest
    filler = empty if isinstance(empty, Tensor) else Tensor(empty, input_x.dtype)
    return run(reduction, run("where", member, run("expand_dims", rows, axis=0), filler), axis=1)


def unsorted_segment_sum(input_x: Tensor, segment_ids: Tensor, num_segments: Any) -> Tensor:
    """The sums of the slices of ``input_x`` with one id of ``segment_ids`` (whose shape is a prefix of
    ``input_x``'s): shape ``(num_segments,) + input_x.shape[segment_ids.ndim:]``; ids outside
    ``[0, num_segments)`` are dropped, an empty segment is 0.

    Raises:
        TypeError: if ``segment_ids`` is not int32/int64 or ``num_segments`` not an int.
        ValueError: if ``num_segments`` is not positive, the shapes do not fit or (as MindSpore's CPU kernel) an
            id is ``num_segments`` or more.
    """
    return _segment("UnsortedSegmentSum", "sum", input_x, segment_ids, num_segments)


def unsorted_segment_max(input_x: Tensor, segment_ids: Tensor, num_segments: Any) -> Tensor:
    """The elementwise maxima of the segments (see :func:`unsorted_segment_sum`); an empty segment holds the
    dtype's lowest value."""
    return _segment("UnsortedSegmentMax", "max", input_x, segment_ids, num_segments)


def unsorted_segment_min(input_x: Tensor, segment_ids: Tensor, num_segments: Any) -> Tensor:
    """The elementwise minima of the segments (see :func:`unsorted_segment_sum`); an empty segment holds the
    dtype's highest value."""
    return _segment("UnsortedSegmentMin", "min", input_x, segment_ids, num_segments)


def unsorted_segment_prod(input_x: Tensor, segment_ids: Tensor, num_segments: Any) -> Tensor:
    """The elementwise products of the segments (see :func:`unsorted_segment_sum`); an empty segment is 1."""
    return _segment("UnsortedSegmentProd", "prod", input_x, segment_ids, num_segments)


def _sorted_segment(name: str, kind: str, input_x: Tensor, segment_ids: Tensor) -> Tensor:
    """The ``kind`` reduction of the rows of ``input_x`` by the sorted ``segment_ids``: ``segment_ids[-1] + 1``
    rows, an empty segment 0 (1 for a product)."""
    _check_tensor(name, "input_x", input_x)
    if not isinstance(segment_ids, Tensor) or segment_ids.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'segment_ids' must be a Tensor of int32 or int64.")
    if len(segment_ids.shape) != 1 or not input_x.shape or segment_ids.shape[0] != input_x.shape[0]:
        raise ValueError(f"For '{name}', the 'segment_ids' must be 1-D of the size of the first dim of 'input_x', "
                         f"but got shapes {segment_ids.shape} and {input_x.shape}.")
    values = segment_ids.asnumpy()   # compiled code reads it when the kernel runs (MindSpore's JIT fallback)
    if int(values.min()) < 0 or bool((values[1:] < values[:-1]).any()):
        raise ValueError(f"For '{name}', the 'segment_ids' must be non-negative and sorted in ascending order.")
    count = int(values[-1]) + 1
    inner = (1,) * (len(input_x.shape) - 1)
    member = run("equal", run("expand_dims", arange(count, dtype=mstype.int64), axis=1),
                 run("expand_dims", run("cast", segment_ids, dtype=np.int64), axis=0))
    sizes = run("reshape", run("sum", run("cast", member, dtype=np.int64), axis=1), shape=(count,) + inner)
    if kind == "mean":
        total = _segment(name, "sum", input_x, segment_ids, count)
        return run("div", total, run("cast", run("maximum", sizes, 1), dtype=_np_dtype(input_x.dtype)))
    reduced = _segment(name, kind, input_x, segment_ids, count)
    if kind in ("sum", "prod"):   # an empty segment is already 0 or 1
        return reduced
    return run("where", run("greater", sizes, 0), reduced, run("zeros_like", reduced))


def segment_sum(input_x: Tensor, segment_ids: Tensor) -> Tensor:
    """The sums of the rows of ``input_x`` with one id of the sorted, non-negative ``segment_ids``:
    ``segment_ids[-1] + 1`` rows, an empty segment 0.

    Raises:
        TypeError: if ``segment_ids`` is not int32/int64. ValueError: if it is not 1-D of ``input_x``'s first dim,
            negative or unsorted.
    """
    return _sorted_segment("SegmentSum", "sum", input_x, segment_ids)


def segment_max(input_x: Tensor, segment_ids: Tensor) -> Tensor:
    """The elementwise maxima of the segments (see :func:`segment_sum`); an empty segment is 0."""
    return _sorted_segment("SegmentMax", "max", input_x, segment_ids)


def segment_min(input_x: Tensor, segment_ids: Tensor) -> Tensor:
    """The elementwise minima of the segments (see :func:`segment_sum`); an empty segment is 0."""
    return _sorted_segment("SegmentMin", "min", input_x, segment_ids)


def segment_mean(input_x: Tensor, segment_ids: Tensor) -> Tensor:
    """The means of the segments (see :func:`segment_sum`); an empty segment is 0."""
    return _sorted_segment("SegmentMean", "mean", input_x, segment_ids)


def segment_prod(input_x: Tensor, segment_ids: Tensor) -> Tensor:
    """The elementwise products of the segments (see :func:`segment_sum`); an empty segment is 1."""
    return _sorted_segment("SegmentProd", "prod", input_x, segment_ids)


def _static_shape(name: str, argument: str, shape: Any) -> tuple:
    """``shape`` (a tuple/list of ints, or a constant Tensor) as a tuple of ints."""
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    check_value_type(argument, shape, [tuple, list], name)
    if any(not isinstance(size, int) or size < 1 for size in shape):
        raise ValueError(f"For '{name}', the '{argument}' must be positive ints, but got {shape}.")
    return tuple(shape)


def _sparse(name: str, indices: Tensor, values: Tensor, shape: tuple) -> Tensor:
    """The dense tensor of ``shape`` holding ``values`` at the rows of ``indices`` (checked)."""
    if not isinstance(indices, Tensor) or indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'indices' must be a Tensor of int32 or int64.")
    _check_tensor(name, "values", values)
    if len(indices.shape) != 2 or indices.shape[1] != len(shape) or tuple(values.shape) != (indices.shape[0],):
        raise ValueError(f"For '{name}', the 'indices' must be (n, {len(shape)}) and 'values' (n,), but got "
                         f"{indices.shape} and {values.shape}.")
    return scatter_nd(indices, values, shape)


def sparse_to_dense(indices: Tensor, values: Tensor, sparse_shape: Any) -> Tensor:
    """The dense tensor of ``sparse_shape`` with ``values`` at ``indices`` (n rows of coordinates), 0 elsewhere.

    Raises:
        TypeError: if ``indices`` is not int32/int64. ValueError: if the shapes do not fit.
    """
    return _sparse("SparseToDense", indices, values, _static_shape("SparseToDense", "sparse_shape", sparse_shape))


def sparse_tensor_dense_add(x1_indices: Tensor, x1_values: Tensor, x1_shape: Any, x2: Tensor) -> Tensor:
    """The sparse tensor (``x1_indices``, ``x1_values``, ``x1_shape``) plus the dense ``x2``, in ``x2``'s shape
    (a Tensor ``x1_shape`` is taken to hold it).

    Raises:
        TypeError: if the dtypes of the values and ``x2`` differ. ValueError: if ``x1_shape`` is not ``x2``'s shape.
    """
    name = "SparseTensorDenseAdd"
    _check_tensor(name, "x2", x2)
    if isinstance(x1_shape, (tuple, list)) and tuple(x1_shape) != tuple(x2.shape):
        raise ValueError(f"For '{name}', the 'x1_shape' must be the shape of 'x2' {tuple(x2.shape)}, but got "
                         f"{x1_shape}.")
    if x1_values.dtype != x2.dtype:
        raise TypeError(f"For '{name}', the 'x1_values' and 'x2' must have one dtype, but got {x1_values.dtype} "
                        f"and {x2.dtype}.")
    return run("add", x2, _sparse(name, x1_indices, x1_values, tuple(x2.shape)))


def sparse_tensor_dense_matmul(indices: Tensor, values: Tensor, sparse_shape: Any, dense: Tensor,
                               adjoint_st: bool = False, adjoint_dt: bool = False) -> Tensor:
    """The (N, C) sparse tensor (``indices``, ``values``, ``sparse_shape``) times the 2-D ``dense``, either
    transposed first (``adjoint_st``/``adjoint_dt``).

    Raises:
        TypeError: if the flags are not bools or the dtypes differ. ValueError: if the shapes do not fit.
    """
    name = "SparseTensorDenseMatmul"
    check_value_type("adjoint_st", adjoint_st, [bool], name)
    check_value_type("adjoint_dt", adjoint_dt, [bool], name)
    _check_tensor(name, "dense", dense)
    shape = _static_shape(name, "sparse_shape", sparse_shape)
    if len(shape) != 2 or len(dense.shape) != 2:
        raise ValueError(f"For '{name}', the 'sparse_shape' and 'dense' must be 2-D, but got {shape} and "
                         f"{dense.shape}.")
    if values.dtype != dense.dtype:
        raise TypeError(f"For '{name}', the 'values' and 'dense' must have one dtype, but got {values.dtype} and "
                        f"{dense.dtype}.")
    sparse = _sparse(name, indices, values, shape)
    left = F.transpose(sparse, (1, 0)) if adjoint_st else sparse
    right = F.transpose(dense, (1, 0)) if adjoint_dt else dense
    if left.shape[1] != right.shape[0]:
        raise ValueError(f"For '{name}', the inner dims of the sparse {left.shape} and dense {right.shape} "
                         "operands must agree.")
    return run("matmul", left, right)


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """``input`` with the positions where the bool ``mask`` (broadcast to ``input``'s shape) is True filled
    with the elements of ``source`` in row-major order.

    Raises:
        TypeError: if ``mask`` is not bool or ``source`` has another dtype than ``input``.
        ValueError: if ``source`` has fewer elements than ``mask`` has True positions.
    """
    name = "MaskedScatter"
    for argument, value in (("input", input), ("mask", mask), ("source", source)):
        _check_tensor(name, argument, value)
    if mask.dtype != mstype.bool_:
        raise TypeError(f"For '{name}', the 'mask' must be a bool Tensor, but got {mask.dtype}.")
    if source.dtype != input.dtype:
        raise TypeError(f"For '{name}', the 'source' must have the dtype of 'input' {input.dtype}, but got "
                        f"{source.dtype}.")
    shape = tuple(input.shape)
    flat_mask = run("reshape", run("broadcast_to", mask, shape=shape), shape=(-1,))
    order = run("sub", cumsum(run("cast", flat_mask, dtype=np.int64), 0), 1)   # the source element of each True
    size = math.prod(source.shape)
    if size < flat_mask.shape[0]:   # too few elements can only be seen in the mask's values
        wanted = int(run("sum", run("cast", flat_mask, dtype=np.int64)).asnumpy())
        if wanted > size:
            raise ValueError(f"For '{name}', the 'source' must have at least as many elements as 'mask' has True "
                             f"positions ({wanted}), but got {size}.")
    taken = F.gather(run("reshape", source, shape=(-1,)), run("clip", order, 0, max(size - 1, 0)), 0)
    flat = run("where", flat_mask, taken, run("reshape", input, shape=(-1,)))
    return run("reshape", flat, shape=shape)
