"""``Dataset``: a lazy pipeline of rows, and the operations that build one from another.

A pipeline is a tree of nodes: sources at the leaves (see ``sources.py`` and ``image_files.py``),
operations (``batch``, ``shuffle``, ``map``, ``repeat``, ``take``, ``skip``, ``project``,
``rename``, ``zip``, ``concat``, ``split``) above them. Each node knows its column names without
reading any data, and produces the rows of one pass as a generator (``_rows(key)``), pulling rows
from its children only as they are needed: iterating holds at most a batch (or a shuffle buffer)
of rows at a time. Errors about column names and arguments are raised when the pipeline is built;
errors in the data (a map operation returning the wrong number of columns, rows of different
shapes in one batch) when the offending row is reached, as ``RuntimeError`` like MindSpore's.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from . import config
from .iterators import DictIterator, TupleIterator
from .rows import stack_rows, to_array
from .sampling import PassKey

__all__ = ["Dataset", "zip"]

_INT32_MAX = 2147483647
_builtin_zip = zip


def _check_count(value, name, low, high=_INT32_MAX, allow_minus_one=False):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], but got {type(value)}.")
    if allow_minus_one and value == -1:
        return
    if not low <= value <= high:
        either = "either -1 or " if allow_minus_one else ""
        raise ValueError(f"Input {name} should be {either}within the required interval of [{low}, {high}], "
                         f"but got {value}.")


def _column_list(columns, name):
    """``columns`` (a str or a non-empty list of str) as a list."""
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, (list, tuple)) or not columns or not all(isinstance(c, str) for c in columns):
        raise TypeError(f"Argument {name} should be a str or a non-empty list of str, but got {columns!r}.")
    if len(set(columns)) != len(columns):
        raise ValueError(f"Argument {name} has duplicate column names: {list(columns)}.")
    return list(columns)


def _check_known(columns, available, name):
    missing = [c for c in columns if c not in available]
    if missing:
        raise ValueError(f"Invalid column in {name}: {missing[0]!r} is not a column of the dataset, whose "
                         f"columns are {available}.")


class Dataset:
    """Base of every dataset: the pipeline operations, iterators and shape/type queries.

    Args:
        children (list[Dataset]): the nodes this one reads from.
        num_parallel_workers (int, optional): accepted for compatibility; rows are processed
            in the calling thread.
    """

    def __init__(self, children=(), num_parallel_workers=None):
        if num_parallel_workers is not None:
            _check_count(num_parallel_workers, "num_parallel_workers", 1)
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers or config.get_num_parallel_workers()
        self._dataset_size = None

    # ---- what each node defines -------------------------------------------------------------

    def _column_names(self):
        """The node's column names, in row order."""
        return self.children[0]._column_names()

    def _rows(self, key):
        """The rows (tuples of arrays) of the pass ``key`` (a ``sampling.PassKey``)."""
        raise NotImplementedError

    def _size(self):
        """Rows in one pass; by default counted by running a pass."""
        return sum(1 for _ in self._rows(_first_pass_key()))

    def _stream(self):
        """A number telling this node's random draws from those of other nodes of the same pass."""
        return 1 + sum(child._stream() for child in self.children)

    # ---- queries ---------------------------------------------------------------------------

    def get_col_names(self):
        """The names of the columns of each row, in order."""
        return list(self._column_names())

    def get_dataset_size(self):
        """The number of rows (batches, after ``batch``) in one epoch."""
        if self._dataset_size is None:
            self._dataset_size = self._size()
        return self._dataset_size

    def get_batch_size(self):
        """The batch size of the nearest ``batch`` below (1 if none)."""
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self):
        """The count of the nearest ``repeat`` below (-1 for repeat forever, 1 if none)."""
        return self.children[0].get_repeat_count() if self.children else 1

    def _first_row(self):
        row = next(iter(self._rows(_first_pass_key())), None)
        if row is None:
            raise RuntimeError("The dataset is empty: it has no row to take shapes and types from.")
        return row

    def output_shapes(self):
        """The shape of each column of the first row, as lists (``[]`` for a scalar)."""
        return [list(column.shape) for column in self._first_row()]

    def output_types(self):
        """The NumPy dtype of each column of the first row."""
        return [column.dtype for column in self._first_row()]

    # ---- iterators -------------------------------------------------------------------------

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator over the rows: each row a list of Tensors (ndarrays if ``output_numpy``).

        Each ``for`` loop over the iterator runs one epoch; ``num_epochs`` (-1: unlimited) caps
        how many. ``columns`` picks and orders the columns. Shuffles reshuffle every epoch.

        Raises:
            ValueError: if a name in ``columns`` is not a column.
        """
        names = self._column_names()
        picked = names if columns is None else _column_list(columns, "columns")
        _check_known(picked, names, "create_tuple_iterator")
        return TupleIterator(self, [names.index(c) for c in picked], num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator over the rows as dicts from column name to Tensor (ndarray if ``output_numpy``)."""
        return DictIterator(self, self._column_names(), num_epochs, output_numpy)

    def __iter__(self):
        return iter(self.create_tuple_iterator())

    # ---- operations ------------------------------------------------------------------------

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Group ``batch_size`` consecutive rows into one, stacking each column on a new first axis.

        The last, smaller batch is kept unless ``drop_remainder``.

        Raises:
            ValueError: if ``batch_size`` is not in [1, 2147483647].
            TypeError: for an option npspore does not support.
        """
        unsupported = set(kwargs) - {"python_multiprocessing", "max_rowsize"}
        if unsupported:
            raise TypeError(f"batch() got unsupported arguments {sorted(unsupported)}.")
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers)

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows (the whole dataset if at least its size).

        Raises:
            ValueError: if ``buffer_size`` is not in [2, 2147483647].
        """
        return ShuffleDataset(self, buffer_size)

    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None, **kwargs):
        """Apply ``operations`` (a callable or a list applied in turn) to the ``input_columns``.

        The operations receive the input columns' arrays and return one array or a tuple, stored in
        ``output_columns`` (default: the input columns). With as many outputs as inputs, each output
        takes its input's place; otherwise the outputs come first, then the untouched columns.

        Raises:
            TypeError: if an operation is not callable.
            ValueError: if an input column does not exist, or the output columns collide with others.
        """
        unsupported = set(kwargs) - {"python_multiprocessing", "max_rowsize", "callbacks", "offload", "cache"}
        if unsupported:
            raise TypeError(f"map() got unsupported arguments {sorted(unsupported)}.")
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers)

    def repeat(self, count=None):
        """Run the dataset ``count`` times per epoch (``None`` or -1: forever).

        Raises:
            ValueError: if ``count`` is neither -1 nor in [1, 2147483647].
        """
        return RepeatDataset(self, -1 if count is None else count)

    def take(self, count=-1):
        """The first ``count`` rows (-1: all).

        Raises:
            ValueError: if ``count`` is neither -1 nor in [1, 2147483647].
        """
        return TakeDataset(self, count)

    def skip(self, count):
        """All rows but the first ``count``.

        Raises:
            ValueError: if ``count`` is not in [0, 2147483647].
        """
        return SkipDataset(self, count)

    def project(self, columns):
        """Keep only ``columns``, in the given order.

        Raises:
            ValueError: if a name is not a column.
        """
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Rename ``input_columns`` to ``output_columns`` (str or lists of equal length).

        Raises:
            ValueError: if a name is not a column, the lists differ in length, or names collide.
        """
        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets):
        """Rows side by side with those of ``datasets`` (one or a tuple); as long as the shortest.

        Raises:
            ValueError: if two datasets share a column name.
        """
        others = list(datasets) if isinstance(datasets, (tuple, list)) else [datasets]
        return ZipDataset([self] + others)

    def concat(self, datasets):
        """This dataset's rows followed by those of ``datasets`` (one or a list); also ``a + b``.

        Raises:
            ValueError: if the datasets' column names differ.
        """
        others = list(datasets) if isinstance(datasets, (tuple, list)) else [datasets]
        return ConcatDataset([self] + others)

    def __add__(self, other):
        return self.concat(other)

    def split(self, sizes, randomize=True):
        """Split into non-overlapping datasets of the given ``sizes``.

        ``sizes`` are row counts summing to the dataset size, or fractions summing to 1 (rounded;
        a rounding shortfall goes to the first part, an excess comes off the first part large
        enough). With ``randomize``, which rows go to which part is drawn at random (from the
        pipeline seed when one is set); rows keep their order within a part.

        Raises:
            ValueError: if the sizes do not fit the dataset or a part would be empty.
        """
        total = self.get_dataset_size()
        counts = _split_counts(sizes, total)
        if not isinstance(randomize, bool):
            raise TypeError(f"Argument randomize with value {randomize!r} is not of type [<class 'bool'>].")
        seed = config.user_seed()
        order = np.random.default_rng(seed).permutation(total) if randomize else np.arange(total)
        bounds = np.cumsum([0] + counts)
        return [PositionSubsetDataset(self, np.sort(order[lo:hi])) for lo, hi in _builtin_zip(bounds, bounds[1:])]


def _first_pass_key():
    """The key of a pass made only to count rows or look at the first one."""
    return PassKey.for_epoch(0, config.user_seed(), 0)


def _split_counts(sizes, total):
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"Argument sizes should be a non-empty list of int or of float, but got {sizes!r}.")
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s < 1 for s in sizes) or sum(sizes) != total:
            raise ValueError(f"The split sizes {list(sizes)} must be positive and sum to the dataset size {total}.")
        return list(sizes)
    if not all(isinstance(s, float) and 0 < s <= 1 for s in sizes) or not math.isclose(sum(sizes), 1.0):
        raise ValueError(f"The split sizes {list(sizes)} must all be ints or all floats in (0, 1] summing to 1.")
    counts = [round(s * total) for s in sizes]
    excess = sum(counts) - total
    if excess < 0:
        counts[0] -= excess
    elif excess > 0:
        big_enough = next((i for i, c in enumerate(counts) if c > excess), None)
        if big_enough is None:
            raise ValueError(f"Cannot split {total} rows into the fractions {list(sizes)}.")
        counts[big_enough] -= excess
    if min(counts) < 1:
        raise ValueError(f"Splitting {total} rows by {list(sizes)} gives an empty part {counts}.")
    return counts


class BatchDataset(Dataset):
    """Rows grouped ``batch_size`` at a time (see :meth:`Dataset.batch`)."""

    def __init__(self, child, batch_size, drop_remainder, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        _check_count(batch_size, "batch_size", 1)
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"Argument drop_remainder with value {drop_remainder!r} is not of type [<class 'bool'>].")
        self.batch_size, self.drop_remainder = batch_size, drop_remainder

    def _rows(self, key):
        names = self._column_names()
        rows = iter(self.children[0]._rows(key))
        while True:
            group = list(itertools.islice(rows, self.batch_size))
            if not group or (self.drop_remainder and len(group) < self.batch_size):
                return
            yield stack_rows(group, names)

    def _size(self):
        rows = self.children[0].get_dataset_size()
        return rows // self.batch_size if self.drop_remainder else math.ceil(rows / self.batch_size)

    def get_batch_size(self):
        return self.batch_size


class ShuffleDataset(Dataset):
    """Rows drawn at random from a buffer refilled from the child (see :meth:`Dataset.shuffle`)."""

    def __init__(self, child, buffer_size):
        super().__init__([child])
        _check_count(buffer_size, "buffer_size", 2)
        self.buffer_size = buffer_size

    def _rows(self, key):
        rng = key.generator(stream=self._stream())
        buffer = []
        for row in self.children[0]._rows(key):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            slot = int(rng.integers(len(buffer)))
            yield buffer[slot]
            buffer[slot] = row
        for slot in rng.permutation(len(buffer)):
            yield buffer[slot]

    def _size(self):
        return self.children[0].get_dataset_size()


class MapDataset(Dataset):
    """Columns transformed by operations (see :meth:`Dataset.map`)."""

    def __init__(self, child, operations, input_columns, output_columns, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        self.operations = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not self.operations:
            raise ValueError("Argument operations should be a callable or a non-empty list of callables.")
        for op in self.operations:
            if not callable(op):
                raise TypeError(f"Argument operations should contain callables, but got {type(op).__name__}.")
        names = child._column_names()
        self.input_columns = names[:1] if input_columns is None else _column_list(input_columns, "input_columns")
        _check_known(self.input_columns, names, "map input_columns")
        self.output_columns = (list(self.input_columns) if output_columns is None
                               else _column_list(output_columns, "output_columns"))
        self._inputs = [names.index(c) for c in self.input_columns]
        self._names = self._layout(names)
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"map output_columns {self.output_columns} collide with the columns kept: {self._names}.")

    def _layout(self, names):
        """The output column names: outputs in their inputs' places, or first if the counts differ."""
        if len(self.output_columns) == len(self.input_columns):
            renamed = dict(_builtin_zip(self.input_columns, self.output_columns))
            return [renamed.get(n, n) for n in names]
        return self.output_columns + [n for n in names if n not in self.input_columns]

    def _column_names(self):
        return self._names

    def _apply(self, values):
        for op in self.operations:
            values = op(*values)
            if not isinstance(values, tuple):
                values = (values,)
        if len(values) != len(self.output_columns):
            raise RuntimeError(f"Invalid columns, the number of columns returned in 'map' operations should match "
                               f"the number of 'output_columns', but got the number of columns returned in 'map' "
                               f"operations: {len(values)}, the number of 'output_columns': "
                               f"{len(self.output_columns)}.")
        return [to_array(v, f"output column '{name}' of map") for v, name in _builtin_zip(values, self.output_columns)]

    def _rows(self, key):
        names = self.children[0]._column_names()
        same_count = len(self.output_columns) == len(self.input_columns)
        kept = [i for i, n in enumerate(names) if n not in self.input_columns]
        for row in self.children[0]._rows(key):
            outputs = self._apply([row[i] for i in self._inputs])
            if same_count:
                new_row = list(row)
                for i, value in _builtin_zip(self._inputs, outputs):
                    new_row[i] = value
                yield tuple(new_row)
            else:
                yield tuple(outputs) + tuple(row[i] for i in kept)

    def _size(self):
        return self.children[0].get_dataset_size()


