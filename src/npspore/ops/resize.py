"""Resizing images, as ``mindspore.ops``: ``interpolate`` (``'nearest'``, ``'linear'``, ``'bilinear'``),
the primitives ``ResizeNearestNeighbor`` and ``ResizeBilinearV2``, and MindSpore 1.x's ``ResizeBilinear``
(``ResizeBilinearV2`` with the size given to the constructor; ``nn.ResizeBilinear`` builds on it).

Each output position reads one source position (nearest) or blends two along each resized dim
(linear), so a resize is ``gather`` along each dim with static indices, blended by static weights:
eager and compiled, differentiable through ``gather``'s adjoint. Where the source coordinate of output
index ``i`` (input size ``n``, output size ``m``) comes from:

- ``'align'``: ``i * (n - 1) / (m - 1)`` (corners on corners);
- ``'half_pixel'``: ``(i + 0.5) * n / m - 0.5``, at least 0 (pixel centres on pixel centres);
- ``'asymmetric'``: ``i * n / m``.
"""
from __future__ import annotations

import math
from typing import Any

from ..common.tensor import Tensor
from .eager import run
from .primitives import Primitive

__all__ = ["interpolate", "resize_nearest_neighbor", "resize_bilinear", "ResizeNearestNeighbor", "ResizeBilinearV2",
           "ResizeBilinear"]

_MODES = ("nearest", "linear", "bilinear")


def _source(i: int, old: int, new: int, rule: str) -> float:
    if rule == "align":
        return i * (old - 1) / (new - 1) if new > 1 else 0.0
    if rule == "half_pixel":
        return max((i + 0.5) * old / new - 0.5, 0.0)
    return i * old / new


def _nearest_axis(x: Tensor, axis: int, new: int, align_corners: bool) -> Tensor:
    old = x.shape[axis]
    if align_corners:
        index = [min(int(_source(i, old, new, "align") + 0.5), old - 1) for i in range(new)]
    else:
        index = [min(int(_source(i, old, new, "asymmetric")), old - 1) for i in range(new)]
    return run("gather", x, Tensor(index), axis=axis)


def _linear_axis(x: Tensor, axis: int, new: int, rule: str) -> Tensor:
    return _blend_at(x, axis, [_source(i, x.shape[axis], new, rule) for i in range(new)])


def _blend_at(x: Tensor, axis: int, coordinates: list) -> Tensor:
    """``x`` read along ``axis`` at the (static, non-negative) fractional ``coordinates``, blending the two
    neighbours linearly."""
    old, new = x.shape[axis], len(coordinates)
    low = [min(int(math.floor(c)), old - 1) for c in coordinates]
    high = [min(i + 1, old - 1) for i in low]
    along = (new,) + (1,) * (len(x.shape) - axis - 1)
    weight = run("reshape", Tensor([c - i for c, i in zip(coordinates, low)], dtype=x.dtype), shape=along)
    below = run("gather", x, Tensor(low), axis=axis)
    above = run("gather", x, Tensor(high), axis=axis)
    return run("add", below, run("mul", run("sub", above, below), weight))


def _check_image(name: str, x: Tensor, size: Any, rank: int) -> tuple[int, ...]:
    if len(x.shape) != rank:
        raise ValueError(f"For '{name}', the input must be {rank}-D, but got shape {x.shape}.")
    size = (size,) if isinstance(size, int) else size
    if not isinstance(size, (tuple, list)) or len(size) != rank - 2 or not all(
            isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size):
        raise ValueError(f"For '{name}', the 'size' must be {rank - 2} positive int(s), but got {size!r}.")
    return tuple(size)


def _scaled_size(input: Tensor, size: Any, scale_factor: Any, mode: str, recompute: Any) -> tuple[int, ...]:
    """The size ``interpolate`` resizes to for ``scale_factor``: ``floor(dim * factor)`` of each resized dim."""
    if size is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    rank = len(input.shape)
    factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * (rank - 2)
    if len(factors) != rank - 2 or not all(
            isinstance(f, (int, float)) and not isinstance(f, bool) and f > 0 for f in factors):
        raise ValueError(f"For 'interpolate', the 'scale_factor' must be {rank - 2} positive float(s), but got "
                         f"{scale_factor!r}.")
    if not recompute:   # MindSpore 2.10 scales by the factor itself only for 5-D inputs
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set with the mode = {mode} "
                         f"and dim = {rank}D.")
    return tuple(math.floor(dim * f) for dim, f in zip(input.shape[2:], factors))


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """``input`` resized to ``size`` over its trailing dims: ``'nearest'`` (3-D or 4-D input), ``'linear'``
    (3-D) or ``'bilinear'`` (4-D); the linear modes place pixel centres on pixel centres, or corners
    on corners with ``align_corners=True``. ``scale_factor`` (a float, or one per resized dim) with
    ``recompute_scale_factor=True`` gives the size ``floor(dim * scale_factor)`` (``nn.Upsample(scale_factor=2.0,
    recompute_scale_factor=True)``, as in MindSpore's DCGAN examples).

    Raises:
        ValueError: if ``mode`` is another of MindSpore's (``'bicubic'``, ``'area'`` ... not implemented in
            npspore), both or neither of ``size`` and ``scale_factor`` are given, ``scale_factor`` is given
            without ``recompute_scale_factor=True`` or is not positive, ``recompute_scale_factor=True``
            comes with ``size``, ``size`` does not match the input's rank, or ``align_corners`` is set for
            ``'nearest'`` (MindSpore 2.10 CPU refuses each of these as well).
    """
    if mode not in _MODES:
        raise ValueError(f"For 'interpolate', the mode {mode!r} is not implemented in npspore (only {_MODES}).")
    if scale_factor is not None:
        size = _scaled_size(input, size, scale_factor, mode, recompute_scale_factor)
    elif size is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    elif recompute_scale_factor:
        raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' to True after "
                         "specifying an explicit 'size'.")
    if mode == "nearest" and align_corners:
        raise ValueError("For 'interpolate', 'align_corners' can only be set with the mode 'linear' or 'bilinear'.")
    rank = {"linear": 3, "bilinear": 4}.get(mode, len(input.shape))
    if mode == "nearest" and rank not in (3, 4):
        raise ValueError(f"For 'interpolate', the 'nearest' input must be 3-D or 4-D, but got shape {input.shape}.")
    size = _check_image("interpolate", input, size, rank)
    out = input
    for axis, new in enumerate(size, start=2):
        if mode == "nearest":
            out = _nearest_axis(out, axis, new, False)
        else:
            out = _linear_axis(out, axis, new, "align" if align_corners else "half_pixel")
    return out


