"""Pooling layers: ``MaxPool1d/2d``, ``AvgPool1d/2d``, ``AdaptiveAvgPool2d``, ``AdaptiveMaxPool2d``,
and ``Dropout2d`` (which drops whole channels), with MindSpore's arguments and defaults."""
from __future__ import annotations

from typing import Any

from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import nn_functional as F

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "Dropout2d",
           "AdaptiveAvgPool1d"]


class _Pool(Cell):
    """What the pooling layers share: the window arguments, checked and kept."""

    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, data_format="NCHW"):
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}', npspore supports only data_format 'NCHW', but got "
                             f"{data_format}.")
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{self.cls_name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but "
                             f"got {pad_mode}.")
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad_mode = pad_mode.lower()
        self.padding = padding
        self.ceil_mode = ceil_mode

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode.upper()}"


def _check_pad_only_arguments(cls_name, pad_mode, padding, dilation, return_indices, ceil_mode):
    """MindSpore's rule (and message): these arguments keep their defaults unless ``pad_mode`` is ``'pad'``."""
    if pad_mode.lower() != "pad" and (padding != 0 or dilation != 1 or return_indices or ceil_mode):
        raise ValueError(f"For {cls_name}, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can not "
                         f"be set to non-default value when pad_mode is not 'pad', but got pad_mode:{pad_mode}.")


class MaxPool2d(_Pool):
    r"""2-D max pooling over :math:`(N, C, H, W)` inputs.

    Args:
        kernel_size (Union[int, tuple[int]]): the window's height and width. Default: ``1``.
        stride (Union[int, tuple[int]]): the step between windows. Default: ``1``.
        pad_mode (str): ``'valid'``, ``'same'`` or ``'pad'`` (``padding``, ``-inf``). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): with ``'pad'``. Default: ``0``.
        dilation (Union[int, tuple[int]]): the spacing of window elements. Default: ``1``.
        return_indices (bool): also return the int64 flat index, into each :math:`(H, W)` plane of
            the input, of each window's first maximum. Default: ``False``.
        ceil_mode (bool): count a partial last window. Default: ``False``.
        data_format (str): only ``'NCHW'``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, C, H_{out}, W_{out})`; with `return_indices`, a tuple of it and the
        indices (same shape).

    Raises:
        ValueError: If `pad_mode` is unknown, or it is not ``'pad'`` and `padding`, `dilation`,
            `return_indices` or `ceil_mode` is not the default (as in MindSpore).
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False, ceil_mode: bool = False, data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        _check_pad_only_arguments("MaxPool2d", pad_mode, padding, dilation, return_indices, ceil_mode)
        self.dilation = dilation
        self.return_indices = return_indices

    def construct(self, x):
        return F._max_pool(x, self.kernel_size, self.stride, self.pad_mode, self.padding, self.dilation,
                           self.ceil_mode, "MaxPool2d", self.return_indices)


class MaxPool1d(_Pool):
    r"""1-D max pooling over :math:`(N, C, L)` inputs; args as :class:`MaxPool2d`, each a single int.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, L)`.

    Outputs:
        Tensor of shape :math:`(N, C, L_{out})`; with `return_indices`, a tuple of it and the int64
        index along :math:`L` of each window's first maximum.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__((1, kernel_size), (1, stride), pad_mode, (0, 0, padding, padding), ceil_mode)
        _check_pad_only_arguments("MaxPool1d", pad_mode, padding, dilation, return_indices, ceil_mode)
        self.dilation = (1, dilation)
        self.return_indices = return_indices

    def construct(self, x):
        out = F._max_pool(x.expand_dims(2), self.kernel_size, self.stride, self.pad_mode, self.padding, self.dilation,
                          self.ceil_mode, "MaxPool1d", self.return_indices)
        if self.return_indices:
            return out[0].squeeze(2), out[1].squeeze(2)
        return out.squeeze(2)


class AvgPool2d(_Pool):
    r"""2-D average pooling over :math:`(N, C, H, W)` inputs.

    Args:
        kernel_size, stride, pad_mode, padding, ceil_mode: as :class:`MaxPool2d` (zero padding).
        count_include_pad (bool): with ``'pad'``, whether the padding counts in the divisor (with
            ``'same'`` it never does). Default: ``True``.
        divisor_override (int): the divisor of every window. Default: ``None``.
        data_format (str): only ``'NCHW'``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, C, H_{out}, W_{out})`.
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def construct(self, x: Tensor) -> Tensor:
        return F._avg_pool(x, self.kernel_size, self.stride, self.pad_mode, self.padding, self.ceil_mode,
                           self.count_include_pad, self.divisor_override, "AvgPool2d")


