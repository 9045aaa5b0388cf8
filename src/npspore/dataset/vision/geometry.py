"""Rotations and affine maps of uint8 images, as MindSpore 2.10 computes them (checked pixel for pixel):
``RandomRotation`` and ``RandomAffine``.

Both map the output through the inverse of a forward 2x3 matrix as OpenCV's ``warpAffine`` does, in fixed
point: source coordinates in 1/1024 steps (rounded half to even), nearest neighbour rounding them, bilinear
taking 1/32 steps and weights in 1/32768 (the sum rounded back); pixels mapped from outside the image take
``fill_value``; a rotation applies it as OpenCV's BGR scalar (its first value lands in the last channel), an
affine map in channel order, as MindSpore does.

- rotation by ``a`` degrees counter-clockwise about ``center`` (default the pixel centre ``((w-1)/2,
  (h-1)/2)``): OpenCV's ``getRotationMatrix2D``; with ``expand`` the output takes the rotated image's bounding
  box, rounded;
- affine: ``T * C * RSS * C^-1``, ``C`` the move to the pixel centre, ``T`` the translation (fractions of the
  width and height) and ``RSS`` rotation, scale and shear (MindSpore's ``AffineOp``).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from ..transforms.transforms import TensorOperation
from ..transform_draws import centred_uniform, draws_for
from .utils import Inter

__all__ = ["RandomRotation", "RandomAffine", "warp_affine"]

_AB_BITS = 10
_INTER_BITS = 5
_TAB = 1 << _INTER_BITS


def _inverse(matrix):
    """OpenCV's ``invertAffineTransform``."""
    det = matrix[0, 0] * matrix[1, 1] - matrix[0, 1] * matrix[1, 0]
    det = 1.0 / det if det != 0 else 0.0
    a11, a22, a12, a21 = matrix[1, 1] * det, matrix[0, 0] * det, -matrix[0, 1] * det, -matrix[1, 0] * det
    return np.array([[a11, a12, -a11 * matrix[0, 2] - a12 * matrix[1, 2]],
                     [a21, a22, -a21 * matrix[0, 2] - a22 * matrix[1, 2]]])


def _bilinear_weights():
    """The (32 * 32, 4) fixed-point weights of each 1/32 sub-pixel offset (they sum to 32768 exactly)."""
    frac = np.arange(_TAB) / _TAB
    fy, fx = np.meshgrid(frac, frac, indexing="ij")
    weights = np.stack([(1 - fy) * (1 - fx), (1 - fy) * fx, fy * (1 - fx), fy * fx], axis=-1)
    return np.rint(weights * 32768).astype(np.int64).reshape(-1, 4)


