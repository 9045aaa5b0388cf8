"""``nn.FTRL``: the follow-the-regularized-leader optimizer (McMahan et al.), MindSpore's ``ApplyFtrl`` update."""
from __future__ import annotations

from typing import Any

from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool, check_float
from npspore.ops import functional as F
from npspore.jit import jit

__all__ = ["FTRL"]


class FTRL(Optimizer):
    r"""FTRL: per Parameter the accumulated squared gradients ``moments`` (filled with `initial_accum`) and the
    ``linear`` term; with :math:`p` = `lr_power` (<= 0) and :math:`\alpha` the learning rate

    .. math::
        m' = m + g^2, \quad u' = u + g - \frac{m'^{-p} - m^{-p}}{\alpha} w, \quad
        w' = \frac{\operatorname{sign}(u') l_1 - u'}{m'^{-p} / \alpha + 2 l_2} \text{ if } |u'| > l_1 \text{ else } 0.

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters`` (no group learning rate).
        initial_accum (float): the initial ``moments``, >= 0. Default: ``0.1``.
        learning_rate (float): a fixed positive float. Default: ``0.001``.
        lr_power (float): <= 0. Default: ``-0.5``.
        l1 (float), l2 (float): the regularization strengths, >= 0. Default: ``0.0`` each.
        use_locking (bool): accepted (updates run one at a time). Default: ``False``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Raises:
        TypeError: If an argument has the wrong type. ValueError: If one is out of range, or the learning rate is
            dynamic or per group (MindSpore's messages).
    """

    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: Any = 0.001, lr_power: float = -0.5,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not supported "
                             f"in FTRL, they should all be false, but got dynamic learning rate {self.dynamic_lr} and"
                             f" group learning rate {self.is_group_lr}.")
        for name, value in (("initial_accum", initial_accum), ("learning_rate", learning_rate),
                            ("lr_power", lr_power), ("l1", l1), ("l2", l2)):
            if not isinstance(value, float):
                raise TypeError(f"For 'FTRL', the type of '{name}' should be 'float', but got type "
                                f"'{type(value).__name__}'.")
        check_float(initial_accum, "initial_accum", self.cls_name)
        check_float(learning_rate, "learning_rate", self.cls_name, positive=True)
        if lr_power > 0:
            raise ValueError(f"For 'FTRL', the argument 'lr_power' must <= 0.0, but got {lr_power}.")
        self.l1, self.l2 = check_float(l1, "l1", self.cls_name), check_float(l2, "l2", self.cls_name)
        self.lr_power, self.use_locking = lr_power, check_bool(use_locking, "use_locking", self.cls_name)
        self.moments = self.parameters.clone(prefix="moments", init=initial_accum)
        self.linear = self.parameters.clone(prefix="linear", init="zeros")

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, grads):
        grads = self._preprocess_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for param, moment, linear, grad in zip(self.parameters, self.moments, self.linear, grads):
            new_moment = moment + grad * grad
            grown = F.pow(new_moment, -self.lr_power)
            new_linear = linear + grad - (grown - F.pow(moment, -self.lr_power)) / lr * param
            quadratic = grown / lr + 2.0 * self.l2
            kept = F.abs(new_linear) > self.l1
            F.assign(param, F.select(kept, (F.sign(new_linear) * self.l1 - new_linear) / quadratic, param * 0))
            F.assign(moment, new_moment)
            F.assign(linear, new_linear)
            success += (True,)
        return success
