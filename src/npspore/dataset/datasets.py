"""``Dataset``: a lazy pipeline of rows, and the operations that build one from another.

A pipeline is a tree of nodes: sources at the leaves (see ``sources.py`` and ``image_files.py``),
operations (``batch``, ``shuffle``, ``map``, ``filter``, ``repeat``, ``take``, ``skip``, ``project``,
``rename``, ``zip``, ``concat``, ``split``) above them. Each node knows its column names without
reading any data, and produces the rows of one pass as a generator (``_rows(key)``), pulling rows
from its children only as they are needed: iterating holds at most a batch (or a shuffle buffer)
of rows at a time. Errors about column names and arguments are raised when the pipeline is built;
errors in the data (a map operation returning the wrong number of columns, rows of different
shapes in one batch) when the offending row is reached, as ``RuntimeError`` like MindSpore's.
"""
from __future__ import annotations

import copy
import itertools
import math
from typing import TYPE_CHECKING, Any, Callable, Literal, overload

import numpy as np

from . import config
from .arguments import check_bool, check_int
from .cache import check_cache, is_random
from .columns import ColumnMapping, check_known, column_list
from .iterators import DictIterator, TupleIterator
from .rows import column_value, stack_column
from .sampling import PassKey
from .stdshuffle import Mt19937x64, buffer_shuffled
from .transform_draws import MapWorkers
from .transforms.transforms import Compose

if TYPE_CHECKING:
    from ..common.tensor import Tensor

__all__ = ["Dataset", "zip"]

_builtin_zip = zip


