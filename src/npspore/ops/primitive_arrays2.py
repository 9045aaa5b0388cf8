"""Small compositions behind the arrays2 rows of the primitive table (:mod:`npspore.ops.primitive_table`):
``CountNonZero``, ``FillV2``, ``InplaceSub``, ``InplaceUpdate``, ``ChannelShuffle``, ``HSVToRGB``,
``AdaptiveAvgPool3D``, ``AdaptiveMaxPool2D``, ``FillDiagonal``, ``InplaceIndexAdd``, ``HistogramFixedWidth``,
``BatchToSpace``, ``BatchToSpaceND``, ``ConfusionMatrix``, ``EmbeddingLookup``, ``CompareAndBitpack``,
``IndexPut``, ``AdjustHue``, ``AdjustSaturation``, ``Conv3D``, ``UniqueConsecutive`` and ``DynamicShape``, written with existing ops (so differentiable and compiled as
they are).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import array_functional as A
from . import array_extra as arr
from . import functional as F
from . import math_functional as M
from . import nn_functional as nnf
from . import scatter_ops as sc
from .nn_array_primitives import TensorShape, index_add, inplace_add
from .eager import run
from .image_color import rgb_to_hsv
from .numeric import _check_tensor
from .primitive_arrays_a_l import inplace_update_v2


def count_nonzero_dims(x: Tensor, dims: Any = None) -> Tensor:
    """The int64 number of nonzero elements of ``x`` over ``dims`` (None or ``[]``: all)."""
    axis = () if dims is None else (dims if isinstance(dims, int) else tuple(dims))
    return M.count_nonzero(x, axis, dtype=mstype.int64)


def fill_v2(shape: Any, value: Tensor) -> Tensor:
    """A Tensor of ``shape`` (a 1-D int Tensor, tuple or list) filled with the 0-d Tensor ``value``, in its dtype."""
    _check_tensor("FillV2", "value", value)
    if isinstance(shape, Tensor):
        shape = tuple(int(size) for size in shape.asnumpy().reshape(-1))
    return F.fill(value.dtype, shape, value)


def inplace_sub(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x`` with ``v``'s rows subtracted from its rows ``indices`` (an int or a tuple of ints)."""
    return inplace_add(x, F.neg(v), indices)


