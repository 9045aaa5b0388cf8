"""3-D pooling layers, as ``mindspore.nn``: ``MaxPool3d`` and ``AvgPool3d`` over :math:`(N, C, D, H, W)` or
unbatched :math:`(C, D, H, W)` inputs (over :mod:`npspore.ops.pooling3d`)."""
from __future__ import annotations

from npspore.nn.cell import Cell
from npspore.ops import pooling3d as P3

__all__ = ["MaxPool3d", "AvgPool3d"]


class _Pool3d(Cell):
    """What the 3-D pooling layers share: the window arguments, checked, and the unbatched input."""

    def __init__(self, kernel_size, stride, pad_mode, padding):
        super().__init__()
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{self.cls_name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but "
                             f"got {pad_mode}.")
        self.kernel_size, self.stride, self.pad_mode, self.padding = kernel_size, stride, pad_mode.lower(), padding

    def construct(self, x):
        unbatched = len(x.shape) == 4
        out = self._pool(x.expand_dims(0) if unbatched else x)
        if not unbatched:
            return out
        if isinstance(out, tuple):
            return out[0].squeeze(0), out[1].squeeze(0)
        return out.squeeze(0)

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode.upper()}"


class MaxPool3d(_Pool3d):
    r"""3-D max pooling.

    Args:
        kernel_size (Union[int, tuple[int]]): the window's depth, height and width. Default: ``1``.
        stride (Union[int, tuple[int]]): the step between windows. Default: ``1``.
        pad_mode (str): ``'valid'``, ``'same'`` or ``'pad'`` (``padding``, ``-inf``). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): with ``'pad'``: both sides of every dim, or ``(d, h, w)``. Default: ``0``.
        dilation (Union[int, tuple[int]]): the spacing of window elements (``'pad'`` only). Default: ``1``.
        return_indices (bool): also return the int64 flat index, into each :math:`(D, H, W)` volume of the
            input, of each window's first maximum (``'pad'`` only). Default: ``False``.
        ceil_mode (bool): count a partial last window. Default: ``False``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, D, H, W)` or :math:`(C, D, H, W)`.

    Outputs:
        The pooled Tensor; with `return_indices`, a tuple of it and the indices (same shape).

    Raises:
        ValueError: If `pad_mode` is unknown, `padding` is not zero without ``'pad'``, or `dilation` or
            `return_indices` is set without ``'pad'`` (MindSpore's messages).
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode, padding)
        self.return_indices = return_indices
        if (dilation != 1 or return_indices) and self.pad_mode != "pad":
            raise ValueError(f"For {self.cls_name}, the pad_mode must be 'pad' when dilation is not 1 or "
                             f"return_indices is True, but got pad_mode:{pad_mode}.")
        self.max_pool = P3.MaxPool3D(kernel_size, stride, pad_mode, padding, ceil_mode or None)
        self.dilation = P3._int_tuple(dilation, 3, "dilation", self.cls_name)

    def _pool(self, x):
        pool = self.max_pool
        if self.pad_mode != "pad":
            return pool(x)
        return P3._max_pool3d(x, pool.kernel, pool.stride, pool._window_pads(x, self.dilation), self.dilation,
                              self.return_indices)


class AvgPool3d(_Pool3d):
    r"""3-D average pooling.

    Args:
        kernel_size (Union[int, tuple[int]]): the window's depth, height and width. Default: ``1``.
        stride (Union[int, tuple[int]]): the step between windows. Default: ``1``.
        pad_mode (str): ``'valid'``, ``'same'`` or ``'pad'`` (``padding``, zeros). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): with ``'pad'``: an int or ``(head, tail, top, bottom, left, right)``.
            Default: ``0``.
        ceil_mode (bool): count a partial last window. Default: ``False``.
        count_include_pad (bool): whether the padding counts in each window's divisor. Default: ``True``.
        divisor_override (int): the divisor of every window, when set. Default: ``None``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, D, H, W)` or :math:`(C, D, H, W)`.

    Outputs:
        The pooled Tensor.

    Raises:
        ValueError: If `pad_mode` is unknown or `padding` is not zero without ``'pad'`` (MindSpore's messages).
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, pad_mode, padding)
        self.avg_pool = P3.AvgPool3D(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad,
                                     divisor_override or 0)

    def _pool(self, x):
        return self.avg_pool(x)
