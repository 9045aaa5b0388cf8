"""Scatter updates, as ``mindspore.ops``: in place on a Parameter (``ScatterAdd``, ``ScatterUpdate``,
``ScatterNdAdd``, ``scatter_add``, ``scatter_update``) and out of place (``tensor_scatter_add``/``sub``/``update``,
``tensor_scatter_elements``; their primitive classes come from :mod:`primitive_table`).

All are written over :func:`scatter_nd` (repeated positions add up) and the last-writer-wins update of
:mod:`scatter_nd_write`, so they run eagerly and compiled and are differentiable; the in-place ones write the
new value with ``ops.assign`` and return it. ``ScatterAdd``'s ``indices`` address the first dim of ``input_x``;
the ``Nd`` forms address its leading dims by the last dim of ``indices``.
"""
from __future__ import annotations

from typing import Any

from .._checkparam import check_value_type
from ..compiler.library import LIBRARY
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import eager
from . import functional as F
from .array_functional import scatter_nd
from .primitives import Primitive
from .scatter_nd_write import _check, _updated

__all__ = ["ScatterAdd", "ScatterUpdate", "ScatterNdAdd", "scatter_add", "scatter_update", "tensor_scatter_add",
           "tensor_scatter_sub", "tensor_scatter_update", "tensor_scatter_elements", "scatter_nd_add"]


