"""More of MindSpore 2.10's Tensor methods, of shapes, indexing, creation and dtypes: torch-style names real model
code calls (``x.movedim(1, -1)``, ``x.gather(1, idx)``, ``x.scatter_add(1, idx, src)``, ``x.new_zeros(shape)``,
``x.diagonal()``, ``x.t()``, ``x.unique()``...); the math ones are in :mod:`tensor_methods_math`.

As in :mod:`npspore.ops.tensor_methods`, each method calls the ops (or mint) function of the same meaning with
MindSpore's Tensor-method arguments, defaults and result dtypes, as observed on MindSpore 2.10 CPU (``searchsorted``
and ``count_nonzero`` give Int32, ``argwhere`` Int64, ``bincount`` Float32 even without weights). These methods use
``npspore.mint``, which imports ``npspore.ops``, so they are attached by ``npspore/__init__.py`` once both have
loaded.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..mint import reductions as mint_reductions, shapes as mint_shapes
from ..mint.nn import functional as mint_nn
from . import functional as F
from . import array_extra, array_functional, complex_ops, functional_tail, linalg_functional, math_functional, mint_functions
from . import nn_array_primitives, primitive_arrays2, primitive_arrays_a_l, scatter_ops, scatter_reduce
from . import segment_sparse
from .linalg_extra import _EagerOnlyCall


# ---------------------------------------------------------------------- shape and layout

def movedim(self, source, destination):
    """The dims ``source`` (an int or a tuple) moved to ``destination``, the other dims in order.

    Raises:
        ValueError: if a dim is out of range, or ``source`` and ``destination`` differ in length.
    """
    ndim = len(self.shape)
    sources = (source,) if isinstance(source, int) else tuple(source)
    destinations = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(sources) != len(destinations):
        raise ValueError(f"For 'movedim', 'source' and 'destination' must have the same number of dims, but got "
                         f"{source} and {destination}.")
    for axis in sources + destinations:
        if not -ndim <= axis < ndim:
            raise ValueError(f"The 'axis' must be in the range of [{-ndim}, {ndim}), but got {axis}.")
    sources = tuple(s % ndim for s in sources)
    order = [d for d in range(ndim) if d not in sources]
    for position, dim in sorted(zip((d % ndim for d in destinations), sources)):
        order.insert(position, dim)
    return F.transpose(self, tuple(order))


def moveaxis(self, source, destination):
    """Same as :func:`movedim`."""
    return movedim(self, source, destination)


def swapdims(self, dim0, dim1):
    """Swap dims ``dim0`` and ``dim1``."""
    return array_extra.swapaxes(self, dim0, dim1)


def t(self):
    """The transpose of a Tensor of at most 2 dims.

    Raises:
        ValueError: if the Tensor has more than 2 dims.
    """
    if len(self.shape) > 2:
        raise ValueError(f"For 't', the input must have at most 2 dims, but got {len(self.shape)}.")
    return F.transpose(self, tuple(range(len(self.shape)))[::-1])


def diagonal(self, offset=0, axis1=0, axis2=1):
    """The ``offset``-th diagonal over ``axis1`` and ``axis2``, as the last dim."""
    return linalg_functional.diagonal(self, offset, axis1, axis2)


def repeat(self, *repeats):
    """The Tensor tiled ``repeats[i]`` times along each dim (``repeat(2, 1)`` or ``repeat((2, 1))``); more repeats
    than dims add leading dims, as ``torch.Tensor.repeat``.

    Raises:
        ValueError: if there are fewer repeats than dims.
    """
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = tuple(repeats[0])
    if len(repeats) < len(self.shape):
        raise ValueError(f"For 'repeat', the number of repeats {len(repeats)} must be at least the number of dims "
                         f"{len(self.shape)}.")
    lead = (1,) * (len(repeats) - len(self.shape))
    return F.tile(self.reshape(lead + tuple(self.shape)), tuple(repeats))


def unfold(self, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding windows of the NCHW Tensor as columns ``(N, C * kh * kw, L)`` (im2col).

    Raises:
        ValueError: if the Tensor is not 4-D.
    """
    if len(self.shape) != 4:
        raise ValueError(f"For primitive[Im2Col], the dimension of input x must be equal to 4, but got "
                         f"{len(self.shape)}.")
    return mint_nn.unfold(self, kernel_size, dilation, padding, stride)


