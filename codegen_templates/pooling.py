"""Pooling ops on NCHW arrays: the windows view ``pool2d_windows``, max pooling (``max_pool2d`` and its index, scatter and gather ops) and
window sums (``sum_pool2d``, with its transpose ``sum_pool2d_grad``; average pooling divides by counts).

Static attributes: ``kernel_size=(kh, kw)``, ``stride=(sh, sw)``, ``padding=(top, bottom, left,
right)``, ``dilation=(dh, dw)``. Each lowering views the padded input as windows with
``as_strided``; none loops over pixels (max pooling loops over the ``KH * KW`` kernel taps, each a
strided operation over every window: ``rt.max_pool2d`` and ``rt.max_pool2d_grad`` of
``npspore/core/kernels_np.py``). Max pooling pads with ``-inf`` and sends each window's
gradient to its first maximum (MindSpore's argmax; a window holding NaN sends it to its first
element), so ``max_pool2d_grad(x, max_pool2d(x), g)`` (the scatter, given the maximum the forward
computed) and
``max_pool2d_gather(x, h)`` (the reads at the same positions) are each other's transposes and
gradients of any order stay within them.
"""
import numpy as np

from npspore.core import kernels_np as rt
from npspore.opdef import LINEAR, call, op

TANGENT = LINEAR   # window sums, and max pooling's gathers and scatters at fixed positions, are linear
from npspore.rules_nn import (adaptive_index_rule, adaptive_weights_rule, pool2d_grad_rule, pool2d_index_rule,
                               pool2d_rule, pool2d_transpose_rule, pool2d_windows_rule)


@op(infer=pool2d_windows_rule)
class pool2d_windows:
    """The windows of ``x`` padded with ``fill``, as a strided view ``(N, C, OH, OW, KH, KW)`` (no copy)."""

    def forward(x, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), fill=0.0):
        return rt.pool_windows(x, kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation, fill=fill)

    adjoint = None


