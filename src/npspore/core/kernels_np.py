"""The multi-statement NumPy lowerings that kernels call by name (``rt.im2col``, ``rt.col2im``,
``rt.max_pool2d``, ``rt.max_pool2d_grad``, ``rt.gather_last``, ``rt.scatter_last``, ``rt.scatter_last_add``,
``rt.add_at``, ``rt.split_parts``, ``rt.normalize``, ``rt.softmax``, ``rt.log_softmax_probs``): convolution columns and
their transpose, pooling windows, max pooling and its scatter, reading or writing one element per row along the last
axis (a classification loss's pick of each sample's label, and the gradient added back there), adding slices at
repeated indices (a gather's gradient), cutting an array into parts along an axis, a layer norm's normalization, and
softmax computed in one array (a large one in blocks of rows on :mod:`npspore.core.thread_pool`'s threads). They
import only NumPy and those core modules, so the op templates call them in eager mode (``codegen_templates/conv.py``,
``pooling.py``, ``selection.py``) and ``npspore.runtime`` re-exports them for the generated kernels, where a
convolution then reads as one or two lines.

Static arguments: ``stride=(sh, sw)``, ``padding=(top, bottom, left, right)``, ``dilation=(dh, dw)``;
all arrays are NCHW.
"""
from __future__ import annotations

import functools

import numpy as np

from .split_rows import blocks, worth_splitting
from .thread_pool import helper_count, run_blocks

__all__ = ["im2col", "col2im", "pool_windows", "max_pool2d", "max_pool2d_grad", "gather_last", "scatter_last",
           "scatter_last_add", "add_at", "split_parts", "normalize", "softmax", "log_softmax_probs", "reshape_keeping",
           "sign"]


_SIGN_OF_COMPLEX_IS_UNIT = int(np.__version__.split(".")[0]) >= 2


def sign(x):
    """``np.sign``, with NumPy 2's sign of a complex number, ``z / |z|`` (0 at 0), under NumPy 1.26 too (which gives
    the sign of the real part): the gradient of a complex ``abs`` reads it."""
    if _SIGN_OF_COMPLEX_IS_UNIT or np.asarray(x).dtype.kind != "c":
        return np.sign(x)
    x = np.asarray(x)
    magnitude = np.abs(x)
    return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude)).astype(x.dtype)


def _padded(x: np.ndarray, padding: tuple, fill: float = 0.0) -> np.ndarray:
    """``x`` with ``padding`` added around its last two dims (``x`` itself when there is none)."""
    if padding == (0, 0, 0, 0):
        return x
    return np.pad(x, ((0, 0), (0, 0), padding[:2], padding[2:]), constant_values=fill)


def im2col(x: np.ndarray, filter_shape: tuple, stride: tuple = (1, 1), padding: tuple = (0, 0, 0, 0),
           dilation: tuple = (1, 1), groups: int = 1, out: np.ndarray | None = None) -> np.ndarray:
    """The columns ``(groups, C/groups * KH * KW, N * OH * OW)`` of ``x (N, C, H, W)`` for a filter of
    ``filter_shape (O, C/groups, KH, KW)``: a strided view of the padded input, copied once (into ``out``,
    a C-contiguous array of that shape, when given)."""
    xp = _padded(x, padding)
    n, _, h, w = xp.shape
    cg, kh, kw = filter_shape[1:]
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    s = xp.strides
    view = np.lib.stride_tricks.as_strided(
        xp, shape=(groups, cg, kh, kw, n, oh, ow),
        strides=(cg * s[1], s[1], dilation[0] * s[2], dilation[1] * s[3], s[0], stride[0] * s[2], stride[1] * s[3]))
    if out is None:
        return view.reshape(groups, cg * kh * kw, n * oh * ow)
    np.copyto(out.reshape(view.shape), view)
    return out


