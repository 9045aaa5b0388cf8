"""``Distribution``: what MindSpore's distributions share, their two parameters given at construction or per call.

A distribution built without a parameter needs it in every call; one built with it uses it unless a call gives
another. The functions of values (``prob``, ``log_prob``, ``cdf``, ``log_cdf``, ``survival_function``,
``log_survival``) and of the distribution (``mean``, ``mode``, ``sd``, ``var``, ``entropy``, ``kl_loss``,
``cross_entropy``, ``sample``) are compositions of differentiable ops, computed in the distribution's dtype and
broadcast over the parameters' shapes.
"""
from __future__ import annotations

import math
from typing import Any

from ....common import dtype as mstype
from ....common.tensor import Tensor
from ...cell import Cell

__all__ = ["Distribution"]


class Distribution(Cell):
    """Base of the distributions with parameters named ``names`` (see the module doc).

    Args:
        params (tuple): the parameters (numbers, Tensors or ``None``).
        names (tuple[str, ...]): their names, in messages.
        seed (int, optional): recorded; npspore's samples draw from its global generator.
        dtype (mindspore.dtype): a float type. Default: ``mstype.float32``.
        name (str): the distribution's name.
    """

    # the dtypes a distribution's samples may have, and the dtype its parameters compute in (None: the samples')
    _SAMPLE_TYPES = mstype.float_type
    _PARAMETER_TYPE = None

    def __init__(self, params: tuple, names: tuple[str, str], seed: int | None, dtype: mstype.Type,
                 name: str) -> None:
        super().__init__()
        if dtype not in self._SAMPLE_TYPES:
            raise TypeError(f"For {name}, the dtype should be a float type, but got {dtype}.")
        self.names, self.seed, self.dtype, self.name = names, seed, dtype, name
        self.parameters = dict(zip(names, params))
        self._values = tuple(None if p is None else self._as_tensor(p) for p in params)

    def _as_tensor(self, value: Any) -> Tensor:
        dtype = self._PARAMETER_TYPE or self.dtype
        tensor = value if isinstance(value, Tensor) else Tensor(value, dtype)
        return tensor if tensor.dtype == dtype else tensor.astype(dtype)

    def _given_or_own(self, *given):
        """The parameters: those given, else the distribution's own."""
        out = []
        for value, default, name in zip(given + (None,) * (len(self._values) - len(given)), self._values,
                                        self.names):
            if value is None:
                value = default
            if value is None:
                raise TypeError(f"the type {name} must be subclass of Tensor. It can not be None since it is not "
                                f"specified during initialization.")
            out.append(self._as_tensor(value))
        return tuple(out)

    def _check_dist(self, dist):
        if dist != self.name:
            raise ValueError(f"Expected dist input is {self.name}, but got {dist}.")

    def get_dist_type(self) -> str:
        """The distribution's name, ``'Normal'`` or ``'Uniform'``."""
        return self.name

    def get_dist_args(self, *params) -> tuple[Tensor, Tensor]:
        """The parameters (the given ones, else the distribution's)."""
        return self._given_or_own(*params)

    def prob(self, value, *params) -> Tensor:
        """The density at `value`."""
        return self.log_prob(value, *params).exp()

    def log_cdf(self, value, *params) -> Tensor:
        """The log of the cumulative distribution at `value`."""
        return self.cdf(value, *params).log()

    def survival_function(self, value, *params) -> Tensor:
        """``1 - cdf(value)``."""
        return 1 - self.cdf(value, *params)

    def log_survival(self, value, *params) -> Tensor:
        """The log of :meth:`survival_function`."""
        return self.survival_function(value, *params).log()

    def var(self, *params) -> Tensor:
        """The variance: ``sd ** 2``."""
        return self.sd(*params) ** 2

    def cross_entropy(self, dist: str, param_b0, param_b1, *params) -> Tensor:
        """The cross entropy of this distribution (the given `params` or its own) to `dist`'s: its entropy plus
        :meth:`kl_loss`."""
        return self.entropy(*params) + self.kl_loss(dist, param_b0, param_b1, *params)

    def _batch_shape(self, first, second):
        return tuple((first + second * 0).shape)

    def construct(self, name: str, *args):
        """Call the function `name` (``'prob'``, ``'mean'`` ...) with `args`, as MindSpore's ``Distribution``."""
        return getattr(self, name)(*args)


HALF_LOG_TWO_PI = 0.5 * math.log(2 * math.pi)
