"""``boost.GradientAccumulation``: the optimizer steps once per ``max_accumulation_step`` calls, on the mean of
their gradients, as MindSpore 2.10's (each call adds ``grad / max_accumulation_step`` to the accumulator; the call
that completes the count steps the optimizer, zeroes the count and clears the accumulator)."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..nn.cell import Cell
from ..ops import functional as F

__all__ = ["GradientAccumulation"]


class GradientAccumulation(Cell):
    """Accumulate gradients over ``max_accumulation_step`` calls, then update with ``optimizer``.

    Args:
        max_accumulation_step (int): the calls per update.
        optimizer (Cell): the optimizer, of the Parameters whose gradients are given.

    Inputs:
        - **loss** (Tensor) - returned as it is.
        - **grads** (tuple[Tensor]) - the gradients of ``optimizer.parameters`` for this step.

    Outputs:
        Tensor, ``loss``.
    """

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")

    def construct(self, loss, grads):
        for accumulated, grad in zip(self._grad_accumulation, grads):
            F.assign_add(accumulated, grad / self._max_accumulation_step)
        F.assign_add(self._accumulation_step, Tensor(1, mstype.int32))
        if self._accumulation_step >= self._max_accumulation_step:
            loss = F.depend(loss, self.optimizer(self._grad_accumulation))
            F.assign(self._accumulation_step, Tensor(0, mstype.int32))
        if self._accumulation_step == 0:
            for accumulated in self._grad_accumulation:
                F.assign(accumulated, F.zeros_like(accumulated))
        return loss
