"""``npspore cache list | info | clear | explain``: the on-disk kernel cache.

``explain`` computes the disk key of a forward kernel exactly as a compiled call does
(``compiler.diskload.disk_key`` of the call's ``jit.forward_request``: the callable, its source file, the
input signature, the Cell's training flag, syntax level and captured state) and says whether a verified, up-to-date file exists for it. For
a miss it names the nearest entry of the same callable (by the ``# signature:`` header) and what
differs: arguments, a source file changed since it was built, or the npspore version.
"""
from __future__ import annotations

import ast
import json
import os
import time

from ..core.version import __version__
from ..compiler import cache as disk_cache
from ..compiler import diskload
from ..compiler.cachekey import file_digest, sources_unchanged
from ..compiler.signature import describe_key
from ..compiler.targets import unbind
from ..jit import forward_request
from .target import InputError, Target


def _directory_or_none(options=None) -> str | None:
    directory = disk_cache.cache_dir()
    if directory is None and not getattr(options, "json", False):
        print("the disk cache is off (NPSPORE_CACHE_DIR is set to an empty value)")
    return directory


def _entries(directory: str) -> list:
    """npspore's own entries in ``directory`` (an unusable directory is an InputError)."""
    try:
        return disk_cache.entries(directory)
    except disk_cache.CacheUnavailable as error:
        raise InputError(str(error)) from None


def run_list(options) -> int:
    """Print one row per cached kernel, newest first (with ``--json``, a JSON list of entries)."""
    directory = _directory_or_none(options)
    entries = sorted(_entries(directory), key=lambda e: e["mtime"], reverse=True) if directory else []
    if options.json:
        print(json.dumps(entries, indent=2))
        return 0
    if directory is None:
        return 0
    if not entries:
        print(f"no cached kernels in {directory}")
        return 0
    now = time.time()
    rows = [("key", "callable", "kernel", "signature", "size", "age")]
    for entry in entries:
        header = entry["header"]
        rows.append((entry["key"][:12], header.get("callable", "?"), header.get("kernel", "?"),
                     header.get("signature", "?"), _size(entry["size"]), _age(now - entry["mtime"])))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0


def run_info(options) -> int:
    """Print the cache directory, the number of kernels and their total size (or them as JSON)."""
    directory = _directory_or_none(options)
    entries = _entries(directory) if directory else []
    total = sum(e["size"] for e in entries)
    if options.json:
        print(json.dumps({"directory": directory, "kernels": len(entries), "bytes": total}, indent=2))
        return 0
    if directory is None:
        return 0
    print(f"directory: {directory}")
    print(f"kernels:   {len(entries)}")
    print(f"size:      {total} bytes ({_size(total)})")
    return 0


def run_clear(options) -> int:
    """Delete npspore's own cached kernels (every one, or those older than ``--older-than DAYS``).

    Only files named ``<sha256>.py`` that end in npspore's seal line for that name are deleted;
    anything else in the directory (a project's sources, if the variable points there) is left alone.
    """
    directory = _directory_or_none()
    if directory is None:
        return 0
    cutoff = time.time() - options.older_than * 86400 if options.older_than is not None else None
    chosen = [e for e in _entries(directory) if cutoff is None or e["mtime"] < cutoff]
    removed = disk_cache.remove(directory, [e["key"] for e in chosen])
    kept = "" if cutoff is None else f" older than {options.older_than:g} days"
    print(f"removed {removed} kernel(s){kept} ({_size(sum(e['size'] for e in chosen))}) from {directory}")
    return 0


def run_explain(target: Target, args, options) -> int:
    """Say whether a compiled call with these inputs would find its kernel on disk, and if not, why."""
    if options.train:
        target.set_train()
    fn, _ = unbind(target.obj)
    request = forward_request(target.obj, args)
    key = request.key
    signature = describe_key(key)
    name = fn.__qualname__
    directory = disk_cache.cache_dir()
    if directory is None:
        print(f"miss: the disk cache is off, so {name} {signature} is compiled in every process")
        return 0
    disk_key = diskload.disk_key(request)
    if disk_key is None:
        print(f"miss: {name} {signature} is never cached on disk: the Cell holds state that only "
              "this process can name")
        return 0
    path = os.path.join(directory, disk_key + ".py")
    found = disk_cache.load(disk_key)
    if found is not None:
        namespace = disk_cache.execute(*found)
        if sources_unchanged(namespace.get("layout", {})):
            print(f"hit: {name} {signature}\n  key {disk_key}\n  file {path}")
            return 0
        print(f"miss: {path} exists but a source file it was built from has changed; it will be rebuilt")
        return 0
    print(f"miss: no kernel for {name} {signature}\n  key {disk_key}")
    same = [e for e in _entries(directory)
            if e["header"].get("callable") == name and e["header"].get("kernel", "forward") == "forward"]
    if not same:
        print(f"  no cached forward kernel of {name} at all in {directory}")
        return 0
    nearest = min(same, key=lambda e: (_distance(e["header"].get("signature", ""), signature), -e["mtime"]))
    print(f"  nearest: {nearest['key'][:12]}  {name} {nearest['header'].get('signature', '?')}")
    for reason in _differences(nearest, signature, target.is_cell):
        print(f"  differs: {reason}")
    return 0


def _split_signature(text: str) -> list:
    """``'(float32[2,3], 3)'`` -> ``['float32[2,3]', '3']`` (commas inside brackets kept)."""
    inner = text.strip()[1:-1]
    parts, depth, current = [], 0, ""
    for char in inner:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def _distance(a: str, b: str) -> int:
    left, right = _split_signature(a), _split_signature(b)
    return sum(x != y for x, y in zip(left, right)) + abs(len(left) - len(right))


def _differences(entry: dict, signature: str, is_cell: bool) -> list:
    old, new = _split_signature(entry["header"].get("signature", "()")), _split_signature(signature)
    if len(old) != len(new):
        return [f"{len(new)} inputs now, {len(old)} then"]
    reasons = [f"input {i}: {a} then, {b} now" for i, (a, b) in enumerate(zip(old, new)) if a != b]
    version = entry["header"].get("npspore")
    if version and version != __version__:
        reasons.append(f"npspore version: {version} then, {__version__} now")
    reasons += _changed_sources(entry["path"])
    if not reasons:
        state = "the Cell's training flag or attribute values, " if is_cell else ""
        reasons.append(f"same signature and sources: {state}or the op definitions changed")
    return reasons


def _changed_sources(path: str) -> list:
    """Source files the cached kernel was built from whose content has changed since."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        layout_lines = [line for line in handle if line.startswith("layout = ")]
    try:
        layout = ast.literal_eval(layout_lines[-1][len("layout = "):]) if layout_lines else {}
    except (ValueError, SyntaxError):
        return []
    return [f"{os.path.basename(file)} changed since the kernel was built"
            for file, sha in layout.get("sources", ()) if file_digest(file) != sha]


def _size(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    if count < 1024 ** 2:
        return f"{count / 1024:.1f} KiB"
    return f"{count / 1024 ** 2:.1f} MiB"


def _age(seconds: float) -> str:
    for unit, scale in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= scale:
            return f"{seconds / scale:.0f}{unit}"
    return f"{max(seconds, 0):.0f}s"
