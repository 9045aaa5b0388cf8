"""The typing protocol of a Cell call: what mypy reads so that ``net(x)`` and ``jit(net)`` have real types.

A Cell call runs ``construct``, so its parameters and return type are those of the subclass's
``construct``: ``Cell.__call__`` annotates ``self`` as :class:`Constructs` and mypy binds ``P`` and
``R`` from the instance's own ``construct``.
"""
from __future__ import annotations

from typing import ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Constructs(Protocol[P, R_co]):
    """An object with a ``construct`` method (a Cell); calling it takes and returns what ``construct`` does."""

    def construct(self, *args: P.args, **kwargs: P.kwargs) -> R_co:
        """The computation of the Cell."""
        ...
