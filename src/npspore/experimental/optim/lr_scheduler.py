"""``mindspore.experimental.optim.lr_scheduler``: schedulers that set the learning rate of an
``experimental.optim`` optimizer's parameter groups between steps.

A scheduler writes each group's learning-rate Parameter (``optimizer.lrs``), which the optimizer's compiled
update reads at its next call. The arithmetic is MindSpore 2.10's, on float32 Tensors as in MindSpore (the epoch
a ``lr_lambda`` receives is a float32 Tensor); schedulers run eagerly, between steps.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from typing import Callable

import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...nn.optim.group_optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "ExponentialLR", "LambdaLR", "CosineAnnealingLR", "CyclicLR", "SequentialLR", "ReduceLROnPlateau"]


def _float32(value) -> Tensor:
    return Tensor(np.float32(value.asnumpy() if isinstance(value, Tensor) else value), mstype.float32)


def _checked_optimizer(optimizer, message: str) -> Optimizer:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(message.format(type(optimizer).__name__))
    return optimizer


class LRScheduler:
    """Base class of the epoch-driven schedulers: :meth:`step` advances ``last_epoch`` and writes
    :meth:`get_lr`'s rates into the groups.

    Args:
        optimizer (Optimizer): an ``experimental.optim`` optimizer.
        last_epoch (int): the epoch to resume after; ``-1`` starts afresh (recording each group's
            ``initial_lr``). Default: ``-1``.

    Raises:
        TypeError: if ``optimizer`` is not an ``experimental.optim`` optimizer or ``last_epoch`` not an int.
        ValueError: if ``last_epoch`` < -1.
        KeyError: if resuming (``last_epoch`` >= 0) and a group has no ``initial_lr``.
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        _checked_optimizer(optimizer, "{} is not an Optimizer")
        if not isinstance(last_epoch, int) or isinstance(last_epoch, bool):
            raise TypeError(f"For 'LRScheduler', the 'last_epoch' must be int, but got {type(last_epoch).__name__}.")
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        for index, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", _float32(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{index}] when resuming an "
                               "optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = _float32(last_epoch)
        self.step()

    def get_lr(self) -> list:
        """The groups' rates for ``last_epoch`` (each scheduler defines it)."""
        raise NotImplementedError

    def get_last_lr(self) -> list[Tensor]:
        """The rates the scheduler set last, one float32 Tensor per group."""
        return [_float32(lr) for lr in self._last_lr]

    def step(self, epoch: int | None = None) -> bool:
        """Advance one epoch (or jump to ``epoch``) and set the groups' rates.

        Returns:
            bool, True.
        """
        if epoch is None:
            self.last_epoch = self.last_epoch + 1
            values = self.get_lr()
        else:
            self.last_epoch = _float32(epoch)
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        for lr, value in zip(self._last_lr, values):
            ops.assign(lr, _float32(value))
        return True


