"""``DatasetCache``: MindSpore's tensor cache, kept in this process's memory.

MindSpore's cache is a client of a cache server (``dataset-cache``) on the same host; a dataset
source or a ``map`` given ``cache=`` stores the rows it produces there, and later epochs read them
back instead of reading and transforming again. MindSpore allows a cache only where that changes no
value: above a file source and deterministic ``map`` operations (a random operation, or a Python
function not marked with ``transforms.not_random``, is refused, as is a Python-data source). npspore
keeps the same rules and the rows in a dictionary of the process, keyed by the source row's index,
so a shuffled source still yields its cached rows in each epoch's order.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

from .arguments import check_bool

__all__ = ["DatasetCache", "check_cache", "is_random"]

_UINT32_MAX = 4294967295
_UINT64_MAX = 18446744073709551615
_LOCAL_HOSTS = ("127.0.0.1", "localhost")
_owner_tokens = itertools.count()


def _check_int(value, name, low, high):
    """MindSpore's cache-argument check: an int in [low, high], its messages naming ``name``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


def _check_optional_int(value, name, low, high):
    if value is not None:
        _check_int(value, name, low, high)


@dataclass
class CacheStat:
    """What :meth:`DatasetCache.get_stat` reports: the average cached row's size in bytes and the rows
    held in memory and on disk."""

    avg_cache_sz: int
    num_mem_cached: int
    num_disk_cached: int


class DatasetCache:
    """A cache for the rows of a dataset source or ``map`` (``cache=`` argument), held in this process.

    Args:
        session_id (int): the session's id, in [1, 4294967295].
        size (int, optional): the memory for rows in MB, ``0`` for no limit. Rows that would pass it are
            not cached (read again each epoch). Default: ``0``.
        spilling (bool, optional): whether rows past ``size`` go to disk; npspore never spills, so those
            rows are read again instead. Default: ``False``.
        hostname (str, optional): the cache server's host, which must be this one. Default: ``None``
            (127.0.0.1).
        port (int, optional): the server's port, in [1025, 65535]. Default: ``None`` (50052).
        num_connections (int, optional): connections to the server, at least 1. Default: ``None`` (12).
        prefetch_size (int, optional): rows read ahead from the cache, at least 1. Default: ``None`` (20).

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If an argument is out of range.
        RuntimeError: If ``hostname`` names another host.

    Examples:
        >>> some_cache = ds.DatasetCache(session_id=780643335, size=0)
        >>> ds1 = ds.ImageFolderDataset("/path/to/image_folder_dataset_directory", cache=some_cache)
    """

    def __init__(self, session_id: int, size: int = 0, spilling: bool = False, hostname: str | None = None,
                 port: int | None = None, num_connections: int | None = None,
                 prefetch_size: int | None = None) -> None:
        if isinstance(session_id, bool):
            raise TypeError(f"Argument session_id with value {session_id} is not of type (<class 'int'>,), but got "
                            f"<class 'bool'>.")
        _check_int(session_id, "session_id", 1, _UINT32_MAX)
        if isinstance(size, int) and not isinstance(size, bool) and size < 0:
            raise ValueError("Input size must be greater than 0.")
        _check_int(size, "size", 0, _UINT64_MAX)
        check_bool(spilling, "spilling")
        if hostname is not None:
            if not isinstance(hostname, str):
                raise TypeError(f"Argument hostname with value {hostname!r} is not of type [<class 'str'>], but got "
                                f"{type(hostname)}.")
            if hostname not in _LOCAL_HOSTS:
                raise RuntimeError("now cache client has to be on the same host with cache server.")
        _check_optional_int(port, "port", 1025, 65535)
        _check_optional_int(num_connections, "num_connections", 1, 2147483647)
        _check_optional_int(prefetch_size, "prefetch_size", 1, 2147483647)
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.num_connections = num_connections
        self.prefetch_size = prefetch_size
        self._rows: dict[tuple[int, int], tuple] = {}
        self._bytes = 0
        self._in_use = False

    def attach(self) -> int:
        """Mark the cache as used by a new pipeline node; returns the token that keys that node's rows."""
        self._in_use = True
        return next(_owner_tokens)

    def row(self, token: int, index: int, compute: Callable[[int], tuple]) -> tuple:
        """The row of source index ``index`` for the node ``token``: the cached one, or ``compute(index)``,
        cached when it fits in ``size``."""
        key = (token, index)
        row = self._rows.get(key)
        if row is None:
            row = compute(index)
            row_bytes = sum(int(getattr(column, "nbytes", 0)) for column in row)
            if not self.size or self._bytes + row_bytes <= self.size * 1024 * 1024:
                self._rows[key] = row
                self._bytes += row_bytes
        return row

    def get_stat(self) -> CacheStat:
        """The cache's statistics: ``avg_cache_sz`` (bytes per cached row), ``num_mem_cached`` and
        ``num_disk_cached`` (rows).

        Raises:
            RuntimeError: If no dataset has used the cache yet.
        """
        if not self._in_use:
            raise RuntimeError("GetStat called but the cache is not in use yet.")
        count = len(self._rows)
        return CacheStat(self._bytes // count if count else 0, count, 0)


def check_cache(cache: Any) -> DatasetCache | None:
    """``cache`` if it is None or a :class:`DatasetCache`; TypeError naming the argument otherwise."""
    if cache is not None and not isinstance(cache, DatasetCache):
        raise TypeError(f"Argument cache with value {cache!r} is not of type [<class 'DatasetCache'>], but got "
                        f"{type(cache)}.")
    return cache


def is_random(operation: Any) -> bool:
    """Whether a ``map`` operation may give different outputs for the same input: npspore's random
    transforms (those drawing from a generator or marked ``random = True``), a ``Compose`` holding one, or a
    Python function not marked ``random = False`` (``transforms.not_random``), as MindSpore counts them."""
    inner = getattr(operation, "transforms", None)
    if isinstance(inner, list):
        return any(is_random(transform) for transform in inner)
    if hasattr(operation, "_rng") or getattr(type(operation), "random", False) is True:
        return True
    if type(operation).__module__.startswith("npspore.dataset."):
        return False
    return getattr(operation, "random", True) is not False