def _nd_indices(name: str, input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``indices`` of the first dim as the ``(..., 1)`` indices of the ``Nd`` forms, checked."""
    if not isinstance(indices, Tensor) or indices.dtype not in (mstype.int32, mstype.int64):
        shown = indices.dtype if isinstance(indices, Tensor) else type(indices).__name__
        raise TypeError(f"For '{name}', the 'indices' must be a Tensor of int32 or int64, but got {shown}.")
    nd = F.expand_dims(indices, -1)
    _check(input_x, nd, updates, name)
    return nd


def _added(input_x: Tensor, indices: Tensor, updates: Tensor, sign: float = 1.0) -> Tensor:
    scattered = scatter_nd(indices, F.cast(updates, input_x.dtype), tuple(input_x.shape))
    return input_x + scattered if sign > 0 else input_x - scattered


def tensor_scatter_add(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with ``updates`` added at the positions the last dim of ``indices`` addresses (repeated
    positions add up); ``input_x`` is unchanged.

    Raises:
        TypeError: if ``indices`` is not int32/int64.
        ValueError: if ``updates`` does not have the shape ``indices.shape[:-1] + input_x.shape[indices.shape[-1]:]``.
    """
    _check(input_x, indices, updates, "TensorScatterAdd")
    return _added(input_x, indices, updates)


def tensor_scatter_sub(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with ``updates`` subtracted at the positions the last dim of ``indices`` addresses (see
    :func:`tensor_scatter_add`)."""
    _check(input_x, indices, updates, "TensorScatterSub")
    return _added(input_x, indices, updates, -1.0)


def tensor_scatter_update(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with the slices the last dim of ``indices`` addresses replaced by ``updates`` (a position
    named twice takes the last update); ``input_x`` is unchanged (see :func:`tensor_scatter_add`)."""
    _check(input_x, indices, updates, "TensorScatterUpdate")
    return _updated(input_x, indices, updates)


def updated_rows(x: Tensor, indices: Any, value: Any) -> Tensor:
    """``x`` with the rows of its first dim that the int tensor or list ``indices`` names (negative ones counted
    from the end) replaced by ``value``, cast to ``x``'s dtype and broadcast to ``indices.shape + x.shape[1:]``; a
    row named twice takes the last value: ``x[indices] = value`` in compiled code (MindSpore's graph mode binds the
    name to the new tensor). Differentiable (:func:`tensor_scatter_update`).

    Raises:
        TypeError: if ``indices`` is not of an int dtype.
    """
    if not isinstance(indices, Tensor):
        indices = Tensor(indices)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'setitem', tensor or list indices must be int32 or int64, but got {indices.dtype}.")
    rows = tuple(indices.shape) + tuple(x.shape[1:])
    value = F.cast(value, x.dtype) if isinstance(value, Tensor) else Tensor(value, x.dtype)
    positions = F.where(F.less(indices, 0), indices + x.shape[0], indices)
    return tensor_scatter_update(x, F.expand_dims(positions, -1), F.broadcast_to(value, rows))


def scatter_add(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x[indices] += updates`` in place (``input_x`` a Parameter; ``indices`` address its first dim,
    repeated ones add up); returns the new value.

    Raises:
        TypeError: if ``indices`` is not int32/int64.
        ValueError: if ``updates`` does not have the shape ``indices.shape + input_x.shape[1:]``.
    """
    result = _added(input_x, _nd_indices("ScatterAdd", input_x, indices, updates), updates)
    eager.assign(input_x, result)
    return result


_REDUCTIONS = ("none", "add")


def tensor_scatter_elements(input_x: Tensor, indices: Tensor, updates: Tensor, axis: int = 0,
                            reduction: str = "none") -> Tensor:
    """``input_x`` with ``updates[i][j]...`` written at the position ``indices[i][j]...`` names along ``axis``
    (the other coordinates are the update's own): replaced (``'none'``, the last writer winning) or added
    (``'add'``). ``indices`` and ``updates`` have one shape, of ``input_x``'s rank.

    Raises:
        TypeError: if ``indices`` is not int32/int64 or ``axis`` not an int.
        ValueError: if ``reduction`` is not ``'none'``/``'add'``, the ranks differ or ``axis`` is out of range.
    """
    check_value_type("axis", axis, [int], "TensorScatterElements")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For 'TensorScatterElements', the 'reduction' must be str and must be in "
                         f"'{list(_REDUCTIONS)}', but got '{reduction}'.")
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'TensorScatterElements', the 'indices' must be a Tensor of int32 or int64, but got "
                        f"{indices.dtype}.")
    rank = len(input_x.shape)
    if len(indices.shape) != rank or tuple(updates.shape) != tuple(indices.shape):
        raise ValueError(f"For 'TensorScatterElements', 'indices' and 'updates' must have one shape of the rank of "
                         f"'input_x' ({rank}), but got {indices.shape} and {updates.shape}.")
    if not -rank <= axis < rank:
        raise ValueError(f"For 'TensorScatterElements', the 'axis' must be in range [{-rank}, {rank}), but got "
                         f"{axis}.")
    axis %= rank
    positions = F.cast(F.where(F.less(indices, 0), indices + input_x.shape[axis], indices), mstype.int64)
    coordinates = []
    for dim in range(rank):
        if dim == axis:
            coordinates.append(positions)
            continue
        ramp = F.reshape(Tensor(list(range(indices.shape[dim])), mstype.int64),
                         tuple(-1 if d == dim else 1 for d in range(rank)))
        coordinates.append(F.broadcast_to(ramp, tuple(indices.shape)))
    nd = F.stack(coordinates, -1)
    return _added(input_x, nd, updates) if reduction == "add" else _updated(input_x, nd, updates)


def _check_locking(name: str, use_locking) -> bool:
    if not isinstance(use_locking, bool):
        raise TypeError(f"For '{name}', the type of 'use_locking' should be 'bool', but got type "
                        f"'{type(use_locking).__name__}'.")
    return use_locking


class ScatterAdd(Primitive):
    """``ScatterAdd(use_locking=False)(input_x, indices, updates)``: :func:`scatter_add` (in place)."""

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__("ScatterAdd")
        self.add_prim_attr("use_locking", _check_locking(self.name, use_locking)).add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        return scatter_add(input_x, indices, updates)


class ScatterUpdate(Primitive):
    """``ScatterUpdate(use_locking=True)(input_x, indices, updates)``: ``input_x[indices] = updates`` in place
    (``indices`` address the first dim; a row named twice takes the last update); returns the new value."""

    def __init__(self, use_locking: bool = True) -> None:
        super().__init__("ScatterUpdate")
        self.add_prim_attr("use_locking", _check_locking(self.name, use_locking)).add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        result = _updated(input_x, _nd_indices(self.name, input_x, indices, updates), updates)
        eager.assign(input_x, result)
        return result


def scatter_update(input_x, indices, updates):
    """``input_x[indices] = updates`` in place (``ops.scatter_update``): ``indices`` address the first dim of the
    Parameter ``input_x``; a row named twice takes the last update. Returns the new value.

    Raises:
        TypeError: if ``indices`` is not int32/int64.
        ValueError: if ``updates``' shape is not ``indices.shape + input_x.shape[1:]``.
    """
    return ScatterUpdate()(input_x, indices, updates)


class ScatterNdAdd(Primitive):
    """``ScatterNdAdd(use_locking=False)(input_x, indices, updates)``: :func:`tensor_scatter_add` written into
    ``input_x`` in place; returns the new value."""

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__("ScatterNdAdd")
        self.add_prim_attr("use_locking", _check_locking(self.name, use_locking)).add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        _check(input_x, indices, updates, self.name)
        result = _added(input_x, indices, updates)
        eager.assign(input_x, result)
        return result


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """``ScatterNdAdd(use_locking)(input_x, indices, updates)``: the slices of the Parameter ``input_x`` at
    ``indices`` increased by ``updates`` in place; returns the new value."""
    return ScatterNdAdd(use_locking)(input_x, indices, updates)


LIBRARY.register_item_update(updated_rows)
