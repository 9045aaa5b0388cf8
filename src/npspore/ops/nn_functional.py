"""Functional neural-network ops, as ``mindspore.ops``: convolution, pooling, normalization, activations.

``ops.conv2d``, ``ops.max_pool2d``, ``ops.batch_norm``, ``ops.layer_norm``, ``ops.leaky_relu`` ...
with MindSpore's argument names and defaults. Convolution and pooling apply the ops of
``codegen_templates/conv.py`` and ``pooling.py``; normalizations and activations are compositions
of elementwise ops and reductions. Everything here is in the compilable subset (static Python
over shapes and arguments, tensor work through :func:`run`), so compiled code steps into it.
Losses are in :mod:`npspore.ops.losses`.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.kernel_random import function_kernel
from ..common.tensor import Tensor, _np_dtype
from ..rules_nn import window_out
from . import eager
from .eager import run

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose2d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool2d",
    "adaptive_max_pool2d", "batch_norm", "layer_norm", "group_norm", "instance_norm", "dropout", "dropout2d",
    "leaky_relu", "prelu", "elu", "silu", "mish", "hardswish", "hardsigmoid", "logsigmoid", "softsign", "threshold",
    "select", "depend", "clip_by_value", "clip_by_global_norm", "topk", "dense",
]


# ---------------------------------------------------------------- argument normalisation


def _int_tuple(value, n, arg_name, fn_name):
    """``value`` (an int or a tuple/list of ``n`` positive ints) as a tuple of ``n`` ints."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if (not isinstance(value, (tuple, list)) or len(value) != n
            or not all([isinstance(v, int) and not isinstance(v, bool) for v in value])):
        raise TypeError(f"For '{fn_name}', the '{arg_name}' must be an int or a tuple of {n} ints, but got {value}.")
    if any([v < 1 for v in value]):
        raise ValueError(f"For '{fn_name}', the '{arg_name}' must be positive, but got {value}.")
    return tuple(value)


