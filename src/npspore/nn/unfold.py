"""``nn.Unfold``: image patches stacked along the channels, as MindSpore 2.10's ``nn.Unfold``
(its ``ExtractImagePatches``, which MindSpore's CPU build cannot run)."""
from __future__ import annotations

from npspore.common.tensor import Tensor, _np_dtype
from npspore.nn.cell import Cell
from npspore.ops import nn_functional as F
from npspore.ops.eager import run

__all__ = ["Unfold"]


def _check_window_argument(arg_name, value):
    """``value`` must be ``[1, row, col, 1]`` with positive ints (MindSpore's messages); ``(row, col)``."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For 'Unfold', the type of '{arg_name}s' should be one of '['tuple', 'list']', but got type "
                        f"'{type(value).__name__}'.")
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise ValueError(f"For 'Unfold' the format of '{arg_name}s' must be [1, {arg_name}_row, {arg_name}_col, 1], "
                         f"but got {value}.")
    row, col = value[1], value[2]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)) or row < 1 or col < 1:
        raise ValueError(f"For 'Unfold' the {arg_name}_row and {arg_name}_col in '{arg_name}s' must be an positive "
                         f"integer number, but got {arg_name}_row is {row}, {arg_name}_col is {col}")
    return row, col


class Unfold(Cell):
    r"""Extract the patches of an NCHW image and stack them along the channels.

    The output channel ``(i * ksize_col + j) * C + c`` holds element ``(i, j)`` of every patch of
    channel ``c`` (patches as in TensorFlow's ``extract_image_patches``, in NHWC order, then back
    to NCHW, as MindSpore does).

    Args:
        ksizes (Union[tuple[int], list[int]]): ``[1, ksize_row, ksize_col, 1]``, the patch size.
        strides (Union[tuple[int], list[int]]): ``[1, stride_row, stride_col, 1]``, between patches.
        rates (Union[tuple[int], list[int]]): ``[1, rate_row, rate_col, 1]``, between the elements of a patch.
        padding (str): ``'valid'`` (patches inside the image) or ``'same'`` (``ceil(size / stride)``
            patches per dim, zero padding split as evenly as possible, the extra at the end); not
            case sensitive. Default: ``'valid'``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor :math:`(N, C \cdot ksize\_row \cdot ksize\_col, H_{out}, W_{out})`, the dtype of `x`.

    Raises:
        TypeError: If `ksizes`, `strides` or `rates` is neither a tuple nor a list.
        ValueError: If one of them is not ``[1, row, col, 1]`` with positive ints, or `padding` is
            neither ``'same'`` nor ``'valid'``.
    """

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.ksizes = _check_window_argument("ksize", ksizes)
        self.strides = _check_window_argument("stride", strides)
        self.rates = _check_window_argument("rate", rates)
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'same' or 'valid', but got {padding!r}.")
        self.padding = padding.lower()
        # where each element of a patch sits relative to the patch's corner, in output channel order
        self.offsets = tuple((i * self.rates[0], j * self.rates[1])
                             for i in range(self.ksizes[0]) for j in range(self.ksizes[1]))

    def construct(self, x: Tensor) -> Tensor:
        F._check_rank(x, 4, "Unfold", "x")
        pads = F._padding(self.padding, 0, x.shape[2:], self.ksizes, self.strides, self.rates, "Unfold")
        padded = _zero_pad(x, pads)
        rows = (padded.shape[2] - self.rates[0] * (self.ksizes[0] - 1) - 1) // self.strides[0] + 1
        cols = (padded.shape[3] - self.rates[1] * (self.ksizes[1] - 1) - 1) // self.strides[1] + 1
        patches = []
        for top, left in self.offsets:
            patches.append(padded[:, :, top:top + (rows - 1) * self.strides[0] + 1:self.strides[0],
                                  left:left + (cols - 1) * self.strides[1] + 1:self.strides[1]])
        stacked = run("stack", *patches, axis=1)
        return run("reshape", stacked, shape=(x.shape[0], -1, rows, cols))


def _zero_pad(x, pads):
    """``x (N, C, H, W)`` with ``pads = (top, bottom, left, right)`` rows and columns of zeros."""
    top, bottom, left, right = pads
    dtype = _np_dtype(x.dtype)
    if top or bottom:
        n, c, h, w = x.shape
        x = run("concat", run("zeros", shape=(n, c, top, w), dtype=dtype), x,
                run("zeros", shape=(n, c, bottom, w), dtype=dtype), axis=2)
    if left or right:
        n, c, h, w = x.shape
        x = run("concat", run("zeros", shape=(n, c, h, left), dtype=dtype), x,
                run("zeros", shape=(n, c, h, right), dtype=dtype), axis=3)
    return x
