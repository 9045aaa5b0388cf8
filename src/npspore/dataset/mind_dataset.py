"""``MindDataset``: the rows of MindRecord files (``mindspore.mindrecord``), streamed from disk.

Each row is read when the sampler reaches it (``mindrecord.shards``), so a data set larger than
memory streams, and a damaged file gives a ``ValueError`` naming it.
"""
from __future__ import annotations

import numpy as np

from ..mindrecord import shards  # a module, not its names: mindrecord.shards reads through dataset.records
from .columns import column_list
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource

__all__ = ["MindDataset"]

_NUMPY_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}


class MindDataset(RandomAccessSource):
    """The rows of a MindRecord data set written by ``mindrecord.FileWriter`` (npspore's or MindSpore's).

    Columns are the schema's fields in name order: numbers as 0-d arrays of their type (``int32``,
    ``float64`` ...), numeric arrays with their shape, a ``string`` as a 0-d str array and ``bytes`` as a
    bytes array of shape ``(1,)`` (as MindSpore 2.10 gives them; these two stay NumPy arrays in Tensor
    iterators).

    Args:
        dataset_files (Union[str, list[str]]): one file of the set (all its shards are read), or the
            list of the files to read.
        columns_list (list[str], optional): the columns to read, in this order. Default: ``None`` (all).
        num_parallel_workers (int, optional): accepted for compatibility.
        shuffle (bool, optional): shuffle the rows. Default: ``None`` (shuffled; npspore's shuffle
            order is its own, not MindSpore's).
        num_shards, shard_id, sampler, num_samples: as for ``GeneratorDataset`` (shards interleave the rows
            as MindSpore's do).
        padded_sample, num_padded: padding rows is not supported (only ``None``).
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.

    Raises:
        ValueError: If a file does not exist or is damaged, a column is not a field, or padding is asked for.

    Examples:
        >>> dataset = ds.MindDataset(dataset_files="test.mindrecord", shuffle=False)
        >>> for row in dataset.create_dict_iterator(output_numpy=True):
        ...     print(row["label"])
    """

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None, num_shards=None,
                 shard_id=None, sampler=None, padded_sample=None, num_padded=None, num_samples=None, cache=None):
        if padded_sample is not None or num_padded not in (None, 0):
            raise ValueError("MindDataset: padded_sample and num_padded are not supported by npspore.")
        self._records = shards.ShardSet(shards.shard_paths(dataset_files))
        fields = list(self._records.schema)
        names = fields if columns_list is None else column_list(columns_list, "columns_list")
        for name in names:
            if name not in fields:
                raise ValueError(f"Invalid columns_list: '{name}' is not a field of the MindRecord schema {fields}.")
        super().__init__(names, sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id),
                         num_parallel_workers, cache)

    def _length(self):
        return len(self._records)

    def _row(self, index):
        row = self._records.row(index)
        return tuple(self._column(row[name], self._records.schema[name]["type"]) for name in self._names)

    @staticmethod
    def _column(value, kind):
        if isinstance(value, np.ndarray):
            return value
        if kind == "bytes":
            return np.array([value])
        if kind == "string":
            return np.array(value)
        return np.array(value, _NUMPY_TYPES[kind])
