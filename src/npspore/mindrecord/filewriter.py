"""``mindspore.mindrecord.FileWriter``: writes MindRecord files that MindSpore 2.10 reads.

Rows are checked against the schema as they are written and streamed to their shard's pages (a
full page goes to disk at once); ``commit`` writes the last pages, each shard's header and its
``.db`` index (the SQLite file MindSpore's reader opens). The byte layout is ``layout.py``'s.
"""
from __future__ import annotations

import os
import sqlite3
from typing import Any

import numpy as np

from . import layout
from .errors import (MRMCommitError, MRMDefineIndexError, MRMInvalidHeaderSizeError, MRMInvalidPageSizeError,
                     MRMInvalidSchemaError, MRMOpenError, MRMValidateDataError, ParamTypeError, ParamValueError)

__all__ = ["FileWriter"]

_MIN_HEADER_SIZE, _MAX_HEADER_SIZE = 1 << 14, 1 << 27
_MIN_PAGE_SIZE, _MAX_PAGE_SIZE = 1 << 15, 1 << 28
_MAX_SHARDS = 1000
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}
_INT_RANGES = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1)}


class _Page:
    """A page being filled: its records, and its page id once written."""

    def __init__(self, kind: str, type_id: int, first_row: int):
        self.kind, self.type_id, self.first_row = kind, type_id, first_row
        self.data = bytearray()
        self.page_id: int | None = None
        self.groups: list[dict] = []   # raw pages: the row groups starting here, with their offsets


class _Shard:
    """One shard file being written: its open file, pages and the index rows of its ``.db``."""

    def __init__(self, path: str):
        self.path = path
        self.file = open(path, "wb")
        self.pages: list[_Page] = []          # written pages, in page id order
        self.blob = _Page("BLOB_DATA", 0, 0)
        self.raw = _Page("RAW_DATA", 0, 0)
        self.rows: list[tuple] = []           # (raw page, start, end, group, blob page, start, end, index values)

    def write_page(self, page: _Page, header_size: int, page_size: int) -> None:
        page.page_id = len(self.pages)
        self.pages.append(page)
        self.file.seek(header_size + page.page_id * page_size)
        self.file.write(page.data)


