"""Shape arguments holding sizes of dims compiled code knows only when it runs (``set_inputs`` with ``None``, a
masked selection): what specialize writes into an op's static attributes in their place.

User code reads such a dim as a ``dim_size`` value (``x.shape[0]``), npspore's own layers as an :class:`UnknownDim`
(a ``-1`` refusing arithmetic). In a static shape argument it becomes ``-1``, the dim a shape leaves to be inferred (``reshape``) or kept
(``broadcast_to``). A reshape of ``x`` keeps the dims of ``x`` it reads in place (``None`` in its shape, ONNX's
``0``): ``x.reshape(x.shape[0], -1)`` of a dynamic batch, ``x.reshape(x.shape[0], x.shape[1], 4, 2)`` of a dynamic
sequence and batch.
"""
from __future__ import annotations

from . import ir
from .errors import NotSupportedError


class UnknownDimUse(NotSupportedError):
    """What compiled code cannot do with the size of a dim known only when the kernel runs: a layer's arithmetic with
    :class:`UnknownDim`, a comprehension over its ``range`` (specialize locates it at the user's line)."""


class UnknownDim(int):
    """How npspore's own layers read a dim compiled code knows only when it runs: ``-1``, the value a shape argument
    leaves to be inferred (``reshape``) or kept (``broadcast_to``), comparable (``batch < 0``) but refusing
    arithmetic, whose result would silently be that of a dim of size ``-1`` (a roll by ``shift % -1``). It knows
    the value and axis it is the size of (``source``), so a loop over ``range`` of it runs as often as the dim is
    long (``calls.py``)."""

    def __new__(cls, source=None):
        dim = super().__new__(cls, -1)
        dim.source = source
        return dim

    def __reduce__(self):
        return int, (-1,)     # a copy (of a static argument holding it) is a plain -1

    def _refused(self, *_):
        raise UnknownDimUse("a layer's arithmetic on the size of a dim known only when the kernel runs "
                            "(set_inputs with None, a masked selection) is not supported in compiled code")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refused
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __rmod__ = _refused
    __pow__ = __rpow__ = __neg__ = __abs__ = _refused


UNKNOWN_DIM = UnknownDim()   # of no one value: a dynamic shape's element count


_INFERRED_OR_KEPT = {"reshape", "broadcast_to"}   # the ops whose shape argument gives -1 a meaning


def static_attributes(op: str, static: dict, dim_sizes: dict) -> dict:
    """``op``'s ``static`` attributes with each ``dim_size`` value of ``dim_sizes`` in them as ``-1``; an op that
    makes an array of a ``shape`` holding such a size (or a layer's :class:`UnknownDim`) is refused."""
    shape = static.get("shape")
    if op not in _INFERRED_OR_KEPT and isinstance(shape, (tuple, list)) and any(
            getattr(d, "var", None) in dim_sizes or isinstance(d, UnknownDim) for d in shape):
        raise UnknownDimUse(f"'{op}' of a shape with a dim known only when the kernel runs is not supported in "
                            "compiled code (ops.zeros_like, ops.ones_like and ops.full_like take such a shape)")
    return {name: static_dims(value, dim_sizes) for name, value in static.items()} if dim_sizes else static


def static_dims(value, dim_sizes: dict):
    """``value`` (a static argument) with each ``dim_size`` value of ``dim_sizes`` in it as ``-1``."""
    if getattr(value, "var", None) in dim_sizes:
        return -1
    if type(value) in (tuple, list):
        return type(value)(static_dims(v, dim_sizes) for v in value)
    return value


def reshape_dims(shape, operand: ir.Var, dim_sizes: dict):
    """``reshape``'s ``shape`` for ``operand``: ``None`` where the shape reads a dynamic dim of ``operand`` itself
    at that dim's position (``dim_sizes`` maps each ``dim_size`` Var to its array's Var and axis), so the dim is
    kept; ``-1`` for any other such size. A layer's ``-1`` says nothing of which array's dim it read (``linear``
    restores ``x``'s leading dims on its 2-D product), so it is never taken for a kept dim."""
    if type(shape) not in (tuple, list):
        return static_dims(shape, dim_sizes)
    return tuple(None if dim_sizes.get(getattr(d, "var", None)) == (operand, axis) else static_dims(d, dim_sizes)
                 for axis, d in enumerate(shape))