class RepeatDataset(Dataset):
    """The child's rows ``count`` times over (see :meth:`Dataset.repeat`)."""

    def __init__(self, child, count):
        super().__init__([child])
        _check_count(count, "count", 1, allow_minus_one=True)
        self.count = count

    def _rows(self, key):
        repeats = itertools.count() if self.count == -1 else range(self.count)
        for index in repeats:
            yield from self.children[0]._rows(key.child(index))

    def _size(self):
        # MindSpore reports one repetition's size for an endless repeat.
        rows = self.children[0].get_dataset_size()
        return rows if self.count == -1 else rows * self.count

    def get_repeat_count(self):
        return self.count


class TakeDataset(Dataset):
    """The first ``count`` rows (see :meth:`Dataset.take`)."""

    def __init__(self, child, count):
        super().__init__([child])
        _check_count(count, "count", 1, allow_minus_one=True)
        self.count = count

    def _rows(self, key):
        rows = self.children[0]._rows(key)
        return rows if self.count == -1 else itertools.islice(rows, self.count)

    def _size(self):
        rows = self.children[0].get_dataset_size()
        return rows if self.count == -1 else min(rows, self.count)


class SkipDataset(Dataset):
    """All rows after the first ``count`` (see :meth:`Dataset.skip`)."""

    def __init__(self, child, count):
        super().__init__([child])
        _check_count(count, "count", 0)
        self.count = count

    def _rows(self, key):
        return itertools.islice(self.children[0]._rows(key), self.count, None)

    def _size(self):
        return max(self.children[0].get_dataset_size() - self.count, 0)


