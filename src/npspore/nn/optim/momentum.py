"""``nn.Momentum``: SGD with momentum, MindSpore's ``ApplyMomentum`` update."""
from __future__ import annotations

from typing import Any

from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool
from npspore.ops.optimizer_ops import ApplyMomentum
from npspore.jit import jit

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """Stochastic gradient descent with momentum.

    For each Parameter ``p`` with gradient ``g`` (after weight decay and loss-scale division) and
    its state ``moments.<name>`` (``v``, zeros at first):

    .. math::
        v = momentum * v + g, \\quad p = p - lr * v
        \\quad (\\text{Nesterov: } p = p - (g * lr + v * momentum * lr))

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): as :class:`Optimizer`.
        momentum (float): the momentum, >= 0.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        use_nesterov (bool): Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter, in the order of `params`.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `momentum` is not a float or `use_nesterov` not a bool (and as :class:`Optimizer`).
        ValueError: If `momentum` < 0 (and as :class:`Optimizer`).
    """

    def __init__(self, params: Any, learning_rate: Any, momentum: float, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(momentum, float):
            raise TypeError(f"For 'Momentum', the type of 'momentum' must be float, but got "
                            f"'{type(momentum).__name__}'.")
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but got {momentum}")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self.parameters
        self.use_nesterov = check_bool(use_nesterov, "use_nesterov", self.cls_name)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.opt = ApplyMomentum(use_nesterov=self.use_nesterov)

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        gradients = self._preprocess_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for lr_i, gradient, param, moment in zip(self._lr_per_parameter(lr), gradients, self.params, self.moments):
            self.opt(param, moment, lr_i, gradient, self.momentum)
            success += (True,)
        return success
