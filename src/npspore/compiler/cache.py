"""Cache: generated modules on disk, keyed by a sha256 of everything that determines them.

A kernel is stored as one file, ``<key>.py``: the generated module followed by a *seal* line
``# npspore-seal v1 key=<key> hmac-sha256=<mac>``, where ``mac`` is an HMAC-SHA256 over
(key, module text) with a random per-user secret kept outside the cache directory
(``$XDG_CONFIG_HOME/npspore/cache-secret``, default ``~/.config/npspore/cache-secret``, mode 0600).
The cache directory is ``$NPSPORE_CACHE_DIR`` (default ``$XDG_CACHE_HOME/npspore`` or
``~/.cache/npspore``; an empty value, or ``set_context(compile_cache=False)``, turns it off).

Before any use the directory is checked: it must be a real directory (not a symlink, and not
reached through a symlink owned by another user), owned by this user and not writable by group or
others. Entries are opened with ``O_NOFOLLOW | O_NONBLOCK`` relative to the checked directory and
``fstat``-ed before reading (a regular file of this user, not group/other-writable, at most
``MAX_ENTRY_BYTES``); an entry is used only if its embedded key is the requested key and its MAC
verifies, so a truncated, edited, foreign or renamed (swapped) file is deleted and regenerated,
never imported. Writes are atomic (a temporary file + ``os.replace``); two processes compiling the
same key write identical bytes, so either rename wins.

An unusable directory or secret (missing home, a file where the directory should be, a name too
long, wrong owner or mode) never stops the program: a warning is printed once and kernels are
compiled in memory only.

Limit: the seal protects against other users and against damaged or misplaced files, not against
code running as this user — whoever can run code as you can read the secret and write a valid
entry, exactly as they could write a ``.pyc`` file Python would import.
"""
from __future__ import annotations

import hashlib
import hmac
import linecache
import os
import re
import secrets
import stat
import sys
import warnings

from ..context import get_context
from ..core.numpy_warnings import ignore_numpy_float_warnings

MAX_ENTRY_BYTES = 16 * 1024 * 1024
SEAL_PREFIX = b"# npspore-seal v1 key="
_SEAL = re.compile(rb"# npspore-seal v1 key=([0-9a-f]{64}) hmac-sha256=([0-9a-f]{64})\n\Z")
_KEY = re.compile(r"[0-9a-f]{64}\Z")
_ENTRY_NAME = re.compile(r"([0-9a-f]{64})\.py\Z")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_WARNED: set = set()


class CacheUnavailable(Exception):
    """The disk cache cannot be used safely (the message says why); kernels are compiled in memory."""


def cache_dir() -> str | None:
    """The configured disk-cache directory, or None when the disk cache is off.

    The directory is not checked here; :func:`store` and :func:`load` check it before every use.
    """
    try:
        if get_context("compile_cache") is False:
            return None
    except (ValueError, KeyError, TypeError):
        pass
    configured = os.environ.get("NPSPORE_CACHE_DIR")
    if configured is not None:
        return configured or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "npspore")


