"""``Conv2dBnAct`` and ``DenseBnAct``: a convolution or dense layer, an optional batch normalization and an
optional activation in one Cell (MindSpore's ``nn.layer.combined``; its parameter names:
``conv.weight``, ``dense.weight``, ``batchnorm.gamma``, ...)."""
from __future__ import annotations

from typing import Any

from npspore.nn.activation import LeakyReLU
from npspore.nn.cell import Cell
from npspore.nn.conv import Conv2d
from npspore.nn.layers import Dense, _check_bool, get_activation
from npspore.nn.normalization import BatchNorm1d, BatchNorm2d
from npspore.ops.primitives import Primitive

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation(activation: Any, alpha: float, cls_name: str) -> Any:
    """The activation Cell for ``activation`` (a name, a Cell, a Primitive or None); ``'leakyrelu'`` uses ``alpha``."""
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    cell = get_activation(activation, cls_name) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(cell, (Cell, Primitive)):
        raise TypeError(f"For '{cls_name}', the 'activation' must be str or Cell or Primitive, "
                        f"but got {type(activation).__name__}.")
    return cell


class _BnAct(Cell):
    """The batch normalization and activation after a layer ``self.layer_name``."""

    layer_name = ""

    def __init__(self, has_bn: bool, after_fake: bool, activation: Any, alpha: float) -> None:
        super().__init__()
        self.has_bn = _check_bool(has_bn, "has_bn", self.cls_name)
        self.after_fake = _check_bool(after_fake, "after_fake", self.cls_name)
        self.has_act = activation is not None
        self.activation = _activation(activation, alpha, self.cls_name)

    def construct(self, x):
        x = getattr(self, self.layer_name)(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(_BnAct):
    r"""``Conv2d``, then ``BatchNorm2d`` (``has_bn``), then an activation (``activation``: a name such as
    ``'relu'`` or ``'leakyrelu'`` (slope ``alpha``), a Cell, a Primitive, or None).

    The Conv2d arguments are those of :class:`npspore.nn.Conv2d`; ``momentum`` and ``eps`` those of the
    BatchNorm2d. ``after_fake`` is a flag of MindSpore's quantization, kept and checked.

    Raises:
        TypeError: if ``has_bn`` or ``after_fake`` is not a bool, or ``activation`` is no str, Cell or Primitive.
    """

    layer_name = "conv"

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = "normal", bias_init: Any = "zeros", has_bn: bool = False, momentum: float = 0.997,
                 eps: float = 1e-5, activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__(has_bn, after_fake, activation, alpha)
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)


class DenseBnAct(_BnAct):
    r"""``Dense``, then ``BatchNorm1d`` (``has_bn``), then an activation (as :class:`Conv2dBnAct`'s).

    Raises:
        TypeError: if ``has_bn`` or ``after_fake`` is not a bool, or ``activation`` is no str, Cell or Primitive.
    """

    layer_name = "dense"

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True, has_bn: bool = False, momentum: float = 0.9, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__(has_bn, after_fake, activation, alpha)
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
