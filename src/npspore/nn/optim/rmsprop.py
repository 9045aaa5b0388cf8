"""``nn.RMSProp``: root-mean-square propagation, plain and centered."""
from __future__ import annotations

from typing import Any

from npspore import ops
from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool, check_float
from npspore.ops.optimizer_ops import ApplyCenteredRMSProp, ApplyRMSProp
from npspore.jit import jit

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """Root Mean Square Propagation.

    States: ``mean_square.<name>`` (ones at first), ``moment.<name>``, and with `centered`
    ``mean_grad.<name>``.

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        decay (float): >= 0. Default: ``0.9``.
        momentum (float): >= 0. Default: ``0.0``.
        epsilon (float): > 0. Default: ``1e-10``.
        use_locking (bool): accepted. Default: ``False``.
        centered (bool): normalize by the variance estimate. Default: ``False``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `decay`, `momentum` or `epsilon` is not a float, or a flag not a bool.
        ValueError: If `decay` or `momentum` < 0 or `epsilon` <= 0.
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_float(decay, "decay", self.cls_name)
        check_float(momentum, "momentum", self.cls_name)
        check_float(epsilon, "epsilon", self.cls_name, positive=True)
        check_bool(use_locking, "use_locking", self.cls_name)
        self.centered = check_bool(centered, "centered", self.cls_name)
        if centered:
            self.opt = ApplyCenteredRMSProp(use_locking)
            self.mg = self.parameters.clone(prefix="mean_grad", init="zeros")
        else:
            self.opt = ApplyRMSProp(use_locking)
        self.momentum = momentum
        self.ms = self.parameters.clone(prefix="mean_square", init="ones")
        self.moment = self.parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        gradients = self._preprocess_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for index, (lr_i, param, ms, moment, gradient) in enumerate(zip(self._lr_per_parameter(lr), self.parameters,
                                                                         self.ms, self.moment, gradients)):
            lr_i = ops.cast(lr_i, gradient.dtype)
            if self.centered:
                self.opt(param, self.mg[index], ms, moment, gradient, lr_i, self.decay, self.momentum, self.epsilon)
            else:
                self.opt(param, ms, moment, lr_i, gradient, self.decay, self.momentum, self.epsilon)
            success += (True,)
        return success
