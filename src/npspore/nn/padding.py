"""Padding layers, as ``mindspore.nn``: ``Pad``."""
from __future__ import annotations

from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import array_functional as A

__all__ = ["Pad"]


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
