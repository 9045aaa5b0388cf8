"""``mindspore.mindrecord.FileReader``: the rows of MindRecord files as dicts of Python values."""
from __future__ import annotations

from typing import Iterator

from .errors import ParamValueError
from .shards import ShardSet, shard_paths

__all__ = ["FileReader"]


class FileReader:
    """Reads the rows of a MindRecord data set (every shard of it when ``file_name`` is one file).

    Args:
        file_name (Union[str, list[str]]): one file of the set, or the list of files to read.
        num_consumer (int, optional): accepted for compatibility (rows are read in order). Default: ``4``.
        columns (list[str], optional): the fields to read. Default: ``None`` (all).
        operator (int, optional): accepted for compatibility. Default: ``None``.

    Raises:
        ValueError: If a file does not exist or is damaged (naming it).
        ParamValueError: If a column is not a field of the schema.

    Examples:
        >>> reader = FileReader(file_name="test.mindrecord")
        >>> for item in reader.get_next():
        ...     print(item["label"])
        >>> reader.close()
    """

    def __init__(self, file_name, num_consumer: int = 4, columns: list[str] | None = None, operator=None):
        self._rows: ShardSet | None = ShardSet(shard_paths(file_name))
        names = list(self._rows.schema)
        for name in columns or ():
            if name not in names:
                raise ParamValueError(f"Parameter columns's value: '{name}' is not a field of the schema {names}.")
        self._columns = list(columns) if columns else names

    def get_next(self) -> Iterator[dict]:
        """Yield each row, a dict from field name to value: int, float, str, bytes or a NumPy array."""
        if self._rows is None:
            raise RuntimeError("The FileReader is closed.")
        for index in range(len(self._rows)):
            row = self._rows.row(index)
            yield {name: row[name] for name in self._columns}

    def len(self) -> int:
        """The number of rows (0 once closed)."""
        return 0 if self._rows is None else len(self._rows)

    def schema(self) -> dict:
        """The schema: field name to ``{"type": ..., "shape": ...}``."""
        if self._rows is None:
            raise RuntimeError("The FileReader is closed.")
        return {name: dict(field) for name, field in self._rows.schema.items()}

    def close(self) -> None:
        """Stop reading: the files are let go (closed once no dataset reads them)."""
        self._rows = None
