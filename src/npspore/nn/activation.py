"""Activation layers MindSpore users reach for: ``LeakyReLU``, ``PReLU``, ``ELU``, ``SiLU``, ``Mish``,
``HSwish``, ``HSigmoid``, ``LogSigmoid``, ``Softsign``, ``Threshold`` (each a Cell over
:mod:`npspore.ops.nn_functional`)."""
from __future__ import annotations

from typing import Any

from npspore.common import dtype as mstype
from npspore.common.initializer import initializer
from npspore.common.parameter import Parameter
from npspore.missing_names import module_getattr
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import _check_positive_int, get_activation  # noqa: F401  (nn.layer.activation's)
from npspore.ops import array_functional as A, nn_functional as F
from npspore.ops.eager import run
from npspore.nn import layers as _layers, layers_tail as _tail

__all__ = ["ReLU6", "LeakyReLU", "PReLU", "ELU", "SiLU", "Mish", "HSwish", "HSigmoid", "LogSigmoid", "Softsign",
           "Threshold", "FastGelu", "Hardtanh", "SeLU", "Softmin"]


class ReLU6(Cell):
    r"""ReLU capped at 6: :math:`\min(\max(x, 0), 6)` elementwise.

    Inputs:
        - **x** (Tensor) - any shape.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def construct(self, x: Tensor) -> Tensor:
        return A.relu6(x)


class LeakyReLU(Cell):
    r"""Leaky ReLU: :math:`x` where positive, else :math:`\alpha x`.

    Args:
        alpha (Union[int, float]): the negative slope. Default: ``0.2``.

    Raises:
        TypeError: If `alpha` is not a number.
    """

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        if not isinstance(alpha, (int, float)) or isinstance(alpha, bool):
            raise TypeError(f"For 'LeakyReLU', the 'alpha' must be a number, but got {type(alpha).__name__}.")
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.alpha)


class PReLU(Cell):
    r"""Parametric ReLU: :math:`x` where positive, else :math:`w x`, with a learned `w` per channel (dim 1).

    Args:
        channel (int): the number of weights: 1, or the input's channels. Default: ``1``.
        w (Union[float, list, Tensor]): their initial value. Default: ``0.25``.

    The Parameter is named ``'a'`` (``prelu.w`` inside a network), as in MindSpore.

    Raises:
        ValueError: If `channel` is not positive.
    """

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        _check_positive_int(channel, "channel", "PReLU")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            w = Tensor([float(w)] * channel, mstype.float32)
        elif isinstance(w, list):
            w = Tensor(w, mstype.float32)
        if not isinstance(w, Tensor) or w.shape != (channel,):
            raise ValueError(f"For 'PReLU', the 'w' must be a number or a Tensor of shape ({channel},), but got {w}.")
        self.w = Parameter(initializer(w, [channel]), name="a")

    def construct(self, x: Tensor) -> Tensor:
        return F.prelu(x, self.w)


class ELU(Cell):
    r"""Exponential linear unit: :math:`x` where positive, else :math:`\alpha (e^x - 1)`.

    Args:
        alpha (float): the negative saturation; MindSpore's CPU kernel supports only ``1.0``. Default: ``1.0``.

    Raises:
        ValueError: If `alpha` is not 1.0 (as MindSpore on CPU).
    """

    def __init__(self, alpha=1.0):
        super().__init__()
        if alpha != 1.0:
            raise ValueError(f"For 'Elu', the 'alpha' must be 1.0, but got {alpha}.")
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha)


class SiLU(Cell):
    r"""SiLU (swish): :math:`x \cdot \operatorname{sigmoid}(x)`."""

    def construct(self, x: Tensor) -> Tensor:
        return F.silu(x)


class Mish(Cell):
    r"""Mish: :math:`x \tanh(\operatorname{softplus}(x))`."""

    def construct(self, x: Tensor) -> Tensor:
        return F.mish(x)


class HSwish(Cell):
    r"""Hard swish: :math:`x \cdot \operatorname{relu6}(x + 3) / 6`."""

    def construct(self, x: Tensor) -> Tensor:
        return F.hardswish(x)


class HSigmoid(Cell):
    r"""Hard sigmoid: :math:`\operatorname{relu6}(x + 3) / 6`."""

    def construct(self, input_x: Tensor) -> Tensor:
        return F.hardsigmoid(input_x)


class LogSigmoid(Cell):
    r"""Log-sigmoid: :math:`\log(1 / (1 + e^{-x}))`, computed without overflow."""

    def construct(self, input_x: Tensor) -> Tensor:
        return F.logsigmoid(input_x)


class Softsign(Cell):
    r"""Softsign: :math:`x / (1 + |x|)`."""

    def construct(self, x: Tensor) -> Tensor:
        return F.softsign(x)


class Threshold(Cell):
    r"""Threshold: :math:`x` where :math:`x > threshold`, else `value`.

    Args:
        threshold (Union[int, float]): the threshold.
        value (Union[int, float]): the replacement below it.
    """

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, input_x: Tensor) -> Tensor:
        return F.threshold(input_x, self.threshold, self.value)


class FastGelu(Cell):
    r"""The fast GELU approximation,
    :math:`\frac{x}{1 + e^{-1.702 |x|}} e^{0.851 (x - |x|)}` elementwise.

    Inputs:
        - **x** (Tensor) - float16 or float32, any shape.

    Outputs:
        Tensor of the same shape and dtype.

    Raises:
        TypeError: If `x` is not float16 or float32.
    """

    def construct(self, x: Tensor) -> Tensor:
        if x.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For 'FastGeLU', the dtype of 'x' must be float16 or float32, but got {x.dtype}.")
        magnitude = x.abs()
        return x / (1 + (-1.702 * magnitude).exp()) * (0.851 * (x - magnitude)).exp()


class Hardtanh(Cell):
    r"""``x`` clipped to [`min_val`, `max_val`] elementwise.

    Args:
        min_val (Union[int, float]): the lower bound. Default: ``-1.0``.
        max_val (Union[int, float]): the upper bound. Default: ``1.0``.

    Raises:
        ValueError: If `min_val` is not below `max_val`.
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        if min_val >= max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got {min_val} and {max_val}")
        self.min_val, self.max_val = min_val, max_val

    def construct(self, x: Tensor) -> Tensor:
        return F.clip_by_value(x, self.min_val, self.max_val)


