"""MindSpore 2.x's generated primitives of ``mindspore.ops.auto_generate.gen_ops_prim`` over the ``mint`` and
``ops`` functions (``AcosExt()(x)`` is ``mint.acos(x)``, ``AddExt()(x, y, alpha)`` is ``mint.add(x, y, alpha=alpha)``,
``InplaceMul()(x, y)`` writes ``x * y`` into ``x`` and returns ``x``), in :data:`GENERATED`.

These primitives take all their inputs at call time, in MindSpore's order and under MindSpore's names. Each row
of :data:`_CALLS` names a class and the function of MindSpore's call signature it applies; each row of
:data:`_IN_PLACE` names an in-place class and the function whose result it writes into its first input (cast to
that input's dtype, as MindSpore's in-place kernels do); the collective and normalization/backward families come
from their own modules' tables. All go through one factory,
:func:`npspore.ops.primitive_table.functional_primitive`.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from .. import mint, numpy_extra
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..mint.nn import functional as MF
from . import array_extra as arr
from . import array_functional as A
from . import functional as F
from . import linalg_functional as linalg
from . import math_functional as M
from . import scatter_ops as sc
from .eager import assign, run
from .functional_tail import hardtanh, take
from . import linalg_extra
from .gen_comm_prims import COLLECTIVES
from .gen_nn_prims import NN_CALLS, element_count
from .primitive_arrays_a_l import index_fill
from .primitive_table import functional_primitive


# ---------------------------------------------------------------- MindSpore's call signatures over mint/ops
def _add_ext(input: Any, other: Any, alpha: Any = 1) -> Tensor:
    return mint.add(input, other, alpha=alpha)


def _sub_ext(input: Any, other: Any, alpha: Any = 1) -> Tensor:
    return mint.sub(input, other, alpha=alpha)


def _addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return mint.addbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def _addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return mint.addmm(input, mat1, mat2, beta=beta, alpha=alpha)


def _arange(start: Any, end: Any, step: Any, dtype: Any = None) -> Tensor:
    return mint.arange(start, end, step, dtype=dtype)


def _div_mod(input: Any, other: Any, rounding_mode: str | None = None) -> Tensor:
    return mint.div(input, other, rounding_mode=rounding_mode)


def _sort_ext(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> tuple:
    return mint.sort(input, dim=dim, descending=descending, stable=stable)


def _fill(size: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    return mint.full(size, fill_value, dtype=dtype)


def _full_like(input: Tensor, fill_value: Any, dtype: Any = None) -> Tensor:
    return mint.full_like(input, fill_value, dtype=dtype)


def _ones_like(input: Tensor, dtype: Any = None) -> Tensor:
    return mint.ones_like(input, dtype=dtype)


def _zeros_like(input: Tensor, dtype: Any = None) -> Tensor:
    return mint.zeros_like(input, dtype=dtype)


def _new_ones(input: Tensor, size: Any, dtype: Any = None) -> Tensor:
    return mint.ones(size, dtype=input.dtype if dtype is None else dtype)


def _new_zeros(input: Tensor, size: Any, dtype: Any = None) -> Tensor:
    return mint.zeros(size, dtype=input.dtype if dtype is None else dtype)


def _linspace(start: Any, end: Any, steps: int, dtype: Any = None) -> Tensor:
    return mint.linspace(start, end, steps, dtype=dtype)


def _repeat_interleave(input: Tensor, repeats: Any, dim: int | None = None, output_size: int | None = None) -> Tensor:
    return mint.repeat_interleave(input, repeats, dim, output_size=output_size)


def _std_mean(input: Tensor, dim: Any = None, correction: int = 1, keepdim: bool = False) -> tuple:
    return mint.std_mean(input, dim, correction=correction, keepdim=keepdim)


def _var_mean(input: Tensor, dim: Any = None, correction: int = 1, keepdim: bool = False) -> tuple:
    return mint.var_mean(input, dim, correction=correction, keepdim=keepdim)


def _index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    return mint.index_add(input, dim, index, source, alpha=alpha)


def _scatter(input: Tensor, dim: int, index: Tensor, src: Any, reduce: str = "none") -> Tensor:
    """``input`` with ``src`` (a Tensor or a number) written (``reduce`` 'none') or added/multiplied
    ('add'/'multiply') at ``index`` along ``dim``."""
    if reduce == "none":
        return mint.scatter(input, dim, index, src)
    if not isinstance(src, Tensor):
        src = mint.full(index.shape, src, dtype=input.dtype)
    reduction = {"add": "add", "multiply": "mul"}.get(reduce)
    if reduction is None:
        raise ValueError(f"For 'Scatter', the 'reduce' must be 'none', 'add' or 'multiply', but got {reduce!r}.")
    return sc.tensor_scatter_elements(input, index, src, axis=dim, reduction=reduction)


def _scatter_value_reduce(input: Tensor, dim: int, index: Tensor, value: Any, reduce: str) -> Tensor:
    return _scatter(input, dim, index, value, reduce)


def _split(input: Tensor, split_size: Any, dim: int = 0) -> tuple:
    return mint.split(input, split_size, dim)


def _slice_ext(input: Tensor, dim: int, start: int, end: int, step: int) -> Tensor:
    """``input[..., start:end:step, ...]`` along ``dim``."""
    index = [slice(None)] * len(input.shape)
    index[dim] = slice(start, end, step)
    return input[tuple(index)]


def _stack(tensors: Any, dim: int = 0) -> Tensor:
    return mint.stack(tensors, dim)


def _expand_as(input: Tensor, other: Tensor) -> Tensor:
    return mint.broadcast_to(input, other.shape)


def _view_as(input: Tensor, other: Tensor) -> Tensor:
    return mint.reshape(input, other.shape)


def _repeat(input: Tensor, repeats: Any) -> Tensor:
    """``input`` tiled ``repeats`` times per dimension (``Tensor.repeat``; ``repeats`` may add leading ones)."""
    repeats = tuple(repeats)
    if len(repeats) < len(input.shape):
        raise ValueError(f"For 'Repeat', the number of 'repeats' ({len(repeats)}) must be at least the rank of "
                         f"'input' ({len(input.shape)}).")
    return F.tile(input, repeats)
def _threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``input`` where it exceeds ``threshold``, ``value`` elsewhere."""
    return F.where(run("greater", input, threshold), input, value)


