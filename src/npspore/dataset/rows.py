"""Rows and columns: a row is a tuple of NumPy arrays, one per column.

Values coming from user code (a source's items, a ``map`` operation's results) become arrays by
MindSpore's rules: a Python ``int`` is int64, a ``float`` float64, a ``bool`` bool, a list or tuple
of them an array of that type; NumPy arrays and scalars keep their dtype. A column may also hold a
Python ``dict`` (MindSpore 2's dict columns): its values become arrays by the same rules (nested dicts
too, and lists and tuples in them, item by item), a batch stacks them key by key, and the iterators give
them as dicts of Tensors.
"""
from __future__ import annotations

import numpy as np

from ..common.tensor import Tensor
from ..core.tree import tree_map


def to_array(value, where):
    """``value`` (an array, NumPy scalar, Python number, bool, str, list or Tensor) as an ndarray.

    Raises:
        TypeError: naming ``where`` (e.g. "column 'image' of GeneratorDataset") if the value has no
            array form (objects, ragged lists).
    """
    if isinstance(value, np.ndarray):
        array = value
    elif isinstance(value, Tensor):
        array = value.asnumpy()
    else:
        try:
            array = np.asarray(value)
        except ValueError:
            array = None
        if array is not None and array.dtype.kind == "i":
            array = array.astype(np.int64, copy=False)
    if array is None or array.dtype == object:
        raise TypeError(f"The data in {where} must be a NumPy array, number, bool, str or a (nested) list of "
                        f"them with a rectangular shape, but got {type(value).__name__}: {value!r:.100}.")
    return array


def column_value(value, where):
    """A column's value from user code: :func:`to_array` of it; a ``dict`` kept as MindSpore keeps Python objects
    (nested dicts, lists and tuples kept, their other items as arrays)."""
    if isinstance(value, dict):
        return tree_map(lambda item: to_array(item, where), value, _not_a_container)
    return to_array(value, where)


def _not_a_container(value) -> bool:
    return not isinstance(value, (dict, list, tuple))


_ONE_VALUE = (str, bytes, np.ndarray, np.generic, Tensor, dict)   # items MindSpore never iterates


def as_row(values, column_names, where):
    """A source's item (a tuple/list of values, any other iterable of them such as a generator expression, or
    one value for one column) as a row of arrays.

    Raises:
        RuntimeError: if the item has a different number of values than there are columns.
    """
    if hasattr(values, "__iter__") and not isinstance(values, (tuple, list, *_ONE_VALUE)):
        values = tuple(values)   # MindSpore's _convert_row iterates it: `(col[i] for col in self.data)`
    if not isinstance(values, (tuple, list)) or (len(column_names) == 1 and not isinstance(values, tuple)):
        values = (values,)
    if len(values) != len(column_names):
        raise RuntimeError(f"{where} should return the same number of values as column_names {column_names}, "
                           f"but it returned {len(values)}.")
    return tuple(column_value(v, f"column '{name}' of {where}") for v, name in zip(values, column_names))


def stack_column(arrays, name):
    """One column's arrays of a batch stacked on a new first axis (dicts key by key).

    Raises:
        RuntimeError: if the arrays differ in shape, naming the column and both shapes, or dicts in their keys.
    """
    if isinstance(arrays[0], dict):
        return _stack_dicts(arrays, name)
    if isinstance(arrays[0], (list, tuple)):     # a list or tuple a dict holds: batched as one array
        arrays = [to_array(value, f"column '{name}'") for value in arrays]
    first = arrays[0].shape
    for array in arrays[1:]:
        if array.shape != first:
            raise RuntimeError(f"Cannot batch tensors with different shapes in column '{name}'. First element "
                               f"had shape {first} and this element had shape {array.shape}.")
    return np.stack(arrays)


def _stack_dicts(dicts, name):
    keys = dicts[0].keys()
    for value in dicts[1:]:
        if not isinstance(value, dict):
            raise RuntimeError(f"Cannot batch column '{name}': a dict and a {type(value).__name__} in one batch.")
        missing = [key for key in value if key not in keys] or [key for key in keys if key not in value]
        if missing:
            raise RuntimeError(f"Python dictionary keys do not match when creating a batch of column '{name}': "
                               f"{missing[0]!r} is not in every row.")
    return {key: stack_column([value[key] for value in dicts], f"{name}[{key!r}]") for key in keys}
