"""Image resampling as MindSpore's CPU ``Resize`` computes it (OpenCV's ``cv::resize``), in NumPy.

Bilinear (``INTER_LINEAR``): output pixel ``i`` samples the source at ``(i + 0.5) * in / out - 0.5``
(a float32), between two neighbours with weights ``1 - f`` and ``f``. Along the width, positions
outside the image are clamped to the border pixel; along the height only the row indices are
clamped, the weights are kept (so a border row is a weighted sum of the same row twice, which
matters for the rounding below). uint8 images use OpenCV's fixed-point arithmetic: weights scaled
by 2048 and rounded, a horizontal pass in integers, then the vertical pass of its SIMD kernel
(each product shifted down separately, then rounded), which is what makes results agree to the
last unit. Other integer images are interpolated in float32 and rounded; float images in their
own precision. Checked against MindSpore 2.10 on random images, up- and downscaling.

Nearest (``INTER_NEAREST``): output pixel ``i`` copies source pixel ``floor(i * in / out)``.

Bicubic (``INTER_CUBIC``): four taps around ``(i + 0.5) * in / out - 0.5`` with Keys' weights (``A = -0.75``, in
float32), indices clamped to the border. uint8 images: weights scaled by 2048 and rounded, a horizontal pass in
integers, and the vertical pass of OpenCV's SIMD kernel on each run of 8 values (float32, the fourth row's product
first, each product and sum rounded, then rounded half to even) and its fixed-point kernel on the rest of the row.
float32 images: the horizontal pass left to right, the vertical pass as the SIMD kernel on each run of 4 values and
left to right on the rest.

Area (``INTER_AREA``): shrinking by integer factors averages each block (as OpenCV's ``resizeAreaFast`` and its
SIMD kernels sum it, see ``_area_blocks``); shrinking by other factors weights the
source pixels by their overlap with each output pixel (OpenCV's decimation tables, accumulated in float32 in their
order); growing is bilinear with OpenCV's area weights. Bicubic and area results are checked against MindSpore
2.10 on uint8 and float32 images, up- and downscaling, to the last bit.
"""
from __future__ import annotations

import math

import numpy as np

_WEIGHT_BITS = 11
_WEIGHT_ONE = 1 << _WEIGHT_BITS


def _linear_taps(in_size, out_size, clamp_weights):
    """Source indices (low, high) and float32 weights (of low, of high) along one axis."""
    scale = 1.0 / (out_size / in_size)  # OpenCV's scale: the reciprocal of out/in, in double
    position = ((np.arange(out_size) + 0.5) * scale - 0.5).astype(np.float32)
    low = np.floor(position).astype(np.int64)
    fraction = (position - low).astype(np.float32)
    if clamp_weights:
        outside = (low < 0) | (low >= in_size - 1)
        fraction[outside] = 0
        low = np.where(low < 0, 0, np.where(low >= in_size - 1, in_size - 1, low))
    return (np.clip(low, 0, in_size - 1), np.clip(low + 1, 0, in_size - 1),
            np.float32(1) - fraction, fraction)


def _along(weights, axis, ndim):
    """``weights`` shaped to broadcast along ``axis`` of an image with ``ndim`` axes."""
    shape = [1] * ndim
    shape[axis] = -1
    return weights.reshape(shape)


def resize_linear(array, out_height, out_width):
    """``array`` (H, W) or (H, W, C) resized bilinearly to (out_height, out_width), keeping its dtype."""
    in_height, in_width = array.shape[:2]
    return _linear_with_taps(array, _linear_taps(in_height, out_height, clamp_weights=False),
                             _linear_taps(in_width, out_width, clamp_weights=True))