class ProjectDataset(Dataset):
    """A selection of the child's columns (see :meth:`Dataset.project`)."""

    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = _column_list(columns, "columns")
        names = child._column_names()
        _check_known(self.columns, names, "project")
        self._picked = [names.index(c) for c in self.columns]

    def _column_names(self):
        return self.columns

    def _rows(self, key):
        for row in self.children[0]._rows(key):
            yield tuple(row[i] for i in self._picked)

    def _size(self):
        return self.children[0].get_dataset_size()


class RenameDataset(Dataset):
    """The child's rows under new column names (see :meth:`Dataset.rename`)."""

    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        inputs = _column_list(input_columns, "input_columns")
        outputs = _column_list(output_columns, "output_columns")
        if len(inputs) != len(outputs):
            raise ValueError(f"rename needs as many output_columns as input_columns, but got {inputs} and {outputs}.")
        names = child._column_names()
        _check_known(inputs, names, "rename")
        renamed = dict(_builtin_zip(inputs, outputs))
        self._names = [renamed.get(n, n) for n in names]
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"rename would give duplicate column names: {self._names}.")

    def _column_names(self):
        return self._names

    def _rows(self, key):
        return self.children[0]._rows(key)

    def _size(self):
        return self.children[0].get_dataset_size()


def _check_datasets(datasets):
    for d in datasets:
        if not isinstance(d, Dataset):
            raise TypeError(f"zip and concat take datasets, but got {type(d).__name__}.")