class FileWriter:
    """Writes a MindRecord data set: rows of a schema, in ``shard_num`` files.

    Args:
        file_name (str): the file to write; with ``shard_num > 1`` the files are ``file_name0``,
            ``file_name1`` ... Each gets a ``.db`` index beside it.
        shard_num (int, optional): the number of files, 1 to 1000. Default: ``1``.
        overwrite (bool, optional): replace existing files of these names. Default: ``False``.

    Raises:
        ParamValueError: If ``shard_num`` is out of range.
        ParamTypeError: If ``file_name`` is not a str or ``shard_num`` not an int.
        MRMOpenError: If a file exists and ``overwrite`` is False, or cannot be created.

    Examples:
        >>> writer = FileWriter(file_name="test.mindrecord", shard_num=1, overwrite=True)
        >>> schema_id = writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
        ...                                "data": {"type": "bytes"}}, "test_schema")
        >>> writer.add_index(["file_name", "label"])
        >>> writer.write_raw_data([{"file_name": "1.jpg", "label": 0, "data": b"\\x10\\x11"}])
        >>> writer.commit()
    """

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False):
        if not isinstance(file_name, str):
            raise ParamTypeError("file_name", "str")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamTypeError("shard_num", "int")
        if not 1 <= shard_num <= _MAX_SHARDS:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between 1 and {_MAX_SHARDS}.")
        layout.msgpack_module()
        self._paths = [file_name] if shard_num == 1 else [f"{file_name}{i}" for i in range(shard_num)]
        for path in self._paths:
            for existing in (path, path + ".db"):
                if os.path.exists(existing):
                    if not overwrite:
                        raise MRMOpenError(f"The file {existing} already exists: pass overwrite=True to replace it.")
                    os.remove(existing)
        self._header_size, self._page_size = layout.DEFAULT_HEADER_SIZE, layout.DEFAULT_PAGE_SIZE
        self._schema: dict | None = None
        self._desc = ""
        self._index_fields: list[str] | None = None
        self._shards: list[_Shard] = []
        self._committed = False

    def set_header_size(self, header_size: int) -> None:
        """Set the size of each file's header block, 16 KB to 128 MB (before writing rows).

        Raises:
            MRMInvalidHeaderSizeError: If it is out of range or rows were written.
        """
        self._header_size = self._size(header_size, _MIN_HEADER_SIZE, _MAX_HEADER_SIZE, MRMInvalidHeaderSizeError,
                                       "header")

    def set_page_size(self, page_size: int) -> None:
        """Set the size of each page, 32 KB to 256 MB (before writing rows); a row's blob data must fit in one.

        Raises:
            MRMInvalidPageSizeError: If it is out of range or rows were written.
        """
        self._page_size = self._size(page_size, _MIN_PAGE_SIZE, _MAX_PAGE_SIZE, MRMInvalidPageSizeError, "page")

    def _size(self, size, low: int, high: int, error: type, what: str) -> int:
        if self._shards or not isinstance(size, int) or isinstance(size, bool) or not low <= size <= high:
            raise error(f"The {what} size should be in [{low}, {high}] and set before writing, but got {size}.")
        return size

    def add_schema(self, content: dict, desc: str | None = None) -> int:
        """Set the schema: field name to ``{"type": t}`` with ``t`` one of ``int32``, ``int64``, ``float32``,
        ``float64``, ``string``, ``bytes``, and ``"shape": [...]`` for numeric arrays (``-1`` for one
        dimension of any size).

        Returns:
            int, the schema id (0).

        Raises:
            MRMInvalidSchemaError: If the schema is invalid or one was already added.
        """
        if self._schema is not None:
            raise MRMInvalidSchemaError("Only one schema can be added.")
        self._schema = layout.check_schema(content)
        self._desc = "" if desc is None else str(desc)
        return 0

    def add_index(self, index_fields: list[str]) -> None:
        """Index the scalar fields ``index_fields`` in the ``.db`` files (by default every scalar field).

        Raises:
            MRMDefineIndexError: If a field is not a scalar (int, float or string) field of the schema.
        """
        if not isinstance(index_fields, list) or not index_fields:
            raise MRMDefineIndexError("Index fields should be a non-empty list.")
        schema = self._require_schema()
        blobs = layout.blob_fields(schema)
        for name in index_fields:
            if name not in schema or name in blobs:
                raise MRMDefineIndexError(f"'{name}' is not a scalar field of the schema.")
        self._index_fields = list(dict.fromkeys(index_fields))

    def write_raw_data(self, raw_data: list[dict], parallel_writer: bool = False) -> None:
        """Check the rows against the schema and write them, split in order over the shards.

        Args:
            raw_data (list[dict]): the rows, field name to value (a value of another field is ignored).
            parallel_writer (bool, optional): accepted for compatibility. Default: ``False``.

        Raises:
            ParamTypeError: If ``raw_data`` is not a list of dicts.
            MRMValidateDataError: naming the row and field, if a row lacks a field or a value does not fit
                its type or shape (MindSpore drops such rows with a warning; npspore writes nothing of
                the call).
        """
        if self._committed:
            raise MRMCommitError("The MindRecord files were committed: no more rows can be written.")
        if not isinstance(raw_data, list) or not all(isinstance(row, dict) for row in raw_data):
            raise ParamTypeError("raw_data", "list of dict")
        schema = self._require_schema()
        rows = [_checked_row(row, schema, i) for i, row in enumerate(raw_data)]
        if not self._shards:
            self._shards = [_Shard(path) for path in self._paths]
        per_shard = -(-len(rows) // len(self._shards))
        for shard, start in zip(self._shards, range(0, len(rows), per_shard or 1)):
            for row in rows[start:start + per_shard]:
                self._append(shard, row)

    def commit(self) -> None:
        """Write the last pages, each file's header and its ``.db`` index, and close the files.

        Raises:
            MRMCommitError: If there is no schema or the files were committed already.
        """
        if self._committed:
            raise MRMCommitError("The MindRecord files were committed already.")
        schema = self._require_schema()
        if not self._shards:
            self._shards = [_Shard(path) for path in self._paths]
        self._committed = True
        index_fields = self._index_fields or [n for n in schema if n not in layout.blob_fields(schema)]
        for shard_id, shard in enumerate(self._shards):
            for page in (shard.blob, shard.raw):
                if page.data or not shard.pages or page.kind == "RAW_DATA":
                    shard.write_page(page, self._header_size, self._page_size)
            end = self._header_size + (len(shard.pages) - 1) * self._page_size + len(shard.pages[-1].data)
            shard.file.truncate(end)
            shard.file.seek(0)
            shard.file.write(layout.encode_header(self._header(shard, shard_id, schema, index_fields),
                                                  self._header_size))
            shard.file.close()
            _write_index(shard, schema, index_fields)

    def _require_schema(self) -> dict:
        if self._schema is None:
            raise MRMCommitError("Add a schema with add_schema before writing or committing.")
        return self._schema

    def _append(self, shard: _Shard, row: dict) -> None:
        schema = self._schema
        assert schema is not None
        blobs = layout.blob_fields(schema)
        blob = layout.encode_blob(row, blobs)
        raw = layout.encode_raw(row, [n for n in schema if n not in blobs])
        if len(blob) > self._page_size or len(raw) > self._page_size:
            raise MRMInvalidPageSizeError(f"A row needs {max(len(blob), len(raw))} bytes, more than the page size "
                                          f"{self._page_size}: raise it with set_page_size.")
        row_id = len(shard.rows)
        if len(shard.blob.data) + len(blob) > self._page_size:
            shard.write_page(shard.blob, self._header_size, self._page_size)
            shard.blob = _Page("BLOB_DATA", shard.blob.type_id + 1, row_id)
        if len(shard.raw.data) + len(raw) > self._page_size:
            shard.write_page(shard.raw, self._header_size, self._page_size)
            shard.raw = _Page("RAW_DATA", shard.raw.type_id + 1, row_id)
        group = shard.blob.type_id
        if not shard.raw.groups or shard.raw.groups[-1]["id"] != group:
            shard.raw.groups.append({"id": group, "offset": len(shard.raw.data)})
        raw_start, blob_start = len(shard.raw.data), len(shard.blob.data)
        shard.raw.data += raw
        shard.blob.data += blob
        shard.rows.append((shard.raw, raw_start, len(shard.raw.data), group, shard.blob, blob_start,
                           len(shard.blob.data), {n: row[n] for n in schema if n not in blobs}))

    def _header(self, shard: _Shard, shard_id: int, schema: dict, index_fields: list[str]) -> dict:
        rows = len(shard.rows)
        pages = []
        for page in shard.pages:
            blob = page.kind == "BLOB_DATA"
            following = [p.first_row for p in shard.pages if p.kind == page.kind and p.type_id == page.type_id + 1]
            pages.append({"end_row_id": (following[0] if following else rows) if blob else 0,
                          "page_id": page.page_id, "page_size": len(page.data), "page_type": page.kind,
                          "page_type_id": page.type_id, "row_group_ids": [{"id": 0, "offset": 0}] if blob
                          else page.groups or [{"id": 0, "offset": 0}], "shard_id": shard_id,
                          "start_row_id": page.first_row if blob else 0})
        return {"header_size": self._header_size, "page_size": self._page_size, "compression_size": 0,
                "index_fields": [{"index_field": n, "schema_id": 0} for n in index_fields],
                "page": pages, "schema": [{"blob_fields": layout.blob_fields(schema), "desc": self._desc,
                                           "schema": schema}],
                "shard_addresses": [os.path.basename(p) for p in self._paths], "shard_id": shard_id,
                "statistics": None, "version": "3.0"}


def _checked_row(row: dict, schema: dict, position: int) -> dict:
    """The row's values in the types the layout stores, or MRMValidateDataError naming the row and field."""
    checked = {}
    for name, field in schema.items():
        if name not in row:
            raise MRMValidateDataError(f"row {position} has no field '{name}'.")
        checked[name] = _checked_value(row[name], field, f"row {position}, field '{name}'")
    return checked


def _checked_value(value: Any, field: dict, where: str):
    kind = field["type"]
    if "shape" in field:
        array = np.asarray(value)
        target = np.dtype(layout.FIELD_TYPES[kind])
        if array.dtype.kind not in "biuf" or (target.kind in "iu" and array.dtype.kind == "f"):
            raise MRMValidateDataError(f"{where}: expected a {kind} array, got {array.dtype}.")
        shape = field["shape"]
        fits = (len(shape) == array.ndim or (len(shape) == 1 and -1 in shape)) and all(
            d in (-1, s) for d, s in zip(shape, array.shape if len(shape) == array.ndim else (array.size,)))
        if not fits:
            raise MRMValidateDataError(f"{where}: the shape {list(array.shape)} does not fit {shape}.")
        return array.astype(target)
    if kind == "bytes":
        if not isinstance(value, (bytes, bytearray, np.bytes_)):
            raise MRMValidateDataError(f"{where}: expected bytes, got {type(value).__name__}.")
        return bytes(value)
    if kind == "string":
        if not isinstance(value, (str, np.str_)):
            raise MRMValidateDataError(f"{where}: expected a str, got {type(value).__name__}.")
        return str(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) or (
            kind in _INT_RANGES and not isinstance(value, (int, np.integer))):
        raise MRMValidateDataError(f"{where}: expected {kind}, got {type(value).__name__} {value!r:.40}.")
    if kind in _INT_RANGES:
        low, high = _INT_RANGES[kind]
        if not low <= int(value) <= high:
            raise MRMValidateDataError(f"{where}: {value} is out of the range of {kind}.")
        return int(value)
    return float(value)


def _write_index(shard: _Shard, schema: dict, index_fields: list[str]) -> None:
    """The shard's ``.db``: MindSpore's INDEXES table (one row per data row) and SHARD_NAME."""
    columns = "".join(f",INC_{i} INT, {name}_0 {_SQL_TYPES[schema[name]['type']]}"
                      for i, name in enumerate(index_fields))
    keys = "".join(f",INC_{i}" for i in range(len(index_fields)))
    with sqlite3.connect(shard.path + ".db") as db:
        db.execute("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL, "
                   "PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, ROW_GROUP_ID         INT  "
                   "NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT NULL, "
                   f"PAGE_OFFSET_BLOB_END INT  NOT NULL{columns}, PRIMARY KEY(ROW_ID{keys}))")
        db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        marks = ",".join("?" * (8 + 2 * len(index_fields)))
        db.executemany(f"INSERT INTO INDEXES VALUES({marks})", [
            (row_id, raw.page_id, raw_start, raw_end, group, blob.page_id, blob_start, blob_end,
             *[v for name in index_fields for v in (0, values[name])])
            for row_id, (raw, raw_start, raw_end, group, blob, blob_start, blob_end, values) in enumerate(shard.rows)])
        db.execute("INSERT INTO SHARD_NAME VALUES(?)", (os.path.basename(shard.path),))
    db.close()
