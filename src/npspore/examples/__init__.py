"""Small programs that ship with npspore, for trying the ``npspore`` command anywhere.

``npspore show npspore.examples:MLP --input f32[5,4]`` works outside a source checkout; the CLI's
``--help`` examples use these names.

- :class:`MLP` — Dense → ReLU → Dense with fixed weights.
- :class:`MLPWithLoss` — MLP followed by ``nn.MSELoss`` (a MindSpore loss: it reduces in float32).
- :class:`MulNet` — ``x * y * z``.
- :class:`Scaled` — needs a constructor argument: ``--init 'scale=2.0'``.
- :class:`Recurrent` — a ``for`` loop and a tensor-dependent ``if``.
- :func:`elementwise` — a function of three tensors.
"""
import numpy as np

from .. import nn, ops
from ..common.parameter import Parameter
from ..common.tensor import Tensor

__all__ = ["MLP", "MLPWithLoss", "MulNet", "Scaled", "Recurrent", "elementwise"]


class MLP(nn.Cell):
    """Dense(4, 8) → ReLU → Dense(8, 3), weights drawn from a fixed seed."""

    def __init__(self, in_features=4, hidden=8, out_features=3):
        super().__init__()
        rng = np.random.default_rng(1)
        self.fc1 = nn.Dense(in_features, hidden, bias_init="zeros",
                            weight_init=Tensor(rng.standard_normal((hidden, in_features)).astype(np.float32) * 0.5))
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, out_features, bias_init="zeros",
                            weight_init=Tensor(rng.standard_normal((out_features, hidden)).astype(np.float32) * 0.5))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class MLPWithLoss(nn.Cell):
    """:class:`MLP` followed by ``nn.MSELoss()``: ``construct(x, y)`` returns the loss."""

    def __init__(self):
        super().__init__()
        self.net = MLP()
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        return self.loss(self.net(x), y)


class MulNet(nn.Cell):
    """``x * y * z`` (the ``ms.grad`` page's Net)."""

    def construct(self, x, y, z):
        return x * y * z


class Scaled(nn.Cell):
    """``scale * tanh(x @ w)`` with a 3×3 Parameter ``w``; ``scale`` is a constructor argument."""

    def __init__(self, scale, width=3):
        super().__init__()
        self.scale = scale
        self.w = Parameter(Tensor(np.full((width, width), 0.5, np.float32)), name="w")

    def construct(self, x):
        return self.scale * ops.tanh(ops.matmul(x, self.w))


class Recurrent(nn.Cell):
    """``steps`` updates ``h = tanh(h @ w)`` in a ``for`` loop, then a tensor-dependent ``if``."""

    def __init__(self, width=3, steps=3):
        super().__init__()
        self.steps = steps
        self.w = Parameter(Tensor(np.full((width, width), 0.25, np.float32)), name="w")

    def construct(self, x):
        h = x
        for _ in range(self.steps):
            h = ops.tanh(ops.matmul(h, self.w))
        if h.mean() > 0:
            return h * h
        return -h


def elementwise(x, y, z):
    """``x * exp(y) * z ** 2``."""
    return x * ops.exp(y) * z ** 2
