"""``x[index] = value`` on a local tensor in compiled code (specialize), as MindSpore's graph mode compiles it: the
value the name ``x`` is bound to next, ``x`` with ``value`` written at ``index``; another name for the old tensor,
and the caller's tensor, keep the old value.

By the index:

* ints, slices, ``None``, ``...`` (static): the op ``setitem`` (``value`` broadcast and cast to ``x``'s dtype),
  written in place by optimize where ``x`` is a new array nothing reads after it;
* a bool tensor of ``x``'s shape: ``where(mask, value, x)``;
* a 0-d int tensor computed at run time (a kept loop's index ``t``): the op ``row_set``, row ``t`` replaced;
* an int tensor or list (rows of the first dim, the last write winning where one repeats): the library's
  ``LIBRARY.item_update`` (``ops.scatter_ops.updated_rows``), compiled as a call.

Tensor indices mixed with other indices are refused at the user's line.
"""
from __future__ import annotations

import ast

import numpy as np

from ..opdef import Aval
from .errors import not_supported
from .library import LIBRARY
from .values import TensorValue


def assign_augmented_item(specializer, stmt: ast.AugAssign, frame) -> None:
    """``x[index] op= value``, the index evaluated once (it may call something: ``x[Tensor([1, 0])] += v``). On a
    local tensor, ``x`` is bound to a new tensor (:func:`assign_item`); at a bool mask of its shape that is
    ``where(mask, x op value, x)`` (no masked read, whose length the mask's values decide)."""
    target = stmt.target
    assert isinstance(target, ast.Subscript)   # specialize dispatches only item targets here
    container = specializer._eval(target.value, frame)
    op = type(stmt.op)
    if not isinstance(container, TensorValue):   # a Python list or dict: x[i] = x[i] op value
        load = ast.copy_location(ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load()), target)
        value = specializer._binary(op, specializer._eval(load, frame), specializer._eval(stmt.value, frame), frame,
                                    stmt)
        specializer._assign(target, value, frame)
        return
    index = specializer.concretize(specializer._eval(target.slice, frame), frame, target)
    old = container if is_bool_mask(index, container) else specializer._getitem(container, index, frame, target)
    value = specializer._binary(op, old, specializer._eval(stmt.value, frame), frame, stmt)
    assign_item(specializer, target, container, value, frame, index)


def assign_item(specializer, target: ast.Subscript, tensor: TensorValue, value, frame, index=None) -> None:
    """Bind the name of ``target`` (``x`` of ``x[index] = value``) to the new value of ``tensor``; ``index`` is the
    evaluated index when the caller has it (``x[index] += v`` evaluates it once), else ``target``'s is evaluated.

    Raises:
        NotSupportedError: ``x`` is no local name, or a Parameter (``ops.assign`` updates one).
    """
    loc = frame.source.loc(target)
    if not isinstance(target.value, ast.Name):
        raise not_supported("assigning into a tensor that no local name holds (x[i] = v needs x a name)", loc)
    if any(entry[1].var is tensor.var and isinstance(entry[0], LIBRARY.parameter_type)
           for entry in specializer.captures.values()):
        raise not_supported("assigning into a Parameter's elements (p[i] = v): update it with ops.assign(p, ...)", loc)
    if index is None:
        index = specializer.concretize(specializer._eval(target.slice, frame), frame, target)
    specializer._assign(target.value, assigned(specializer, tensor, index, value, frame, target), frame)


def assigned(specializer, tensor: TensorValue, index, value, frame, node) -> TensorValue:
    """The new value of ``tensor`` after ``tensor[index] = value``, staged by ``specializer`` at ``node``."""
    items = index if isinstance(index, tuple) else (index,)
    arrays = [item for item in items if isinstance(item, (TensorValue, LIBRARY.tensor_type, list, np.ndarray))]
    dtype = tensor.aval.dtype
    if not arrays:
        return specializer._apply("setitem", (tensor, value), {"index": index}, frame, node)
    if len(items) == 1 and is_bool_mask(items[0], tensor):
        updated = specializer._apply("where", (items[0], value, tensor), {}, frame, node)
        if updated.aval.dtype != dtype:
            updated = specializer._apply("cast", (updated,), {"dtype": dtype}, frame, node)
        return updated
    if len(items) == 1 and _is_scalar_index(items[0]):
        row = tuple(tensor.aval.shape[1:])
        value = specializer._apply("cast", (value,), {"dtype": dtype}, frame, node)
        if tuple(value.aval.shape) != row:
            value = specializer._apply("broadcast_to", (value,), {"shape": row}, frame, node)
        return specializer._apply("row_set", (tensor, items[0], value), {}, frame, node)
    if len(items) == 1 and LIBRARY.item_update is not None:
        return specializer._call(LIBRARY.item_update, (tensor, items[0], value), {}, frame, node)
    raise not_supported("assigning at tensor or list indices mixed with other indices (x[i, idx] = v)",
                        frame.source.loc(node))


def _is_scalar_index(index) -> bool:
    """Whether ``index`` is a 0-d int tensor computed at run time (a kept loop's index)."""
    return isinstance(index, TensorValue) and not index.aval.shape and index.aval.dtype.kind in "iu"


def is_bool_mask(index, tensor: TensorValue) -> bool:
    """Whether ``index`` is a bool tensor of ``tensor``'s shape."""
    if isinstance(index, TensorValue):
        aval = index.aval
    elif isinstance(index, LIBRARY.tensor_type):
        aval = Aval.of(np.asarray(index))
    else:
        return False
    return aval.dtype == np.bool_ and tuple(aval.shape) == tuple(tensor.aval.shape)
