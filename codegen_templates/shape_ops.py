"""Shape ops: reshaping, permuting, joining and splitting, indexing, and array creation.

Their adjoints move the gradient back: ``reshape``/``flatten``/``squeeze`` reshape it, ``transpose``
applies the inverse permutation, ``concat``/``split`` split and join it, ``tile`` sums the tiles,
and indexing scatters it into zeros (``getitem_grad``, ``gather_grad``, ``masked_select_grad``:
ops of their own, each the transpose of the other, so gradients of gradients work too). Static
attribute names follow NumPy (``shape``, ``axes``, ``axis``, ``reps``, ``indices_or_sections``).
"""
import math

import numpy as np

from npspore import shape_rules as rules
from npspore.core import kernels_np as rt
from npspore.opdef import LINEAR, Aval, OpShapeError, call, op
from npspore.shape_rules import dtype_of, shape_of

TANGENT = LINEAR   # each differentiable op here is linear: its tangent is the op applied to the tangents

# ---------------------------------------------------------------- reshaping


@op(infer=rules.reshape, numpy=(np.reshape,))
class reshape:
    def forward(x, *, shape):
        return x.reshape(shape)

    def adjoint(x, out, dout, *, shape):
        return dout.reshape(x.shape)


@op(infer=rules.reshape_keeping)
class reshape_keeping:
    """``x`` in ``shape``, whose ``None`` entries keep ``x``'s dims at their positions: dims compiled code knows only
    when it runs (``x.reshape(x.shape[0], x.shape[1], -1)`` with a dynamic sequence and batch)."""

    def forward(x, *, shape):
        return rt.reshape_keeping(x, shape)

    def adjoint(x, out, dout, *, shape):
        return dout.reshape(x.shape)


@op(infer=rules.reshape_like)
class reshape_like:
    """``x`` reshaped to the shape of ``like`` (the array it was reshaped from), whose dims are known only when the
    kernel runs: the adjoint of a reshape, squeeze or flatten of such a value."""

    def forward(x, like):
        return x.reshape(like.shape)

    def adjoint(x, like, out, dout):
        return call("reshape_like", dout, x), None


@op(infer=rules.roll)
class roll:
    """``x`` shifted cyclically by ``shift`` along ``axis``: the library's roll along a dim known only when the kernel
    runs (a static dim is rolled as two slices joined, which export writes)."""

    def forward(x, *, shift, axis):
        return np.roll(x, shift, axis)

    def adjoint(x, out, dout, *, shift, axis):
        return call("roll", dout, shift=-shift, axis=axis)


@op(infer=rules.flatten)
class flatten:
    """Merge dims ``start_dim`` .. ``end_dim`` into one."""

    def forward(x, *, start_dim=0, end_dim=-1):
        return x.reshape(x.shape[:start_dim] + (-1,) + x.shape[end_dim:][1:])

    def adjoint(x, out, dout, *, start_dim=0, end_dim=-1):
        return dout.reshape(x.shape)


@op(infer=rules.copy)
class copy:
    """A C-ordered copy of ``x`` (with ``transpose``, of its last two dims swapped). Optimize emits it for a
    matrix that a loop multiplies by transposed on every step (``compiler/loops.py``): copied once before the
    loop, each step's product reads it in order."""

    def forward(x, *, transpose=False):
        return (np.swapaxes(x, -1, -2) if transpose else x).copy()

    adjoint = None   # emitted after the last differentiation


@op(infer=rules.expand_dims, numpy=(np.expand_dims,))
class expand_dims:
    def forward(x, *, axis):
        return np.expand_dims(x, axis)

    def adjoint(x, out, dout, *, axis):
        return np.squeeze(dout, axis=axis)


@op(infer=rules.squeeze, numpy=(np.squeeze,))
class squeeze:
    def forward(x, *, axis=None):
        return np.squeeze(x, axis=axis)

    def adjoint(x, out, dout, *, axis=None):
        return dout.reshape(x.shape)