def _linear_with_taps(array, rows_taps, cols_taps):
    """The bilinear pass of :func:`resize_linear` with the given (low, high, weight of low, weight of high) taps."""
    top, bottom, w_top, w_bottom = rows_taps
    left, right, w_left, w_right = cols_taps
    ndim = array.ndim
    if array.dtype == np.uint8:
        def fixed(weights):
            return np.rint(weights * np.float32(_WEIGHT_ONE)).astype(np.int64)
        image = array.astype(np.int64)
        rows = image[:, left] * _along(fixed(w_left), 1, ndim) + image[:, right] * _along(fixed(w_right), 1, ndim)
        upper = ((rows[top] >> 4) * _along(fixed(w_top), 0, ndim)) >> 16
        lower = ((rows[bottom] >> 4) * _along(fixed(w_bottom), 0, ndim)) >> 16
        return np.clip((upper + lower + 2) >> 2, 0, 255).astype(np.uint8)
    compute = np.float64 if array.dtype == np.float64 else np.float32
    image = array.astype(compute)
    rows = image[:, left] * _along(w_left.astype(compute), 1, ndim) + \
        image[:, right] * _along(w_right.astype(compute), 1, ndim)
    resized = rows[top] * _along(w_top.astype(compute), 0, ndim) + \
        rows[bottom] * _along(w_bottom.astype(compute), 0, ndim)
    return _saturated(resized, array.dtype)


def _saturated(values, dtype):
    """``values`` in ``dtype``; integers rounded half to even and clamped, as OpenCV's ``saturate_cast``."""
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        values = np.clip(np.rint(values), info.min, info.max)
    return values.astype(dtype)


def resize_nearest(array, out_height, out_width):
    """``array`` resized to (out_height, out_width) by copying the nearest pixel at or before each sample."""
    in_height, in_width = array.shape[:2]
    rows = np.minimum(np.floor(np.arange(out_height) * (in_height / out_height)).astype(np.int64), in_height - 1)
    cols = np.minimum(np.floor(np.arange(out_width) * (in_width / out_width)).astype(np.int64), in_width - 1)
    return array[rows][:, cols]


# --------------------------------------------------------------------------------------------- bicubic

_UINT8_LANES, _FLOAT_LANES = 8, 4   # values per step of OpenCV's SSE vertical kernels (uint8, float32)


def _cubic_taps(in_size, out_size):
    """Source indices (out_size, 4), clamped, and their float32 weights (out_size, 4)."""
    f32 = np.float32
    scale = 1.0 / (out_size / in_size)
    position = ((np.arange(out_size) + 0.5) * scale - 0.5).astype(f32)
    start = np.floor(position).astype(np.int64)
    x = (position - start).astype(f32)
    a, one = f32(-0.75), f32(1)
    w0 = ((a * (x + one) - f32(5) * a) * (x + one) + f32(8) * a) * (x + one) - f32(4) * a
    w1 = ((a + f32(2)) * x - (a + f32(3))) * x * x + one
    w2 = ((a + f32(2)) * (one - x) - (a + f32(3))) * (one - x) * (one - x) + one
    w3 = one - w0 - w1 - w2
    return np.clip(start[:, None] + np.arange(-1, 3), 0, in_size - 1), np.stack([w0, w1, w2, w3], -1).astype(f32)


def resize_cubic(array, out_height, out_width):
    """``array`` (H, W) or (H, W, C), uint8 or float, resized bicubically (see the module doc), keeping its dtype."""
    in_height, in_width = array.shape[:2]
    rows_index, rows_weight = _cubic_taps(in_height, out_height)
    cols_index, cols_weight = _cubic_taps(in_width, out_width)
    image = array.reshape(in_height, in_width, -1)
    if array.dtype == np.uint8:
        alpha = np.rint(cols_weight * np.float32(_WEIGHT_ONE)).astype(np.int64)
        beta = np.rint(rows_weight * np.float32(_WEIGHT_ONE)).astype(np.int64)
        source = image.astype(np.int64)
        rows = sum(source[:, cols_index[:, k]] * alpha[None, :, k, None] for k in range(4))
        out = _vertical_uint8(rows.reshape(in_height, -1), rows_index, beta)
    else:
        compute = np.float64 if array.dtype == np.float64 else np.float32
        source, weights = image.astype(compute), cols_weight.astype(compute)
        rows = source[:, cols_index[:, 0]] * weights[None, :, 0, None]
        for k in range(1, 4):
            rows = rows + source[:, cols_index[:, k]] * weights[None, :, k, None]
        lanes = _FLOAT_LANES if compute == np.float32 else 0
        out = _saturated(_vertical_float(rows.reshape(in_height, -1), rows_index, rows_weight.astype(compute), lanes),
                         array.dtype)
    return out.reshape((out_height, out_width) + array.shape[2:])


