"""Learning-rate lists, as ``mindspore.nn.dynamic_lr``: one Python float per step.

Pass the list as an optimizer's ``learning_rate``: step ``i`` uses the ``i``-th value. Each function
follows MindSpore's formula with ``current_epoch = floor(i / step_per_epoch)``.
"""
from __future__ import annotations

import math

from npspore.nn.validation import check_bool, check_float, check_positive_int

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def _check_positive_float(value, arg_name, fn_name):
    """A float > 0 (ints are refused, as MindSpore's ``check_is_float`` does)."""
    return check_float(value, arg_name, fn_name, positive=True)


def _check_steps(fn_name, **counts):
    for arg_name, value in counts.items():
        check_positive_int(value, arg_name, fn_name)


def piecewise_constant_lr(milestone, learning_rates):
    """``learning_rates[i]`` for the steps from ``milestone[i-1]`` up to ``milestone[i]``.

    Args:
        milestone (Union[list[int], tuple[int]]): increasing step counts, > 0.
        learning_rates (Union[list[float], tuple[float]]): one rate per milestone.

    Returns:
        list[float] of ``milestone[-1]`` rates.

    Raises:
        TypeError: If an argument is not a list or tuple, or an element has the wrong type.
        ValueError: If the lengths differ or `milestone` decreases.

    Examples:
        >>> nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01])
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    """
    for arg_name, value in (("milestone", milestone), ("learning_rates", learning_rates)):
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"For 'piecewise_constant_lr', the '{arg_name}' must be list or tuple, but got "
                            f"{type(value).__name__}.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of "
                         f"'learning_rates', but got 'milestone' size: {len(milestone)}, 'learning_rates' size: "
                         f"{len(learning_rates)}.")
    lr = []
    last_item = 0
    for i, item in enumerate(milestone):
        check_positive_int(item, f"milestone[{i}]", "piecewise_constant_lr")
        check_float(learning_rates[i], f"learning_rates[{i}]", "piecewise_constant_lr")
        if item < last_item:
            raise ValueError(f"For 'piecewise_constant_lr', the value of milestone[{i}] must be greater than "
                             f"milestone[{i - 1}], but got milestone[{i}]: {milestone[i]}, milestone[{i - 1}]: "
                             f"{milestone[i - 1]}.")
        lr += [learning_rates[i]] * (item - last_item)
        last_item = item
    return lr


def _check_decay(fn_name, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    _check_steps(fn_name, total_step=total_step, step_per_epoch=step_per_epoch, decay_epoch=decay_epoch)
    _check_positive_float(learning_rate, "learning_rate", fn_name)
    _check_positive_float(decay_rate, "decay_rate", fn_name)
    check_bool(is_stair, "is_stair", fn_name)


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``learning_rate * decay_rate ** (current_epoch / decay_epoch)`` (exponent floored if `is_stair`).

    Args:
        learning_rate (float): > 0.
        decay_rate (float): > 0.
        total_step (int): the number of steps (the list length).
        step_per_epoch (int): steps per epoch.
        decay_epoch (int): epochs per decay period.
        is_stair (bool): Default: ``False``.

    Returns:
        list[float].

    Raises:
        TypeError, ValueError: If an argument has the wrong type or is not positive.
    """
    _check_decay("exponential_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        exponent = math.floor(i / step_per_epoch) / decay_epoch
        lr.append(learning_rate * decay_rate ** (math.floor(exponent) if is_stair else exponent))
    return lr


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``learning_rate * e ** (-decay_rate * current_epoch)`` (the epoch rounded down to a multiple of
    `decay_epoch` if `is_stair`). Arguments as :func:`exponential_decay_lr`.

    Returns:
        list[float].
    """
    _check_decay("natural_exp_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        lr.append(learning_rate * math.e ** (-decay_rate * epoch))
    return lr


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``learning_rate / (1 + decay_rate * current_epoch / decay_epoch)`` (the ratio floored if
    `is_stair`). Arguments as :func:`exponential_decay_lr`.

    Returns:
        list[float].
    """
    _check_decay("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            lr.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            lr.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return lr


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(current_epoch, decay_epoch) / decay_epoch))``.

    Args:
        min_lr (float): >= 0.
        max_lr (float): > `min_lr`.
        total_step (int): the number of steps.
        step_per_epoch (int): steps per epoch.
        decay_epoch (int): epochs to reach `min_lr`.

    Returns:
        list[float].

    Raises:
        TypeError, ValueError: If an argument has the wrong type or range, or `min_lr` >= `max_lr`.
    """
    check_float(min_lr, "min_lr", "cosine_decay_lr")
    _check_positive_float(max_lr, "max_lr", "cosine_decay_lr")
    _check_steps("cosine_decay_lr", total_step=total_step, step_per_epoch=step_per_epoch, decay_epoch=decay_epoch)
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' "
                         f"value: {max_lr}, 'min_lr' value: {min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    lr = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        lr.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return lr


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """``(learning_rate - end_learning_rate) * (1 - epoch / decay_epoch) ** power + end_learning_rate``.

    The epoch is capped at `decay_epoch`, or, with `update_decay_epoch`, `decay_epoch` becomes the
    smallest multiple of itself (at least once) that is >= the epoch.

    Args:
        learning_rate (float): > 0.
        end_learning_rate (float): >= 0.
        total_step (int): the number of steps.
        step_per_epoch (int): steps per epoch.
        decay_epoch (int): epochs of the decay.
        power (float): > 0.
        update_decay_epoch (bool): Default: ``False``.

    Returns:
        list[float].

    Raises:
        TypeError, ValueError: If an argument has the wrong type or range.
    """
    fn_name = "polynomial_decay_lr"
    _check_positive_float(learning_rate, "learning_rate", fn_name)
    check_float(end_learning_rate, "end_learning_rate", fn_name)
    _check_positive_float(power, "power", fn_name)
    _check_steps(fn_name, total_step=total_step, step_per_epoch=step_per_epoch, decay_epoch=decay_epoch)
    check_bool(update_decay_epoch, "update_decay_epoch", fn_name)
    delta = learning_rate - end_learning_rate
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            period = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            period, epoch = decay_epoch, min(epoch, decay_epoch)
        lr.append(delta * (1 - epoch / period) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """``learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch``.

    Args:
        learning_rate (float): >= 0.
        total_step (int): the number of steps.
        step_per_epoch (int): steps per epoch.
        warmup_epoch (int): epochs of the warm-up.

    Returns:
        list[float].

    Raises:
        TypeError, ValueError: If an argument has the wrong type or range.
    """
    check_float(learning_rate, "learning_rate", "warmup_lr")
    _check_steps("warmup_lr", warmup_epoch=warmup_epoch, total_step=total_step, step_per_epoch=step_per_epoch)
    return [learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch) / warmup_epoch
            for i in range(total_step)]