def col2im(cols: np.ndarray, input_shape: tuple, filter_shape: tuple, stride: tuple = (1, 1),
           padding: tuple = (0, 0, 0, 0), dilation: tuple = (1, 1), groups: int = 1, batch_last: bool = False,
           out: np.ndarray | None = None) -> np.ndarray:
    """The transpose of :func:`im2col`: each column entry added back at its input pixel, in an array of
    ``input_shape`` (the batch dim from the column count; written into ``out``, an array of that shape and
    the columns' dtype, when given).

    One strided add per kernel tap into a channel-major buffer (each tap's columns are one contiguous
    block there). Measured on LeNet's shapes (tools/bench_conv_pool.py) this beats ``np.add.at`` on
    the overlapping windows view (4.5x slower), summing a strided view of zero-padded taps (1.3x
    slower) and the transposed convolution as one GEMM over the columns of the padded gradient
    (2.5x slower: it copies KH * KW times the gradient). ``batch_last``: the columns' pixels are in
    ``(OH, OW, N)`` order (``compiler/batchlastcolumns.py``), and the taps are added into ``(C, H, W, N)``,
    along rows of ``OW * N`` elements instead of ``OW``.
    """
    cg, kh, kw = filter_shape[1:]
    hp = input_shape[2] + padding[0] + padding[1]
    wp = input_shape[3] + padding[2] + padding[3]
    oh = (hp - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wp - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    channels, batch = groups * cg, cols.shape[-1] // (oh * ow)
    # grad: channel-major (C, N, H, W), or (C, H, W, N) with batch-last taps; ``to_nchw`` puts N, C first
    pixels: tuple
    if batch_last:
        taps, pixels, to_nchw = cols.reshape(channels, kh, kw, oh, ow, batch), (slice(None),), (3, 0, 1, 2)
    else:
        taps, pixels, to_nchw = cols.reshape(channels, kh, kw, batch, oh, ow), (slice(None),) * 2, (1, 0, 2, 3)
    in_place = out is not None and padding == (0, 0, 0, 0) and not batch_last
    if out is not None and in_place:
        grad = out.transpose(1, 0, 2, 3)       # channel-major, as the taps are
        grad.fill(0)
    else:
        grad = np.zeros((channels, hp, wp, batch) if batch_last else (channels, batch, hp, wp), cols.dtype)
    for i in range(kh):
        top = i * dilation[0]
        rows = slice(top, top + (oh - 1) * stride[0] + 1, stride[0])
        for j in range(kw):
            left = j * dilation[1]
            grad[pixels + (rows, slice(left, left + (ow - 1) * stride[1] + 1, stride[1]))] += taps[:, i, j]
    if out is not None and in_place:
        return out
    grad = grad.transpose(to_nchw)[:, :, padding[0]:padding[0] + input_shape[2],
                                   padding[2]:padding[2] + input_shape[3]]
    if out is None:
        return grad
    np.copyto(out, grad)
    return out


def pool_windows(x: np.ndarray, kernel_size: tuple, stride: tuple = (1, 1), padding: tuple = (0, 0, 0, 0),
                 dilation: tuple = (1, 1), fill: float = 0.0) -> np.ndarray:
    """The windows of ``x`` padded with ``fill``, as a strided view ``(N, C, OH, OW, KH, KW)`` (no copy
    unless there is padding)."""
    xp = _padded(x, padding, fill)
    n, c, h, w = xp.shape
    oh = (h - dilation[0] * (kernel_size[0] - 1) - 1) // stride[0] + 1
    ow = (w - dilation[1] * (kernel_size[1] - 1) - 1) // stride[1] + 1
    s = xp.strides
    return np.lib.stride_tricks.as_strided(
        xp, shape=(n, c, oh, ow) + tuple(kernel_size),
        strides=(s[0], s[1], stride[0] * s[2], stride[1] * s[3], dilation[0] * s[2], dilation[1] * s[3]))


def _taps(x: np.ndarray, kernel_size: tuple, stride: tuple, dilation: tuple, out_hw: tuple) -> list:
    """The windows' elements at each kernel tap, row-major: views ``(N, C, OH, OW)`` of ``x`` (basic slices, which
    NumPy makes faster than :func:`pool_windows`'s strided view)."""
    oh, ow = out_hw
    return [x[:, :, i * dilation[0]:i * dilation[0] + (oh - 1) * stride[0] + 1:stride[0],
              j * dilation[1]:j * dilation[1] + (ow - 1) * stride[1] + 1:stride[1]]
            for i in range(kernel_size[0]) for j in range(kernel_size[1])]


def _out_hw(hp: int, wp: int, kernel_size: tuple, stride: tuple, dilation: tuple) -> tuple:
    return ((hp - dilation[0] * (kernel_size[0] - 1) - 1) // stride[0] + 1,
            (wp - dilation[1] * (kernel_size[1] - 1) - 1) // stride[1] + 1)


def max_pool2d(x: np.ndarray, kernel_size: tuple, stride: tuple = (1, 1), padding: tuple = (0, 0, 0, 0),
               dilation: tuple = (1, 1), out: np.ndarray | None = None) -> np.ndarray:
    """The maximum of each ``-inf``-padded window: ``(N, C, OH, OW)``, one pass per kernel tap (written into
    ``out`` when given)."""
    xp = _padded(x, padding, -np.inf)
    taps = _taps(xp, kernel_size, stride, dilation, _out_hw(xp.shape[2], xp.shape[3], kernel_size, stride, dilation))
    if len(taps) == 1:
        if out is None:
            return taps[0].copy()
        np.copyto(out, taps[0])
        return out
    out = np.maximum(taps[0], taps[1], out=out)
    for tap in taps[2:]:
        np.maximum(out, tap, out=out)
    return out


def max_pool2d_grad(x: np.ndarray, pooled: np.ndarray, g: np.ndarray, kernel_size: tuple, stride: tuple = (1, 1),
                    padding: tuple = (0, 0, 0, 0), dilation: tuple = (1, 1),
                    out: np.ndarray | None = None) -> np.ndarray:
    """``g (N, C, OH, OW)`` sent to each window's first maximum of ``x``, in zeros shaped like ``x`` (written
    into ``out``, an array of that shape and ``g``'s dtype, when given); ``pooled`` is ``max_pool2d(x)``,
    which the forward already computed.

    A tap receives a window's gradient where it is not below the window's maximum and no earlier tap
    did (a window holding NaN, whose maximum is NaN, sends it to its first element); the last tap
    receives what is left. Windows that cannot overlap are written, not added into, and when they tile
    the input exactly no zeros are written first.
    """
    xp = _padded(x, padding, -np.inf)
    kh, kw = kernel_size
    hp, wp = xp.shape[2:]
    disjoint = stride[0] > dilation[0] * (kh - 1) and stride[1] > dilation[1] * (kw - 1)
    if out is None or padding != (0, 0, 0, 0):
        grad = np.zeros(x.shape[:2] + (hp, wp), g.dtype)
    else:
        grad = out
        tiled = tuple(dilation) == (1, 1) and tuple(stride) == tuple(kernel_size) and (
            pooled.shape[2] * kh, pooled.shape[3] * kw) == (hp, wp)
        if not (disjoint and tiled):
            grad.fill(0)
    out_hw = pooled.shape[2:]
    free = np.ones(pooled.shape, np.bool_)
    hit = np.empty(pooled.shape, np.bool_)
    taps = _taps(xp, kernel_size, stride, dilation, out_hw)
    for tap, (window, target) in enumerate(zip(taps, _taps(grad, kernel_size, stride, dilation, out_hw))):
        if tap == len(taps) - 1:
            hit = free
        else:
            np.less(window, pooled, out=hit)
            np.greater(free, hit, out=hit)     # free and not below the maximum
            free ^= hit
        if disjoint:
            np.multiply(g, hit, out=target)
        else:
            target += g * hit
    if grad is out:
        return out
    grad = grad[:, :, padding[0]:padding[0] + x.shape[2], padding[2]:padding[2] + x.shape[3]]
    if out is None:
        return grad
    np.copyto(out, grad)
    return out


def gather_last(x: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``np.take_along_axis(x, indices, axis=-1)`` for ``x`` and integer ``indices`` of one shape but the last
    dim (what the op's shape rule checked): the one fancy index NumPy builds for it, without its checks."""
    return x[_leading_indices(indices.shape) + (indices,)]


def scatter_last(g: np.ndarray, indices: np.ndarray, size: int) -> np.ndarray:
    """Zeros of ``g``'s shape with the last dim ``size`` (``-1``: ``g``'s own), ``g`` added at ``indices`` along the
    last axis, repeated indices adding up (the transpose of :func:`gather_last`, ``np.add.at`` at the positions
    ``np.put_along_axis`` writes; ``g`` and ``indices`` of one shape)."""
    out = np.zeros(g.shape if size == -1 else g.shape[:-1] + (size,), g.dtype)
    width = out.shape[-1]
    rows = np.arange(out.size // width if width else 0).reshape(g.shape[:-1] + (1,)) * width
    add_at(out.reshape(-1), (rows + np.where(indices < 0, indices + width, indices)).reshape(-1), g.reshape(-1))
    return out


def scatter_last_add(buffer: np.ndarray, g: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``buffer`` with ``g`` added at ``indices`` along its last axis, in place (``g`` and ``indices`` of one
    shape, ``buffer``'s but the last dim, one index per row); returns ``buffer``."""
    buffer[_leading_indices(g.shape) + (indices,)] += g
    return buffer


_ADD_AT_ROUNDS = 8   # rounds of distinct indices; later repeats of an index go to np.add.at


def add_at(target: np.ndarray, indices: np.ndarray, values: np.ndarray, axis: int = 0) -> None:
    """``np.add.at(target, (slice(None),) * axis + (indices,), values)``, in place, with the same bits.

    ``np.add.at`` adds one slice at a time (1.4 ms for an embedding gradient of 700 rows of 128 floats). Here
    the k-th occurrences of the indices are added together, round by round, with one fancy-indexed ``+=``
    (its indices then distinct); each slice of ``target`` takes its additions in the order of ``indices``
    (a stable sort), as ``np.add.at`` does, so the sums are bit-identical. Occurrences past the first
    :data:`_ADD_AT_ROUNDS` of an index (a padding id repeated throughout a batch) go to ``np.add.at``.

    Raises:
        IndexError: for an index out of ``target``'s bounds along ``axis``, as ``np.add.at`` does.
    """
    size = target.shape[axis]
    flat = np.asarray(indices).reshape(-1)
    if flat.size and (flat.min() < -size or flat.max() >= size):
        raise IndexError(f"index {flat.max() if flat.max() >= size else flat.min()} is out of bounds for axis "
                         f"{axis} with size {size}")
    flat = np.where(flat < 0, flat + size, flat)    # -1 and size - 1 name one slice: one group
    axis = axis % target.ndim
    moved = np.moveaxis(target, axis, 0)
    rows = np.moveaxis(np.broadcast_to(values, target.shape[:axis] + np.shape(indices) + target.shape[axis + 1:]),
                       tuple(range(axis, axis + np.ndim(indices))), tuple(range(np.ndim(indices))))
    rows = rows.reshape((flat.size,) + rows.shape[np.ndim(indices):])
    order = np.argsort(flat, kind="stable")
    grouped = flat[order]
    starts = np.ones(flat.size, bool)
    np.not_equal(grouped[1:], grouped[:-1], out=starts[1:])
    positions = np.arange(flat.size)
    rank = positions - np.maximum.accumulate(np.where(starts, positions, 0))
    for occurrence in range(min(_ADD_AT_ROUNDS, int(np.max(rank)) + 1 if rank.size else 0)):
        chosen = order[rank == occurrence]
        moved[flat[chosen]] += rows[chosen]
    later = np.sort(order[rank >= _ADD_AT_ROUNDS])
    if later.size:
        np.add.at(moved, flat[later], rows[later])


@functools.lru_cache(maxsize=64)
def _leading_indices(shape: tuple) -> tuple:
    """``arange`` of each dim of ``shape`` but the last, shaped to broadcast against an array of ``shape``.

    Made once per shape (a training step gathers and scatters at the same shape every call: 1.7 us a
    call saved); read-only, as they are shared by every call."""
    ones = (1,) * len(shape)
    aranges = tuple(np.arange(n).reshape(ones[:dim] + (n,) + ones[dim + 1:]) for dim, n in enumerate(shape[:-1]))
    for index in aranges:
        index.flags.writeable = False
    return aranges


def split_cuts(size: int, indices_or_sections) -> list:
    """The indices ``np.split`` cuts an axis of ``size`` at: ``indices_or_sections`` itself, or the cuts into
    that many equal parts.

    Raises:
        ValueError: if a number of sections does not divide the axis, as ``np.split`` does.
    """
    if not isinstance(indices_or_sections, (int, np.integer)):
        return list(indices_or_sections)
    if size % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    step = size // indices_or_sections
    return list(range(step, size, step))[:indices_or_sections - 1]


def split_parts(x: np.ndarray, indices_or_sections, axis: int = 0) -> tuple:
    """``tuple(np.split(x, indices_or_sections, axis=axis))``, the parts as basic slices: ``np.split`` loops in
    Python over swapped axes (8 us for an LSTM step's four gates, these 1.5 us).

    Raises:
        ValueError: if a number of sections does not divide the axis, as ``np.split`` does.
    """
    leading = (slice(None),) * (axis % x.ndim)
    bounds = [0, *split_cuts(x.shape[axis], indices_or_sections), None]
    return tuple(x[leading + (slice(start, stop),)] for start, stop in zip(bounds, bounds[1:]))


def normalize(x: np.ndarray, axis: tuple, eps: float) -> tuple:
    """``((x - mean) * rstd, rstd)`` over ``axis``, ``rstd = 1 / sqrt(var + eps)`` of the biased variance, kept
    as ones on ``axis`` (the ``normalize`` op). Over the last axis alone (a layer norm), each row's sum and sum of
    squares are products with a column of ones and with the row itself: NumPy's reductions over a short last axis
    are 2-4x slower (a layer norm of (64, 16, 128) float32: 138 us instead of 224)."""
    if axis == (x.ndim - 1,):
        n = x.shape[-1]
        centred = x - np.matmul(x, np.ones((n, 1), x.dtype)) / n
        squares = np.matmul(centred[..., None, :], centred[..., :, None]).reshape(centred.shape[:-1] + (1,))
    else:
        centred = x - x.mean(axis=axis, keepdims=True)
        squares = np.square(centred).sum(axis=axis, keepdims=True)
        n = x.size // squares.size if squares.size else 1
    rstd = 1 / np.sqrt(squares / n + eps)
    return np.multiply(centred, rstd, out=centred), rstd


# The work of a softmax per element, in :mod:`npspore.core.split_rows`'s element-statements: its ``exp`` costs about
# as much as a dozen additions (3.3 ns against 0.3 per float32 element on an AMD EPYC), so (16, 4, 64, 64) attention
# weights are split (1.05 ms instead of 1.82 on 2 cores) and so is anything from about 125,000 elements (0.60 ms
# instead of 0.95 at 131,072); at 64,000 the hand-over costs as much as it saves.
_SOFTMAX_WORK = 16
_LOG_SOFTMAX_PROBS_WORK = 18


def _row_blocks(x: np.ndarray, axis, work: int) -> tuple | None:
    """The ``(start, stop)`` blocks of rows in which a softmax of ``x`` over its last axis is computed on the pool's
    threads (:mod:`npspore.core.split_rows`'s rule for ``work`` element-statements per element), or None: one call.

    Each row is reduced over the same contiguous elements in a block as in the whole array, so the blocks give the
    same bits at any thread count."""
    if not isinstance(x, np.ndarray) or x.ndim < 2 or not x.flags.c_contiguous or not helper_count():
        return None
    if not isinstance(axis, int) or axis % x.ndim != x.ndim - 1 or not worth_splitting(x.shape, work):
        return None
    return blocks(x.shape)


def softmax(x: np.ndarray, axis) -> np.ndarray:
    """``exp(x - max) / sum(exp(x - max))`` over ``axis`` (an int or a tuple), computed in the one array the
    subtraction makes: the same ufuncs in the same order as three arrays, one allocation instead of three (attention
    weights of (16, 4, 64, 64) float32). A 0-d ``x`` (a NumPy scalar after the subtraction) is computed as such.
    A large array is computed in blocks of rows on the pool's threads (:func:`_row_blocks`: those attention weights
    among them)."""
    bounds = _row_blocks(x, axis, _SOFTMAX_WORK)
    if bounds is None:
        return _softmax(x, axis)
    out = np.empty_like(x)
    run_blocks(lambda start, stop: _softmax(x[start:stop], axis, out[start:stop]), bounds)
    return out


def _softmax(x: np.ndarray, axis, out: np.ndarray | None = None) -> np.ndarray:
    shifted = np.subtract(x, np.max(x, axis=axis, keepdims=True), out=out)
    if not isinstance(shifted, np.ndarray):
        e = np.exp(shifted)
        return e / np.sum(e, axis=axis, keepdims=True)
    np.exp(shifted, out=shifted)
    shifted /= np.sum(shifted, axis=axis, keepdims=True)
    return shifted


def log_softmax_probs(x: np.ndarray, axis) -> tuple:
    """``(log_softmax(x), softmax(x))`` over ``axis`` of an array ``x``: the log-probabilities with the bits of
    ``log_softmax``'s lowering, and the probabilities as the exponentials it sums times their sum's reciprocal (one
    pass, where ``exp(log_probs)`` would exponentiate again: a cross-entropy's gradient,
    ``compiler/softmaxprobs.py``). A large array is computed in blocks of rows on the pool's threads
    (:func:`_row_blocks`: T2's (700, 1000) logits in 2.3 ms instead of 4.6 on 2 cores)."""
    bounds = _row_blocks(x, axis, _LOG_SOFTMAX_PROBS_WORK)
    if bounds is None:
        return _log_softmax_probs(x, axis)
    log_probs, probs = np.empty_like(x), np.empty_like(x)
    run_blocks(lambda start, stop: _log_softmax_probs(x[start:stop], axis, log_probs[start:stop], probs[start:stop]),
               bounds)
    return log_probs, probs


def _log_softmax_probs(x: np.ndarray, axis, log_probs: np.ndarray | None = None,
                       probs: np.ndarray | None = None) -> tuple:
    shifted = np.subtract(x, x.max(axis=axis, keepdims=True), out=log_probs)
    probs = np.exp(shifted, out=probs)
    sums = probs.sum(axis=axis, keepdims=True)
    shifted -= np.log(sums)
    probs *= 1 / sums     # a product, not a quotient, per element: 0.23 ms instead of 0.38 on (700, 1000) float32
    return shifted, probs


def reshape_keeping(x: np.ndarray, shape: tuple) -> np.ndarray:
    """``x`` reshaped to ``shape``, whose ``None`` entries keep ``x``'s dims at their positions (dims a kernel
    knows only when it runs: ``x.reshape(x.shape[0], -1)`` with a dynamic batch is ``(None, -1)``)."""
    return x.reshape(tuple(x.shape[i] if d is None else d for i, d in enumerate(shape)))
