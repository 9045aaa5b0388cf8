"""Array primitives, as ``mindspore.ops`` / ``ops.operations`` (``P``): ``Shape``, ``DType``, ``Identity``,
``Reciprocal``, ``Slice``, ``StridedSlice``, ``GatherNd``, ``BiasAdd``, ``L2Normalize``, ``ReLU6``, ``Pad``,
``SigmoidCrossEntropyWithLogits``, ``Eye``, ``SmoothL1Loss``, ``DepthToSpace``, ``BinaryCrossEntropy``,
``AdaptiveAvgPool2D``, ``GatherD``, ``CheckValid``, ``StandardNormal``, ``UniformReal``, ``Floor``, ``CumSum``,
``Unstack``, ``Sort``, ``Round`` and ``Meshgrid``,
configured once and called like functions over :mod:`npspore.ops.array_functional`."""
from __future__ import annotations

import numpy as np

from ..common.kernel_random import new_kernel
from . import array_functional as A
from .eager import run
from .losses import binary_cross_entropy, smooth_l1_loss
from .nn_functional import adaptive_avg_pool2d
from .primitives import Primitive, _Stateless
from .shape_queries import shape_of

__all__ = ["Shape", "DType", "Identity", "Reciprocal", "Slice", "StridedSlice", "GatherNd", "BiasAdd",
           "L2Normalize", "ReLU6", "Pad", "SigmoidCrossEntropyWithLogits", "Eye", "SmoothL1Loss",
           "DepthToSpace", "BinaryCrossEntropy", "AdaptiveAvgPool2D", "GatherD", "CheckValid",
           "StandardNormal", "UniformReal", "Floor", "CumSum", "Unstack", "Sort", "Round", "Meshgrid", "ReverseV2",
           "TupleToArray", "ScatterNd", "MaskedFill", "AddN", "ScalarToTensor", "LinSpace"]


class Shape(_Stateless):
    """``Shape()(x)``: the shape of ``x`` as a tuple of ints (in compiled code, a dynamic dim's size is read when
    the kernel runs)."""

    def __call__(self, input_x):
        return shape_of(input_x)


class DType(_Stateless):
    """``DType()(x)``: the dtype of ``x`` (``mindspore.float32`` ...)."""

    def __call__(self, input_x):
        return input_x.dtype


class Identity(_Stateless):
    """``Identity()(x)``: a Tensor equal to ``x`` (its gradient passes through)."""

    def __call__(self, input_x):
        return A.identity(input_x)


class Reciprocal(_Stateless):
    """``Reciprocal()(x)``: ``1 / x`` elementwise."""

    def __call__(self, x):
        return A.reciprocal(x)


class Slice(_Stateless):
    """``Slice()(x, begin, size)``: the block at ``begin`` of extent ``size`` (``-1``: to the end)."""

    def __call__(self, input_x, begin, size):
        return A.slice(input_x, begin, size)


class StridedSlice(Primitive):
    """``StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0)(x,
    begin, end, strides)``: see :func:`npspore.ops.array_functional.strided_slice`."""

    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        super().__init__("StridedSlice")
        for name, value in (("begin_mask", begin_mask), ("end_mask", end_mask), ("ellipsis_mask", ellipsis_mask),
                            ("new_axis_mask", new_axis_mask), ("shrink_axis_mask", shrink_axis_mask)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For 'StridedSlice', the '{name}' must be an int, but got {type(value).__name__}.")
            self.add_prim_attr(name, value)
        self.masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)

    def __call__(self, input_x, begin, end, strides):
        return A.strided_slice(input_x, begin, end, strides, *self.masks)


class GatherNd(_Stateless):
    """``GatherNd()(x, indices)``: the slices of ``x`` addressed by the last dim of ``indices``."""

    def __call__(self, input_x, indices):
        return A.gather_nd(input_x, indices)