def _bitwise_not(input: Tensor) -> Tensor:
    """``~input``: logical not of a Bool Tensor, ``-1 - input`` bitwise for integers."""
    if input.dtype == mstype.bool_:
        return F.logical_not(input)
    return M.bitwise_xor(input, F.cast(F.fill(input.dtype, (), -1), input.dtype))


def _kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """The ``k``-th smallest element along ``dim`` and its index."""
    values, indices = mint.sort(input, dim=dim, stable=True)
    return mint.select(values, dim, k - 1) if not keepdim else mint.narrow(values, dim, k - 1, 1), \
        mint.select(indices, dim, k - 1) if not keepdim else mint.narrow(indices, dim, k - 1, 1)


def _median_dim(input: Tensor, dim: int = -1, keepdim: bool = False) -> tuple:
    return mint.median(input, dim, keepdim)


def _median_ext(input: Tensor) -> Tensor:
    return mint.median(input)


def _max_all(input: Tensor) -> Tensor:
    return mint.max(input)


def _min_all(input: Tensor) -> Tensor:
    return mint.min(input)


def _nonzero(input: Tensor) -> Tensor:
    return arr.nonzero(input)


def swiglu(input: Tensor, dim: int = -1) -> Tensor:
    """``silu(a) * b`` of the two halves ``a``, ``b`` of ``input`` along ``dim``."""
    first, second = mint.chunk(input, 2, dim)
    return run("mul", MF.silu(first), second)


