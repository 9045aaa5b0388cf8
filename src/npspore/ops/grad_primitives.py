"""MindSpore's gradient primitives: ``mindspore.ops.operations._grad_ops`` (``G.SigmoidGrad()(y, dy)``,
``G.AbsGrad()(x, dout)`` ...) and the ``*Grad`` classes of ``mindspore.ops.auto_generate.gen_ops_prim``.

Each takes MindSpore's inputs in MindSpore's order (recorded from MindSpore 2.10 by
``tools/observe_mindspore_grad_primitives.py``) and is made by :func:`primitive_table.functional_primitive`
from one row of :data:`_TABLE`. A primitive given the forward op's input is npspore's vjp of that op
(:func:`_input_gradient`), so it is the op's own adjoint; one given only the forward's output ``y`` applies the
op's adjoint rule of ``codegen_templates`` where that rule reads only the output (:func:`_output_adjoint`), or
else the derivative written in ``y`` in :data:`_FROM_OUTPUT`. Every one is a composition of ops of the table:
it runs eagerly and compiled and is differentiable again.
"""
from __future__ import annotations

import math
from typing import Any, Callable

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..missing_names import module_getattr
from ..opdef import op_table
from ..nn.loss import SoftMarginLoss
from . import activation_ops as act
from . import array_extra as arr
from . import array_functional as A
from . import functional as F
from . import linalg_functional as L
from . import cholesky_ops
from . import losses
from . import margin_losses
from . import math_functional as M
from . import nn_functional as nnf
from .grid_sample import grid_sample
from .array_primitives import L2Normalize
from .nn_array_primitives import LRN
from .nn_primitives import AvgPool, BatchNorm, Conv2D, LayerNorm, MaxPool
from .pooling3d import AvgPool3D, MaxPool3D, avg_pool3d
from .roi_align import ROIAlign
from . import scatter_ops as scatter_functional
from .resize import ResizeBilinearV2, ResizeNearestNeighbor, _linear_axis, _nearest_axis, interpolate
from ..mint.nn.functional import adaptive_avg_pool3d
from .nn_array_primitives import _pad_values
from .composite import GradOperation
from .eager import dim, run, size_of
from .functional_tail import hardtanh, median
from .gen_primitive_table import swiglu
from .primitive_table import functional_primitive


def _input_gradient(forward: Callable, inputs: str, all_inputs: bool = False) -> Callable:
    """The gradient primitive's function of ``forward``: npspore's vjp of it, taking MindSpore's inputs.

    Args:
        forward (Callable): the forward op; its Tensor inputs first, then its static arguments.
        inputs (str): one letter per input of the primitive, in MindSpore's order: ``'x'`` an input of
            ``forward`` (in its order), ``'d'`` the gradient of its output, any other letter an input the
            vjp does not need (the forward's output).
        all_inputs (bool): return the gradients of every Tensor input of ``forward`` (a tuple), not only
            of the first.

    Returns:
        Callable: ``function(*inputs, **static)``; the keywords are ``forward``'s static arguments, in its order.
    """
    gradient = GradOperation(get_all=all_inputs, sens_param=True)(forward)

    def function(*args: Any, **static: Any) -> Any:
        if static:   # the static arguments follow every input: an optional one left out (a loss's weight) is None
            args = args + (None,) * (len(inputs) - len(args))
        dout = args[inputs.index("d")]
        forward_inputs = [arg for arg, kind in zip(args, inputs) if kind == "x"]
        return gradient(*forward_inputs, *static.values(), dout)

    return function


def _output_adjoint(op_name: str) -> Callable:
    """``function(y, dy)``: the adjoint rule of op ``op_name``, which reads only the forward's output ``y``."""
    rule = op_table()[op_name].adjoint
    if rule is None:
        raise ValueError(f"op {op_name!r} has no adjoint rule")

    def function(y: Tensor, dy: Tensor) -> Tensor:
        return rule(None, y, dy)

    return function


def _reciprocal_grad(y: Tensor, dy: Tensor) -> Tensor:
    """``d(1/x) = -dy * y**2`` with ``y = 1/x``."""
    return -dy * y * y


def _acosh_grad(y: Tensor, dy: Tensor) -> Tensor:
    """``d acosh(x) = dy / sinh(y)`` with ``y = acosh(x)``."""
    return dy / M.sinh(y)


def _asinh_grad(y: Tensor, dy: Tensor) -> Tensor:
    """``d asinh(x) = dy / cosh(y)`` with ``y = asinh(x)``."""
    return dy / M.cosh(y)


def _elu_grad(dy: Tensor, y: Tensor, alpha: float = 1.0) -> Tensor:
    """``d elu(x) = dy`` where ``y > 0``, else ``dy * (y + alpha)``."""
    return run("where", y > 0, dy, dy * (y + alpha))


def _elu_grad_ext(dout: Tensor, x_or_out: Tensor, alpha: float = 1.0, is_result: bool = False) -> Tensor:
    """``EluGradExt``: from the output when ``is_result``, else from the input."""
    if is_result:
        return _elu_grad(dout, x_or_out, alpha)
    return _ELU_FROM_INPUT(dout, x_or_out, alpha)


def _softmax_grad(y: Tensor, dy: Tensor, axis: int = -1) -> Tensor:
    """``d softmax(x) = y * (dy - sum(dy * y))`` over ``axis``, with ``y = softmax(x)``."""
    return y * (dy - F.reduce_sum(dy * y, axis, True))


def _log_softmax_grad(y: Tensor, dy: Tensor, axis: int = -1) -> Tensor:
    """``d log_softmax(x) = dy - exp(y) * sum(dy)`` over ``axis``, with ``y = log_softmax(x)``."""
    return dy - F.exp(y) * F.reduce_sum(dy, axis, True)


def _selu_grad(dy: Tensor, y: Tensor) -> Tensor:
    """``d selu(x) = scale * dy`` where ``y > 0``, else ``dy * (y + scale * alpha)``."""
    scale = act._SELU_SCALE
    return run("where", y > 0, dy * scale, dy * (y + scale * act._SELU_ALPHA))


def _gelu_tanh(x: Tensor) -> Tensor:
    """``P.GeLU``'s forward: the tanh approximation."""
    return F.gelu(x, "tanh")


def _leaky_relu(x: Tensor, negative_slope: float = 0.01, is_result: bool = False) -> Tensor:
    """``LeakyReLUGradExt``'s forward; its output has its input's signs, so either gives the gradient."""
    return nnf.leaky_relu(x, negative_slope)


def _threshold(x: Tensor, threshold: float) -> Tensor:
    return nnf.threshold(x, threshold, 0.0)