class Dataset:
    """Base of every dataset: the pipeline operations, iterators and shape/type queries.

    Args:
        children (list[Dataset]): the nodes this one reads from.
        num_parallel_workers (int, optional): accepted for compatibility; rows are processed
            in the calling thread.
    """

    def __init__(self, children: Any = (), num_parallel_workers: int | None = None) -> None:
        if num_parallel_workers is not None:
            check_int(num_parallel_workers, "num_parallel_workers", 1)
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers or config.get_num_parallel_workers()
        self._dataset_size: int | None = None

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

    def _size_reads_rows(self):
        """Whether ``_size`` runs a pass over data, by default if a child's does (a node whose own
        ``_size`` counts a pass, such as a filter or a generator, says True)."""
        return any(child._size_reads_rows() for child in self.children)

    def _size_is_known(self):
        """Whether ``get_dataset_size`` answers without reading a row (counted before, or sizes added up)."""
        return self._dataset_size is not None or not self._size_reads_rows()

    def _stream(self):
        """A number telling this node's random draws from those of other nodes of the same pass."""
        return 1 + sum(child._stream() for child in self.children)

    def _cache_source(self):
        """The random-access file source whose row indices key a cache above this node, through deterministic
        ``map`` operations only (``dataset.DatasetCache``); MindSpore's RuntimeError for anything else."""
        raise RuntimeError(f"{type(self).__name__.replace('Dataset', 'Node')} is not supported as a descendant of "
                           f"cache.")

    # ---- queries ---------------------------------------------------------------------------

    def get_col_names(self) -> list[str]:
        """The names of the columns of each row, in order."""
        return list(self._column_names())

    def get_dataset_size(self) -> int:
        """The number of rows (batches, after ``batch``) in one epoch."""
        size = self._dataset_size
        if size is None:
            size = self._dataset_size = self._size()
        return size

    def get_batch_size(self) -> int:
        """The batch size of the nearest ``batch`` below (1 if none)."""
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self) -> int:
        """The count of the nearest ``repeat`` below (-1 for repeat forever, 1 if none)."""
        return self.children[0].get_repeat_count() if self.children else 1

    def _first_row(self):
        row = next(iter(self._rows(_first_pass_key())), None)
        if row is None:
            raise RuntimeError("The dataset is empty: it has no row to take shapes and types from.")
        return row

    def output_shapes(self) -> list[list[int]]:
        """The shape of each column of the first row, as lists (``[]`` for a scalar; ``[0]`` for a dict, as in
        MindSpore)."""
        return [[0] if isinstance(column, dict) else list(column.shape) for column in self._first_row()]

    def output_types(self) -> list[np.dtype]:
        """The NumPy dtype of each column of the first row (``object`` for a dict, as in MindSpore)."""
        return [np.dtype(object) if isinstance(column, dict) else column.dtype for column in self._first_row()]

    # ---- iterators -------------------------------------------------------------------------

    @overload
    def create_tuple_iterator(self, columns: str | list[str] | None = None, num_epochs: int = -1,
                              output_numpy: Literal[False] = False, do_copy: bool = False) -> TupleIterator[Tensor]:
        ...

    @overload
    def create_tuple_iterator(self, columns: str | list[str] | None = None, num_epochs: int = -1, *,
                              output_numpy: Literal[True], do_copy: bool = False) -> TupleIterator[np.ndarray]:
        ...

    def create_tuple_iterator(self, columns: str | list[str] | None = None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = False) -> TupleIterator[Any]:
        """An iterator over the rows: each row a list of Tensors (ndarrays if ``output_numpy``).

        Each ``for`` loop over the iterator runs one epoch; ``num_epochs`` (-1: unlimited) caps
        how many. ``columns`` picks and orders the columns. Shuffles reshuffle every epoch of the
        iterator; as in MindSpore, a new iterator starts again from the first epoch's order when a
        seed is set, so loop over one iterator once per epoch rather than creating one per epoch.

        Raises:
            ValueError: if a name in ``columns`` is not a column.
        """
        names = self._column_names()
        picked = names if columns is None else column_list(columns, "columns")
        check_known(picked, names, "create_tuple_iterator")
        return TupleIterator(self, [names.index(c) for c in picked], num_epochs, output_numpy)

    @overload
    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: Literal[False] = False,
                             do_copy: bool = False) -> DictIterator[Tensor]:
        ...

    @overload
    def create_dict_iterator(self, num_epochs: int = -1, *, output_numpy: Literal[True],
                             do_copy: bool = False) -> DictIterator[np.ndarray]:
        ...

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = False) -> DictIterator[Any]:
        """An iterator over the rows as dicts from column name to Tensor (ndarray if ``output_numpy``)."""
        return DictIterator(self, self._column_names(), num_epochs, output_numpy)

    def __iter__(self) -> TupleIterator[Tensor]:
        return iter(self.create_tuple_iterator())

    # ---- operations ------------------------------------------------------------------------

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: int | None = None,
              **kwargs: Any) -> BatchDataset:
        """Group ``batch_size`` consecutive rows into one, stacking each column on a new first axis.

        The last, smaller batch is kept unless ``drop_remainder``. ``per_batch_map`` (a keyword
        argument, with optional ``input_columns`` and ``output_columns``, default all columns) is
        called with one list of arrays per input column and a ``BatchInfo``, and returns one list
        of arrays (or one array) per output column; outputs go where ``map``'s would.

        Raises:
            ValueError: if ``batch_size`` is not in [1, 2147483647].
            TypeError: for an option npspore does not support.
        """
        per_batch_map = kwargs.pop("per_batch_map", None)
        input_columns, output_columns = kwargs.pop("input_columns", None), kwargs.pop("output_columns", None)
        unsupported = set(kwargs) - {"python_multiprocessing", "max_rowsize"}
        if unsupported:
            raise TypeError(f"batch() got unsupported arguments {sorted(unsupported)}.")
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, per_batch_map, input_columns,
                            output_columns)

    def shuffle(self, buffer_size: int) -> ShuffleDataset:
        """Shuffle rows through a buffer of ``buffer_size`` rows (the whole dataset if at least its size).

        Raises:
            ValueError: if ``buffer_size`` is not in [2, 2147483647].
        """
        return ShuffleDataset(self, buffer_size)

    def map(self, operations: Any, input_columns: str | list[str] | None = None,
            output_columns: str | list[str] | None = None, num_parallel_workers: int | None = None,
            **kwargs: Any) -> MapDataset:
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
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers, kwargs.get("cache"))

    def filter(self, predicate: Callable[..., Any], input_columns: str | list[str] | None = None,
               num_parallel_workers: int | None = None) -> FilterDataset:
        """Keep the rows for which ``predicate`` (given the ``input_columns``, default all) is true.

        Raises:
            TypeError: if ``predicate`` is not callable.
            ValueError: if an input column does not exist.
        """
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def repeat(self, count: int | None = None) -> RepeatDataset:
        """Run the dataset ``count`` times per epoch (``None`` or -1: forever).

        Raises:
            ValueError: if ``count`` is neither -1 nor in [1, 2147483647].
        """
        return RepeatDataset(self, -1 if count is None else count)

    def take(self, count: int = -1) -> TakeDataset:
        """The first ``count`` rows (-1: all).

        Raises:
            ValueError: if ``count`` is neither -1 nor in [1, 2147483647].
        """
        return TakeDataset(self, count)

    def skip(self, count: int) -> SkipDataset:
        """All rows but the first ``count``.

        Raises:
            ValueError: if ``count`` is not in [0, 2147483647].
        """
        return SkipDataset(self, count)

    def project(self, columns: str | list[str]) -> ProjectDataset:
        """Keep only ``columns``, in the given order.

        Raises:
            ValueError: if a name is not a column.
        """
        return ProjectDataset(self, columns)

    def rename(self, input_columns: str | list[str], output_columns: str | list[str]) -> RenameDataset:
        """Rename ``input_columns`` to ``output_columns`` (str or lists of equal length).

        Raises:
            ValueError: if a name is not a column, the lists differ in length, or names collide.
        """
        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets: Dataset | tuple[Dataset, ...]) -> ZipDataset:
        """Rows side by side with those of ``datasets`` (one or a tuple); as long as the shortest.

        Raises:
            ValueError: if two datasets share a column name.
        """
        others = list(datasets) if isinstance(datasets, (tuple, list)) else [datasets]
        return ZipDataset([self] + others)

    def concat(self, datasets: Dataset | list[Dataset]) -> ConcatDataset:
        """This dataset's rows followed by those of ``datasets`` (one or a list); also ``a + b``.

        Raises:
            ValueError: if the datasets' column names differ.
        """
        others = list(datasets) if isinstance(datasets, (tuple, list)) else [datasets]
        return ConcatDataset([self] + others)

    def __add__(self, other: Dataset | list[Dataset]) -> ConcatDataset:
        return self.concat(other)

    def split(self, sizes: list[int] | list[float], randomize: bool = True) -> list[Dataset]:
        """Split into non-overlapping datasets of the given ``sizes``.

        ``sizes`` are row counts summing to the dataset size, or fractions summing to 1 (rounded;
        a rounding shortfall goes to the first part, an excess comes off the first part large
        enough). With ``randomize``, which rows go to which part is drawn at random, as MindSpore
        2.10 draws it when a seed is set.

        A random-access source (``NumpySlicesDataset``, ``GeneratorDataset`` over an indexable
        object, ``MnistDataset``, ``Cifar10Dataset``) splits into copies of itself whose sampler
        (``SplitPartSampler``) takes positions of one random order, the same at every epoch, of
        the indices the source's own sampler gives: a source that shuffles (``shuffle=True``, the
        default of most) therefore gives other rows to a part at each epoch, as MindSpore's, whose
        documentation asks for ``shuffle=False`` on a source to be split. Any other dataset splits
        by row position within a pass, after a shuffle through a buffer of 10,000 rows that does
        not reshuffle (``randomize``), so its passes must give the rows in the same order for the
        parts to be disjoint.

        Raises:
            ValueError: if the sizes do not fit the dataset, a part would be empty, or the source
                is sharded.
        """
        total = self.get_dataset_size()
        counts = _split_counts(sizes, total)
        check_bool(randomize, "randomize")
        bounds = np.cumsum([0] + counts)
        return self._split_parts(list(_builtin_zip(bounds[:-1].tolist(), counts)), randomize)

    def _split_parts(self, parts, randomize):
        """The datasets of :meth:`split`, one per ``(start, count)`` of ``parts``: the rows at those positions of
        each pass, after (``randomize``) MindSpore's shuffle through a buffer of 10,000 rows that does not shuffle
        again at the next pass."""
        rows = ShuffleDataset(self, 10000, reshuffle_each_epoch=False) if randomize else self
        return [PositionSubsetDataset(rows, np.arange(start, start + count)) for start, count in parts]


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