def fold(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The columns ``(N, C * kh * kw, L)`` summed back into an NCHW image of ``output_size`` (col2im; overlapping
    windows add up): the transpose of :func:`unfold`. ``output_size`` is a pair of ints or a 1-D int Tensor."""
    size = tuple(output_size.tolist()) if isinstance(output_size, Tensor) else tuple(output_size)
    return mint_nn.fold(self, size, kernel_size, dilation, padding, stride)


def msort(self):
    """The Tensor sorted along dim 0."""
    return array_functional.sort(self, 0)[0]


def vsplit(self, indices_or_sections):
    """Split along dim 0 into sections or at indices."""
    return F.tensor_split(self, indices_or_sections, 0)


def hsplit(self, indices_or_sections):
    """Split along dim 1 (dim 0 of a 1-D Tensor) into sections or at indices."""
    return F.tensor_split(self, indices_or_sections, 1 if len(self.shape) > 1 else 0)


def dsplit(self, indices_or_sections):
    """Split along dim 2 into sections or at indices."""
    return F.tensor_split(self, indices_or_sections, 2)


def diagflat(self, offset=0):
    """The square matrix with the flattened Tensor on its ``offset``-th diagonal."""
    return mint_shapes.diag(self.reshape(-1), offset)


def rot90(self, k, dims):
    """The Tensor rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first dim toward the second."""
    first, second = dims
    k %= 4
    if k == 0:
        return self
    if k == 2:
        return array_functional.flip(self, (first, second))
    swapped = array_extra.swapaxes(self, first, second)
    return array_functional.flip(swapped, (first,) if k == 1 else (second,))


def reverse(self, axis):
    """The Tensor with the order of elements along the dims ``axis`` reversed."""
    return array_functional.flip(self, tuple(axis))


def reverse_sequence(self, seq_lengths, seq_dim=0, batch_dim=0):
    """Each batch entry's first ``seq_lengths[b]`` elements along ``seq_dim`` reversed."""
    return nn_array_primitives.reverse_sequence(self, seq_lengths, seq_dim, batch_dim)


def sum_to_size(self, *size):
    """The Tensor summed down to ``size`` (which must broadcast to its shape): ``sum_to_size(1, 3)`` or
    ``sum_to_size((1, 3))``.

    Raises:
        ValueError: if ``size`` does not broadcast to the Tensor's shape.
    """
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    if lead < 0 or any(s not in (1, d) for s, d in zip(size, shape[lead:])):
        raise ValueError(f"For sum_to_size, size {size} is not expandable to the tensor size {shape}.")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1)
    return F.sum(self, axes, True).reshape(size) if axes else self.reshape(size)


# ---------------------------------------------------------------------- indexing and selection

def select(self, dim, index):
    """The slice at ``index`` along ``dim``, that dim removed."""
    return mint_shapes.select(self, dim, index)


def gather_nd(self, indices):
    """The elements (or slices) at the coordinates of ``indices``' last dim."""
    return array_functional.gather_nd(self, indices)


def index_add(self, indices=None, y=None, axis=None, use_lock=True, check_index_bound=True, *, dim=None,
              index=None, source=None, alpha=1):
    """The Tensor with the slices of ``y`` added at ``indices`` along ``axis`` (``use_lock`` and
    ``check_index_bound`` are accepted for MindSpore compatibility); or MindSpore 2.10's other overload,
    ``index_add(dim, index, source, *, alpha=1)``: ``alpha * source`` added at ``index`` along ``dim``
    (chosen when the first argument is an int, or by its keywords)."""
    if isinstance(indices, int) and not isinstance(indices, bool):   # index_add(dim, index, source)
        dim, index, source = indices, y, axis
    if dim is not None:
        return mint_shapes.index_add(self, dim, index, source, alpha=alpha)
    return mint_shapes.index_add(self, axis, indices, y)


