"""Shape arguments holding sizes of dims compiled code knows only when it runs (``set_inputs`` with ``None``, a
masked selection): what specialize writes into an op's static attributes in their place.

User code reads such a dim as a ``dim_size`` value (``x.shape[0]``), npspore's own layers as an :class:`UnknownDim`
(a ``-1`` refusing arithmetic). In a static shape argument it becomes ``-1``, the dim a shape leaves to be inferred
(``reshape``) or kept (``broadcast_to``). Where a reshape would leave several dims to infer, it keeps in place the
dims of the reshaped array whose sizes it reads there (``None`` in its shape, ONNX's ``0``, the op
``reshape_keeping``): ``x.reshape(x.shape[0], x.shape[1], -1)`` of a dynamic sequence and batch.
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
    """``reshape``'s ``shape`` for ``operand``: where more than one dim would be left to infer, ``None`` (kept) at
    each position where the shape reads the size of ``operand``'s own dynamic dim there (a ``dim_size`` of
    ``dim_sizes``, which maps each to its array's Var and axis, or a layer's :class:`UnknownDim`); ``-1`` for any
    other such size. A size read from another array (``linear`` restores ``x``'s leading dims on its 2-D product)
    is never taken for a kept dim."""
    if type(shape) not in (tuple, list):
        return static_dims(shape, dim_sizes)

    def kept(d, axis):
        source = d.source if isinstance(d, UnknownDim) else dim_sizes.get(getattr(d, "var", None))
        return source is not None and source[1] == axis and getattr(source[0], "var", source[0]) is operand

    dims = tuple(None if kept(d, axis) else static_dims(d, dim_sizes) for axis, d in enumerate(shape))
    if sum(d is None or d == -1 for d in dims) <= 1:   # one dim to infer: a plain reshape
        return tuple(-1 if d is None else d for d in dims)
    return dims
