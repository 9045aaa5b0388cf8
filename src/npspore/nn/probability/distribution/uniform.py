"""``Uniform``: the continuous uniform distribution of MindSpore's ``nn.probability.distribution``."""
from __future__ import annotations

import math
from typing import Any

from ....common import dtype as mstype
from ....common.tensor import Tensor
from ....ops import array_functional as A
from ....ops.eager import run
from .distribution import Distribution

__all__ = ["Uniform"]


class Uniform(Distribution):
    """The uniform distribution on [`low`, `high`] (see :class:`Distribution`).

    Args:
        low (Union[int, float, list, numpy.ndarray, Tensor], optional): the lower end. Default: ``None``.
        high (Union[int, float, list, numpy.ndarray, Tensor], optional): the upper end, above `low`.
            Default: ``None``.
        seed (int, optional): recorded. Default: ``None``.
        dtype (mindspore.dtype): Default: ``mstype.float32``.
        name (str): Default: ``'Uniform'``.

    Raises:
        ValueError: If `low` is not below `high`.
        NotImplementedError: For :meth:`mode`, which a uniform distribution has not.
    """

    def __init__(self, low: Any = None, high: Any = None, seed: int | None = None, dtype: mstype.Type = mstype.float32,
                 name: str = "Uniform") -> None:
        super().__init__((low, high), ("low", "high"), seed, dtype, name)
        low, high = self._values
        if low is not None and high is not None and bool((low >= high).any()):
            raise ValueError("low must be less than high")

    def __str__(self) -> str:
        low, high = self._values
        if low is None or high is None:
            return "Uniform()"
        return f"Uniform(low = {low}, high = {high})"

    def log_prob(self, value, low=None, high=None) -> Tensor:
        """``-log(high - low)`` inside [low, high], ``-inf`` outside."""
        low, high = self._given_or_own(low, high)
        value = self._as_tensor(value)
        inside = (value >= low) & (value <= high)
        return run("where", inside, -(high - low).log() + value * 0, -math.inf + value * 0)

    def cdf(self, value, low=None, high=None) -> Tensor:
        """``(value - low) / (high - low)``, clipped to [0, 1]."""
        low, high = self._given_or_own(low, high)
        return run("clip", (self._as_tensor(value) - low) / (high - low), 0.0, 1.0)

    def mean(self, low=None, high=None) -> Tensor:
        """``(low + high) / 2``."""
        low, high = self._given_or_own(low, high)
        return (low + high) / 2

    def mode(self, low=None, high=None) -> Tensor:
        """A uniform distribution has no mode: NotImplementedError, as MindSpore's."""
        raise NotImplementedError("mode is not implemented for Uniform distribution.")

    def sd(self, low=None, high=None) -> Tensor:
        """``(high - low) / sqrt(12)``."""
        low, high = self._given_or_own(low, high)
        return (high - low) / math.sqrt(12.0)

    def var(self, low=None, high=None) -> Tensor:
        """``(high - low)^2 / 12``."""
        low, high = self._given_or_own(low, high)
        return (high - low) ** 2 / 12.0

    def entropy(self, low=None, high=None) -> Tensor:
        """``log(high - low)``."""
        low, high = self._given_or_own(low, high)
        return (high - low).log()

    def kl_loss(self, dist: str, low_b, high_b, low=None, high=None) -> Tensor:
        """``log((high_b - low_b) / (high - low))`` when [low, high] lies within [low_b, high_b], else ``inf``."""
        self._check_dist(dist)
        low_a, high_a = self._given_or_own(low, high)
        low_b, high_b = self._as_tensor(low_b), self._as_tensor(high_b)
        kl = (high_b - low_b).log() - (high_a - low_a).log()
        inside = (low_b <= low_a) & (high_a <= high_b)
        return run("where", inside, kl, math.inf + kl * 0)

    def sample(self, shape: tuple[int, ...] = (), low=None, high=None) -> Tensor:
        """Samples of ``shape + batch shape``, from npspore's global generator."""
        low, high = self._given_or_own(low, high)
        unit = A.uniform(tuple(shape) + self._batch_shape(low, high), Tensor(0.0), Tensor(1.0))
        return (unit.astype(self.dtype) * (high - low) + low).astype(self.dtype)
