"""``TFRecordDataset``: rows from TFRecord files of ``tf.train.Example`` records, as MindSpore reads them.

A TFRecord file is a sequence of records in TensorFlow's framing (:mod:`npspore.core.record_framing`, its
CRC32C checksums checked, from ``google-crc32c``), each a serialized ``tf.train.Example``
(:mod:`npspore.dataset.example_proto`, parsed with ``protobuf``). Opening the dataset indexes where each
record lies (reading only the record headers); a row is read, checked and parsed when it is reached.

Each feature is a column: an ``int64_list`` as int64, a ``float_list`` as float32 and a ``bytes_list`` as the
uint8 bytes of its one value, each one-dimensional; a ``Schema`` names the columns and gives their types (a
``bytes_list`` read as ``string`` gives an array of str) and shapes. Rows come in file order (the order
MindSpore gives with one parallel worker; with several it interleaves the files).
"""
from __future__ import annotations

import glob
import math
from enum import Enum
from typing import Any

import numpy as np

from ..core import record_framing
from .arguments import check_bool
from .columns import column_list
from .example_proto import example_message
from .records import DataFile
from .sampling import Sampler, check_shards
from .schema import Schema
from .sources import RandomAccessSource

__all__ = ["Shuffle", "TFRecordDataset"]

_KIND = "TFRecord file"
_LIST_TYPES = {"int64_list": np.dtype(np.int64), "float_list": np.dtype(np.float32), "bytes_list": np.dtype(np.uint8)}


class Shuffle(str, Enum):
    """How a file dataset shuffles: ``GLOBAL`` (every row), ``FILES`` (the order of the files) or ``INFILE``
    (the rows within each file)."""

    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


def _dataset_files(dataset_files):
    patterns = [dataset_files] if isinstance(dataset_files, str) else dataset_files
    if not isinstance(patterns, (list, tuple)) or not patterns or not all(isinstance(p, str) for p in patterns):
        raise TypeError(f"Argument dataset_files with value {dataset_files!r} is not of type [<class 'str'>, "
                        f"<class 'list'>] of str.")
    found, unmatched = set(), []
    for pattern in patterns:
        matches = glob.glob(pattern)
        if not matches:
            unmatched.append(pattern)
        found.update(matches)
    if unmatched:
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    return sorted(found)


def _record_spans(file):
    """``(data offset, data size, record offset)`` of every record of the ``DataFile``, headers checked."""
    spans, offset, end = [], 0, file.size()
    while offset < end:
        if offset + record_framing.HEADER_SIZE > end:
            raise ValueError(f"Invalid {_KIND} {file.path}: a record header is cut at byte {offset}.")
        size = record_framing.data_size(file.read(offset, record_framing.HEADER_SIZE), file.path, offset, _KIND)
        start = offset + record_framing.HEADER_SIZE
        if start + size + record_framing.FOOTER_SIZE > end:
            raise ValueError(f"Invalid {_KIND} {file.path}: a record of {size} bytes at byte {offset} is cut.")
        spans.append((start, size, offset))
        offset = start + size + record_framing.FOOTER_SIZE
    return spans


class _FileOrder(Sampler):
    """The rows of a TFRecord pass: the shard's rows (whole files, or equal runs of rows) in file order,
    shuffled per ``shuffle``, capped by ``num_samples``."""

    def __init__(self, file_rows, shuffle, num_shards, shard_id, shard_equal_rows, num_samples):
        super().__init__(num_samples)
        self.shuffle = shuffle
        bounds = np.concatenate([[0], np.cumsum(file_rows)]).astype(np.int64)
        self.files = [np.arange(bounds[i], bounds[i + 1]) for i in range(len(file_rows))]
        if num_shards is not None and not shard_equal_rows:
            self.files = self.files[shard_id::num_shards]
        elif num_shards is not None:
            total = int(bounds[-1])
            per_shard = math.ceil(total / num_shards)
            rows = np.arange(shard_id * per_shard, (shard_id + 1) * per_shard) % total if total else np.arange(0)
            self.files = [rows]

    def _all_indices(self, n, key):
        files = self.files
        if self.shuffle is Shuffle.FILES:
            files = [files[i] for i in key.generator().permutation(len(files))]
        elif self.shuffle is Shuffle.INFILE:
            rng = key.generator()
            files = [rng.permutation(rows) for rows in files]
        order = np.concatenate(files).astype(np.int64) if files else np.zeros(0, np.int64)
        return key.generator().permutation(order) if self.shuffle is Shuffle.GLOBAL else order

    def _count(self, n):
        return sum(len(rows) for rows in self.files)