def resize_nearest_neighbor(input_x: Tensor, size: tuple[int, int], align_corners: bool = False) -> Tensor:
    """``input_x`` (N, C, H, W) resized to ``size`` (new H, new W) by nearest neighbour, as MindSpore 2.10's
    CPU kernel picks: source row ``floor(i * H / new_H)``, or with ``align_corners``
    ``round(i * (H - 1) / (new_H - 1))`` (halves up); columns alike.

    Raises:
        TypeError: if ``size`` is not a tuple or list, or ``align_corners`` is not a bool.
        ValueError: if ``size`` does not have two positive ints or ``input_x`` is not 4-D.
    """
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"For 'ResizeNearestNeighbor', the 'size' must be a tuple or list, but got "
                        f"{type(size).__name__}.")
    if not isinstance(align_corners, bool):
        raise TypeError(f"For 'ResizeNearestNeighbor', the 'align_corners' must be a bool, but got "
                        f"{type(align_corners).__name__}.")
    size = _check_image("ResizeNearestNeighbor", input_x, size, 4)
    return _nearest_axis(_nearest_axis(input_x, 2, size[0], align_corners), 3, size[1], align_corners)


class ResizeNearestNeighbor(Primitive):
    """``ResizeNearestNeighbor(size, align_corners=False, half_pixel_centers=False)(x)``: ``x`` (N, C, H, W)
    resized to ``size`` by nearest neighbour. ``half_pixel_centers`` changes nothing, as on MindSpore 2.10's
    CPU kernel (measured)."""

    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        super().__init__("ResizeNearestNeighbor")
        self.size, self.align_corners = size, align_corners
        self.add_prim_attr("size", size)
        self.add_prim_attr("align_corners", align_corners)
        self.add_prim_attr("half_pixel_centers", half_pixel_centers)

    def __call__(self, input_x):
        return resize_nearest_neighbor(input_x, self.size, self.align_corners)


def _bilinear_rule(name: str, align_corners: bool, half_pixel_centers: bool) -> str:
    if align_corners and half_pixel_centers:
        raise ValueError(f"For '{name}', the 'half_pixel_centers' must be False when 'align_corners' is True, "
                         "but got True.")
    return "align" if align_corners else "half_pixel" if half_pixel_centers else "asymmetric"


def resize_bilinear(image: Tensor, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> Tensor:
    """``image`` (N, C, H, W) resized to ``size`` bilinearly; source coordinates ``i * H / new_H`` by
    default, pixel centres with ``half_pixel_centers``, corners with ``align_corners``.

    Raises:
        ValueError: if both ``align_corners`` and ``half_pixel_centers`` are True, ``image`` is not 4-D or
            ``size`` is not two positive ints.
    """
    rule = _bilinear_rule("ResizeBilinear", align_corners, half_pixel_centers)
    size = _check_image("ResizeBilinear", image, size, 4)
    return _linear_axis(_linear_axis(image, 2, size[0], rule), 3, size[1], rule)


class ResizeBilinearV2(Primitive):
    """``ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(image, size)``: ``image``
    (N, C, H, W) resized to ``size`` bilinearly; source coordinates ``i * H / new_H`` by default, pixel
    centres with ``half_pixel_centers``, corners with ``align_corners``.

    Raises:
        ValueError: if both ``align_corners`` and ``half_pixel_centers`` are True.
    """

    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__("ResizeBilinearV2")
        _bilinear_rule("ResizeBilinearV2", align_corners, half_pixel_centers)
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers
        self.add_prim_attr("align_corners", align_corners)
        self.add_prim_attr("half_pixel_centers", half_pixel_centers)

    def __call__(self, image, size):
        return resize_bilinear(image, size, self.align_corners, self.half_pixel_centers)


class ResizeBilinear(Primitive):
    """MindSpore 1.x's ``ResizeBilinear(size, align_corners=False, half_pixel_centers=False)(x)``: as
    ``ResizeBilinearV2`` with ``size`` given here."""

    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        super().__init__("ResizeBilinear")
        _bilinear_rule("ResizeBilinear", align_corners, half_pixel_centers)
        self.size, self.align_corners, self.half_pixel_centers = size, align_corners, half_pixel_centers
        self.add_prim_attr("size", size)
        self.add_prim_attr("align_corners", align_corners)
        self.add_prim_attr("half_pixel_centers", half_pixel_centers)

    def __call__(self, x):
        return resize_bilinear(x, self.size, self.align_corners, self.half_pixel_centers)
