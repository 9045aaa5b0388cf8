"""``mindspore.mint.nn.functional``: MindSpore 2.10's PyTorch-style activations, losses, convolutions, pooling
and normalization functions (``dim``, ``negative_slope``, ``padding`` as an int/tuple/``'same'``...).

Where MindSpore's function is the very object in ``ops`` (``relu``, ``sigmoid``, ``group_norm``, ``prelu``...),
npspore's is too; the others call npspore's ``ops`` with MindSpore's ``mint`` arguments mapped onto them, or are
compositions of the op table's ops, so each runs eagerly and compiled and differentiates.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.tensor import Tensor
from ...missing_names import module_getattr
from ...ops import (adaptive_avg_pool2d, adaptive_max_pool2d, conv_transpose2d, cross_entropy,  # noqa: F401
                    group_norm, hardsigmoid, hardswish, interpolate, layer_norm, prelu, relu, sigmoid, tanh)
from ...ops import avg_pool3d as _avg_pool3d, functional as F
from ...ops import nn_functional as NF
from ...ops import losses as L
from ...ops.eager import run
from ...ops.primitive_arrays2 import adaptive_avg_pool3d  # noqa: F401  (mint.nn.functional.adaptive_avg_pool3d)
from ..shapes import scatter_add as _scatter_add

__all__ = ["adaptive_avg_pool2d", "adaptive_max_pool2d", "conv_transpose2d", "cross_entropy", "group_norm",
           "hardsigmoid", "hardswish", "interpolate", "layer_norm", "prelu", "relu", "sigmoid", "tanh", "relu_",
           "relu6", "silu", "gelu", "elu", "elu_", "selu", "leaky_relu", "logsigmoid", "mish", "softplus", "softmax",
           "log_softmax", "glu", "hardshrink", "normalize", "one_hot", "embedding", "dropout", "dropout2d", "pad",
           "mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "nll_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "conv2d", "conv3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "max_pool2d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "max_unpool2d", "batch_norm", "pixel_shuffle", "unfold", "fold", "adaptive_avg_pool3d"]

# ---------------------------------------------------------------- activations


def relu_(input: Tensor) -> Tensor:
    """``max(input, 0)`` (MindSpore writes it into ``input``; npspore's Tensors are values, so it is returned)."""
    return relu(input)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(input, 0), 6)``."""
    return F.relu6(input)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * sigmoid(input)``."""
    return NF.silu(input)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """The Gaussian error linear unit (``approximate='tanh'``: its tanh form)."""
    return F.gelu(input, approximate)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""
    return NF.elu(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """:func:`elu`, returned (npspore's Tensors are values)."""
    return NF.elu(input, alpha)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input: Tensor) -> Tensor:
    """``scale * elu(input, alpha)`` with SELU's constants."""
    return run("mul", NF.elu(input, _SELU_ALPHA), _SELU_SCALE)


def leaky_relu(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """``input`` where positive, else ``negative_slope * input``."""
    return NF.leaky_relu(input, negative_slope)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input))``."""
    return NF.logsigmoid(input)


def mish(input: Tensor) -> Tensor:
    """``input * tanh(softplus(input))``."""
    return NF.mish(input)


def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + exp(beta * input)) / beta``, and ``input`` itself where ``beta * input > threshold``."""
    return F.softplus(input, beta, threshold)