def inplace_update(self, v, indices):
    """The Tensor with its rows ``indices`` replaced by the rows of ``v`` (a new Tensor, despite the name)."""
    return primitive_arrays2.inplace_update(self, v, indices)


def scatter_max(self, indices, updates):
    """The Tensor with the entries (or slices) at ``indices``' coordinates set to their maximum with ``updates``."""
    return scatter_reduce.tensor_scatter_max(self, indices, updates)


def scatter_min(self, indices, updates):
    """The Tensor with the entries (or slices) at ``indices``' coordinates set to their minimum with ``updates``."""
    return scatter_reduce.tensor_scatter_min(self, indices, updates)


def scatter_mul(self, indices, updates):
    """The Tensor with the entries (or slices) at ``indices``' coordinates multiplied by ``updates``."""
    return scatter_reduce.tensor_scatter_mul(self, indices, updates)


def scatter_div(self, indices, updates):
    """The Tensor with the entries (or slices) at ``indices``' coordinates divided by ``updates``."""
    return scatter_reduce.tensor_scatter_div(self, indices, updates)


def scatter_sub(self, indices, updates):
    """The Tensor with ``updates`` subtracted from the entries (or slices) at ``indices``' coordinates."""
    return scatter_ops.tensor_scatter_sub(self, indices, updates)


def index_put(self, indices, values, accumulate=False):
    """The Tensor with the positions of the index Tensors ``indices`` set to (or, with ``accumulate``, added)
    ``values``."""
    return primitive_arrays2.index_put(self, values, indices, int(accumulate))


def masked_scatter(self, mask, source):
    """The Tensor with the elements of ``source``, in order, where ``mask`` is true."""
    return segment_sparse.masked_scatter(self, mask, source)


def slice_scatter(self, src, axis=0, start=None, end=None, step=1):
    """The Tensor with ``src`` written into the slice ``start:end:step`` of ``axis``."""
    index = tuple(slice(start, end, step) if d == axis % len(self.shape) else slice(None)
                  for d in range(len(self.shape)))
    return _set_item(self, index, src)


def select_scatter(self, src, axis, index):
    """The Tensor with ``src`` written into the slice at ``index`` along ``axis``."""
    position = tuple(index if d == axis % len(self.shape) else slice(None) for d in range(len(self.shape)))
    return _set_item(self, position, src)


def _set_item(x, index, src):
    """``x`` with ``x[index] = src`` (``index`` of ints and slices), as a new Tensor."""
    out = F.identity(x)
    out[index] = src
    return out


def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    """The Tensor with ``src`` written onto its ``offset``-th diagonal over ``dim1`` and ``dim2``."""
    ndim = len(self.shape)
    dim1, dim2 = dim1 % ndim, dim2 % ndim
    rows, cols = self.shape[dim1], self.shape[dim2]
    plane = np.eye(rows, cols, offset, dtype=bool)
    mask = Tensor(plane.reshape(tuple(rows if d == dim1 else cols if d == dim2 else 1 for d in range(ndim))))
    start = max(-offset, 0)
    count = src.shape[-1]
    positions = np.zeros((rows, cols), np.int32)
    positions[np.arange(count) + start, np.arange(count) + start + offset] = np.arange(count)
    index = Tensor(positions.reshape(mask.shape))
    rest = [d for d in range(ndim) if d not in (dim1, dim2)]
    values = movedim(src, -1, 0)      # (count, *rest)
    values = values.reshape((count,) + tuple(self.shape[d] for d in rest))
    spread = F.gather(values, index.reshape(-1), 0).reshape((rows, cols) + tuple(self.shape[d] for d in rest))
    spread = movedim(spread, (0, 1), (dim1, dim2))
    return F.where(mask, spread, self)


