"""``nn.Conv2dBnAct``: a Conv2d, an optional BatchNorm2d and an optional activation, in that order."""
from __future__ import annotations

from typing import Any

from npspore.nn.activation import LeakyReLU
from npspore.nn.cell import Cell
from npspore.nn.conv import Conv2d
from npspore.nn.layers import _check_bool, get_activation
from npspore.nn.normalization import BatchNorm2d

__all__ = ["Conv2dBnAct"]


class Conv2dBnAct(Cell):
    """A 2-D convolution followed by batch normalization (``has_bn``) and an activation.

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias: as for
            :class:`Conv2d`.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'normal'``.
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'zeros'``.
        has_bn (bool): add a BatchNorm2d (``momentum``, ``eps``). Default: ``False``.
        momentum (float): the BatchNorm's momentum. Default: ``0.997``.
        eps (float): the BatchNorm's epsilon. Default: ``1e-5``.
        activation (Union[str, Cell, None]): an activation name (``'relu'``, ``'leakyrelu'`` ...) or Cell.
            Default: ``None``.
        alpha (float): the slope of ``'leakyrelu'``. Default: ``0.2``.
        after_fake (bool): MindSpore's quantization flag, with no effect. Default: ``True``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, H_{in}, W_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Raises:
        TypeError: If ``has_bn`` is not a bool or ``activation`` is neither a str, a Cell nor None.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, pad_mode: str = "same",
                 padding=0, dilation=1, group: int = 1, has_bias: bool = False, weight_init: Any = "normal",
                 bias_init: Any = "zeros", has_bn: bool = False, momentum: float = 0.997, eps: float = 1e-5,
                 activation=None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                           has_bias, weight_init, bias_init)
        self.has_bn = _check_bool(has_bn, "has_bn", "Conv2dBnAct")
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        if activation == "leakyrelu":
            self.activation = LeakyReLU(alpha)
        elif isinstance(activation, str):
            self.activation = get_activation(activation, "Conv2dBnAct")
        elif activation is None or isinstance(activation, Cell):
            self.activation = activation
        else:
            raise TypeError(f"For 'Conv2dBnAct', the 'activation' must be str, Cell or None, but got "
                            f"{type(activation).__name__}.")

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.activation is not None:
            x = self.activation(x)
        return x
