"""``nn.Adagrad``: the adaptive-subgradient optimizer."""
from __future__ import annotations

from typing import Any

from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool, check_float
from npspore.ops.optimizer_ops import ApplyAdagrad
from npspore.jit import jit

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad: each Parameter's step is divided by the root of its accumulated squared gradients
    (the state ``accum.<name>``, filled with `accum` at first).

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        accum (float): the initial accumulator value, >= 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        update_slots (bool): whether the accumulator is updated. Default: ``True``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `accum` is not a float or `update_slots` not a bool.
        ValueError: If `accum` < 0.
    """

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, update_slots: bool = True,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_float(accum, "accum", self.cls_name)
        self.update_slots = check_bool(update_slots, "update_slots", self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=accum)
        self.opt = ApplyAdagrad(update_slots=update_slots)

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, grads):
        grads = self._preprocess_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for lr_i, param, accum, grad in zip(self._lr_per_parameter(lr), self.parameters, self.accum, grads):
            self.opt(param, accum, lr_i, grad)
            success += (True,)
        return success