@op(infer=rules.transpose, numpy=(np.transpose,))
class transpose:
    """Permute the dims by ``axes`` (``None`` reverses them)."""

    def forward(x, *, axes=None):
        return x.transpose(axes)

    def adjoint(x, out, dout, *, axes=None):
        if axes is None:
            return np.transpose(dout)
        perm = [a % dout.ndim for a in axes]
        return np.transpose(dout, axes=tuple([perm.index(i) for i in range(dout.ndim)]))


# ---------------------------------------------------------------- broadcasting and tiling


@op(infer=rules.broadcast_to, numpy=(np.broadcast_to,))
class broadcast_to:
    def forward(x, *, shape):
        return np.broadcast_to(x, shape)

    def adjoint(x, out, dout, *, shape):
        return dout


@op(infer=rules.tile, numpy=(np.tile,))
class tile:
    def forward(x, *, reps):
        return np.tile(x, reps)

    def adjoint(x, out, dout, *, reps):
        counts = (reps,) if isinstance(reps, int) else tuple(reps)
        n = max(len(counts), x.ndim)
        pairs = zip((1,) * (n - len(counts)) + counts, (1,) * (n - x.ndim) + x.shape)
        tiles = dout.reshape(tuple([d for pair in pairs for d in pair]))
        return np.sum(tiles, axis=tuple(range(0, 2 * n, 2))).reshape(x.shape)


# ---------------------------------------------------------------- joining and splitting


@op(infer=rules.concat, operand_dtype=rules.common_dtype, numpy=(np.concatenate,))
class concat:
    def forward(*xs, axis=0):
        return np.concatenate(xs, axis=axis)

    def adjoint(*xs, out, dout, axis=0):
        sizes = [x.shape[axis] for x in xs]
        unknown = [i for i, size in enumerate(sizes) if size is None]
        if len(unknown) > 1:   # several parts' sizes known only when the kernel runs: each part read at its
            starts = [0]       # positions, after the sizes of the parts before it
            for x, size in zip(xs, sizes):
                starts = starts + [starts[-1] + (size if size is not None else call("dim_size", x, axis=axis))]
            return tuple([np.take(dout, call("dim_range", x, axis=axis) + start, axis=axis)
                          for x, start in zip(xs, starts)])
        if unknown:   # one part's size known only when the kernel runs: the cuts after it counted from the end
            cuts = ([sum(sizes[:i]) for i in range(1, unknown[0] + 1)]
                    + [-sum(sizes[i:]) for i in range(unknown[0] + 1, len(xs))])
        else:
            cuts = [sum(sizes[:i]) for i in range(1, len(xs))]
        parts = call("split", dout, indices_or_sections=cuts, axis=axis)
        return tuple(parts) if len(xs) > 1 else parts[0]


@op(infer=rules.stack, operand_dtype=rules.common_dtype, numpy=(np.stack,))
class stack:
    def forward(*xs, axis=0):
        return np.stack(xs, axis=axis)

    def adjoint(*xs, out, dout, axis=0):
        parts = [np.squeeze(part, axis=axis) for part in np.split(dout, indices_or_sections=len(xs), axis=axis)]
        return tuple(parts) if len(xs) > 1 else parts[0]


@op(infer=rules.split, numpy=(np.split,))
class split:
    """NumPy's ``split``: ``indices_or_sections`` is a number of equal parts or the indices to cut at."""

    def forward(x, *, indices_or_sections, axis=0):
        return rt.split_parts(x, indices_or_sections, axis=axis)

    def adjoint(x, out, dout, *, indices_or_sections, axis=0):
        return np.concatenate(dout, axis=axis)


# ---------------------------------------------------------------- indexing


@op(infer=rules.getitem)
class getitem:
    """Basic indexing with a static ``index`` (ints, slices, ``None``, ``...``, tuples of these)."""

    def forward(x, *, index):
        return x[index]

    def adjoint(x, out, dout, *, index):
        if None in x.shape:   # a dim known only when the kernel runs: written into zeros of x's shape
            return call("setitem", np.zeros_like(x), dout, index=index)
        return call("getitem_grad", dout, shape=x.shape, index=index)