def fill_diagonal(self, fill_value, wrap=False):
    """The Tensor (2-D, or N-D with equal dims) with its main diagonal set to ``fill_value``; ``wrap`` starts
    a tall matrix's diagonal again after each ``cols + 1`` rows."""
    return primitive_arrays2.fill_diagonal(self, fill_value, wrap)


def choose(self, choices, mode="clip"):
    """Elementwise ``choices[self]``: the int Tensor picks one of the Tensors of ``choices`` at each position
    (indices clipped to ``[0, len(choices) - 1]``, or wrapped with ``mode='wrap'``).

    Raises:
        NotImplementedError: for ``mode='raise'``, as MindSpore 2.10 raises.
        ValueError: for another ``mode`` (which MindSpore 2.10 takes as ``'clip'``).
    """
    if mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    if mode not in ("clip", "wrap"):
        raise ValueError(f"For 'Tensor.choose', 'mode' must be 'clip' or 'wrap', but got {mode!r}.")
    stacked = F.stack(tuple(choices), 0)
    count = stacked.shape[0]
    picks = F.clamp(self, 0, count - 1) if mode == "clip" else F.remainder(self, count)
    shape = tuple(stacked.shape[1:])
    picks = F.broadcast_to(picks, shape).reshape((1,) + shape)
    return array_functional.gather_elements(stacked, 0, F.cast(picks, mstype.int32)).reshape(shape)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements of the flattened Tensor in ascending order (``sorted=False`` sorts them too); with
    ``return_inverse`` also the Int64 index into them of each element (of the Tensor's shape), with ``return_counts``
    the Int64 number of each. Their number is known when the kernel runs.

    Raises:
        NotImplementedError: for ``dim`` other than None.
    """
    if dim is not None:
        raise NotImplementedError("For 'Tensor.unique', npspore supports only 'dim' None.")
    flat = self.reshape(-1)
    ordered, order = array_functional.sort(flat, 0)
    output, position = array_extra.unique(ordered)
    extras = ()
    if return_inverse:
        inverse = F.gather(F.cast(position, mstype.int64), functional_tail.argsort(order, 0), 0)
        extras += (inverse.reshape(tuple(self.shape)),)
    if return_counts:
        matches = F.equal(F.expand_dims(output, 1), F.expand_dims(flat, 0))
        extras += (F.sum(F.cast(matches, mstype.int64), 1),)
    return (output,) + extras if extras else output


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """The Tensor without the repeats of each run of equal elements (slices along ``dim``); with ``return_inverse``
    and ``return_counts`` also each element's Int64 run number and the Int64 run lengths."""
    output, inverse, counts = primitive_arrays2.unique_consecutive(self, return_inverse, return_counts, dim)
    if not (return_inverse or return_counts):
        return output
    return (output,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())

def gather(self, dim=None, index=None, batch_dims=0, *, input_indices=None, axis=None):
    """``gather(dim, index)``: elements along ``dim`` at ``index`` (same rank, as ``gather_elements``); the older
    ``gather(input_indices, axis, batch_dims=0)``, told apart by a Tensor first argument (or its keywords), takes
    whole slices."""
    if input_indices is not None:
        return F.gather(self, input_indices, axis if dim is None else dim, batch_dims)
    if isinstance(dim, Tensor):
        return F.gather(self, dim, index, batch_dims)
    return array_functional.gather_elements(self, dim, index)


def take(self, indices, axis=None, mode="clip"):
    """The elements (of the flattened Tensor when ``axis`` is None) at ``indices`` along ``axis``. Out-of-range
    indices are clipped (``'clip'``, negative ones counted from the end first, as MindSpore 2.10 does) or wrapped
    (``'wrap'``).

    Raises:
        ValueError: for another ``mode`` (``'raise'`` included: MindSpore 2.10 has no such mode either).
    """
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"For 'Tensor.take', the argument 'mode' should be one of in ['raise', 'wrap', 'clip'], "
                         f"but got {mode}.")
    if mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    source, axis = (self.reshape(-1), 0) if axis is None else (self, axis)
    size = source.shape[axis]
    if mode == "clip":
        from_end = F.add(indices, F.mul(F.cast(F.less(indices, 0), indices.dtype), size))
        indices = F.clamp(from_end, 0, size - 1)
    else:
        indices = F.remainder(indices, size)
    return F.gather(source, indices, axis)