class ZipDataset(Dataset):
    """Rows of several datasets side by side (see :meth:`Dataset.zip`)."""

    def __init__(self, datasets):
        _check_datasets(datasets)
        super().__init__(datasets)
        self._names = [n for d in datasets for n in d._column_names()]
        duplicated = sorted({n for n in self._names if self._names.count(n) > 1})
        if duplicated:
            raise ValueError(f"Cannot zip datasets that share the column names {duplicated}; rename them first.")

    def _column_names(self):
        return self._names

    def _rows(self, key):
        for parts in _builtin_zip(*(child._rows(key.child(i)) for i, child in enumerate(self.children))):
            yield tuple(column for part in parts for column in part)

    def _size(self):
        return min(child.get_dataset_size() for child in self.children)


class ConcatDataset(Dataset):
    """Rows of several datasets one after the other (see :meth:`Dataset.concat`)."""

    def __init__(self, datasets):
        _check_datasets(datasets)
        super().__init__(datasets)
        for d in datasets:
            if d._column_names() != datasets[0]._column_names():
                raise ValueError(f"Cannot concat datasets with different columns: {datasets[0]._column_names()} "
                                 f"and {d._column_names()}.")

    def _column_names(self):
        return self.children[0]._column_names()

    def _rows(self, key):
        for i, child in enumerate(self.children):
            yield from child._rows(key.child(i))

    def _size(self):
        return sum(child.get_dataset_size() for child in self.children)


class PositionSubsetDataset(Dataset):
    """The rows of the child at the given sorted positions of each pass (one part of :meth:`Dataset.split`)."""

    def __init__(self, child, positions):
        super().__init__([child])
        self.positions = positions

    def _rows(self, key):
        wanted = iter(self.positions)
        next_position = next(wanted, None)
        for position, row in enumerate(self.children[0]._rows(key)):
            if next_position is None:
                return
            if position == next_position:
                yield row
                next_position = next(wanted, None)

    def _size(self):
        return len(self.positions)


def zip(datasets):  # noqa: A001 - MindSpore's name
    """The rows of the tuple of ``datasets`` side by side, as ``mindspore.dataset.zip``.

    Raises:
        TypeError: if ``datasets`` is not a tuple of datasets.
        ValueError: if two datasets share a column name.
    """
    if not isinstance(datasets, tuple) or not datasets:
        raise TypeError(f"Argument datasets with value {datasets!r} is not of type [<class 'tuple'>].")
    return ZipDataset(list(datasets))
