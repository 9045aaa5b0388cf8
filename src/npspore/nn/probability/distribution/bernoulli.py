"""``Bernoulli``: the Bernoulli distribution of MindSpore's ``nn.probability.distribution``, with its formulas
(probabilities clamped to ``[eps, 1 - eps]`` in ``log_prob``; the variance as ``exp(log p + log(1 - p))``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ....common import dtype as mstype
from ....common.tensor import Tensor
from ....ops import array_functional as A
from ....ops import functional as F
from .distribution import Distribution

__all__ = ["Bernoulli"]

_EPS = float(np.finfo(np.float32).eps)


class Bernoulli(Distribution):
    """The distribution of {0, 1} taking 1 with probability `probs` (see :class:`Distribution`; one parameter).

    Args:
        probs (Union[float, list, numpy.ndarray, Tensor], optional): the probability of 1, in (0, 1).
            Default: ``None``.
        seed (int, optional): recorded. Default: ``None``.
        dtype (mindspore.dtype): the samples' type (the parameters compute in float32). Default: ``mstype.int32``.
        name (str): Default: ``'Bernoulli'``.

    Raises:
        ValueError: If `probs` is not in (0, 1).
    """

    _SAMPLE_TYPES = mstype.number_type
    _PARAMETER_TYPE = mstype.float32

    def __init__(self, probs: Any = None, seed: int | None = None, dtype: mstype.Type = mstype.int32,
                 name: str = "Bernoulli") -> None:
        super().__init__((probs,), ("probs",), seed, dtype, name)
        probs = self._values[0]
        if probs is not None and not bool((probs > 0).all()):
            raise ValueError("Probabilities must be greater than zero")
        if probs is not None and not bool((probs < 1).all()):
            raise ValueError("Probabilities must be less than one")

    def __str__(self) -> str:
        return "Bernoulli()" if self._values[0] is None else f"Bernoulli(probs = {self._values[0]})"

    @property
    def probs(self) -> Tensor:
        """The probability of 1 given at construction."""
        return self._values[0]

    def log_prob(self, value, probs1=None) -> Tensor:
        """``log(p) value + log(1 - p) (1 - value)``, ``p`` clamped to ``[eps, 1 - eps]``."""
        (probs1,) = self._given_or_own(probs1)
        probs1 = F.clip_by_value(probs1, _EPS, 1.0 - _EPS)
        value = self._as_tensor(value)
        return probs1.log() * value + (1.0 - probs1).log() * (1.0 - value)

    def cdf(self, value, probs1=None) -> Tensor:
        """0 below 0, ``1 - p`` on [0, 1), 1 from 1 on."""
        (probs1,) = self._given_or_own(probs1)
        value = F.floor(self._as_tensor(value))
        value, probs0 = value + probs1 * 0, (1.0 - probs1) + value * 0
        return F.select(value < 1.0, F.select(value < 0.0, F.zeros_like(value), probs0), F.ones_like(value))

    def mean(self, probs1=None) -> Tensor:
        """The mean: ``p``."""
        return self._given_or_own(probs1)[0]

    def mode(self, probs1=None) -> Tensor:
        """1 where ``p > 0.5``, else 0, in the distribution's dtype."""
        (probs1,) = self._given_or_own(probs1)
        return F.cast(probs1 > 0.5, self.dtype)

    def var(self, probs1=None) -> Tensor:
        """``p (1 - p)``, as ``exp(log(1 - p) + log(p))``."""
        (probs1,) = self._given_or_own(probs1)
        return ((1.0 - probs1).log() + probs1.log()).exp()

    def sd(self, probs1=None) -> Tensor:
        """The standard deviation: the root of :meth:`var`."""
        return F.sqrt(self.var(probs1))

    def entropy(self, probs1=None) -> Tensor:
        """``-(1 - p) log(1 - p) - p log(p)``."""
        (probs1,) = self._given_or_own(probs1)
        probs0 = 1.0 - probs1
        return -(probs0 * probs0.log()) - probs1 * probs1.log()

    def kl_loss(self, dist: str, probs1_b, probs1=None) -> Tensor:
        """The KL divergence from this distribution (its `probs1` or its own) to the Bernoulli of `probs1_b`."""
        self._check_dist(dist)
        probs1_b = self._as_tensor(probs1_b)
        (probs1_a,) = self._given_or_own(probs1)
        probs0_a, probs0_b = 1.0 - probs1_a, 1.0 - probs1_b
        return probs1_a * (probs1_a / probs1_b).log() + probs0_a * (probs0_a / probs0_b).log()

    def cross_entropy(self, dist: str, probs1_b, probs1=None) -> Tensor:
        """:meth:`entropy` plus :meth:`kl_loss`."""
        return self.entropy(probs1) + self.kl_loss(dist, probs1_b, probs1)

    def sample(self, shape: tuple[int, ...] = (), probs1=None) -> Tensor:
        """Samples of ``shape + batch shape`` in the distribution's dtype, from npspore's global generator."""
        (probs1,) = self._given_or_own(probs1)
        draws = A.uniform(tuple(shape) + tuple(probs1.shape), Tensor(0.0, mstype.float32),
                          Tensor(1.0, mstype.float32))
        return F.cast(draws < probs1, self.dtype)