def _vertical_uint8(rows, index, beta):
    """OpenCV's vertical cubic pass of uint8 images: SIMD float32 steps, then the fixed-point tail of each row."""
    width = rows.shape[1]
    simd = width // _UINT8_LANES * _UINT8_LANES
    scale = np.float32(1.0 / (_WEIGHT_ONE * _WEIGHT_ONE))
    taps = [rows[index[:, k]] for k in range(4)]
    acc = taps[3][:, :simd].astype(np.float32) * (beta[:, 3:4].astype(np.float32) * scale)
    for k in (2, 1, 0):
        acc = (taps[k][:, :simd].astype(np.float32) * (beta[:, k:k + 1].astype(np.float32) * scale)) + acc
    tail = sum(taps[k][:, simd:] * beta[:, k:k + 1] for k in range(4))
    out = np.concatenate([np.rint(acc), (tail + (1 << 21)) >> 22], axis=1)
    return np.clip(out, 0, 255).astype(np.uint8)


def _vertical_float(rows, index, beta, lanes):
    """OpenCV's vertical cubic pass of float images: SIMD steps of ``lanes`` values (0: none), then the tail."""
    simd = rows.shape[1] // lanes * lanes if lanes else 0
    taps = [rows[index[:, k]] for k in range(4)]
    vector = taps[3][:, :simd] * beta[:, 3:4]
    for k in (2, 1, 0):
        vector = taps[k][:, :simd] * beta[:, k:k + 1] + vector
    scalar = taps[0][:, simd:] * beta[:, 0:1]
    for k in (1, 2, 3):
        scalar = scalar + taps[k][:, simd:] * beta[:, k:k + 1]
    return np.concatenate([vector, scalar], axis=1)


# ------------------------------------------------------------------------------------------------ area


def resize_area(array, out_height, out_width):
    """``array`` (H, W) or (H, W, C), uint8 or float, resized by pixel area (see the module doc), keeping its dtype."""
    in_height, in_width = array.shape[:2]
    scale_x, scale_y = in_width / out_width, in_height / out_height
    if scale_x < 1 or scale_y < 1:
        return _linear_with_taps(array, _area_growing_taps(in_height, out_height, clamp_weights=False),
                                 _area_growing_taps(in_width, out_width, clamp_weights=True))
    image = array.reshape(in_height, in_width, -1)
    if scale_x == int(scale_x) and scale_y == int(scale_y):
        out = _area_blocks(image, int(scale_y), int(scale_x), array.dtype)
    else:
        out = _area_overlaps(image, out_height, out_width, array.dtype)
    return out.reshape((out_height, out_width) + array.shape[2:])


def _area_growing_taps(in_size, out_size, clamp_weights):
    """OpenCV's bilinear taps for growing by area: the weight of the next pixel is the fraction of the output
    pixel past the source pixel's end."""
    inverse = out_size / in_size
    scale = 1.0 / inverse
    out = np.arange(out_size)
    low = np.floor(out * scale).astype(np.int64)
    fraction = ((out + 1) - (low + 1) * inverse).astype(np.float32)
    fraction = np.where(fraction <= 0, np.float32(0), fraction - np.floor(fraction)).astype(np.float32)
    if clamp_weights:
        fraction[(low < 0) | (low >= in_size - 1)] = 0
    return (np.clip(low, 0, in_size - 1), np.clip(low + 1, 0, in_size - 1), np.float32(1) - fraction, fraction)


