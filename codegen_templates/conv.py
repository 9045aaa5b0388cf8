"""Convolution ops on NCHW arrays: ``conv2d`` and its two adjoints, ``conv2d_input_grad`` (which is
also the transposed convolution) and ``conv2d_filter_grad``; and the two halves they are made of,
``conv2d_columns`` (im2col) and its transpose ``conv2d_columns_grad`` (col2im).

Static attributes: ``stride=(sh, sw)``, ``padding=(top, bottom, left, right)`` (zeros added to the
input), ``dilation=(dh, dw)``, ``groups``. ``conv2d`` copies a strided view of the (padded) input once
into columns and multiplies the filter with them (one batched GEMM over the groups);
``conv2d_filter_grad`` multiplies ``dy`` with the same columns, transposed; ``conv2d_input_grad``
multiplies the transposed filter with ``dy`` and adds the resulting columns back (col2im). The
columns and their transpose are the named helpers ``rt.im2col`` and ``rt.col2im`` of
``npspore/core/kernels_np.py``. The three are each other's
adjoints: ``conv2d`` is bilinear in ``(x, w)``, and
``<g, conv2d(x, w)> = <conv2d_input_grad(g, w), x> = <conv2d_filter_grad(x, g), w>``, so gradients of
any order stay within these three (``conv2d_columns`` and ``conv2d_columns_grad``, both linear, are
each other's adjoints). With a height or width known only when the kernel runs (stride 1), which col2im cannot
read off the columns, the input's gradient is that transposed convolution written as a ``conv2d`` of ``dy``.
"""
import numpy as np

from npspore.core import kernels_np as rt
from npspore.opdef import MULTILINEAR, call, op

TANGENT = MULTILINEAR   # the convolutions are linear in each operand; the column ops in their one
from npspore.rules_nn import (conv2d_columns_grad_rule, conv2d_columns_rule, conv2d_filter_grad_rule,
                              conv2d_input_grad_rule, conv2d_rule)


@op(infer=conv2d_rule)
class conv2d:
    """Cross-correlation of ``x (N, C, H, W)`` with ``w (O, C/groups, KH, KW)``: ``(N, O, OH, OW)``."""

    def forward(x, w, *, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        o, cg, kh, kw = w.shape
        oh = (x.shape[2] + padding[0] + padding[1] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
        ow = (x.shape[3] + padding[2] + padding[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
        cols = call("conv2d_columns", x, filter_shape=w.shape, stride=stride, padding=padding, dilation=dilation,
                    groups=groups)
        y = np.matmul(w.reshape(groups, o // groups, cg * kh * kw), cols)
        return y.reshape(o, x.shape[0], oh, ow).transpose(1, 0, 2, 3)

    def adjoint(x, w, out, dout, *, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        o, cg, kh, kw = w.shape
        reach = (dilation[0] * (kh - 1), dilation[1] * (kw - 1))
        pads = (reach[0] - padding[0], reach[0] - padding[1], reach[1] - padding[2], reach[1] - padding[3])
        if None in x.shape[2:] and tuple(stride) == (1, 1) and min(pads) >= 0:
            # a height or width known only when the kernel runs, which col2im cannot read off the columns: the
            # transposed convolution as a convolution of dout, padded to the input's size, with the filter
            # flipped and its channels swapped within each group
            swapped = w.reshape(groups, o // groups, cg, kh, kw).transpose(0, 2, 1, 3, 4)
            flipped = swapped.reshape(groups * cg, o // groups, kh, kw)[:, :, ::-1, ::-1]
            dx = call("conv2d", dout, flipped, padding=pads, dilation=dilation, groups=groups)
        else:
            dx = call("conv2d_input_grad", dout, w, input_shape=x.shape, stride=stride, padding=padding,
                      dilation=dilation, groups=groups)
        return dx, call("conv2d_filter_grad", x, dout, filter_shape=w.shape, stride=stride, padding=padding,
                        dilation=dilation, groups=groups)


@op(infer=conv2d_input_grad_rule)
class conv2d_input_grad:
    """The gradient of ``conv2d`` with respect to its input, of shape ``input_shape``; the transposed
    convolution of ``dy (N, O, OH, OW)`` by ``w (O, C/groups, KH, KW)``."""

    def forward(dy, w, *, input_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        n, o, oh, ow = dy.shape
        cg, kh, kw = w.shape[1:]
        rows = dy.transpose(1, 0, 2, 3).reshape(groups, o // groups, n * oh * ow)
        cols = np.matmul(w.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1), rows)
        return call("conv2d_columns_grad", cols, input_shape=input_shape, filter_shape=w.shape, stride=stride,
                    padding=padding, dilation=dilation, groups=groups)

    def adjoint(dy, w, out, dout, *, input_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return (call("conv2d", dout, w, stride=stride, padding=padding, dilation=dilation, groups=groups),
                call("conv2d_filter_grad", dout, dy, filter_shape=w.shape, stride=stride, padding=padding,
                     dilation=dilation, groups=groups))


@op(infer=conv2d_filter_grad_rule)
class conv2d_filter_grad:
    """The gradient of ``conv2d`` with respect to its filter (of shape ``filter_shape``), given the
    input ``x`` and the output cotangent ``dy``."""

    def forward(x, dy, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        n, o, oh, ow = dy.shape
        cols = call("conv2d_columns", x, filter_shape=filter_shape, stride=stride, padding=padding,
                    dilation=dilation, groups=groups)
        rows = dy.transpose(1, 0, 2, 3).reshape(groups, o // groups, n * oh * ow)
        return np.matmul(rows, cols.transpose(0, 2, 1)).reshape(filter_shape)

    def adjoint(x, dy, out, dout, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return (call("conv2d_input_grad", dy, dout, input_shape=x.shape, stride=stride, padding=padding,
                     dilation=dilation, groups=groups),
                call("conv2d", x, dout, stride=stride, padding=padding, dilation=dilation, groups=groups))


@op(infer=conv2d_columns_rule)
class conv2d_columns:
    """The im2col columns of ``x`` for a filter of ``filter_shape``: ``(groups, C/groups * KH * KW, N * OH * OW)``,
    the strided view of the (padded) input copied once. ``conv2d`` is one GEMM of the filter with them, and
    ``nn.Conv2d`` stages them as a value of their own, so the filter's gradient reuses them."""

    def forward(x, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return rt.im2col(x, filter_shape=filter_shape, stride=stride, padding=padding, dilation=dilation, groups=groups)

    def adjoint(x, out, dout, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
        return call("conv2d_columns_grad", dout, input_shape=x.shape, filter_shape=filter_shape, stride=stride,
                    padding=padding, dilation=dilation, groups=groups)


@op(infer=conv2d_columns_grad_rule)
class conv2d_columns_grad:
    """col2im, the transpose of ``conv2d_columns``: each column entry added back at its input pixel, in an
    array of ``input_shape`` (batch dim from the column count; see ``core/kernels_np.col2im``). ``batch_last``
    (set by optimize, ``compiler/batchlastcolumns.py``): the columns' pixels in ``(OH, OW, N)`` order."""

    def forward(cols, *, input_shape, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1,
                batch_last=False):
        return rt.col2im(cols, input_shape=input_shape, filter_shape=filter_shape, stride=stride, padding=padding,
                         dilation=dilation, groups=groups, batch_last=batch_last)

    def adjoint(cols, out, dout, *, input_shape, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1),
                groups=1, batch_last=False):   # batch_last: only in optimized kernels, never differentiated
        return call("conv2d_columns", dout, filter_shape=filter_shape, stride=stride, padding=padding,
                    dilation=dilation, groups=groups)
