"""``Normal``: the normal distribution of MindSpore's ``nn.probability.distribution``."""
from __future__ import annotations

import math
from typing import Any

from ....common import dtype as mstype
from ....common.tensor import Tensor
from ....ops import array_functional as A
from ....ops import functional as F
from .distribution import HALF_LOG_TWO_PI, Distribution

__all__ = ["Normal"]


class Normal(Distribution):
    """The normal distribution of `mean` and standard deviation `sd` (see :class:`Distribution`).

    Args:
        mean (Union[int, float, list, numpy.ndarray, Tensor], optional): the mean. Default: ``None``.
        sd (Union[int, float, list, numpy.ndarray, Tensor], optional): the standard deviation, positive.
            Default: ``None``.
        seed (int, optional): recorded. Default: ``None``.
        dtype (mindspore.dtype): Default: ``mstype.float32``.
        name (str): Default: ``'Normal'``.

    Raises:
        ValueError: If `sd` is not positive.

    Examples:
        >>> n1 = msd.Normal(3.0, 4.0, dtype=mindspore.float32)
        >>> n1.prob(Tensor([1.0, 2.0, 3.0], dtype=mindspore.float32)).shape
        (3,)
    """

    def __init__(self, mean: Any = None, sd: Any = None, seed: int | None = None, dtype: mstype.Type = mstype.float32,
                 name: str = "Normal") -> None:
        super().__init__((mean, sd), ("mean", "sd"), seed, dtype, name)
        if self._values[1] is not None and bool((self._values[1] <= 0).any()):
            raise ValueError("Standard deviation must be greater than zero.")

    def __str__(self) -> str:
        mean, sd = self._values
        if mean is None or sd is None:
            return "Normal()"
        return f"Normal(mean = {mean}, standard deviation = {sd})"

    def log_prob(self, value, mean=None, sd=None) -> Tensor:
        """``-(value - mean)^2 / (2 sd^2) - log(sd) - log(2 pi) / 2``."""
        mean, sd = self._given_or_own(mean, sd)
        value = self._as_tensor(value)
        return -((value - mean) ** 2) / (2 * sd * sd) - sd.log() - HALF_LOG_TWO_PI

    def cdf(self, value, mean=None, sd=None) -> Tensor:
        """``(1 + erf((value - mean) / (sd sqrt(2)))) / 2``."""
        mean, sd = self._given_or_own(mean, sd)
        return 0.5 * (1 + F.erf((self._as_tensor(value) - mean) / (sd * math.sqrt(2.0))))

    def mean(self, mean=None, sd=None) -> Tensor:
        """The mean, broadcast over the parameters."""
        mean, sd = self._given_or_own(mean, sd)
        return mean + sd * 0

    def mode(self, mean=None, sd=None) -> Tensor:
        """The mode: the mean."""
        return self.mean(mean, sd)

    def sd(self, mean=None, sd=None) -> Tensor:
        """The standard deviation, broadcast over the parameters."""
        mean, sd = self._given_or_own(mean, sd)
        return sd + mean * 0

    def entropy(self, mean=None, sd=None) -> Tensor:
        """``log(sd) + log(2 pi e) / 2``."""
        return self.sd(mean, sd).log() + (HALF_LOG_TWO_PI + 0.5)

    def kl_loss(self, dist: str, mean_b, sd_b, mean=None, sd=None) -> Tensor:
        """The KL divergence from this normal (its `mean`/`sd` or its own) to the normal of `mean_b` and `sd_b`."""
        self._check_dist(dist)
        mean_a, sd_a = self._given_or_own(mean, sd)
        mean_b, sd_b = self._as_tensor(mean_b), self._as_tensor(sd_b)
        return (sd_b / sd_a).log() + (sd_a * sd_a + (mean_a - mean_b) ** 2) / (2 * sd_b * sd_b) - 0.5

    def sample(self, shape: tuple[int, ...] = (), mean=None, sd=None) -> Tensor:
        """Samples of ``shape + batch shape``, from npspore's global generator."""
        mean, sd = self._given_or_own(mean, sd)
        draws = A.standard_normal(tuple(shape) + self._batch_shape(mean, sd))
        return (draws.astype(self.dtype) * sd + mean).astype(self.dtype)
