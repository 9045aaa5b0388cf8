"""``nn.SGD``: stochastic gradient descent with optional momentum, dampening and Nesterov momentum."""
from __future__ import annotations

from typing import Any

from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool
from npspore.ops import optimizer_ops
from npspore.jit import jit

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum.

    With ``momentum > 0`` each Parameter has the state ``accum.<name>`` (the velocity ``v``);
    ``stat.<name>`` (ones at first) marks the first step, where ``v`` is the gradient ``g`` itself:

    .. math::
        v = momentum * v + (1 - dampening) * g, \\quad
        p = p - lr * v \\quad (\\text{Nesterov: } p = p - lr * (g + momentum * v))

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        momentum (float): >= 0. Default: ``0.0``.
        dampening (float): >= 0. Default: ``0.0``.
        weight_decay (Union[float, int]): Default: ``0.0``.
        nesterov (bool): needs ``momentum > 0`` and ``dampening == 0``. Default: ``False``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `momentum`, `dampening` is not a float, `nesterov` not a bool, or
            `weight_decay` is a Cell.
        ValueError: If `momentum` or `dampening` < 0, or `nesterov` without momentum or with dampening.
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: Any = 0.0, nesterov: bool = False, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = float(momentum) if isinstance(momentum, int) and not isinstance(momentum, bool) else momentum
        if not isinstance(momentum, float):
            raise TypeError(f"For 'SGD', the argument 'momentum' must be float type, but got {type(momentum)}.")
        if momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}.")
        dampening = float(dampening) if isinstance(dampening, int) and not isinstance(dampening, bool) else dampening
        if not isinstance(dampening, float):
            raise TypeError(f"For 'SGD', the argument 'dampening' must be float type, but got {type(dampening)}.")
        if dampening < 0.0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, but got 'dampening' {dampening}")
        check_bool(nesterov, "nesterov", self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             f"equal to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}.")
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument "
                            "'weight_decay' or 'weight_decay' set in grouped 'params' must be float or int type.")
        self.dampening = dampening
        self.nesterov = nesterov
        self.opt = optimizer_ops.SGD(dampening, 0.0, nesterov)
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.stat = self.parameters.clone(prefix="stat", init="ones")

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        gradients = self._preprocess_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for lr_i, gradient, param, accum, stat in zip(self._lr_per_parameter(lr), gradients, self.parameters,
                                                      self.accum, self.stat):
            self.opt(param, gradient, lr_i, accum, self.momentum, stat)
            success += (True,)
        return success
