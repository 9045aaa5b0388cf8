"""``nn.Adadelta``: the optimizer whose steps follow the ratio of accumulated updates to accumulated gradients."""
from __future__ import annotations

from typing import Any

from npspore.nn.optim.optimizer import Optimizer
from npspore.ops.optimizer_ops import ApplyAdadelta

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta (Zeiler): per Parameter, the states ``accum.<name>`` (of squared gradients) and
    ``accum_update.<name>`` (of squared updates), both starting at 0 (see :class:`~npspore.ops.ApplyAdadelta`).

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1.0``.
        rho (float): the decay of the accumulators, in [0, 1]. Default: ``0.9``.
        epsilon (float): added under the square roots, >= 0. Default: ``1e-6``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `rho` or `epsilon` is not a float, or `grads` not a tuple of Tensors.
        ValueError: If `rho` is outside [0, 1] or `epsilon` < 0.
    """

    def __init__(self, params: Any, learning_rate: Any = 1.0, rho: float = 0.9, epsilon: float = 1e-6,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("rho", rho), ("epsilon", epsilon)):
            if not isinstance(value, float):
                raise TypeError(f"For 'Adadelta', the type of '{name}' should be 'float', but got type "
                                f"'{type(value).__name__}'.")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"For 'Adadelta', the 'rho' must be in range of [0.0, 1.0], but got {rho} with type "
                             f"'float'.")
        if epsilon < 0:
            raise ValueError(f"For 'Adadelta', the 'epsilon' must be a non-negative float, but got {epsilon}.")
        self.rho, self.epsilon = rho, epsilon
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.opt = ApplyAdadelta()

    def construct(self, grads):
        grads = self._preprocess_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for lr_i, param, accum, accum_update, grad in zip(self._lr_per_parameter(lr), self.parameters, self.accum,
                                                          self.accum_update, grads):
            self.opt(param, accum, accum_update, lr_i, self.rho, self.epsilon, grad)
            success += (True,)
        return success