class AvgPool1d(_Pool):
    r"""1-D average pooling over :math:`(N, C, L)` inputs; args as :class:`AvgPool2d`, each a single int.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, L)`.

    Outputs:
        Tensor of shape :math:`(N, C, L_{out})`.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__((1, kernel_size), (1, stride), pad_mode, (0, 0, padding, padding), ceil_mode)
        self.count_include_pad = count_include_pad

    def construct(self, x: Tensor) -> Tensor:
        out = F._avg_pool(x.expand_dims(2), self.kernel_size, self.stride, self.pad_mode, self.padding,
                          self.ceil_mode, self.count_include_pad, None, "AvgPool1d")
        return out.squeeze(2)


class AdaptiveAvgPool2d(Cell):
    r"""Average pooling to a fixed `output_size`, over windows spanning the input.

    Args:
        output_size (Union[int, tuple]): :math:`(H_{out}, W_{out})`, an int for both; ``None`` keeps
            the input's size.

    Inputs:
        - **input** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, C, H_{out}, W_{out})`.
    """

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool2d(Cell):
    r"""Max pooling to a fixed `output_size`, over windows spanning the input.

    Args:
        output_size (Union[int, tuple]): as :class:`AdaptiveAvgPool2d`.
        return_indices (bool): also return the int64 flat index, into each :math:`(H, W)` plane of
            the input, of each window's first maximum. Default: ``False``.

    Inputs:
        - **input** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, C, H_{out}, W_{out})`; with `return_indices`, a tuple of it and the
        indices (same shape).
    """

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def construct(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class Dropout2d(Cell):
    r"""In training mode, zero each channel of a :math:`(N, C, H, W)` input with probability `p` and
    scale the rest by :math:`1 / (1 - p)`; in inference mode, the identity.

    Args:
        p (float): the probability of dropping a channel, in [0, 1]. Default: ``0.5``.

    Raises:
        ValueError: If `p` is not in [0, 1].
    """

    def __init__(self, p=0.5):
        super().__init__()
        if not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"For '{type(self).__name__}', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p

    def construct(self, x: Tensor) -> Tensor:
        return F.dropout2d(x, self.p, self.training)

    def extend_repr(self):
        return f"p={self.p}"


class AdaptiveAvgPool1d(Cell):
    """The mean of each of `output_size` equal windows of the last dim of an ``(N, C, L)`` input, as MindSpore's
    (which needs `L` divisible by `output_size`).

    Args:
        output_size (int): the windows, positive.

    Raises:
        ValueError: If `L` is not divisible by `output_size`.
    """

    def __init__(self, output_size: int) -> None:
        super().__init__()
        if not isinstance(output_size, int) or isinstance(output_size, bool) or output_size < 1:
            raise ValueError(f"For 'AdaptiveAvgPool1d', the 'output_size' must be a positive int, but got "
                             f"{output_size!r}.")
        self.output_size = output_size

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) != 3:
            raise ValueError(f"For 'AdaptiveAvgPool1d', the input must be 3-D (N, C, L), but got shape {x.shape}.")
        n, c, length = x.shape
        if length % self.output_size:
            raise ValueError(f"For AdaptiveAvgPool1d, the input's last dimension must be divisible by output size "
                             f"{self.output_size}, but got {length}.")
        return x.reshape(n, c, self.output_size, length // self.output_size).mean(-1)
