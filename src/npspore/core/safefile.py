"""Files a user hands to npspore, read and written so that neither a crash nor another user can hurt.

This is the one place of the hardening every reader and writer of user-named files shares:
checkpoints (``train.serialization``) use it today, and loading MindIR or ONNX files is to reuse it
(issue 28: "share the reader's hardening with checkpoint loading").

Reading, :func:`read_regular_file`: the file is opened once, with ``O_NONBLOCK`` (opening a FIFO
cannot block) and ``O_CLOEXEC``, ``fstat``-ed, and refused unless it is a regular file — a FIFO, a
device such as ``/dev/zero``, a directory or a socket is refused, also when a symlink leads to it.
Exactly ``st_size`` bytes are read, so memory is bounded by the file's size; a file that changes size
while it is read is refused. Every refusal is a :class:`FileReadError` (a ``ValueError``) whose
message and ``path`` name the file; a decoder of the bytes raises the same error for malformed
content, so a bad file always ends in one error class naming it.

Writing, :func:`write_durably`: the data goes to a new file created exclusively in the target's
directory (``tempfile.mkstemp``: ``O_CREAT | O_EXCL`` with a random name, so no existing name and no
planted symlink is followed), which is ``fsync``-ed, renamed over the target (a symlink at the
target's name is replaced, its pointee untouched) and then the directory is ``fsync``-ed. After a
crash at any moment the target holds its old content or the complete new one, never a part. The new
file has mode 0600 (``mkstemp``'s), as its owner alone wrote it.
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import BinaryIO, Callable

__all__ = ["FileReadError", "read_regular_file", "write_durably", "fsync_directory", "remove_leftovers"]

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_TEMPORARY_SUFFIX = ".tmp"   # write_durably's temporary file of "name" is ".name.<random>.tmp"
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class FileReadError(ValueError):
    """A file a reader refuses: not a regular file, unreadable, changed while read, or malformed.

    ``path`` is the file; the message always names it.
    """

    def __init__(self, path: str, message: str) -> None:
        if path not in message:
            message = f"{message} (file: {path})"
        super().__init__(message)
        self.path = path


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular_file(path: str, what: str = "file", limit: int | None = None) -> bytes:
    """The whole content of the regular file ``path``.

    Args:
        path (str): the file (a symlink is followed; what it leads to must be a regular file).
        what (str): what the file should be, for messages (``"checkpoint file"``).
        limit (int, optional): the largest size accepted, in bytes (checked before reading).

    Returns:
        bytes: the file's ``st_size`` bytes, read through one open file descriptor.

    Raises:
        FileReadError: if the file cannot be opened, is not a regular file, is larger than ``limit``,
            or changes size while it is read; the message names the file and ``what``.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as error:
        raise FileReadError(path, f"Failed to read the {what} {path}: {error.strerror or error}.") from None
    with os.fdopen(fd, "rb", buffering=0) as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileReadError(path, f"Failed to read the {what} {path}: it is {_kind(info.st_mode)}, "
                                      "not a regular file.")
        if limit is not None and info.st_size > limit:
            raise FileReadError(path, f"Failed to read the {what} {path}: it holds {info.st_size} bytes, more than "
                                      f"the {limit} a {what} may hold.")
        try:
            data = file.read(info.st_size)
            while len(data) < info.st_size:  # one read returns at most about 2 GB
                chunk = file.read(info.st_size - len(data))
                if not chunk:
                    break
                data += chunk
            extra = file.read(1)
        except OSError as error:
            raise FileReadError(path, f"Failed to read the {what} {path}: {error.strerror or error}.") from None
    if len(data) != info.st_size or extra:
        raise FileReadError(path, f"Failed to read the {what} {path}: it changed size while it was read.")
    return data


def fsync_directory(directory: str) -> None:
    """Make the names last created, renamed or removed in ``directory`` durable (``fsync`` of it).

    File systems that cannot ``fsync`` a directory (``EINVAL``), and Windows, where a directory
    cannot be opened, are accepted silently.
    """
    if os.name == "nt":
        return
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


def write_durably(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Replace ``path`` with what ``write(file)`` writes, atomically and durably.

    Args:
        path (str): the target file; a symlink of that name is replaced, never followed.
        write (callable): ``write(file)`` writes the whole content to the binary file it is given.

    Raises:
        OSError: if the directory does not allow it or the disk is full; the target is then
            untouched and no temporary file is left.
    """
    directory, name = os.path.split(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=_TEMPORARY_SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    fsync_directory(directory)


def remove_leftovers(directory: str, name_prefix: str) -> list:
    """Remove the temporary files that writes killed mid-way left for targets named ``name_prefix...``.

    Only regular files of this user named as :func:`write_durably` names its temporary files are
    removed. Call it only where no other process is writing such targets at the same time.

    Returns:
        list[str]: the names removed.
    """
    removed = []
    for filename in os.listdir(directory):
        if filename.startswith("." + name_prefix) and filename.endswith(_TEMPORARY_SUFFIX):
            path = os.path.join(directory, filename)
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode) and (not hasattr(os, "geteuid") or info.st_uid == os.geteuid()):
                os.remove(path)
                removed.append(filename)
    return removed