def _kl_div(x: Tensor, target: Tensor, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """The terms of ``kl_div`` that hold ``x``: ``-target * x``, reduced as ``kl_div`` reduces. Its gradient to ``x``
    is ``kl_div``'s, and differentiating that gradient reaches ``target`` (which ``kl_div`` stops)."""
    losses._check_reduction(reduction, "kl_div", ("mean", "batchmean", "sum", "none"))
    loss = -(F.exp(target) if log_target else target) * x
    if reduction == "none":
        return loss
    total = F.reduce_sum(loss)
    if reduction == "mean":
        return total / size_of(loss)
    return total / dim(x, 0) if reduction == "batchmean" else total


def _smooth_l1_loss(x: Tensor, target: Tensor, beta: float, reduction: str) -> Tensor:
    return losses.smooth_l1_loss(x, target, beta, reduction)


def _soft_margin_loss(x: Tensor, target: Tensor, reduction: str) -> Tensor:
    return SoftMarginLoss(reduction)(x, target)


def _binary_cross_entropy(x: Tensor, target: Tensor, weight: Tensor | None, reduction: str) -> Tensor:
    return losses.binary_cross_entropy(x, target, weight, reduction)


def _sigmoid_cross_entropy(x: Tensor, target: Tensor) -> Tensor:
    return losses.binary_cross_entropy_with_logits(x, target, reduction="none")


def _nll_loss(logits: Tensor, labels: Tensor, weight: Tensor, reduction: str, ignore_index: int) -> Tensor:
    return losses.nll_loss(logits, labels, weight, ignore_index, reduction)


def _l2_normalize(x: Tensor, axis: Any, epsilon: float) -> Tensor:
    return L2Normalize(axis, epsilon)(x)


def _glu(x: Tensor, axis: int) -> Tensor:
    first, second = F.split(x, x.shape[axis] // 2, axis)
    return first * F.sigmoid(second)


def _pad_as(mode: str) -> Callable:
    def pad(x: Tensor, padding: tuple) -> Tensor:
        return A.pad(x, padding, mode)

    return pad


def _multilabel_margin_loss(x: Tensor, target: Tensor, reduction: str) -> Tensor:
    """``MultilabelMarginLoss``'s loss (its first output)."""
    return margin_losses.multilabel_margin_loss(x, target, reduction)[0]


def _median(x: Tensor, global_median: bool, axis: int, keep_dims: bool) -> Tensor:
    """``Median``'s values: of all of ``x`` when ``global_median``, else along ``axis``."""
    if global_median:
        return median(x.reshape(-1), 0)[0]
    return median(x, axis, keep_dims)[0]


def _binary_grad_grad(comparison: str) -> Callable:
    """``{Maximum,Minimum}GradGrad``: the adjoint of the forward's vjp (``MaximumGrad``...), which is linear in the
    output's gradient: zero for both inputs, and ``grad_y1`` where ``x1`` is the chosen one (``comparison`` holds,
    ties included: MindSpore 2.10 CPU's), else ``grad_y2``. Like MindSpore's kernel, it reads neither flag."""

    def function(x1: Tensor, x2: Tensor, grad_y1: Tensor, grad_y2: Tensor, grad_x: bool = True,
                 grad_y: bool = True) -> tuple:
        return F.zeros_like(x1), F.zeros_like(x2), run("where", run(comparison, x1, x2), grad_y1, grad_y2)

    return function


def _cholesky_grad(x: Tensor, grad: Tensor) -> Tensor:
    """The gradient of the symmetric input ``x @ x^T`` of ``Cholesky`` (whose lower output is ``x``), given the
    output's gradient ``grad``: the vjp of :func:`cholesky_ops.cholesky`, which reads the lower triangle,
    symmetrized (as MindSpore's kernel: the same derivative along every symmetric move of the input)."""
    lower_read = _CHOLESKY(x @ cholesky_ops._mT(x), grad)
    return (lower_read + cholesky_ops._mT(lower_read)) / 2


_ELU_FROM_INPUT = _input_gradient(nnf.elu, "dxx")
_BIAS_ADD = _input_gradient(A.bias_add, "xxd", all_inputs=True)
_STRIDED_SLICE = _input_gradient(A.strided_slice, "xxxxd")
_TRACE = _input_gradient(L.trace, "xd")
_REPEAT_INTERLEAVE = _input_gradient(arr.repeat_interleave, "xxxd")
_CHOLESKY = _input_gradient(cholesky_ops.cholesky, "xd")


def _bias_add_grad(dout: Tensor, data_format: str = "NCHW") -> Tensor:
    """The bias's gradient of ``bias_add``: ``dout`` summed over all but the channel axis."""
    channels = dout.shape[-1 if data_format == "NHWC" else 1]
    zeros = F.zeros_like(dout)
    return _BIAS_ADD(zeros, F.zeros((channels,), dout.dtype), dout, data_format=data_format)[1]


def _strided_slice_grad(dy: Tensor, shapex: tuple, begin: tuple, end: tuple, strides: tuple, **masks: int) -> Tensor:
    """The input's gradient of ``strided_slice`` of an input of shape ``shapex``."""
    return _STRIDED_SLICE(F.zeros(shapex, dy.dtype), begin, end, strides, dy, **masks)


def _trace_grad(dout: Tensor, shape: Tensor) -> Tensor:
    """The input's gradient of ``trace`` of a matrix of shape ``shape`` (an int Tensor, as MindSpore gives it)."""
    return _TRACE(F.zeros(tuple(_pad_values("TraceGrad", shape)), dout.dtype), dout)


def _repeat_interleave_grad(dout: Tensor, repeats: Tensor, dim: int) -> Tensor:
    """The input's gradient of ``repeat_interleave(x, repeats, dim)``: ``dout``'s repeated slices summed."""
    shape = list(dout.shape)
    shape[dim] = repeats.shape[0]
    counts = tuple(_pad_values("RepeatInterleaveGrad", repeats))
    return _REPEAT_INTERLEAVE(F.zeros(tuple(shape), dout.dtype), counts, dim, dout)


def _dropout_grad(dy: Tensor, mask: Tensor, keep_prob: float = 0.5) -> Tensor:
    """``dy`` where ``mask`` kept, scaled by ``1 / keep_prob``."""
    return dy * F.cast(mask, dy.dtype) * (1 / keep_prob)


def _dropout_grad_ext(dy: Tensor, mask: Tensor, p: float) -> Tensor:
    """``DropoutGradExt``: ``dy`` where ``mask`` kept, scaled by ``1 / (1 - p)`` (0 when ``p`` is 1)."""
    return _dropout_grad(dy, mask, 1 - p) if p < 1 else F.zeros_like(dy)


def _flatten_grad(dout: Tensor, shape: tuple) -> Tensor:
    return F.reshape(dout, shape)


def _layer_norm(x: Tensor, gamma: Tensor, beta: Tensor, begin_norm_axis: int, begin_params_axis: int) -> Tensor:
    return LayerNorm(begin_norm_axis, begin_params_axis, _NORM_EPSILON)(x, gamma, beta)[0]


# LayerNormGrad receives the forward's variance without its epsilon: the gradient recomputes the statistics with
# this one, whose effect is below float32's rounding
_NORM_EPSILON = 1e-12
_LAYER_NORM = _input_gradient(_layer_norm, "xxxd", all_inputs=True)


def _layer_norm_grad(x: Tensor, dy: Tensor, variance: Tensor, mean: Tensor, gamma: Tensor,
                     begin_norm_axis: int = 1, begin_params_axis: int = 1) -> tuple:
    """``(dx, dgamma, dbeta)`` of ``LayerNorm(begin_norm_axis, begin_params_axis)(x, gamma, beta)[0]``."""
    return _LAYER_NORM(x, gamma, F.zeros_like(gamma), dy, begin_norm_axis=begin_norm_axis,
                       begin_params_axis=begin_params_axis)


def _layer_norm_gradients(x: Tensor, dy: Tensor, variance: Tensor, mean: Tensor, gamma: Tensor,
                          begin_norm_axis: int, begin_params_axis: int) -> tuple:
    """``LayerNormGrad``'s outputs, as a function of its inputs to differentiate (its own name: the compiled
    program of a gradient already holds one named after ``_layer_norm_grad``)."""
    return _LAYER_NORM(x, gamma, F.zeros_like(gamma), dy, begin_norm_axis=begin_norm_axis,
                       begin_params_axis=begin_params_axis)


_LAYER_NORM_SECOND = GradOperation(get_all=True, sens_param=True)(_layer_norm_gradients)


def _layer_norm_grad_grad(x: Tensor, dy: Tensor, variance: Tensor, mean: Tensor, gamma: Tensor, d_dx: Tensor,
                          d_dg: Tensor, d_db: Tensor, begin_norm_axis: int = 1, begin_params_axis: int = 1) -> tuple:
    """``(sopd_x, sopd_dy, sopd_gamma)``: the vjp of ``LayerNormGrad`` with the gradients ``(d_dx, d_dg, d_db)`` of
    its outputs."""
    gradients = _LAYER_NORM_SECOND(x, dy, variance, mean, gamma, begin_norm_axis, begin_params_axis,
                                   (d_dx, d_dg, d_db))
    return gradients[0], gradients[1], gradients[4]


def _batch_norm(x: Tensor, scale: Tensor, bias: Tensor, mean: Tensor, variance: Tensor, is_training: bool,
                epsilon: float, data_format: str) -> Tensor:
    """``BatchNorm``'s output, normalized by the batch's statistics of ``x`` when ``is_training`` (without the
    training forward's update of the running statistics, which the gradient does not read)."""
    if is_training:
        channel = len(x.shape) - 1 if data_format == "NHWC" else 1
        axes = tuple(axis for axis in range(len(x.shape)) if axis != channel)
        mean = F.reduce_mean(x, axes)
        centered = x - F.reduce_mean(x, axes, True)
        variance = F.reduce_mean(centered * centered, axes)
    return BatchNorm(False, epsilon, data_format=data_format)(x, scale, bias, mean, variance)[0]


_BATCH_NORM = _input_gradient(_batch_norm, "xxxxxd", all_inputs=True)


def _batch_norm_grad(dout: Tensor, x: Tensor, scale: Tensor, saved_mean: Tensor, saved_variance: Tensor,
                     reserve: Tensor | None = None, is_training: bool = False, epsilon: float = 1e-5,
                     data_format: str = "NCHW") -> tuple:
    """``(dx, dscale, dbias)`` of ``BatchNorm``: through the batch's statistics when ``is_training``, else with
    ``saved_mean`` and ``saved_variance`` held."""
    gradients = _BATCH_NORM(x, scale, F.zeros_like(scale), saved_mean, saved_variance, dout,
                            is_training=is_training, epsilon=epsilon, data_format=data_format)
    return gradients[0], gradients[1], gradients[2]


def _batch_norm_gradients(x: Tensor, dy: Tensor, scale: Tensor, saved_mean: Tensor, saved_variance: Tensor,
                          is_training: bool, epsilon: float, data_format: str) -> tuple:
    """``BatchNormGrad``'s outputs, as a function of its inputs to differentiate."""
    return _batch_norm_grad(dy, x, scale, saved_mean, saved_variance, None, is_training, epsilon, data_format)


_BATCH_NORM_SECOND = GradOperation(get_all=True, sens_param=True)(_batch_norm_gradients)


def _batch_norm_grad_grad(x: Tensor, dy: Tensor, scale: Tensor, saved_mean: Tensor, saved_variance: Tensor,
                          dout_dx: Tensor, dout_dscale: Tensor, dout_dbias: Tensor, is_training: bool = False,
                          epsilon: float = 1e-5, data_format: str = "NCHW") -> tuple:
    """``(dx, ddy, dscale)``: the vjp of ``BatchNormGrad`` with the gradients ``(dout_dx, dout_dscale, dout_dbias)``
    of its outputs."""
    gradients = _BATCH_NORM_SECOND(x, dy, scale, saved_mean, saved_variance, is_training, epsilon, data_format,
                                   (dout_dx, dout_dscale, dout_dbias))
    return gradients[0], gradients[1], gradients[2]


def _max_pool(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str, data_format: str) -> Tensor:
    return MaxPool(kernel_size, strides, pad_mode, data_format)(x)


def _avg_pool(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str, data_format: str) -> Tensor:
    return AvgPool(kernel_size, strides, pad_mode, data_format)(x)


def _avg_pool2d(x: Tensor, kernel_size: Any, stride: Any, padding: Any = 0, ceil_mode: bool = False,
                count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    return nnf.avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override or 0)


_ADAPTIVE_AVG_POOL2D = _input_gradient(nnf.adaptive_avg_pool2d, "xxd")


def _adaptive_avg_pool2d_grad(input_grad: Tensor, orig_input_shape: Tensor) -> Tensor:
    """The input's gradient of ``adaptive_avg_pool2d`` of an input of shape ``orig_input_shape`` (an int Tensor)."""
    shape = tuple(_pad_values("AdaptiveAvgPool2DGrad", orig_input_shape))
    return _ADAPTIVE_AVG_POOL2D(F.zeros(shape, input_grad.dtype), tuple(input_grad.shape[-2:]), input_grad)


def _adaptive_avg_pool2d_grad_ext(grad_output: Tensor, x: Tensor) -> Tensor:
    return _ADAPTIVE_AVG_POOL2D(x, tuple(grad_output.shape[-2:]), grad_output)


def _resize_bilinear(image: Tensor, size: tuple, align_corners: bool, half_pixel_centers: bool) -> Tensor:
    return ResizeBilinearV2(align_corners, half_pixel_centers)(image, size)


_RESIZE_BILINEAR = _input_gradient(_resize_bilinear, "xxd")


def _resize_bilinear_grad(grads: Tensor, image: Tensor, align_corners: bool = False,
                          half_pixel_centers: bool = False) -> Tensor:
    """The image's gradient of ``ResizeBilinearV2(align_corners, half_pixel_centers)(image, grads' size)``."""
    return _RESIZE_BILINEAR(image, tuple(grads.shape[2:]), grads, align_corners=align_corners,
                            half_pixel_centers=half_pixel_centers)


def _resize_nearest(x: Tensor, size: tuple, align_corners: bool, half_pixel_centers: bool) -> Tensor:
    return ResizeNearestNeighbor(size, align_corners, half_pixel_centers)(x)


_RESIZE_NEAREST = _input_gradient(_resize_nearest, "xxd")


def _resize_nearest_grad(grads: Tensor, size: tuple, align_corners: bool = False,
                         half_pixel_centers: bool = False) -> Tensor:
    """The input's gradient of ``ResizeNearestNeighbor`` from an input of spatial size ``size``."""
    x = F.zeros(tuple(grads.shape[:2]) + tuple(size), grads.dtype)
    return _RESIZE_NEAREST(x, tuple(grads.shape[2:]), grads, align_corners=align_corners,
                           half_pixel_centers=half_pixel_centers)


def _interpolate(x: Tensor, size: tuple, mode: str, align_corners: bool | None) -> Tensor:
    return interpolate(x, size, None, mode, align_corners)


def _upsample_grad(mode: str) -> Callable:
    """``Upsample<mode>Grad(dy, input_size, output_size=None, scales=None[, align_corners])``: the input's
    gradient of ``interpolate`` in ``mode`` from an input of shape ``input_size`` to ``dy``'s size."""
    aligned = mode not in ("nearest",)
    gradient = _input_gradient(_interpolate, "xxd")   # one kernel cache per primitive

    def function(dy: Tensor, input_size: tuple, output_size: tuple | None = None, scales: Any = None,
                 align_corners: bool = False) -> Tensor:
        x = F.zeros(tuple(input_size), dy.dtype)
        return gradient(x, tuple(dy.shape[2:]), dy, mode=mode, align_corners=align_corners if aligned else None)

    return function


def _grid_sample(x: Tensor, grid: Tensor, mode: str, padding_mode: str, align_corners: bool) -> Tensor:
    return grid_sample(x, grid, mode, padding_mode, align_corners)


_GRID_SAMPLE = _input_gradient(_grid_sample, "xxd", all_inputs=True)


def _grid_sampler_grad(grad: Tensor, input_x: Tensor, grid: Tensor, interpolation_mode: str = "bilinear",
                       padding_mode: str = "zeros", align_corners: bool = False, output_mask: tuple = (1, 1)) -> tuple:
    """``(dx, dgrid)`` of ``grid_sample``."""
    return _GRID_SAMPLE(input_x, grid, grad, mode=interpolation_mode, padding_mode=padding_mode,
                        align_corners=align_corners)


def _conv2d(x: Tensor, w: Tensor, out_channel: int, kernel_size: Any, pad_mode: str, pad: Any, pad_list: tuple,
            mode: int, stride: Any, dilation: Any, group: int, data_format: str) -> Tensor:
    return Conv2D(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group, data_format)(x, w)


_CONV2D = _input_gradient(_conv2d, "xxd", all_inputs=True)


def _conv2d_filter_grad(dout: Tensor, x: Tensor, filter_size: tuple, **attributes: Any) -> Tensor:
    """The filter's gradient of ``Conv2D(**attributes)(x, w)`` for a filter of shape ``filter_size``."""
    return _CONV2D(x, F.zeros(tuple(filter_size), dout.dtype), dout, **attributes)[1]


def _max_pool3d(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str, pad_list: Any, data_format: str) -> Tensor:
    return MaxPool3D(kernel_size, strides, pad_mode, pad_list, data_format=data_format)(x)


def _avg_pool3d(x: Tensor, kernel_size: Any, strides: Any, pads: Any, ceil_mode: bool, count_include_pad: bool,
                divisor_override: int, data_format: str, pad_mode: str) -> Tensor:
    return AvgPool3D(kernel_size, strides, pad_mode, pads, ceil_mode, count_include_pad, divisor_override,
                     data_format)(x)


_AVG_POOL3D = _input_gradient(_avg_pool3d, "xd")


def _avg_pool3d_grad(origin_input_shape: Any, grads: Tensor, **attributes: Any) -> Tensor:
    """The input's gradient of ``AvgPool3D(**attributes)`` of an input of shape ``origin_input_shape``."""
    shape = tuple(_pad_values("AvgPool3DGrad", origin_input_shape))
    return _AVG_POOL3D(F.zeros(shape, grads.dtype), grads, **attributes)


def _avg_pool3d_ext(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                    count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    return avg_pool3d(x, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad, divisor_override or 0)


def _lrn(x: Tensor, depth_radius: int, bias: float, alpha: float, beta: float) -> Tensor:
    return LRN(depth_radius, bias, alpha, beta)(x)


_ADAPTIVE_MAX_POOL2D = _input_gradient(nnf.adaptive_max_pool2d, "xxd")


def _adaptive_max_pool2d_grad(y_grad: Tensor, x: Tensor, argmax: Tensor) -> Tensor:
    """The input's gradient of ``adaptive_max_pool2d(x, y_grad's size)``: ``y_grad`` at each window's maximum
    (the maximum ``argmax`` holds)."""
    return _ADAPTIVE_MAX_POOL2D(x, tuple(y_grad.shape[-2:]), y_grad)


def _roi_align(features: Tensor, rois: Tensor, pooled_height: int, pooled_width: int, spatial_scale: float,
               sample_num: int) -> Tensor:
    return ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num)(features, rois)


_ROI_ALIGN = _input_gradient(_roi_align, "xxd")


def _roi_align_grad(dy: Tensor, rois: Tensor, xdiff_shape: tuple, **attributes: Any) -> Tensor:
    """The features' gradient of ``ROIAlign(**attributes)(features, rois)`` for features of shape ``xdiff_shape``."""
    return _ROI_ALIGN(F.zeros(tuple(xdiff_shape), dy.dtype), rois, dy, **attributes)


_RESIZE_LINEAR1D = _input_gradient(_interpolate, "xxd")


def _resize_linear1d_grad(grads: Tensor, x: Tensor, coordinate_transformation_mode: str = "align_corners") -> Tensor:
    """The input's gradient of ``ResizeLinear1D``: linear interpolation to ``grads``' width."""
    return _RESIZE_LINEAR1D(x, tuple(grads.shape[2:]), grads, mode="linear",
                        align_corners=coordinate_transformation_mode == "align_corners")


def _einsum(*operands_and_equation: Any) -> Tensor:
    """``einsum`` of the operands, the equation last (so that the operands are the leading, differentiated inputs)."""
    return L.einsum(operands_and_equation[-1], *operands_and_equation[:-1])


_EINSUM = GradOperation(get_all=True, sens_param=True)(_einsum)


def _einsum_grad(operands: tuple, dout: Tensor, equation: str) -> tuple:
    """The gradients of ``einsum(equation, *operands)``'s operands."""
    return _EINSUM(*operands, equation, dout)


def _rms_norm(x: Tensor, gamma: Tensor) -> Tensor:
    return act.rms_norm(x, gamma)[0]


def _logit(x: Tensor, eps: float) -> Tensor:
    """``LogitGrad``'s forward: :func:`math_functional.logit`, not clamped when ``eps`` is negative."""
    return M.logit(x, eps)



# pooling, padding and resizing gradients
def _window_of(value: Any, channels_last: bool = False) -> Any:
    """A pooling window as its (H, W) pair: MindSpore's gradients also take ``(1, 1, h, w)`` (or ``(1, h, w, 1)``)."""
    if isinstance(value, tuple) and len(value) == 4:
        return value[1:3] if channels_last else value[2:]
    return value


def _max_pool_v1(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str, data_format: str) -> Tensor:
    return MaxPool(_window_of(kernel_size), _window_of(strides), pad_mode, data_format)(x)


def _at_argmax(x: Tensor, argmax: Tensor, per_sample: bool) -> Tensor:
    """The values of ``x (N, C, ...)`` at the flat indices ``argmax`` (into each sample's ``(C, ...)`` when
    ``per_sample``, else into each plane), shaped as ``argmax``: the pooling ``*WithArgmax`` ops' output."""
    lead = x.shape[:1] if per_sample else x.shape[:2]
    flat = F.reshape(x, tuple(lead) + (-1,))
    index = F.reshape(F.cast(argmax, mstype.int64), tuple(lead) + (-1,))
    return F.reshape(A.gather_d(flat, len(lead), index), tuple(argmax.shape))


_AT_ARGMAX_PLANES = _input_gradient(_at_argmax, "xxd")   # AdaptiveMaxPool3DGrad's own kernel cache


def _max_pool_grad_with_argmax(per_sample: bool) -> Callable:
    """``(x, grad, argmax)``: ``grad`` added at ``argmax``'s flat indices of ``x``'s shape (the adjoint of
    :func:`_at_argmax`); the constructor's window attributes only describe the pooling that made ``argmax``."""
    gradient = _input_gradient(_at_argmax, "xxd")   # one kernel cache per primitive

    def function(x: Tensor, grad: Tensor, argmax: Tensor, **attributes: Any) -> Tensor:
        return gradient(x, argmax, grad, per_sample=per_sample)

    return function


def _max_pool_grad_grad_with_argmax(x: Tensor, grad: Tensor, argmax: Tensor, **attributes: Any) -> Tensor:
    """``grad`` (``x``'s shape) read at ``MaxPoolWithArgmax``'s ``argmax`` (flat into each sample's ``(C, H, W)``):
    the pooling's output gradient when its input moves by ``grad``."""
    return _at_argmax(grad, argmax, True)


def _max_unpool_grad(x: Tensor, grads: Tensor, argmax: Tensor, **attributes: Any) -> Tensor:
    """The input's gradient of ``MaxUnpool{2,3}D``, which wrote ``x`` at ``argmax`` in each plane: ``grads``
    read back at ``argmax`` (the windows in ``attributes`` only sized the unpooled output ``grads`` has)."""
    return _at_argmax(grads, argmax, False)


def _adaptive_max_pool3d_grad(input_grad: Tensor, x: Tensor, argmax: Tensor) -> Tensor:
    """``input_grad`` added at ``argmax``'s flat indices into each ``(D, H, W)`` plane of ``x``."""
    return _AT_ARGMAX_PLANES(x, argmax, input_grad, per_sample=False)


def _last_three(value: Any) -> Any:
    """A 3-D convolution's stride or dilation as its (D, H, W) triple: MindSpore's also take five values."""
    return tuple(value[2:]) if isinstance(value, tuple) and len(value) == 5 else value


def _conv3d(x: Tensor, w: Tensor, out_channel: int, kernel_size: Any, mode: int, pad_mode: str, pad: Any,
            stride: Any, dilation: Any, group: int, data_format: str) -> Tensor:
    """``Conv3D``'s output: :func:`nn_functional.conv3d` with the primitive's attributes."""
    return nnf.conv3d(x, w, None, _last_three(stride), pad_mode, pad, _last_three(dilation), group)


_CONV3D = _input_gradient(_conv3d, "xxd", all_inputs=True)


def _conv3d_filter_grad(x: Tensor, dout: Tensor, w_size: tuple, **attributes: Any) -> Tensor:
    """The filter's gradient of ``Conv3D(**attributes)(x, w)`` for a filter of shape ``w_size``."""
    return _CONV3D(x, F.zeros(tuple(w_size), dout.dtype), dout, **attributes)[1]


def _sparse_segment_grad(name: str, scale: str) -> Callable:
    """``name(grad, indices, segment_ids, output_dim0)``: the input's gradient of ``SparseSegment{Sum,Mean,SqrtN}``
    (``out[segment_ids[i]] += x[indices[i]]``, divided by each segment's count ``'mean'`` or its square root
    ``'sqrtn'``): ``grad[segment_ids[i]]``, scaled alike, added into row ``indices[i]`` of ``output_dim0`` rows."""
    def function(grad: Tensor, indices: Tensor, segment_ids: Tensor, output_dim0: Any) -> Tensor:
        rows = F.gather(grad, segment_ids, 0)
        if scale != "sum":
            ids = F.reshape(segment_ids, (-1, 1))
            counts = F.reduce_sum(F.cast(F.equal(ids, F.reshape(segment_ids, (1, -1))), grad.dtype), 1)
            weights = 1 / (counts if scale == "mean" else F.sqrt(counts))
            rows = rows * F.reshape(weights, (-1,) + (1,) * (len(grad.shape) - 1))
        dim0 = _pad_values(name, output_dim0)[0]
        zeros = F.zeros((dim0,) + tuple(grad.shape[1:]), grad.dtype)
        return scatter_functional.tensor_scatter_add(zeros, F.reshape(indices, (-1, 1)), rows)

    return function


def _instance_norm(x: Tensor, gamma: Tensor, beta: Tensor, epsilon: float) -> Tensor:
    return nnf.instance_norm(x, gamma, beta, epsilon)


_INSTANCE_NORM = _input_gradient(_instance_norm, "xxxd", all_inputs=True)


def _instance_norm_v2(x: Tensor, gamma: Tensor, beta: Tensor, mean: Tensor, variance: Tensor, is_training: bool,
                      epsilon: float) -> Tensor:
    """``InstanceNormV2``'s output: ``x`` (NCHW or NC1HWC0) normalized over dims 2 and 3 by each sample's own
    statistics when ``is_training``, else by ``mean``/``variance``, then scaled by ``gamma`` and shifted by ``beta``
    (each of ``x``'s rank, one value per sample and channel)."""
    if is_training:
        mean = x.mean((2, 3), keep_dims=True)
        variance = ((x - mean) ** 2).mean((2, 3), keep_dims=True)
    return (x - mean) / F.sqrt(variance + epsilon) * gamma + beta


_INSTANCE_NORM_V2 = _input_gradient(_instance_norm_v2, "xxxxxd", all_inputs=True)


def _instance_norm_v2_grad(dy: Tensor, x: Tensor, gamma: Tensor, mean: Tensor, variance: Tensor,
                           save_mean: Tensor, save_variance: Tensor, is_training: bool = True,
                           epsilon: float = 1e-5) -> tuple:
    """``(dx, dgamma, dbeta)`` of :func:`_instance_norm_v2`; the forward's saved statistics are recomputed from
    ``x``."""
    gradients = _INSTANCE_NORM_V2(x, gamma, F.zeros_like(gamma), mean, variance, dy, is_training=is_training,
                                  epsilon=epsilon)
    return gradients[0], gradients[1], gradients[2]


def _instance_norm_grad(dy: Tensor, x: Tensor, gamma: Tensor, save_mean: Tensor, save_variance: Tensor,
                        epsilon: float = 0.0, momentum: float = 0.1) -> tuple:
    """``(dx, dgamma, dbeta)`` of ``instance_norm(x, gamma, beta, epsilon)``: each sample's channel normalized by its
    own statistics, which the gradient recomputes from ``x`` (as the forward's ``save_mean``/``save_variance``)."""
    gradients = _INSTANCE_NORM(x, gamma, F.zeros_like(gamma), dy, epsilon=epsilon)
    return gradients[0], gradients[1], gradients[2]


def _pool_grad_grad(forward: Callable) -> Callable:
    """``MaxPool{,3D}GradGrad(x, y, grad)``: the pooling's output gradient when its input moves by ``grad`` (``grad``
    read at each window's maximum), as the vjp of ``d -> vjp of forward at x with output gradient d``, which is
    linear in ``d``: the second derivative of ``forward``. ``y`` (the pooled output) sizes ``d``."""
    pool_grad = GradOperation(sens_param=True)(forward)

    def linear(d: Tensor, x: Tensor, *static: Any) -> Tensor:
        return pool_grad(x, *static, d)

    gradient = GradOperation(sens_param=True)(linear)

    def function(x: Tensor, y: Tensor, grad: Tensor, **attributes: Any) -> Tensor:
        return gradient(F.zeros_like(y), x, *attributes.values(), grad)

    return function


def _max_pool_nchw(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str) -> Tensor:
    """``MaxPool`` in NCHW (``MaxPoolGradGrad``'s attributes)."""
    return MaxPool(kernel_size, strides, pad_mode)(x)


def _max_pool3d_valid_pads(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str, data_format: str) -> Tensor:
    """``MaxPool3D`` without explicit pads (``MaxPool3DGradGrad``'s attributes)."""
    return MaxPool3D(kernel_size, strides, pad_mode, 0, data_format=data_format)(x)


def _concat_offset(input_x: tuple, N: int = 2, axis: int = 0) -> Tensor:
    """``ConcatOffset``: where each of ``input_x``'s Tensors starts in their concatenation along ``axis``, one int64
    row per Tensor (0 on every other dim)."""
    rank = len(input_x[0].shape)
    if not -rank <= axis < rank:
        raise ValueError(f"For 'ConcatOffset', the 'axis' must be in [{-rank}, {rank}), but got {axis}.")
    axis %= rank
    rows, start = [], 0
    for x in input_x:
        rows.append([start if dim == axis else 0 for dim in range(rank)])
        start += x.shape[axis]
    return Tensor(rows, mstype.int64)


def _mvlgamma(x: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma of ``x`` of dimension ``p``: ``p (p - 1) / 4 log(pi) + sum_i lgamma(x - i / 2)``."""
    out = M.lgamma(x)
    for i in range(1, p):
        out = out + M.lgamma(x - i / 2)
    return out + p * (p - 1) / 4 * math.log(math.pi)


def _avg_pool_v1(x: Tensor, kernel_size: Any, strides: Any, pad_mode: str, data_format: str) -> Tensor:
    return AvgPool(_window_of(kernel_size), _window_of(strides), pad_mode, data_format)(x)


def _avg_pool_grad_from_shape(name: str) -> Callable:
    """``name(orig_input_shape, dout)``: the input's gradient of ``AvgPool`` of an input of ``orig_input_shape``
    (a tuple, or an int Tensor as ``AvgPoolGradV1`` takes it)."""
    gradient = _input_gradient(_avg_pool_v1, "xd")

    def function(orig_input_shape: Any, dout: Tensor, **attributes: Any) -> Tensor:
        shape = tuple(_pad_values(name, orig_input_shape))
        return gradient(F.zeros(shape, dout.dtype), dout, **attributes)

    return function


_ADAPTIVE_AVG_POOL3D = _input_gradient(adaptive_avg_pool3d, "xxd")


def _adaptive_avg_pool3d_grad(y_grad: Tensor, orig_input_shape: Any) -> Tensor:
    """The input's gradient of ``adaptive_avg_pool3d`` of an input of shape ``orig_input_shape`` (an int Tensor)."""
    shape = tuple(_pad_values("AdaptiveAvgPool3DGrad", orig_input_shape))
    return _ADAPTIVE_AVG_POOL3D(F.zeros(shape, y_grad.dtype), tuple(y_grad.shape[-3:]), y_grad)


def _adaptive_avg_pool3d_grad_ext(input_grad: Tensor, x: Tensor) -> Tensor:
    return _ADAPTIVE_AVG_POOL3D(x, tuple(input_grad.shape[-3:]), input_grad)


def _edge_pad(x: Tensor, pairs: tuple) -> Tensor:
    """``x`` padded by repeating its edge values, one ``(before, after)`` pair per dim, first dim first."""
    out = x
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            size = x.shape[axis]
            index = [min(max(i, 0), size - 1) for i in range(-before, size + after)]
            out = run("gather", out, Tensor(index), axis=axis)
    return out


def _pad_by_pairs(x: Tensor, flat_pairs: tuple, mode: str) -> Tensor:
    """``x`` padded by ``flat_pairs`` (``before, after`` of each dim, first dim first): ``'edge'`` repeats the
    edge, the other modes are :func:`array_functional.pad_pairs`'s. (A flat tuple: a compiled gradient takes
    tuples of ints as static arguments.)"""
    pairs = tuple((flat_pairs[2 * i], flat_pairs[2 * i + 1]) for i in range(len(flat_pairs) // 2))
    return _edge_pad(x, pairs) if mode == "edge" else A.pad_pairs(x, pairs, mode)


def _pad_gradient() -> Callable:
    """The vjp of :func:`_pad_by_pairs`: one per primitive, so that each keeps its own kernel cache."""
    return _input_gradient(_pad_by_pairs, "xd")


_MIRROR_PAD = _pad_gradient()
_PAD_V3 = _pad_gradient()


def _unpad(name: str, gradient: Callable, dy: Tensor, pairs: list, mode: str) -> Tensor:
    """The input's gradient of padding by ``pairs`` (one per dim, first dim first) in ``mode``, from ``dy``."""
    shape = tuple(dim - before - after for dim, (before, after) in zip(dy.shape, pairs))
    if min(shape) <= 0:
        raise ValueError(f"For '{name}', the paddings {pairs} leave no input of the gradient's shape {dy.shape}.")
    return gradient(F.zeros(shape, dy.dtype), dy, flat_pairs=_flat(pairs), mode=mode)


def _flat(pairs: list) -> tuple:
    return tuple(value for pair in pairs for value in pair)


def _from_last_dim(values: list, rank: int) -> list:
    """Pad pairs given from the last dim backwards, as one pair per dim of ``rank`` dims, first dim first."""
    pairs = [(values[2 * i], values[2 * i + 1]) for i in range(len(values) // 2)]
    return [(0, 0)] * (rank - len(pairs)) + pairs[::-1]


def _mirror_pad_grad(dy: Tensor, paddings: Any, mode: str = "REFLECT") -> Tensor:
    """The input's gradient of ``MirrorPad(mode)(x, paddings)``, ``paddings`` a ``(rank, 2)`` int Tensor."""
    values = _pad_values("MirrorPadGrad", paddings)
    if len(values) != 2 * len(dy.shape):
        raise ValueError(f"For 'MirrorPadGrad', the 'paddings' must have shape ({len(dy.shape)}, 2), but got "
                         f"{len(values)} values.")
    return _unpad("MirrorPadGrad", _MIRROR_PAD, dy, [(values[2 * i], values[2 * i + 1]) for i in range(len(dy.shape))],
                  mode.lower())


_PADV3_GRAD_MODES = ("reflect", "edge")


def _pad_v3_grad(dy: Tensor, paddings: Any, mode: str = "reflect", paddings_contiguous: bool = True) -> Tensor:
    """The input's gradient of ``PadV3(mode, paddings_contiguous)(x, paddings)``."""
    if mode not in _PADV3_GRAD_MODES:
        raise ValueError(f"For 'PadV3Grad', the 'mode' {mode!r} is not implemented in npspore; it takes "
                         f"{list(_PADV3_GRAD_MODES)}.")
    values = _pad_values("PadV3Grad", paddings)
    if not paddings_contiguous:
        half = len(values) // 2
        values = [v for pair in zip(values[:half], values[half:]) for v in pair]
    return _unpad("PadV3Grad", _PAD_V3, dy, _from_last_dim(values, len(dy.shape)), mode)


def _replication_pad_grad(name: str) -> Callable:
    """``name(grad_output, x, padding)``: the input's gradient of ``ReplicationPad{1,2,3}D(padding)(x)`` (pairs
    from the last dim backwards)."""
    gradient = _pad_gradient()

    def function(grad_output: Tensor, x: Tensor, padding: Any) -> Tensor:
        pairs = _from_last_dim(_pad_values(name, padding), len(x.shape))
        return gradient(x, grad_output, flat_pairs=_flat(pairs), mode="edge")

    return function


def _resize_3d(x: Tensor, size: tuple, mode: str, align_corners: bool) -> Tensor:
    """``x (N, C, D, H, W)`` resized to ``size`` over its last three dims, nearest or trilinear."""
    for axis, new in enumerate(size, start=2):
        if mode == "nearest":
            x = _nearest_axis(x, axis, new, False)
        else:
            x = _linear_axis(x, axis, new, "align" if align_corners else "half_pixel")
    return x


def _upsample_3d_grad(mode: str) -> Callable:
    """``Upsample<mode>3DGrad(dy, input_size, output_size=None, scales=None)``: the input's gradient of the
    3-D resize in ``mode`` from an input of shape ``input_size`` to ``dy``'s size."""
    gradient = _input_gradient(_resize_3d, "xd")

    def function(dy: Tensor, input_size: tuple, output_size: tuple | None = None, scales: Any = None,
                 align_corners: bool = False) -> Tensor:
        x = F.zeros(tuple(input_size), dy.dtype)
        return gradient(x, dy, size=tuple(dy.shape[2:]), mode=mode, align_corners=align_corners)

    return function


# the constructor attributes of the pooling and the resizing gradients
_POOLING = (("kernel_size", 1, "kernel_size", (int, tuple)), ("strides", 1, "strides", (int, tuple)),
            ("pad_mode", "VALID", "pad_mode"), ("data_format", "NCHW", "data_format"))
_RESIZING = (("align_corners", False, "align_corners"), ("half_pixel_centers", False, "half_pixel_centers"))

# MindSpore name -> (function of MindSpore's inputs, constructor attributes as (attribute, default, keyword)).
_TABLE: dict[str, tuple] = {
    # elementwise, from the forward's output
    "SigmoidGrad": (_output_adjoint("sigmoid"), ()),
    "TanhGrad": (_output_adjoint("tanh"), ()),
    "SqrtGrad": (_output_adjoint("sqrt"), ()),
    "RsqrtGrad": (_output_adjoint("rsqrt"), ()),
    "ReciprocalGrad": (_reciprocal_grad, ()),
    "InvGrad": (_reciprocal_grad, ()),
    "AcoshGrad": (_acosh_grad, ()),
    "AsinhGrad": (_asinh_grad, ()),
    "EluGrad": (_elu_grad, ()),
    "SeluGrad": (_selu_grad, ()),
    # elementwise, from the forward's input
    "ReluGrad": (_input_gradient(F.relu, "dx"), ()),
    "AbsGrad": (_input_gradient(F.abs, "xd"), ()),
    "ACosGrad": (_input_gradient(M.acos, "xd"), ()),
    "AsinGrad": (_input_gradient(M.asin, "xd"), ()),
    "AtanGrad": (_input_gradient(M.atan, "xd"), ()),
    "ReLU6Grad": (_input_gradient(A.relu6, "dx"), ()),
    "SoftplusGrad": (_input_gradient(F.softplus, "dx"), ()),
    "FastGeLUGrad": (_input_gradient(act.fast_gelu, "dx"), ()),
    "HSigmoidGrad": (_input_gradient(nnf.hardsigmoid, "dx"), ()),
    "HSwishGrad": (_input_gradient(nnf.hardswish, "dx"), ()),
    "SiLUGrad": (_input_gradient(nnf.silu, "dx"), ()),
    "HShrinkGrad": (_input_gradient(act.hardshrink, "dx"), (("lambd", 0.5, "lambd"),)),
    "SoftShrinkGrad": (_input_gradient(act.softshrink, "dx"), (("lambd", 0.5, "lambd"),)),
    "LogitGrad": (_input_gradient(_logit, "dx"), (("eps", -1.0, "eps"),)),
    "GeLUGrad": (_input_gradient(_gelu_tanh, "dxy"), ()),
    "GeluGradExt": (_input_gradient(F.gelu, "dxx"), ()),
    "PReLUGrad": (_input_gradient(nnf.prelu, "dxx", all_inputs=True), ()),
    "MaskedSelectGrad": (_input_gradient(F.masked_select, "xxd"), ()),
    "GatherDGradV2": (_input_gradient(A.gather_d, "xxxd"), ()),
    "HardtanhGrad": (_input_gradient(hardtanh, "dxxx"), ()),
    "LeakyReLUGradExt": (_input_gradient(_leaky_relu, "dxxx"), ()),
    "EluGradExt": (_elu_grad_ext, ()),
    "SoftplusGradExt": (_input_gradient(F.softplus, "dxxx"), ()),
    "ThresholdGrad": (_input_gradient(_threshold, "dxx"), ()),
    "MishGradExt": (_input_gradient(nnf.mish, "dx"), ()),
    "LogSigmoidGrad": (_input_gradient(nnf.logsigmoid, "dxy"), ()),
    "SoftmaxGrad": (_softmax_grad, ()),
    "LogSoftmaxGrad": (_log_softmax_grad, (("axis", -1, "axis"),)),
    # losses: the gradient of the first input
    "MSELossGradExt": (_input_gradient(act.mse_loss, "dxxx"), ()),
    "KLDivGrad": (_input_gradient(_kl_div, "dxxxx"), ()),
    "SmoothL1LossGrad": (_input_gradient(_smooth_l1_loss, "xxd"), (("beta", 1.0, "beta"),
                                                                   ("reduction", "none", "reduction"))),
    "SoftMarginLossGrad": (_input_gradient(_soft_margin_loss, "xxd"), (("reduction", "mean", "reduction"),)),
    "BinaryCrossEntropyGrad": (_input_gradient(_binary_cross_entropy, "xxdx"), (("reduction", "mean", "reduction"),)),
    "SigmoidCrossEntropyWithLogitsGrad": (_input_gradient(_sigmoid_cross_entropy, "xxd"), ()),
    "NLLLossGrad": (_input_gradient(_nll_loss, "xdxxw"), (("reduction", "mean", "reduction"),
                                                         ("ignore_index", -100, "ignore_index"))),
    # array and shape ops
    "MaximumGrad": (_input_gradient(F.maximum, "xxd", all_inputs=True), ()),
    "MinimumGrad": (_input_gradient(F.minimum, "xxd", all_inputs=True), ()),
    "BiasAddGrad": (_bias_add_grad, (("data_format", "NCHW", "data_format"),)),
    "DropoutGrad": (_dropout_grad, (("keep_prob", 0.5, "keep_prob"),)),
    "DropoutGradExt": (_dropout_grad_ext, ()),
    "SliceGrad": (_input_gradient(A.slice, "dxxx"), ()),
    "StridedSliceGrad": (_strided_slice_grad, tuple((mask, 0, mask) for mask in (
        "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"))),
    "L2NormalizeGrad": (_input_gradient(_l2_normalize, "xyd"), (("axis", 0, "axis"), ("epsilon", 1e-4, "epsilon"))),
    "GluGrad": (_input_gradient(_glu, "dx"), (("axis", -1, "axis"),)),
    "TraceGrad": (_trace_grad, ()),
    "FlattenGrad": (_flatten_grad, ()),
    "RepeatInterleaveGrad": (_repeat_interleave_grad, ()),
    "ReflectionPad1DGrad": (_input_gradient(_pad_as("reflect"), "dxx"), ()),
    "ReflectionPad2DGrad": (_input_gradient(_pad_as("reflect"), "dxx"), ()),
    "ReflectionPad3DGrad": (_input_gradient(_pad_as("reflect"), "dxx"), ()),
    # normalization, pooling and resizing
    "LayerNormGrad": (_layer_norm_grad, (("begin_norm_axis", 1, "begin_norm_axis"),
                                         ("begin_params_axis", 1, "begin_params_axis"))),
    "BatchNormGrad": (_batch_norm_grad, (("is_training", False, "is_training"), ("epsilon", 1e-5, "epsilon"),
                                         ("data_format", "NCHW", "data_format"))),
    "MaxPoolGrad": (_input_gradient(_max_pool, "xyd"), _POOLING),
    "AvgPoolGrad": (_input_gradient(_avg_pool, "xyd"), _POOLING),
    "AvgPool2DGrad": (_input_gradient(_avg_pool2d, "dxxxxxxx"), ()),
    "AdaptiveAvgPool2DGrad": (_adaptive_avg_pool2d_grad, ()),
    "AdaptiveAvgPool2DGradExt": (_adaptive_avg_pool2d_grad_ext, ()),
    "ResizeBilinearGrad": (_resize_bilinear_grad, _RESIZING),
    "ResizeNearestNeighborGrad": (_resize_nearest_grad, _RESIZING),
    "UpsampleNearest1DGrad": (_upsample_grad("nearest"), ()),
    "UpsampleNearest2DGrad": (_upsample_grad("nearest"), ()),
    "UpsampleLinear1DGrad": (_upsample_grad("linear"), ()),
    "UpsampleBilinear2DGrad": (_upsample_grad("bilinear"), ()),
    "GridSampler2DGrad": (_grid_sampler_grad, (("interpolation_mode", "bilinear", "interpolation_mode"),
                                               ("padding_mode", "zeros", "padding_mode"),
                                               ("align_corners", False, "align_corners"),
                                               ("output_mask", (1, 1), "output_mask"))),
    "RmsNormGrad": (_input_gradient(_rms_norm, "dx?x", all_inputs=True), ()),
    "Conv2DBackpropFilter": (_conv2d_filter_grad, (
        ("out_channel", None, "out_channel", (int,)), ("kernel_size", None, "kernel_size", (int, tuple)),
        ("pad_mode", "valid", "pad_mode"), ("pad", 0, "pad", (int, tuple)), ("pad_list", (0, 0, 0, 0), "pad_list"),
        ("mode", 1, "mode"), ("stride", (1, 1), "stride", (int, tuple)),
        ("dilation", (1, 1, 1, 1), "dilation", (int, tuple)), ("group", 1, "group"),
        ("data_format", "NCHW", "data_format"))),
    "MaxPool3DGrad": (_input_gradient(_max_pool3d, "xyd"), (
        ("kernel_size", (1, 1, 1, 1, 1), "kernel_size", (int, tuple)),
        ("strides", (1, 1, 1, 1, 1), "strides", (int, tuple)), ("pad_mode", "VALID", "pad_mode"),
        ("pad_list", 0, "pad_list", (int, tuple)), ("data_format", "NCDHW", "data_format"))),
    "AvgPool3DGrad": (_avg_pool3d_grad, (
        ("kernel_size", 1, "kernel_size", (int, tuple)), ("strides", 1, "strides", (int, tuple)),
        ("pads", 0, "pads", (int, tuple)), ("ceil_mode", False, "ceil_mode"),
        ("count_include_pad", True, "count_include_pad"), ("divisor_override", 0, "divisor_override"),
        ("data_format", "NCDHW", "data_format"), ("pad_mode", "pad", "pad_mode"))),
    "AvgPool3DGradExt": (_input_gradient(_avg_pool3d_ext, "dxxxxxxx"), ()),
    "LRNGrad": (_input_gradient(_lrn, "dxy"), (("depth_radius", 5, "depth_radius"), ("bias", 1.0, "bias"),
                                               ("alpha", 1.0, "alpha"), ("beta", 0.5, "beta"))),
    "KLDivLossGrad": (_input_gradient(_kl_div, "dxx"), (("reduction", "mean", "reduction"),)),
    "AdaptiveMaxPool2DGrad": (_adaptive_max_pool2d_grad, ()),
    "ROIAlignGrad": (_roi_align_grad, (("pooled_height", None, "pooled_height", (int,)),
                                       ("pooled_width", None, "pooled_width", (int,)),
                                       ("spatial_scale", None, "spatial_scale", (float,)),
                                       ("sample_num", 2, "sample_num"))),
    "ResizeNearestNeighborV2Grad": (_resize_nearest_grad, _RESIZING),
    "SwigluGrad": (_input_gradient(swiglu, "dxx"), ()),
    "NLLLoss2dGrad": (_input_gradient(_nll_loss, "dxxxxxw"), ()),
    "EinsumGrad": (_einsum_grad, (("equation", None, "equation", (str,)),)),
    "ResizeLinear1DGrad": (_resize_linear1d_grad, (("coordinate_transformation_mode", "align_corners",
                                                    "coordinate_transformation_mode"),)),
    # pooling, padding and resizing gradients
    "MaxPoolGradV1": (_input_gradient(_max_pool_v1, "xyd"), _POOLING),
    "MaxPoolGradWithArgmax": (_max_pool_grad_with_argmax(True), _POOLING),
    "MaxPoolGradWithArgmaxV2": (_max_pool_grad_with_argmax(False), (
        ("kernel_size", None, "kernel_size", (int, tuple)), ("strides", None, "strides", (int, tuple, type(None))),
        ("pads", 0, "pads", (int, tuple)), ("dilation", (1, 1), "dilation", (int, tuple)),
        ("ceil_mode", False, "ceil_mode"), ("argmax_type", None, "argmax_type", (object,)))),
    "MaxPool3DGradWithArgmax": (_max_pool_grad_with_argmax(False), (
        ("ksize", None, "ksize", (int, tuple)), ("strides", None, "strides", (int, tuple)),
        ("pads", None, "pads", (int, tuple)), ("dilation", (1, 1, 1), "dilation", (int, tuple)),
        ("ceil_mode", False, "ceil_mode"), ("data_format", "NCDHW", "data_format"))),
    "AdaptiveMaxPool3DGrad": (_adaptive_max_pool3d_grad, ()),
    "MaxUnpool2DGrad": (_max_unpool_grad, (
        ("ksize", None, "ksize", (int, tuple)), ("strides", 0, "strides", (int, tuple)),
        ("pads", 0, "pads", (int, tuple)), ("output_shape", (), "output_shape"),
        ("data_format", "NCHW", "data_format"))),
    "MaxUnpool3DGrad": (_max_unpool_grad, (
        ("ksize", None, "ksize", (int, tuple)), ("strides", 0, "strides", (int, tuple)),
        ("pads", 0, "pads", (int, tuple)), ("output_shape", (), "output_shape"),
        ("data_format", "NCDHW", "data_format"))),
    "Conv3DBackpropFilter": (_conv3d_filter_grad, (
        ("out_channel", None, "out_channel", (int,)), ("kernel_size", None, "kernel_size", (int, tuple)),
        ("mode", 1, "mode"), ("pad_mode", "valid", "pad_mode"), ("pad", 0, "pad", (int, tuple)),
        ("stride", (1, 1, 1, 1, 1), "stride", (int, tuple)), ("dilation", (1, 1, 1, 1, 1), "dilation", (int, tuple)),
        ("group", 1, "group"), ("data_format", "NCDHW", "data_format"))),
    "SparseSegmentSumGrad": (_sparse_segment_grad("SparseSegmentSumGrad", "sum"), ()),
    "SparseSegmentMeanGrad": (_sparse_segment_grad("SparseSegmentMeanGrad", "mean"), ()),
    "SparseSegmentSqrtNGrad": (_sparse_segment_grad("SparseSegmentSqrtNGrad", "sqrtn"), ()),
    "InstanceNormGrad": (_instance_norm_grad, (("epsilon", 0.0, "epsilon"), ("momentum", 0.1, "momentum"))),
    "MaxPoolGradGrad": (_pool_grad_grad(_max_pool_nchw), _POOLING[:3]),
    "MaxPoolGradGradWithArgmax": (_max_pool_grad_grad_with_argmax, _POOLING[:3]),
    "MaxPool3DGradGrad": (_pool_grad_grad(_max_pool3d_valid_pads), (
        ("kernel_size", (1, 1, 1, 1, 1), "kernel_size", (int, tuple)),
        ("strides", (1, 1, 1, 1, 1), "strides", (int, tuple)), ("pad_mode", "VALID", "pad_mode"),
        ("data_format", "NCDHW", "data_format"))),
    "ConcatOffset": (_concat_offset, (("N", 2, "N"), ("axis", 0, "axis"))),
    "MvlgammaGrad": (_input_gradient(_mvlgamma, "dx"), (("p", None, "p", (int,)),)),
    "AvgPoolGradV1": (_avg_pool_grad_from_shape("AvgPoolGradV1"), _POOLING),
    "AvgPoolGradGe": (_avg_pool_grad_from_shape("AvgPoolGradGe"), _POOLING),
    "AdaptiveAvgPool3DGrad": (_adaptive_avg_pool3d_grad, ()),
    "AdaptiveAvgPool3DGradExt": (_adaptive_avg_pool3d_grad_ext, ()),
    "MirrorPadGrad": (_mirror_pad_grad, (("mode", "REFLECT", "mode"),)),
    "PadV3Grad": (_pad_v3_grad, (("mode", "reflect", "mode"), ("paddings_contiguous", True, "paddings_contiguous"))),
    "ReplicationPad1DGrad": (_replication_pad_grad("ReplicationPad1DGrad"), ()),
    "ReplicationPad2DGrad": (_replication_pad_grad("ReplicationPad2DGrad"), ()),
    "ReplicationPad3DGrad": (_replication_pad_grad("ReplicationPad3DGrad"), ()),
    "UpsampleNearest3DGrad": (_upsample_3d_grad("nearest"), ()),
    "UpsampleTrilinear3DGrad": (_upsample_3d_grad("trilinear"), (("align_corners", False, "align_corners"),)),
    # second-order and loss gradients
    "PdistGrad": (_input_gradient(margin_losses.pdist, "dxy"), (("p", 2.0, "p"),)),
    "MultiMarginLossGrad": (_input_gradient(margin_losses.multi_margin_loss, "dxxx"), (
        ("p", 1, "p"), ("margin", 1.0, "margin"), ("reduction", "mean", "reduction"))),
    "MultilabelMarginLossGrad": (_input_gradient(_multilabel_margin_loss, "dxxy"),
                                 (("reduction", "mean", "reduction"),)),
    "MedianGrad": (_input_gradient(_median, "dxyy"), (
        ("global_median", False, "global_median"), ("axis", 0, "axis"), ("keep_dims", False, "keep_dims"))),
    "MaximumGradGrad": (_binary_grad_grad("greater_equal"), (("grad_x", True, "grad_x"), ("grad_y", True, "grad_y"))),
    "MinimumGradGrad": (_binary_grad_grad("less_equal"), ()),
    "CholeskyGrad": (_cholesky_grad, ()),
    "LayerNormGradGrad": (_layer_norm_grad_grad, (("begin_norm_axis", 1, "begin_norm_axis"),
                                                  ("begin_params_axis", 1, "begin_params_axis"))),
    "BatchNormGradGrad": (_batch_norm_grad_grad, (("is_training", False, "is_training"), ("epsilon", 1e-5, "epsilon"),
                                                  ("data_format", "NCHW", "data_format"))),
    "InstanceNormV2Grad": (_instance_norm_v2_grad, (("is_training", True, "is_training"),
                                                    ("epsilon", 1e-5, "epsilon"))),
}

# The rows MindSpore 2.10 also generates in mindspore.ops.auto_generate.gen_ops_prim.
GENERATED = ("SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "AcoshGrad", "AsinhGrad",
             "EluGrad", "SeluGrad", "ReluGrad", "AbsGrad", "ACosGrad", "AsinGrad", "AtanGrad", "ReLU6Grad",
             "FastGeLUGrad", "HSigmoidGrad", "HSwishGrad", "SiLUGrad", "HShrinkGrad", "SoftShrinkGrad", "LogitGrad",
             "GeLUGrad", "GeluGradExt", "PReLUGrad", "MaskedSelectGrad", "GatherDGradV2", "HardtanhGrad",
             "LeakyReLUGradExt", "EluGradExt", "SoftplusGradExt", "ThresholdGrad", "MishGradExt", "LogSigmoidGrad",
             "LogSoftmaxGrad", "MSELossGradExt", "KLDivGrad", "SmoothL1LossGrad", "SoftMarginLossGrad",
             "BinaryCrossEntropyGrad", "NLLLossGrad", "MaximumGrad", "MinimumGrad", "BiasAddGrad", "DropoutGradExt",
             "RepeatInterleaveGrad", "ReflectionPad1DGrad", "ReflectionPad2DGrad", "ReflectionPad3DGrad",
             "GluGrad", "LayerNormGrad", "BatchNormGrad", "AvgPoolGrad", "AvgPool2DGrad", "AdaptiveAvgPool2DGradExt",
             "ResizeBilinearGrad", "ResizeNearestNeighborGrad", "UpsampleNearest1DGrad", "UpsampleNearest2DGrad",
             "UpsampleLinear1DGrad", "UpsampleBilinear2DGrad", "AvgPool3DGradExt", "AdaptiveMaxPool2DGrad",
             "ResizeNearestNeighborV2Grad", "ResizeLinear1DGrad", "SwigluGrad", "NLLLoss2dGrad",
             "GridSampler2DGrad", "RmsNormGrad",
             # pooling, padding and resizing gradients
             "AdaptiveAvgPool3DGradExt", "ReplicationPad1DGrad", "ReplicationPad2DGrad", "ReplicationPad3DGrad",
             "UpsampleNearest3DGrad", "UpsampleTrilinear3DGrad",
             # second-order and loss gradients
             "MaximumGradGrad", "CholeskyGrad", "LayerNormGradGrad", "BatchNormGradGrad")

__all__ = sorted(_TABLE)
globals().update({name: functional_primitive(name, function, attributes)
                  for name, (function, attributes) in _TABLE.items()})
# ``mindspore.ops.operations._grad_ops`` (this module's MindSpore path) also holds these
__getattr__ = module_getattr("mindspore.ops.operations._grad_ops", globals(),
                             elsewhere={"Primitive": "npspore.ops.primitives.Primitive",
                                        "GlobalComm": "npspore.communication.management.GlobalComm"})