def secret_path() -> str:
    """Where the per-user cache secret lives (outside the cache directory)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "npspore", "cache-secret")


# --------------------------------------------------------------------------- checks


def warn_once(message: str) -> None:
    """Warn (``RuntimeWarning``) about an unusable cache, once per message per process.

    The warning is attributed to the first frame outside npspore (the user's call that compiled).
    """
    if message in _WARNED:
        return
    _WARNED.add(message)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    frame, level = sys._getframe(0), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(f"npspore: {message}; kernels are compiled in memory only", RuntimeWarning, stacklevel=level)


def _check_private(info: os.stat_result, what: str) -> None:
    if info.st_uid != os.getuid():
        raise CacheUnavailable(f"{what} is owned by uid {info.st_uid}, not by you (uid {os.getuid()})")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise CacheUnavailable(f"{what} is writable by group or others (mode {stat.S_IMODE(info.st_mode):o}); "
                               f"run: chmod go-w {what}")


def _check_symlinks(path: str) -> None:
    """Refuse a path reached through a symlink that neither root nor this user owns."""
    parts = os.path.abspath(path).split(os.sep)
    for i in range(2, len(parts)):
        ancestor = os.sep.join(parts[:i]) or os.sep
        try:
            info = os.lstat(ancestor)
        except (OSError, ValueError):
            return  # created below (as a real directory) or reported there
        if stat.S_ISLNK(info.st_mode) and info.st_uid not in (0, os.getuid()):
            raise CacheUnavailable(f"{path} is reached through {ancestor}, a symlink owned by uid {info.st_uid}")


def open_directory(directory: str) -> int:
    """A file descriptor of the checked cache directory (created 0700 if missing).

    Raises:
        CacheUnavailable: the directory cannot be created or opened, is a symlink, is reached through
            another user's symlink, is not owned by this user, or is writable by group or others.
    """
    if not hasattr(os, "O_NOFOLLOW") or os.open not in os.supports_dir_fd:
        raise CacheUnavailable("this platform cannot open cache files safely (no O_NOFOLLOW / dir_fd)")
    try:
        _check_symlinks(directory)
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except CacheUnavailable:
        raise
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        if isinstance(error, OSError) and os.path.islink(directory):
            reason = "it is a symlink"
        elif isinstance(error, FileExistsError):
            reason = "it is not a directory"
        raise CacheUnavailable(f"cannot use {directory!r} as the kernel cache directory ({reason})") from None
    try:
        _check_private(os.fstat(fd), directory)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _usable_directory() -> tuple[int, str] | None:
    """``(fd, path)`` of the checked cache directory, or None (disk cache off, or unusable: warned once)."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        fd = open_directory(directory)
    except CacheUnavailable as error:
        warn_once(str(error))
        return None
    return fd, directory


def _read_secret(path: str) -> bytes:
    _check_private(os.stat(os.path.dirname(path)), os.path.dirname(path))
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CacheUnavailable(f"the cache secret {path} is not a regular file")
        _check_private(info, path)
        if info.st_mode & 0o077:
            raise CacheUnavailable(f"the cache secret {path} is readable by others (mode "
                                   f"{stat.S_IMODE(info.st_mode):o}); delete it to make a new one")
        text = os.read(fd, 256)
    finally:
        os.close(fd)
    if not re.fullmatch(rb"[0-9a-f]{64}\n?", text):
        raise CacheUnavailable(f"the cache secret {path} is damaged; delete it to make a new one")
    return bytes.fromhex(text[:64].decode())


def _create_secret(path: str) -> None:
    """Write a fresh random secret at ``path`` atomically (first writer wins)."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    temp = f"{path}.{secrets.token_hex(8)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, secrets.token_hex(32).encode() + b"\n")
        os.close(fd)
        try:
            os.link(temp, path)  # fails if another process made it first: theirs is used
        except FileExistsError:
            pass
    finally:
        os.unlink(temp)


def secret() -> bytes | None:
    """The per-user MAC secret (created on first use), or None when it cannot be used (warned once)."""
    path = secret_path()
    try:
        try:
            return _read_secret(path)
        except FileNotFoundError:
            _create_secret(path)
            return _read_secret(path)
    except CacheUnavailable as error:
        warn_once(str(error))
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        warn_once(f"cannot use the kernel cache secret {path!r} ({reason})")
    return None


def mac(key: str, data: bytes, mac_secret: bytes) -> str:
    """HMAC-SHA256 (hex) over (key, data): binds an entry's text to the key it is stored under."""
    return hmac.new(mac_secret, b"npspore-kernel\0" + key.encode() + b"\0" + data, hashlib.sha256).hexdigest()


def seal(key: str, data: bytes, mac_secret: bytes) -> bytes:
    """The seal line ending the entry of ``data`` under ``key``."""
    return SEAL_PREFIX + key.encode() + b" hmac-sha256=" + mac(key, data, mac_secret).encode() + b"\n"


def _check_key(key: str) -> None:
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"a disk-cache key is 64 lowercase hex digits (a sha256), got {key!r}")


# --------------------------------------------------------------------------- entries


def store(key: str, source: str) -> str | None:
    """Write a generated module, sealed, to the disk cache; returns its path.

    Returns None when the disk cache is off or unusable, or the write fails (a full or read-only
    disk must not stop the program: it is warned about once).
    """
    _check_key(key)
    usable = _usable_directory()
    if usable is None:
        return None
    fd, directory = usable
    try:
        mac_secret = secret()
        if mac_secret is None:
            return None
        data = source.encode()
        temp = f".tmp-{secrets.token_hex(8)}.part"
        try:
            out = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=fd)
            with os.fdopen(out, "wb") as handle:
                handle.write(data + seal(key, data, mac_secret))
            os.replace(temp, key + ".py", src_dir_fd=fd, dst_dir_fd=fd)
        except OSError as error:
            _unlink(fd, temp)
            warn_once(f"cannot write kernels to {directory!r} ({error.strerror or error})")
            return None
        except BaseException:  # interrupted mid-write: leave no temporary file behind
            _unlink(fd, temp)
            raise
    finally:
        os.close(fd)
    return os.path.join(directory, key + ".py")