def _callables(operations, name):
    """``operations`` (a callable or a non-empty list of them) as a list."""
    operations = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    if not operations:
        raise ValueError(f"Argument {name} should be a callable or a non-empty list of callables.")
    for op in operations:
        if not callable(op):
            raise TypeError(f"Argument {name} should contain callables, but got {type(op).__name__}.")
    return operations


def _own_transforms(operations):
    """The transforms a map runs as its own: ``operations``, a ``Compose`` among them replaced by its transforms (as
    MindSpore's ``map`` unpacks it)."""
    own = []
    for operation in operations:
        own += _own_transforms(operation.transforms) if isinstance(operation, Compose) else [operation]
    return own


class _SameRowCountDataset(Dataset):
    """A node giving exactly one row for each row of its child (its size is the child's)."""

    def _size(self):
        return self.children[0].get_dataset_size()


class BatchInfo:
    """What ``per_batch_map`` is told about the batch it maps: its number within the epoch, and the epoch."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        """The batch's number within the epoch, from 0."""
        return self._batch_num

    def get_epoch_num(self):
        """The epoch's number, from 0."""
        return self._epoch_num


class BatchDataset(Dataset):
    """Rows grouped ``batch_size`` at a time (see :meth:`Dataset.batch`)."""

    def __init__(self, child, batch_size, drop_remainder, num_parallel_workers, per_batch_map=None,
                 input_columns=None, output_columns=None):
        super().__init__([child], num_parallel_workers)
        check_int(batch_size, "batch_size", 1)
        check_bool(drop_remainder, "drop_remainder")
        self.batch_size, self.drop_remainder = batch_size, drop_remainder
        self.per_batch_map = None if per_batch_map is None else _callables(per_batch_map, "per_batch_map")[0]
        names = child._column_names()
        if self.per_batch_map is None and (input_columns is not None or output_columns is not None):
            raise ValueError("batch: input_columns and output_columns need per_batch_map.")
        self.mapping = ColumnMapping(names, input_columns, output_columns, "per_batch_map", names)

    def _column_names(self):
        return self.mapping.output_names

    def _stack(self, group, key, batch_num):
        columns = list(_builtin_zip(*group))
        names = self.children[0]._column_names()
        if self.per_batch_map is None:
            return tuple(stack_column(column, name) for column, name in _builtin_zip(columns, names))
        outputs = self.per_batch_map(*(list(columns[i]) for i in self.mapping.input_indices),
                                     BatchInfo(batch_num, key.position[0]))
        outputs = [stack_column([column_value(v, f"per_batch_map output '{name}'") for v in value], name)
                   if isinstance(value, list) else column_value(value, f"per_batch_map output '{name}'")
                   for value, name in _builtin_zip(self.mapping.check_outputs(outputs), self.mapping.output_columns)]
        kept = [stack_column(columns[i], names[i]) if i in self.mapping.kept_indices else None
                for i in range(len(names))]
        return self.mapping.place(kept, outputs)

    def _rows(self, key):
        rows = iter(self.children[0]._rows(key))
        for batch_num in itertools.count():
            group = list(itertools.islice(rows, self.batch_size))
            if not group or (self.drop_remainder and len(group) < self.batch_size):
                return
            yield self._stack(group, key, batch_num)

    def _size(self):
        rows = self.children[0].get_dataset_size()
        return rows // self.batch_size if self.drop_remainder else math.ceil(rows / self.batch_size)

    def get_batch_size(self):
        return self.batch_size


