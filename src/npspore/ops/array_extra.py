"""Array indexing and shape functions of ``mindspore.ops`` written over ops of the table: ``triu``, ``tril``,
``index_select``, ``chunk``, ``repeat_interleave``, ``narrow``, ``unbind``, ``swapaxes``, ``dstack``,
``nonzero`` (their primitive classes come from :mod:`primitive_table`). Each runs eagerly and compiled and is
differentiable where MindSpore's is."""
from __future__ import annotations

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .array_functional import unstack
from .eager import run
from .nn_functional import topk

__all__ = ["triu", "tril", "index_select", "chunk", "repeat_interleave", "narrow", "unbind", "swapaxes", "dstack",
           "nonzero", "unique"]


def _triangle(input: Tensor, diagonal: int, upper: bool, name: str) -> Tensor:
    check_value_type("diagonal", diagonal, [int], name)
    if len(input.shape) < 2:
        raise ValueError(f"For '{name}', the dimension of 'input' must be greater than 1, but got "
                         f"{len(input.shape)}.")
    rows, cols = input.shape[-2:]
    kept = [[(c - r >= diagonal) if upper else (c - r <= diagonal) for c in range(cols)] for r in range(rows)]
    return run("where", Tensor(kept, mstype.bool_), input, run("zeros_like", input))


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """``input`` with the elements below the ``diagonal``-th diagonal of its last two dims set to 0."""
    return _triangle(input, diagonal, True, "Triu")


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """``input`` with the elements above the ``diagonal``-th diagonal of its last two dims set to 0."""
    return _triangle(input, diagonal, False, "Tril")


def index_select(input: Tensor, axis: int, index: Tensor) -> Tensor:
    """The slices of ``input`` along ``axis`` at the 1-D int ``index``.

    Raises:
        TypeError: if ``index`` is not an int32/int64 Tensor. ValueError: if it is not 1-D.
    """
    if not isinstance(index, Tensor) or index.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'index_select', the 'index' must be a Tensor of int32 or int64, but got "
                        f"{getattr(index, 'dtype', type(index).__name__)}.")
    if len(index.shape) != 1:
        raise ValueError(f"For 'index_select', the 'index' must be 1-D, but got {len(index.shape)}-D.")
    return F.gather(input, index, axis)


