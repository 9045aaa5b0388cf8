"""``ops.grid_sample``: ``input (N, C, H, W)`` sampled at the normalized ``(x, y)`` points of ``grid (N, H_out,
W_out, 2)`` (``-1`` the first pixel, ``1`` the last), bilinearly or at the nearest pixel, with ``'zeros'``,
``'border'`` or ``'reflection'`` padding, as MindSpore 2.10 computes it (PyTorch's definition).

A composition over ops of the table: each corner's pixel is gathered from the flattened planes
(``gather_elements``) and weighted by its bilinear weight, so the result is differentiable in ``input`` and in
``grid``. The 5-D form and ``'bicubic'`` are not implemented in npspore.
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .array_functional import floor, gather_elements

__all__ = ["grid_sample"]

_MODES, _PADDINGS = ("bilinear", "nearest"), ("zeros", "border", "reflection")


def _pixel(coordinate: Tensor, size: int, align_corners: bool) -> Tensor:
    """Normalized coordinates as pixel positions."""
    if align_corners:
        return (coordinate + 1.0) * (0.5 * (size - 1))
    return ((coordinate + 1.0) * size - 1.0) * 0.5


def _reflected(position: Tensor, low: float, high: float) -> Tensor:
    """``position`` reflected into ``[low, high]`` (PyTorch's ``reflect_coordinates`` with the bounds halved)."""
    span = high - low
    if span <= 0:
        return F.zeros_like(position)
    distance = F.abs(position - low)
    flips = floor(distance / span)
    extra = distance - flips * span
    even = F.equal(flips - floor(flips / 2.0) * 2.0, 0.0)
    return F.where(even, extra + low, span - extra + low)


def _padded(position: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    if padding_mode == "zeros":
        return position
    if padding_mode == "reflection":
        position = _reflected(position, 0.0, float(size - 1)) if align_corners else \
            _reflected(position, -0.5, size - 0.5)
    return F.clip_by_value(position, 0.0, float(size - 1))


def _rounded(position: Tensor) -> Tensor:
    """``position`` rounded half away from zero (MindSpore's kernel: ``-0.5`` is ``-1``, outside the image)."""
    return F.where(F.greater_equal(position, 0.0), floor(position + 0.5), -floor(0.5 - position))


def _corner(planes: Tensor, ys: Tensor, xs: Tensor, height: int, width: int) -> tuple[Tensor, Tensor]:
    """The values of ``planes (N, C, H * W)`` at the integer positions ``(ys, xs)`` (``(N, P)`` floats), 0
    outside, and the ``(N, 1, P)`` in-image mask."""
    inside = F.logical_and(F.logical_and(F.greater_equal(xs, 0.0), F.less_equal(xs, width - 1.0)),
                           F.logical_and(F.greater_equal(ys, 0.0), F.less_equal(ys, height - 1.0)))
    index = F.cast(F.clip_by_value(ys, 0.0, height - 1.0) * width + F.clip_by_value(xs, 0.0, width - 1.0),
                   mstype.int64)
    index = F.broadcast_to(F.expand_dims(index, 1), (planes.shape[0], planes.shape[1], index.shape[1]))
    mask = F.cast(F.expand_dims(inside, 1), planes.dtype)
    return gather_elements(planes, 2, index) * mask, mask


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool = False) -> Tensor:
    """``input`` sampled at the points of ``grid``: a ``(N, C, H_out, W_out)`` Tensor of ``input``'s dtype.

    Args:
        input (Tensor): ``(N, C, H, W)``, float16/float32/float64.
        grid (Tensor): ``(N, H_out, W_out, 2)`` normalized ``(x, y)`` points, of ``input``'s dtype.
        mode (str): ``'bilinear'`` or ``'nearest'``. Default: ``'bilinear'``.
        padding_mode (str): ``'zeros'``, ``'border'`` or ``'reflection'``: what a point outside reads.
        align_corners (bool): whether ``-1`` and ``1`` are the centers (True) or the outer edges (False) of the
            corner pixels. Default: ``False``.

    Raises:
        TypeError: if ``input`` or ``grid`` is not a Tensor, or ``align_corners`` not a bool.
        ValueError: for another mode or padding mode, or shapes that do not fit.
        NotImplementedError: for a 5-D ``input`` or ``mode='bicubic'``.
    """
    if not isinstance(input, Tensor) or not isinstance(grid, Tensor):
        raise TypeError(f"For 'grid_sample', 'input' and 'grid' must be Tensors, but got {type(input).__name__} "
                        f"and {type(grid).__name__}.")
    if len(input.shape) == 5 or mode == "bicubic":
        raise NotImplementedError("For 'grid_sample', 5-D inputs and mode 'bicubic' are not implemented in npspore.")
    if mode not in _MODES or padding_mode not in _PADDINGS:
        raise ValueError(f"For 'grid_sample', 'mode' must be in {list(_MODES)} and 'padding_mode' in "
                         f"{list(_PADDINGS)}, but got {mode!r} and {padding_mode!r}.")
    if not isinstance(align_corners, bool):
        raise TypeError(f"For 'grid_sample', 'align_corners' must be a bool, but got {type(align_corners).__name__}.")
    if len(input.shape) != 4 or len(grid.shape) != 4 or grid.shape[3] != 2 or grid.shape[0] != input.shape[0]:
        raise ValueError(f"For 'grid_sample', expected input (N, C, H, W) and grid (N, H_out, W_out, 2), but got "
                         f"{input.shape} and {grid.shape}.")
    batch, channels, height, width = input.shape
    out_height, out_width = grid.shape[1], grid.shape[2]
    points = F.reshape(F.cast(grid, input.dtype), (batch, out_height * out_width, 2))
    xs = _padded(_pixel(points[:, :, 0], width, align_corners), width, padding_mode, align_corners)
    ys = _padded(_pixel(points[:, :, 1], height, align_corners), height, padding_mode, align_corners)
    planes = F.reshape(input, (batch, channels, height * width))
    if mode == "nearest":
        sampled, _ = _corner(planes, _rounded(ys), _rounded(xs), height, width)
    else:
        left, top = floor(xs), floor(ys)
        right_weight, bottom_weight = F.expand_dims(xs - left, 1), F.expand_dims(ys - top, 1)
        sampled = None
        for dy, wy in ((0.0, 1.0 - bottom_weight), (1.0, bottom_weight)):
            for dx, wx in ((0.0, 1.0 - right_weight), (1.0, right_weight)):
                value, _ = _corner(planes, top + dy, left + dx, height, width)
                term = value * wy * wx
                sampled = term if sampled is None else sampled + term
    return F.reshape(sampled, (batch, channels, out_height, out_width))
