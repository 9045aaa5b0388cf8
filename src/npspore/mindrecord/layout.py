"""The MindRecord file format of MindSpore 2.10, byte for byte: schema, header, pages and rows.

A MindRecord shard file is::

    [header length: uint64 LE][header: JSON]  zero-padded to header_size bytes
    page 0, page 1, ...                       each at header_size + page_id * page_size

The header (JSON) holds ``header_size``, ``page_size``, the ``schema`` list (one schema: its ``schema``
fields, their ``blob_fields``, ``desc``), ``index_fields``, ``shard_addresses`` (the base names of every
shard of the set) and ``shard_id``, and ``page``: one entry per page with ``page_id``, ``page_type``
(``RAW_DATA`` or ``BLOB_DATA``), ``page_type_id`` (its rank among pages of that type), ``page_size``
(the bytes used), ``start_row_id``/``end_row_id`` and ``row_group_ids``. The last page is cut at its
used size. Each row has one record in the raw pages and one in the blob pages, in row order:

- raw record: ``[length: uint64 LE][msgpack map of the fields without shape, bytes excepted]``;
- blob record: ``[length: uint64 LE]`` then, for each blob field in ``blob_fields`` order,
  ``[length: uint64 BE][the bytes, or the array's little-endian data]`` (four zero bytes when the
  schema has no blob field).

A ``<file>.db`` SQLite file beside each shard indexes its rows (MindSpore's reader needs it; this
module's reader does not). msgpack is MindRecord's own row encoding: install ``npspore[mindrecord]``.
"""
from __future__ import annotations

import json
import re
import struct
from typing import Any

import numpy as np

from .errors import MRMInvalidHeaderSizeError, MRMInvalidSchemaError

__all__ = ["FIELD_TYPES", "ARRAY_TYPES", "DEFAULT_HEADER_SIZE", "DEFAULT_PAGE_SIZE", "check_schema",
           "blob_fields", "encode_header", "decode_header", "encode_raw", "decode_raw", "encode_blob",
           "decode_blob", "msgpack_module"]

DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
FIELD_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64,
               "string": None, "bytes": None}
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_FIELD_NAME = re.compile(r"^[0-9a-zA-Z_]+$")
_LENGTH = struct.Struct("<Q")
_BLOB_LENGTH = struct.Struct(">Q")
_EMPTY_BLOB = bytes(4)   # what MindSpore writes for the blob record of a schema without blob fields


def msgpack_module():
    """The ``msgpack`` package (MindRecord's row encoding), or an ImportError saying how to get it."""
    try:
        import msgpack
    except ImportError:
        raise ImportError("MindRecord files encode rows with msgpack: pip install 'npspore[mindrecord]' "
                          "(or pip install msgpack).") from None
    return msgpack


def check_schema(content) -> dict:
    """``content`` checked as MindSpore checks a schema: a dict of field name to ``{"type": ...}``
    (and ``"shape"`` for numeric arrays); returns it with its fields in name order.

    Raises:
        MRMInvalidSchemaError: with MindSpore's detail (``Field 'a' contain illegal attribute 'int8'.``).
    """
    if not isinstance(content, dict):
        raise MRMInvalidSchemaError("Schema content should be dict.")
    if not content:
        raise MRMInvalidSchemaError("Schema content should not be empty.")
    for name, field in content.items():
        if not isinstance(name, str) or not _FIELD_NAME.match(name):
            raise MRMInvalidSchemaError(f"Field '{name}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'.")
        if not isinstance(field, dict) or "type" not in field:
            raise MRMInvalidSchemaError(f"Field '{name}' should be dict and contain 'type'.")
        kind = field["type"]
        if kind not in FIELD_TYPES or ("shape" in field and kind not in ARRAY_TYPES):
            raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{kind}'.")
        if set(field) - {"type", "shape"}:
            raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute "
                                        f"'{sorted(set(field) - {'type', 'shape'})[0]}'.")
        if "shape" in field:
            shape = field["shape"]
            if (not isinstance(shape, list) or not shape
                    or not all(isinstance(d, int) and not isinstance(d, bool) and (d > 0 or d == -1) for d in shape)
                    or shape.count(-1) > 1):
                raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute 'shape': {shape}.")
    return {name: dict(content[name]) for name in sorted(content)}