def chunk(input: Tensor, chunks: int, axis: int = 0) -> tuple[Tensor, ...]:
    """``input`` cut along ``axis`` into ``chunks`` pieces of ``ceil(size / chunks)`` (the last may be smaller,
    and there may be fewer pieces).

    Raises:
        TypeError: if ``chunks`` or ``axis`` is not an int. ValueError: if ``chunks`` is not positive.
    """
    check_value_type("chunks", chunks, [int], "chunk")
    check_value_type("axis", axis, [int], "chunk")
    if chunks <= 0:
        raise ValueError(f"For 'chunk', the 'chunks' must be greater than 0, but got {chunks}.")
    size = input.shape[axis]
    return F.split(input, max(-(-size // chunks), 1), axis)


def repeat_interleave(input: Tensor, repeats, axis: int | None = None) -> Tensor:
    """Each element (``axis=None``: of the flattened ``input``) or slice along ``axis`` repeated ``repeats``
    times in place (an int, or one count per slice as a list or tuple).

    Raises:
        TypeError: if ``repeats`` is not an int, list or tuple of ints (npspore reads no counts from a Tensor).
        ValueError: if the counts do not match the slices.
    """
    if axis is None:
        input, axis = F.reshape(input, (-1,)), 0
    size = input.shape[axis]
    if isinstance(repeats, int) and not isinstance(repeats, bool):
        counts = [repeats] * size
    elif isinstance(repeats, (list, tuple)) and all(isinstance(r, int) for r in repeats):
        counts = list(repeats) if len(repeats) != 1 else list(repeats) * size
    else:
        raise TypeError(f"For 'repeat_interleave', npspore takes 'repeats' as an int or a list or tuple of ints, "
                        f"but got {type(repeats).__name__}.")
    if len(counts) != size:
        raise ValueError(f"For 'repeat_interleave', 'repeats' must give one count for each of the {size} slices, "
                         f"but got {len(counts)}.")
    index = Tensor([position for position, count in enumerate(counts) for _ in range(count)], mstype.int64)
    return F.gather(input, index, axis)


def narrow(input: Tensor, axis: int, start: int, length: int) -> Tensor:
    """The ``length`` slices of ``input`` along ``axis`` from ``start``.

    Raises:
        ValueError: if the range is outside the dim.
    """
    size = input.shape[axis]
    if not 0 <= start <= size or not 0 <= length <= size - start:
        raise ValueError(f"For 'narrow', 'start' ({start}) and 'length' ({length}) must lie in the dim of size "
                         f"{size}.")
    index = tuple(slice(start, start + length) if d == axis % len(input.shape) else slice(None)
                  for d in range(len(input.shape)))
    return input[index]


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``input`` along ``dim``, each without that dim."""
    return unstack(input, dim)


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input`` with the dims ``axis0`` and ``axis1`` exchanged."""
    rank = len(input.shape)
    perm = list(range(rank))
    perm[axis0 % rank], perm[axis1 % rank] = perm[axis1 % rank], perm[axis0 % rank]
    return F.transpose(input, tuple(perm))


def dstack(tensors) -> Tensor:
    """The Tensors joined along a third dim (1-D ``(n,)`` as ``(1, n, 1)``, 2-D ``(m, n)`` as ``(m, n, 1)``)."""
    shaped = []
    for tensor in tensors:
        if len(tensor.shape) == 1:
            tensor = F.reshape(tensor, (1, tensor.shape[0], 1))
        elif len(tensor.shape) == 2:
            tensor = F.expand_dims(tensor, 2)
        elif len(tensor.shape) == 0:
            tensor = F.reshape(tensor, (1, 1, 1))
        shaped.append(tensor)
    return F.concat(tuple(shaped), 2)


def nonzero(input: Tensor, *, as_tuple: bool = False):
    """The int64 coordinates of the nonzero elements of ``input``, ``(N, rank)`` in row-major order (a tuple of
    ``rank`` 1-D Tensors with ``as_tuple``). ``N`` is known when the kernel runs."""
    shape = tuple(input.shape)
    rank = len(shape)
    if not rank:
        raise ValueError("For 'nonzero', the dimension of 'input' must be at least 1, but got 0.")
    ramps = [F.broadcast_to(F.reshape(Tensor(list(range(size)), mstype.int64),
                                      tuple(size if d == axis else 1 for d in range(rank))), shape)
             for axis, size in enumerate(shape)]
    found = F.masked_select(F.stack(ramps, -1), F.expand_dims(F.not_equal(input, 0), -1))
    coordinates = F.reshape(found, (-1, rank))
    return tuple(coordinates[:, d] for d in range(len(shape))) if as_tuple else coordinates


def _unique_flat(flat: Tensor) -> tuple[Tensor, Tensor]:
    """The distinct values of the 1-D ``flat`` in the order they first appear, and for each element the position of
    its value among them (int64 for an int64 input, else int32). Compares all pairs: ``O(n^2)`` memory."""
    size = flat.shape[0]
    same = F.equal(F.expand_dims(flat, 1), F.expand_dims(flat, 0))
    before = Tensor([[j < i for j in range(size)] for i in range(size)], mstype.bool_)
    first = F.logical_not(F.any(F.logical_and(same, before), 1))
    rank = F.cumsum(F.cast(first, mstype.int64), 0) - 1
    index = F.gather(rank, F.argmax(F.cast(same, mstype.int32), 1), 0)
    dtype = mstype.int64 if flat.dtype == mstype.int64 else mstype.int32
    return F.masked_select(flat, first), F.cast(index, dtype)


def unique(input: Tensor) -> tuple[Tensor, Tensor]:
    """The distinct elements of ``input`` (flattened) in the order they first appear, and the index into them of
    each element of ``input`` (of ``input``'s shape). The number of distinct elements is known when the kernel
    runs."""
    values, index = _unique_flat(F.reshape(input, (-1,)))
    return values, F.reshape(index, tuple(input.shape))


def unique_1d(input_x: Tensor) -> tuple[Tensor, Tensor]:
    """``P.Unique()(x)``: :func:`unique` of a 1-D ``x``.

    Raises:
        RuntimeError: if ``x`` is not 1-D (MindSpore's message).
    """
    if len(input_x.shape) != 1:
        raise RuntimeError("Rank of Unique's input must be 1.")
    return _unique_flat(input_x)
