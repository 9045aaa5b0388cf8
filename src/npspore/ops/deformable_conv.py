"""``ops.deformable_conv2d``: deformable convolution v2 (Dai et al., Zhu et al.), as MindSpore 2.10 computes it.

MindSpore builds it from two primitives: ``DeformableOffsets`` samples, for every output position and kernel tap,
the input at the tap's place moved by its learned offset (bilinearly, 0 outside the image) and scales the sample by
the tap's mask, laying the samples out as ``(N, C, H_out * KH, W_out * KW)``; a ``Conv2D`` with stride ``(KH, KW)``
then applies the weights. Here the sampling is a composition over ops of the table (``_corner`` of
:mod:`.grid_sample` gathers each corner from the flattened planes), so the result is differentiable in ``x``,
``weight``, ``offsets`` and ``bias``, and compiles.

``offsets`` holds ``3 * deformable_groups * KH * KW`` channels: the x offsets, then the y offsets, then the masks,
each ordered by deformable group, kernel row and kernel column.
"""
from __future__ import annotations

import numpy as np

from .._checkparam import check_bool, check_positive_int, check_size_and_element_type_of_tuple
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from .array_functional import floor
from .grid_sample import _corner
from .nn_functional import conv2d

__all__ = ["deformable_conv2d"]

_NAME = "DeformableOffsets"


def _checked(strides, padding, kernel_size, dilations, deformable_groups, modulated) -> None:
    """MindSpore's checks of ``DeformableOffsets``' attributes, in its order and with its messages."""
    check_size_and_element_type_of_tuple("strides", strides, 4, int, _NAME)
    if strides[0] != 1 or strides[1] != 1:
        raise ValueError(f"For '{_NAME}', The N and C dimensions of 'strides' must be set to 1.")
    check_size_and_element_type_of_tuple("pads", padding, 4, int, _NAME)
    check_size_and_element_type_of_tuple("kernel_size", kernel_size, 2, int, _NAME)
    check_size_and_element_type_of_tuple("dilations", dilations, 4, int, _NAME)
    if dilations[0] != 1 or dilations[1] != 1:
        raise ValueError(f"For '{_NAME}', The N and C dimensions of 'dilations' must be set to 1.")
    check_positive_int(deformable_groups, "deformable_groups", _NAME)
    check_bool(modulated, "modulated", _NAME)
    if modulated is not True:
        raise ValueError(f"For '{_NAME}', The modulated must be set to True.")


def _tap_positions(out_size: int, kernel: int, stride: int, pad: int, dilation: int) -> np.ndarray:
    """``(out_size, kernel)``: where each tap of each output position reads along one axis, before its offset."""
    return (np.arange(out_size) * stride - pad)[:, None] + np.arange(kernel) * dilation


def _deformable_offsets(x: Tensor, offsets: Tensor, strides, padding, kernel_size, dilations,
                        deformable_groups: int) -> Tensor:
    """``DeformableOffsets``: the modulated samples of ``x`` laid out ``(N, C, H_out * KH, W_out * KW)``."""
    batch, channels, height, width = x.shape
    kh, kw = kernel_size
    h_out, w_out = offsets.shape[2], offsets.shape[3]
    rows = batch * deformable_groups
    points = h_out * kh * w_out * kw
    # (3, N, groups, KH, KW, H_out, W_out) -> (3, N * groups, H_out * KH * W_out * KW), in the output's order
    parts = F.transpose(F.reshape(offsets, (batch, 3, deformable_groups, kh, kw, h_out, w_out)),
                        (1, 0, 2, 5, 3, 6, 4))
    parts = F.reshape(parts, (3, rows, points))
    shape = (h_out, kh, w_out, kw)
    tap_y = _tap_positions(h_out, kh, strides[2], padding[0], dilations[2])[:, :, None, None]
    tap_x = _tap_positions(w_out, kw, strides[3], padding[2], dilations[3])[None, None]
    dtype = _np_dtype(x.dtype)
    xs = parts[0] + Tensor(np.broadcast_to(tap_x, shape).reshape(-1).astype(dtype))
    ys = parts[1] + Tensor(np.broadcast_to(tap_y, shape).reshape(-1).astype(dtype))
    # a corner outside the image reads 0, so a place one pixel or more outside it reads 0 (MindSpore's kernel)
    y0, x0 = floor(ys), floor(xs)
    low_y, low_x = ys - y0, xs - x0
    high_y, high_x = 1.0 - low_y, 1.0 - low_x
    planes = F.reshape(x, (rows, channels // deformable_groups, height * width))
    sample = None
    for dy, dx, weight in ((0.0, 0.0, high_y * high_x), (0.0, 1.0, high_y * low_x), (1.0, 0.0, low_y * high_x),
                           (1.0, 1.0, low_y * low_x)):
        value, _ = _corner(planes, y0 + dy, x0 + dx, height, width)
        term = F.expand_dims(weight, 1) * value
        sample = term if sample is None else sample + term
    return F.reshape(sample * F.expand_dims(parts[2], 1), (batch, channels, h_out * kh, w_out * kw))


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1), groups=1,
                      deformable_groups=1, modulated=True):
    r"""2-D deformable convolution (v2): :math:`y(p) = \sum_k w_k \cdot x(p + p_k + \Delta p_k) \cdot \Delta m_k`.

    Args:
        x (Tensor): ``(N, C_in, H_in, W_in)``, float16 or float32.
        weight (Tensor): ``(C_out, C_in / groups, KH, KW)``, of ``x``'s dtype.
        offsets (Tensor): ``(N, 3 * deformable_groups * KH * KW, H_out, W_out)``: x offsets, y offsets, masks.
        kernel_size (tuple[int]): ``(KH, KW)``.
        strides (tuple[int]): 4 ints in NCHW order, N and C 1.
        padding (tuple[int]): ``(top, bottom, left, right)``.
        bias (Tensor, optional): ``(C_out,)``. Default: ``None``.
        dilations (tuple[int], optional): 4 ints in NCHW order, N and C 1. Default: ``(1, 1, 1, 1)``.
        groups (int, optional): blocked connections of input to output channels. Default: ``1``.
        deformable_groups (int, optional): channel groups with their own offsets. Default: ``1``.
        modulated (bool, optional): ``True`` (v2), the only version MindSpore supports. Default: ``True``.

    Returns:
        Tensor ``(N, C_out, H_out, W_out)``, where ``H_out = (H_in + top + bottom - (KH - 1) * dilations[2] - 1)
        // strides[2] + 1`` and likewise ``W_out``.

    Raises:
        TypeError: if ``strides``, ``padding``, ``kernel_size`` or ``dilations`` is not a tuple of ints, or
            ``modulated`` is not a bool.
        ValueError: for a tuple of the wrong size, N or C of ``strides``/``dilations`` not 1, or ``modulated`` False.
    """
    _checked(strides, padding, kernel_size, dilations, deformable_groups, modulated)
    samples = _deformable_offsets(x, offsets, strides, padding, kernel_size, dilations, deformable_groups)
    return conv2d(samples, weight, bias, stride=tuple(kernel_size), groups=groups)