def inplace_update(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x`` with its rows ``indices`` (an int or a tuple of ints) replaced by the rows of ``v``."""
    return inplace_update_v2(x, indices, v)


def channel_shuffle(x: Tensor, group: int) -> Tensor:
    """The channels (dim 1) of ``x (N, C, ...)``, at least 4-D, as ``group`` groups interleaved."""
    _check_tensor("ChannelShuffle", "x", x)
    shape = tuple(x.shape)
    if len(shape) <= 3:
        raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {len(shape)}.")
    if group <= 0 or shape[1] % group:
        raise ValueError(f"For ChannelShuffle, the 'group' must be a positive divisor of the channels {shape[1]}, "
                         f"but got {group}.")
    grouped = F.reshape(x, (shape[0], group, shape[1] // group) + shape[2:])
    return F.reshape(F.transpose(grouped, (0, 2, 1) + tuple(range(3, len(shape) + 1))), shape)


def hsv_to_rgb(images: Tensor) -> Tensor:
    """The RGB of the 4-D HSV ``images (N, H, W, 3)`` (all in [0, 1])."""
    _check_tensor("HSVToRGB", "images", images)
    if len(images.shape) != 4 or images.shape[-1] != 3:
        raise ValueError(f"For 'HSVToRGB', the 'images' must be 4-D with last dim 3, but got {images.shape}.")
    return _rgb_of_hsv(images[..., 0], images[..., 1], images[..., 2])


def _rgb_of_hsv(hue: Tensor, saturation: Tensor, value: Tensor) -> Tensor:
    """The RGB ``(..., 3)`` of hue, saturation and value: channel ``n`` of (5, 3, 1) is
    ``v - v s clip(min(k, 4 - k), 0, 1)`` with ``k = (n + 6 h) mod 6``."""
    channels = []
    for offset in (5.0, 3.0, 1.0):
        k = M.floor_mod(hue * 6.0 + offset, 6.0)
        ramp = F.maximum(F.minimum(F.minimum(k, 4.0 - k), 1.0), 0.0)
        channels.append(value - value * saturation * ramp)
    return F.stack(channels, -1)


def _hsv_channels(name: str, image: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """The hue, saturation and value of the RGB ``image (..., 3)``, at least 3-D."""
    _check_tensor(name, "image", image)
    if len(image.shape) < 3 or image.shape[-1] != 3:
        raise ValueError(f"For '{name}', the 'image' must be at least 3-D with last dim 3, but got {image.shape}.")
    hsv = rgb_to_hsv(image)
    return hsv[..., 0], hsv[..., 1], hsv[..., 2]


def adjust_hue(image: Tensor, delta: Tensor | float) -> Tensor:
    """The RGB ``image (..., 3)`` with its hue turned by ``delta`` (a fraction of the circle)."""
    hue, saturation, value = _hsv_channels("AdjustHue", image)
    return _rgb_of_hsv(M.floor_mod(hue + delta, 1.0), saturation, value)


def adjust_saturation(image: Tensor, scale: Tensor | float) -> Tensor:
    """The RGB ``image (..., 3)`` with its saturation scaled by ``scale`` (clipped to [0, 1])."""
    hue, saturation, value = _hsv_channels("AdjustSaturation", image)
    return _rgb_of_hsv(hue, F.maximum(F.minimum(saturation * scale, 1.0), 0.0), value)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """The mean over near-equal windows of the last three dims (window ``i`` of a dim of size ``L`` into ``n``:
    ``floor(i L / n)`` to ``ceil((i + 1) L / n)``), ``output_size`` an int or a triple (None keeps a dim)."""
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    ndim = len(input.shape)
    for offset, count in enumerate(sizes):
        axis = ndim - 3 + offset
        length = input.shape[axis]
        count = length if count is None else count
        windows = [(i * length // count, -(-(i + 1) * length // count)) for i in range(count)]
        input = run("concat", *[run("mean", run("getitem", input, index=(Ellipsis,) + (slice(None),) * offset
                                                  + (slice(start, end),) + (slice(None),) * (2 - offset)),
                                    axis=(axis,), keepdims=True) for start, end in windows], axis=axis)
    return input


def adaptive_max_pool2d(x: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    """``(maxima, int64 flat (H, W) argmax)`` of ``output_size`` windows spanning ``x (N, C, H, W)``."""
    return nnf.adaptive_max_pool2d(x, output_size, return_indices=True)


def fill_diagonal(x: Tensor, fill_value: float, wrap: bool = False) -> Tensor:
    """``x`` (2-D, or N-D with equal dims) with its main diagonal set to ``fill_value``; with ``wrap``, a tall
    matrix's diagonal starts again after each ``cols + 1`` rows (NumPy's ``fill_diagonal``)."""
    _check_tensor("FillDiagonal", "input_x", x)
    shape = tuple(x.shape)
    if len(shape) < 2 or (len(shape) > 2 and len(set(shape)) != 1):
        raise ValueError(f"For 'FillDiagonal', the 'input_x' must be 2-D or have all dims equal, but got {shape}.")
    size, step = 1, 0   # step: the flat distance between diagonal elements (the sum of the C strides)
    for dim in reversed(shape):
        step += size
        size *= dim
    end = size if wrap or len(shape) > 2 else min(size, shape[1] * shape[1])
    flat = F.cast(F.arange(0, size), mstype.int64)
    mask = F.reshape(F.logical_and(F.equal(M.floor_mod(flat, step), 0), F.less(flat, end)), shape)
    return F.where(mask, F.cast(Tensor(fill_value), x.dtype), x)


def inplace_index_add(var: Tensor, indices: Tensor, updates: Tensor, axis: int) -> Tensor:
    """``updates``' slices along ``axis`` added to the slices ``indices`` of the Parameter ``var`` (repeats add)."""
    return index_add(var, indices, updates, axis)


def histogram_fixed_width(x: Tensor, value_range: Tensor, nbins: int, dtype: str = "int32") -> Tensor:
    """The int32 counts of ``x`` in ``nbins`` equal bins of ``value_range = [lo, hi]`` (values below ``lo`` count
    in the first bin, at or above ``hi`` in the last)."""
    _check_tensor("HistogramFixedWidth", "x", x)
    _check_tensor("HistogramFixedWidth", "range", value_range)
    if nbins < 1:
        raise ValueError(f"For 'HistogramFixedWidth', the 'nbins' must be at least 1, but got {nbins}.")
    if dtype != "int32":
        raise ValueError(f"For 'HistogramFixedWidth', the 'dtype' must be 'int32', but got {dtype!r}.")
    values = F.reshape(F.cast(x, mstype.float32), (-1, 1))
    bounds = F.cast(value_range, mstype.float32)
    scaled = (values - bounds[0]) / (bounds[1] - bounds[0]) * float(nbins)
    bins = F.cast(F.maximum(F.minimum(A.floor(scaled), float(nbins - 1)), 0.0), mstype.int32)
    return M.count_nonzero(F.equal(bins, Tensor(np.arange(nbins, dtype=np.int32))), 0, dtype=mstype.int32)