@op(infer=rules.setitem)
class setitem:
    """``x`` with ``value`` written at a static ``index`` (ints, slices, ``None``, ``...``; ``value`` broadcast and
    cast to ``x``'s dtype): a new array. MindSpore's graph mode compiles ``x[index] = value`` so: the name ``x`` is
    bound to the result, and another name for the old value, or the caller's tensor, keeps the old value."""

    def forward(x, value, *, index):
        out = np.array(x)    # a copy, and an array where x is a NumPy scalar
        out[index] = value
        return out

    def adjoint(x, value, out, dout, *, index):
        return call("setitem", dout, 0, index=index), call("getitem", dout, index=index)


@op(infer=rules.setitem)
class setitem_in_place:
    """``setitem`` writing into ``x`` itself: only the optimizer emits it, for a new array of rank 1 or more that
    nothing else reads (``compiler/optimize.py``)."""

    def forward(x, value, *, index):
        x[index] = value
        return x

    adjoint = None


@op(infer=rules.getitem_grad)
class getitem_grad:
    """``g`` written into zeros of ``shape`` at ``index``: the transpose of ``getitem``."""

    def forward(g, *, shape, index):
        grad = np.zeros(shape, g.dtype)
        grad[index] = g
        return grad

    def adjoint(g, out, dout, *, shape, index):
        return dout[index]


@op(infer=rules.gather, numpy=(np.take,))
class gather:
    """``params`` indexed by the int tensor ``indices`` along ``axis`` (``np.take`` with an axis)."""

    def forward(params, indices, *, axis=0):
        return np.take(params, indices, axis=axis)

    def adjoint(params, indices, out, dout, *, axis=0):
        if None in params.shape and indices.ndim == 0:   # x[t] (a loop's index) with a dim known only when the
            if axis == 0:                                 # kernel runs: added into zeros of x's shape as a row
                return call("row_add", np.zeros_like(params), indices, dout), None
            first = (axis,) + tuple([a for a in range(params.ndim) if a != axis])
            rows = call("row_add", np.zeros_like(params).transpose(first), indices, dout)
            return rows.transpose(tuple([first.index(a) for a in range(params.ndim)])), None
        if None in params.shape and indices.ndim == 1:   # rows picked by an index vector: summed into each
            hit = np.expand_dims(indices, axis=1) == call("dim_range", params, axis=axis)   # position they were
            last = tuple([a for a in range(params.ndim) if a != axis]) + (axis,)          # read from, a product
            summed = np.matmul(dout.transpose(last), hit.astype(dout.dtype))             # with the (m, n) hits
            return summed.transpose(tuple([last.index(a) for a in range(params.ndim)])), None
        return call("gather_grad", dout, indices, shape=params.shape, axis=axis), None


@op(infer=rules.gather_grad)
class gather_grad:
    """``g`` added into zeros of ``shape`` at ``indices`` along ``axis`` (repeats add up): ``gather``'s transpose."""

    def forward(g, indices, *, shape, axis=0):
        grad = np.zeros(shape, g.dtype)
        rt.add_at(grad, indices, g, axis)
        return grad

    def adjoint(g, indices, out, dout, *, shape, axis=0):
        return call("gather", dout, indices, axis=axis), None


@op(infer=rules.masked_select)
class masked_select:
    """The elements of ``x`` where the bool ``mask`` (matching x's leading dims) holds, as ``x[mask]``."""

    def forward(x, mask):
        return x[mask]

    def adjoint(x, mask, out, dout):
        return call("masked_select_grad", dout, mask, shape=x.shape), None


@op(infer=rules.masked_select_grad)
class masked_select_grad:
    """``g`` written into zeros of ``shape`` where ``mask`` holds: the transpose of ``masked_select``."""

    def forward(g, mask, *, shape):
        grad = np.zeros(shape, g.dtype)
        grad[mask] = g
        return grad

    def adjoint(g, mask, out, dout, *, shape):
        return call("masked_select", dout, mask), None


# ---------------------------------------------------------------- creation


@op(infer=rules.filled, numpy=(np.ones,))
class ones:
    def forward(*, shape, dtype=np.float32):
        return np.ones(shape, dtype)

    adjoint = None


