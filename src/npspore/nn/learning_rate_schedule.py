"""Learning-rate schedules, as ``mindspore.nn.learning_rate_schedule``: Cells of ``global_step``.

An optimizer given a schedule calls it with its ``global_step`` Parameter at every update. Each
schedule computes in float32 with MindSpore's formula; ``construct`` is in the compilable subset.
"""
from __future__ import annotations

import math

from npspore import ops
from npspore.common import dtype as mstype
from npspore.nn.cell import Cell
from npspore.nn.validation import check_bool, check_float, check_positive_int

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


def _floor(x):
    """``floor(x)`` of a float Tensor."""
    return x // 1.0


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)`` returns the rate of that step."""

    def construct(self, global_step):
        """The learning rate at ``global_step`` (an int Tensor); every subclass defines it."""
        raise NotImplementedError


class _DecayLR(LearningRateSchedule):
    """The shared arguments of the exponential, natural-exponential and inverse decays."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        check_positive_int(decay_steps, "decay_steps", self.cls_name)
        check_float(learning_rate, "learning_rate", self.cls_name, positive=True)
        check_float(decay_rate, "decay_rate", self.cls_name, positive=True)
        check_bool(is_stair, "is_stair", self.cls_name)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** p`` with ``p = global_step / decay_steps`` (floored if `is_stair`).

    Args:
        learning_rate (float): the initial rate, > 0.
        decay_rate (float): the decay factor, > 0.
        decay_steps (int): steps per decay period, > 0.
        is_stair (bool): whether ``p`` is floored. Default: ``False``.

    Inputs:
        - **global_step** (Tensor) - the current step (int).

    Outputs:
        Tensor, float32, of the shape of `global_step`.

    Raises:
        TypeError: If `learning_rate` or `decay_rate` is not a float, `decay_steps` not an int or
            `is_stair` not a bool.
        ValueError: If `decay_steps` < 1 or `learning_rate`/`decay_rate` <= 0.
    """

    def construct(self, global_step):
        p = ops.cast(global_step, mstype.float32) / self.decay_steps
        if self.is_stair:
            p = _floor(p)
        return self.learning_rate * ops.pow(self.decay_rate, p)


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * e ** (-decay_rate * p)``, ``p = global_step`` (a multiple of `decay_steps`
    rounded down if `is_stair`). Arguments and errors as :class:`ExponentialDecayLR`."""

    def construct(self, global_step):
        p = ops.cast(global_step, mstype.float32)
        if self.is_stair:
            p = p // self.decay_steps * self.decay_steps
        return self.learning_rate * ops.pow(math.e, -self.decay_rate * p)


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * p)``, ``p = global_step / decay_steps`` (floored if
    `is_stair`). Arguments and errors as :class:`ExponentialDecayLR`."""

    def construct(self, global_step):
        p = ops.cast(global_step, mstype.float32) / self.decay_steps
        if self.is_stair:
            p = _floor(p)
        return self.learning_rate / (1 + self.decay_rate * p)


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * p))``, ``p = min(global_step, decay_steps) / decay_steps``.

    Args:
        min_lr (float): the final rate, >= 0.
        max_lr (float): the initial rate, > `min_lr`.
        decay_steps (int): steps to reach `min_lr`, > 0.

    Inputs:
        - **global_step** (Tensor) - the current step (int).

    Outputs:
        Tensor, float32.

    Raises:
        TypeError: If `min_lr` or `max_lr` is not a float or `decay_steps` is not an int.
        ValueError: If `min_lr` < 0, `decay_steps` < 1 or `min_lr` >= `max_lr`.
    """

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        check_float(min_lr, "min_lr", self.cls_name)
        check_float(max_lr, "max_lr", self.cls_name, positive=True)
        check_positive_int(decay_steps, "decay_steps", self.cls_name)
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', but got "
                             f"'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        p = ops.cast(ops.minimum(global_step, self.decay_steps), mstype.float32)
        return self.min_lr + self.delta * (1.0 + ops.sin(math.pi * (p / self.decay_steps + 0.5)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - p) ** power + end_learning_rate``, ``p = step / decay_steps``.

    The step is capped at `decay_steps`, or, with `update_decay_steps`, `decay_steps` grows to the
    next multiple of itself that the step reaches.

    Args:
        learning_rate (float): the initial rate, > 0.
        end_learning_rate (float): the final rate, >= 0.
        decay_steps (int): steps of the decay, > 0.
        power (float): the exponent, > 0.
        update_decay_steps (bool): whether `decay_steps` is extended. Default: ``False``.

    Inputs:
        - **global_step** (Tensor) - the current step (int).

    Outputs:
        Tensor, float32.

    Raises:
        TypeError: If an argument has another type than above.
        ValueError: If a value is outside the ranges above.
    """

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        check_float(learning_rate, "learning_rate", self.cls_name, positive=True)
        check_float(end_learning_rate, "end_learning_rate", self.cls_name)
        check_positive_int(decay_steps, "decay_steps", self.cls_name)
        check_bool(update_decay_steps, "update_decay_steps", self.cls_name)
        check_float(power, "power", self.cls_name, positive=True)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = ops.cast(global_step, mstype.float32)
        decay_steps = self.decay_steps
        if self.update_decay_steps:
            decay_steps = decay_steps * ops.maximum(-_floor(-(step / decay_steps)), 1)
        else:
            step = ops.minimum(step, decay_steps)
        p = step / decay_steps
        return self.diff_learning_rate * ops.pow(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(global_step, warmup_steps) / warmup_steps``.

    Args:
        learning_rate (float): the rate reached after warm-up, >= 0.
        warmup_steps (int): steps of the warm-up, > 0.

    Inputs:
        - **global_step** (Tensor) - the current step (int).

    Outputs:
        Tensor, float32.

    Raises:
        TypeError: If `learning_rate` is not a float or `warmup_steps` not an int.
        ValueError: If `learning_rate` < 0 or `warmup_steps` < 1.
    """

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        check_float(learning_rate, "learning_rate", self.cls_name)
        check_positive_int(warmup_steps, "warmup_steps", self.cls_name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step):
        warmup_percent = ops.cast(ops.minimum(global_step, self.warmup_steps), mstype.float32) / self.warmup_steps
        return self.learning_rate * warmup_percent
