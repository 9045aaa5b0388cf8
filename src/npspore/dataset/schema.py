"""``dataset.Schema``: the columns (name, type, shape) a file source such as ``TFRecordDataset`` reads,
built in code or read from MindSpore's JSON schema files, and written back as MindSpore writes them."""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from ..common import dtype as mstype

__all__ = ["Schema"]

_TYPE_NAMES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
               "float32", "float64", "string", "bytes")
_TOP_LEVEL_KEYS = ("datasetType", "numRows", "columns")


def type_name(de_type: Any) -> str:
    """The schema name of a column type: a MindSpore type (``mstype.int64``) or one of the names.

    Raises:
        TypeError: If it is neither (MindSpore's "Unknown column type.").
    """
    if isinstance(de_type, mstype.Type):
        if de_type == mstype.string:
            return "string"
        return np.dtype(mstype.dtype_to_nptype(de_type)).name
    if isinstance(de_type, str) and de_type in _TYPE_NAMES:
        return de_type
    raise TypeError("Unknown column type.")


def _checked_shape(shape):
    if not isinstance(shape, list):
        raise TypeError(f"Argument shape with value {shape} is not of type [<class 'list'>], but got {type(shape)}.")
    for i, dim in enumerate(shape):
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise TypeError(f"Argument shape[{i}] with value {dim} is not of type [<class 'int'>], but got "
                            f"{type(dim)}.")
    return list(shape)


class Schema:
    """The columns of a dataset: each a name, a type and, optionally, a shape.

    Args:
        schema_file (str, optional): a JSON schema file to read (``{"datasetType": ..., "numRows": ...,
            "columns": ...}``). Default: ``None``.

    Raises:
        TypeError: If `schema_file` is not a str.
        ValueError: If the file does not exist.
        RuntimeError: If the file is not a valid schema.

    Examples:
        >>> schema = ds.Schema()
        >>> schema.add_column(name='col1', de_type=mstype.int64, shape=[2])
    """

    def __init__(self, schema_file: str | None = None) -> None:
        self.columns: list[dict] = []
        self.dataset_type: str | None = None
        self.num_rows: int | None = None
        if schema_file is not None:
            if not isinstance(schema_file, str):
                raise TypeError(f"path: {schema_file} is not string")
            if not os.path.isfile(schema_file) or not os.access(schema_file, os.R_OK):
                raise ValueError(f"The file {schema_file} does not exist or permission denied!")
            with open(schema_file, encoding="utf-8") as file:
                try:
                    content = json.load(file)
                except json.JSONDecodeError as error:
                    raise RuntimeError(f"Invalid schema file {schema_file}: {error}.") from None
            self.from_json(content)

    def add_column(self, name: str, de_type: Any, shape: list[int] | None = None) -> None:
        """Add the column ``name`` of type ``de_type`` (a MindSpore type or a type name such as ``'int64'``) and
        ``shape`` (default ``None``: one dimension of any length).

        Raises:
            TypeError: If `name` is not a str, `shape` not a list of ints, or the type is unknown.
        """
        if not isinstance(name, str):
            raise TypeError(f"Argument name with value {name} is not of type [<class 'str'>], but got {type(name)}.")
        column = {"name": name, "type": type_name(de_type)}
        if shape is not None:
            column["shape"] = _checked_shape(shape)
        self.columns.append(column)

    def parse_columns(self, columns: dict | list | tuple) -> None:
        """Replace the columns with ``columns``: a list of dicts with ``name``, ``type`` and optionally
        ``shape``, or a dict of name to a dict with ``type`` and optionally ``shape``.

        Raises:
            RuntimeError: If a column's name or type is missing or unknown.
        """
        if isinstance(columns, dict):
            entries = [dict(value, name=name) if isinstance(value, dict) else value for name, value in columns.items()]
        elif isinstance(columns, (list, tuple)):
            entries = list(columns)
        else:
            raise RuntimeError(f"Invalid columns: expected a list or dict of columns, but got {columns!r}.")
        parsed = []
        for entry in entries:
            if not isinstance(entry, dict) or "name" not in entry:
                raise RuntimeError("Column's name is missing")
            if "type" not in entry:
                raise RuntimeError("Column's type is missing")
            try:
                column = {"name": entry["name"], "type": type_name(entry["type"])}
                if "shape" in entry:
                    column["shape"] = _checked_shape(entry["shape"])
            except TypeError as error:
                raise RuntimeError(f"Invalid column '{entry['name']}': {error}") from None
            parsed.append(column)
        self.columns = parsed

    def from_json(self, json_obj: dict) -> None:
        """Read the schema from a parsed JSON schema: ``columns`` (as :meth:`parse_columns` takes) and the
        optional ``datasetType`` and ``numRows``.

        Raises:
            RuntimeError: If ``columns`` is missing or empty, or there is an unknown key.
        """
        for key in json_obj:
            if key not in _TOP_LEVEL_KEYS:
                raise RuntimeError(f"Unknown field {key}")
        if "columns" not in json_obj:
            raise RuntimeError('"columns" node is required in the schema json JSON.')
        if not json_obj["columns"]:
            raise RuntimeError("Columns are missing.")
        self.parse_columns(json_obj["columns"])
        self.dataset_type = json_obj.get("datasetType")
        self.num_rows = json_obj.get("numRows")

    def to_json(self) -> str:
        """The schema as MindSpore's JSON text (keys sorted, indented by 2)."""
        columns = []
        for column in self.columns:
            entry = {"name": column["name"], "type": column["type"]}
            if "shape" in column:
                entry["rank"] = len(column["shape"])
                entry["shape"] = column["shape"]
            else:
                entry["rank"] = 1
            columns.append(entry)
        content: dict[str, Any] = {"columns": columns}
        if self.dataset_type is not None:
            content["datasetType"] = self.dataset_type
        if self.num_rows is not None:
            content["numRows"] = self.num_rows
        return json.dumps(content, indent=2, sort_keys=True)

    def __str__(self) -> str:
        return self.to_json()

    @staticmethod
    def get_num_rows(schema: Schema | str) -> int:
        """The ``numRows`` of ``schema`` (a Schema or a schema file), 0 when it gives none."""
        schema_obj = schema if isinstance(schema, Schema) else Schema(schema)
        return schema_obj.num_rows or 0
