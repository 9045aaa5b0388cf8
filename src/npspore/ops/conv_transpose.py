"""Transposed 3-D convolution (``nn.Conv3dTranspose``), composed of the 2-D one.

Each depth tap of the kernel is a 2-D transposed convolution of every input depth plane (folded into the
batch); the tap's planes land in the output depth at ``tap * dilation + plane * stride`` (the adjoint of a
strided slice), and the taps are summed: its gradients are those of ``conv_transpose2d`` and the slicing,
and it compiles as they do. In the compilable subset, as :mod:`npspore.ops.nn_functional`.
"""
from __future__ import annotations

from .eager import run
from .nn_functional import _conv_arguments, _padding, _same_padding, conv_transpose2d

__all__ = ["conv_transpose3d", "transposed_output_size"]


def transposed_output_size(size: int, kernel: int, stride: int, dilation: int, pad_mode: str, pads: int,
                           output_padding: int) -> int:
    """The output length of one dim of a transposed convolution, as MindSpore sizes it: ``size * stride`` for
    ``'same'``, ``size * stride + max(span - stride, 0)`` for ``'valid'`` and ``(size - 1) * stride + span -
    pads + output_padding`` for ``'pad'`` (``span = dilation * (kernel - 1) + 1``)."""
    span = dilation * (kernel - 1) + 1
    if pad_mode == "same":
        return size * stride
    if pad_mode == "valid":
        return size * stride + (span - stride if span > stride else 0)
    return (size - 1) * stride + span - pads + output_padding


def conv_transpose3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1,
                     output_padding=0):
    """Transposed 3-D convolution, the gradient of ``conv3d`` with respect to its input: ``input (N, C_in, D, H,
    W)`` and ``weight (C_in, C_out / groups, KD, KH, KW)`` give ``(N, C_out, OD, OH, OW)``, sized by
    :func:`transposed_output_size` per dim, plus ``bias (C_out,)``.

    Args:
        stride, dilation (Union[int, tuple[int]]): per dim (depth, height, width).
        pad_mode (str): ``'same'``, ``'valid'`` or ``'pad'``.
        padding (Union[int, tuple[int]]): with ``'pad'``: all sides, or ``(head, tail, top, bottom, left,
            right)``, removed from the output.
        output_padding (Union[int, tuple[int]]): with ``'pad'``: added to the output's tail/bottom/right.
    """
    stride, dilation = _conv_arguments(input, weight, stride, dilation, 3, "conv_transpose3d")
    extra = (output_padding,) * 3 if isinstance(output_padding, int) else tuple(output_padding)
    _, c_out, kd, kh, kw = weight.shape
    n, c_in, depth, height, width = input.shape
    if pad_mode == "pad":
        pads = (padding,) * 6 if isinstance(padding, int) else tuple(padding)
    else:
        pads = (0,) * 6
    sizes = [transposed_output_size(size, k, s, d, pad_mode, pads[2 * i] + pads[2 * i + 1], extra[i])
             for i, (size, k, s, d) in enumerate(zip((depth, height, width), (kd, kh, kw), stride, dilation))]
    if pad_mode == "same":
        depth_pads = _same_padding(sizes[0], kd, stride[0], dilation[0])
        plane_pads = _padding("same", 0, sizes[1:], (kh, kw), stride[1:], dilation[1:], "conv_transpose3d")
    else:
        depth_pads = pads[:2]
        plane_pads = pads[2:]
    natural = (depth - 1) * stride[0] + dilation[0] * (kd - 1) + 1
    full = max(natural, depth_pads[0] + sizes[0])
    planes = run("reshape", run("transpose", input, axes=(0, 2, 1, 3, 4)), shape=(n * depth, c_in, height, width))
    out = None
    for tap in tuple(range(kd)):  # unrolled (a tuple, not a range): each tap indexes the weight statically
        term = conv_transpose2d(planes, run("getitem", weight, index=(slice(None), slice(None), tap)), None,
                                stride[1:], plane_pads, tuple(sizes[1:]), dilation[1:], groups)
        term = run("transpose", run("reshape", term, shape=(n, depth, c_out * groups) + tuple(sizes[1:])),
                   axes=(0, 2, 1, 3, 4))
        start = tap * dilation[0]
        term = run("getitem_grad", term, shape=(n, c_out * groups, full) + tuple(sizes[1:]),
                   index=(slice(None), slice(None), slice(start, start + stride[0] * (depth - 1) + 1, stride[0])))
        out = term if out is None else out + term
    if depth_pads[0] or full != sizes[0]:
        out = run("getitem", out, index=(slice(None), slice(None), slice(depth_pads[0], depth_pads[0] + sizes[0])))
    if bias is not None:
        out = out + run("reshape", bias, shape=(1, -1, 1, 1, 1))
    return out
