"""Sources built from Python data: ``GeneratorDataset`` and ``NumpySlicesDataset``.

A source whose data can be indexed (``__getitem__`` and ``__len__``) is a random-access source:
each pass reads the indices its sampler gives (shuffled, sharded, capped by ``num_samples``).
A generator function or other iterable is read in order, a fresh iterator per pass.
"""
from __future__ import annotations

import copy
import itertools
from typing import Any

import numpy as np

from .arguments import numpy_dtype
from .cache import check_cache
from .columns import column_list
from .datasets import Dataset
from .rows import as_row, to_array
from .sampling import DistributedSampler, SplitPartSampler, check_shards, sampler_from_arguments

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"]


class RandomAccessSource(Dataset):
    """A source of ``_length()`` rows read by index (``_row(index)``) in its sampler's order."""

    def __init__(self, column_names, sampler, num_parallel_workers=None, cache=None):
        super().__init__((), num_parallel_workers)
        self._names = list(column_names)
        self.sampler = sampler
        self.cache = check_cache(cache)
        self._cache_token = None if self.cache is None else self.cache.attach()
        if hasattr(sampler, "bind"):   # a sampler reading the rows' classes (PKSampler)
            sampler.bind(self)

    def _column_names(self):
        return self._names

    def _length(self):
        raise NotImplementedError

    def _row(self, index):
        raise NotImplementedError

    def column_values(self, name: str) -> list:
        """The value of the column ``name`` in every row, in index order (reads every row).

        Raises:
            RuntimeError: If the source has no such column.
        """
        if name not in self._names:
            raise RuntimeError(f"Invalid column name, {name} does not exist in the dataset's columns {self._names}.")
        column = self._names.index(name)
        return [self._row(index)[column] for index in range(self._length())]

    def _cache_source(self):
        return self

    def _row_at(self, index):
        """The row of ``index``, from the cache when the source has one."""
        if self.cache is None:
            return self._row(index)
        return self.cache.row(self._cache_token, index, self._row)

    def _rows(self, key):
        for index in self.sampler.indices(self._length(), key):
            yield self._row_at(int(index))

    def _size(self):
        return self.sampler.size(self._length())

    def _split_parts(self, parts, randomize):
        if isinstance(self.sampler, DistributedSampler):
            raise ValueError("Dataset should not be sharded if split is going to be called.")
        unseeded = np.random.default_rng().permutation(sum(count for _, count in parts)) if randomize else None
        out = []
        for start, count in parts:
            part = copy.copy(self)
            part.sampler = SplitPartSampler(self.sampler, start, count, randomize, unseeded)
            part._dataset_size = None
            out.append(part)
        return out


def _refuse_cache(self):
    """A Python-data source under a cache: MindSpore's error (its rows have no stable identity to cache by)."""
    raise RuntimeError("There is currently no support for GeneratorOp under cache.")


class GeneratorDataset(RandomAccessSource):
    """Rows from Python: a generator function, an iterable, or an object with ``__getitem__``/``__len__``.

    Each item is a tuple with one value per column (a single value for a single column). Python
    ints become int64 arrays, floats float64, as in MindSpore. A generator function or an iterable
    is read afresh each pass, holding no rows; an iterator object (a called generator) can only be
    read once, so its rows are kept to be replayed, as MindSpore does: pass the function to stream.

    Args:
        source: a callable returning an iterator, an iterable, or a random-access object.
        column_names (Union[str, list[str]]): the names of the columns.
        column_types (list, optional): expected dtypes (MindSpore or NumPy types); a row of another
            dtype raises ``RuntimeError``.
        num_samples (int, optional): at most this many rows per epoch (per shard).
        shuffle (bool, optional): shuffle a random-access source every epoch (default ``True``;
            generators and iterables are always read in order).
        sampler (optional): a sampler or an iterable of indices (random-access sources only).
        num_shards, shard_id (int, optional): read only shard ``shard_id`` of ``num_shards``
            (random-access sources only).
        num_parallel_workers, python_multiprocessing, max_rowsize: accepted for compatibility.

    Raises:
        ValueError: if ``column_names`` is missing, or sharding/sampler is asked of a source
            without ``__getitem__``, or the sampling arguments conflict.
        TypeError: if ``source`` is neither callable, iterable nor indexable.
    """

    def __init__(self, source: Any, column_names: str | list[str] | None = None, column_types: Any = None,
                 schema: Any = None, num_samples: int | None = None, num_parallel_workers: int = 1,
                 shuffle: bool | None = None, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, python_multiprocessing: bool = True,
                 max_rowsize: int | None = None) -> None:
        if schema is not None:
            raise TypeError("GeneratorDataset: npspore does not support 'schema'; give 'column_names' instead.")
        if column_names is None:
            raise ValueError("Neither columns_names nor schema are provided.")
        names = column_list(column_names, "column_names")
        check_shards(num_shards, shard_id)
        self.source = source
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self.random_access:
            if not callable(source) and not hasattr(source, "__iter__"):
                raise TypeError(f"GeneratorDataset's source must be a callable, an iterable or an object with "
                                f"__getitem__ and __len__, but got {type(source).__name__}.")
            for name, value in (("num_shards", num_shards), ("sampler", sampler)):
                if value is not None:
                    raise ValueError(f"{name} is not supported if source does not have attribute '__getitem__'.")
        sampler = sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id)
        super().__init__(names, sampler, num_parallel_workers)
        self.num_samples = num_samples
        self.column_types = None if column_types is None else [numpy_dtype(t, "column_types") for t in column_types]
        if self.column_types is not None and len(self.column_types) != len(names):
            raise ValueError(f"column_types {column_types} must give one type per column of {names}.")

    _cache_source = _refuse_cache

    def _length(self):
        return len(self.source)

    def _row(self, index):
        return self._checked(self.source[index])

    def _checked(self, item):
        row = as_row(item, self._names, "the 'source' of 'GeneratorDataset'")
        if self.column_types is not None:
            for array, expected, name in zip(row, self.column_types, self._names):
                if array.dtype != expected:
                    raise RuntimeError(f"The 'source' of 'GeneratorDataset' returned {array.dtype} data for column "
                                       f"'{name}', but column_types specifies {expected}.")
        return row

    def _rows(self, key):
        if self.random_access:
            yield from super()._rows(key)
            return
        if callable(self.source):
            items = self.source()
        elif iter(self.source) is self.source:
            # An iterator (e.g. a generator object) can be read once: like MindSpore, keep what it gave
            # in a tee so that later passes replay it. A generator function streams instead.
            self.source, items = itertools.tee(self.source)
        else:
            items = iter(self.source)
        for item in itertools.islice(items, self.num_samples or None):
            yield self._checked(item)

    def _size(self):
        return super()._size() if self.random_access else Dataset._size(self)

    def _size_reads_rows(self):
        return not self.random_access

    def _split_parts(self, parts, randomize):
        if not self.random_access:
            return Dataset._split_parts(self, parts, randomize)
        return super()._split_parts(parts, randomize)


