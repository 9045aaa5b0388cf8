"""``LearningRateScheduler``: a callback that sets the optimizer's learning rate from a function of the
current rate and step, as MindSpore's does."""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ...common import dtype as mstype
from ...common.tensor import Tensor
from .callback import Callback, RunContext

__all__ = ["LearningRateScheduler"]


class LearningRateScheduler(Callback):
    """After each step, set the optimizer's learning rate to ``learning_rate_function(lr, cur_step_num)``.

    The current rate is read as MindSpore reads it, through its printed form (``float(np.array2string(lr))``,
    8 significant digits), and a new one is stored as float32 when it differs.

    Args:
        learning_rate_function (Callable[[float, int], float]): the new rate from the current one and the step
            number.

    Examples:
        >>> def learning_rate_function(lr, cur_step_num):
        ...     if cur_step_num % 1000 == 0:
        ...         lr = lr * 0.1
        ...     return lr
        >>> model.train(1, dataset, callbacks=[LearningRateScheduler(learning_rate_function)],
        ...             dataset_sink_mode=False)
    """

    def __init__(self, learning_rate_function: Callable[[float, int], float]) -> None:
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        """Set the new learning rate of this step."""
        cb_params = run_context.original_args()
        learning_rate = cb_params.optimizer.learning_rate
        lr = float(np.array2string(learning_rate.asnumpy()))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            learning_rate.set_data(Tensor(new_lr, mstype.float32))
