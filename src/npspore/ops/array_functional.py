"""Array ops built from the op table's ops, as ``mindspore.ops``: ``reciprocal``, ``slice``,
``strided_slice``, ``gather_nd``, ``bias_add``, ``l2_normalize``, ``norm``, ``relu6``, ``pad``,
``scalar_to_tensor``, ``sigmoid_cross_entropy_with_logits``, ``tuple_to_array``, ``eye``,
``make_range``, ``identity``, ``tuple_len``, ``gather_d``, ``check_valid``, ``randn``, ``standard_normal``, ``rand``,
``arange``, ``floor``, ``repeat_elements``, ``cumsum``, ``unstack``, ``normal``, ``sort``,
``round``, ``linspace``, ``uniform`` and ``meshgrid``.

Each is written in the compilable subset over ops that carry their own adjoints (``div``,
``getitem``, ``gather``, ``where`` ...), so it runs eagerly and compiled and differentiates as
those ops do. Index arithmetic on static shapes is plain Python.
"""
from __future__ import annotations

import builtins
import math
from typing import Any

from ..common import dtype as mstype
from ..common.kernel_random import function_kernel
from ..common.tensor import Tensor, _np_dtype
from .eager import run
from .nn_functional import topk

__all__ = ["reciprocal", "slice", "strided_slice", "gather_nd", "bias_add", "l2_normalize", "norm", "relu6", "pad",
           "scalar_to_tensor", "scatter_nd", "sigmoid_cross_entropy_with_logits", "tuple_to_array", "eye", "make_range",
           "identity", "tuple_len", "gather_d", "gather_elements", "check_valid", "randn", "standard_normal", "rand", "arange", "flip", "floor", "masked_fill", "addn", "tensor_dot",
           "repeat_elements", "cumsum", "unstack", "normal", "sort", "round", "linspace",
           "uniform", "meshgrid"]


def reciprocal(input: Tensor) -> Tensor:
    """``1 / input`` elementwise (integers give Float32, as ``div`` does)."""
    return run("div", 1.0, input)


def slice(input_x: Tensor, begin: tuple[int, ...], size: tuple[int, ...]) -> Tensor:
    """The block of ``input_x`` starting at ``begin`` with extent ``size`` per dim (``-1``: to the end).

    Raises:
        ValueError: if ``begin`` or ``size`` does not have one entry per dim of ``input_x``.
    """
    shape = input_x.shape
    if len(begin) != len(shape) or len(size) != len(shape):
        raise ValueError(f"For 'Slice', the length of 'begin' and 'size' must equal the rank of 'input_x' "
                         f"({len(shape)}), but got {len(begin)} and {len(size)}.")
    index = tuple(builtins.slice(b, dim if s == -1 else b + s) for b, s, dim in zip(begin, size, shape))
    return run("getitem", input_x, index=index)


def strided_slice(input_x: Tensor, begin: tuple[int, ...], end: tuple[int, ...], strides: tuple[int, ...],
                  begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """``input_x[begin:end:strides]`` per dim, with MindSpore's bit masks: bit ``i`` of ``begin_mask``
    (``end_mask``) ignores ``begin[i]`` (``end[i]``); of ``shrink_axis_mask`` takes the single index
    ``begin[i]`` (the dim is dropped); of ``new_axis_mask`` inserts a dim of size 1.

    Raises:
        ValueError: if ``begin``, ``end`` and ``strides`` differ in length, or ``ellipsis_mask`` is set
            (not implemented in npspore).
    """
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the same length, but got "
                         f"{len(begin)}, {len(end)} and {len(strides)}.")
    if ellipsis_mask:
        raise ValueError("For 'StridedSlice', an 'ellipsis_mask' is not implemented in npspore.")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if new_axis_mask >> i & 1:
            index.append(None)
        elif shrink_axis_mask >> i & 1:
            index.append(b)
        else:
            index.append(builtins.slice(None if begin_mask >> i & 1 else b, None if end_mask >> i & 1 else e, s))
    return run("getitem", input_x, index=tuple(index))


def gather_nd(input_x: Tensor, indices: Tensor) -> Tensor:
    """The slices of ``input_x`` that the last dim of the int tensor ``indices`` addresses:
    ``out[i...] = input_x[indices[i..., 0], ..., indices[i..., k-1]]``.

    Raises:
        ValueError: if the last dim of ``indices`` exceeds the rank of ``input_x``.
    """
    depth = indices.shape[-1]
    shape = input_x.shape
    if depth > len(shape):
        raise ValueError(f"For 'GatherNd', the last dim of 'indices' ({depth}) must not exceed the rank of "
                         f"'input_x' ({len(shape)}).")
    flat = run("reshape", input_x, shape=(-1,) + tuple(shape[depth:]))
    return run("gather", flat, _flat_index(indices, shape), axis=0)