class TFRecordDataset(RandomAccessSource):
    """Rows of ``tf.train.Example`` records from TFRecord files (see the module doc).

    Args:
        dataset_files (Union[str, list[str]]): files or glob patterns, read in sorted order.
        schema (Union[str, Schema], optional): the columns to read, their types and shapes (a ``Schema`` or
            a JSON schema file); its ``numRows`` caps the rows when ``num_samples`` is not given. Default:
            ``None``: every feature of the first record, by name.
        columns_list (list[str], optional): the columns to read, in this order. Default: ``None``, all.
        num_samples (int, optional): the most rows to read. Default: ``None``, all.
        num_parallel_workers (int, optional): accepted; rows are read in the calling thread.
        shuffle (Union[bool, Shuffle], optional): ``Shuffle.GLOBAL`` (or True), ``Shuffle.FILES``,
            ``Shuffle.INFILE`` or False. Default: ``Shuffle.GLOBAL``.
        num_shards (int, optional), shard_id (int, optional): read shard ``shard_id`` of ``num_shards``: every
            ``num_shards``-th file from ``shard_id``, or with ``shard_equal_rows`` an equal run of rows
            (wrapping around to fill the last shard).
        shard_equal_rows (bool, optional): see ``num_shards``. Default: ``False``.
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.
        compression_type (str, optional): ``None`` or ``''``; npspore reads uncompressed files only.

    Raises:
        ValueError: If a pattern matches no file, a file is damaged, or there are fewer files than shards.
        RuntimeError: If a column of `columns_list` is not a feature, or a record lacks a schema column or
            holds another number of values than its shape.

    Examples:
        >>> dataset = ds.TFRecordDataset(dataset_files=["/path/to/tf_file"], shuffle=False)
    """

    def __init__(self, dataset_files: str | list[str], schema: str | Schema | None = None,
                 columns_list: list[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None, shard_equal_rows: bool = False,
                 cache: Any = None, compression_type: str | None = None) -> None:
        if compression_type not in (None, ""):
            raise ValueError(f"TFRecordDataset: npspore reads uncompressed TFRecord files only, but got "
                             f"compression_type {compression_type!r}.")
        if not isinstance(shuffle, Shuffle):
            check_bool(shuffle, "shuffle")
            shuffle = Shuffle.GLOBAL if shuffle else None
        check_bool(shard_equal_rows, "shard_equal_rows")
        check_shards(num_shards, shard_id)
        self.dataset_files = _dataset_files(dataset_files)
        if num_shards is not None and not shard_equal_rows and len(self.dataset_files) < num_shards:
            raise ValueError(f"Invalid file, numbers of tfrecord file should not less than num_shards when "
                             f"shard_equal_rows is false, but got numbers of tfrecord file: "
                             f"{len(self.dataset_files)}, num_shards: {num_shards}")
        self._files = [DataFile(path) for path in self.dataset_files]
        self._spans = [_record_spans(file) for file in self._files]
        self._ends = np.cumsum([len(spans) for spans in self._spans])
        if schema is not None and not isinstance(schema, Schema):
            schema = Schema(schema)
        self._columns = self._schema_columns(schema)
        if columns_list is not None:
            by_name = {column["name"]: column for column in self._columns}
            names = column_list(columns_list, "columns_list")
            for name in names:
                if name not in by_name:
                    raise RuntimeError(f"Invalid columns_list, tfrecord file failed to find column name: {name}")
            self._columns = [by_name[name] for name in names]
        if num_samples is None and schema is not None and schema.num_rows:
            num_samples = schema.num_rows
        sampler = _FileOrder([len(spans) for spans in self._spans], shuffle, num_shards, shard_id, shard_equal_rows,
                             num_samples)
        super().__init__([column["name"] for column in self._columns], sampler, num_parallel_workers, cache)

    def _schema_columns(self, schema):
        if schema is not None:
            return [dict(column) for column in schema.columns]
        if not self._length():
            return []
        features = self._example(0).features.feature
        return [{"name": name, "type": _LIST_TYPES[features[name].WhichOneof("kind")].name}
                for name in sorted(features)]

    def _length(self):
        return int(self._ends[-1]) if len(self._ends) else 0

    def _locate(self, index):
        part = int(np.searchsorted(self._ends, index, side="right"))
        return part, index - (int(self._ends[part - 1]) if part else 0)

    def _example(self, index):
        part, local = self._locate(index)
        file = self._files[part]
        start, size, offset = self._spans[part][local]
        content = file.read(start, size + record_framing.FOOTER_SIZE)
        data = record_framing.checked_data(content[:size], content[size:], file.path, offset, _KIND)
        example = example_message()()
        try:
            example.ParseFromString(bytes(data))
        except Exception as error:  # protobuf's DecodeError: the record is no Example
            raise ValueError(f"Invalid {_KIND} {file.path}: the record at byte {offset} is not a tf.train.Example "
                             f"({error}).") from None
        return example

    def _row(self, index):
        features = self._example(index).features.feature
        return tuple(self._column(features, column, index) for column in self._columns)

    def _column(self, features, column, index):
        name, kind = column["name"], column["type"]
        where = f"The corresponding data file is: {self.dataset_files[self._locate(index)[0]]}. "
        if name not in features:
            raise RuntimeError(f"{where}Feature name: {name} is required in schema but could not be found in "
                               f"tfrecord file.")
        feature = features[name]
        values = getattr(feature, feature.WhichOneof("kind") or "int64_list").value
        if feature.WhichOneof("kind") == "bytes_list":
            if kind in ("string", "bytes"):
                array = np.array([value.decode("utf-8", "replace") for value in values])
            elif len(values) == 1:
                array = np.frombuffer(values[0], np.uint8).astype(kind)
            else:
                raise RuntimeError(f"{where}Feature name: {name} holds {len(values)} bytes values; npspore reads "
                                   f"a bytes feature as '{kind}' only when it holds one.")
        elif kind in ("string", "bytes"):
            raise RuntimeError(f"{where}Feature name: {name} holds numbers, but its schema type is '{kind}'.")
        else:
            array = np.array(values, _LIST_TYPES[feature.WhichOneof("kind")]).astype(kind)
        shape = column.get("shape")
        if shape is not None:
            try:
                array = array.reshape(shape)
            except ValueError:
                raise RuntimeError(f"{where}Column shape of {name} defined in schema does not match the shape "
                                   f"actually load.") from None
        return array