class ShuffleDataset(_SameRowCountDataset):
    """Rows drawn at random from a buffer refilled from the child (see :meth:`Dataset.shuffle`)."""

    def __init__(self, child, buffer_size, reshuffle_each_epoch=True):
        super().__init__([child])
        check_int(buffer_size, "buffer_size", 2)
        self.buffer_size = buffer_size
        self.reshuffle_each_epoch = reshuffle_each_epoch   # False: every pass in the first pass's order
        self._generators = {}   # seed, passes -> MindSpore's generator after that many whole passes

    def _rows(self, key):
        passes = key.passes if self.reshuffle_each_epoch else 0
        if key.seed is not None:   # MindSpore's order: its generator goes on from the previous pass
            rng = copy.deepcopy(self._generators.get((key.seed, passes), Mt19937x64(key.seed)))
            yield from buffer_shuffled(self.children[0]._rows(key), self.buffer_size, rng)
            self._generators = {(key.seed, passes + 1): rng}
            return
        rng = (key.generator(stream=self._stream()) if self.reshuffle_each_epoch
               else np.random.default_rng([key.entropy, self._stream()]))
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


class MapDataset(_SameRowCountDataset):
    """Columns transformed by operations (see :meth:`Dataset.map`)."""

    def __init__(self, child, operations, input_columns, output_columns, num_parallel_workers, cache=None):
        super().__init__([child], num_parallel_workers)
        self.operations = _callables(operations, "operations")
        names = child._column_names()
        self.mapping = ColumnMapping(names, input_columns, output_columns, "map", names[:1])
        self.cache = check_cache(cache)
        self._cache_token = None
        if self.cache is not None:
            self._cached_source = self._cache_source()
            self._cache_token = self.cache.attach()

    def _column_names(self):
        return self.mapping.output_names

    def _apply(self, values):
        for op in self.operations:
            values = op(*values)
            if not isinstance(values, tuple):
                values = (values,)
        values = self.mapping.check_outputs(values)
        names = self.mapping.output_columns
        return [column_value(v, f"output column '{name}' of map") for v, name in _builtin_zip(values, names)]

    def _cache_source(self):
        if any(is_random(operation) for operation in self.operations):
            raise RuntimeError("MapNode containing random operation is not supported as a descendant of cache.")
        return self.children[0]._cache_source()

    def _mapped(self, row):
        return self.mapping.place(row, self._apply([row[i] for i in self.mapping.input_indices]))

    def _row_at(self, index):
        """The row of the source's ``index`` (a map under a cache reads from a random-access source)."""
        if self._cache_token is None:
            return self._mapped(self.children[0]._row_at(index))
        return self.cache.row(self._cache_token, index, lambda i: self._mapped(self.children[0]._row_at(i)))

    def _rows(self, key):
        if self._cache_token is not None:
            source = self._cached_source
            for index in source.sampler.indices(source._length(), key):
                yield self._row_at(int(index))
            return
        workers = key.iterator_state.get(id(self))
        if workers is None:
            workers = key.iterator_state[id(self)] = MapWorkers(self.num_parallel_workers, key.seed, key.entropy,
                                                                _own_transforms(self.operations))
        for position, row in enumerate(self.children[0]._rows(key)):
            yield workers.run(position, self._mapped, row)


