"""Padding layers, as ``mindspore.nn``: ``Pad``, ``ZeroPad2d``, ``ConstantPad1d/2d/3d`` and
``ReflectionPad1d/2d/3d``."""
from __future__ import annotations

from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import array_functional as A

__all__ = ["Pad", "ZeroPad2d", "ConstantPad2d", "ReflectionPad2d", "ConstantPad1d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad3d"]


class Pad(Cell):
    """Pads the input by ``paddings``: one ``(before, after)`` pair per dim of the input, first dim first.

    Args:
        paddings (tuple): a tuple of int pairs, one per dim of the input.
        mode (str): ``'CONSTANT'`` (zeros), ``'REFLECT'`` (mirrored without the edge) or ``'SYMMETRIC'``
            (mirrored with it). Default: ``'CONSTANT'``.

    Raises:
        TypeError: if ``paddings`` is not a tuple of int pairs.
        ValueError: if ``mode`` is not one of the three, ``paddings`` has more than 4 pairs (MindSpore's limit), or
            (on call) ``paddings`` does not have one pair per dim of the input.
    """

    def __init__(self, paddings: tuple, mode: str = "CONSTANT") -> None:
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
        if not isinstance(paddings, tuple) or not all(
                isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, int) for p in pair)
                for pair in paddings):
            raise TypeError(f"For 'Pad', the 'paddings' must be a tuple of int pairs, but got {paddings!r}.")
        if len(paddings) > 4:
            raise ValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but got {len(paddings)}.")
        self.paddings = paddings
        self.mode = mode

    def construct(self, x: Tensor) -> Tensor:
        return A.pad_pairs(x, self.paddings, self.mode.lower())


class _PadNd(Cell):
    """Pads the last ``dims`` dims by ``padding``: an int for every side, or ``(left, right[, top, bottom[, front,
    back]])`` from the last dim backwards; a negative constant pad crops that side."""

    mode = "constant"
    dims = 2

    def __init__(self, padding: int | tuple[int, ...], value: float = 0.0) -> None:
        super().__init__()
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * self.dims)
        if not isinstance(padding, tuple) or not all(isinstance(p, int) and not isinstance(p, bool)
                                                     for p in padding):
            raise TypeError(f"For '{self.cls_name}', the type of parameter 'padding' must be in [int, tuple], but "
                            f"got {padding!r}.")
        if len(padding) % 2:
            raise ValueError(f"For '{self.cls_name}', the length of parameter 'padding' with tuple type must be a "
                             f"multiple of 2, but got {len(padding)}")
        if len(padding) > 2 * self.dims:
            raise ValueError(f"For '{self.cls_name}', the length of parameter 'padding' with tuple type must be at "
                             f"most {2 * self.dims}, but got {len(padding)}")
        if self.mode != "constant" and any(p < 0 for p in padding):
            raise ValueError(f"For '{self.cls_name}', the 'padding' must be non-negative, but got {padding}.")
        self.padding = padding + (0,) * (2 * self.dims - len(padding))
        self.value = value

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) < self.dims:
            raise ValueError(f"For '{self.cls_name}', the input must have at least {self.dims} dims, but got shape "
                             f"{x.shape}.")
        # (before, after) per padded dim, first dim first
        sides = [(self.padding[2 * i], self.padding[2 * i + 1]) for i in range(self.dims)][::-1]
        shape = x.shape[len(x.shape) - self.dims:]
        crop = tuple(slice(-before if before < 0 else 0, dim + after if after < 0 else None)
                     for (before, after), dim in zip(sides, shape))
        if any(part != slice(0, None) for part in crop):
            x = x[(Ellipsis,) + crop]
        pairs = ((0, 0),) * (len(x.shape) - self.dims) + tuple((max(b, 0), max(a, 0)) for b, a in sides)
        return A.pad_pairs(x, pairs, self.mode, self.value)


class ZeroPad2d(_PadNd):
    """Pads the last two dims of the input with zeros.

    Args:
        padding (Union[int, tuple[int]]): every side, or ``(left, right, top, bottom)``; a negative pad crops.

    Inputs:
        - **x** (Tensor) - at least 2-D.

    Outputs:
        Tensor, the last two dims grown (or cropped) by `padding`.

    Raises:
        TypeError: If `padding` is not an int or a tuple of ints.
        ValueError: If the tuple's length is odd or above 4.
    """

    def __init__(self, padding: int | tuple[int, ...]) -> None:
        super().__init__(padding, 0.0)


class ConstantPad2d(_PadNd):
    """Pads the last two dims of the input with `value` (see :class:`ZeroPad2d`).

    Args:
        padding (Union[int, tuple[int]]): every side, or ``(left, right, top, bottom)``; a negative pad crops.
        value (Union[int, float]): the fill.
    """

    def __init__(self, padding: int | tuple[int, ...], value: float) -> None:
        super().__init__(padding, value)


class ReflectionPad2d(_PadNd):
    """Pads the last two dims of the input by reflecting it at its edges, the edge itself not repeated (see
    :class:`ZeroPad2d`; each pad must be smaller than its dim).

    Args:
        padding (Union[int, tuple[int]]): every side, or ``(left, right, top, bottom)``, non-negative.
    """

    mode = "reflect"

    def __init__(self, padding: int | tuple[int, ...]) -> None:
        super().__init__(padding)


class ConstantPad1d(_PadNd):
    """Pads the last dim of the input with `value`: ``padding`` an int for both sides or ``(left, right)``; a
    negative pad crops."""

    dims = 1

    def __init__(self, padding: int | tuple[int, ...], value: float) -> None:
        super().__init__(padding, value)


class ConstantPad3d(_PadNd):
    """Pads the last three dims of the input with `value`: ``padding`` an int for every side or ``(left, right,
    top, bottom, front, back)``; a negative pad crops."""

    dims = 3

    def __init__(self, padding: int | tuple[int, ...], value: float) -> None:
        super().__init__(padding, value)


class ReflectionPad1d(ReflectionPad2d):
    """Pads the last dim of the input by reflection (see :class:`ReflectionPad2d`): ``padding`` an int or
    ``(left, right)``."""

    dims = 1


class ReflectionPad3d(ReflectionPad2d):
    """Pads the last three dims of the input by reflection (see :class:`ReflectionPad2d`): ``padding`` an int or
    ``(left, right, top, bottom, front, back)``."""

    dims = 3