def _flat_index(indices: Tensor, shape: tuple) -> Tensor:
    """The row-major position, among the first ``indices.shape[-1]`` dims of ``shape``, that each last-dim row
    of ``indices`` addresses."""
    strides = (1,)   # built over static tuples (a range loop would be staged)
    for dim in shape[indices.shape[-1] - 1:0:-1]:
        strides = (strides[0] * dim,) + strides
    flat_index = None
    for axis, stride in enumerate(strides):
        term = run("mul", _within(run("getitem", indices, index=(Ellipsis, axis)), shape[axis]), stride)
        flat_index = term if flat_index is None else run("add", flat_index, term)
    return flat_index


def _within(index: Tensor, size: int) -> Tensor:
    """The int tensor ``index`` into a dim of ``size``, a negative one counted from the end; one out of range raises
    NumPy's IndexError (when the kernel runs, in compiled code): in a flat position it would address another row."""
    return run("gather", Tensor(list(range(size)), dtype=index.dtype), index, axis=0)


def scatter_nd(indices: Tensor, updates: Tensor, shape: tuple) -> Tensor:
    """Zeros of ``shape`` with each slice of ``updates`` added at the position the last dim of ``indices``
    addresses (repeated positions add up): the transpose of :func:`gather_nd`.

    Raises:
        TypeError: if ``shape`` is not a tuple of ints.
        ValueError: if the last dim of ``indices`` exceeds the rank of ``shape``, or ``updates`` has the wrong shape.
    """
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"For 'ScatterNd', the 'shape' must be a tuple of ints, but got {shape!r}.")
    depth = indices.shape[-1]
    if depth > len(shape):
        raise ValueError(f"For 'ScatterNd', the last dim of 'indices' ({depth}) must not exceed the rank of "
                         f"'shape' ({len(shape)}).")
    if tuple(updates.shape) != tuple(indices.shape[:-1]) + shape[depth:]:
        raise ValueError(f"For 'ScatterNd', the shape of 'updates' must be {tuple(indices.shape[:-1]) + shape[depth:]}"
                         f", but got {tuple(updates.shape)}.")
    rows = run("reshape", updates, shape=(-1,) + shape[depth:])
    positions = run("reshape", _flat_index(indices, shape), shape=(-1,))
    rows_shape = (math.prod(shape[:depth]),) + shape[depth:]
    return run("reshape", run("gather_grad", rows, positions, shape=rows_shape, axis=0), shape=shape)


def bias_add(input_x: Tensor, bias: Tensor, data_format: str = "NCHW") -> Tensor:
    """``input_x + bias`` with the 1-D ``bias`` along the channel dim (dim 1 for ``'NCHW'``/``'NCDHW'``,
    the last for ``'NHWC'``).

    Raises:
        ValueError: if ``bias`` is not 1-D of the channel dim's size, or ``data_format`` is unknown.
    """
    if data_format not in ("NCHW", "NHWC", "NCDHW"):
        raise ValueError(f"For 'BiasAdd', the 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', but got "
                         f"{data_format!r}.")
    ndim = len(input_x.shape)
    channel = ndim - 1 if data_format == "NHWC" else 1
    if len(bias.shape) != 1 or ndim < 2 or bias.shape[0] != input_x.shape[channel]:
        raise ValueError(f"For 'BiasAdd', 'bias' must be 1-D with the size of the channel dim of 'input_x' "
                         f"{input_x.shape}, but got shape {bias.shape}.")
    target = tuple(-1 if axis == channel else 1 for axis in range(ndim))
    return run("add", input_x, run("reshape", bias, shape=target))


