"""Functional ops of ``mindspore.ops`` from the tail of the 2.10 usage list, written over ops of the table:
``argsort``, ``hstack``, ``vstack``, ``atleast_2d``, ``mm``, ``block_diag``, ``median``, ``hann_window``,
``diag_embed``, ``sequence_mask``, ``take``, ``tensor_split``, ``scatter``, ``intopk``, ``softmin``,
``hardtanh``, ``tanhshrink``, ``gumbel_softmax``, ``fmax``, ``fmin``, ``unfold``, ``fold``, ``column_stack``.
Each runs eagerly and compiled and is differentiable where MindSpore's is (as the composition of the ops it is
written with)."""
from __future__ import annotations

import math

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .array_functional import gather_elements, pad, sort
from .array_functional import uniform as uniform_draws
from .eager import run
from .nn_functional import clip_by_value
from .primitive_functions_a_l import fmax, fmin
from .scatter_ops import tensor_scatter_elements

__all__ = ["argsort", "hstack", "vstack", "atleast_2d", "mm", "block_diag", "median", "hann_window", "diag_embed",
           "sequence_mask", "take", "tensor_split", "scatter", "intopk", "softmin", "hardtanh", "tanhshrink",
           "gumbel_softmax", "fmax", "fmin", "unfold", "fold", "column_stack"]


def argsort(input: Tensor, axis: int = -1, descending: bool = False) -> Tensor:
    """The Int32 positions that sort ``input`` along ``axis`` (equal values keep their order).

    Raises:
        TypeError: if ``axis`` is not an int or ``descending`` not a bool.
    """
    check_value_type("axis", axis, [int], "Sort")
    check_value_type("descending", descending, [bool], "Sort")
    return sort(input, axis, descending)[1]


def _tensor_sequence(tensors, name: str) -> tuple:
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"For {name}, the input must be list or tuple, but got {type(tensors)}.")
    return tuple(tensors)


def hstack(tensors) -> Tensor:
    """The Tensors joined along their second dim (1-D Tensors and scalars along their only one)."""
    tensors = tuple(F.reshape(t, (1,)) if not t.shape else t for t in _tensor_sequence(tensors, "hstack"))
    return F.concat(tensors, 0 if all(len(t.shape) == 1 for t in tensors) else 1)


def column_stack(tensors) -> Tensor:
    """The Tensors side by side along dim 1: a 1-D ``(n,)`` one as the column ``(n, 1)``, a scalar as ``(1, 1)``.

    Raises:
        TypeError: if ``tensors`` is not a list or tuple of Tensors. ValueError: if it is empty.
    """
    columns = []
    for tensor in _tensor_sequence(tensors, "column_stack"):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"For column_stack, the input element must be tensor, but got {type(tensor)}.")
        columns.append(F.reshape(tensor, (-1, 1)) if len(tensor.shape) < 2 else tensor)
    if not columns:
        raise ValueError("For column_stack, the input must have at least 1 tensor, but got 0.")
    return F.concat(tuple(columns), 1)


def _at_least_2d(tensor: Tensor) -> Tensor:
    if len(tensor.shape) >= 2:
        return tensor
    return F.reshape(tensor, (1, tensor.shape[0] if tensor.shape else 1))


def vstack(inputs) -> Tensor:
    """The Tensors joined along their first dim, 1-D ``(n,)`` ones as ``(1, n)`` and scalars as ``(1, 1)``."""
    return F.concat(tuple(_at_least_2d(t) for t in _tensor_sequence(inputs, "vstack")), 0)