def blob_fields(schema: dict) -> list[str]:
    """The fields stored in blob records: bytes and arrays, in name order."""
    return [name for name, field in schema.items() if field["type"] == "bytes" or "shape" in field]


# MindSpore's order of the header's keys (the values' own keys are sorted)
_HEADER_KEYS = ("header_size", "index_fields", "page", "page_size", "compression_size", "schema",
                "shard_addresses", "shard_id", "statistics", "version")


def encode_header(header: dict, header_size: int) -> bytes:
    """The header block: its length, its JSON (as MindSpore writes it), zeros up to ``header_size``.

    Raises:
        MRMInvalidHeaderSizeError: if the JSON does not fit in ``header_size`` bytes.
    """
    text = ("{" + ",".join(f'"{key}":' + json.dumps(header[key], separators=(",", ":"), sort_keys=True)
                           for key in _HEADER_KEYS) + "}").encode()
    if _LENGTH.size + len(text) > header_size:
        raise MRMInvalidHeaderSizeError(f"The header ({len(text)} bytes) is larger than the header size "
                                        f"{header_size}: raise it with set_header_size.")
    return _LENGTH.pack(len(text)) + text + bytes(header_size - _LENGTH.size - len(text))


def decode_header(prefix: bytes, file_size: int, path: str) -> dict:
    """The header of the shard ``path`` from the first bytes of the file, checked.

    Raises:
        ValueError: naming the file, if it is no MindRecord file or its header is inconsistent.
    """
    def invalid(why: str) -> ValueError:
        return ValueError(f"Invalid MindRecord file {path}: {why}.")

    if len(prefix) < _LENGTH.size:
        raise invalid("it is too short to hold a header")
    (length,) = _LENGTH.unpack_from(prefix)
    if length > len(prefix) - _LENGTH.size:
        raise invalid(f"its header length {length} runs past the end of the header block or of the file")
    try:
        header = json.loads(bytes(prefix[_LENGTH.size:_LENGTH.size + length]))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise invalid("its header is not JSON") from None
    if not isinstance(header, dict):
        raise invalid("its header is not a JSON object")
    for key, kind in (("header_size", int), ("page_size", int), ("schema", list), ("page", list),
                      ("shard_addresses", list), ("shard_id", int)):
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            raise invalid(f"its header has no valid '{key}'")
    header_size, page_size = header["header_size"], header["page_size"]
    if not _LENGTH.size + length <= header_size <= file_size or page_size <= 0:
        raise invalid(f"its header size {header_size} or page size {page_size} does not fit the file "
                      f"({file_size} bytes)")
    if len(header["schema"]) != 1 or not isinstance(header["schema"][0], dict):
        raise invalid("it must hold exactly one schema")
    try:
        schema = check_schema(header["schema"][0].get("schema"))
    except MRMInvalidSchemaError as error:
        raise invalid(f"its schema is invalid: {error}") from None
    if header["schema"][0].get("blob_fields") != blob_fields(schema):
        raise invalid("its blob_fields do not match its schema")
    for page in header["page"]:
        _check_page(page, header_size, page_size, file_size, invalid)
    return header


def _check_page(page, header_size: int, page_size: int, file_size: int, invalid) -> None:
    if not isinstance(page, dict) or page.get("page_type") not in ("RAW_DATA", "BLOB_DATA"):
        raise invalid(f"a page entry is not a RAW_DATA or BLOB_DATA page: {page!r:.80}")
    for key in ("page_id", "page_type_id", "page_size", "start_row_id", "end_row_id"):
        value = page.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise invalid(f"page {page.get('page_id')} has no valid '{key}'")
    if page["page_size"] > page_size:
        raise invalid(f"page {page['page_id']} uses {page['page_size']} bytes, more than the page size {page_size}")
    end = header_size + page["page_id"] * page_size + page["page_size"]
    if end > file_size:
        raise invalid(f"page {page['page_id']} ends at byte {end}, past the end of the file ({file_size} bytes; "
                      f"truncated?)")


