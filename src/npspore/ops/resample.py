"""More resizing primitives' functions: ``UpsampleNearest3D``, ``UpsampleTrilinear3D``, ``ResizeLinear1D`` and
``ResizeNearestNeighborV2`` (their classes come from :mod:`primitive_table`).

As :mod:`resize`, each resized dim is a ``gather`` with static indices (nearest) or a blend of two (linear), so
they run eagerly and compiled and are differentiable. Source coordinate of output index ``i`` (input size ``n``,
output size ``m``, ratio ``r = n / m``, or ``1 / scale`` where a scale is given): corners ``i (n - 1) / (m - 1)``;
pixel centres ``(i + 0.5) r - 0.5`` (at least 0); else ``i r``.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from .eager import run
from .numeric import _check_tensor
from .resize import _blend_at, _linear_axis

__all__ = ["upsample_nearest3d", "upsample_trilinear3d", "resize_linear1d", "resize_nearest_neighbor_v2"]


def _float_input(name: str, x: Tensor, rank: int) -> None:
    _check_tensor(name, "x", x)
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{name}', the dtype of 'x' must be float16, float32 or float64, but got {x.dtype}.")
    if len(x.shape) != rank:
        raise ValueError(f"For '{name}', the 'x' must be {rank}-D, but got shape {x.shape}.")


def _volume_sizes(name: str, x: Tensor, output_size: Any, scales: Any) -> list:
    """Each of the 3 resized dims as ``(new size, ratio)``."""
    if (output_size is None) == (scales is None):
        raise ValueError(f"For '{name}', exactly one of 'output_size' and 'scales' must be given.")
    if output_size is not None:
        check_value_type("output_size", output_size, [tuple, list], name)
        if len(output_size) != 3 or any(not isinstance(v, int) or v < 1 for v in output_size):
            raise ValueError(f"For '{name}', the 'output_size' must be 3 positive ints, but got {output_size}.")
        return [(new, old / new) for new, old in zip(output_size, x.shape[2:])]
    check_value_type("scales", scales, [tuple, list], name)
    if len(scales) != 3 or any(not isinstance(v, float) or v <= 0 for v in scales):
        raise ValueError(f"For '{name}', the 'scales' must be 3 positive floats, but got {scales}.")
    return [(int(math.floor(old * scale)), 1.0 / scale) for scale, old in zip(scales, x.shape[2:])]


def upsample_nearest3d(x: Tensor, output_size: Any = None, scales: Any = None) -> Tensor:
    """The (N, C, D, H, W) ``x`` resized to ``output_size`` (or by ``scales``), each output voxel the input one at
    ``floor(i r)``.

    Raises:
        TypeError: if ``x`` is not float or the size/scales have the wrong types.
        ValueError: if ``x`` is not 5-D or not exactly one of ``output_size`` and ``scales`` is given.
    """
    _float_input("UpsampleNearest3D", x, 5)
    for axis, (new, ratio) in enumerate(_volume_sizes("UpsampleNearest3D", x, output_size, scales), 2):
        index = [min(int(math.floor(i * ratio)), x.shape[axis] - 1) for i in range(new)]
        x = run("gather", x, Tensor(index), axis=axis)
    return x


def upsample_trilinear3d(x: Tensor, output_size: Any = None, scales: Any = None, align_corners: bool = False) -> Tensor:
    """The (N, C, D, H, W) ``x`` resized to ``output_size`` (or by ``scales``) trilinearly, corners on corners
    with ``align_corners``, pixel centres on pixel centres otherwise.

    Raises:
        TypeError: as :func:`upsample_nearest3d`, or if ``align_corners`` is not a bool.
        ValueError: as :func:`upsample_nearest3d`.
    """
    check_value_type("align_corners", align_corners, [bool], "UpsampleTrilinear3D")
    _float_input("UpsampleTrilinear3D", x, 5)
    for axis, (new, ratio) in enumerate(_volume_sizes("UpsampleTrilinear3D", x, output_size, scales), 2):
        old = x.shape[axis]
        if align_corners:
            coordinates = [i * (old - 1) / (new - 1) if new > 1 else 0.0 for i in range(new)]
        else:
            coordinates = [max((i + 0.5) * ratio - 0.5, 0.0) for i in range(new)]
        x = _blend_at(x, axis, coordinates)
    return x


def _new_sizes(name: str, size: Any, count: int) -> tuple:
    if isinstance(size, Tensor):
        if size.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{name}', the 'size' must be a Tensor of int32 or int64, but got {size.dtype}.")
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    check_value_type("size", size, [tuple, list], name)
    sizes = tuple(int(v) for v in size if isinstance(v, (int, np.integer)) and v >= 1)
    if len(size) != count or len(sizes) != count:
        raise ValueError(f"For '{name}', the 'size' must hold {count} positive int(s), but got {size}.")
    return sizes


_LINEAR_1D = {"align_corners": "align", "half_pixel": "half_pixel"}   # MindSpore 2.10 refuses 'asymmetric' ...


def resize_linear1d(x: Tensor, size: Any, coordinate_transformation_mode: str = "align_corners") -> Tensor:
    """The (N, C, W) ``x`` resized to the width ``size`` (one int, or a 1-element int Tensor) linearly.

    Raises:
        TypeError: if ``x`` is not float. ValueError: if the mode is unknown, ``x`` not 3-D or ``size`` wrong.
    """
    name = "ResizeLinear1D"
    if coordinate_transformation_mode not in _LINEAR_1D:
        raise ValueError(f"For '{name}', the 'coordinate_transformation_mode' must be in {list(_LINEAR_1D)}, but "
                         f"got {coordinate_transformation_mode!r}.")
    _float_input(name, x, 3)
    (new,) = _new_sizes(name, size, 1)
    return _linear_axis(x, 2, new, _LINEAR_1D[coordinate_transformation_mode])


def resize_nearest_neighbor_v2(image: Tensor, size: Any, align_corners: bool = False,
                               half_pixel_centers: bool = False) -> Tensor:
    """The (N, C, H, W) ``image`` resized to ``size`` (two ints or a 2-element int Tensor), each output pixel the
    input one at ``round(i (n - 1) / (m - 1))`` (``align_corners``), ``floor((i + 0.5) n / m)``
    (``half_pixel_centers``) or ``floor(i n / m)``.

    Raises:
        ValueError: if both flags are set, ``image`` is not 4-D or ``size`` wrong.
    """
    name = "ResizeNearestNeighborV2"
    check_value_type("align_corners", align_corners, [bool], name)
    check_value_type("half_pixel_centers", half_pixel_centers, [bool], name)
    if align_corners and half_pixel_centers:
        raise ValueError(f"For '{name}', the 'half_pixel_centers' must be False when 'align_corners' is True.")
    _check_tensor(name, "image", image)
    if len(image.shape) != 4:
        raise ValueError(f"For '{name}', the 'image' must be 4-D, but got shape {image.shape}.")
    for axis, new in zip((2, 3), _new_sizes(name, size, 2)):
        old = image.shape[axis]
        if align_corners:
            scale = (old - 1) / (new - 1) if new > 1 else 0.0
            index = [int(math.floor(i * scale + 0.5)) for i in range(new)]
        elif half_pixel_centers:
            index = [int(math.floor((i + 0.5) * old / new)) for i in range(new)]
        else:
            index = [int(math.floor(i * old / new)) for i in range(new)]
        image = run("gather", image, Tensor([min(i, old - 1) for i in index]), axis=axis)
    return image