def batch_to_space_nd(input_x: Tensor, block_shape: Any, crops: Any) -> Tensor:
    """The inverse of ``SpaceToBatchND``: the batch of ``input_x (B, C, *spatial)`` split into ``block_shape``
    blocks interleaved into the spatial dims, then ``crops[i] = [start, end]`` cut from spatial dim ``i``."""
    _check_tensor("BatchToSpaceND", "input_x", input_x)
    shape = tuple(input_x.shape)
    spatial = len(shape) - 2
    blocks = (block_shape,) * spatial if isinstance(block_shape, int) else tuple(block_shape)
    if len(blocks) != spatial or any(not isinstance(b, int) or b < 1 for b in blocks):
        raise ValueError(f"For 'BatchToSpaceND', the 'block_shape' must be {spatial} positive ints, but got "
                         f"{block_shape}.")
    if len(crops) != spatial or any(len(pair) != 2 or min(pair) < 0 for pair in crops):
        raise ValueError(f"For 'BatchToSpaceND', the 'crops' must be {spatial} pairs of non-negative ints, but got "
                         f"{crops}.")
    product = 1
    for block in blocks:
        product *= block
    if shape[0] % product:
        raise ValueError(f"For 'BatchToSpaceND', the batch {shape[0]} of 'input_x' must be divisible by the product "
                         f"of 'block_shape' {product}.")
    batch = shape[0] // product
    split = F.reshape(input_x, blocks + (batch,) + shape[1:])
    order = (spatial, spatial + 1) + tuple(axis for i in range(spatial) for axis in (spatial + 2 + i, i))
    merged = F.reshape(F.transpose(split, order),
                       (batch, shape[1]) + tuple(size * b for size, b in zip(shape[2:], blocks)))
    cut = (slice(None), slice(None)) + tuple(slice(start, size * b - end)
                                           for (start, end), size, b in zip(crops, shape[2:], blocks))
    return merged[cut]


def batch_to_space(input_x: Tensor, block_size: int, crops: Any) -> Tensor:
    """``batch_to_space_nd`` of the 4-D ``input_x`` with the block ``(block_size, block_size)``."""
    if not isinstance(block_size, int) or block_size < 2:
        raise ValueError(f"For 'BatchToSpace', the 'block_size' must be an int of at least 2, but got {block_size}.")
    return batch_to_space_nd(input_x, (block_size, block_size), crops)


def confusion_matrix(labels: Tensor, predictions: Tensor, weights: Tensor | None = None, num_classes: int = 0,
                     dtype: str = "int32") -> Tensor:
    """The ``(num_classes, num_classes)`` matrix whose ``[label, prediction]`` entries sum ``weights`` (ones by
    default), as ``dtype``."""
    _check_tensor("ConfusionMatrix", "labels", labels)
    _check_tensor("ConfusionMatrix", "predictions", predictions)
    if labels.shape != predictions.shape or len(labels.shape) != 1:
        raise ValueError(f"For 'ConfusionMatrix', the 'labels' and 'predictions' must be 1-D of one shape, but got "
                         f"{labels.shape} and {predictions.shape}.")
    out_dtype = getattr(mstype, dtype, None) if isinstance(dtype, str) else None
    if not isinstance(out_dtype, mstype.Type):
        raise ValueError(f"For 'ConfusionMatrix', the 'dtype' must name a dtype, but got {dtype!r}.")
    pairs = F.stack((F.cast(labels, mstype.int64), F.cast(predictions, mstype.int64)), 1)
    counts = F.ones(labels.shape, out_dtype) if weights is None else F.cast(weights, out_dtype)
    return sc.tensor_scatter_add(F.zeros((num_classes, num_classes), out_dtype), pairs, counts)


def embedding_lookup(input_params: Tensor, input_indices: Tensor, offset: int) -> Tensor:
    """The rows ``input_indices - offset`` of ``input_params`` (zeros where that is outside its rows)."""
    _check_tensor("EmbeddingLookup", "input_params", input_params)
    _check_tensor("EmbeddingLookup", "input_indices", input_indices)
    rows = F.cast(input_indices, mstype.int64) - offset
    inside = F.logical_and(F.greater_equal(rows, 0), F.less(rows, input_params.shape[0]))
    picked = F.gather(input_params, F.where(inside, rows, 0), 0)
    keep = F.reshape(F.cast(inside, input_params.dtype), tuple(rows.shape) + (1,) * (len(input_params.shape) - 1))
    return picked * keep


