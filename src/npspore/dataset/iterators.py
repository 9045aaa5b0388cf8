"""The iterators ``create_tuple_iterator`` and ``create_dict_iterator`` return.

One ``for`` loop over an iterator runs one epoch: the iterator ends the loop at the epoch's end
and the next loop starts the next epoch (with fresh shuffles), up to ``num_epochs``. An exception
raised while reading a row ends its epoch too: the next loop starts the next epoch afresh.

Each epoch draws its own order from the iterator's seed and the epoch's number, so under a seed the
sequence of orders is the same on every run. As in MindSpore, where each new iterator builds its
pipeline seeded afresh, a new iterator starts again from the first epoch's order: to get a new
order per epoch, loop several times over one iterator (``Model.train`` does).
"""
from __future__ import annotations

import secrets
from typing import Any, Generic, Iterator, TypeVar

import numpy as np

from . import config
from .arguments import check_bool, check_int
from .sampling import PassKey
from ..common.dtype import as_mindspore_array
from ..common.tensor import Tensor
from ..core.tree import tree_map

__all__ = ["TupleIterator", "DictIterator"]

Column = TypeVar("Column")
"""What a column's value is in a row: Tensor, or ndarray with ``output_numpy`` (text columns stay ndarrays)."""


def _as_tensor(array):
    return array if array.dtype.kind in "US" else Tensor._over_numpy(array)   # text has no Tensor form


def _is_array(value) -> bool:
    return isinstance(value, np.ndarray)


class _EpochIterator:
    """Runs the passes of ``dataset`` one epoch per loop and converts each row with ``_convert``."""

    def __init__(self, dataset: Any, num_epochs: int, output_numpy: bool) -> None:
        check_int(num_epochs, "num_epochs", 1, allow_minus_one=True)
        check_bool(output_numpy, "output_numpy")
        self.dataset, self.num_epochs, self.output_numpy = dataset, num_epochs, output_numpy
        self._seed = config.user_seed()
        self._entropy = secrets.randbits(64)
        self._epoch = 0
        self._state: dict = {}     # the pipeline nodes' state across this iterator's passes
        self._rows: Iterator[tuple] | None = None

    def _column(self, array):
        if isinstance(array, dict):
            return array if self.output_numpy else tree_map(_as_tensor, array, _is_array)
        if self.output_numpy or array.dtype.kind in "US":   # text has no Tensor form: it stays NumPy, as in MindSpore
            return as_mindspore_array(array)
        return Tensor._over_numpy(array)

    def _convert(self, row):
        raise NotImplementedError

    def __iter__(self) -> _EpochIterator:
        return self

    def __next__(self) -> Any:
        if self._rows is None:
            if self.num_epochs != -1 and self._epoch >= self.num_epochs:
                raise RuntimeError(f"The iterator has already run its num_epochs={self.num_epochs} epochs; "
                                   f"create it with a larger num_epochs to iterate more.")
            key = PassKey.for_epoch(self._epoch, self._seed, self._entropy, self._state)
            self._rows = iter(self.dataset._rows(key))
        try:
            row = next(self._rows, None)
        except BaseException:
            self._end_epoch()  # the pass is broken off (its generators finished): the next loop starts afresh
            raise
        if row is None:
            self._end_epoch()
            raise StopIteration
        return self._convert(row)

    def _end_epoch(self):
        self._rows = None
        self._epoch += 1


class TupleIterator(_EpochIterator, Generic[Column]):
    """Yields each row as a list of Tensors (ndarrays if ``output_numpy``) for the chosen columns."""

    def __init__(self, dataset: Any, column_indices: list[int], num_epochs: int, output_numpy: bool) -> None:
        super().__init__(dataset, num_epochs, output_numpy)
        self.column_indices = column_indices

    def __iter__(self) -> TupleIterator[Column]:
        return self

    def __next__(self) -> list[Column]:
        """The next row of this epoch (``StopIteration`` at the epoch's end)."""
        return super().__next__()

    def _convert(self, row):
        return [self._column(row[i]) for i in self.column_indices]


class DictIterator(_EpochIterator, Generic[Column]):
    """Yields each row as a dict from column name to Tensor (ndarray if ``output_numpy``)."""

    def __init__(self, dataset: Any, column_names: list[str], num_epochs: int, output_numpy: bool) -> None:
        super().__init__(dataset, num_epochs, output_numpy)
        self.column_names = column_names

    def __iter__(self) -> DictIterator[Column]:
        return self

    def __next__(self) -> dict[str, Column]:
        """The next row of this epoch (``StopIteration`` at the epoch's end)."""
        return super().__next__()

    def _convert(self, row):
        return {name: self._column(array) for name, array in zip(self.column_names, row)}