class FilterDataset(Dataset):
    """The rows for which a predicate holds (see :meth:`Dataset.filter`)."""

    def __init__(self, child, predicate, input_columns, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        (self.predicate,) = _callables([predicate], "predicate")
        names = child._column_names()
        inputs = names if input_columns is None else column_list(input_columns, "input_columns")
        check_known(inputs, names, "filter input_columns")
        self.input_indices = [names.index(c) for c in inputs]

    def _rows(self, key):
        for row in self.children[0]._rows(key):
            if bool(np.all(self.predicate(*(row[i] for i in self.input_indices)))):
                yield row

    def _size_reads_rows(self):
        return True


class RepeatDataset(Dataset):
    """The child's rows ``count`` times over (see :meth:`Dataset.repeat`)."""

    def __init__(self, child, count):
        super().__init__([child])
        check_int(count, "count", 1, allow_minus_one=True)
        self.count = count

    def _rows(self, key):
        repeats = itertools.count() if self.count == -1 else range(self.count)
        for index in repeats:
            yield from self.children[0]._rows(key.child(index, self.count))

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
        check_int(count, "count", 1, allow_minus_one=True)
        self.count = count

    def _rows(self, key):
        rows = self.children[0]._rows(key)
        return rows if self.count == -1 else itertools.islice(rows, self.count)

    def _size(self):
        child = self.children[0]
        if self.count == -1:
            return child.get_dataset_size()
        if child._size_is_known():
            return min(child.get_dataset_size(), self.count)
        # The child's size needs a pass, which may never end (an endless generator): count this
        # node's own pass instead, which reads at most ``count`` rows.
        return Dataset._size(self)


class SkipDataset(Dataset):
    """All rows after the first ``count`` (see :meth:`Dataset.skip`)."""

    def __init__(self, child, count):
        super().__init__([child])
        check_int(count, "count", 0)
        self.count = count

    def _rows(self, key):
        return itertools.islice(self.children[0]._rows(key), self.count, None)

    def _size(self):
        return max(self.children[0].get_dataset_size() - self.count, 0)


class ProjectDataset(_SameRowCountDataset):
    """A selection of the child's columns (see :meth:`Dataset.project`)."""

    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = column_list(columns, "columns")
        names = child._column_names()
        check_known(self.columns, names, "project")
        self._picked = [names.index(c) for c in self.columns]

    def _column_names(self):
        return self.columns

    def _rows(self, key):
        for row in self.children[0]._rows(key):
            yield tuple(row[i] for i in self._picked)


class RenameDataset(_SameRowCountDataset):
    """The child's rows under new column names (see :meth:`Dataset.rename`)."""

    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        inputs = column_list(input_columns, "input_columns")
        outputs = column_list(output_columns, "output_columns")
        if len(inputs) != len(outputs):
            raise ValueError(f"rename needs as many output_columns as input_columns, but got {inputs} and {outputs}.")
        names = child._column_names()
        check_known(inputs, names, "rename")
        renamed = dict(_builtin_zip(inputs, outputs))
        self._names = [renamed.get(n, n) for n in names]
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"rename would give duplicate column names: {self._names}.")

    def _column_names(self):
        return self._names

    def _rows(self, key):
        return self.children[0]._rows(key)


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
        if all(child._size_is_known() for child in self.children):
            return min(child.get_dataset_size() for child in self.children)
        return Dataset._size(self)  # a pass ends with the shortest child: an endless one is never counted alone


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

    def _size_reads_rows(self):
        return False


def zip(datasets):  # noqa: A001 - MindSpore's name
    """The rows of the tuple of ``datasets`` side by side, as ``mindspore.dataset.zip``.

    Raises:
        TypeError: if ``datasets`` is not a tuple of datasets.
        ValueError: if two datasets share a column name.
    """
    if not isinstance(datasets, tuple) or not datasets:
        raise TypeError(f"Argument datasets with value {datasets!r} is not of type [<class 'tuple'>].")
    return ZipDataset(list(datasets))