@op(infer=rules.filled, numpy=(np.zeros,))
class zeros:
    def forward(*, shape, dtype=np.float32):
        return np.zeros(shape, dtype)

    adjoint = None


@op(infer=rules.filled_like, numpy=(np.ones_like,))
class ones_like:
    def forward(x, *, dtype=None):
        return np.ones_like(x, dtype=dtype)

    adjoint = None


@op(infer=rules.filled_like, numpy=(np.zeros_like,))
class zeros_like:
    def forward(x, *, dtype=None):
        return np.zeros_like(x, dtype=dtype)

    adjoint = None


@op(infer=rules.fill)
class fill:
    """``shape`` filled with ``value`` (a number, or a tensor broadcast to ``shape``) in ``dtype``."""

    def forward(value, *, shape, dtype):
        return np.full(shape, value, dtype)

    adjoint = None


@op(infer=rules.dim_size)
class dim_size:
    """The size of dim ``axis`` of ``x`` when the kernel runs, an int64 scalar: ``x.shape[axis]`` of a dynamic
    dim (``set_inputs``), which no constant can stand for."""

    def forward(x, *, axis):
        return np.array(x.shape[axis], np.int64)

    adjoint = None


@op(infer=rules.dim_range)
class dim_range:
    """``0, 1, ..., n - 1`` (int64) for the size ``n`` of dim ``axis`` of ``x``: the positions along a dim known only
    when the kernel runs, which library code compares where a static dim gives constants (a running sum's
    triangle, a one-hot of that depth)."""

    def forward(x, *, axis):
        return np.arange(x.shape[axis], dtype=np.int64)

    adjoint = None


# ---------------------------------------------------------------- parts written into their concatenation
# Only optimize emits these (``compiler/concatparts.py``), after the last differentiation and export.


def _slot_rule(buf, *, start, stop, shape=(), axes=()):
    sliced = tuple(shape_of(buf)[:-1]) + (stop - start,)
    shaped = tuple(shape) or sliced
    if math.prod(shaped) != math.prod(sliced):
        raise OpShapeError(f"For 'concat_slot', 'shape' {shaped} does not hold the {sliced} slot.")
    return Aval(tuple(shaped[a] for a in axes) if axes else shaped, dtype_of(buf))


def _copy_into_rule(view, x):
    if tuple(shape_of(view)) != tuple(shape_of(x)) or dtype_of(view) != dtype_of(x):
        raise OpShapeError(f"For 'copy_into', 'x' must be of the view's shape and dtype, but got {shape_of(x)}.")
    return Aval(tuple(shape_of(view)), dtype_of(view))


def _buffer_rule(buf, *parts):
    return Aval(tuple(shape_of(buf)), dtype_of(buf))


@op(infer=rules.filled, numpy=(np.empty,))
class empty:
    """A new array of ``shape`` and ``dtype`` whose elements are not set: each is written before it is read."""

    def forward(*, shape, dtype=np.float32):
        return np.empty(shape, dtype)

    adjoint = None


@op(infer=_slot_rule)
class concat_slot:
    """The view of ``buf`` where a part of a concatenation along its last axis goes: its columns ``start:stop``,
    reshaped to ``shape`` and transposed by ``axes`` (``()``: not; each a view there: optimize checks it)."""

    def forward(buf, *, start, stop, shape=(), axes=()):
        return ((buf[..., start:stop].reshape(shape) if shape != () else buf[..., start:stop]).transpose(axes)
                if axes != () else buf[..., start:stop].reshape(shape) if shape != () else buf[..., start:stop])

    adjoint = None


@op(infer=_copy_into_rule)
class copy_into:
    """``x`` copied into the array ``view`` (a ``concat_slot``), which it returns; nothing to copy when ``x``
    was computed there (codegen writes no line)."""

    def forward(view, x):
        np.copyto(view, x)
        return view

    adjoint = None


@op(infer=_buffer_rule)
class concat_written:
    """``buf`` once its ``parts`` (``copy_into`` its slots) are written: the concatenation they make."""

    def forward(buf, *parts):
        return buf

    adjoint = None