def softmax(input: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:
    """``exp(input) / sum(exp(input), dim)`` (the last dim when None); ``dtype`` casts the input first."""
    return F.softmax(input, -1 if dim is None else dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, *, dtype: Any = None) -> Tensor:
    """``input - logsumexp(input, dim)`` (the last dim when None); ``dtype`` casts the input first."""
    if dtype is not None:
        input = F.cast(input, dtype)
    return F.log_softmax(input, -1 if dim is None else dim)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The first half of ``input`` along ``dim`` times the sigmoid of the second.

    Raises:
        ValueError: if the size of ``dim`` is odd.
    """
    size = input.shape[dim]
    if size % 2:
        raise ValueError(f"For 'glu', the size of 'dim' must be even, but got {size}.")
    first, second = F.split(input, size // 2, dim)
    return run("mul", first, run("sigmoid", second))


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0."""
    return run("where", run("greater", run("abs", input), lambd), input, run("zeros_like", input))


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """``input / max(norm_p(input, dim), eps)``."""
    norm = F.norm(input, p, dim, keepdim=True)
    return run("div", input, run("maximum", norm, eps))


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """The Int64 one-hot rows of the integer ``tensor`` (``num_classes=-1``: its largest value plus one)."""
    if num_classes == -1:
        num_classes = int(tensor.asnumpy().max()) + 1
    return F.cast(F.one_hot(tensor, num_classes, 1, 0), np.int64)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> Tensor:
    """The rows of ``weight`` at the indices ``input``; the row ``padding_idx`` gets no gradient.

    Raises:
        ValueError: if ``max_norm`` or ``scale_grad_by_freq`` is given (not implemented in npspore).
    """
    if max_norm is not None or scale_grad_by_freq:
        raise ValueError("For 'embedding', 'max_norm' and 'scale_grad_by_freq' are not implemented in npspore.")
    if padding_idx is not None:
        rows = weight.shape[0]
        kept = Tensor(np.array([[0.0 if row == padding_idx % rows else 1.0] for row in range(rows)], np.float32))
        weight = run("add", run("mul", weight, kept), run("stop_gradient", run("mul", weight, run("sub", 1.0, kept))))
    return run("gather", weight, input, axis=0)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Elements zeroed with probability ``p`` and the rest scaled by ``1 / (1 - p)`` when ``training``."""
    return NF.dropout(input, p, training)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels zeroed with probability ``p`` and the rest scaled by ``1 / (1 - p)`` when ``training``."""
    return NF.dropout2d(input, p, training)


def pad(input: Tensor, pad: tuple | list, mode: str = "constant", value: float | None = None) -> Tensor:
    """``input`` padded by ``pad`` (pairs from the last dim backwards) with ``mode``."""
    return F.pad(input, tuple(pad), mode, value)


# ---------------------------------------------------------------- losses


def _reduce(loss: Tensor, reduction: str, name: str) -> Tensor:
    if reduction == "mean":
        return run("mean", loss)
    if reduction == "sum":
        return run("sum", loss)
    if reduction == "none":
        return loss
    raise ValueError(f"For '{name}', 'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}.")


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """The squared differences of ``input`` and ``target``, reduced by ``reduction``."""
    return _reduce(run("square", run("sub", input, target)), reduction, "mse_loss")


def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """The absolute differences of ``input`` and ``target``, reduced by ``reduction``."""
    return _reduce(run("abs", run("sub", input, target)), reduction, "l1_loss")


def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Squared below ``beta`` (halved, over ``beta``), absolute minus ``beta / 2`` above, reduced."""
    return L.smooth_l1_loss(input, target, beta, reduction)


def kl_div(input: Tensor, target: Tensor, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """``target * (log(target) - input)`` (``input`` holds log-probabilities; ``log_target``: so does
    ``target``), reduced by ``reduction`` (``'batchmean'``: the sum over the first dim's size).

    Raises:
        ValueError: for another ``reduction``.
    """
    if log_target:
        loss = run("mul", run("exp", target), run("sub", target, input))
    else:
        positive = run("greater", target, 0.0)
        safe = run("where", positive, target, run("ones_like", target))
        loss = run("where", positive, run("mul", target, run("sub", run("log", safe), input)),
                   run("zeros_like", target))
    if reduction == "batchmean":
        return run("div", run("sum", loss), input.shape[0])
    return _reduce(loss, reduction, "kl_div")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
             reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of ``target``'s classes in the log-probabilities ``input``."""
    return L.nll_loss(input, target, weight, ignore_index, reduction)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """``-(target log(input) + (1 - target) log(1 - input))``, weighted, reduced."""
    return L.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:
    """:func:`binary_cross_entropy` of ``sigmoid(input)``, computed stably; ``pos_weight`` weighs positives."""
    return L.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


# ---------------------------------------------------------------- convolution and pooling


def _conv_padding(padding: Any, spatial: int) -> tuple[str, Any]:
    """mint's ``padding`` (an int, a tuple per spatial dim, ``'same'`` or ``'valid'``) as ops' ``pad_mode`` and
    ``padding``."""
    if isinstance(padding, str):
        return padding, 0
    sizes = (padding,) * spatial if isinstance(padding, int) else tuple(padding)
    if not any(sizes):
        return "valid", 0
    return "pad", tuple(size for size in sizes for _ in (0, 1))


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """The 2-D convolution (cross-correlation) of NCHW ``input`` with ``weight``, plus ``bias``."""
    pad_mode, padding = _conv_padding(padding, 2)
    return NF.conv2d(input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """The 3-D convolution of NCDHW ``input`` with ``weight``, plus ``bias``."""
    pad_mode, padding = _conv_padding(padding, 3)
    return NF.conv3d(input, weight, bias, stride, pad_mode, padding, dilation, groups)


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """The mean of each ``kernel_size`` window along the last dim (``stride`` defaults to ``kernel_size``)."""
    return NF.avg_pool1d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                         count_include_pad)


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each ``kernel_size`` window of the last two dims (``stride`` defaults to ``kernel_size``)."""
    return NF.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                         count_include_pad, divisor_override or 0)


def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each ``kernel_size`` window of the last three dims (``stride`` defaults to ``kernel_size``)."""
    return _avg_pool3d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                         count_include_pad, divisor_override or 0)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """The maximum of each ``kernel_size`` window of the last two dims (with ``return_indices``, also where)."""
    return NF.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def adaptive_avg_pool1d(input: Tensor, output_size: int) -> Tensor:
    """The mean over ``output_size`` near-equal windows of the last dim."""
    pooled = adaptive_avg_pool2d(run("expand_dims", input, axis=-2), (1, output_size))
    return run("squeeze", pooled, axis=(len(pooled.shape) - 2,))


def adaptive_max_pool1d(input: Tensor, output_size: int, return_indices: bool = False) -> Any:
    """The maximum over ``output_size`` near-equal windows of the last dim of ``(N, C, L)`` or ``(C, L)``
    input (with ``return_indices``, also where each came from)."""
    planes = run("reshape", input, shape=(-1, 1, 1, input.shape[-1]))
    pooled = adaptive_max_pool2d(planes, (1, output_size), return_indices)
    shape = tuple(input.shape[:-1]) + (output_size,)
    if not return_indices:
        return run("reshape", pooled, shape=shape)
    return run("reshape", pooled[0], shape=shape), run("reshape", pooled[1], shape=shape)


def _pair(value: Any) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else tuple(value)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of ``max_pool2d``: each value of ``input`` written at its flat position ``indices`` in its
    plane of the output (zeros elsewhere), the output ``(H - 1) * stride - 2 * padding + kernel_size`` (or
    ``output_size``)."""
    kernel, pads = _pair(kernel_size), _pair(padding)
    strides = kernel if stride is None else _pair(stride)
    height, width = input.shape[-2:]
    if output_size is None:
        size = ((height - 1) * strides[0] - 2 * pads[0] + kernel[0], (width - 1) * strides[1] - 2 * pads[1] + kernel[1])
    else:
        size = tuple(output_size)[-2:]
    lead = tuple(input.shape[:-2])
    planes = F.zeros(lead + (size[0] * size[1],), input.dtype)
    flat_index = run("reshape", indices, shape=lead + (height * width,))
    written = _scatter_add(planes, len(lead), flat_index, run("reshape", input, shape=lead + (height * width,)))
    return run("reshape", written, shape=lead + size)


def batch_norm(input: Tensor, running_mean: Tensor, running_var: Tensor, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-05) -> Tensor:
    """``input`` normalized per channel (dim 1) by the batch's statistics (``training``) or the running ones,
    then scaled by ``weight`` and shifted by ``bias`` (1 and 0 when None)."""
    channels = (input.shape[1],)
    weight = F.ones(channels, input.dtype) if weight is None else weight
    bias = F.zeros(channels, input.dtype) if bias is None else bias
    return NF.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(..., C * r * r, H, W)`` rearranged to ``(..., C, H * r, W * r)``.

    Raises:
        ValueError: if the channel count is not a multiple of ``upscale_factor ** 2``.
    """
    r = upscale_factor
    batch, (channels, height, width) = tuple(input.shape[:-3]), input.shape[-3:]
    if channels % (r * r):
        raise ValueError(f"For 'pixel_shuffle', the channels {channels} must be divisible by upscale_factor ** 2 "
                         f"({r * r}).")
    lead = len(batch)
    split = run("reshape", input, shape=(*batch, channels // (r * r), r, r, height, width))
    order = tuple(range(lead)) + tuple(lead + d for d in (0, 3, 1, 4, 2))
    return run("reshape", run("transpose", split, axes=order), shape=(*batch, channels // (r * r), height * r,
                                                                       width * r))


__getattr__ = module_getattr("mindspore.mint.nn.functional", globals())


def _window_slices(kernel: tuple[int, int], dilation: tuple[int, int], stride: tuple[int, int],
                   blocks: tuple[int, int]) -> list[tuple]:
    """For each kernel offset ``(i, j)``, in order, the index of the padded NCHW input taking that offset of
    every one of the ``blocks`` sliding windows."""
    return [(Ellipsis, slice(i * dilation[0], i * dilation[0] + stride[0] * (blocks[0] - 1) + 1, stride[0]),
             slice(j * dilation[1], j * dilation[1] + stride[1] * (blocks[1] - 1) + 1, stride[1]))
            for i in range(kernel[0]) for j in range(kernel[1])]


def _blocks(size: tuple[int, int], kernel: tuple[int, int], dilation: tuple[int, int], padding: tuple[int, int],
            stride: tuple[int, int]) -> tuple[int, int]:
    return tuple((size[d] + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1 for d in (0, 1))


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """The sliding ``kernel_size`` windows of the NCHW ``input`` (zero-padded by ``padding``) as columns:
    ``(N, C * kh * kw, L)``, channel-major, ``L`` windows row by row.

    Raises:
        ValueError: if no window fits.
    """
    kernel, dilations, pads, strides = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    blocks = _blocks(tuple(input.shape[-2:]), kernel, dilations, pads, strides)
    if blocks[0] <= 0 or blocks[1] <= 0:
        raise ValueError(f"For 'unfold', no {kernel} window fits the input of shape {tuple(input.shape)}.")
    padded = F.pad(input, (pads[1], pads[1], pads[0], pads[0])) if any(pads) else input
    columns = run("stack", *[run("getitem", padded, index=index)
                             for index in _window_slices(kernel, dilations, strides, blocks)], axis=-3)
    lead = tuple(input.shape[:-3])
    return run("reshape", columns, shape=lead + (input.shape[-3] * kernel[0] * kernel[1], blocks[0] * blocks[1]))


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """The columns ``(N, C * kh * kw, L)`` summed back into an NCHW image of ``output_size``: the transpose of
    :func:`unfold` (overlapping windows add up).

    Raises:
        ValueError: if the columns do not match ``output_size`` and the window arguments.
    """
    size, kernel = _pair(output_size), _pair(kernel_size)
    dilations, pads, strides = _pair(dilation), _pair(padding), _pair(stride)
    blocks = _blocks(size, kernel, dilations, pads, strides)
    channels, count = input.shape[-2] // (kernel[0] * kernel[1]), input.shape[-1]
    if channels * kernel[0] * kernel[1] != input.shape[-2] or count != blocks[0] * blocks[1]:
        raise ValueError(f"For 'fold', the input of shape {tuple(input.shape)} does not hold {kernel} windows of "
                         f"an output of size {size} ({blocks[0] * blocks[1]} of them).")
    lead = tuple(input.shape[:-2])
    patches = run("reshape", input, shape=lead + (channels, kernel[0] * kernel[1]) + blocks)
    padded = lead + (channels, size[0] + 2 * pads[0], size[1] + 2 * pads[1])
    total = None
    for offset, index in enumerate(_window_slices(kernel, dilations, strides, blocks)):
        placed = run("getitem_grad", run("getitem", patches, index=(Ellipsis, offset, slice(None), slice(None))),
                     shape=padded, index=index)
        total = placed if total is None else run("add", total, placed)
    return run("getitem", total, index=(Ellipsis, slice(pads[0], pads[0] + size[0]), slice(pads[1], pads[1] + size[1])))