class NumpySlicesDataset(RandomAccessSource):
    """Rows sliced from in-memory data along its first axis.

    ``data`` is a list or ndarray (one column), a tuple (one column per element) or a dict (one
    column per key, named by the key). Python ints become int64, floats float64.

    Args:
        data (Union[list, tuple, dict, numpy.ndarray]): the data.
        column_names (list[str], optional): default ``column_0``, ``column_1``, ...; a dict's keys.
        num_samples, shuffle (default ``True``), sampler, num_shards, shard_id: as for
            :class:`GeneratorDataset`.

    Raises:
        ValueError: if the columns differ in length, or ``column_names`` has the wrong length.
        TypeError: if ``data`` is of another type.
    """

    def __init__(self, data: Any, column_names: str | list[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int = 1, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        if isinstance(data, dict):
            columns = [to_array(v, f"NumpySlicesDataset key {k!r}") for k, v in data.items()]
            default_names = [str(k) for k in data]
        elif isinstance(data, tuple):
            columns = [to_array(v, f"NumpySlicesDataset element {i}") for i, v in enumerate(data)]
            default_names = [f"column_{i}" for i in range(len(data))]
        elif isinstance(data, (list, np.ndarray)):
            columns = [to_array(data, "NumpySlicesDataset data")]
            default_names = ["column_0"]
        else:
            raise TypeError(f"NumpySlicesDataset's data should be a list, tuple, dict or numpy.ndarray, "
                            f"but got {type(data).__name__}.")
        if isinstance(data, dict) or column_names is None:
            names = default_names
        else:
            names = column_list(column_names, "column_names")
        if len(names) != len(columns):
            raise ValueError(f"column_names {names} must name each of the {len(columns)} columns of the data.")
        if any(c.ndim == 0 for c in columns) or len({len(c) for c in columns}) > 1:
            raise ValueError(f"NumpySlicesDataset's columns must be sequences of equal length, but got lengths "
                             f"{[len(c) if c.ndim else 'scalar' for c in columns]}.")
        self.columns = columns
        super().__init__(names, sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id),
                         num_parallel_workers)

    _cache_source = _refuse_cache

    def _length(self):
        return len(self.columns[0])

    def _row(self, index):
        return tuple(np.array(column[index]) for column in self.columns)


class PaddedDataset(RandomAccessSource):
    """Rows given as dicts (column name to value), typically to pad another dataset to a multiple of the shards
    (``dataset + PaddedDataset(...)``); the columns are the first dict's keys, in order, read in order.

    Args:
        padded_samples (list[dict]): the rows.

    Raises:
        TypeError: If `padded_samples` is not a list of dicts.
        ValueError: If it is empty.
        RuntimeError: (when read) If a row lacks a column.
    """

    def __init__(self, padded_samples: list[dict]) -> None:
        if not isinstance(padded_samples, list):
            raise TypeError(f"Argument padded_samples with value {padded_samples} is not of type [<class 'list'>], "
                            f"but got {type(padded_samples)}.")
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        for sample in padded_samples:
            if not isinstance(sample, dict):
                raise TypeError(f"Argument padded_element with value {sample} is not of type [<class 'dict'>], but "
                                f"got {type(sample)}.")
        self.padded_samples = padded_samples
        super().__init__([str(name) for name in padded_samples[0]],
                         sampler_from_arguments(None, False, None, None, None))

    _cache_source = _refuse_cache

    def _length(self):
        return len(self.padded_samples)

    def _row(self, index):
        sample = self.padded_samples[index]
        missing = [name for name in self._names if name not in sample]
        if missing:
            raise RuntimeError(f"PaddedDataset: row {index} has no column {missing[0]!r}.")
        return tuple(to_array(sample[name], f"PaddedDataset column {name!r}") for name in self._names)
