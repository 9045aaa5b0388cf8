"""``mindspore.mint``'s shape and indexing functions with PyTorch-style arguments (``dim``, ``dims``):
joining and cutting (``cat``, ``stack``, ``split``, ``chunk``, ``unbind``), reshaping (``flatten``, ``permute``,
``transpose``, ``t``, ``squeeze``, ``unsqueeze``), selecting (``narrow``, ``select``, ``index_select``, ``gather``,
``topk``, ``sort``, ``argsort``), writing by index (``scatter``, ``scatter_add``, ``index_add``) and the
``roll``/``tril``/``triu``/``diag``/``diff``/``repeat_interleave``/``meshgrid`` family. Indices are Int64, as
MindSpore 2.10 returns them. Each is a composition of the op table's ops, so it runs eagerly and compiled and
differentiates as they do."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..numpy_more import diag as _diag, repeat as _repeat, roll as _roll, tril as _tril, triu as _triu
from ..ops import functional as F
from ..ops.array_functional import gather_d, meshgrid as _meshgrid, scatter_nd, sort as _sort, unstack
from ..ops.eager import run
from ..ops.mint_functions import ravel, roll, searchsorted  # noqa: F401
from ..ops.nn_functional import topk as _topk

__all__ = ["cat", "concat", "stack", "split", "chunk", "unbind", "flatten", "ravel", "reshape", "permute",
           "transpose", "swapaxes", "t", "squeeze", "unsqueeze", "broadcast_to", "narrow", "select", "index_select",
           "gather", "scatter", "scatter_add", "index_add", "topk", "sort", "argsort", "roll", "tril", "triu", "diag",
           "diff", "repeat_interleave", "meshgrid", "searchsorted"]


def _int64(x: Tensor) -> Tensor:
    return x if x.dtype == mstype.int64 else run("cast", x, dtype=np.int64)


def cat(tensors: tuple | list, dim: int = 0) -> Tensor:
    """The Tensors of ``tensors`` joined along ``dim``."""
    return run("concat", *tensors, axis=dim)


concat = cat


def stack(tensors: tuple | list, dim: int = 0) -> Tensor:
    """The Tensors of ``tensors`` (one shape) stacked along a new dim ``dim``."""
    return run("stack", *tensors, axis=dim)


def split(tensor: Tensor, split_size_or_sections: int | tuple | list, dim: int = 0) -> tuple:
    """``tensor`` cut along ``dim`` into chunks of ``split_size_or_sections`` (the last may be smaller), or of the
    sizes it lists: a tuple of Tensors."""
    return F.split(tensor, split_size_or_sections, dim)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """``input`` cut along ``dim`` into at most ``chunks`` parts of ``ceil(size / chunks)`` (the last smaller).

    Raises:
        ValueError: if ``chunks`` is not positive.
    """
    if not isinstance(chunks, int) or chunks <= 0:
        raise ValueError(f"For 'chunk', 'chunks' must be a positive int, but got {chunks!r}.")
    size = input.shape[dim]
    return F.split(input, max(-(-size // chunks), 1), dim)


def unbind(input: Tensor, dim: int = 0) -> tuple:
    """The slices of ``input`` along ``dim``, that dim removed."""
    return unstack(input, dim)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """``input`` with dims ``start_dim`` .. ``end_dim`` merged into one (a 0-D input gives shape ``(1,)``)."""
    if not input.shape:
        return run("reshape", input, shape=(1,))
    return run("flatten", input, start_dim=start_dim, end_dim=end_dim)


def reshape(input: Tensor, shape: tuple | list) -> Tensor:
    """``input`` with the shape ``shape`` (one entry may be -1)."""
    return run("reshape", input, shape=tuple(shape))


def permute(input: Tensor, dims: tuple | list) -> Tensor:
    """``input`` with its dims reordered as ``dims``."""
    return run("transpose", input, axes=tuple(dims))


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """``input`` with dims ``dim0`` and ``dim1`` exchanged."""
    order = list(range(len(input.shape)))
    order[dim0], order[dim1] = order[dim1], order[dim0]
    return run("transpose", input, axes=tuple(order))


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input`` with dims ``axis0`` and ``axis1`` exchanged."""
    return transpose(input, axis0, axis1)


def t(input: Tensor) -> Tensor:
    """The transpose of a 2-D Tensor (a 0-D or 1-D one as it is).

    Raises:
        ValueError: if ``input`` has more than 2 dims.
    """
    if len(input.shape) > 2:
        raise ValueError(f"For 't', the input must have at most 2 dims, but got {len(input.shape)}.")
    return input if len(input.shape) < 2 else transpose(input, 0, 1)