def _area_blocks(image, block_h, block_w, dtype):
    """The average of each ``block_h`` x ``block_w`` block, as OpenCV's ``resizeAreaFast`` sums it: 2 x 2 blocks of
    1, 3 or 4 uint8 channels ``(sum + 2) >> 2`` (its SIMD kernel), of 1 or 4 float32 channels pairwise
    ``((a + b) + (c + d)) * 0.25`` on its SIMD steps; otherwise the block's values in row-major order, by groups of
    four summed left to right then added to the total, times the float reciprocal of the area."""
    height, width, channels = image.shape
    blocks = image.reshape(height // block_h, block_h, width // block_w, block_w, channels)
    pairs = block_h == block_w == 2
    if dtype == np.uint8:
        total = blocks.astype(np.int64).sum(axis=(1, 3))
        if pairs and channels in (1, 3, 4):
            return np.clip((total + 2) >> 2, 0, 255).astype(np.uint8)
        return _saturated(total.astype(np.float32) * np.float32(1.0 / (block_h * block_w)), dtype)
    compute = np.float64 if dtype == np.float64 else np.float32
    terms = [blocks[:, i, :, j].astype(compute) for i in range(block_h) for j in range(block_w)]
    total = np.zeros(terms[0].shape, compute)
    grouped = len(terms) // 4 * 4
    for k in range(0, grouped, 4):
        total = total + (((terms[k] + terms[k + 1]) + terms[k + 2]) + terms[k + 3])
    for term in terms[grouped:]:
        total = total + term
    out = (total * compute(1.0 / (block_h * block_w))).reshape(total.shape[0], -1)
    if pairs and compute == np.float32 and channels in (1, 4):   # the SIMD steps of 4 values
        simd = out.shape[1] // _FLOAT_LANES * _FLOAT_LANES
        paired = ((terms[0] + terms[1]) + (terms[2] + terms[3])) * np.float32(0.25)
        out[:, :simd] = paired.reshape(out.shape)[:, :simd]
    return _saturated(out.reshape(total.shape), dtype)


def _area_table(in_size, out_size):
    """OpenCV's decimation table along one axis: ``(output, source, float32 weight)`` in its order."""
    scale = in_size / out_size
    table = []
    for out in range(out_size):
        start, end = out * scale, out * scale + scale
        cell = min(scale, in_size - start)
        first, last = math.ceil(start), min(math.floor(end), in_size - 1)
        first = min(first, last)
        if first - start > 1e-3:
            table.append((out, first - 1, (first - start) / cell))
        table += [(out, source, 1.0 / cell) for source in range(first, last)]
        if end - last > 1e-3:
            table.append((out, last, min(min(end - last, 1.0), cell) / cell))
    return table


def _by_rank(table):
    """The table's entries grouped by their rank within their output: ``[(outputs, sources, weights)]``."""
    ranks: dict[int, list] = {}
    seen: dict[int, int] = {}
    for out, source, weight in table:
        rank = seen.get(out, 0)
        seen[out] = rank + 1
        ranks.setdefault(rank, []).append((out, source, weight))
    return [(np.array([e[0] for e in entries]), np.array([e[1] for e in entries]),
             np.float32([e[2] for e in entries])) for _, entries in sorted(ranks.items())]


def _area_overlaps(image, out_height, out_width, dtype):
    """Each output pixel the overlap-weighted sum of the source pixels under it, accumulated as OpenCV's
    ``ResizeArea`` does: along each row in the table's order, then over rows in the table's order (float32)."""
    height, width, channels = image.shape
    compute = np.float64 if dtype == np.float64 else np.float32
    source = image.astype(compute)
    rows = np.zeros((height, out_width, channels), compute)
    for outs, sources, weights in _by_rank(_area_table(width, out_width)):
        rows[:, outs] = rows[:, outs] + source[:, sources] * weights.astype(compute)[None, :, None]
    out = np.zeros((out_height, out_width, channels), compute)
    for outs, sources, weights in _by_rank(_area_table(height, out_height)):
        out[outs] = out[outs] + weights.astype(compute)[:, None, None] * rows[sources]
    return _saturated(out, dtype)