@op(infer=pool2d_rule("MaxPool"))
class max_pool2d:
    """The maximum of each window: ``(N, C, OH, OW)``."""

    def forward(x, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return rt.max_pool2d(x, kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def adjoint(x, out, dout, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return call("max_pool2d_grad", x, out, dout, kernel_size=kernel_size, stride=stride, padding=padding,
                    dilation=dilation)

    def tangent(x, out, dx, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return call("max_pool2d_gather", x, dx, kernel_size=kernel_size, stride=stride, padding=padding,
                    dilation=dilation)


@op(infer=pool2d_index_rule)
class max_pool2d_index:
    """The flat index, into the padded input, of each window's first maximum (int64, ``(N, C, OH, OW)``)."""

    def forward(x, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        windows = call("pool2d_windows", x, kernel_size=kernel_size, stride=stride, padding=padding,
                       dilation=dilation, fill=-np.inf)
        n, c, oh, ow = windows.shape[:4]
        h = x.shape[2] + padding[0] + padding[1]
        wd = x.shape[3] + padding[2] + padding[3]
        top = call("max_pool2d", x, kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)
        below = windows.reshape(n, c, oh, ow, kernel_size[0] * kernel_size[1]) < top.reshape(n, c, oh, ow, 1)
        first = (~below).argmax(axis=-1)
        rows = np.arange(oh).reshape(oh, 1) * stride[0] + first // kernel_size[1] * dilation[0]
        cols = np.arange(ow) * stride[1] + first % kernel_size[1] * dilation[1]
        return (np.arange(n * c).reshape(n, c, 1, 1) * h + rows) * wd + cols

    adjoint = None


@op(infer=pool2d_transpose_rule)
class max_pool2d_grad:
    """``g (N, C, OH, OW)`` added into zeros shaped like ``x`` at each window's first maximum; ``top`` is
    ``max_pool2d(x)`` as the forward computed it (the maximum is not computed again)."""

    def forward(x, top, g, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return rt.max_pool2d_grad(x, top, g, kernel_size=kernel_size, stride=stride, padding=padding,
                                  dilation=dilation)

    def adjoint(x, top, g, out, dout, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return None, None, call("max_pool2d_gather", x, dout, kernel_size=kernel_size, stride=stride,
                                padding=padding, dilation=dilation)


@op(infer=pool2d_rule("MaxPool"))
class max_pool2d_gather:
    """The values of ``h`` (shaped like ``x``) at each window's first maximum of ``x``."""

    def forward(x, h, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        index = call("max_pool2d_index", x, kernel_size=kernel_size, stride=stride, padding=padding,
                     dilation=dilation)
        hp = np.pad(h, ((0, 0), (0, 0), padding[:2], padding[2:])) if padding != (0, 0, 0, 0) else h
        return hp.reshape(-1)[index]

    def adjoint(x, h, out, dout, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        top = call("max_pool2d", x, kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)
        return None, call("max_pool2d_grad", x, top, dout, kernel_size=kernel_size, stride=stride, padding=padding,
                          dilation=dilation)


@op(infer=pool2d_rule("AvgPool"))
class sum_pool2d:
    """The sum of each zero-padded window: ``(N, C, OH, OW)``."""

    def forward(x, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        windows = call("pool2d_windows", x, kernel_size=kernel_size, stride=stride, padding=padding,
                       dilation=dilation, fill=0.0)
        return windows.sum(axis=(4, 5))

    def adjoint(x, out, dout, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return call("sum_pool2d_grad", dout, input_shape=x.shape, kernel_size=kernel_size, stride=stride,
                    padding=padding, dilation=dilation)


@op(infer=pool2d_grad_rule)
class sum_pool2d_grad:
    """The transpose of ``sum_pool2d``: each element of ``g`` added over its window, in an array of
    ``input_shape`` (``g`` spread at ``stride`` steps, then summed over flipped windows)."""

    def forward(g, *, input_shape, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        n, c, oh, ow = g.shape
        top = dilation[0] * (kernel_size[0] - 1)
        left = dilation[1] * (kernel_size[1] - 1)
        hp = input_shape[2] + padding[0] + padding[1]
        wp = input_shape[3] + padding[2] + padding[3]
        spread = np.zeros((n, c, hp + top, wp + left), g.dtype)
        spread[:, :, top:top + (oh - 1) * stride[0] + 1:stride[0], left:left + (ow - 1) * stride[1] + 1:stride[1]] = g
        s = spread.strides
        windows = np.lib.stride_tricks.as_strided(
            spread, shape=(n, c, hp, wp) + kernel_size,
            strides=(s[0], s[1], s[2], s[3], dilation[0] * s[2], dilation[1] * s[3]))
        return windows.sum(axis=(4, 5))[:, :, padding[0]:padding[0] + input_shape[2],
                                        padding[2]:padding[2] + input_shape[3]]

    def adjoint(g, out, dout, *, input_shape, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        return call("sum_pool2d", dout, kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)


# ---------------------------------------------------------------- adaptive pooling windows


@op(infer=adaptive_weights_rule)
class adaptive_avg_weights:
    """The ``(out_size, in_size)`` matrix averaging window ``i``: elements ``floor(i * in / out)`` to
    ``ceil((i + 1) * in / out)`` (adaptive average pooling is a product with it on each side)."""

    def forward(*, in_size, out_size, dtype):
        i = np.arange(out_size).reshape(out_size, 1)
        j = np.arange(in_size)
        inside = (j >= i * in_size // out_size) & (j < -(-(i + 1) * in_size // out_size))
        return (inside / np.sum(inside, axis=1, keepdims=True)).astype(dtype)

    adjoint = None


@op(infer=adaptive_index_rule)
class adaptive_window_index:
    """``(out_size, k)`` int64 indices of each adaptive window's elements, ``k`` the widest window's
    size; narrower windows repeat their last element (which leaves a maximum unchanged)."""

    def forward(*, in_size, out_size):
        i = np.arange(out_size).reshape(out_size, 1)
        start = i * in_size // out_size
        stop = -(-(i + 1) * in_size // out_size)
        return np.minimum(start + np.arange(np.max(stop - start)), stop - 1)

    adjoint = None