def warp_affine(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], bilinear: bool,
                fill: tuple[int, int, int]) -> np.ndarray:
    """``image`` (uint8, (H, W) or (H, W, C)) mapped by the forward 2x3 ``matrix`` into an output of ``size``
    (height, width), as OpenCV's ``warpAffine`` (see the module doc); ``fill`` holds the value of each channel
    for pixels from outside."""
    inverse = _inverse(np.asarray(matrix, np.float64))
    src = image if image.ndim == 3 else image[..., None]
    src_h, src_w, channels = src.shape
    fill_values = np.resize(np.asarray(fill, np.int64), channels)
    height, width = size
    scale = 1 << _AB_BITS
    xs = np.arange(width)
    x_steps = np.rint(inverse[0, 0] * xs * scale).astype(np.int64)
    y_steps = np.rint(inverse[1, 0] * xs * scale).astype(np.int64)
    rows = np.arange(height)
    x0 = np.rint((inverse[0, 1] * rows + inverse[0, 2]) * scale).astype(np.int64)[:, None]
    y0 = np.rint((inverse[1, 1] * rows + inverse[1, 2]) * scale).astype(np.int64)[:, None]

    def sample(y, x):
        inside = (x >= 0) & (x < src_w) & (y >= 0) & (y < src_h)
        return np.where(inside[..., None], src[np.clip(y, 0, src_h - 1), np.clip(x, 0, src_w - 1)], fill_values)

    if not bilinear:
        x = (x0 + x_steps + scale // 2) >> _AB_BITS
        y = (y0 + y_steps + scale // 2) >> _AB_BITS
        out = sample(y, x)
    else:
        x = (x0 + x_steps + scale // _TAB // 2) >> (_AB_BITS - _INTER_BITS)
        y = (y0 + y_steps + scale // _TAB // 2) >> (_AB_BITS - _INTER_BITS)
        weights = _bilinear_weights()[(y & (_TAB - 1)) * _TAB + (x & (_TAB - 1))]
        x, y = x >> _INTER_BITS, y >> _INTER_BITS
        total = sum(sample(y + dy, x + dx) * weights[..., k, None]
                    for k, (dy, dx) in enumerate(((0, 0), (0, 1), (1, 0), (1, 1))))
        outside = (x < -1) | (x >= src_w) | (y < -1) | (y >= src_h)
        out = np.where(outside[..., None], fill_values, (total + (1 << 14)) >> 15)
    out = np.clip(out, 0, 255).astype(np.uint8)
    return out if image.ndim == 3 else out[..., 0]


def _rotation_matrix(cx, cy, degrees):
    """OpenCV's ``getRotationMatrix2D`` at scale 1."""
    angle = math.radians(degrees)
    alpha, beta = math.cos(angle), math.sin(angle)
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def _bounding_size(width, height, degrees):
    """The float32 width and height of OpenCV's ``RotatedRect(0, (width, height), degrees).boundingRect2f()``."""
    angle = np.float32(math.radians(degrees))
    b, a = np.float32(math.cos(angle)) * np.float32(0.5), np.float32(math.sin(angle)) * np.float32(0.5)
    corner_x = (-a * height - b * width, a * height - b * width)
    corner_y = (b * height - a * width, -b * height - a * width)
    xs = corner_x + tuple(-x for x in corner_x)
    ys = corner_y + tuple(-y for y in corner_y)
    return np.float32(max(xs) - min(xs)), np.float32(max(ys) - min(ys))


def _check_resample(resample, who):
    if not isinstance(resample, Inter):
        raise TypeError(f"Argument resample with value {resample} is not of type [<enum 'Inter'>], but got "
                        f"{type(resample)}.")
    if resample not in (Inter.NEAREST, Inter.BILINEAR):
        raise ValueError(f"{who}: npspore rotates with Inter.NEAREST or Inter.BILINEAR, but got {resample}.")
    return resample == Inter.BILINEAR


def _fill(fill_value):
    if isinstance(fill_value, int) and not isinstance(fill_value, bool):
        fill_value = (fill_value,) * 3
    if (not isinstance(fill_value, tuple) or len(fill_value) != 3
            or not all(isinstance(v, int) and 0 <= v <= 255 for v in fill_value)):
        raise ValueError(f"fill_value should be an int or a tuple of three ints in [0, 255], but got {fill_value!r}.")
    return fill_value


def _range(value, name, symmetric_positive=True):
    """``value`` as a ``(min, max)`` range: a number ``d`` gives ``(-d, d)``."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if symmetric_positive and value < 0:
            raise ValueError(f"Input {name} is not within the required interval of [0, 16777216].")
        return (-float(value), float(value))
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{name} should be a number or a sequence of two numbers, but got {value!r}.")
    if value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return (float(value[0]), float(value[1]))


def _turn_range(given, degrees: tuple) -> tuple:
    """MindSpore's rotation range for ``degrees`` (``given`` as the user gave it): a number ``d`` is taken modulo
    360, a range wider than a turn is (-180, 180), another range's ends are taken modulo 360 (the end a turn
    further when it comes before the start)."""
    if isinstance(given, numbers.Real):
        return -(degrees[1] % 360), degrees[1] % 360
    if degrees[1] - degrees[0] >= 360:
        return -180.0, 180.0
    start, end = degrees[0] % 360, degrees[1] % 360
    return start, end + 360 if start > end else end


def _check_uint8(array, who):
    if array.ndim not in (2, 3):
        raise RuntimeError(f"{who}: input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {array.ndim}")
    if array.dtype != np.uint8:
        raise RuntimeError(f"{who}: npspore supports uint8 images only, but got {array.dtype}")


class RandomRotation(TensorOperation):
    """Rotate the image by an angle drawn from `degrees`, counter-clockwise (see the module doc).

    Args:
        degrees (Union[float, Sequence[float]]): ``(min, max)``, or ``d`` for ``(-d, d)``.
        resample (Inter): ``Inter.NEAREST`` or ``Inter.BILINEAR``. Default: ``Inter.NEAREST``.
        expand (bool): grow the output to hold the whole rotated image. Default: ``False``.
        center (tuple[float, float], optional): ``(x, y)`` to rotate about. Default: the image's centre.
        fill_value (Union[int, tuple[int, int, int]]): the value of pixels from outside. Default: ``0``.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = _range(degrees, "degrees")
        self.bilinear = _check_resample(resample, "RandomRotation")
        if not isinstance(expand, bool):
            raise TypeError(f"Argument expand with value {expand} is not of type [<class 'bool'>], but got "
                            f"{type(expand)}.")
        if center is not None and (not isinstance(center, (tuple, list)) or len(center) != 2):
            raise ValueError(f"Value center needs to be a 2-tuple, but got {center!r}.")
        self.resample, self.expand, self.center, self.fill_value = resample, expand, center, _fill(fill_value)
        self._turns = _turn_range(degrees, self.degrees)

    def _angle(self) -> float:
        """The angle of this rotation, drawn as MindSpore draws it (``transform_draws.centred_uniform``)."""
        return centred_uniform(draws_for(self), *self._turns)

    def _apply(self, array):
        _check_uint8(array, "RandomRotation")
        degrees = self._angle()
        height, width = array.shape[:2]
        cx, cy = ((width - 1) / 2.0, (height - 1) / 2.0) if self.center is None else self.center
        matrix = _rotation_matrix(cx, cy, degrees)
        size = (height, width)
        if self.expand:
            box_w, box_h = _bounding_size(width, height, degrees)
            matrix[0, 2] += box_w / 2.0 - width / 2.0
            matrix[1, 2] += box_h / 2.0 - height / 2.0
            size = (int(np.rint(box_h)), int(np.rint(box_w)))
        return warp_affine(array, matrix, size, self.bilinear, self.fill_value[::-1])


class RandomAffine(TensorOperation):
    """Map the image by a random affine transformation about its centre (see the module doc): an angle drawn from
    `degrees`, a shift from `translate` (fractions of the width, then the height), a scale from `scale` and
    shears (degrees, along x then y) from `shear`.

    Args:
        degrees (Union[float, Sequence[float]]): ``(min, max)``, or ``d`` for ``(-d, d)``.
        translate (Sequence[float], optional): ``(min_x, max_x)`` or ``(min_x, max_x, min_y, max_y)`` in [-1, 1].
        scale (Sequence[float], optional): ``(min, max)``, positive. Default: no scaling.
        shear (Union[float, Sequence[float]], optional): ``s`` for x in ``(-s, s)``, ``(min_x, max_x)``, or
            ``(min_x, max_x, min_y, max_y)``.
        resample (Inter): ``Inter.NEAREST`` or ``Inter.BILINEAR``. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple[int, int, int]]): the value of pixels from outside. Default: ``0``.
    """
    random = True          # draws through ``transform_draws``

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _range(degrees, "degrees")
        translate = (0.0, 0.0, 0.0, 0.0) if translate is None else tuple(translate)
        if len(translate) not in (2, 4) or not all(-1 <= t <= 1 for t in translate):
            raise ValueError(f"translate should be 2 or 4 fractions in [-1, 1], but got {translate!r}.")
        self.translate = translate + (0.0, 0.0) if len(translate) == 2 else translate
        self.scale = (1.0, 1.0) if scale is None else _range(scale, "scale", False)
        if self.scale[1] <= 0 or self.scale[0] < 0:
            raise ValueError(f"scale should be non-negative with a positive maximum, but got {scale!r}.")
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Real):
            shear = _range(shear, "shear") + (0.0, 0.0)
        else:
            shear = tuple(shear) + ((0.0, 0.0) if len(shear) == 2 else ())
        if len(shear) != 4 or shear[0] > shear[1] or shear[2] > shear[3]:
            raise ValueError(f"shear should be (min_x, max_x[, min_y, max_y]) ranges, but got {shear!r}.")
        self.shear = shear
        self.bilinear = _check_resample(resample, "RandomAffine")
        self.resample, self.fill_value = resample, _fill(fill_value)

    def _apply(self, array):
        _check_uint8(array, "RandomAffine")
        height, width = array.shape[:2]
        uniform = draws_for(self).uniform_float     # MindSpore's order: angle, shift x, shift y, scale, shears
        angle = math.radians(math.fmod(uniform(*self.degrees), 360.0))
        tx = uniform(*(float(np.float32(t) * np.float32(width)) for t in self.translate[:2]))
        ty = uniform(*(float(np.float32(t) * np.float32(height)) for t in self.translate[2:]))
        s = uniform(*self.scale)
        shear_x, shear_y = math.radians(uniform(*self.shear[:2])), math.radians(uniform(*self.shear[2:]))
        cos_y = math.cos(shear_y)
        rss = np.array([[s * math.cos(angle - shear_y) / cos_y,
                         s * (-math.cos(angle - shear_y) * math.tan(shear_x) / cos_y - math.sin(angle)), 0],
                        [s * math.sin(angle - shear_y) / cos_y,
                         s * (-math.sin(angle - shear_y) * math.tan(shear_x) / cos_y + math.cos(angle)), 0],
                        [0, 0, 1]])
        cx, cy = (width - 1) / 2.0, (height - 1) / 2.0
        centre = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]])
        back = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
        shift = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
        return warp_affine(array, (shift @ centre @ rss @ back)[:2], (height, width), self.bilinear, self.fill_value)
