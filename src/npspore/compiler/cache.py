"""Cache: generated modules on disk, keyed by a sha256 of everything that determines them.

A kernel is stored as ``<key>.py`` (the generated module, readable) and ``<key>.sha256`` (the
digest of that file) under ``$NPSPORE_CACHE_DIR`` (default ``~/.cache/npspore``; an empty value, or
``set_context(compile_cache=False)``, turns the disk cache off). Writes are atomic (temp file +
``os.replace``) in a directory created owner-only (0700). A file is used only if its digest
matches and it belongs to this user and nobody else can write it; anything else — truncated,
edited, foreign — is deleted and regenerated, never imported. Two processes compiling the same key
write identical bytes, so either rename wins.
"""
from __future__ import annotations

import hashlib
import linecache
import os
import stat
import tempfile

from ..context import get_context


def cache_dir() -> str | None:
    """The disk-cache directory, or None when the disk cache is off."""
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


def _paths(directory: str, key: str) -> tuple[str, str]:
    return os.path.join(directory, key + ".py"), os.path.join(directory, key + ".sha256")


def _write_atomic(directory: str, path: str, data: bytes) -> None:
    fd, temp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def store(key: str, source: str) -> str | None:
    """Write a generated module to the disk cache; returns its path (None when the cache is off)."""
    directory = cache_dir()
    if directory is None:
        return None
    os.makedirs(directory, mode=0o700, exist_ok=True)
    module_path, digest_path = _paths(directory, key)
    data = source.encode()
    try:
        _write_atomic(directory, module_path, data)
        _write_atomic(directory, digest_path, hashlib.sha256(data).hexdigest().encode())
    except OSError:
        return None  # a read-only or full cache directory must not stop the program
    return module_path


def load(key: str) -> tuple[str, str] | None:
    """``(source, path)`` of a verified cached module, or None (a bad file is deleted)."""
    directory = cache_dir()
    if directory is None:
        return None
    module_path, digest_path = _paths(directory, key)
    try:
        with open(module_path, "rb") as handle:
            data = handle.read()
            info = os.fstat(handle.fileno())
        with open(digest_path, "rb") as handle:
            expected = handle.read().decode().strip()
    except (OSError, UnicodeDecodeError):
        return None
    trusted = (info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
               and hashlib.sha256(data).hexdigest() == expected)
    if not trusted:
        discard(key)
        return None
    return data.decode(), module_path


def discard(key: str) -> None:
    """Delete a cache entry (both files), ignoring files already gone."""
    directory = cache_dir()
    if directory is None:
        return
    for path in _paths(directory, key):
        try:
            os.unlink(path)
        except OSError:
            pass


def entries(directory: str | None = None) -> list[dict]:
    """Every cache entry: key, path, size in bytes, modification time, and its header fields."""
    directory = directory or cache_dir()
    if not directory or not os.path.isdir(directory):
        return []
    found = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(directory, name)
        header = {}
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.startswith("#"):
                    break
                field, sep, value = line[2:].partition(": ")
                if sep:
                    header[field.strip()] = value.strip()
        info = os.stat(path)
        found.append({"key": name[:-3], "path": path, "size": info.st_size, "mtime": info.st_mtime,
                      "header": header})
    return found


def execute(source: str, filename: str) -> dict:
    """Execute generated module text; registers it with ``linecache`` so tracebacks show its lines."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {"__name__": "npspore_kernel", "__file__": filename}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own verified generated code
    return namespace