def _read_entry(fd: int, name: str, limit: int = MAX_ENTRY_BYTES) -> tuple[bytes, os.stat_result] | None:
    """The bytes of a regular, private file ``name`` in the directory ``fd``, or None.

    Never follows a symlink, never blocks on a FIFO or device, never reads more than ``limit`` bytes.
    """
    try:
        handle = os.open(name, _OPEN_FLAGS, dir_fd=fd)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid()
                or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or info.st_size > limit):
            return None
        chunks, remaining = [], limit + 1
        while remaining > 0:
            chunk = os.read(handle, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(handle)
    return (data, info) if len(data) <= limit else None


def _split_seal(data: bytes) -> tuple[bytes, str, str] | None:
    """``(module bytes, embedded key, mac)`` of a sealed entry, or None if it has no seal line."""
    start = data.rfind(SEAL_PREFIX)
    if start < 0 or (start > 0 and data[start - 1:start] != b"\n"):
        return None
    match = _SEAL.match(data, start)
    if match is None:
        return None
    return data[:start], match.group(1).decode(), match.group(2).decode()


def load(key: str) -> tuple[str, str] | None:
    """``(source, path)`` of a verified cached module, or None.

    A file that exists but does not verify (wrong owner or mode, not a regular file, too large, no
    seal, another key's seal, a MAC that does not match, text that is not UTF-8) is deleted.
    """
    _check_key(key)
    usable = _usable_directory()
    if usable is None:
        return None
    fd, directory = usable
    name = key + ".py"
    try:
        try:
            os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError:
            return None  # no entry: a plain miss
        mac_secret = secret()
        if mac_secret is None:
            return None
        found = _read_entry(fd, name)
        parts = _split_seal(found[0]) if found is not None else None
        source = None
        if parts is not None and parts[1] == key and hmac.compare_digest(mac(key, parts[0], mac_secret), parts[2]):
            try:
                source = parts[0].decode()
            except UnicodeDecodeError:
                pass
        if source is None:
            _unlink(fd, name)
            return None
    finally:
        os.close(fd)
    return source, os.path.join(directory, name)


def _unlink(fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=fd)
    except OSError:
        pass


def discard(key: str) -> None:
    """Delete a cache entry, ignoring one already gone."""
    _check_key(key)
    usable = _usable_directory()
    if usable is None:
        return
    fd, _ = usable
    try:
        _unlink(fd, key + ".py")
    finally:
        os.close(fd)


def entries(directory: str | None = None) -> list[dict]:
    """Every cache entry of ``directory`` (default: the cache directory): key, path, size, mtime, header.

    Only npspore's own entries are listed: a name ``<sha256>.py`` and a regular private file ending
    in a seal line for that key (the MAC is not checked here, so entries sealed with a lost secret
    can still be listed and cleared). Other files — sources, FIFOs, directories, symlinks, unreadable
    files — are ignored, never opened blocking.

    Raises:
        CacheUnavailable: the directory is unusable (see :func:`open_directory`).
    """
    directory = directory or cache_dir()
    if not directory:
        return []
    if not os.path.lexists(directory):
        return []
    fd = open_directory(directory)
    found = []
    try:
        for name in sorted(os.listdir(fd)):
            match = _ENTRY_NAME.match(name)
            read = _read_entry(fd, name) if match else None
            parts = _split_seal(read[0]) if read is not None else None
            if match is None or read is None or parts is None or parts[1] != match.group(1):
                continue
            data, info = read
            found.append({"key": match.group(1), "path": os.path.join(directory, name), "size": info.st_size,
                          "mtime": info.st_mtime, "header": _header(parts[0])})
    finally:
        os.close(fd)
    return found


def _header(module: bytes) -> dict:
    """The ``# field: value`` lines opening a kernel module (its prose lines are not fields)."""
    header = {}
    for line in module.decode("utf-8", errors="replace").splitlines():
        if not line.startswith("#"):
            break
        field, sep, value = line[2:].partition(": ")
        if sep and field.isidentifier():
            header[field] = value.strip()
    return header


def remove(directory: str, keys) -> int:
    """Delete the entries ``keys`` (from :func:`entries`) of ``directory``; returns how many were deleted."""
    fd = open_directory(directory)
    removed = 0
    try:
        for key in keys:
            _check_key(key)
            try:
                os.unlink(key + ".py", dir_fd=fd)
                removed += 1
            except OSError:
                pass
    finally:
        os.close(fd)
    return removed


def execute(source: str, filename: str) -> dict:
    """Execute generated module text; registers it with ``linecache`` so tracebacks show its lines.

    Raises:
        RuntimeError: the module raised ``SystemExit`` while being executed (a damaged cache entry
            must not end the program; callers discard it like any other failing entry).
    """
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ignore_numpy_float_warnings()   # the filter's module pattern names this module (core/numpy_warnings.py)
    namespace: dict = {"__name__": "npspore_kernel", "__file__": filename}
    try:
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own verified generated code
    except SystemExit as exit_request:
        raise RuntimeError(f"kernel module {filename} raised SystemExit({exit_request.code!r})") from None
    return namespace
