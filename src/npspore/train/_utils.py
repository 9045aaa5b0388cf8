"""The helpers of MindSpore's private ``mindspore.train._utils`` that training scripts call."""
from __future__ import annotations

import os

__all__ = ["_make_directory"]

_MAX_PATH_LENGTH = 1024


def _make_directory(path: str, arg_name: str = "path") -> str:
    """The real path of the directory ``path``, made (mode 0o700, with its parents) when missing.

    Raises:
        TypeError: If `path` is not a str, or there is no permission to make it (as MindSpore raises).
        ValueError: If it is blank or its real path longer than 1024 characters.
        NotADirectoryError: If it names a file.
    """
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    path = os.path.realpath(path)
    if len(path) > _MAX_PATH_LENGTH:
        raise ValueError(f"The {arg_name} length is too long, it should be limited in {_MAX_PATH_LENGTH}.")
    if os.path.exists(path) and not os.path.isdir(path):
        raise NotADirectoryError(f"The path({path}) is a file path, it should be a directory path.")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except PermissionError as error:
        raise TypeError("No write permission on the directory.") from error
    return path