def compare_and_bitpack(x: Tensor, threshold: Tensor) -> Tensor:
    """The bits ``x > threshold`` packed eight to a uint8 along the last dim (first element in the high bit)."""
    _check_tensor("CompareAndBitpack", "x", x)
    shape = tuple(x.shape)
    if not shape or shape[-1] % 8:
        raise ValueError(f"For 'CompareAndBitpack', the last dim of 'x' must be a multiple of 8, but got {shape}.")
    bits = F.cast(F.reshape(F.greater(x, threshold), shape[:-1] + (shape[-1] // 8, 8)), mstype.int32)
    weights = Tensor(np.array([128, 64, 32, 16, 8, 4, 2, 1], np.int32))
    return F.cast(F.reduce_sum(bits * weights, -1), mstype.uint8)


def index_put(x1: Tensor, x2: Tensor, indices: Any, accumulate: int = 0) -> Tensor:
    """``x1`` with the positions the index Tensors ``indices`` (over its leading dims) set to (or, with
    ``accumulate``, added) ``x2`` broadcast."""
    _check_tensor("IndexPut", "x1", x1)
    _check_tensor("IndexPut", "x2", x2)
    if not isinstance(indices, (list, tuple)) or not 0 < len(indices) <= len(x1.shape):
        raise ValueError(f"For 'IndexPut', the 'indices' must be a list of 1 to {len(x1.shape)} Tensors, but got "
                         f"{indices}.")
    if accumulate not in (0, 1):
        raise ValueError(f"For 'IndexPut', the 'accumulate' must be 0 or 1, but got {accumulate}.")
    count = max(index.shape[0] for index in indices)
    positions = F.stack([F.broadcast_to(F.cast(index, mstype.int64), (count,)) for index in indices], 1)
    updates = F.broadcast_to(F.cast(x2, x1.dtype), (count,) + tuple(x1.shape[len(indices):]))
    scatter = sc.tensor_scatter_add if accumulate else sc.tensor_scatter_update
    return scatter(x1, positions, updates)


def conv3d(x: Tensor, weight: Tensor, bias: Tensor | None = None, *, out_channel: int, kernel_size: Any,
           mode: int = 1, pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1, group: int = 1,
           data_format: str = "NCDHW") -> Tensor:
    """``Conv3D``'s cross-correlation of ``x (N, C, D, H, W)`` with ``weight (out_channel, C/group, *kernel_size)``
    (``stride``/``dilation`` an int, a triple or an ``(1, 1, d, h, w)`` 5-tuple)."""
    _check_tensor("Conv3D", "weight", weight)
    kernel = (kernel_size,) * 3 if isinstance(kernel_size, int) else tuple(kernel_size)
    if tuple(weight.shape[:1]) + tuple(weight.shape[2:]) != (out_channel,) + kernel:
        raise ValueError(f"For 'Conv3D', the 'weight' must have shape ({out_channel}, C/group, *{kernel}), but got "
                         f"{weight.shape}.")
    if data_format != "NCDHW" or mode != 1:
        raise ValueError(f"For 'Conv3D', only 'data_format' NCDHW and 'mode' 1 are supported, but got "
                         f"{data_format!r} and {mode}.")
    stride, dilation = (value[2:] if isinstance(value, (tuple, list)) and len(value) == 5 else value
                        for value in (stride, dilation))
    return nnf.conv3d(x, weight, bias, stride, pad_mode, pad, dilation, group)


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """``(output, inverse, counts)``: ``input`` (flattened when ``dim`` is None) without the repeats of each run of
    equal elements (slices along ``dim``), each element's (slice's) int64 run number, and the int64 run lengths;
    ``inverse``/``counts`` are a 0-d int64 0 when not asked for (as MindSpore 2.10's primitive returns them)."""
    _check_tensor("UniqueConsecutive", "input", input)
    rank = len(input.shape)
    if dim is not None and not -rank <= dim < rank:
        raise ValueError(f"For 'UniqueConsecutive', the 'dim' must be in [{-rank}, {rank}), but got {dim}.")
    moved = F.reshape(input, (-1,)) if dim is None else arr.swapaxes(input, 0, dim % rank)
    length = moved.shape[0]
    rows = F.reshape(moved, (length, -1))
    changed = F.any(F.not_equal(rows[1:], rows[:-1]), 1)
    starts = F.concat((Tensor([True]), changed), 0)
    first = F.masked_select(F.cast(F.arange(0, length), mstype.int64), starts)
    kept = F.gather(moved, first, 0)
    output = kept if dim is None else arr.swapaxes(kept, 0, dim % rank)
    nothing = Tensor(0, mstype.int64)
    inverse = F.cumsum(F.cast(starts, mstype.int64), 0) - 1
    if dim is None:
        inverse = F.reshape(inverse, tuple(input.shape))
    counts = F.concat((first[1:], Tensor([length], mstype.int64)), 0) - first
    return output, inverse if return_inverse else nothing, counts if return_counts else nothing


def dynamic_shape(input_x: Tensor, dtype: int = 9) -> Tensor:
    """The deprecated ``DynamicShape(dtype=9)(x)``: ``TensorShape()(x)``, the int64 shape of ``input_x``."""
    _check_tensor("DynamicShape", "input_x", input_x)
    return TensorShape()(input_x)