def _index_positions(indices: Any) -> Tensor:
    """The index Tensors ``indices`` (one per leading dimension), broadcast and stacked on a last axis."""
    shape = np.broadcast_shapes(*[tuple(index.shape) for index in indices])
    return mint.stack([mint.broadcast_to(F.cast(index, mstype.int64), shape) for index in indices], -1)


def _index(input: Tensor, indices: Any) -> Tensor:
    """``input[indices[0], indices[1], ...]``: advanced indexing by a list of index Tensors."""
    return F.gather_nd(input, _index_positions(indices))


def _index_put(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """``input`` with ``values`` written (or added, ``accumulate``) at ``input[indices...]``."""
    positions = _index_positions(indices)
    target_shape = tuple(positions.shape[:-1]) + tuple(input.shape[len(indices):])
    updates = mint.broadcast_to(F.cast(values, input.dtype), target_shape)
    return (sc.tensor_scatter_add if accumulate else sc.tensor_scatter_update)(input, positions, updates)


def _reflection_pad(input: Tensor, padding: Any) -> Tensor:
    """``input`` padded by ``padding`` (pairs from the last dimension) with its reflection."""
    return MF.pad(input, padding, "reflect")


def _replication_pad(input: Tensor, padding: Any) -> Tensor:
    """``input`` padded by ``padding`` (pairs from the last dimension) with copies of its edge."""
    pairs = [tuple(padding[index:index + 2]) for index in range(0, len(padding), 2)]
    widths = [(0, 0)] * (len(input.shape) - len(pairs)) + pairs[::-1]
    return numpy_extra.pad(input, widths, "edge")


def _constant_pad(input: Tensor, padding: Any, value: float = 0.0) -> Tensor:
    return MF.pad(input, padding, "constant", value)


def _conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
            dilation: Any = 1, groups: int = 1) -> Tensor:
    """1-D convolution: the 2-D one over a height-1 image."""
    out = MF.conv2d(F.expand_dims(input, -2), F.expand_dims(weight, -2), bias, (1, _single(stride)),
                    (0, _single(padding)) if not isinstance(padding, str) else padding, (1, _single(dilation)), groups)
    return F.squeeze(out, -2)


def _single(value: Any) -> Any:
    return value[0] if isinstance(value, (tuple, list)) else value


def _pair(value: Any) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def _conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                      output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    """The 2-D transposed convolution: ``(H - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1``
    rows (and columns)."""
    strides, pads, extra, dilations = _pair(stride), _pair(padding), _pair(output_padding), _pair(dilation)
    size = tuple((input.shape[2 + axis] - 1) * strides[axis] - 2 * pads[axis]
                 + dilations[axis] * (weight.shape[2 + axis] - 1) + extra[axis] + 1 for axis in range(2))
    return MF.conv_transpose2d(input, weight, bias, strides, (pads[0], pads[0], pads[1], pads[1]), size, dilations,
                               groups)


def _convolution(transposed: bool, input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,
                 dilation: Any, output_padding: Any, groups: int) -> Tensor:
    if transposed and len(input.shape) == 4 and not isinstance(padding, str):
        return _conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)
    if transposed:
        raise ValueError("For 'Convolution', a transposed convolution ('transposed' True) other than a 2-D one with "
                         "numeric padding is not implemented in npspore.")
    convolve: Callable | None = {3: _conv1d, 4: MF.conv2d, 5: MF.conv3d}.get(len(input.shape))
    if convolve is None:
        raise ValueError(f"For 'Convolution', the 'input' must be 3-D, 4-D or 5-D, but got {len(input.shape)}-D.")
    return convolve(input, weight, bias, stride, padding, dilation, groups)


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                dilation: Any = 1, transposed: bool = False, output_padding: Any = 0, groups: int = 1) -> Tensor:
    """The 1-, 2- or 3-D convolution (by ``input``'s rank) of ``input`` with ``weight``."""
    return _convolution(transposed, input, weight, bias, stride, padding, dilation, output_padding, groups)


