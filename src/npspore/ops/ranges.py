"""``ops.range``: in a module of its own, since its name would hide the builtin ``range`` from the
functions of a module it shared."""
from __future__ import annotations

from typing import Any

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .array_functional import arange

__all__ = ["range"]


def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> Tensor:
    """``start, start + step, ...`` below ``end`` (MindSpore 2.10's ``ops.range``): Int64 when all three are
    integers, Float32 when all are floats; a Tensor argument must hold one element. ``maxlen`` is MindSpore's
    memory hint, not a limit on the CPU (it does not raise there either).

    Raises:
        TypeError: if the arguments mix integers and floats.
        ValueError: if ``step`` is 0 or points away from ``end``, or a Tensor argument has several elements.
    """
    numbers = []
    for value in (start, end, step):
        if isinstance(value, Tensor):
            if value.size != 1:
                raise ValueError(f"Can only convert tensor with one element to number, but got {value!r}")
            value = value.asnumpy().item()
        numbers.append(value)
    kinds = ["Int64" if isinstance(v, int) and not isinstance(v, bool) else "Float32" for v in numbers]
    if len(set(kinds)) != 1:
        raise TypeError(f"For Range, the dtypes of inputs must be the same, but got ({', '.join(kinds)}).")
    start, end, step = numbers
    if step == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if end < start and step > 0:
        raise ValueError("For Range, delta cannot be positive when limit < start.")
    if end > start and step < 0:
        raise ValueError("For Range, delta cannot be negative when limit > start.")
    return arange(start, end, step, dtype=mstype.int64 if kinds[0] == "Int64" else mstype.float32)
