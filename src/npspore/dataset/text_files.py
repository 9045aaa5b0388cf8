"""Datasets of text files, a row per non-empty line, as MindSpore 2.10 reads them: ``TextFileDataset`` (the line
as a 0-d str column ``text``, a ``\\r`` before its newline kept) and ``CSVDataset``.

Opening such a dataset indexes where each line lies, a megabyte at a time; a row is read when it is reached.
Rows come in file order (MindSpore's with one parallel worker); shuffling and shards as ``TFRecordDataset``'s
with ``shard_equal_rows``.

In a CSV file each line is a row of 0-d columns: text (str) by default, or int32 / float32 where
``column_defaults`` gives an int / float for the column (its value parsed from the start of the field, as C's
``stoi``/``stof`` do: ``"2.5"`` is 2 as an int; an empty or unparsable field is an error). Without
``column_names`` the first line of each file is its header, the first file's naming the columns; with them every
line is data. Fields are split with the ``csv`` module (``"q,r"`` is one field).
"""
from __future__ import annotations

import csv
import re
from typing import Any

import numpy as np

from .arguments import check_bool
from .columns import column_list
from .records import DataFile
from .sampling import check_shards
from .sources import RandomAccessSource
from .tfrecord import Shuffle, _dataset_files, _FileOrder

__all__ = ["CSVDataset", "TextFileDataset"]

_INT_PREFIX = re.compile(r"\s*[+-]?\d+")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)", re.IGNORECASE)


_CHUNK = 1 << 20


def _line_spans(file):
    """``(offset, length)`` of each non-empty line of the ``DataFile``, read a megabyte at a time."""
    spans, line_start, size = [], 0, file.size()
    blank = True
    for chunk_start in range(0, size, _CHUNK):
        chunk = bytes(file.read(chunk_start, min(_CHUNK, size - chunk_start)))
        position = 0
        while True:
            end = chunk.find(b"\n", position)
            piece = chunk[position:] if end < 0 else chunk[position:end]
            blank = blank and not piece.strip(b"\r")
            if end < 0:
                break
            if not blank:
                spans.append((line_start, chunk_start + end - line_start))
            line_start, blank, position = chunk_start + end + 1, True, end + 1
    if not blank:
        spans.append((line_start, size - line_start))
    return spans


class _LineFiles(RandomAccessSource):
    """A random-access source over the non-empty lines of ``dataset_files`` (a header line per file skipped with
    ``header``), its sampler built from MindSpore's file-dataset arguments."""

    def __init__(self, dataset_files, names, header, num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
                 cache):
        if not isinstance(shuffle, Shuffle):
            check_bool(shuffle, "shuffle")
            shuffle = Shuffle.GLOBAL if shuffle else None
        check_shards(num_shards, shard_id)
        self.dataset_files = self._files_to_read(dataset_files)
        self._files = [DataFile(path) for path in self.dataset_files]
        self._spans = [_line_spans(file) for file in self._files]
        self._first_line = 1 if header else 0
        if names is None:
            names = self._fields(0, 0) if self._spans and self._spans[0] else []
        if header:
            self._spans = [spans[1:] for spans in self._spans]
        self._ends = np.cumsum([len(spans) for spans in self._spans])
        sampler = _FileOrder([len(spans) for spans in self._spans], shuffle, num_shards, shard_id, True, num_samples)
        super().__init__(names, sampler, num_parallel_workers, cache)

    def _files_to_read(self, dataset_files):
        """The paths to read, in order: the files the patterns match, sorted."""
        return _dataset_files(dataset_files)

    def _line(self, part, local):
        start, length = self._spans[part][local]
        return bytes(self._files[part].read(start, length)).decode("utf-8")

    def _fields(self, part, local):
        raise NotImplementedError

    def _length(self):
        return int(self._ends[-1]) if len(self._ends) else 0

    def _locate(self, index):
        part = int(np.searchsorted(self._ends, index, side="right"))
        return part, index - (int(self._ends[part - 1]) if part else 0)


class TextFileDataset(_LineFiles):
    """Each non-empty line of text files as a row: the 0-d str column ``text`` (see the module doc).

    Args:
        dataset_files (Union[str, list[str]]): files or glob patterns, read in sorted order.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`CSVDataset`.
    """

    def __init__(self, dataset_files: str | list[str], num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        super().__init__(dataset_files, ["text"], False, num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id, cache)

    def _row(self, index):
        return (np.array(self._line(*self._locate(index))),)


class CSVDataset(_LineFiles):
    """Rows of CSV files (see the module doc).

    Args:
        dataset_files (Union[str, list[str]]): files or glob patterns, read in sorted order.
        field_delim (str, optional): the one-character field delimiter. Default: ``','``.
        column_defaults (list, optional): per column an int, float or str giving its type. Default: ``None``,
            every column str.
        column_names (list[str], optional): the columns; then no line is a header. Default: ``None``.
        num_samples (int, optional): the most rows to read. Default: ``None``, all.
        num_parallel_workers (int, optional): accepted; rows are read in the calling thread.
        shuffle (Union[bool, Shuffle], optional): as ``TFRecordDataset``'s. Default: ``Shuffle.GLOBAL``.
        num_shards (int, optional), shard_id (int, optional): read shard ``shard_id``: an equal run of rows.
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.

    Raises:
        ValueError: If a pattern matches no file.
        TypeError: If a column default is not an int, float or str.
        RuntimeError: (when read) If a line has another number of fields or a field does not parse as its type.
    """

    def __init__(self, dataset_files: str | list[str], field_delim: str = ",", column_defaults: list | None = None,
                 column_names: list[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in "\"\r\n":
            raise ValueError(f"field_delim must be one character other than a quote or a newline, but got "
                             f"{field_delim!r}.")
        if column_defaults is not None and (not isinstance(column_defaults, list) or not all(
                isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in column_defaults)):
            raise TypeError("column type in column_defaults is invalid.")
        self.field_delim, self.column_defaults = field_delim, list(column_defaults or [])
        names = None if column_names is None else column_list(column_names, "column_names")
        super().__init__(dataset_files, names, column_names is None, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _fields(self, part, local):
        return next(csv.reader([self._line(part, local).rstrip("\r")], delimiter=self.field_delim))

    def _row(self, index):
        part, local = self._locate(index)
        fields = self._fields(part, local)
        where = f"Invalid csv, csv file: {self.dataset_files[part]} parse failed at line {local + self._first_line}"
        if len(fields) != len(self._names):
            raise RuntimeError(f"{where}, the number of columns does not match the definition.")
        return tuple(self._parse(field, i, where) for i, field in enumerate(fields))

    def _parse(self, field, column, where):
        default = self.column_defaults[column] if column < len(self.column_defaults) else ""
        if isinstance(default, str):
            return np.array(field)
        pattern, dtype = (_INT_PREFIX, np.int32) if isinstance(default, int) else (_FLOAT_PREFIX, np.float32)
        match = pattern.match(field)
        if match is None:
            raise RuntimeError(f"{where}, type does not match.")
        return np.array(int(match.group()) if dtype is np.int32 else float(match.group()), dtype)