class StepLR(LRScheduler):
    """Multiply each group's rate by ``gamma`` every ``step_size`` epochs.

    Args:
        optimizer (Optimizer): the optimizer.
        step_size (int): the period of the decay, in epochs.
        gamma (float): the factor. Default: ``0.1``.
        last_epoch (int): Default: ``-1``.

    Raises:
        TypeError: if ``step_size`` is not an int or ``gamma`` not a float.

    Examples:
        >>> scheduler = StepLR(optimizer, step_size=30, gamma=0.1)
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        if not isinstance(step_size, int):
            raise TypeError(f"For 'StepLR', the 'step_size' must be int, but got {type(step_size)}.")
        if not isinstance(gamma, float):
            raise TypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return [lr * 1. for lr in self._last_lr]
        return [lr * _float32(self.gamma) for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply each group's rate by ``gamma`` every epoch.

    Args:
        optimizer (Optimizer): the optimizer.
        gamma (float): the factor.
        last_epoch (int): Default: ``-1``.

    Raises:
        TypeError: if ``gamma`` is not a float.
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        if not isinstance(gamma, float):
            raise TypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0:
            return [lr * 1. for lr in self._last_lr]
        return [lr * _float32(self.gamma) for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class LambdaLR(LRScheduler):
    """Each group's rate is its initial rate times ``lr_lambda(epoch)``.

    Args:
        optimizer (Optimizer): the optimizer.
        lr_lambda (Union[Callable, list[Callable]]): the factor of an epoch (a float32 Tensor), or one per group.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: if a list of ``lr_lambda`` does not have one per group.

    Examples:
        >>> scheduler = LambdaLR(optimizer, lr_lambda=lambda epoch: 0.9 ** epoch)
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable | list, last_epoch: int = -1) -> None:
        _checked_optimizer(optimizer, "{} is not an Optimizer")
        groups = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != groups:
                raise ValueError(f"Expected {groups} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * groups
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return [base_lr * lr_lambda(self.last_epoch) for lr_lambda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class CosineAnnealingLR(LRScheduler):
    """Anneal each group's rate from its initial rate to ``eta_min`` along a cosine of period ``2 * T_max``.

    Args:
        optimizer (Optimizer): the optimizer.
        T_max (int): the half period, in epochs.
        eta_min (Union[float, int]): the lowest rate. Default: ``0.0``.
        last_epoch (int): Default: ``-1``.

    Raises:
        TypeError: if ``eta_min`` is not a float or int, or ``T_max`` not an int.
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if not isinstance(eta_min, (float, int)):
            raise TypeError(f"For 'CosineAnnealingLR', the 'eta_min' must be float or int, but got {type(eta_min)}.")
        if not isinstance(T_max, int):
            raise TypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got {type(T_max)}.")
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0:
            return [_float32(lr) * 1. for lr in self._last_lr]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            pct_pi = _float32(math.pi / self.T_max)
            return [lr + (base_lr - self.eta_min) * (1 - ops.cos(pct_pi)) / 2
                    for base_lr, lr in zip(self.base_lrs, self._last_lr)]
        return [(1 + ops.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + ops.cos(math.pi * (self.last_epoch - 1) / self.T_max)) * (lr - self.eta_min) + self.eta_min
                for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        return [self.eta_min + (base_lr - self.eta_min) * (1 + ops.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class CyclicLR(LRScheduler):
    """Cycle each group's rate between ``base_lr`` and ``max_lr``: up in ``step_size_up`` steps, down in
    ``step_size_down``; the amplitude scaled by ``mode`` (``'triangular'``: constant, ``'triangular2'``: halved each
    cycle, ``'exp_range'``: ``gamma ** step``) or by ``scale_fn``.

    Args:
        optimizer (Optimizer): the optimizer.
        base_lr (Union[float, list]): the lower rate (per group).
        max_lr (Union[float, list]): the upper rate (per group).
        step_size_up (int): Default: ``2000``.
        step_size_down (int, optional): Default: ``None`` (``step_size_up``).
        mode (str): Default: ``'triangular'``.
        gamma (float): the ``'exp_range'`` base. Default: ``1.0``.
        scale_fn (Callable, optional): a custom scale of the cycle (or the step, with ``scale_mode='iterations'``).
        scale_mode (str): ``'cycle'`` or ``'iterations'``. Default: ``'cycle'``.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: if ``mode`` is none of the three and ``scale_fn`` is None, or a list has not one value per
            group.
    """

    def __init__(self, optimizer: Optimizer, base_lr, max_lr, step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable | None = None, scale_mode: str = "cycle", last_epoch: int = -1) -> None:
        _checked_optimizer(optimizer, "{} is not an Optimizer")
        base_lrs = self._per_group(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                ops.assign(group["lr"], _float32(lr))
        self.max_lrs = [_float32(lr) for lr in self._per_group(optimizer, max_lr, "max_lr")]
        step_size_up = float(step_size_up)
        step_size_down = step_size_up if step_size_down is None else float(step_size_down)
        self.total_step_size = step_size_up + step_size_down
        self.step_up_ratio = step_size_up / self.total_step_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode if scale_fn is not None else ("iterations" if mode == "exp_range" else "cycle")
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [_float32(lr) for lr in base_lrs]

    @staticmethod
    def _per_group(optimizer: Optimizer, value, name: str) -> list:
        if isinstance(value, (list, tuple)):
            if len(value) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} values for {name}, got {len(value)}")
            return list(value)
        return [value] * len(optimizer.param_groups)

    def scale_fn(self, x):
        """The amplitude's scale at ``x`` (the cycle number or the step, per ``scale_mode``)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.
        if self.mode == "triangular2":
            return 1 / (2. ** (x - 1))
        return self.gamma ** x

    def get_lr(self) -> list:
        cycle = ops.floor(1 + self.last_epoch / self.total_step_size)
        x = 1. + self.last_epoch / self.total_step_size - cycle
        if x <= self.step_up_ratio:
            scale_factor = x / self.step_up_ratio
        else:
            scale_factor = (x - 1) / (self.step_up_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        return [base_lr + (max_lr - base_lr) * scale_factor * scale
                for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]


class SequentialLR:
    """Run ``schedulers`` one after another, switching at the epochs ``milestones``.

    Args:
        optimizer (Optimizer): the optimizer every scheduler drives.
        schedulers (list[LRScheduler]): the schedulers, in order.
        milestones (list[int]): the epochs where the next scheduler takes over (one fewer than schedulers).
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: if a scheduler drives another optimizer, or ``milestones`` is not one shorter than
            ``schedulers``.
    """

    def __init__(self, optimizer: Optimizer, schedulers: list, milestones: list, last_epoch: int = -1) -> None:
        for index, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
                                 f"got scheduler at index {index} is different from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones {len(milestones)}")
        self._schedulers = schedulers
        self.milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            ops.assign(group["lr"], group["initial_lr"])
        for scheduler in schedulers:
            scheduler.last_epoch = scheduler.last_epoch - 1
        schedulers[0].step()
        self._last_lr = schedulers[0]._last_lr

    def step(self) -> None:
        """Advance one epoch with the scheduler whose turn it is (restarting it at its milestone)."""
        self.last_epoch += 1
        index = bisect_right(self.milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self.milestones[index - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()

    def get_last_lr(self) -> list[Tensor]:
        """The rates set last, one float32 Tensor per group."""
        return [_float32(lr) for lr in self._last_lr]


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` when the metric given to :meth:`step` has not improved for more than
    ``patience`` steps.

    Args:
        optimizer (Optimizer): the optimizer.
        mode (str): ``'min'`` (lower is better) or ``'max'``. Default: ``'min'``.
        factor (float): the rates' factor, < 1. Default: ``0.1``.
        patience (int): steps without improvement tolerated. Default: ``10``.
        threshold (float): the least improvement that counts. Default: ``1e-4``.
        threshold_mode (str): ``'rel'`` (relative to the best) or ``'abs'``. Default: ``'rel'``.
        cooldown (int): steps after a reduction during which no improvement is awaited. Default: ``0``.
        min_lr (Union[float, list]): the lowest rate (per group). Default: ``0``.
        eps (float): a reduction smaller than this is skipped. Default: ``1e-8``.

    Raises:
        ValueError: if ``factor`` >= 1, ``mode`` or ``threshold_mode`` is unknown, or a list of ``min_lr`` has
            not one value per group.
        TypeError: if ``optimizer`` is not an ``experimental.optim`` optimizer.
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr=0,
                 eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        self.factor = factor
        self.optimizer = _checked_optimizer(optimizer, "Expected an `Optimizer`, but got type {}")
        groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != groups:
                raise ValueError(f"Expected {groups} min_lrs, got {len(min_lr)}")
            self.min_lrs = [_float32(lr) for lr in min_lr]
        else:
            self.min_lrs = [_float32(min_lr)] * groups
        if mode not in ("min", "max"):
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got {threshold_mode}.")
        self.mode, self.patience, self.threshold, self.threshold_mode = mode, patience, threshold, threshold_mode
        self.cooldown, self.eps = cooldown, eps
        self.mode_worse = float("inf") if mode == "min" else float("-inf")
        self.best = _float32(self.mode_worse)
        self.cooldown_counter = 0
        self.wait = 0
        self.last_epoch = 0
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self, metrics) -> bool:
        """Take the epoch's metric and reduce the rates when it has not improved for too long.

        Returns:
            bool, True.
        """
        self.last_epoch += 1
        current = _float32(metrics)
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        else:
            self.wait += 1
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.wait > self.patience:
            for lr, min_lr in zip(self._last_lr, self.min_lrs):
                old_lr = _float32(lr)
                new_lr = ops.maximum(old_lr * self.factor, min_lr)
                if old_lr > new_lr + self.eps:
                    ops.assign(lr, new_lr)
            self.cooldown_counter = self.cooldown
            self.wait = 0
        return True

    def in_cooldown(self) -> bool:
        """Whether a reduction's cooldown is running."""
        return self.cooldown_counter > 0

    def _is_improvement(self, current: Tensor, best: Tensor) -> bool:
        if self.mode == "min":
            benchmark = best * (1. - self.threshold) if self.threshold_mode == "rel" else best - self.threshold
            return bool(current < benchmark)
        benchmark = best * (self.threshold + 1.) if self.threshold_mode == "rel" else best + self.threshold
        return bool(current > benchmark)

    def get_last_lr(self) -> list[Tensor]:
        """The groups' current rates, one float32 Tensor per group."""
        return [_float32(lr) for lr in self._last_lr]
