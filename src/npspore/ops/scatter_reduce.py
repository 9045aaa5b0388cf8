"""Scatter updates that combine rather than add, as ``mindspore.ops``: out of place (``tensor_scatter_mul``/
``div``/``max``/``min``; their primitive classes ``TensorScatterMul``... come from :mod:`primitive_table`) and in
place on a Parameter (``ScatterMul``/``Div``/``Max``/``Min``/``Sub`` address the first dim, ``ScatterNdMul``/
``Div``/``Max``/``Min``/``Sub`` the leading dims by the last dim of ``indices``).

Where several rows of ``indices`` name one position, MindSpore applies their updates one after the other; the
rows' product (``mul``/``div``) or extreme (``max``/``min``) is therefore taken first, among the rows naming the
same position, and combined with the old value once. Written over ops of the op table, so each runs eagerly and
compiled and is differentiable.
"""
from __future__ import annotations

from ..common.tensor import Tensor, _np_dtype
from . import eager
from .array_functional import _flat_index
from .eager import run
from .primitives import Primitive
from .scatter_ops import _added, _check_locking, _nd_indices
from .scatter_nd_write import _check, _updated

__all__ = ["tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min", "ScatterMul",
           "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterSub", "ScatterNdMul", "ScatterNdDiv", "ScatterNdMax",
           "ScatterNdMin", "ScatterNdSub"]

# how the rows naming one position combine (a reduction of the op table) and how the result meets the old value
_COMBINE = {"mul": ("prod", "mul"), "div": ("prod", "div"), "max": ("max", "maximum"), "min": ("min", "minimum")}


def _combined(input_x: Tensor, indices: Tensor, updates: Tensor, kind: str) -> Tensor:
    """``input_x`` with the updates of the rows of ``indices`` (checked) combined into it by ``kind``."""
    reduction, meet = _COMBINE[kind]
    shape = tuple(input_x.shape)
    depth = indices.shape[-1]
    inner = shape[depth:]
    positions = run("reshape", _flat_index(indices, shape), shape=(-1,))
    count = positions.shape[0]
    rows = run("reshape", run("cast", updates, dtype=_np_dtype(input_x.dtype)), shape=(count,) + inner)
    same = run("equal", run("expand_dims", positions, axis=1), run("expand_dims", positions, axis=0))
    same = run("reshape", same, shape=(count, count) + (1,) * len(inner))
    # row i's group: the rows j naming its position; the others stand in as the identity of the reduction
    # (1 for a product, row i itself for an extreme)
    stand_in = 1 if reduction == "prod" else run("expand_dims", rows, axis=1)
    group = run(reduction, run("where", same, run("expand_dims", rows, axis=0), stand_in), axis=1)
    neutral = run("ones_like", input_x) if reduction == "prod" else input_x
    return run(meet, input_x, _updated(neutral, indices, group))


def tensor_scatter_mul(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with the slices the last dim of ``indices`` addresses multiplied by ``updates`` (every row
    naming a position multiplies it); ``input_x`` is unchanged.

    Raises:
        TypeError: if ``indices`` is not int32/int64.
        ValueError: if ``updates`` does not have the shape ``indices.shape[:-1] + input_x.shape[indices.shape[-1]:]``.
    """
    _check(input_x, indices, updates, "TensorScatterMul")
    return _combined(input_x, indices, updates, "mul")


def tensor_scatter_div(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with the addressed slices divided by ``updates`` (see :func:`tensor_scatter_mul`)."""
    _check(input_x, indices, updates, "TensorScatterDiv")
    return _combined(input_x, indices, updates, "div")


def tensor_scatter_max(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with the addressed slices the elementwise maximum of themselves and ``updates`` (see
    :func:`tensor_scatter_mul`)."""
    _check(input_x, indices, updates, "TensorScatterMax")
    return _combined(input_x, indices, updates, "max")


def tensor_scatter_min(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    """``input_x`` with the addressed slices the elementwise minimum of themselves and ``updates`` (see
    :func:`tensor_scatter_mul`)."""
    _check(input_x, indices, updates, "TensorScatterMin")
    return _combined(input_x, indices, updates, "min")


class _InPlaceScatter(Primitive):
    """``(use_locking=False)(input_x, indices, updates)``: ``input_x`` (a Parameter) with ``updates`` combined in
    place at ``indices`` (of its first dim, or of its leading dims by their last dim for the ``Nd`` forms), as
    the class's ``kind`` says; returns the new value."""

    kind = ""
    nd = False

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__(type(self).__name__)
        self.add_prim_attr("use_locking", _check_locking(self.name, use_locking)).add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        if self.nd:
            _check(input_x, indices, updates, self.name)
        else:
            indices = _nd_indices(self.name, input_x, indices, updates)
        if self.kind == "sub":
            result = _added(input_x, indices, updates, -1.0)
        else:
            result = _combined(input_x, indices, updates, self.kind)
        eager.assign(input_x, result)
        return result


def _in_place(name: str, kind: str, nd: bool) -> type:
    action = "subtracted from" if kind == "sub" else f"combined by {kind} into"
    doc = (f"``{name}(use_locking=False)(input_x, indices, updates)``: ``updates`` {action} the Parameter "
           f"``input_x`` in place at ``indices`` ({'by their last dim' if nd else 'of its first dim'}); returns "
           "the new value.")
    return type(name, (_InPlaceScatter,), {"kind": kind, "nd": nd, "__doc__": doc, "__module__": __name__})


ScatterMul = _in_place("ScatterMul", "mul", False)
ScatterDiv = _in_place("ScatterDiv", "div", False)
ScatterMax = _in_place("ScatterMax", "max", False)
ScatterMin = _in_place("ScatterMin", "min", False)
ScatterSub = _in_place("ScatterSub", "sub", False)
ScatterNdMul = _in_place("ScatterNdMul", "mul", True)
ScatterNdDiv = _in_place("ScatterNdDiv", "div", True)
ScatterNdMax = _in_place("ScatterNdMax", "max", True)
ScatterNdMin = _in_place("ScatterNdMin", "min", True)
ScatterNdSub = _in_place("ScatterNdSub", "sub", True)
