"""MindSpore's ``ops.auto_generate.pyboost_inner_prim``: the ``*_impl`` callables its functional ops call with the
primitive's inputs and attributes in order, here over npspore's ops (so they run compiled and differentiate as
those do). Values recorded from MindSpore 2.10 (``tests/data_nn_fn_cases.py``)."""
from __future__ import annotations

from ..common import dtype as mstype
from . import functional as F
from .array_extra import triu
from .eager import run
from .mint_functions import roll

__all__ = ["concat_impl", "softmax_impl", "squeeze_impl", "reduce_all_impl", "reduce_any_impl", "reduce_max_impl",
           "isclose_impl", "argmax_with_value_impl", "argmin_with_value_impl", "reverse_v2_impl", "stack_ext_impl",
           "roll_impl", "triu_impl", "meshgrid_impl", "one_hot_ext_impl"]


def concat_impl(tensors, axis):
    """``Concat``: the Tensors joined along ``axis``."""
    return F.concat(tuple(tensors), axis)


def softmax_impl(input, axis):
    """``Softmax``: the softmax along the one axis of the tuple ``axis``."""
    return run("softmax", input, axis=axis[0] if isinstance(axis, (tuple, list)) else axis)


def squeeze_impl(input, axis):
    """``Squeeze``: ``input`` without the size-1 dims of the tuple ``axis`` (all of them when empty)."""
    return F.squeeze(input, tuple(axis) or None)


def reduce_all_impl(input, axis, keep_dims):
    """``ReduceAll``: whether all elements along ``axis`` are true."""
    return F.all(input, axis, keep_dims)


def reduce_any_impl(x, axis, keep_dims):
    """``ReduceAny``: whether any element along ``axis`` is true."""
    return F.any(x, axis, keep_dims)


def reduce_max_impl(x, axis, keep_dims):
    """``ReduceMax``: the largest element along ``axis``."""
    return F.reduce_max(x, axis, keep_dims)


def isclose_impl(input, other, rtol, atol, equal_nan):
    """``IsClose``: ``|input - other| <= atol + rtol * |other|`` elementwise."""
    return F.isclose(input, other, rtol, atol, equal_nan)


def _with_value(pick, input, axis, keep_dims):
    index = F.cast(pick(input, axis), mstype.int64)
    value = F.gather_elements(input, axis, F.expand_dims(index, axis))
    if keep_dims:
        return F.expand_dims(index, axis), value
    return index, F.squeeze(value, axis)


def argmax_with_value_impl(input, axis, keep_dims):
    """``ArgMaxWithValue``: the Int64 position and the value of the largest element along ``axis``."""
    return _with_value(F.argmax, input, axis, keep_dims)


def argmin_with_value_impl(input, axis, keep_dims):
    """``ArgMinWithValue``: the Int64 position and the value of the smallest element along ``axis``."""
    return _with_value(F.argmin, input, axis, keep_dims)


def reverse_v2_impl(input, axis):
    """``ReverseV2``: ``input`` reversed along each dim of ``axis``."""
    return F.flip(input, tuple(axis))


def stack_ext_impl(tensors, dim):
    """``StackExt``: the Tensors stacked along a new ``dim``."""
    return F.stack(tuple(tensors), dim)


def roll_impl(input, shifts, dims):
    """``Roll``: ``input`` shifted cyclically by ``shifts`` along ``dims``."""
    return roll(input, shifts, dims)


def triu_impl(input, diagonal):
    """``Triu``: ``input`` with the elements below the ``diagonal``-th diagonal zeroed."""
    return triu(input, diagonal)


def meshgrid_impl(inputs, indexing):
    """``Meshgrid``: the coordinate grids of the 1-D ``inputs`` (``indexing`` ``'xy'`` or ``'ij'``)."""
    return F.meshgrid(*inputs, indexing=indexing)


def one_hot_ext_impl(tensor, num_classes, on_value, off_value, axis):
    """``OneHotExt``: the one-hot encoding of ``tensor`` with ``num_classes`` classes along ``axis``."""
    return F.one_hot(tensor, num_classes, on_value, off_value, axis)