class BiasAdd(Primitive):
    """``BiasAdd(data_format='NCHW')(x, bias)``: ``bias`` added along the channel dim."""

    def __init__(self, data_format="NCHW"):
        super().__init__("BiasAdd")
        self.data_format = data_format
        self.add_prim_attr("data_format", data_format)

    def __call__(self, input_x, bias):
        return A.bias_add(input_x, bias, self.data_format)


class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``: ``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""

    def __init__(self, axis=0, epsilon=1e-4):
        super().__init__("L2Normalize")
        if not isinstance(epsilon, float):
            raise TypeError(f"For 'L2Normalize', the 'epsilon' must be a float, but got {type(epsilon).__name__}.")
        self.axis, self.epsilon = axis, epsilon
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("epsilon", epsilon)

    def __call__(self, x):
        return A.l2_normalize(x, self.axis, self.epsilon)


class ReLU6(_Stateless):
    """``ReLU6()(x)``: ``min(max(x, 0), 6)`` elementwise."""

    def __call__(self, x):
        return A.relu6(x)


class Pad(Primitive):
    """``Pad(paddings)(x)``: ``x`` padded with zeros, one ``(before, after)`` pair per dim, first dim first.

    Raises:
        TypeError: if ``paddings`` is not a tuple of int pairs.
        ValueError: (on call) if ``paddings`` does not have one pair per dim of ``x``.
    """

    def __init__(self, paddings):
        super().__init__("Pad")
        if not isinstance(paddings, tuple) or not all(
                isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, int) for p in pair)
                for pair in paddings):
            raise TypeError(f"For 'Pad', the 'paddings' must be a tuple of int pairs, but got {paddings!r}.")
        self.paddings = paddings
        self.add_prim_attr("paddings", paddings)

    def __call__(self, input_x):
        return A.pad_pairs(input_x, self.paddings, "constant")


class SigmoidCrossEntropyWithLogits(_Stateless):
    """``SigmoidCrossEntropyWithLogits()(logits, label)``: the elementwise binary cross entropy of
    ``sigmoid(logits)`` against ``label``."""

    def __call__(self, logits, label):
        return A.sigmoid_cross_entropy_with_logits(logits, label)


class Eye(_Stateless):
    """``Eye()(n, m, dtype)``: the ``n`` x ``m`` Tensor of ``dtype`` with ones on the diagonal."""

    def __call__(self, n, m, dtype):
        return A.eye(n, m, dtype)


