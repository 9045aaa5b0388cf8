"""Reading MindRecord shard files: the rows of a set of shards, by index, checked as they are read.

Opening a shard reads its header and walks its pages once to find where each row's raw and blob
records are (a few bytes per row: the blob data is not read); a row's records are read when the row
is asked for, with positioned reads (``dataset.records.DataFile``), so a data set larger than memory
streams. Everything read is checked against the header and the schema: a damaged or truncated file
gives a ``ValueError`` naming it, never a crash or a wrong row.
"""
from __future__ import annotations

import os
import struct

import numpy as np

from ..dataset.records import DataFile
from . import layout

__all__ = ["ShardSet", "shard_paths"]

_LENGTH = struct.Struct("<Q")


class _Shard:
    """One shard file: its header and the ``(raw start, raw end, blob start, blob end)`` of each row."""

    def __init__(self, path: str):
        self.file = DataFile(path)
        size = self.file.size()
        head = self.file.read(0, min(_LENGTH.size, size))
        length = _LENGTH.unpack_from(head)[0] if len(head) == _LENGTH.size else 0
        prefix = self.file.read(0, min(_LENGTH.size + length, size))
        self.header = layout.decode_header(prefix, size, path)
        self.schema = layout.check_schema(self.header["schema"][0]["schema"])
        self.blob_names = layout.blob_fields(self.schema)
        self.raw_names = [n for n in self.schema if n not in self.blob_names]
        raws = self._records("RAW_DATA")
        blobs = self._records("BLOB_DATA")
        if len(raws) != len(blobs):
            raise ValueError(f"Invalid MindRecord file {path}: it has {len(raws)} raw records but {len(blobs)} "
                             f"blob records.")
        self.rows = [(r[0], r[1], b[0], b[1]) for r, b in zip(raws, blobs)]

    def _records(self, kind: str) -> list[tuple[int, int]]:
        """The absolute ``(start, end)`` of each record of the pages of ``kind``, in page order."""
        pages = sorted((p for p in self.header["page"] if p["page_type"] == kind), key=lambda p: p["page_type_id"])
        spans: list[tuple[int, int]] = []
        for page in pages:
            start = self.header["header_size"] + page["page_id"] * self.header["page_size"]
            used = page["page_size"]
            if kind == "RAW_DATA":   # small scalar records: the page is read whole
                spans += [(start + s, start + e) for s, e in layout.records(self.file.read(start, used), self.file.path)]
                continue
            offset, first = 0, len(spans)
            while offset < used:   # blob records: only their lengths are read
                if offset + _LENGTH.size > used:
                    raise ValueError(f"Invalid MindRecord file {self.file.path}: a blob record length is cut in page "
                                     f"{page['page_id']}.")
                (length,) = _LENGTH.unpack(self.file.read(start + offset, _LENGTH.size))
                end = offset + _LENGTH.size + length
                if end > used:
                    raise ValueError(f"Invalid MindRecord file {self.file.path}: a blob record of {length} bytes runs "
                                     f"past page {page['page_id']}.")
                spans.append((start + offset + _LENGTH.size, start + end))
                offset = end
            if len(spans) - first != page["end_row_id"] - page["start_row_id"]:
                raise ValueError(f"Invalid MindRecord file {self.file.path}: page {page['page_id']} holds "
                                 f"{len(spans) - first} rows, its header says {page['end_row_id'] - page['start_row_id']}.")
        return spans

    def row(self, index: int) -> dict:
        raw_start, raw_end, blob_start, blob_end = self.rows[index]
        where = f"{self.file.path} (row {index})"
        row = layout.decode_raw(self.file.read(raw_start, raw_end - raw_start), self.schema, self.raw_names, where)
        row.update(layout.decode_blob(self.file.read(blob_start, blob_end - blob_start), self.schema,
                                      self.blob_names, where))
        return row


def shard_paths(dataset_files) -> list[str]:
    """The shard files to read: a str names one file of a set (all its shards are read, found beside it
    by the names in its header); a list names exactly the files to read.

    Raises:
        ValueError: if a file does not exist (MindSpore's message), or the list is empty.
        TypeError: if ``dataset_files`` is neither a str nor a list of str.
    """
    if isinstance(dataset_files, (str, os.PathLike)):
        path = os.fspath(dataset_files)
        _check_exists(path)
        header = _Shard(path).header
        folder = os.path.dirname(path)
        paths = [os.path.join(folder, name) if isinstance(name, str) and name == os.path.basename(name) else None
                 for name in header["shard_addresses"]]
        if None in paths or not paths:
            raise ValueError(f"Invalid MindRecord file {path}: its shard_addresses are not file names.")
        for other in paths:
            _check_exists(other)
        return paths
    if not isinstance(dataset_files, list) or not all(isinstance(p, (str, os.PathLike)) for p in dataset_files):
        raise TypeError(f"Argument dataset_files with value {dataset_files!r} is not of type [<class 'str'>, "
                        f"<class 'list'>].")
    if not dataset_files:
        raise ValueError("dataset_files should not be empty.")
    for path in dataset_files:
        _check_exists(os.fspath(path))
    return [os.fspath(p) for p in dataset_files]


def _check_exists(path: str) -> None:
    if not os.path.isfile(path):
        raise ValueError(f"The file {path} does not exist or permission denied!")


class ShardSet:
    """The rows of MindRecord shard files in order (each file's rows, file after file).

    Raises:
        ValueError: if a file is damaged or the files' schemas differ.
    """

    def __init__(self, paths: list[str]):
        self.shards = [_Shard(path) for path in paths]
        self.schema = self.shards[0].schema
        for shard in self.shards[1:]:
            if shard.schema != self.schema:
                raise ValueError(f"The MindRecord files {paths[0]} and {shard.file.path} have different schemas.")
        self.ends = np.cumsum([len(s.rows) for s in self.shards])

    def __len__(self) -> int:
        return int(self.ends[-1])

    def row(self, index: int) -> dict:
        """Row ``index``'s fields: Python ints, floats and strs, bytes, and NumPy arrays."""
        part = int(np.searchsorted(self.ends, index, side="right"))
        return self.shards[part].row(index - (int(self.ends[part - 1]) if part else 0))