def convolution_str(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                    padding: str = "valid", dilation: Any = 1, transposed: bool = False, output_padding: Any = 0,
                    groups: int = 1) -> Tensor:
    """:func:`convolution` with ``padding`` ``'valid'`` or ``'same'``."""
    return _convolution(transposed, input, weight, bias, stride, padding, dilation, output_padding, groups)


def _output_size(x: Tensor, output_size: Any, scales: Any) -> tuple:
    """``output_size``, or the spatial sizes of ``x`` times ``scales`` rounded down."""
    if output_size is not None:
        return tuple(output_size)
    spatial = x.shape[2:]
    return tuple(int(math.floor(size * scale)) for size, scale in zip(spatial, scales))


def _upsample(mode: str) -> Callable:
    def upsample(x: Tensor, output_size: Any = None, scales: Any = None, align_corners: bool = False) -> Tensor:
        return MF.interpolate(x, _output_size(x, output_size, scales), None, mode, align_corners)
    upsample.__name__ = upsample.__qualname__ = f"upsample_{mode}"
    upsample.__doc__ = f"``x`` resized to ``output_size`` (or by ``scales``) by '{mode}' interpolation."
    return upsample


def _upsample_nearest(x: Tensor, output_size: Any = None, scales: Any = None) -> Tensor:
    """``x`` resized to ``output_size`` (or by ``scales``) by nearest neighbours."""
    return MF.interpolate(x, _output_size(x, output_size, scales), None, "nearest")


def _adaptive_max_pool1d(input: Tensor, output_size: int) -> tuple:
    return MF.adaptive_max_pool1d(input, output_size, True)


def _strided_positions(size: tuple, stride: tuple, start: int) -> list[int]:
    """The flat positions ``start + i * stride[0] + j * stride[1] + ...`` over ``size``, in row-major order."""
    positions = [start]
    for length, step in zip(size, stride):
        positions = [position + index * step for position in positions for index in range(length)]
    return positions


def _as_strided(input: Tensor, size: Any, stride: Any, storage_offset: int = 0) -> Tensor:
    """The view of ``input``'s elements (row-major, as a fresh Tensor stores them) of shape ``size`` whose element
    ``(i, j, ...)`` is the flat element ``storage_offset + i * stride[0] + j * stride[1] + ...``."""
    size, stride = tuple(size), tuple(stride)
    reach = [(length - 1) * step for length, step in zip(size, stride) if length]
    lowest = storage_offset + sum(step for step in reach if step < 0)
    highest = storage_offset + sum(step for step in reach if step > 0)
    if all(size) and (lowest < 0 or highest >= element_count(input.shape)):
        raise ValueError(f"For 'AsStrided', the view of size {size}, stride {stride} and offset {storage_offset} "
                         f"reaches outside the {element_count(input.shape)} elements of 'input'.")
    positions = Tensor(np.array(_strided_positions(size, stride, storage_offset), np.int64))
    return F.reshape(F.gather(mint.reshape(input, (-1,)), positions, 0), size)