def l2_normalize(x: Tensor, axis: int | tuple[int, ...] = 0, epsilon: float = 1e-4) -> Tensor:
    r"""``x / sqrt(max(sum(x ** 2, axis), epsilon))``, the sum kept as a dim (MindSpore's ``L2Normalize``)."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    squares = run("sum", run("square", x), axis=axes, keepdims=True)
    return run("div", x, run("sqrt", run("maximum", squares, epsilon)))


def norm(A: Tensor, ord: Any = None, dim: int | tuple[int, ...] | None = None, keepdim: bool = False,
         *, dtype: Any = None) -> Tensor:
    """The norm of ``A`` as MindSpore's ``ops.norm`` chooses it: over all of ``A`` (``dim`` None) the
    Euclidean norm when ``ord`` is None (or ``'fro'`` of a matrix, 2 of a vector); over one dim the vector
    norm ``ord`` (``inf``, ``-inf``, ``0``: nonzero count, any other ``p``: ``sum(|A|**p) ** (1/p)``);
    over two dims the matrix norm ``ord`` (``'fro'``, None, ``1``, ``-1``, ``inf``, ``-inf``).

    Raises:
        TypeError: if ``ord`` is a str for a vector norm, or ``dim`` is not an int or tuple.
        ValueError: if ``ord`` is not a matrix norm's, ``dim`` has more than two dims, or (not implemented
            in npspore) ``ord`` is 2, -2 or ``'nuc'`` for a matrix (they take singular values).
    """
    ndim = len(A.shape)
    if dim is None:
        axes = tuple(range(ndim))
        if ord is None or (ord == "fro" and ndim == 2) or (ord == 2 and ndim == 1):
            return _euclidean(A, axes, keepdim, dtype)
    elif isinstance(dim, int):
        axes = (dim,)
    elif isinstance(dim, tuple):
        axes = dim
    else:
        raise TypeError(f"For norm, the dim should be int or tuple of int, but got {type(dim)}")
    if len(axes) == 1 and isinstance(ord, str):
        raise TypeError(f"For norm, ord mode can not be str for vectors, but got {ord}.")
    if len(axes) == 2 and ord not in (2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc", None):
        raise ValueError("For norm, the ord mode must be in [2, -2, 1, -1, float('inf'), -float('inf'), 'fro', "
                         f"'nuc', None] for matrices, but got {ord}.")
    if len(axes) > 2:
        raise ValueError("For norm, the dimensions is out of range.")
    if dtype is not None:
        A = run("cast", A, dtype=_np_dtype(dtype))
    if len(axes) == 2:
        return _matrix_norm(A, ord, axes, keepdim)
    return _vector_norm(A, ord, axes, keepdim)


def _euclidean(A, axes, keepdim, dtype):
    if dtype is not None:
        A = run("cast", A, dtype=_np_dtype(dtype))
    return run("sqrt", run("sum", run("square", A), axis=axes, keepdims=keepdim))


def _vector_norm(A, ord, axes, keepdim):
    if ord is None or ord == 2:
        return _euclidean(A, axes, keepdim, None)
    magnitude = run("abs", A)
    if ord == float("inf"):
        return run("max", magnitude, axis=axes, keepdims=keepdim)
    if ord == -float("inf"):
        return run("min", magnitude, axis=axes, keepdims=keepdim)
    if ord == 0:
        nonzero = run("cast", run("not_equal", A, 0), dtype=_np_dtype(A.dtype))
        return run("sum", nonzero, axis=axes, keepdims=keepdim)
    if ord == 1:
        return run("sum", magnitude, axis=axes, keepdims=keepdim)
    return run("pow", run("sum", run("pow", magnitude, ord), axis=axes, keepdims=keepdim), 1.0 / ord)


def _matrix_norm(A, ord, axes, keepdim):
    if ord is None or ord == "fro":
        return _euclidean(A, axes, keepdim, None)
    if ord in (2, -2, "nuc"):
        raise ValueError(f"For norm, the matrix norm ord={ord!r} (of singular values) is not implemented in "
                         "npspore.")
    # 1/-1: the largest/smallest column sum of |A|; inf/-inf: the largest/smallest row sum
    summed, reduced = (axes[0], axes[1]) if ord in (1, -1) else (axes[1], axes[0])
    ndim = len(A.shape)
    sums = run("sum", run("abs", A), axis=(summed,), keepdims=True)
    extreme = run("max" if ord in (1, float("inf")) else "min", sums, axis=(reduced,), keepdims=True)
    if keepdim:
        return extreme
    return run("squeeze", extreme, axis=tuple(sorted({summed % ndim, reduced % ndim})))


def relu6(x: Tensor) -> Tensor:
    """``min(max(x, 0), 6)`` elementwise; its gradient is 1 on ``(0, 6]`` as MindSpore's ``ReLU6Grad``
    (relu's 0 at 0, the clip's pass-through at 6)."""
    return run("clip", run("relu", x), None, 6)


def pad(input_x: Tensor, padding: tuple[int, ...], mode: str = "constant", value: float | None = None) -> Tensor:
    """``input_x`` padded: ``padding`` pairs ``(before, after)`` from the LAST dim backwards
    (``(left, right, top, bottom)`` pads W then H). ``mode`` ``'constant'`` fills ``value`` (0 when
    ``None``); ``'reflect'`` mirrors without the edge, ``'symmetric'`` with it; ``'replicate'`` repeats the
    edge, ``'circular'`` wraps around.

    Raises:
        ValueError: if ``padding`` has an odd length or more pairs than dims, a pad is negative, ``mode``
            is unknown, or a reflect pad is not smaller than its dim.
    """
    shape = input_x.shape
    if len(padding) % 2 or len(padding) // 2 > len(shape):
        raise ValueError(f"For 'pad', 'padding' must hold one (before, after) pair per padded dim, at most "
                         f"{len(shape)} pairs, but got {padding}.")
    pairs = [(0, 0)] * (len(shape) - len(padding) // 2)
    for i in range(len(padding) // 2 - 1, -1, -1):
        pairs.append((padding[2 * i], padding[2 * i + 1]))
    return pad_pairs(input_x, tuple(pairs), mode, value)


def pad_pairs(input_x: Tensor, pairs: tuple[tuple[int, int], ...], mode: str = "constant",
              value: float | None = None) -> Tensor:
    """``input_x`` padded by one ``(before, after)`` pair per dim, FIRST dim first (``nn.Pad``'s and
    ``ops.Pad``'s ``paddings``); ``mode`` and ``value`` as in :func:`pad`.

    Raises:
        ValueError: if there is not one pair per dim, a pad is negative, ``mode`` is unknown, or a
            mirrored pad is too large for its dim.
    """
    shape = input_x.shape
    if len(pairs) != len(shape):
        raise ValueError(f"For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', but got "
                         f"{len(pairs)} vs {len(shape)}")
    if mode not in ("constant", "reflect", "symmetric", "replicate", "circular"):
        raise ValueError(f"For 'pad', the 'mode' must be 'constant', 'reflect', 'symmetric', 'replicate' or "
                         f"'circular', but got {mode!r}.")
    if any(before < 0 or after < 0 for before, after in pairs):
        raise ValueError(f"For 'pad', negative paddings are not implemented in npspore, but got {pairs}.")
    if mode == "constant":
        return _pad_constant(input_x, pairs, 0 if value is None else value)
    out = input_x
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            out = run("gather", out, Tensor(_source_index(shape[axis], before, after, mode)), axis=axis)
    return out


def _pad_constant(input_x, pairs, value):
    shape = tuple(dim + before + after for dim, (before, after) in zip(input_x.shape, pairs))
    index = tuple(builtins.slice(before, before + dim) for dim, (before, _) in zip(input_x.shape, pairs))
    placed = run("getitem_grad", input_x, shape=shape, index=index)
    if value == 0:
        return placed
    inside = run("getitem_grad", run("ones_like", input_x, dtype=_np_dtype(mstype.bool_)), shape=shape, index=index)
    return run("where", inside, placed, run("cast", value, dtype=_np_dtype(input_x.dtype)))


def _source_index(size, before, after, mode):
    """The source index of each padded position along a dim of ``size`` for the padding ``mode``.

    Raises:
        ValueError: if a ``'circular'`` pad exceeds the dim (as MindSpore's).
    """
    if mode == "replicate":
        return [builtins.min(builtins.max(i - before, 0), size - 1) for i in range(before + size + after)]
    if mode == "circular":
        if before > size or after > size:
            raise ValueError(f"For 'pad', a 'circular' padding must not exceed the padded dim ({size}), but got "
                             f"({before}, {after}).")
        return [(i - before) % size for i in range(before + size + after)]
    return _mirror_index(size, before, after, mode == "reflect")


def _mirror_index(size, before, after, reflect):
    """The source index of each padded position along a dim of ``size`` (NumPy's reflect/symmetric)."""
    if reflect and (before >= size or after >= size):
        raise ValueError(f"For 'pad', a 'reflect' padding must be smaller than the padded dim ({size}), but got "
                         f"({before}, {after}).")
    if not reflect and (before > size or after > size):
        raise ValueError(f"For 'pad', a 'symmetric' padding must not exceed the padded dim ({size}), but got "
                         f"({before}, {after}).")
    edge = 0 if reflect else 1
    left = [before - i - edge for i in range(before)]
    right = [size - 2 + edge - i for i in range(after)]
    return left + list(range(size)) + right


def scalar_to_tensor(input_x: float | int | bool, dtype: Any = mstype.float32) -> Tensor:
    """The Python number ``input_x`` as a 0-d Tensor of ``dtype`` (default Float32).

    Raises:
        TypeError: if ``input_x`` is not an int, float or bool.
    """
    if not isinstance(input_x, (int, float, bool)):
        raise TypeError(f"For 'scalar_to_tensor', the 'input_x' must be an int, float or bool, but got "
                        f"{type(input_x).__name__}.")
    return run("fill", input_x, shape=(), dtype=_np_dtype(dtype))


def sigmoid_cross_entropy_with_logits(logits: Tensor, label: Tensor) -> Tensor:
    r"""Elementwise :math:`-y \log\sigma(x) - (1 - y) \log(1 - \sigma(x))`, computed stably as
    :math:`\max(x, 0) - x y + \log(1 + e^{-|x|})`."""
    return run("add", run("sub", run("relu", logits), run("mul", logits, label)),
               run("log1p", run("exp", run("neg", run("abs", logits)))))


def tuple_to_array(input_x: tuple) -> Tensor:
    """The tuple of numbers ``input_x`` as a 1-D Tensor: Int32 when every entry is an int, else Float32.

    Raises:
        TypeError: if ``input_x`` is not a non-empty tuple of numbers.
    """
    if not isinstance(input_x, tuple) or not input_x or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in input_x):
        raise TypeError(f"For 'tuple_to_array', the 'input_x' must be a non-empty tuple of numbers, but got "
                        f"{input_x!r}.")
    every_int = all(isinstance(v, int) for v in input_x)
    return Tensor(list(input_x), dtype=mstype.int32 if every_int else mstype.float32)


def eye(n: int, m: int | None = None, dtype: Any = mstype.float32) -> Tensor:
    """The ``n`` x ``m`` (``m`` defaults to ``n``) Tensor of ``dtype`` with ones on the diagonal.

    Raises:
        TypeError: if ``n`` or ``m`` is not an int.
    """
    m = n if m is None else m
    for name, value in (("n", n), ("m", m)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Eye', the '{name}' must be an int, but got {type(value).__name__}.")
    return Tensor([[1 if row == column else 0 for column in range(m)] for row in range(n)], dtype=dtype)


def make_range(start: int, limit: int | None = None, delta: int = 1) -> tuple[int, ...]:
    """The tuple ``start, start + delta, ...`` below ``limit`` (``make_range(n)``: ``0 ... n - 1``).

    Raises:
        TypeError: if an argument is not an int.
        ValueError: if ``delta`` is 0.
    """
    if limit is None:
        start, limit = 0, start
    for name, value in (("start", start), ("limit", limit), ("delta", delta)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'make_range', the '{name}' must be an int, but got {type(value).__name__}.")
    if delta == 0:
        raise ValueError("For 'make_range', the 'delta' must not be 0.")
    return tuple(range(start, limit, delta))


def identity(input: Tensor) -> Tensor:
    """A new Tensor equal to ``input`` (its gradient passes through; a later in-place update of ``input``
    does not show through)."""
    if input.dtype == mstype.bool_:
        return run("logical_and", input, True)
    return run("mul", input, 1)


def tuple_len(data: tuple) -> int:
    """The length of the tuple ``data``."""
    return len(data)


def gather_d(x: Tensor, dim: int, index: Tensor) -> Tensor:
    """``out[i][j]... = x[..., index[i][j]..., ...]`` with ``index`` replacing the position along ``dim``
    (``index`` has ``x``'s rank; NumPy's ``take_along_axis``).

    Raises:
        ValueError: if ``index`` and ``x`` differ in rank, or ``dim`` is out of range.
    """
    shape, ndim = x.shape, len(x.shape)
    if len(index.shape) != ndim or not -ndim <= dim < ndim:
        raise ValueError(f"For 'gather_d', 'index' must have the rank of 'x' ({ndim}) and 'dim' must be in "
                         f"[{-ndim}, {ndim}), but got index shape {index.shape} and dim {dim}.")
    dim = dim % ndim
    if -1 in shape or -1 in index.shape:   # a dim known only when the kernel runs: no static strides; along the
        moved, back = moved_last(x, dim)   # last axis, with index of x's shape there but that axis
        return run("transpose", run("gather_last", moved, moved_last(index, dim)[0]), axes=back)
    # the flat position in x of each element of out: index along dim, out's own position along the others
    index = _within(index, shape[dim])
    strides = (1,)
    for size in shape[:0:-1]:
        strides = (strides[0] * size,) + strides
    flat_index = run("mul", index, strides[dim])
    for axis, stride in enumerate(strides):
        if axis != dim:
            along = [i * stride for i in range(index.shape[axis])]
            position = Tensor(along, dtype=index.dtype)
            placed = run("reshape", position, shape=tuple(-1 if a == axis else 1 for a in range(ndim)))
            flat_index = run("add", flat_index, placed)
    return run("gather", run("reshape", x, shape=(-1,)), flat_index, axis=0)


def moved_last(x: Tensor, axis: int) -> tuple[Tensor, tuple[int, ...]]:
    """``x`` with ``axis`` moved last, and the permutation that moves it back."""
    ndim = len(x.shape)
    last = tuple(a for a in range(ndim) if a != axis) + (axis,)
    return run("transpose", x, axes=last), tuple(last.index(a) for a in range(ndim))


def gather_elements(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """:func:`gather_d` (MindSpore's other name for it)."""
    return gather_d(input, dim, index)


def check_valid(bboxes: Tensor, img_metas: Tensor) -> Tensor:
    """Whether each box ``(x1, y1, x2, y2)`` of ``bboxes`` (N, 4) lies in the image ``img_metas`` =
    ``(height, width, ratio)``: ``x1 >= 0``, ``y1 >= 0``, ``x2 <= width * ratio - 1``,
    ``y2 <= height * ratio - 1`` (Bool, N)."""
    x1, y1, x2, y2 = (run("getitem", bboxes, index=(builtins.slice(None), k)) for k in range(4))
    height, width, ratio = (run("getitem", img_metas, index=k) for k in range(3))
    inside = run("logical_and", run("greater_equal", x1, 0), run("greater_equal", y1, 0))
    right = run("less_equal", x2, run("sub", run("mul", width, ratio), 1))
    bottom = run("less_equal", y2, run("sub", run("mul", height, ratio), 1))
    return run("logical_and", inside, run("logical_and", right, bottom))


_KERNELS = {"random_normal": "StandardNormal", "random_uniform": "UniformReal"}   # the MindSpore kernel of an op


def _random(name: str, op: str, size: tuple, dtype: Any, seed: Any) -> Tensor:
    """``op``'s samples of ``size``, as the new MindSpore primitive of the function ``name`` draws them: its
    seeds are ``_get_graph_seed(seed, name)``, which advances the op seed of ``name``."""
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise TypeError(f"For '{name}', the 'seed' must be an int, but got {type(seed).__name__}.")
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise TypeError(f"For '{name}', the 'size' must be non-negative ints, but got {size!r}.")
    seeds = function_kernel(_KERNELS[op], seed, name)
    return run(op, shape=shape, dtype=_np_dtype(mstype.float32 if dtype is None else dtype), seeds=seeds)


def randn(*size: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Standard normal samples of shape ``size`` (ints, or one tuple), Float32 unless ``dtype`` is given,
    MindSpore's numbers: a new ``StandardNormal`` primitive of seeds ``_get_graph_seed(seed, 'randn')`` (the
    global seed and an op seed each call advances; reproducible with ``set_seed`` or an int ``seed``).

    Raises:
        TypeError: if ``size`` is not non-negative ints, or ``seed`` is not an int.
    """
    return _random("randn", "random_normal", size, dtype, seed)


def standard_normal(shape: tuple[int, ...], seed: Any = None) -> Tensor:
    """Float32 standard normal samples of ``shape``, as :func:`randn` draws them."""
    return _random("standard_normal", "random_normal", (shape,), None, seed)


def rand(*size: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Samples uniform in [0, 1) of shape ``size`` (ints, or one tuple), as :func:`randn` draws."""
    return _random("rand", "random_uniform", size, dtype, seed)


def arange_values(name: str, start: Any, stop: Any, step: Any) -> list:
    """The Python numbers ``start, start + step, ...`` below ``stop`` (NumPy's ``arange`` count).

    Raises:
        TypeError: if an argument is not an int or float.
        ValueError: if ``step`` is 0.
    """
    for arg, value in (("start", start), ("end", stop), ("step", step)):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"For '{name}', the '{arg}' must be an int or float, but got {type(value).__name__}.")
    if step == 0:
        raise ValueError(f"For '{name}', the 'step' must not be 0.")
    count = builtins.max(0, math.ceil((stop - start) / step))
    return [start + i * step for i in range(count)]


def arange(start: float = 0, end: float | None = None, step: float = 1, *, dtype: Any = None) -> Tensor:
    """``start, start + step, ...`` below ``end`` (``arange(n)``: ``0 ... n - 1``): Int64 when every
    argument is an int, else Float32, unless ``dtype`` is given (MindSpore 2.10's ``ops.arange``).

    Raises:
        TypeError: if an argument is not a number.
        ValueError: if ``step`` is 0.
    """
    if end is None:
        start, end = 0, start
    values = arange_values("arange", start, end, step)
    if dtype is None:
        every_int = all(isinstance(v, int) for v in (start, end, step))
        dtype = mstype.int64 if every_int else mstype.float32
    return Tensor(values, dtype=dtype) if values else run("zeros", shape=(0,), dtype=_np_dtype(dtype))


def flip(input: Tensor, dims: tuple[int, ...] | list[int]) -> Tensor:
    """``input`` with the order of its elements reversed along each of ``dims`` (MindSpore's ``ReverseV2``).

    Raises:
        TypeError: if ``dims`` is not a tuple or list.
        ValueError: if an axis is out of range.
    """
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f'Failed calling ReverseV2 with "ReverseV2(axis={type(dims).__name__})(input=Tensor)".')
    dims = [int(axis) if isinstance(axis, Tensor) else axis for axis in dims]   # as MindSpore takes Tensor(0)
    ndim = len(input.shape)
    for k, axis in enumerate(dims):
        if not -ndim <= axis < ndim:
            raise ValueError(f"For 'ReverseV2', the 'axis[{k}]' must be in range of [-{ndim}, {ndim}), but got "
                             f"{axis} with type 'int'.")
    reversed_axes = {axis % ndim for axis in dims}
    return run("getitem", input, index=tuple(builtins.slice(None, None, -1) if a in reversed_axes
                                             else builtins.slice(None) for a in range(ndim)))


def masked_fill(input_x: Tensor, mask: Tensor, value: Any) -> Tensor:
    """``input_x`` with ``value`` (a number or 0-d Tensor, cast to ``input_x``'s dtype) where the bool ``mask``
    (broadcast) holds.

    Raises:
        TypeError: if ``mask`` is not a bool Tensor.
    """
    if _np_dtype(mask.dtype).kind != "b":
        raise TypeError(f"For 'MaskedFill', the 'mask' must be a bool Tensor, but got {mask.dtype}.")
    fill = run("cast", value, dtype=_np_dtype(input_x.dtype)) if isinstance(value, Tensor) else value
    return run("where", mask, fill, input_x)


def addn(x: tuple | list) -> Tensor:
    """The elementwise sum of the Tensors of ``x`` (all of one shape and dtype).

    Raises:
        TypeError: if ``x`` is not a non-empty tuple or list.
    """
    if not isinstance(x, (tuple, list)) or not x:
        raise TypeError(f'Failed calling AddN with "AddN()(x={type(x).__name__})".')
    total = x[0]
    for tensor in x[1:]:
        total = run("add", total, tensor)
    return total


def tensor_dot(x1: Tensor, x2: Tensor, axes: Any) -> Tensor:
    """The sum over ``axes`` of ``x1 * x2`` (NumPy's ``tensordot``): ``axes`` an int ``n`` (the last ``n`` dims of
    ``x1`` with the first ``n`` of ``x2``) or a pair of ints or tuples (the dims of each to contract, in order).

    Raises:
        ValueError: if contracted dims differ in size or an axis is out of range.
    """
    if isinstance(axes, int):
        first, second = tuple(range(len(x1.shape) - axes, len(x1.shape))), tuple(range(axes))
    else:
        first, second = ((a,) if isinstance(a, int) else tuple(a) for a in axes)
    first = tuple(a % len(x1.shape) for a in first)
    second = tuple(a % len(x2.shape) for a in second)
    if [x1.shape[a] for a in first] != [x2.shape[a] for a in second]:
        raise ValueError(f"For 'tensor_dot', the contracted dims of x1 {x1.shape} at {first} and of x2 {x2.shape} "
                         f"at {second} must have the same sizes.")
    free1 = tuple(a for a in range(len(x1.shape)) if a not in first)
    free2 = tuple(a for a in range(len(x2.shape)) if a not in second)
    size = math.prod(x1.shape[a] for a in first)
    left = run("reshape", run("transpose", x1, axes=free1 + first), shape=(-1, size))
    right = run("reshape", run("transpose", x2, axes=second + free2), shape=(size, -1))
    shape = tuple(x1.shape[a] for a in free1) + tuple(x2.shape[a] for a in free2)
    return run("reshape", run("matmul", left, right), shape=shape)


def floor(input: Tensor) -> Tensor:
    """The largest integer not above each element, in ``input``'s dtype (its gradient is zero);
    infinities and NaN stay as they are."""
    finite = run("less", run("abs", input), math.inf)
    floored = run("floor_div", run("where", finite, input, 0), 1)
    return run("where", finite, floored, run("stop_gradient", input))


def repeat_elements(x: Tensor, rep: int, axis: int = 0) -> Tensor:
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times in place (NumPy's ``repeat``).

    Raises:
        TypeError: if ``rep`` is not an int.
        ValueError: if ``rep`` is less than 1.
    """
    if not isinstance(rep, int) or isinstance(rep, bool):
        raise TypeError(f"For 'repeat_elements', the 'rep' must be an int, but got {type(rep).__name__}.")
    if rep < 1:
        raise ValueError(f"For 'repeat_elements', the 'rep' must be positive, but got {rep}.")
    index = [i for i in range(x.shape[axis]) for _ in range(rep)]
    return run("gather", x, Tensor(index), axis=axis)


def cumsum(x: Tensor, axis: int, dtype: Any = None) -> Tensor:
    """Running sums of ``x`` along ``axis`` (``dtype`` casts ``x`` first).

    Raises:
        ValueError: if ``axis`` is out of range.
    """
    if dtype is not None:
        x = run("cast", x, dtype=_np_dtype(dtype))
    return running_sum(x, axis, False, False)


def running_sum(x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    """Running sums of ``x`` along ``axis``: ``exclusive`` leaves each element out of its own sum,
    ``reverse`` sums from the end (``CumSum``'s flags). Computed as a product with a triangular matrix
    of ones, so it differentiates through ``matmul``.

    Raises:
        ValueError: if ``axis`` is out of range.
    """
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"For 'cumsum', the 'axis' must be in [{-ndim}, {ndim}), but got {axis}.")
    axis = axis % ndim
    last = tuple(a for a in range(ndim) if a != axis) + (axis,)
    moved = run("transpose", x, axes=last)
    summed = run("matmul", moved, running_triangle(x, axis, exclusive, reverse, x.dtype))
    back = tuple(last.index(a) for a in range(ndim))
    return run("transpose", summed, axes=back)


def broadcast_kept(x: Tensor, shape: tuple) -> Tensor:
    """``x`` broadcast to ``shape``, whose ``-1`` entries keep ``x``'s dims there, dims known only when the kernel runs
    (NumPy's ``broadcast_to`` takes no ``-1``): ``x`` plus zeros of ``shape`` with 1 at those dims."""
    return run("add", x, run("zeros", shape=tuple(1 if d < 0 else d for d in shape), dtype=_np_dtype(x.dtype)))


def positions(x: Tensor, axis: int, dtype: Any = mstype.int32) -> Tensor:
    """``0, 1, ..., n - 1`` in ``dtype`` for the size ``n`` of dim ``axis`` of ``x``: a constant, or, along a dim known
    only when the kernel runs (``-1`` here), read then (``dim_range``)."""
    n = x.shape[axis]
    if n < 0:
        return run("cast", run("dim_range", x, axis=axis % len(x.shape)), dtype=_np_dtype(dtype))
    return Tensor(list(range(n)), dtype)


def running_triangle(x: Tensor, axis: int, exclusive: bool, reverse: bool, dtype: Any) -> Tensor:
    """The ``(n, n)`` matrix of ``dtype`` whose entry ``[i, j]`` is 1 where element ``i`` of ``x`` along ``axis`` (of
    size ``n``) counts at position ``j`` of a running sum or product with ``CumSum``'s flags, else 0: a constant, or,
    along a dim known only when the kernel runs (``-1`` here), a comparison of its positions (``dim_range``)."""
    n = x.shape[axis]
    if n < 0:
        at = run("dim_range", x, axis=axis)
        compare = ("greater" if reverse else "less") if exclusive else ("greater_equal" if reverse else "less_equal")
        return run("cast", run(compare, run("expand_dims", at, axis=1), at), dtype=_np_dtype(dtype))
    return Tensor([[int((i > j if reverse else i < j) or (i == j and not exclusive)) for j in range(n)]
                   for i in range(n)], dtype=dtype)


def unstack(input_x: Tensor, axis: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``input_x`` along ``axis``, as a tuple (the inverse of ``stack``)."""
    ndim = len(input_x.shape)
    axis = axis % ndim
    return tuple(run("getitem", input_x, index=(builtins.slice(None),) * axis + (i,))
                 for i in range(input_x.shape[axis]))


def normal(shape: tuple[int, ...], mean: Any, stddev: Any, seed: Any = None) -> Tensor:
    """Normal samples of ``shape`` with ``mean`` and ``stddev`` (broadcast), as :func:`randn` draws them
    (an int ``seed`` included)."""
    return run("add", run("mul", _random("normal", "random_normal", (shape,), None, seed), stddev), mean)


def sort(input_x: Tensor, axis: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    """``(values, Int32 indices)`` of ``input_x`` sorted along ``axis``; equal values keep their order
    (as MindSpore 2.10's, in both directions). It is ``topk`` of every element, so it differentiates
    as ``topk`` does.
    """
    n = input_x.shape[axis % len(input_x.shape)]
    return topk(input_x, n if n >= 0 else None, dim=axis, largest=descending)   # None: along a dynamic dim


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    """The nearest integer to each element, halves to even, in ``input``'s dtype (gradient zero).

    Raises:
        ValueError: if ``decimals`` is not 0 (MindSpore 2.10's CPU kernel has only 0).
    """
    if decimals != 0:
        raise ValueError(f"For Round only support decimals equal 0, but got decimals equal {decimals}")
    return run("round", input)


def linspace(start: Any, end: Any, steps: int) -> Tensor:
    """``steps`` evenly spaced Float32 values from ``start`` to ``end`` inclusive (numbers or 0-d Tensors):
    ``start + (end - start) * i / (steps - 1)``.

    Raises:
        TypeError: if ``steps`` is not an int.
        ValueError: if ``steps`` is less than 1.
    """
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(f"For 'linspace', the 'steps' must be an int, but got {type(steps).__name__}.")
    if steps < 1:
        raise ValueError(f"For 'linspace', the 'steps' must be positive, but got {steps}.")
    float32 = _np_dtype(mstype.float32)
    start, end = run("cast", start, dtype=float32), run("cast", end, dtype=float32)
    fractions = Tensor([i / (steps - 1) if steps > 1 else 0.0 for i in range(steps)], dtype=mstype.float32)
    return run("add", start, run("mul", run("sub", end, start), fractions))


def uniform(shape: tuple[int, ...], minval: Any, maxval: Any, seed: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """Samples uniform in [``minval``, ``maxval``) of ``shape``, MindSpore's numbers: for Int32, a new
    ``UniformInt`` primitive's; else a new ``UniformReal`` primitive's ``u * (maxval - minval) + minval`` (both
    of seeds ``_get_graph_seed(seed, 'uniform')``)."""
    if dtype == mstype.int32:
        seeds = function_kernel("UniformInt", seed, "uniform")
        return run("uniform_int", minval, maxval, shape=tuple(shape), seeds=seeds)
    unit = _random("uniform", "random_uniform", (shape,), dtype, seed)
    return run("add", run("mul", unit, run("sub", maxval, minval)), minval)


def meshgrid(*inputs: Tensor, indexing: str = "xy") -> tuple[Tensor, ...]:
    """Coordinate grids of the 1-D ``inputs``: with ``'ij'`` output ``k`` varies along dim ``k`` of the
    shape ``(len(x0), len(x1), ...)``; with ``'xy'`` the first two dims are swapped.

    Raises:
        ValueError: if ``indexing`` is not ``'xy'`` or ``'ij'``, or an input is not 1-D.
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', the 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    if not all(len(x.shape) == 1 for x in inputs):
        raise ValueError("For 'meshgrid', every input must be 1-D.")
    dims = [x.shape[0] for x in inputs]
    positions = list(range(len(inputs)))
    if indexing == "xy" and len(inputs) > 1:
        dims[0], dims[1] = dims[1], dims[0]
        positions[0], positions[1] = 1, 0
    grids = []
    for x, position in zip(inputs, positions):
        along = tuple(-1 if axis == position else 1 for axis in range(len(inputs)))
        grids.append(run("broadcast_to", run("reshape", x, shape=along), shape=tuple(dims)))
    return tuple(grids)
