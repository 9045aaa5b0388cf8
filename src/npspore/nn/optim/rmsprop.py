"""``nn.RMSProp``: root-mean-square propagation, plain and centered."""
from __future__ import annotations

from npspore import ops
from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool, check_float

__all__ = ["RMSProp"]


def apply_rmsprop(param, mean_grad, mean_square, moment, lr, gradient, decay, momentum, epsilon):
    """``ApplyRMSProp`` (``ApplyCenteredRMSProp`` when ``mean_grad`` is given). Returns True.

    ``s += (g * g - s) * (1 - decay)``; centered: ``mg += (g - mg) * (1 - decay)`` and the
    denominator is ``sqrt(s - mg * mg + epsilon)``, else ``sqrt(s + epsilon)``;
    ``moment = moment * momentum + lr * g / denominator``; ``param -= moment``.
    """
    new_square = mean_square + (gradient * gradient - mean_square) * (1 - decay)
    ops.assign(mean_square, new_square)
    if mean_grad is None:
        denominator = ops.sqrt(new_square + epsilon)
    else:
        new_grad = mean_grad + (gradient - mean_grad) * (1 - decay)
        ops.assign(mean_grad, new_grad)
        denominator = ops.sqrt(new_square - new_grad * new_grad + epsilon)
    new_moment = moment * momentum + lr * gradient / denominator
    ops.assign(moment, new_moment)
    ops.assign(param, param - new_moment)
    return True


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

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_float(decay, "decay", self.cls_name)
        check_float(momentum, "momentum", self.cls_name)
        check_float(epsilon, "epsilon", self.cls_name, positive=True)
        check_bool(use_locking, "use_locking", self.cls_name)
        self.centered = check_bool(centered, "centered", self.cls_name)
        if centered:
            self.mg = self.parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self.parameters.clone(prefix="mean_square", init="ones")
        self.moment = self.parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay

    def construct(self, gradients):
        gradients = self.preprocess_gradients(gradients)
        lr = self.get_lr()
        self.increase_global_step()
        mean_grads = self.mg if self.centered else (None,) * self.param_length
        success = ()
        for lr_i, param, mg, ms, moment, gradient in zip(self.lr_per_parameter(lr), self.parameters, mean_grads,
                                                         self.ms, self.moment, gradients):
            success += (apply_rmsprop(param, mg, ms, moment, ops.cast(lr_i, gradient.dtype), gradient, self.decay,
                                      self.momentum, self.epsilon),)
        return success