def scatter(self, dim=None, index=None, src=None, *, reduce=None, axis=None):
    """The Tensor with ``src`` (a Tensor or a number) written along ``dim`` (or ``axis``) at ``index``;
    ``reduce='add'`` adds.

    Raises:
        ValueError: if ``reduce`` is not None or ``'add'``.
    """
    dim = axis if dim is None else dim
    if reduce not in (None, "add"):
        raise ValueError(f"For 'scatter', 'reduce' must be None or 'add', but got {reduce!r}.")
    if not isinstance(src, Tensor):
        src = F.full(tuple(index.shape), src, dtype=self.dtype)
    return scatter_ops.tensor_scatter_elements(self, index, src, dim, "none" if reduce is None else "add")


def scatter_add(self, dim, index, src):
    """The Tensor with ``src`` added along ``dim`` at ``index``."""
    return scatter_ops.tensor_scatter_elements(self, index, src, dim, "add")


def index_fill(self, axis, index, value):
    """The Tensor with the slices ``index`` along ``axis`` set to ``value`` (a number or a 0-d Tensor)."""
    return primitive_arrays_a_l.index_fill(self, axis, index, value)


def argwhere(self):
    """The Int64 coordinates of the nonzero elements, ``(N, ndim)``."""
    return array_extra.nonzero(self)


def searchsorted(self, v, side="left", sorter=None):
    """Int32 positions at which ``v`` goes into this sorted Tensor along its last dim."""
    return mint_functions.searchsorted(self, v, out_int32=True, side=side, sorter=sorter)


def count_nonzero(self, dim=None):
    """The Int32 number of nonzero elements over ``dim`` (an int, a tuple, or None for all)."""
    return math_functional.count_nonzero(self, () if dim is None else dim)


def _bincount_forward(x, weights, minlength):
    if x.ndim != 1:
        raise ValueError("For math function 'bincount', 'input' should be one-dimensional tensor.")
    kept = x >= 0   # negative values are not counted, as MindSpore 2.10 does
    counts = np.bincount(x[kept], None if weights is None else weights[kept], max(minlength, 0))
    return (counts.astype(np.float32 if weights is None else weights.dtype),)


_BINCOUNT = _EagerOnlyCall("bincount", _bincount_forward)


def bincount(self, weights=None, minlength=0):
    """The number of occurrences (or summed ``weights``) of each value of the 1-D int Tensor, as Float32.

    Eager only: the length depends on the values (compiled code raises ``NotSupportedError``).

    Raises:
        ValueError: if the Tensor is not 1-D.
    """
    return _BINCOUNT(self, weights, minlength)[0]


def histc(self, bins=100, min=0, max=0):  # noqa: A002 (MindSpore's argument names)
    """Counts of the elements in ``bins`` equal bins over ``[min, max]`` (over the data's range when ``min == max``,
    as MindSpore 2.10 counts them), in the Tensor's dtype."""
    return mint_reductions.histc(self, bins, 0, 0) if min == max else mint_reductions.histc(self, bins, min, max)


# ---------------------------------------------------------------------- creation

def _size(size, name):
    if isinstance(size, int):
        return (size,)
    if not isinstance(size, (tuple, list)) or not all(isinstance(d, int) for d in size):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of int, not {type(size).__name__}.")
    return tuple(size)


def new_zeros(self, size, dtype=None):
    """Zeros of ``size``, in ``dtype`` (the Tensor's by default)."""
    return F.zeros(_size(size, "new_zeros"), self.dtype if dtype is None else dtype)


def new_ones(self, size, dtype=None):
    """Ones of ``size``, in ``dtype`` (the Tensor's by default)."""
    return F.ones(_size(size, "new_ones"), self.dtype if dtype is None else dtype)


