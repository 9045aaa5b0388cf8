"""``nn.Jvp`` and ``nn.Vjp``: MindSpore's (deprecated since 1.9) Cells over ``ops.jvp`` and the
reverse-mode product, as ``mindspore.nn`` still has them in 2.10."""
from __future__ import annotations

from ..common.tensor import Tensor
from ..derivatives import jvp
from ..grad import grad
from .cell import Cell

__all__ = ["Jvp", "Vjp"]


class Jvp(Cell):
    """The Jacobian-vector product of ``fn``: ``Jvp(fn)(*inputs, v)`` returns ``(fn(*inputs), jvp)``,
    ``v`` a Tensor (one input) or a tuple of Tensors, one per input. Use ``ops.jvp`` instead."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        v = args[-1]
        return jvp(self.fn, args[:-1], v if isinstance(v, (tuple, list)) else (v,))


class Vjp(Cell):
    """The vector-Jacobian product of ``fn``: ``Vjp(fn)(*inputs, v)`` returns ``(fn(*inputs),
    gradients)``, the gradient of one input bare, of several a tuple. Use ``ops.vjp`` instead."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs = args[:-1]
        positions = 0 if len(inputs) == 1 else tuple(range(len(inputs)))
        return self.fn(*inputs), grad(self.fn, grad_position=positions, sens_param=True)(*args)
