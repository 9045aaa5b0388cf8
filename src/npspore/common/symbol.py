"""``mindspore.Symbol``: what a dynamic dimension of an input placeholder is known to be (its range, that it
is a multiple of ``divisor`` plus ``remainder``, or unique). ``Tensor(shape=[Symbol(divisor=8), 3], ...)`` is a
placeholder whose first dimension is dynamic (-1), as ``None`` makes it; MindSpore's compiler uses the
symbol's facts to simplify shape arithmetic, npspore's specializes on each call's actual shapes."""
from __future__ import annotations

__all__ = ["Symbol"]


class Symbol:
    """A dynamic dimension: at least ``min``, at most ``max`` (0: unbounded), ``divisor * N + remainder``.

    Args:
        max (int): Default: ``0``. min (int): positive. Default: ``1``. divisor (int): positive. Default: ``1``.
        remainder (int): in ``[0, divisor)``. Default: ``0``. unique (bool): Default: ``False``.

    Raises:
        TypeError: if an argument has the wrong type. ValueError: if ``min``/``divisor`` is not positive or
            ``remainder`` is outside ``[0, divisor)``.
    """

    def __init__(self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0,  # noqa: A002
                 unique: bool = False, **kwargs) -> None:
        for name, value, kind in (("max", max, int), ("min", min, int), ("divisor", divisor, int),
                                  ("remainder", remainder, int), ("unique", unique, bool)):
            if not isinstance(value, kind):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be {kind.__name__}, but got {type(value)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', "
                             f"but got {remainder}")
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self.id = id(self)

    def __str__(self) -> str:
        return str(self.to_dict())

    def to_dict(self) -> dict:
        """The facts that differ from the defaults (MindSpore's dictionary)."""
        facts: dict = {}
        if self.max > self.min:
            facts["max"] = self.max
        if self.min > self.divisor + self.remainder:
            facts["min"] = self.min
        if self.divisor != 1:
            facts["divisor"] = self.divisor
        if self.remainder != 0:
            facts["remainder"] = self.remainder
        if self.unique:
            facts["id"] = self.id
        return facts
