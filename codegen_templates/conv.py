"""Convolution ops on NCHW arrays: ``conv2d`` and its two adjoints, ``conv2d_input_grad`` (which is
also the transposed convolution) and ``conv2d_filter_grad``.

Static attributes: ``stride=(sh, sw)``, ``padding=(top, bottom, left, right)`` (zeros added to the
input), ``dilation=(dh, dw)``, ``groups``. Each lowering is one strided view of the (padded) input,
copied once into columns (``im2col``), and one batched GEMM over the groups; no Python loop visits
pixels. The three ops are each other's adjoints: ``conv2d`` is bilinear in ``(x, w)``, and
``<g, conv2d(x, w)> = <conv2d_input_grad(g, w), x> = <conv2d_filter_grad(x, g), w>``, so gradients of
any order stay within these three.

``conv2d_input_grad(dy, w)`` is im2col's transpose: one GEMM of the transposed filter with ``dy`` gives the
columns, which are added back into a zero (channel-major) buffer one kernel tap at a time (a loop over
``KH * KW`` taps, each a strided add over every pixel), then the padding is dropped.
"""
import numpy as np

from npspore.opdef import call, op
from npspore.rules_nn import conv2d_filter_grad_rule, conv2d_input_grad_rule, conv2d_rule


@op(infer=conv2d_rule)
class conv2d:
    """Cross-correlation of ``x (N, C, H, W)`` with ``w (O, C/groups, KH, KW)``: ``(N, O, OH, OW)``."""

    def forward(x, w, *, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        xp = np.pad(x, ((0, 0), (0, 0), padding[:2], padding[2:])) if padding != (0, 0, 0, 0) else x
        n, c, h, wd = xp.shape
        o, cg, kh, kw = w.shape
        oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
        ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
        s = xp.strides
        cols = np.lib.stride_tricks.as_strided(
            xp, shape=(groups, cg, kh, kw, n, oh, ow),
            strides=(cg * s[1], s[1], dilation[0] * s[2], dilation[1] * s[3], s[0], stride[0] * s[2], stride[1] * s[3]))
        y = np.matmul(w.reshape(groups, o // groups, cg * kh * kw), cols.reshape(groups, cg * kh * kw, n * oh * ow))
        return y.reshape(o, n, oh, ow).transpose(1, 0, 2, 3)

    def adjoint(x, w, out, dout, *, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return (call("conv2d_input_grad", dout, w, input_shape=x.shape, stride=stride, padding=padding,
                     dilation=dilation, groups=groups),
                call("conv2d_filter_grad", x, dout, filter_shape=w.shape, stride=stride, padding=padding,
                     dilation=dilation, groups=groups))


@op(infer=conv2d_input_grad_rule)
class conv2d_input_grad:
    """The gradient of ``conv2d`` with respect to its input, of shape ``input_shape``; the transposed
    convolution of ``dy (N, O, OH, OW)`` by ``w (O, C/groups, KH, KW)``."""

    def forward(dy, w, *, input_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        n, o, oh, ow = dy.shape
        cg, kh, kw = w.shape[1:]
        rows = dy.transpose(1, 0, 2, 3).reshape(groups, o // groups, n * oh * ow)
        cols = np.matmul(w.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1), rows)
        cols = cols.reshape(groups * cg, kh, kw, n, oh, ow)
        grad = np.zeros((groups * cg, n, input_shape[2] + padding[0] + padding[1],
                         input_shape[3] + padding[2] + padding[3]), dy.dtype)
        for i in range(kh):
            for j in range(kw):
                top = i * dilation[0]
                left = j * dilation[1]
                grad[:, :, top:top + (oh - 1) * stride[0] + 1:stride[0],
                     left:left + (ow - 1) * stride[1] + 1:stride[1]] += cols[:, i, j]
        return grad.transpose(1, 0, 2, 3)[:, :, padding[0]:padding[0] + input_shape[2],
                                          padding[2]:padding[2] + input_shape[3]]

    def adjoint(dy, w, out, dout, *, input_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return (call("conv2d", dout, w, stride=stride, padding=padding, dilation=dilation, groups=groups),
                call("conv2d_filter_grad", dout, dy, filter_shape=w.shape, stride=stride, padding=padding,
                     dilation=dilation, groups=groups))


@op(infer=conv2d_filter_grad_rule)
class conv2d_filter_grad:
    """The gradient of ``conv2d`` with respect to its filter (of shape ``filter_shape``), given the
    input ``x`` and the output cotangent ``dy``."""

    def forward(x, dy, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        xp = np.pad(x, ((0, 0), (0, 0), padding[:2], padding[2:])) if padding != (0, 0, 0, 0) else x
        n, o, oh, ow = dy.shape
        cg, kh, kw = filter_shape[1:]
        s = xp.strides
        cols = np.lib.stride_tricks.as_strided(
            xp, shape=(groups, n, oh, ow, cg, kh, kw),
            strides=(cg * s[1], s[0], stride[0] * s[2], stride[1] * s[3], s[1], dilation[0] * s[2], dilation[1] * s[3]))
        grads = dy.transpose(1, 0, 2, 3).reshape(groups, o // groups, n * oh * ow)
        return np.matmul(grads, cols.reshape(groups, n * oh * ow, cg * kh * kw)).reshape(filter_shape)

    def adjoint(x, dy, out, dout, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return (call("conv2d_input_grad", dy, dout, input_shape=x.shape, stride=stride, padding=padding,
                     dilation=dilation, groups=groups),
                call("conv2d", x, dout, stride=stride, padding=padding, dilation=dilation, groups=groups))