def atleast_2d(inputs):
    """``inputs`` (a Tensor, or each Tensor of a list or tuple) with at least two dims: a scalar as ``(1, 1)``, a
    1-D ``(n,)`` as ``(1, n)``."""
    if isinstance(inputs, Tensor):
        return _at_least_2d(inputs)
    return tuple(_at_least_2d(t) for t in _tensor_sequence(inputs, "atleast_2d"))


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The matrix product of the 2-D ``input`` and ``mat2``.

    Raises:
        ValueError: if either is not 2-D (MindSpore's message).
    """
    if len(input.shape) != 2 or len(mat2.shape) != 2:
        raise ValueError("MatMul inputs should have the same dimension size and equal to 2.")
    return F.matmul(input, mat2)


def block_diag(*inputs: Tensor) -> Tensor:
    """The Tensors (scalars as ``(1, 1)``, 1-D ``(n,)`` as ``(1, n)``) placed along the diagonal of a matrix of
    zeros, in order."""
    blocks = [_at_least_2d(t) for t in inputs]
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for block in blocks:
        rows.append(pad(block, (left, width - left - block.shape[1])))
        left += block.shape[1]
    return F.concat(tuple(rows), 0)


def median(input: Tensor, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The lower median of ``input`` along ``axis`` (the ``(n - 1) // 2``-th smallest) and its Int64 position
    (of equal values, the one a stable sort puts there)."""
    check_value_type("axis", axis, [int], "Median")
    check_value_type("keepdims", keepdims, [bool], "Median")
    if not input.shape:
        return input, Tensor(0, mstype.int64)
    axis = axis % len(input.shape)
    values, positions = sort(input, axis)
    middle = Tensor([(input.shape[axis] - 1) // 2], mstype.int32)
    value, position = F.gather(values, middle, axis), F.cast(F.gather(positions, middle, axis), mstype.int64)
    if keepdims:
        return value, position
    return F.squeeze(value, axis), F.squeeze(position, axis)


def hann_window(window_length: int, periodic: bool = True, *, dtype=None) -> Tensor:
    r"""The Hann window :math:`0.5 - 0.5 \cos(2 \pi n / N)` of ``window_length`` points, :math:`N` the length
    (``periodic``) or the length minus one; Float64 unless ``dtype`` says otherwise, as MindSpore 2.10's.

    Raises:
        TypeError: if ``window_length`` is not an int or ``periodic`` not a bool.
        ValueError: if ``window_length`` is negative.
    """
    check_value_type("window_length", window_length, [int], "hann_window")
    check_value_type("periodic", periodic, [bool], "hann_window")
    if window_length < 0:
        raise ValueError(f"For 'hann_window', 'window_length' must be non-negative, but got {window_length}.")
    span = max(window_length if periodic else window_length - 1, 1)
    window = [1.0] if window_length == 1 else [0.5 - 0.5 * math.cos(2 * math.pi * n / span)
                                               for n in range(window_length)]
    return Tensor(window, mstype.float64 if dtype is None else dtype)


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The last dim of ``input`` placed on the ``offset``-th diagonal of the planes spanned by the output dims
    ``dim1`` (rows) and ``dim2`` (columns); zeros elsewhere.

    Raises:
        ValueError: if ``dim1`` and ``dim2`` name one dim or lie outside the output's dims.
    """
    for name, value in (("offset", offset), ("dim1", dim1), ("dim2", dim2)):
        check_value_type(name, value, [int], "diag_embed")
    rank = len(input.shape) + 1
    if not -rank <= dim1 < rank or not -rank <= dim2 < rank:
        raise ValueError(f"For 'diag_embed', 'dim1' and 'dim2' must lie in [{-rank}, {rank}), but got {dim1} "
                         f"and {dim2}.")
    dim1, dim2 = dim1 % rank, dim2 % rank
    if dim1 == dim2:
        raise ValueError("For 'diag_embed', 'dim1' and 'dim2' must be different.")
    size = input.shape[-1]
    side = size + abs(offset)
    row, column = -min(offset, 0), max(offset, 0)
    places = Tensor([[[r == i + row and c == i + column for c in range(side)] for r in range(side)]
                     for i in range(size)], mstype.bool_)
    spread = F.expand_dims(F.expand_dims(input, -1), -1) * F.cast(places, input.dtype)
    planes = F.reduce_sum(spread, -3)   # (..., side, side)
    batch = [d for d in range(rank) if d not in (dim1, dim2)]
    order = tuple(rank - 2 if d == dim1 else rank - 1 if d == dim2 else batch.index(d) for d in range(rank))
    return F.transpose(planes, order)


def sequence_mask(lengths: Tensor, maxlen: int | None = None) -> Tensor:
    """The Bool mask ``lengths[..., None] > arange(maxlen)`` (``maxlen``: the largest length when None)."""
    if maxlen is None:
        maxlen = int(lengths.asnumpy().max())
    check_value_type("maxlen", maxlen, [int], "sequence_mask")
    if maxlen <= 0:
        raise ValueError(f"For 'sequence_mask', 'maxlen' must be positive, but got {maxlen}.")
    steps = Tensor(list(range(maxlen)), lengths.dtype)
    return F.less(steps, F.expand_dims(lengths, -1))


def take(input: Tensor, index: Tensor) -> Tensor:
    """The elements of the flattened ``input`` at the int ``index`` (of ``index``'s shape)."""
    return F.gather(F.reshape(input, (-1,)), index, 0)


def tensor_split(input: Tensor, indices_or_sections, axis: int = 0) -> tuple[Tensor, ...]:
    """``input`` cut along ``axis``: into ``indices_or_sections`` nearly equal pieces (the first ``size % n`` one
    longer), or before each index of a list or tuple (pieces past the end are empty).

    Raises:
        TypeError: if ``indices_or_sections`` is neither an int nor a list or tuple of ints.
        ValueError: if the count of sections is not positive.
    """
    check_value_type("axis", axis, [int], "tensor_split")
    size = input.shape[axis]
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        if indices_or_sections <= 0:
            raise ValueError(f"For 'tensor_split', 'indices_or_sections' must be positive, but got "
                             f"{indices_or_sections}.")
        share, longer = divmod(size, indices_or_sections)
        cuts = [i * share + min(i, longer) for i in range(1, indices_or_sections)]
    elif isinstance(indices_or_sections, (list, tuple)) and all(isinstance(i, int) for i in indices_or_sections):
        cuts = list(indices_or_sections)
    else:
        raise TypeError(f"For 'tensor_split', 'indices_or_sections' must be an int or a list or tuple of ints, but "
                        f"got {type(indices_or_sections).__name__}.")
    bounds = [0] + [min(max(c, 0), size) for c in cuts] + [size]
    axis = axis % len(input.shape)
    return tuple(input[tuple(slice(start, max(start, stop)) if d == axis else slice(None)
                             for d in range(len(input.shape)))]
                 for start, stop in zip(bounds, bounds[1:]))


def scatter(input: Tensor, axis: int, index: Tensor, src: Tensor) -> Tensor:
    """``input`` with ``src[i][j]...`` written where ``index[i][j]...`` points along ``axis`` (the
    elementwise scatter of ``tensor_scatter_elements``)."""
    return tensor_scatter_elements(input, index, src, axis)


def intopk(x1: Tensor, x2: Tensor, k: int) -> Tensor:
    """Bool, per row of the 2-D ``x1``: whether its element at the label ``x2`` is among its ``k`` largest
    (counting ties as in: fewer than ``k`` elements strictly larger).

    Raises:
        TypeError: if ``k`` is not an int.
    """
    check_value_type("k", k, [int], "InTopK")
    target = gather_elements(x1, 1, F.expand_dims(F.cast(x2, mstype.int64), 1))
    larger = F.reduce_sum(F.cast(F.greater(x1, target), mstype.int32), 1)
    return F.less(larger, k)


def softmin(x: Tensor, axis: int = -1, *, dtype=None) -> Tensor:
    """The softmax of ``-x`` along ``axis`` (after casting ``x`` to ``dtype`` when given)."""
    if dtype is not None:
        x = F.cast(x, dtype)
    return run("softmax", -x, axis=axis)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``input`` clipped to ``[min_val, max_val]`` elementwise."""
    return clip_by_value(input, min_val, max_val)


def tanhshrink(input: Tensor) -> Tensor:
    """``input - tanh(input)``."""
    return input - F.tanh(input)



def gumbel_softmax(logits: Tensor, tau: float = 1.0, hard: bool = False, dim: int = -1) -> Tensor:
    """``softmax((logits + g) / tau)`` along ``dim`` with Gumbel noise ``g = -log(-log(u))``, ``u`` uniform from
    npspore's global generator; with ``hard``, the one-hot of its largest entry whose gradient is the soft one's.

    Raises:
        TypeError: if ``logits`` is not float16/float32, ``tau`` not a float, ``hard`` not a bool, ``dim`` not an
            int. ValueError: if ``tau`` is not positive or ``dim`` out of range.
    """
    if not isinstance(logits, Tensor) or logits.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For 'gumbel_softmax', the 'logits' should be one of '['Float16', 'Float32']', but got "
                        f"type '{getattr(logits, 'dtype', type(logits).__name__)}'")
    check_value_type("tau", tau, [float], "gumbel_softmax")
    check_value_type("hard", hard, [bool], "gumbel_softmax")
    check_value_type("dim", dim, [int], "gumbel_softmax")
    if tau <= 0:
        raise ValueError(f"For 'gumbel_softmax', the 'tau' must be a positive float, but got {tau}.")
    rank = len(logits.shape)
    if not -rank <= dim < rank:
        raise ValueError(f"For 'gumbel_softmax', 'dim' must be in [{-rank}, {rank}), but got {dim}.")
    uniform = F.cast(uniform_draws(tuple(logits.shape), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32)),
                     logits.dtype)
    soft = run("softmax", (logits - F.log(-F.log(uniform))) / tau, axis=dim)
    if not hard:
        return soft
    index = F.argmax(soft, dim)
    hard_values = F.one_hot(index, logits.shape[dim], Tensor(1, logits.dtype), Tensor(0, logits.dtype), dim)
    return run("stop_gradient", hard_values - soft) + soft


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """The sliding ``kernel_size`` windows of an NCHW ``input`` as columns ``(N, C * kh * kw, L)`` (MindSpore's
    Im2Col), as :meth:`Tensor.unfold`.

    Raises:
        ValueError: if ``input`` is not 4-D, or no window fits it.
    """
    return input.unfold(kernel_size, dilation, padding, stride)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns ``(N, C * kh * kw, L)`` summed back into an NCHW image of ``output_size`` (a 1-D int Tensor or a
    pair of ints; overlapping windows add up, MindSpore's Col2Im): the transpose of :func:`unfold`.

    Raises:
        ValueError: if ``input`` does not hold ``L`` windows of ``kernel_size`` for ``output_size``.
    """
    return input.fold(output_size, kernel_size, dilation, padding, stride)
