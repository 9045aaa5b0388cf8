"""Rows and columns: a row is a tuple of NumPy arrays, one per column.

Values coming from user code (a source's items, a ``map`` operation's results) become arrays by
MindSpore's rules: a Python ``int`` is int64, a ``float`` float64, a ``bool`` bool, a list or tuple
of them an array of that type; NumPy arrays and scalars keep their dtype.
"""
from __future__ import annotations

import numpy as np

from ..common.tensor import Tensor


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
    return tuple(to_array(v, f"column '{name}' of {where}") for v, name in zip(values, column_names))


def stack_column(arrays, name):
    """One column's arrays of a batch stacked on a new first axis.

    Raises:
        RuntimeError: if the arrays differ in shape, naming the column and both shapes.
    """
    first = arrays[0].shape
    for array in arrays[1:]:
        if array.shape != first:
            raise RuntimeError(f"Cannot batch tensors with different shapes in column '{name}'. First element "
                               f"had shape {first} and this element had shape {array.shape}.")
    return np.stack(arrays)