def new_full(self, size, fill_value, *, dtype=None):
    """``fill_value`` everywhere in ``size``, in ``dtype`` (the Tensor's by default)."""
    return F.full(_size(size, "new_full"), fill_value, dtype=self.dtype if dtype is None else dtype)


def new_empty(self, size, *, dtype=None, device=None):
    """A Tensor of ``size`` in ``dtype`` (the Tensor's by default), its values unspecified (zeros here)."""
    return F.zeros(_size(size, "new_empty"), self.dtype if dtype is None else dtype)


def clone(self):
    """A copy of the Tensor."""
    return F.identity(self)


# ---------------------------------------------------------------------- dtypes

def to(self, dtype=None, non_blocking=False, copy=False):
    """The Tensor as ``dtype`` (itself when ``dtype`` is None)."""
    return self if dtype is None else self.astype(dtype)


def _type(self, dtype=None):
    """``Tensor.type``: the Tensor as ``dtype``; without ``dtype``, the name of its dtype (``'Float32'``)."""
    return str(self.dtype) if dtype is None else self.astype(dtype)


def bfloat16(self):
    """The Tensor as bfloat16."""
    return self.astype(mstype.bfloat16)


def short(self):
    """The Tensor as int16."""
    return self.astype(mstype.int16)


def byte(self):
    """The Tensor as uint8."""
    return self.astype(mstype.uint8)


def _swap_last_two(self):
    return array_extra.swapaxes(self, -2, -1)


def _conjugate_swap(self):
    return conj(_swap_last_two(self))


def adjoint(self):
    """The conjugate transpose of the last two dims (the transpose, for a real Tensor)."""
    return _conjugate_swap(self)


mT = property(_swap_last_two, doc="The Tensor with its last two dims swapped.")
mH = property(_conjugate_swap, doc="The conjugate transpose of the last two dims (the transpose, real Tensors).")
H = property(_conjugate_swap, doc="The conjugate transpose of a matrix (the transpose, real Tensors).")


# ---------------------------------------------------------------------- facts and views

def value(self):
    """The Tensor itself (its value)."""
    return self


data = property(value, doc="The Tensor itself (no autograd history to drop in npspore).")


def _is_complex(x) -> bool:
    return x.dtype in (mstype.complex64, mstype.complex128)


def conj(self):
    """The complex conjugate (the Tensor itself, for a real Tensor)."""
    return complex_ops.Conj()(self) if _is_complex(self) else self


def real(self):
    """The real part (the Tensor itself, for a real Tensor)."""
    return complex_ops.Real()(self) if _is_complex(self) else self


def imag(self):
    """The imaginary part (zeros, for a real Tensor)."""
    return complex_ops.Imag()(self) if _is_complex(self) else F.zeros_like(self)


def is_contiguous(self):
    """True: npspore tensors are always contiguous."""
    return True


def stride(self, dim=None):
    """The number of elements between neighbours along each dim (along ``dim`` only, when given), C order."""
    strides = [1] * len(self.shape)
    for axis in range(len(self.shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * self.shape[axis + 1]
    return strides if dim is None else strides[dim]


def storage_offset(self):
    """0: a Tensor starts its own storage."""
    return 0


def ndimension(self):
    """The number of dims."""
    return self.ndim


def nelement(self):
    """The number of elements."""
    return self.size


def is_floating_point(self):
    """Whether the dtype is a floating-point type."""
    return self.dtype in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def is_complex(self):
    """Whether the dtype is complex."""
    return self.dtype in (mstype.complex64, mstype.complex128)


METHODS = {name: value for name, value in dict(globals()).items()
           if (callable(value) and not name.startswith("_") and getattr(value, "__module__", None) == __name__)
           or isinstance(value, property)}
METHODS["type"] = _type   # not named ``type`` here, where the builtin is used
"""Every method (and property) of this module, by name (attached by ``tensor_methods.attach``)."""