class SmoothL1Loss(Primitive):
    """``SmoothL1Loss(beta=1.0, reduction='none')(prediction, target)``: ``ops.smooth_l1_loss``."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__("SmoothL1Loss")
        self.beta, self.reduction = beta, reduction
        self.add_prim_attr("beta", beta)
        self.add_prim_attr("reduction", reduction)

    def __call__(self, prediction, target):
        return smooth_l1_loss(prediction, target, self.beta, self.reduction)


class DepthToSpace(Primitive):
    """``DepthToSpace(block_size)(x)``: (N, C, H, W) to (N, C / b², H b, W b), channel ``(i b + j) C/b² + c``
    going to row offset ``i`` and column offset ``j`` of channel ``c``.

    Raises:
        ValueError: if ``block_size`` is less than 2, or (on call) ``x`` is not 4-D with channels divisible
            by ``block_size ** 2``.
    """

    def __init__(self, block_size):
        super().__init__("DepthToSpace")
        if not isinstance(block_size, int) or isinstance(block_size, bool) or block_size < 2:
            raise ValueError(f"For 'DepthToSpace', the 'block_size' must be an int of at least 2, but got "
                             f"{block_size!r}.")
        self.block_size = block_size
        self.add_prim_attr("block_size", block_size)

    def __call__(self, x):
        b = self.block_size
        if len(x.shape) != 4 or x.shape[1] % (b * b):
            raise ValueError(f"For 'DepthToSpace', the input must be 4-D with channels divisible by "
                             f"{b * b}, but got shape {x.shape}.")
        n, c, h, w = x.shape
        blocks = run("reshape", x, shape=(n, b, b, c // (b * b), h, w))
        moved = run("transpose", blocks, axes=(0, 3, 4, 1, 5, 2))
        return run("reshape", moved, shape=(n, c // (b * b), h * b, w * b))


class BinaryCrossEntropy(Primitive):
    """``BinaryCrossEntropy(reduction='mean')(logits, labels, weight=None)``: ``ops.binary_cross_entropy``
    of the probabilities ``logits``."""

    def __init__(self, reduction="mean"):
        super().__init__("BinaryCrossEntropy")
        self.reduction = reduction
        self.add_prim_attr("reduction", reduction)

    def __call__(self, logits, labels, weight=None):
        return binary_cross_entropy(logits, labels, weight, self.reduction)


class AdaptiveAvgPool2D(Primitive):
    """``AdaptiveAvgPool2D(output_size)(x)``: ``ops.adaptive_avg_pool2d``."""

    def __init__(self, output_size):
        super().__init__("AdaptiveAvgPool2D")
        self.output_size = output_size
        self.add_prim_attr("output_size", output_size)

    def __call__(self, x):
        return adaptive_avg_pool2d(x, self.output_size)


class GatherD(_Stateless):
    """``GatherD()(x, dim, index)``: ``ops.gather_d``."""

    def __call__(self, x, dim, index):
        return A.gather_d(x, dim, index)


class CheckValid(_Stateless):
    """``CheckValid()(bboxes, img_metas)``: whether each box lies inside the image (``ops.check_valid``)."""

    def __call__(self, bboxes, img_metas):
        return A.check_valid(bboxes, img_metas)


class _RandomPrimitive(Primitive):
    """A primitive drawing Float32 samples of a given shape as its MindSpore CPU kernel does: an engine seeded from
    ``(seed, seed2)`` when the primitive is first called, continued by each later call (both 0: a seed from the
    operating system, as MindSpore's ``std::random_device``).

    Raises:
        TypeError: if ``seed`` or ``seed2`` is not an int, or ``shape`` not a tuple of ints.
        ValueError: if ``seed`` or ``seed2`` is negative.
    """

    _op = "random_normal"

    def __init__(self, seed=0, seed2=0):
        super().__init__(type(self).__name__)
        for arg, value in (("seed", seed), ("seed2", seed2)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For '{self.name}', the '{arg}' must be an int, but got {type(value).__name__}.")
            if value < 0:
                raise ValueError(f"For '{self.name}', the '{arg}' must be int and must >= 0, but got {value}.")
        self.add_prim_attr("seed", seed)
        self.add_prim_attr("seed2", seed2)
        self.seeds = new_kernel(A._KERNELS[self._op], (seed, seed2))

    def __call__(self, shape):
        if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise TypeError(f"For '{self.name}', the 'shape' must be a tuple of ints, but got {shape!r}.")
        return run(self._op, shape=shape, dtype=np.dtype(np.float32), seeds=self.seeds)


class StandardNormal(_RandomPrimitive):
    """``StandardNormal(seed=0, seed2=0)(shape)``: standard normal Float32 samples, MindSpore's numbers."""


class UniformReal(_RandomPrimitive):
    """``UniformReal(seed=0, seed2=0)(shape)``: Float32 samples uniform in [0, 1), MindSpore's numbers."""

    _op = "random_uniform"


class Floor(_Stateless):
    """``Floor()(x)``: the largest integer not above each element (gradient zero)."""

    def __call__(self, x):
        return A.floor(x)


class CumSum(Primitive):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``: running sums along ``axis`` (``ops.cumsum``)."""

    def __init__(self, exclusive=False, reverse=False):
        super().__init__("CumSum")
        self.exclusive, self.reverse = exclusive, reverse
        self.add_prim_attr("exclusive", exclusive)
        self.add_prim_attr("reverse", reverse)

    def __call__(self, x, axis):
        return A.running_sum(x, axis, self.exclusive, self.reverse)


class Unstack(Primitive):
    """``Unstack(axis=0, num=None)(x)``: the slices of ``x`` along ``axis``, as a tuple."""

    def __init__(self, axis=0, num=None):
        super().__init__("Unstack")
        self.axis = axis
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("num", num)

    def __call__(self, input_x):
        return A.unstack(input_x, self.axis)


class Sort(Primitive):
    """``Sort(axis=-1, descending=False)(x)``: ``(values, Int32 indices)`` sorted along ``axis``, ties in order."""

    def __init__(self, axis=-1, descending=False):
        super().__init__("Sort")
        self.axis, self.descending = axis, descending
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("descending", descending)

    def __call__(self, x):
        return A.sort(x, self.axis, self.descending)


class Round(_Stateless):
    """``Round()(input, decimals=0)``: the nearest integer, halves to even (``ops.round``)."""

    def __call__(self, input, decimals=0):
        return A.round(input, decimals=decimals)


class Meshgrid(Primitive):
    """``Meshgrid(indexing='xy')(inputs)``: coordinate grids of the tuple of 1-D ``inputs`` (``ops.meshgrid``)."""

    def __init__(self, indexing="xy"):
        super().__init__("Meshgrid")
        self.indexing = indexing
        self.add_prim_attr("indexing", indexing)

    def __call__(self, inputs):
        return A.meshgrid(*inputs, indexing=self.indexing)


class ReverseV2(Primitive):
    """``ReverseV2(axis)(x)``: ``x`` reversed along each axis of ``axis`` (:func:`~npspore.ops.flip`)."""

    def __init__(self, axis):
        super().__init__("ReverseV2")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, input_x):
        return A.flip(input_x, self.axis)


class TupleToArray(_Stateless):
    """``TupleToArray()(input_x)``: a tuple of numbers as a 1-D Tensor (:func:`~npspore.ops.tuple_to_array`),
    with MindSpore's checks.

    Raises:
        TypeError: if ``input_x`` is not a tuple, or mixes ints and floats.
        ValueError: if ``input_x`` is empty.
    """

    def __call__(self, input_x):
        if not isinstance(input_x, tuple):
            raise TypeError(f"For 'TupleToArray', the type of 'x' should be 'tuple', but got type "
                            f"'{type(input_x).__name__}'.")
        if not input_x:
            raise ValueError("For 'TupleToArray', the size of x should be > : 0, but got 0.")
        if len({type(v) for v in input_x}) != 1:
            raise TypeError("For 'TupleToArray', all elements of 'input_x' must be have same type.")
        return A.tuple_to_array(input_x)


class ScatterNd(_Stateless):
    """``ScatterNd()(indices, updates, shape)``: :func:`~npspore.ops.scatter_nd`."""

    def __call__(self, indices, updates, shape):
        return A.scatter_nd(indices, updates, shape)


class MaskedFill(_Stateless):
    """``MaskedFill()(input, mask, value)``: :func:`~npspore.ops.masked_fill`."""

    def __call__(self, input, mask, value):
        return A.masked_fill(input, mask, value)


class AddN(_Stateless):
    """``AddN()(x)``: the elementwise sum of the tuple of Tensors ``x`` (:func:`~npspore.ops.addn`)."""

    def __call__(self, x):
        return A.addn(x)


class ScalarToTensor(_Stateless):
    """``ScalarToTensor()(input_x, dtype=mstype.float32)``: :func:`~npspore.ops.scalar_to_tensor`."""

    def __call__(self, input_x, dtype=A.mstype.float32):
        return A.scalar_to_tensor(input_x, dtype)


class LinSpace(_Stateless):
    """``LinSpace()(start, stop, num)``: :func:`~npspore.ops.linspace`."""

    def __call__(self, start, stop, num):
        return A.linspace(start, stop, num)
