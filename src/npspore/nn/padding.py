"""Padding layers, as ``mindspore.nn``: ``Pad``, ``ZeroPad2d``, ``ConstantPad2d`` and ``ReflectionPad2d``."""
from __future__ import annotations

from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import array_functional as A

__all__ = ["Pad", "ZeroPad2d", "ConstantPad2d", "ReflectionPad2d"]


class Pad(Cell):
    """Pads the input by ``paddings``: one ``(before, after)`` pair per dim of the input, first dim first.

    Args:
        paddings (tuple): a tuple of int pairs, one per dim of the input.
        mode (str): ``'CONSTANT'`` (zeros), ``'REFLECT'`` (mirrored without the edge) or ``'SYMMETRIC'``
            (mirrored with it). Default: ``'CONSTANT'``.

    Raises:
        TypeError: if ``paddings`` is not a tuple of int pairs.
        ValueError: if ``mode`` is not one of the three, or (on call) ``paddings`` does not have one pair
            per dim of the input.
    """

    def __init__(self, paddings: tuple, mode: str = "CONSTANT") -> None:
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
        if not isinstance(paddings, tuple) or not all(
                isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, int) for p in pair)
                for pair in paddings):
            raise TypeError(f"For 'Pad', the 'paddings' must be a tuple of int pairs, but got {paddings!r}.")
        self.paddings = paddings
        self.mode = mode

    def construct(self, x: Tensor) -> Tensor:
        return A.pad_pairs(x, self.paddings, self.mode.lower())


class _Pad2d(Cell):
    """Pads the last two dims by ``padding``: an int for every side, or ``(left, right[, top, bottom])``;
    a negative constant pad crops that side."""

    mode = "constant"

    def __init__(self, padding: int | tuple[int, ...], value: float = 0.0) -> None:
        super().__init__()
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * 4
        if not isinstance(padding, tuple) or not all(isinstance(p, int) and not isinstance(p, bool)
                                                     for p in padding):
            raise TypeError(f"For '{self.cls_name}', the type of parameter 'padding' must be in [int, tuple], but "
                            f"got {padding!r}.")
        if len(padding) % 2:
            raise ValueError(f"For '{self.cls_name}', the length of parameter 'padding' with tuple type must be a "
                             f"multiple of 2, but got {len(padding)}")
        if len(padding) > 4:
            raise ValueError(f"For '{self.cls_name}', the length of parameter 'padding' with tuple type must be at "
                             f"most 4, but got {len(padding)}")
        if self.mode != "constant" and any(p < 0 for p in padding):
            raise ValueError(f"For '{self.cls_name}', the 'padding' must be non-negative, but got {padding}.")
        self.padding = padding + (0,) * (4 - len(padding))
        self.value = value

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) < 2:
            raise ValueError(f"For '{self.cls_name}', the input must have at least 2 dims, but got shape {x.shape}.")
        left, right, top, bottom = self.padding
        crop = (slice(-top if top < 0 else 0, x.shape[-2] + bottom if bottom < 0 else None),
                slice(-left if left < 0 else 0, x.shape[-1] + right if right < 0 else None))
        if crop != (slice(0, None), slice(0, None)):
            x = x[(Ellipsis,) + crop]
        pairs = ((0, 0),) * (len(x.shape) - 2) + ((max(top, 0), max(bottom, 0)), (max(left, 0), max(right, 0)))
        return A.pad_pairs(x, pairs, self.mode, self.value)


class ZeroPad2d(_Pad2d):
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


class ConstantPad2d(_Pad2d):
    """Pads the last two dims of the input with `value` (see :class:`ZeroPad2d`).

    Args:
        padding (Union[int, tuple[int]]): every side, or ``(left, right, top, bottom)``; a negative pad crops.
        value (Union[int, float]): the fill.
    """

    def __init__(self, padding: int | tuple[int, ...], value: float) -> None:
        super().__init__(padding, value)


class ReflectionPad2d(_Pad2d):
    """Pads the last two dims of the input by reflecting it at its edges, the edge itself not repeated (see
    :class:`ZeroPad2d`; each pad must be smaller than its dim).

    Args:
        padding (Union[int, tuple[int]]): every side, or ``(left, right, top, bottom)``, non-negative.
    """

    mode = "reflect"

    def __init__(self, padding: int | tuple[int, ...]) -> None:
        super().__init__(padding)
