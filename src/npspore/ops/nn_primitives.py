"""Neural-network primitives, as ``mindspore.ops``: ``Conv2D``, ``MaxPool``, ``AvgPool``, ``BatchNorm``,
``LayerNorm``, ``Depend`` and ``TopK``, configured once and called like functions (over
:mod:`npspore.ops.nn_functional`), with MindSpore's constructor arguments and ``repr``."""
from __future__ import annotations

from .._checkparam import check_positive_int, check_value_type
from ..common.kernel_random import new_kernel
from ..common.tensor import _np_dtype
from . import nn_functional as F
from .eager import run
from .primitives import Primitive

__all__ = ["Conv2D", "MaxPool", "AvgPool", "BatchNorm", "LayerNorm", "Depend", "TopK", "Dropout", "NMSWithMask",
           "RandomChoiceWithMask"]


def _nchw(value):
    """An int, pair or NCHW 4-tuple as MindSpore records it: ``(1, 1, h, w)``."""
    if isinstance(value, int):
        return (1, 1, value, value)
    if len(value) == 2:
        return (1, 1) + tuple(value)
    return tuple(value)


class Conv2D(Primitive):
    """``Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1, group=1)(x, w)``."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCHW"):
        super().__init__("Conv2D")
        self.out_channel, self.kernel_size, self.group = out_channel, kernel_size, group
        self.pad_mode = pad_mode.lower()
        self.pad = (pad,) * 4 if isinstance(pad, int) else tuple(pad)
        self.stride = _nchw(stride)
        self.dilation = _nchw(dilation)
        for name, value in (("out_channel", out_channel), ("kernel_size", kernel_size), ("mode", mode),
                            ("pad_mode", self.pad_mode), ("pad", self.pad), ("stride", self.stride),
                            ("dilation", self.dilation), ("group", group), ("data_format", data_format),
                            ("groups", group)):
            self.add_prim_attr(name, value)

    def __call__(self, x, w):
        return F.conv2d(x, w, None, self.stride[2:], self.pad_mode, self.pad, self.dilation[2:], self.group)


class MaxPool(Primitive):
    """``MaxPool(kernel_size=1, strides=1, pad_mode='valid')(x)``."""

    _pool_name = "MaxPool"

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        super().__init__(self._pool_name)
        self.kernel_size, self.strides = _nchw(kernel_size), _nchw(strides)
        self.pad_mode = pad_mode.lower()
        self.add_prim_attr("kernel_size", self.kernel_size).add_prim_attr("strides", self.strides)
        self.add_prim_attr("pad_mode", pad_mode.upper()).add_prim_attr("data_format", data_format)

    def __call__(self, x):
        return F._max_pool(x, self.kernel_size[2:], self.strides[2:], self.pad_mode, 0, 1, False, self._pool_name)


class AvgPool(MaxPool):
    """``AvgPool(kernel_size=1, strides=1, pad_mode='valid')(x)``: with ``'same'``, each window
    averages the input elements it covers (padding does not count)."""

    _pool_name = "AvgPool"

    def __call__(self, x):
        return F._avg_pool(x, self.kernel_size[2:], self.strides[2:], self.pad_mode, 0, False, False, None,
                           self._pool_name)


class BatchNorm(Primitive):
    """``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1)(x, scale, bias, mean, variance)``.

    Returns ``(y, zeros, zeros, batch_mean, batch_variance)`` in training (and updates the
    Parameters ``mean``/``variance`` in place: ``(1 - momentum) * old + momentum * batch``, the
    variance unbiased), ``(y, zeros, zeros, zeros, zeros)`` in inference, as MindSpore does on CPU.
    """

    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        super().__init__("BatchNorm")
        self.is_training, self.epsilon, self.momentum = is_training, epsilon, momentum
        self.add_prim_attr("is_training", is_training).add_prim_attr("epsilon", epsilon)
        self.add_prim_attr("momentum", momentum).add_prim_attr("data_format", data_format)

    def __call__(self, input_x, scale, bias, mean, variance):
        zeros = run("zeros_like", mean)
        if not self.is_training:
            y = F.batch_norm(input_x, mean, variance, scale, bias, False, self.momentum, self.epsilon)
            return y, zeros, zeros, zeros, zeros
        axes = (0,) + tuple(range(2, len(input_x.shape)))
        batch_mean = run("mean", input_x, axis=axes)
        batch_var = run("mean", run("square", input_x - run("reshape", batch_mean, shape=F._channel_shape(input_x))),
                        axis=axes)
        y = F.batch_norm(input_x, mean, variance, scale, bias, True, self.momentum, self.epsilon)
        return y, zeros, zeros, batch_mean, batch_var


class LayerNorm(Primitive):
    """``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)``:
    ``(y, mean, variance)``, the statistics with the normalized dims kept as 1."""

    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        super().__init__("LayerNorm")
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.add_prim_attr("begin_norm_axis", begin_norm_axis).add_prim_attr("begin_params_axis", begin_params_axis)
        self.add_prim_attr("epsilon", epsilon)

    def __call__(self, input_x, gamma, beta):
        ndim = len(input_x.shape)
        axes = tuple(range(self.begin_norm_axis % ndim, ndim))
        y, mean, var = F._normalize(input_x, axes, self.epsilon)
        return y * gamma + beta, mean, var


class Depend(Primitive):
    """``Depend()(value, expr)``: ``value``, after ``expr`` (npspore runs statements in program order)."""

    def __init__(self):
        super().__init__("Depend")
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, value, expr):
        return value


class TopK(Primitive):
    """``TopK(sorted=True)(input_x, k)``: the ``k`` largest values along the last axis and their Int32 indices."""

    def __init__(self, sorted=True):
        super().__init__("TopK")
        self.add_prim_attr("sorted", sorted)

    def __call__(self, input_x, k):
        return run("topk", input_x, k=k)


class Dropout(Primitive):
    """``Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)``: ``(x * mask / keep_prob, mask)``, the mask keeping each
    element with probability ``keep_prob`` (ones and zeros in ``x``'s dtype), MindSpore's masks: the kernel's
    engine is seeded from ``(Seed0, Seed1)`` and continued by each call (both 0: not reproducible, as MindSpore's
    ``std::random_device``)."""

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        super().__init__("Dropout")
        self.keep_prob = keep_prob
        self.seeds = new_kernel("Dropout", (Seed0, Seed1))
        for name, value in (("keep_prob", keep_prob), ("Seed0", Seed0), ("Seed1", Seed1)):
            self.add_prim_attr(name, value)

    def __call__(self, x):
        if not isinstance(self.keep_prob, (int, float)) or isinstance(self.keep_prob, bool) or not (
                0 < self.keep_prob <= 1):   # MindSpore 2.10's message, its quote missing included
            raise RuntimeError(f"For 'Dropout, the 'keep_prob' must be in (0.0, 1.0], but got {self.keep_prob}")
        scaled = F._keep_mask(x, x.shape, 1.0 - self.keep_prob, self.seeds)
        return x * scaled, run("cast", run("greater", scaled, 0), dtype=_np_dtype(x.dtype))


class NMSWithMask(Primitive):
    """``NMSWithMask(iou_threshold=0.5)(bboxes)``: non-maximum suppression of ``(n, 5)`` boxes
    ``[x1, y1, x2, y2, score]``: ``(the boxes by descending score, their Int32 positions, a Bool keep mask)``,
    as MindSpore 2.10's CPU kernel returns them.

    Raises:
        TypeError: if ``iou_threshold`` is not a float.
        ValueError: if the boxes are not ``(n, 5)``.
    """

    def __init__(self, iou_threshold=0.5):
        super().__init__("NMSWithMask")
        if not isinstance(iou_threshold, float):
            raise TypeError(f"For 'NMSWithMask', the 'iou_threshold' must be float, but got "
                            f"{type(iou_threshold).__name__}.")
        self.iou_threshold = iou_threshold
        self.add_prim_attr("iou_threshold", iou_threshold)

    def __call__(self, bboxes):
        return run("nms_with_mask", bboxes, iou_threshold=self.iou_threshold)


class RandomChoiceWithMask(Primitive):
    """``RandomChoiceWithMask(count=256)(input_x)``: up to ``count`` random positions where the bool ``input_x``
    is True, ``(Int32 indices (count, rank), Bool mask (count,))``; ``seed``/``seed2`` are recorded (npspore's
    generator follows ``set_seed``).

    Raises:
        TypeError: if ``count`` is not an int. ValueError: if it is not positive.
    """

    def __init__(self, count=256, seed=0, seed2=0):
        super().__init__("RandomChoiceWithMask")
        self.count = check_positive_int(check_value_type("count", count, [int], self.name), "count", self.name)
        for name, value in (("count", count), ("seed", seed), ("seed2", seed2)):
            self.add_prim_attr(name, value)

    def __call__(self, input_x):
        return run("random_choice_with_mask", input_x, count=self.count)
