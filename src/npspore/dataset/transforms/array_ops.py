"""Array transforms of ``mindspore.dataset.transforms``: ``Fill``, ``Concatenate``, ``Mask`` (with
``Relational``) and ``Slice``, as MindSpore 2.10's (values recorded by
``tools/observe_mindspore_data_transforms.py``)."""
from __future__ import annotations

import operator
from enum import IntEnum

import numpy as np

from ...common import dtype as mstype
from ..arguments import numpy_dtype
from .transforms import TensorOperation

__all__ = ["Fill", "Concatenate", "Relational", "Mask", "Slice"]


class Fill(TensorOperation):
    """An array of the input's shape and dtype holding ``fill_value`` everywhere."""

    def __init__(self, fill_value) -> None:
        if not isinstance(fill_value, (str, bytes, bool, int, float)):
            raise TypeError(f"Argument fill_value with value {fill_value} is not of type [<class 'str'>, <class "
                            f"'float'>, <class 'bool'>, <class 'int'>, <class 'bytes'>], but got {type(fill_value)}.")
        self.fill_value = fill_value

    def _apply(self, array):
        if array.dtype.kind in "US":
            return np.full(array.shape, self.fill_value, dtype=np.asarray(self.fill_value).dtype)
        return np.full(array.shape, self.fill_value, dtype=array.dtype)


class Concatenate(TensorOperation):
    """The 1-D input with ``prepend`` before and ``append`` after it, along ``axis``.

    Raises:
        ValueError: If ``prepend`` or ``append`` is not 1-D (MindSpore's message).
    """

    def __init__(self, axis: int = 0, prepend=None, append=None) -> None:
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"Argument axis with value {axis} is not of type [<class 'int'>], but got {type(axis)}.")
        for name, value in (("prepend", prepend), ("append", append)):
            if value is not None and np.asarray(value).ndim != 1:
                raise ValueError(f"can only {name} 1D arrays.")
        self.axis = axis
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def _apply(self, array):
        if array.ndim != 1:
            raise RuntimeError(f"Concatenate: only 1D input supported, but got {array.ndim}D.")
        parts = [p for p in (self.prepend, array, self.append) if p is not None]
        return np.concatenate(parts, axis=self.axis)


class Relational(IntEnum):
    """The comparisons of :class:`Mask`."""
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: operator.eq, Relational.NE: operator.ne, Relational.GT: operator.gt,
            Relational.GE: operator.ge, Relational.LT: operator.lt, Relational.LE: operator.le}


class Mask(TensorOperation):
    """``input <operator> constant`` elementwise, as ``dtype`` (Bool by default)."""

    def __init__(self, operator: Relational, constant, dtype=mstype.bool_) -> None:
        if not isinstance(operator, Relational):
            raise TypeError(f"Argument operator with value {operator} is not of type [<enum 'Relational'>], but got "
                            f"{type(operator)}.")
        if not isinstance(constant, (str, bytes, bool, int, float)):
            raise TypeError(f"Argument constant with value {constant} is not of type [<class 'str'>, <class 'float'>,"
                            f" <class 'bool'>, <class 'int'>, <class 'bytes'>], but got {type(constant)}.")
        self.operator, self.constant, self.dtype = operator, constant, numpy_dtype(dtype, "dtype")

    def _apply(self, array):
        return _COMPARE[self.operator](array, self.constant).astype(self.dtype)


class Slice(TensorOperation):
    """The input sliced along its first dims, one item per dim: a ``slice``, ``None`` (the whole dim), an int ``i``
    (the dim kept as ``i:i+1``, as MindSpore 2.10 gives), a list of ints (those positions) or ``Ellipsis`` (the
    dims it skips)."""

    def __init__(self, *slices) -> None:
        for item in slices:
            ok = item is None or item is Ellipsis or isinstance(item, slice) or (
                isinstance(item, int) and not isinstance(item, bool)) or (
                isinstance(item, list) and all(isinstance(i, int) for i in item))
            if not ok:
                raise TypeError(f"Argument slices[{slices.index(item)}] with value {item} is not of type [<class "
                                f"'int'>, <class 'list'>, <class 'slice'>, <class 'NoneType'>, <class 'ellipsis'>], "
                                f"but got {type(item)}.")
        self.slices = slices

    def _apply(self, array):
        index = []
        for item in self.slices:
            if item is None:
                index.append(slice(None))
            elif isinstance(item, int):
                index.append(slice(item, item + 1 if item != -1 else None))
            elif isinstance(item, list):
                index.append(np.array(item, np.int64))
            else:
                index.append(item)
        lists = [i for i, item in enumerate(index) if isinstance(item, np.ndarray)]
        if len(lists) > 1:   # several position lists select their outer product, not paired positions
            if any(item is Ellipsis for item in index):
                raise ValueError("Slice: npspore takes several lists of positions only without an Ellipsis.")
            return array[np.ix_(*[item if isinstance(item, np.ndarray) else np.arange(array.shape[d])[item]
                                  for d, item in enumerate(index)])]
        return array[tuple(index)]
