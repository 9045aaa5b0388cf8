"""Transforms that apply other transforms at random: ``transforms.RandomChoice``, ``transforms.RandomApply`` and
``vision.RandomSelectSubpolicy``. Seeded, they draw MindSpore's numbers (``transform_draws``): the choice
``std::uniform_int_distribution``, a step taken when a canonical double is at most its probability."""
from __future__ import annotations

import numbers
from typing import Any, Callable, Sequence

from ..transform_draws import draws_for
from .transforms import Compose

__all__ = ["RandomChoice", "RandomApply", "RandomSelectSubpolicy"]


def _check_transforms(transforms):
    if not isinstance(transforms, list):
        raise TypeError(f"Argument transforms list with value {transforms} is not of type [<class 'list'>], but got "
                        f"{type(transforms)}.")
    if not transforms:
        raise ValueError("transforms list can not be empty.")
    for transform in transforms:
        if not callable(transform):
            raise TypeError(f"transforms[{transforms.index(transform)}] is neither a transforms op (TensorOperation) "
                            f"nor a callable pyfunc.")
    return transforms


def _check_prob(prob, name="prob"):
    if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0 <= prob <= 1:
        raise ValueError(f"Input {name} is not within the required interval of [0, 1].")
    return float(prob)


class RandomChoice:
    """Apply one of ``transforms``, chosen uniformly at each call.

    Args:
        transforms (list): the transforms (callables).

    Raises:
        TypeError: If `transforms` is not a list of callables.
        ValueError: If it is empty.
    """

    random = True          # draws through ``transform_draws``

    def __init__(self, transforms: list[Callable[..., Any]]) -> None:
        self.transforms = _check_transforms(transforms)

    def __call__(self, *inputs):
        return self.transforms[draws_for(self).integer(0, len(self.transforms) - 1)](*inputs)


class RandomApply:
    """Apply ``transforms`` in turn with probability ``prob``, else pass the input through.

    Args:
        transforms (list): the transforms (callables).
        prob (float): in [0, 1]. Default: ``0.5``.
    """

    random = True          # draws through ``transform_draws``

    def __init__(self, transforms: list[Callable[..., Any]], prob: float = 0.5) -> None:
        self.transforms = _check_transforms(transforms)
        self.prob = _check_prob(prob)
        self._compose = Compose(self.transforms)

    def __call__(self, *inputs):
        if draws_for(self).canonical() <= self.prob:
            return self._compose(*inputs)
        return inputs[0] if len(inputs) == 1 else inputs


class RandomSelectSubpolicy:
    """Choose one sub-policy of ``policy`` uniformly at each call and apply its ``(op, prob)`` steps in turn, each
    with its probability.

    Args:
        policy (list[list[tuple]]): sub-policies, each a list of ``(op, prob)`` pairs.

    Raises:
        ValueError: If `policy` or a sub-policy is empty, a step is not a pair, or a probability is outside [0, 1].
        TypeError: If an op is not callable.
    """

    random = True          # draws through ``transform_draws``

    def __init__(self, policy: Sequence[Sequence[tuple[Callable[..., Any], float]]]) -> None:
        if not policy:
            raise ValueError("policy can not be empty.")
        for i, subpolicy in enumerate(policy):
            if not subpolicy:
                raise ValueError(f"policy[{i}] can not be empty.")
            for j, step in enumerate(subpolicy):
                if not isinstance(step, tuple) or len(step) != 2:
                    raise ValueError(f"Value policy[{i}][{j}] needs to be a 2-tuple.")
                if not callable(step[0]):
                    raise TypeError(f"op of (op, prob) in policy[{i}][{j}] is neither a transforms op "
                                    f"(TensorOperation) nor a callable pyfunc.")
                _check_prob(step[1], f"prob of (op, prob) policy[{i}][{j}]")
        self.policy = [list(subpolicy) for subpolicy in policy]

    def __call__(self, *inputs):
        outputs = inputs
        draws = draws_for(self)
        for op, prob in self.policy[draws.integer(0, len(self.policy) - 1)]:
            if draws.canonical() <= prob:
                outputs = op(*outputs)
                if not isinstance(outputs, tuple):
                    outputs = (outputs,)
        return outputs[0] if len(outputs) == 1 else outputs