def _explicit_padding(padding, fn_name):
    """``padding`` (an int, ``(ph, pw)`` or ``(top, bottom, left, right)``) as a 4-tuple."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = (padding,) * 4
    elif isinstance(padding, (tuple, list)) and len(padding) == 2:
        padding = (padding[0], padding[0], padding[1], padding[1])
    if (not isinstance(padding, (tuple, list)) or len(padding) != 4
            or not all([isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in padding])):
        raise ValueError(f"For '{fn_name}', the 'padding' must be a non-negative int or a tuple of 2 or 4 of them, "
                         f"but got {padding}.")
    return tuple(padding)


def _same_padding(size, kernel, stride, dilation):
    """MindSpore's ``'same'`` padding of one dim: ``ceil(size / stride)`` windows, the extra at the end."""
    if stride == 1:   # the size cancels out (it may be known only when the kernel runs)
        needed = dilation * (kernel - 1)
    else:
        needed = (-(-size // stride) - 1) * stride + dilation * (kernel - 1) + 1 - size
        needed = needed if needed > 0 else 0
    return (needed // 2, needed - needed // 2)


def _padding(pad_mode, padding, hw, kernel, stride, dilation, fn_name):
    """The 4-tuple padding of ``pad_mode`` (``'same'``, ``'valid'`` or ``'pad'`` with ``padding``)."""
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("same", "valid", "pad"):
        raise ValueError(f"For '{fn_name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got "
                         f"{pad_mode}.")
    explicit = _explicit_padding(padding, fn_name)
    if mode != "pad" and explicit != (0, 0, 0, 0):
        raise ValueError(f"For '{fn_name}', the 'padding' must be zero when 'pad_mode' is not 'pad', but got "
                         f"{padding}.")
    if mode == "same":
        return (_same_padding(hw[0], kernel[0], stride[0], dilation[0])
                + _same_padding(hw[1], kernel[1], stride[1], dilation[1]))
    return explicit


def _check_rank(x, ndim, fn_name, arg_name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{fn_name}', the '{arg_name}' must be a Tensor, but got {type(x).__name__}.")
    if len(x.shape) != ndim:
        raise ValueError(f"For '{fn_name}', the '{arg_name}' must be a {ndim}-D Tensor, but got shape {x.shape}.")


# ---------------------------------------------------------------- convolution


def dense(input, weight, bias=None):
    """``input @ weight.T + bias`` (``weight`` of shape ``(out_channels, in_channels)``, or ``(in_channels,)``
    for a dot product); ``bias=None`` adds nothing. Raises TypeError when an argument is not a Tensor."""
    for name, value in (("input", input), ("weight", weight), ("bias", bias)):
        if not isinstance(value, Tensor) and (value is not None or name != "bias"):
            raise TypeError(f"For 'Dense', the type of '{name}' should be Tensor, but got {type(value).__name__}.")
    output = run("matmul", input, weight, transpose_b=True) if weight.ndim == 2 else run("matmul", input, weight)
    return output if bias is None else run("add", output, bias)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """2-D cross-correlation of ``input (N, C, H, W)`` with ``weight (O, C/groups, KH, KW)``, plus ``bias (O,)``.

    Args:
        stride, dilation (Union[int, tuple[int]]): per dim, or one for both.
        pad_mode (str): ``'valid'`` (no padding), ``'same'`` (output ``ceil(H / stride)``, the odd pixel
            of padding at the bottom/right) or ``'pad'`` (``padding``).
        padding (Union[int, tuple[int]]): with ``'pad'``: all sides, ``(ph, pw)`` or ``(top, bottom,
            left, right)``.
        groups (int): input and output channels are split into this many groups.

    Raises:
        ValueError: for a bad ``pad_mode`` or padding, or channels that do not match.
    """
    stride, dilation = _conv_arguments(input, weight, stride, dilation, 2, "conv2d")
    pads = _padding(pad_mode, padding, input.shape[2:], weight.shape[2:], stride, dilation, "conv2d")
    if input.dtype == weight.dtype and -1 not in input.shape[2:] and None not in input.shape[2:]:
        out = _conv2d_by_columns(input, weight, stride, pads, dilation, groups)
    else:  # the op's rule names the mismatch, or keeps a dynamic height or width (-1)
        out = run("conv2d", input, weight, stride=stride, padding=pads, dilation=dilation, groups=groups)
    if bias is not None:
        out = out + run("reshape", bias, shape=(1, -1, 1, 1))
    return out


def _conv_arguments(input, weight, stride, dilation, dims, fn_name):
    """``stride`` and ``dilation`` as tuples of ``dims`` ints, after checking the ranks of ``input`` and ``weight``."""
    _check_rank(input, dims + 2, fn_name)
    _check_rank(weight, dims + 2, fn_name, "weight")
    return _int_tuple(stride, dims, "stride", fn_name), _int_tuple(dilation, dims, "dilation", fn_name)


def _conv2d_by_columns(input, weight, stride, pads, dilation, groups):
    """``conv2d`` as its two halves, the im2col columns and one GEMM of the filter with them: compiled,
    the columns are a value of their own, which the filter's gradient reuses instead of copying again."""
    o, cg, kh, kw = weight.shape
    oh = window_out(input.shape[2], kh, stride[0], pads[0] + pads[1], dilation[0])
    ow = window_out(input.shape[3], kw, stride[1], pads[2] + pads[3], dilation[1])
    cols = run("conv2d_columns", input, filter_shape=tuple(weight.shape), stride=stride, padding=pads,
               dilation=dilation, groups=groups)
    if groups == 1:  # one matrix product, not a batch of one: thread-split where large (core.matmul_split)
        rows = cg * kh * kw
        y = run("matmul", run("reshape", weight, shape=(o, rows)), run("reshape", cols, shape=(rows, -1)))
    else:
        y = run("matmul", run("reshape", weight, shape=(groups, o // groups, cg * kh * kw)), cols)
    return run("transpose", run("reshape", y, shape=(o, -1, oh, ow)), axes=(1, 0, 2, 3))


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """1-D cross-correlation of ``input (N, C, L)`` with ``weight (O, C/groups, K)`` (or ``(O, C/groups, 1, K)``).

    Args as :func:`conv2d`, each a single int (``padding`` an int or ``(left, right)``).
    """
    _check_rank(input, 3, "conv1d")
    if len(weight.shape) == 3:
        weight = run("expand_dims", weight, axis=2)
    stride = _int_tuple(stride, 1, "stride", "conv1d")[0]
    dilation = _int_tuple(dilation, 1, "dilation", "conv1d")[0]
    pads = (0, 0) + tuple(padding) if isinstance(padding, (tuple, list)) else (0, 0, padding, padding)
    out = conv2d(run("expand_dims", input, axis=2), weight, bias, (1, stride), pad_mode, pads, (1, dilation), groups)
    return run("squeeze", out, axis=2)


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """3-D cross-correlation of ``input (N, C, D, H, W)`` with ``weight (O, C/groups, KD, KH, KW)``, plus ``bias (O,)``;
    the arguments as :func:`conv2d`'s, per dim (depth, height, width), ``padding`` with ``'pad'`` an int or
    ``(head, tail, top, bottom, left, right)``. Computed as ``KD`` 2-D convolutions, one per depth tap, each
    over the strided depth slices that tap meets (folded into the batch), summed: its gradients are those
    of ``conv2d`` and of the slicing.
    """
    stride, dilation = _conv_arguments(input, weight, stride, dilation, 3, "conv3d")
    o, _, kd, kh, kw = weight.shape
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode == "pad":
        pads = (padding,) * 6 if isinstance(padding, int) and not isinstance(padding, bool) else tuple(padding)
        if len(pads) != 6 or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in pads):
            raise ValueError(f"For 'conv3d', the 'padding' must be a non-negative int or a tuple of 6 of them, but "
                             f"got {padding}.")
        depth_pads = pads[:2]
        plane_pads = pads[2:]
    else:
        plane_pads = _padding(mode, padding, input.shape[3:], (kh, kw), stride[1:], dilation[1:], "conv3d")
        depth_pads = _same_padding(input.shape[2], kd, stride[0], dilation[0]) if mode == "same" else (0, 0)
    n, c, depth = input.shape[:3]
    if depth_pads != (0, 0):
        depth += depth_pads[0] + depth_pads[1]
        input = run("getitem_grad", input, shape=(n, c, depth) + tuple(input.shape[3:]),
                    index=(slice(None), slice(None), slice(depth_pads[0], depth - depth_pads[1])))
    out_depth = window_out(depth, kd, stride[0], 0, dilation[0])
    if out_depth < 1:
        raise ValueError(f"For 'conv3d', the kernel depth {kd} (dilation {dilation[0]}) is larger than the padded "
                         f"input depth {depth}.")
    out = None
    for tap in range(kd):
        start = tap * dilation[0]
        planes = run("getitem", input, index=(slice(None), slice(None),
                                              slice(start, start + stride[0] * (out_depth - 1) + 1, stride[0])))
        planes = run("reshape", run("transpose", planes, axes=(0, 2, 1, 3, 4)), shape=(n * out_depth, c) +
                     tuple(input.shape[3:]))
        term = conv2d(planes, run("getitem", weight, index=(slice(None), slice(None), tap)), None, stride[1:], "pad",
                      plane_pads, dilation[1:], groups)
        out = term if out is None else out + term
    out = run("transpose", run("reshape", out, shape=(n, out_depth) + tuple(out.shape[1:])), axes=(0, 2, 1, 3, 4))
    if bias is not None:
        out = out + run("reshape", bias, shape=(1, -1, 1, 1, 1))
    return out


def conv_transpose2d(input, weight, bias=None, stride=1, padding=(0, 0, 0, 0), output_shape=None, dilation=1,
                     groups=1):
    """Transposed 2-D convolution: the gradient of :func:`conv2d` with respect to its input.

    ``input (N, C_in, H, W)`` and ``weight (C_in, C_out/groups, KH, KW)`` give
    ``(N, C_out, OH, OW)``; ``output_shape`` ``(OH, OW)`` defaults to the smallest shape whose
    convolution has ``input``'s size, ``(H - 1) * stride + dilation * (K - 1) + 1 - pads``.

    Args:
        padding (tuple[int]): ``(top, bottom, left, right)``, removed from the output.
    """
    _check_rank(input, 4, "conv_transpose2d")
    _check_rank(weight, 4, "conv_transpose2d", "weight")
    stride = _int_tuple(stride, 2, "stride", "conv_transpose2d")
    dilation = _int_tuple(dilation, 2, "dilation", "conv_transpose2d")
    pads = _explicit_padding(padding, "conv_transpose2d")
    if output_shape is None:
        output_shape = ((input.shape[2] - 1) * stride[0] + dilation[0] * (weight.shape[2] - 1) + 1 - pads[0] - pads[1],
                        (input.shape[3] - 1) * stride[1] + dilation[1] * (weight.shape[3] - 1) + 1 - pads[2] - pads[3])
    shape = (input.shape[0], weight.shape[1] * groups) + tuple(output_shape)
    out = run("conv2d_input_grad", input, weight, input_shape=shape, stride=stride, padding=pads, dilation=dilation,
              groups=groups)
    if bias is not None:
        out = out + run("reshape", bias, shape=(1, -1, 1, 1))
    return out


# ---------------------------------------------------------------- pooling


def _ceil_padding(size, kernel, stride, pads, dilation):
    """``pads`` grown at the end so that a partial last window counts (``ceil_mode``), as PyTorch does."""
    total = size + pads[0] + pads[1]
    span = dilation * (kernel - 1) + 1
    count = -(-(total - span) // stride) + 1
    if (count - 1) * stride >= size + pads[0]:
        count -= 1
    extra = (count - 1) * stride + span - total
    return (pads[0], pads[1] + (extra if extra > 0 else 0))


def _pool_args(x, kernel_size, stride, pad_mode, padding, dilation, ceil_mode, fn_name):
    """``(kernel, stride, pads, dilation, explicit)`` for a 2-D pooling; ``explicit`` are the pads
    without the ceil-mode extension."""
    kernel = _int_tuple(kernel_size, 2, "kernel_size", fn_name)
    stride = kernel if stride is None else _int_tuple(stride, 2, "stride", fn_name)
    dilation = _int_tuple(dilation, 2, "dilation", fn_name)
    explicit = _padding(pad_mode, padding, x.shape[2:], kernel, stride, dilation, fn_name)
    pads = explicit
    if ceil_mode:
        pads = (_ceil_padding(x.shape[2], kernel[0], stride[0], explicit[:2], dilation[0])
                + _ceil_padding(x.shape[3], kernel[1], stride[1], explicit[2:], dilation[1]))
    return kernel, stride, pads, dilation, explicit


def _max_pool(x, kernel_size, stride, pad_mode, padding, dilation, ceil_mode, fn_name, return_indices=False):
    """Max pooling; with ``return_indices`` also the flat index, into each ``(H, W)`` plane of ``x``,
    of each window's first maximum (int64), as MindSpore returns it."""
    _check_rank(x, 4, fn_name)
    kernel, stride, pads, dilation, _ = _pool_args(x, kernel_size, stride, pad_mode, padding, dilation, ceil_mode,
                                                   fn_name)
    out = run("max_pool2d", x, kernel_size=kernel, stride=stride, padding=pads, dilation=dilation)
    if not return_indices:
        return out
    padded = run("max_pool2d_index", x, kernel_size=kernel, stride=stride, padding=pads, dilation=dilation)
    width = x.shape[3] + pads[2] + pads[3]
    plane = padded % ((x.shape[2] + pads[0] + pads[1]) * width)
    return out, (plane // width - pads[0]) * x.shape[3] + plane % width - pads[2]


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    """2-D max pooling of ``x (N, C, H, W)``; ``stride`` defaults to ``kernel_size``; padding is ``-inf``.

    Returns:
        The pooled Tensor; with ``return_indices``, ``(pooled, indices)``: the int64 flat index into
        each ``(H, W)`` plane of ``x`` of each window's first maximum.
    """
    return _max_pool(x, kernel_size, stride, "pad", padding, dilation, ceil_mode, "max_pool2d", return_indices)


def _avg_pool(x, kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad, divisor_override, fn_name):
    """Average pooling: window sums over ``divisor_override``, or over the count of the input's
    elements in each window (with the explicit padding too when ``count_include_pad`` and
    ``pad_mode`` is ``'pad'``)."""
    _check_rank(x, 4, fn_name)
    kernel, stride, pads, dilation, explicit = _pool_args(x, kernel_size, stride, pad_mode, padding, 1, ceil_mode,
                                                          fn_name)
    sums = run("sum_pool2d", x, kernel_size=kernel, stride=stride, padding=pads, dilation=dilation)
    if divisor_override:
        return sums / divisor_override
    dtype = _np_dtype(x.dtype)
    if count_include_pad and pad_mode.lower() == "pad":
        ones = run("ones", shape=(1, 1, x.shape[2] + explicit[0] + explicit[1], x.shape[3] + explicit[2] + explicit[3]),
                   dtype=dtype)
        extra = (0, pads[1] - explicit[1], 0, pads[3] - explicit[3])
    else:
        ones = run("ones", shape=(1, 1) + x.shape[2:], dtype=dtype)
        extra = pads
    counts = run("sum_pool2d", ones, kernel_size=kernel, stride=stride, padding=extra, dilation=dilation)
    return sums / counts


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """2-D average pooling of ``input_x (N, C, H, W)`` with zero ``padding``.

    Args:
        count_include_pad (bool): whether the padding counts in each window's divisor.
        divisor_override (int): the divisor of every window, when not 0.
    """
    return _avg_pool(input_x, kernel_size, stride, "pad", padding, ceil_mode, count_include_pad, divisor_override,
                     "avg_pool2d")


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    """1-D average pooling of ``input_x (N, C, L)`` with zero ``padding`` on both sides."""
    _check_rank(input_x, 3, "avg_pool1d")
    out = _avg_pool(run("expand_dims", input_x, axis=2), (1, kernel_size), (1, stride), "pad", (0, 0, padding, padding),
                    ceil_mode, count_include_pad, 0, "avg_pool1d")
    return run("squeeze", out, axis=2)


def _adaptive_size(output_size, shape, fn_name):
    """``output_size`` (an int, or a pair with ``None`` meaning the input's size) as ``(OH, OW)``."""
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size, output_size)
    if not isinstance(output_size, (tuple, list)) or len(output_size) != 2:
        raise TypeError(f"For '{fn_name}', the 'output_size' must be an int or a tuple of 2, but got {output_size}.")
    return tuple([shape[i + 2] if s is None else s for i, s in enumerate(output_size)])


def adaptive_avg_pool2d(input, output_size):
    """Average of ``output_size`` windows spanning ``input (N, C, H, W)`` or ``(C, H, W)``: rows
    ``floor(i*H/OH)`` to ``ceil((i+1)*H/OH)``, as two products with averaging matrices."""
    unbatched = isinstance(input, Tensor) and len(input.shape) == 3
    if unbatched:
        input = run("expand_dims", input, axis=0)
    _check_rank(input, 4, "adaptive_avg_pool2d")
    oh, ow = _adaptive_size(output_size, input.shape, "adaptive_avg_pool2d")
    dtype = _np_dtype(input.dtype)
    rows = run("adaptive_avg_weights", in_size=input.shape[2], out_size=oh, dtype=dtype)
    cols = run("adaptive_avg_weights", in_size=input.shape[3], out_size=ow, dtype=dtype)
    pooled = run("matmul", run("matmul", rows, input), cols, transpose_b=True)
    return run("squeeze", pooled, axis=(0,)) if unbatched else pooled


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maximum of ``output_size`` windows spanning ``input (N, C, H, W)`` (windows as in
    :func:`adaptive_avg_pool2d`; a max pooling when the sizes divide).

    Returns:
        The pooled Tensor; with ``return_indices``, ``(pooled, indices)``: the int64 flat index into
        each ``(H, W)`` plane of ``input`` of each window's first maximum.
    """
    _check_rank(input, 4, "adaptive_max_pool2d")
    oh, ow = _adaptive_size(output_size, input.shape, "adaptive_max_pool2d")
    h, w = input.shape[2], input.shape[3]
    if h % oh == 0 and w % ow == 0:
        return _max_pool(input, (h // oh, w // ow), (h // oh, w // ow), "valid", 0, 1, False, "adaptive_max_pool2d",
                         return_indices)
    rows = run("adaptive_window_index", in_size=h, out_size=oh)
    picked = run("gather", input, run("reshape", rows, shape=(-1,)), axis=2)
    reduced = run("max", run("reshape", picked, shape=input.shape[:2] + rows.shape + (w,)), axis=3)
    cols = run("adaptive_window_index", in_size=w, out_size=ow)
    picked = run("gather", reduced, run("reshape", cols, shape=(-1,)), axis=3)
    out = run("max", run("reshape", picked, shape=reduced.shape[:3] + cols.shape), axis=4)
    if not return_indices:
        return out
    return out, _adaptive_max_indices(input, rows, cols)


def _adaptive_max_indices(input, rows, cols):
    """The flat ``(H, W)`` index of each adaptive window's first maximum (row-major within the window;
    the repeated last elements of narrow windows come after the real ones, so they never win)."""
    n, c, h, w = input.shape
    (oh, kh), (ow, kw) = rows.shape, cols.shape
    windows = run("gather", input, run("reshape", rows, shape=(-1,)), axis=2)
    windows = run("gather", windows, run("reshape", cols, shape=(-1,)), axis=3)
    windows = run("transpose", run("reshape", windows, shape=(n, c, oh, kh, ow, kw)), axes=(0, 1, 2, 4, 3, 5))
    first = run("cast", run("argmax", run("reshape", windows, shape=(n, c, oh, ow, kh * kw)), axis=-1),
                dtype=np.dtype(np.int64))
    return (rows[:, :1] + first // kw) * w + cols[:, 0] + first % kw


# ---------------------------------------------------------------- normalization


def _channel_shape(x):
    """The shape a per-channel ``(C,)`` vector broadcasts as against ``x (N, C, ...)``."""
    return (1, x.shape[1]) + (1,) * (len(x.shape) - 2)


def _channel_affine(x, weight, bias):
    """``x * weight + bias`` with per-channel ``(C,)`` vectors (either may be ``None``)."""
    shape = _channel_shape(x)
    if weight is not None:
        x = x * run("reshape", weight, shape=shape)
    if bias is not None:
        x = x + run("reshape", bias, shape=shape)
    return x


def _normalize(x, axes, eps):
    """``(x - mean) / sqrt(var + eps)`` over ``axes``, with the (biased) mean and variance."""
    mean = run("mean", x, axis=axes, keepdims=True)
    centered = x - mean
    var = run("mean", run("square", centered), axis=axes, keepdims=True)
    return centered * run("rsqrt", var + eps), mean, var


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05):
    """Batch normalization over all dims but the channel dim 1.

    In training, the batch's statistics normalize and ``running_mean``/``running_var`` (Parameters)
    are updated in place: ``running = (1 - momentum) * running + momentum * batch`` (the batch
    variance unbiased). Otherwise the running statistics normalize.
    """
    if len(input_x.shape) < 2:
        raise ValueError(f"For 'batch_norm', the 'input_x' must have at least 2 dims, but got {input_x.shape}.")
    shape = _channel_shape(input_x)
    if training:
        axes = (0,) + tuple(range(2, len(input_x.shape)))
        out, mean, var = _normalize(input_x, axes, eps)
        count = input_x.size // input_x.shape[1]
        unbiased = run("reshape", var, shape=(-1,)) * (count / (count - 1 if count > 1 else 1))
        eager.assign(running_mean, running_mean * (1 - momentum) + run("reshape", mean, shape=(-1,)) * momentum)
        eager.assign(running_var, running_var * (1 - momentum) + unbiased * momentum)
    else:
        mean = run("reshape", running_mean, shape=shape)
        out = (input_x - mean) * run("rsqrt", run("reshape", running_var, shape=shape) + eps)
    return out * run("reshape", weight, shape=shape) + run("reshape", bias, shape=shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalize over the last ``len(normalized_shape)`` dims, then scale by ``weight`` and shift by ``bias``."""
    normalized = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[len(input.shape) - len(normalized):]) != normalized:
        raise ValueError(f"For 'layer_norm', the last dims of 'input' {input.shape} must be 'normalized_shape' "
                         f"{normalized}.")
    axes = tuple(range(len(input.shape) - len(normalized), len(input.shape)))
    out, rstd = run("normalize", input, axis=axes, eps=eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalize ``input (N, C, ...)`` over each group of ``C / num_groups`` channels (and all other dims)."""
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise ValueError(f"For 'group_norm', the channels {c} must be divisible by 'num_groups' {num_groups}.")
    grouped, _, _ = _normalize(run("reshape", input, shape=(n, num_groups, -1)), (2,), eps)
    return _channel_affine(run("reshape", grouped, shape=input.shape), weight, bias)


def instance_norm(input, weight=None, bias=None, eps=1e-05):
    """Normalize each channel of each sample of ``input (N, C, ...)`` over its other dims."""
    out, _, _ = _normalize(input, tuple(range(2, len(input.shape))), eps)
    return _channel_affine(out, weight, bias)


# ---------------------------------------------------------------- dropout


def _keep_mask(x, shape, p, seeds=None):
    """The scaled keep mask of dropout with probability ``p``, as the ``Dropout`` kernel of the primitive
    ``seeds`` draws it (None: npspore's own engine, seeded by ``set_seed``)."""
    return run("dropout_mask", shape=shape, keep_prob=1.0 - p, dtype=_np_dtype(x.dtype), seeds=seeds)


def dropout(input, p=0.5, training=True, seed=None):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)`` (when ``training``),
    MindSpore's masks: a new ``Dropout`` primitive of seeds ``_get_graph_seed(seed, 'dropout')`` each call
    (the op seed it advances is shared with ``nn.Dropout``).

    Raises:
        ValueError: if ``p`` is not in [0, 1).
    """
    if not 0 <= p < 1:
        raise ValueError(f"For 'dropout', the 'p' must be in range [0, 1), but got {p}.")
    if not training:
        return input
    seeds = function_kernel("Dropout", seed, "dropout")
    return input * _keep_mask(input, input.shape, p, seeds)


def dropout2d(input, p=0.5, training=True):
    """Zero whole channels of ``input (N, C, H, W)`` with probability ``p``, scaling the rest by ``1 / (1 - p)``."""
    if not 0 <= p <= 1:
        raise ValueError(f"For 'dropout2d', the 'p' must be in range [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    if p == 1:
        return input * 0
    return input * _keep_mask(input, input.shape[:2] + (1,) * (len(input.shape) - 2), p)


# ---------------------------------------------------------------- activations


def leaky_relu(input, alpha=0.2):
    """``input`` where positive, else ``alpha * input``."""
    return run("where", input > 0, input, input * alpha)


def prelu(input, weight):
    """``input`` where positive, else ``weight * input``; ``weight (C,)`` applies along dim 1 (``(1,)``: to
    every element; the output has ``input``'s shape, a 0-d one too).

    Raises:
        ValueError: if ``weight`` has neither 1 element nor one per channel (``input``'s dim 1; 1 below rank 2).
    """
    channels = input.shape[1] if len(input.shape) > 1 else 1
    if len(weight.shape) == 1 and weight.shape[0] not in (1, channels):
        raise ValueError(f"For 'Prelu', the length of 'weight' must be equal to number of channels: {channels}, "
                         f"but got {list(weight.shape)}.")
    if not input.shape:
        weight = run("reshape", weight, shape=())
    elif len(input.shape) > 1 and weight.shape[0] > 1:
        weight = run("reshape", weight, shape=(input.shape[1],) + (1,) * (len(input.shape) - 2))
    return run("where", input > 0, input, input * weight)


def elu(input_x, alpha=1.0):
    """``input_x`` where positive, else ``alpha * (exp(input_x) - 1)``."""
    negative = (run("exp", run("minimum", input_x, 0.0)) - 1) * alpha
    return run("where", input_x > 0, input_x, negative)


def silu(input):
    """``input * sigmoid(input)``."""
    return input * run("sigmoid", input)


def mish(x):
    """``x * tanh(softplus(x))``."""
    return x * run("tanh", run("softplus", x))


def hardsigmoid(input):
    """``relu6(input + 3) / 6``."""
    return run("clip", input + 3, 0.0, 6.0) / 6


def hardswish(input):
    """``input * relu6(input + 3) / 6``; an integer ``input`` gives its dtype, the quotient truncated
    toward zero (MindSpore's integer kernel)."""
    result = input * hardsigmoid(input)
    if input.dtype in mstype.int_type + mstype.uint_type:
        return run("cast", result, dtype=_np_dtype(input.dtype))
    return result


def logsigmoid(x):
    """``log(sigmoid(x)) = -softplus(-x)``, without overflow."""
    return -run("softplus", -x)


def softsign(x):
    """``x / (1 + |x|)``."""
    return x / (run("abs", x) + 1)


def threshold(input, thr, value):
    """``input`` where it is greater than ``thr``, else ``value``."""
    return run("where", input > thr, input, run("cast", value, dtype=_np_dtype(input.dtype)))


# ---------------------------------------------------------------- selection, ordering, clipping


def select(condition, input, other):
    """Elements of ``input`` where ``condition`` holds, else of ``other``."""
    return run("where", condition, input, other)


def depend(value, expr):
    """``value``, after ``expr`` has been computed (npspore runs statements in program order)."""
    return value


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """``x`` (a Tensor, or a list/tuple of them, nested as ``grad(..., has_aux=True)`` returns them) clipped to
    ``[clip_value_min, clip_value_max]``; a list or tuple gives a tuple of the same nesting, as MindSpore's
    ``hyper_map`` (in compiled code, one level)."""
    if isinstance(x, (tuple, list)):
        clipped = []
        for t in x:
            if isinstance(t, (tuple, list)):
                clipped.append(clip_by_value(t, clip_value_min, clip_value_max))
            else:
                clipped.append(run("clip", t, clip_value_min, clip_value_max))
        return tuple(clipped)
    return run("clip", x, clip_value_min, clip_value_max)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """The Tensors of ``x`` scaled by ``clip_norm / max(global_norm, clip_norm)``, where
    ``global_norm`` is the 2-norm of all their elements together; a tuple."""
    total = 0.0
    for t in x:
        total = total + run("sum", run("square", t))
    norm = run("sqrt", total) if use_norm is None else use_norm
    scale = clip_norm / run("maximum", norm, clip_norm)
    clipped = []
    for t in x:
        clipped.append(t * run("cast", scale, dtype=_np_dtype(t.dtype)))
    return tuple(clipped)


def topk(input, k, dim=None, largest=True, sorted=True):
    """The ``k`` largest (``largest=False``: smallest) elements along ``dim`` (default: the last) and
    their Int32 indices, in order; ties go to the lower index."""
    ndim = len(input.shape)
    axis = ndim - 1 if dim is None else dim % ndim
    if axis != ndim - 1:
        input = run("transpose", input, axes=tuple(range(axis)) + tuple(range(axis + 1, ndim)) + (axis,))
    values, indices = run("topk", input, k=k, largest=largest)
    if axis != ndim - 1:
        back = tuple(range(axis)) + (ndim - 1,) + tuple(range(axis, ndim - 1))
        values, indices = run("transpose", values, axes=back), run("transpose", indices, axes=back)
    return values, indices