def squeeze(input: Tensor, dim: int | tuple) -> Tensor:
    """``input`` without the size-1 dims among ``dim`` (others named are kept)."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    ndim = len(input.shape)
    ones = tuple(d % ndim for d in dims if input.shape[d] == 1)
    return run("squeeze", input, axis=ones) if ones else input


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """``input`` with a dim of size 1 inserted at ``dim``."""
    return run("expand_dims", input, axis=dim)


def broadcast_to(input: Tensor, shape: tuple | list) -> Tensor:
    """``input`` broadcast to ``shape`` (-1 keeps a dim's size)."""
    return F.broadcast_to(input, tuple(shape))


def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The ``length`` slices of ``input`` from ``start`` along ``dim``.

    Raises:
        ValueError: if the range leaves the dim.
    """
    ndim = len(input.shape)
    dim = dim % ndim
    size = input.shape[dim]
    start = start + size if start < 0 else start
    if not 0 <= start <= size or length < 0 or start + length > size:
        raise ValueError(f"For 'narrow', start {start} and length {length} must lie within dim {dim} of size {size}.")
    index = tuple(slice(start, start + length) if d == dim else slice(None) for d in range(ndim))
    return run("getitem", input, index=index)


def select(input: Tensor, dim: int, index: int) -> Tensor:
    """The slice of ``input`` at ``index`` along ``dim``, that dim removed."""
    ndim = len(input.shape)
    return run("getitem", input, index=tuple(index if d == dim % ndim else slice(None) for d in range(ndim)))


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of ``input`` along ``dim`` at the 1-D ``index``.

    Raises:
        ValueError: if ``index`` is not 0-D or 1-D.
    """
    if len(index.shape) > 1:
        raise ValueError(f"For 'index_select', 'index' must be 0-D or 1-D, but got {len(index.shape)}-D.")
    return run("gather", input, run("reshape", index, shape=(-1,)), axis=dim)


def gather(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """``input`` at ``index`` along ``dim`` and at each element's own position in the other dims."""
    return gather_d(input, dim, index)


def _coordinates(dim: int, index: Tensor) -> Tensor:
    """The full coordinates ``(..., ndim)`` of each element of ``index`` (its value along ``dim``, its own
    position in the other dims), for ``scatter_nd``."""
    shape = tuple(index.shape)
    ndim = len(shape)
    columns = []
    for d in range(ndim):
        if d == dim % ndim:
            columns.append(_int64(index))
        else:
            positions = np.arange(shape[d], dtype=np.int64).reshape([-1 if k == d else 1 for k in range(ndim)])
            columns.append(run("broadcast_to", Tensor(positions), shape=shape))
    return run("stack", *columns, axis=-1)


def _updates(src: Any, index: Tensor, dtype: Any) -> Tensor:
    """``src``'s part matching ``index``'s shape (a number filled in that shape)."""
    if not isinstance(src, Tensor):
        return F.full(tuple(index.shape), src, dtype=dtype)
    return run("getitem", src, index=tuple(slice(0, size) for size in index.shape))


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``input`` plus each element of ``src`` added at ``index`` along ``dim`` (its own position in the other
    dims); repeated positions add up."""
    added = scatter_nd(_coordinates(dim, index), _updates(src, index, input.dtype), tuple(input.shape))
    return run("add", input, added)


def scatter(input: Tensor, dim: int, index: Tensor, src: Any) -> Tensor:
    """``input`` with the elements of ``src`` (or the number ``src``) written at ``index`` along ``dim`` (its
    own position in the other dims)."""
    coordinates = _coordinates(dim, index)
    updates = _updates(src, index, input.dtype)
    written = scatter_nd(coordinates, updates, tuple(input.shape))
    hit = scatter_nd(coordinates, run("ones_like", updates, dtype=np.float32), tuple(input.shape))
    return run("where", run("greater", hit, 0.0), written, input)


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """``input`` plus ``alpha`` times the slices of ``source`` added at the positions ``index`` along ``dim``."""
    ndim = len(input.shape)
    along = run("reshape", _int64(index), shape=tuple(-1 if d == dim % ndim else 1 for d in range(ndim)))
    full_index = run("broadcast_to", along, shape=tuple(source.shape))
    return scatter_add(input, dim, full_index, source if alpha == 1 else run("mul", source, alpha))


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> tuple:
    """The ``k`` largest (``largest=False``: smallest) elements along ``dim`` and their Int64 indices."""
    values, indices = _topk(input, k, dim, largest, sorted)
    return values, _int64(indices)


def sort(input: Tensor, *, dim: int = -1, descending: bool = False, stable: bool = False) -> tuple:
    """``input`` sorted along ``dim`` and the Int64 positions the values came from (ties keep their order)."""
    values, indices = _sort(input, dim, descending)
    return values, _int64(indices)


def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The Int64 positions that sort ``input`` along ``dim``."""
    return sort(input, dim=dim, descending=descending)[1]


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """``input`` (its last two dims) with the elements above the ``diagonal``-th diagonal zeroed."""
    return _tril(input, diagonal)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """``input`` (its last two dims) with the elements below the ``diagonal``-th diagonal zeroed."""
    return _triu(input, diagonal)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """The ``diagonal``-th diagonal of a matrix, or the square matrix with a vector on that diagonal."""
    return _diag(input, diagonal)


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``dim``, after joining ``prepend`` and ``append`` to ``input``."""
    parts = [part for part in (prepend, input, append) if part is not None]
    result = run("concat", *parts, axis=dim) if len(parts) > 1 else input
    ndim = len(result.shape)
    for _ in range(n):
        size = result.shape[dim]
        later = tuple(slice(1, size) if d == dim % ndim else slice(None) for d in range(ndim))
        earlier = tuple(slice(0, size - 1) if d == dim % ndim else slice(None) for d in range(ndim))
        result = run("sub", run("getitem", result, index=later), run("getitem", result, index=earlier))
    return result


def repeat_interleave(input: Tensor, repeats: int | list | tuple | Tensor, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each slice of ``input`` along ``dim`` (each element of the flattened input when None) repeated
    ``repeats`` times, or ``repeats[i]`` times for slice ``i``."""
    if isinstance(repeats, Tensor):
        repeats = repeats.asnumpy().tolist()
    if isinstance(repeats, list) and len(repeats) == 1:
        repeats = repeats[0]
    return _repeat(input, repeats, dim)


def meshgrid(*tensors: Tensor, indexing: str | None = None) -> tuple:
    """Coordinate grids of the 1-D ``tensors`` (``'ij'`` by default; ``'xy'`` swaps the first two dims).

    Raises:
        ValueError: if ``indexing`` is not ``'ij'``, ``'xy'`` or None.
    """
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing not in (None, "ij", "xy"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'ij' or 'xy', but got {indexing!r}.")
    return _meshgrid(*tensors, indexing=indexing or "ij")