class SeLU(Cell):
    r"""Scaled ELU: :math:`scale \cdot (\max(0, x) + \min(0, \alpha (e^x - 1)))` with MindSpore's
    :math:`\alpha = 1.67326324` and :math:`scale = 1.05070098`."""

    def construct(self, x: Tensor) -> Tensor:
        return 1.0507009873554805 * F.elu(x, 1.6732632423543772)


class Softmin(Cell):
    r"""Softmax of :math:`-x` along `axis` (default the last).

    Args:
        axis (Union[int, tuple[int]]): the axis. Default: ``-1``.
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        return run("softmax", -x, axis=self.axis)



# MindSpore 2.10's nn.layer.activation._activation: name -> activation class, for the classes npspore has
# ('rrelu', 'logsoftmaxExt' and 'preluExt' are not among them)
_activation = {
    "softmin": Softmin, "softmax": _layers.Softmax, "softmax2d": _tail.Softmax2d, "logsoftmax": _layers.LogSoftmax,
    "relu": _layers.ReLU, "relu6": ReLU6, "silu": SiLU, "tanh": _layers.Tanh, "tanhshrink": _tail.Tanhshrink,
    "hardtanh": Hardtanh, "gelu": _layers.GELU, "fast_gelu": FastGelu, "elu": ELU, "sigmoid": _layers.Sigmoid,
    "softsign": Softsign, "prelu": PReLU, "leakyrelu": LeakyReLU, "hswish": HSwish, "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid, "softshrink": _tail.SoftShrink, "hshrink": _tail.HShrink, "threshold": Threshold,
    "mish": Mish,
}

# nn.get_activation (in layers, which this module imports) knows every name of the table, in MindSpore's order.
_layers._ACTIVATIONS.clear()
_layers._ACTIVATIONS.update(_activation)


# the activations MindSpore defines in nn.layer.activation (this module's MindSpore path) and npspore in other modules
_ELSEWHERE = ("CELU", "GELU", "HShrink", "LogSoftmax", "ReLU", "Sigmoid", "SoftShrink", "Softmax", "Softmax2d", "Tanh",
              "Tanhshrink")
__getattr__ = module_getattr("mindspore.nn.layer.activation", globals(),
                             elsewhere={name: f"npspore.nn.{name}" for name in _ELSEWHERE})
