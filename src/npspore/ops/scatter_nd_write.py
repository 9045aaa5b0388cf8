"""``ScatterNdUpdate`` / ``ops.scatter_nd_update``, as MindSpore's: slices of a Parameter replaced in place by
``updates`` at the positions the last dim of ``indices`` addresses; where several rows of ``indices`` name one
position, the last one's update is written.

Written over ops of the op table (``equal``, ``gather_grad``, ``where`` ...): the new value is a ``where``
between the scattered updates and the old value, so the gradient reaches ``updates`` at the positions they
were written to and ``input_x`` elsewhere; the in-place write is ``ops.assign``.
"""
from __future__ import annotations

import math

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import eager
from .array_functional import _flat_index
from .eager import run
from .primitives import Primitive

__all__ = ["scatter_nd_update", "ScatterNdUpdate"]


def _check(input_x: Tensor, indices: Tensor, updates: Tensor, name: str = "ScatterNdUpdate") -> None:
    """MindSpore's errors of the scatter primitive ``name`` for int ``indices`` addressing ``input_x`` by their last
    dim and ``updates`` of the slices' shape."""
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[{name}], the input argument[indices type] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{indices.dtype}].")
    depth = indices.shape[-1]
    if depth > len(input_x.shape):
        raise ValueError(f"For '{name}', the last dim of 'indices' ({depth}) must not exceed the rank of "
                         f"'input_x' ({len(input_x.shape)}).")
    expected = tuple(indices.shape[:-1]) + tuple(input_x.shape[depth:])
    if tuple(updates.shape) != expected:
        raise ValueError(f"For primitive[{name}], the shape of 'updates' must be {expected} "
                         f"(indices.shape[:-1] + input_x.shape[indices.shape[-1]:]), but got {tuple(updates.shape)}.")


def _updated(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with the addressed slices replaced by ``updates`` (cast to its dtype), the last writer winning."""
    depth, shape = indices.shape[-1], tuple(input_x.shape)
    slots, inner = math.prod(shape[:depth]), shape[depth:]
    positions = run("reshape", _flat_index(indices, shape), shape=(-1,))
    count = positions.shape[0]
    dtype = _np_dtype(input_x.dtype)
    rows = run("reshape", run("cast", updates, dtype=dtype), shape=(count,) + inner)
    order = Tensor(list(range(count)), mstype.int64)
    later = run("greater", run("expand_dims", order, axis=0), run("expand_dims", order, axis=1))
    same = run("equal", run("expand_dims", positions, axis=1), run("expand_dims", positions, axis=0))
    kept = run("cast", run("logical_not", run("any", run("logical_and", same, later), axis=1)), dtype=dtype)
    kept_rows = run("reshape", kept, shape=(count,) + (1,) * len(inner))
    written = run("gather_grad", kept, positions, shape=(slots,), axis=0)
    scattered = run("gather_grad", rows * kept_rows, positions, shape=(slots,) + inner, axis=0)
    old = run("reshape", input_x, shape=(slots,) + inner)
    mask = run("greater", run("reshape", written, shape=(slots,) + (1,) * len(inner)), 0)
    return run("reshape", run("where", mask, scattered, old), shape=shape)


def scatter_nd_update(input_x: Tensor, indices: Tensor, updates: Tensor, use_locking: bool = True) -> Tensor:
    """Replace the slices of ``input_x`` (a Parameter, or a Tensor) that the last dim of the int ``indices``
    addresses with ``updates`` in place (repeated positions: the last update); returns the new value.

    Raises:
        TypeError: if ``indices`` is not int32/int64.
        ValueError: if the last dim of ``indices`` exceeds the rank of ``input_x`` or ``updates`` has the
            wrong shape.
    """
    _check(input_x, indices, updates)
    result = _updated(input_x, indices, updates)
    eager.assign(input_x, result)
    return result


class ScatterNdUpdate(Primitive):
    """``ScatterNdUpdate(use_locking=True)(input_x, indices, updates)``: :func:`scatter_nd_update`."""

    def __init__(self, use_locking: bool = True) -> None:
        super().__init__("ScatterNdUpdate")
        if not isinstance(use_locking, bool):
            raise TypeError(f"For 'ScatterNdUpdate', the type of 'use_locking' should be 'bool', but got type "
                            f"'{type(use_locking).__name__}'.")
        self.add_prim_attr("use_locking", use_locking).add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        return scatter_nd_update(input_x, indices, updates)
