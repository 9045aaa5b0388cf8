"""Fixed-size records read from a data file that may change while a dataset reads it.

Each record is copied out of the file by a positioned read when its row is reached, so a pass holds
only the rows in flight, and a file that shrinks under a live dataset gives a ``RuntimeError``
naming the file (a memory map of it would kill the process with SIGBUS). A file replaced by a
rename keeps being read as it was opened.
"""
from __future__ import annotations

import math
import os
import stat
import threading
import weakref

import numpy as np

__all__ = ["DataFile", "RecordFile"]

_PREADV = getattr(os, "preadv", None)  # not on every platform: a seek and a read under a lock there


class DataFile:
    """A data file opened for reading, shared by the fields read from it.

    Args:
        path (str): the file.

    Raises:
        ValueError: if the file cannot be opened or is not a regular file (naming it).
    """

    def __init__(self, path: str):
        self.path = path
        try:  # non-blocking: a FIFO in the file's place must not hang the open
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        except OSError as error:
            raise ValueError(f"Cannot open the data file {path}: {error.strerror or error}.") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ValueError(f"The data file {path} is not a regular file.")
        self._file = os.fdopen(fd, "rb", buffering=0)
        weakref.finalize(self, self._file.close)
        self._lock = threading.Lock()  # one position per open file: a seek and its read go together

    def __reduce__(self):
        """Pickled (and deep-copied) by path: the copy opens the file again."""
        return DataFile, (self.path,)

    def size(self) -> int:
        """The file's current size in bytes."""
        return os.fstat(self._file.fileno()).st_size

    def check_size(self, needed: int, what: str) -> None:
        """Check the file holds at least ``needed`` bytes, which ``what`` (its header) promises.

        Raises:
            ValueError: naming the file, if it is shorter.
        """
        actual = self.size()
        if actual < needed:
            raise ValueError(f"Invalid file {self.path}: {what} promises {needed} bytes but the file has {actual} "
                             f"(truncated?).")

    def read(self, start: int, size: int) -> bytearray:
        """The ``size`` bytes at ``start``, copied out of the file.

        Raises:
            RuntimeError: naming the file, if it no longer holds them (it shrank while being read).
        """
        data = bytearray(size)
        if _PREADV is not None:  # one positioned read, no lock
            got = _PREADV(self._file.fileno(), [data], start)
        else:
            with self._lock:
                self._file.seek(start)
                got = self._file.readinto(data)
        if got != size:
            raise RuntimeError(f"The data file {self.path} changed while the dataset reads it: bytes {start} to "
                               f"{start + size} are no longer there (the file has {self.size()} bytes).")
        return data


class RecordFile:
    """``count`` records of ``stride`` bytes laid end to end from byte ``offset`` of ``file``.

    Indexing reads record ``i`` with one read and returns one fresh uint8 array per field, a field
    being a ``(start, shape)`` within the record.
    """

    def __init__(self, file: DataFile, offset: int, count: int, stride: int, fields):
        self.file, self.offset, self.count, self.stride = file, offset, count, stride
        self.fields = [(start, tuple(shape), start + math.prod(shape)) for start, shape in fields]

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> tuple:
        record = np.frombuffer(self.file.read(self.offset + index * self.stride, self.stride), np.uint8)
        return tuple(record[start:stop].reshape(shape) for start, shape, stop in self.fields)
