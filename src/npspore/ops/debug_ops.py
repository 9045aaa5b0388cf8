"""Printing from networks, as ``mindspore.ops``: ``Print`` and ``print_``.

Eagerly a ``Print`` prints at once; inside compiled code its call becomes a ``print_each`` effect of
the kernel (``compiler.calls``), which prints the same lines each time the kernel runs.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from ..compiler.library import LIBRARY
from .primitives import Primitive

__all__ = ["Print", "print_"]


class Print(Primitive):
    """Prints its inputs to stdout, one per line: a Tensor (or Parameter) as its ``repr``
    (``Tensor(shape=[2], dtype=Float32, value= [...])``), other values as ``print`` shows them.

    Inputs:
        - **input_x** (Union[Tensor, bool, int, float, str]) - the values to print, separated by ','.

    Outputs:
        None.

    Raises:
        TypeError: in compiled code, if an input is a tuple or list holding Tensors.

    Examples:
        >>> ops.Print()('Print Tensor x:', Tensor(np.ones([2, 1]).astype(np.int32)))
        Print Tensor x:
        Tensor(shape=[2, 1], dtype=Int32, value=
        [[1],
         [1]])
    """

    def __init__(self):
        super().__init__("Print")
        self.add_prim_attr("side_effect_io", True)

    def __call__(self, *args) -> None:
        for arg in args:
            print(Tensor.__repr__(arg) if isinstance(arg, Tensor) else arg)


def print_(*input_x) -> None:
    """``ops.print_(*input_x)``: prints as :class:`Print` does.

    Returns:
        None.
    """
    return _PRINT(*input_x)


_PRINT = Print()


def _stage_print(primitive, specializer, args, kwargs, loc):
    specializer.print_each(args, loc)


LIBRARY.register_stager(Print, _stage_print)
