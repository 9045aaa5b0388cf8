"""The shape and the element count of a Tensor as ``ops.shape``/``ops.size`` and the primitives ``Shape``/``Size``
give them: eagerly its ``shape``/``size``; in compiled code, as the caller's own ``x.shape``/``x.size`` reads them,
so a dim known only when the kernel runs (``set_inputs`` with ``None``) is read then, not npspore's own layers'
``-1`` (``compiler/dynamicdims.py``)."""
from __future__ import annotations

from typing import Any

from ..compiler.library import LIBRARY


class _ShapeOf:
    """``shape_of(x)``: ``x.shape``."""

    def __call__(self, input_x):
        return input_x.shape


class _SizeOf:
    """``size_of(x)``: ``x.size``."""

    def __call__(self, input_x):
        return input_x.size


shape_of = _ShapeOf()
size_of = _SizeOf()


def _stage(query: Any, specializer: Any, args: tuple, kwargs: dict, loc: Any) -> Any:
    (input_x,) = (*args, *kwargs.values())
    if not hasattr(input_x, "aval"):   # not a value of the compiled code: a Tensor it holds
        return query(input_x)
    return specializer.run_time_shape(input_x) if query is shape_of else specializer.run_time_size(input_x)


LIBRARY.register_stager(_ShapeOf, _stage)
LIBRARY.register_stager(_SizeOf, _stage)