def _unique2(input: Tensor, sorted: bool = True, return_inverse: bool = False,
             return_counts: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """``(values, inverse, counts)``: the distinct elements of ``input`` in ascending order, the position among
    them of each element of ``input`` (in ``input``'s shape), and how often each occurs."""
    values, order = mint.sort(mint.reshape(input, (-1,)), stable=True)
    first = run("concat", Tensor([True]), run("not_equal", values[1:], values[:-1]), axis=0)
    distinct = F.masked_select(values, first)
    rank = mint.cumsum(F.cast(first, mstype.int64), 0) - 1
    inverse = sc.tensor_scatter_update(mint.zeros(rank.shape, dtype=mstype.int64), F.expand_dims(order, 1), rank)
    counts = run("sum", F.cast(run("equal", F.expand_dims(distinct, 1), F.expand_dims(values, 0)), mstype.int64),
                 axis=(1,))
    return distinct, mint.reshape(inverse, input.shape), counts


def _select_v2(condition: Tensor, input: Any, other: Any) -> Tensor:
    return F.where(condition, input, other)


def _t(input: Tensor) -> Tensor:
    return mint.t(input)


_CALLS: dict[str, Callable] = {
    # elementwise math
    "AcosExt": mint.acos, "AcoshExt": mint.acosh, "AsinExt": mint.asin, "AsinhExt": mint.asinh,
    "AtanExt": mint.atan, "Atan2Ext": mint.atan2, "AddExt": _add_ext, "AddScalar": _add_ext, "SubExt": _sub_ext,
    "SubScalar": _sub_ext, "Muls": mint.mul, "Divs": mint.div, "DivMod": _div_mod, "DivMods": _div_mod,
    "FloorDivScalar": F.floor_divide, "FmodScalar": mint.fmod, "FmodTensor": mint.fmod,
    "RemainderScalarTensor": mint.remainder, "RemainderTensorScalar": mint.remainder,
    "RemainderTensorTensor": mint.remainder, "PowScalarTensor": mint.pow, "PowTensorScalar": mint.pow,
    "XLogYScalarOther": mint.xlogy, "XLogYScalarSelf": mint.xlogy, "LogAddExp2": mint.logaddexp2,
    "AddcdivExt": M.addcdiv, "AddcmulExt": M.addcmul, "ClampScalar": mint.clamp, "ClampTensor": mint.clamp,
    "GreaterEqualScalar": mint.greater_equal, "IsNegInf": mint.isneginf,
    "BitwiseAndScalar": M.bitwise_and, "BitwiseAndTensor": M.bitwise_and, "BitwiseOrScalar": M.bitwise_or,
    "BitwiseOrTensor": M.bitwise_or, "BitwiseXorScalar": M.bitwise_xor, "BitwiseXorTensor": M.bitwise_xor,
    "BitwiseNot": _bitwise_not, "SelectV2": _select_v2,
    # linear algebra
    "Addbmm": _addbmm, "Dot": mint.dot, "Mm": mint.mm, "TraceExt": mint.trace, "MatrixInverseExt": linalg.inverse,
    "TExt": _t,
    # reductions, sorting
    "CountNonZero": mint.count_nonzero, "CumminExt": mint.cummin, "CumsumExt": mint.cumsum, "ArgSort": mint.argsort,
    "SortExt": _sort_ext, "TopkExt": mint.topk, "Kthvalue": _kthvalue, "MedianDim": _median_dim,
    "MedianExt": _median_ext, "Max": _max_all, "Min": _min_all, "StdMean": _std_mean, "VarMean": _var_mean,
    "HistcExt": mint.histc, "NonZeroExt": _nonzero,
    # creation
    "Arange": _arange, "LinSpaceExt": _linspace, "FillScalar": _fill, "FillTensor": _fill, "FullLike": _full_like,
    "OnesLikeExt": _ones_like, "ZerosLikeExt": _zeros_like, "NewOnes": _new_ones, "NewZeros": _new_zeros,
    "DiagExt": mint.diag, "TrilExt": mint.tril,
    # shapes, views, indexing
    "Clone": mint.clone, "Contiguous": mint.clone, "Copy": mint.clone, "StackExt": _stack,
    "BroadcastToView": mint.broadcast_to, "ExpandAs": _expand_as, "ExpandDimsView": mint.unsqueeze,
    "ViewAs": _view_as, "FlattenExt": mint.flatten, "Chunk": mint.chunk, "ChunkView": mint.chunk,
    "Narrow": mint.narrow, "NarrowView": mint.narrow, "SelectExtView": mint.select, "SliceExt": _slice_ext,
    "SliceExtView": _slice_ext, "SplitTensor": _split, "SplitTensorView": _split, "SplitWithSize": _split,
    "SplitWithSizeView": _split, "UnstackExtView": mint.unbind, "Repeat": _repeat,
    "RepeatInterleaveInt": _repeat_interleave, "RepeatInterleaveTensor": _repeat_interleave,
    "IndexSelect": mint.index_select, "IndexAddExt": _index_add, "IndexFillScalar": index_fill,
    "IndexFillTensor": index_fill, "Take": take, "Index": _index, "InnerIndex": _index,
    "Scatter": _scatter, "ScatterValue": _scatter, "ScatterAddExt": mint.scatter_add, "AsStrided": _as_strided,
    "Unique2": _unique2,
    # activations, losses
    "GeluExt": MF.gelu, "LeakyReLUExt": MF.leaky_relu, "MishExt": MF.mish, "SeLUExt": MF.selu,
    "SoftplusExt": MF.softplus, "Hardtanh": hardtanh, "Threshold": _threshold, "Swiglu": swiglu, "LinalgQr": linalg_extra.qr,
    "KLDiv": MF.kl_div, "L1LossExt": MF.l1_loss, "MSELossExt": MF.mse_loss,
    # padding, convolution, pooling, resizing
    "ConstantPadND": _constant_pad, "ReflectionPad1D": _reflection_pad, "ReflectionPad2D": _reflection_pad,
    "ReflectionPad3D": _reflection_pad, "ReplicationPad1D": _replication_pad, "ReplicationPad2D": _replication_pad,
    "ReplicationPad3D": _replication_pad,
    "Conv1DExt": _conv1d, "Conv1DPadding": _conv1d, "Conv2DExt": MF.conv2d, "Conv2DPadding": MF.conv2d,
    "Conv3DExt": MF.conv3d, "Conv3DPadding": MF.conv3d, "Convolution": convolution, "ConvolutionStr": convolution_str,
    "ConvTranspose2D": _conv_transpose2d,
    "AdaptiveAvgPool1D": MF.adaptive_avg_pool1d, "AdaptiveAvgPool2DExt": MF.adaptive_avg_pool2d,
    "AdaptiveAvgPool3DExt": MF.adaptive_avg_pool3d, "AdaptiveMaxPool1D": _adaptive_max_pool1d,
    "AvgPool1D": MF.avg_pool1d, "AvgPool2D": MF.avg_pool2d, "AvgPool3DExt": MF.avg_pool3d,
    "MaxUnpool2DExt": MF.max_unpool2d, "PixelShuffle": MF.pixel_shuffle, "Im2ColExt": MF.unfold,
    "Col2ImExt": MF.fold, "Embedding": MF.embedding,
    "UpsampleNearest1D": _upsample_nearest, "UpsampleNearest2D": _upsample_nearest,
    "UpsampleLinear1D": _upsample("linear"), "UpsampleBilinear2D": _upsample("bilinear"),
}


# ---------------------------------------------------------------- in-place primitives
def _in_place(name: str, function: Callable) -> Callable:
    """A function writing ``function(input, *rest)`` into ``input`` (cast to its dtype) and returning ``input``."""
    def update(input: Tensor, *rest: Any, **keywords: Any) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(f"For '{name}', the 'input' must be a Tensor, but got {type(input).__name__}.")
        assign(input, function(input, *rest, **keywords))
        return input
    update.__name__ = update.__qualname__ = getattr(function, "__name__", name)
    update.__module__ = getattr(function, "__module__", __name__)
    return update


def _copy(input: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    return mint.broadcast_to(src, input.shape)


def _fill_value(input: Tensor, value: Any) -> Tensor:
    return mint.full_like(input, value)


def _zero(input: Tensor) -> Tensor:
    return mint.zeros_like(input)


def _elu(input: Tensor, alpha: float = 1.0) -> Tensor:
    return MF.elu(input, alpha)


def _masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:
    return F.masked_fill(input, mask, value)


def _fill_diagonal(input: Tensor, fill_value: float, wrap: bool = False) -> Tensor:
    """``input`` with ``fill_value`` on its main diagonal (all indices equal); ``wrap``: a tall matrix's
    diagonal restarts every ``columns + 1`` rows."""
    shape = input.shape
    flat_positions = mint.arange(0, element_count(shape), 1, dtype=mstype.int64)
    if len(shape) == 2:
        rows, columns = shape
        stride = columns + 1
        limit = element_count(shape) if wrap else min(rows, columns) * columns
    else:
        stride = sum(element_count(shape[axis + 1:]) for axis in range(len(shape)))
        limit = element_count(shape)
    hit = run("logical_and", run("equal", mint.remainder(flat_positions, stride), 0), run("less", flat_positions, limit))
    return F.where(F.reshape(hit, shape), F.cast(F.fill(input.dtype, (), fill_value), input.dtype), input)


def _put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """``input`` with ``source`` written (or added) at the flat positions ``index``."""
    flat = mint.reshape(input, (-1,))
    positions = F.expand_dims(F.cast(mint.reshape(index, (-1,)), mstype.int64), -1)
    updates = F.cast(mint.reshape(source, (-1,)), input.dtype)
    put = (sc.tensor_scatter_add if accumulate else sc.tensor_scatter_update)(flat, positions, updates)
    return mint.reshape(put, input.shape)


def _masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """``input`` with the first elements of ``source``, in order, written where ``mask`` (broadcast) is True."""
    mask = mint.broadcast_to(mask, input.shape)
    order = F.cast(mint.cumsum(F.cast(mint.reshape(mask, (-1,)), mstype.int64), 0), mstype.int64) - 1
    taken = F.gather(mint.reshape(source, (-1,)), run("maximum", order, 0), 0)
    return F.where(mask, mint.reshape(F.cast(taken, input.dtype), input.shape), input)


_IN_PLACE: dict[str, Callable] = {
    "InplaceAddExt": _add_ext, "InplaceAddsExt": _add_ext, "InplaceSubExt": _sub_ext, "InplaceSubScalar": _sub_ext,
    "InplaceMul": mint.mul, "InplaceMuls": mint.mul, "InplaceDiv": mint.div, "InplaceDivs": mint.div,
    "InplaceDivMod": _div_mod, "InplaceDivMods": _div_mod, "InplaceFloorDivide": F.floor_divide,
    "InplaceFloorDivides": F.floor_divide, "InplaceAddmm": _addmm, "InplaceClampScalar": mint.clamp,
    "InplaceClampTensor": mint.clamp, "InplaceCopy": _copy, "InplaceFillScalar": _fill_value,
    "InplaceFillTensor": _fill_value, "InplaceZero": _zero, "InplaceFillDiagonal": _fill_diagonal,
    "InplaceElu": _elu, "InplaceErfinv": mint.erfinv, "InplaceExp": mint.exp, "InplaceLog": mint.log,
    "InplaceFloor": A.floor, "InplaceTanh": mint.tanh, "InplaceReLU": MF.relu, "InplaceHardtanh": hardtanh,
    "InplaceThreshold": _threshold, "InplaceIndexAddExt": _index_add, "InplaceIndexPut": _index_put,
    "InnerInplaceIndexPut": _index_put, "InplacePut": _put, "InplaceMaskedFillScalar": _masked_fill,
    "InplaceMaskedFillTensor": _masked_fill, "InplaceMaskedScatter": _masked_scatter,
    "InplaceScatterAdd": mint.scatter_add, "InplaceScatterSrc": _scatter, "InplaceScatterSrcReduce": _scatter,
    "InplaceScatterValue": _scatter, "InplaceScatterValueReduce": _scatter_value_reduce,
}

GENERATED: dict[str, type] = {name: functional_primitive(name, function) for name, function in _CALLS.items()}
GENERATED.update({name: functional_primitive(name, _in_place(name, function)) for name, function in _IN_PLACE.items()})
GENERATED.update({name: functional_primitive(name, function) for name, function in {**COLLECTIVES, **NN_CALLS}.items()})
GENERATED["StackExt"] = functional_primitive("StackExt", _stack, (("dim", 0, "dim"),))