def records(page: bytes, where: str, length: struct.Struct = _LENGTH) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each record laid end to end in ``page``, each after its ``length`` prefix
    (a little-endian uint64 by default).

    Raises:
        ValueError: naming ``where``, if a record runs past the page.
    """
    spans, offset = [], 0
    while offset < len(page):
        if offset + length.size > len(page):
            raise ValueError(f"Invalid MindRecord file {where}: a record length is cut at byte {offset}.")
        (size,) = length.unpack_from(page, offset)
        start, end = offset + length.size, offset + length.size + size
        if end > len(page):
            raise ValueError(f"Invalid MindRecord file {where}: a record of {size} bytes at byte {offset} runs "
                             f"past its page or blob record ({len(page)} bytes).")
        spans.append((start, end))
        offset = end
    return spans


def encode_raw(row: dict, raw_names: list[str]) -> bytes:
    """The raw record of a checked row: its length and the msgpack map of its raw fields (in name order,
    a float that a float32 holds exactly packed as float32, as MindSpore packs it)."""
    msgpack = msgpack_module()
    double, single = msgpack.Packer(), msgpack.Packer(use_single_float=True)
    parts = [double.pack_map_header(len(raw_names))]
    for name in raw_names:
        value = row[name]
        exact = isinstance(value, float) and float(np.float32(value)) == value
        parts += [double.pack(name), (single if exact else double).pack(value)]
    packed = b"".join(parts)
    return _LENGTH.pack(len(packed)) + packed


def decode_raw(data: bytes, schema: dict, raw_names: list[str], where: str) -> dict:
    """The raw fields of one record (``data``: its bytes after the length), checked against the schema.

    Raises:
        ValueError: naming ``where``, if the record is not msgpack or a field is missing or mistyped.
    """
    msgpack = msgpack_module()
    try:
        values = msgpack.unpackb(bytes(data), raw=False, strict_map_key=False)
    except (ValueError, msgpack.UnpackException) as error:
        raise ValueError(f"Invalid MindRecord file {where}: a raw record is not msgpack ({error}).") from None
    if not isinstance(values, dict):
        raise ValueError(f"Invalid MindRecord file {where}: a raw record is not a map.")
    row = {}
    for name in raw_names:
        kind = schema[name]["type"]
        value = values.get(name)
        expected = str if kind == "string" else float if kind.startswith("float") else int
        if not isinstance(value, (int, float) if expected is float else expected) or isinstance(value, bool):
            raise ValueError(f"Invalid MindRecord file {where}: the field '{name}' of a row is "
                             f"{type(value).__name__}, not {kind}.")
        row[name] = value
    return row


def encode_blob(row: dict, blob_names: list[str]) -> bytes:
    """The blob record of a checked row (bytes fields as given, arrays as their little-endian data)."""
    parts = []
    for name in blob_names:
        value = row[name]
        data = value if isinstance(value, bytes) else np.ascontiguousarray(value).astype(
            value.dtype.newbyteorder("<"), copy=False).tobytes()
        parts.append(_BLOB_LENGTH.pack(len(data)) + data)
    payload = b"".join(parts) if blob_names else _EMPTY_BLOB
    return _LENGTH.pack(len(payload)) + payload


def decode_blob(data: bytes, schema: dict, blob_names: list[str], where: str) -> dict[str, Any]:
    """The blob fields of one record (``data``: its bytes after the length): bytes, or arrays of the
    schema's dtype and shape.

    Raises:
        ValueError: naming ``where``, if the lengths do not add up or an array does not fit its shape.
    """
    if not blob_names:
        return {}
    spans = records(data, where, _BLOB_LENGTH)
    if len(spans) != len(blob_names):
        raise ValueError(f"Invalid MindRecord file {where}: a blob record holds {len(spans)} fields, its schema "
                         f"{len(blob_names)}.")
    return {name: _blob_value(bytes(data[start:end]), name, schema[name], where)
            for name, (start, end) in zip(blob_names, spans)}


def _blob_value(data: bytes, name: str, field: dict, where: str):
    if field["type"] == "bytes":
        return data
    dtype = np.dtype(FIELD_TYPES[field["type"]]).newbyteorder("<")
    if len(data) % dtype.itemsize:
        raise ValueError(f"Invalid MindRecord file {where}: the field '{name}' has {len(data)} bytes, not a whole "
                         f"number of {field['type']}.")
    array = np.frombuffer(data, dtype).astype(dtype.newbyteorder("="))
    shape = field["shape"]
    known = int(np.prod([d for d in shape if d != -1]))
    if (-1 in shape and (known == 0 or array.size % known)) or (-1 not in shape and array.size != known):
        raise ValueError(f"Invalid MindRecord file {where}: the field '{name}' has {array.size} values, which do "
                         f"not fit its shape {shape}.")
    return array.reshape(shape)
