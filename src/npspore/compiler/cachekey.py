"""The cache key: fingerprints of captured state, digests of sources, paths to captured objects.

Everything that decides whether a compiled kernel may be reused lives here: the in-process key of
a shared sub-function (``object_fingerprint``), the disk-cache key of a kernel
(``kernel_disk_key``: compiler version, package and source digests, signature, options,
fingerprint), and the one encoding of where a captured Tensor lives (``capture_path`` /
``addressable_path`` and their inverses).
"""
from __future__ import annotations

import hashlib
import inspect
import os
import weakref
from typing import Iterable

import numpy as np

from ..core.source import source_lines
from ..core.version import __version__
from ..opdef import TEMPLATE_FAMILIES, template_file
from .kernel import KernelCache
from .library import LIBRARY


_MAX_DEPTH = 24
"""How deep a fingerprint looks: a Cell holds its sub-cells two levels down (its ``_cells`` dict, then
the cell), so a training step (TrainOneStepCell -> loss cell -> network -> layer -> its attributes) is
described in full; an object deeper than this is named by identity (no disk key)."""


def object_fingerprint(obj, _depth=0, *, portable=False, _path=()):
    """A hashable summary of an object's static state (Cells: attributes, sub-cells, param avals).

    Registered hooks count (by identity: a Cell with hooks compiles its own functions and is never
    cached on disk); empty hook tables do not. Functions, modules and arrays are named by identity,
    or with ``portable`` as another process names them (:func:`portable_fingerprint`). An object met
    again inside itself (a cycle: a cell holding its parent) is written as how many levels up it is."""
    if obj is None:
        return None
    if isinstance(obj, LIBRARY.tensor_type):
        return ("tensor", obj._array.shape, obj._array.dtype, getattr(obj, "requires_grad", None))
    if isinstance(obj, (bool, int, float, str, type(None), np.dtype)):
        return (type(obj), obj)
    if id(obj) in _path:
        return ("cycle", len(_path) - _path.index(id(obj)))
    if _depth > _MAX_DEPTH:
        return ("id", id(obj))
    if portable:
        found = _portable_leaf(obj, _depth)
        if found is not None:
            return found
    path = (*_path, id(obj))

    def inner(v):
        return object_fingerprint(v, _depth + 1, portable=portable, _path=path)
    if isinstance(obj, (tuple, list)):
        return (type(obj), tuple(inner(v) for v in obj))
    if isinstance(obj, dict):
        return (dict, tuple((k, inner(v)) for k, v in obj.items()))
    if isinstance(obj, (set, frozenset)):
        return (set, tuple(sorted(repr(inner(v)) for v in obj)))
    if isinstance(obj, KernelCache):
        return KernelCache  # compiled kernels are bookkeeping, not state
    state = getattr(obj, "__dict__", None)
    if state is None or callable(obj) and not hasattr(obj, "__dict__"):
        try:
            hash(obj)
            return (type(obj), obj)
        except TypeError:
            return ("id", id(obj))
    if inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.ismodule(obj) or isinstance(obj, type):
        return ("id", id(obj))
    return (type(obj), tuple((k, inner(v)) for k, v in state.items()
                             if k not in LIBRARY.cell_bookkeeping
                             and not (k.endswith("hooks") and not v) and not k.startswith("_npspore")))


def _portable_leaf(value, depth):
    """The portable fingerprint of a @jit function, function, array or module; None for others."""
    if hasattr(value, "__npspore_function__"):  # a @jit function: the function it compiles
        return ("jit", object_fingerprint(value.__npspore_function__, depth + 1, portable=True))
    if inspect.isfunction(value):
        closure = tuple(cell.cell_contents for cell in value.__closure__ or ())
        return ("function", value.__module__, value.__qualname__, code_key(value),
                object_fingerprint(value.__defaults__, depth + 1, portable=True),
                object_fingerprint(closure, depth + 1, portable=True))
    if isinstance(value, np.ndarray):
        content = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
        return ("array", value.shape, str(value.dtype), content)
    if inspect.ismodule(value):
        return ("module", value.__name__)
    return None


# Paths to captured objects, one encoding: ("self", keys) from the bound object, ("global", name, keys)
# from a module global, ("obj", target) for an object only this process can name. Keys are attribute
# names (through ``__dict__``), list/tuple indices and dict keys.


class ObjectPaths:
    """The key paths from ``root`` (a bound object, or None) to the objects reachable from it, found in one walk
    the first time one is asked for: a compilation asks for every captured Parameter's, and one walk each made
    that quadratic in the model's size. Valid while the objects walked are unchanged (one compilation)."""

    def __init__(self, root):
        self.root = root
        self._keys: dict | None = None

    def capture_path(self, target):
        """``("self", keys)`` from the root to ``target``, or ``("obj", target)`` if not reachable."""
        if self.root is None:
            return ("obj", target)
        if self._keys is None:
            self._keys = _keys_below(self.root)
        keys = self._keys.get(id(target))
        return ("obj", target) if keys is None else ("self", keys)

    def addressable_path(self, fn, obj):
        """A path that finds ``obj`` again in a new process: ``("self", keys)`` through the root,
        ``("global", name, keys)`` through a module global ``fn`` reads, or None."""
        path = self.capture_path(obj)
        if path[0] == "self":
            return path
        for name in fn.__code__.co_names:
            value = fn.__globals__.get(name)
            if value is None or inspect.ismodule(value) or inspect.isroutine(value) or isinstance(value, type):
                continue
            if value is obj:
                return ("global", name, ())
            keys = _keys_below(value).get(id(obj))
            if keys is not None:
                return ("global", name, keys)
        return None


def _keys_below(root) -> dict:
    """id -> the keys from ``root`` to each object below it (attribute names through ``__dict__``, list and tuple
    indices, dict keys): depth first, the children of an object before their own children, the first path found
    kept; modules, classes and functions are not walked into."""
    found: dict = {}
    seen: set = set()

    def walk(obj, keys, depth):
        if depth > _MAX_DEPTH or id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, (list, tuple)):
            items = list(enumerate(obj))
        elif isinstance(obj, dict):
            items = list(obj.items())
        else:
            items = list((getattr(obj, "__dict__", None) or {}).items())
        for key, value in items:
            found.setdefault(id(value), keys + (key,))
        for key, value in items:
            if isinstance(value, (list, tuple, dict)) or hasattr(value, "__dict__") and not inspect.isroutine(value):
                if not (inspect.ismodule(value) or isinstance(value, type)):
                    walk(value, keys + (key,), depth + 1)

    walk(root, (), 0)
    return found


def resolve_path(path, root, fn=None):
    """The object a path names (the inverse of :func:`capture_path` and :func:`addressable_path`)."""
    if path[0] == "obj":
        return path[1]
    obj, keys = (root, path[1]) if path[0] == "self" else (fn.__globals__[path[1]], path[2])
    for key in keys:
        obj = obj[key] if isinstance(obj, (list, tuple, dict)) else obj.__dict__[key]
    return obj


def digest(*parts) -> str:
    """sha256 hex digest of the ``repr`` of each part, in order."""
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


def file_digest(path: str, _cache={}) -> str:
    """sha256 of a source file's bytes (cached by path and modification time)."""
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        return "missing"
    cached = _cache.get(path)
    if cached is None or cached[0] != stamp:
        with open(path, "rb") as handle:
            cached = (stamp, hashlib.sha256(handle.read()).hexdigest())
        _cache[path] = cached
    return cached[1]


def sources_unchanged(layout: dict) -> bool:
    """Whether every source file a cached kernel was built from still has the same content."""
    return all(file_digest(path) == sha for path, sha in layout.get("sources", ()))


_PACKAGE_DIGEST = None


def package_digest() -> str:
    """A digest of npspore's own source files (path, size, modification time), computed once per
    process: editing the library (an ops function, a layer) invalidates cached kernels."""
    global _PACKAGE_DIGEST
    if _PACKAGE_DIGEST is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        lines = []
        for directory, subdirectories, files in os.walk(root):
            subdirectories[:] = [d for d in subdirectories if d != "__pycache__"]   # not walked: no sources
            relative = os.path.relpath(directory, root)
            for name in files:
                if name.endswith((".py", ".tmpl")):
                    info = os.stat(os.path.join(directory, name))
                    path = name if relative == os.curdir else os.path.join(relative, name)
                    lines.append(f"{path}:{info.st_size}:{info.st_mtime_ns}\n")
        _PACKAGE_DIGEST = hashlib.sha256("".join(sorted(lines)).encode()).hexdigest() + op_table_digest()
    return _PACKAGE_DIGEST


_OP_DIGEST = None


def op_table_digest() -> str:
    """sha256 over the op-definition files (read as bytes: a disk-cache hit never loads the op table)."""
    global _OP_DIGEST
    if _OP_DIGEST is None:
        h = hashlib.sha256()
        for name in (*(f"{family}.py" for family in TEMPLATE_FAMILIES), "module.py.tmpl"):
            with open(template_file(name), "rb") as handle:
                h.update(handle.read())
        _OP_DIGEST = h.hexdigest()
    return _OP_DIGEST


def class_key(cls) -> str | None:
    """A class as another process names it: module, qualname and where each of its methods (and
    its bases' methods) is defined, so two classes of one name in one file differ. None for a
    class whose methods close over values (a class made by a factory function)."""
    cached = _CLASS_KEYS.get(cls)
    if cached is not None or cls in _CLASS_KEYS:
        return cached
    result: str | None
    if cls.__module__ == "builtins" or cls.__module__.startswith(("numpy", "npspore")):
        result = f"{cls.__module__}.{cls.__qualname__}"
    else:
        places = _method_places(cls)
        result = None if places is None else f"{cls.__module__}.{cls.__qualname__}[{','.join(places)}]"
    _CLASS_KEYS[cls] = result
    return result


def _method_places(cls) -> list[str] | None:
    """``Class.method@file:line`` of each method of ``cls`` and its user-defined bases, or None when a
    method closes over values."""
    places = []
    for klass in cls.__mro__[:-1]:
        if klass.__module__.startswith(("npspore", "numpy")):
            continue
        for name, member in vars(klass).items():
            function = inspect.unwrap(member) if inspect.isfunction(member) else None
            if function is None:
                continue
            if set(function.__code__.co_freevars) - {"__class__"}:
                return None
            code = function.__code__
            places.append(f"{klass.__qualname__}.{name}@{code.co_filename}:{code.co_firstlineno}")
    return places


_CLASS_KEYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def code_key(fn, _sources={}) -> tuple:
    """A function's code as another process names it: file, first line and source text (raises
    OSError when the source is not available)."""
    code = fn.__code__
    source = _sources.get(code)
    if source is None:
        source = _sources[code] = "".join(source_lines(fn)[0])
    if code.co_name == "<lambda>":   # lambdas sharing a line share its source text: what they compute differs
        return (code.co_filename, code.co_firstlineno, source, _bytecode_text(code))
    return (code.co_filename, code.co_firstlineno, source)


def _bytecode_text(code) -> str:
    """What ``code`` computes, as text another process gives the same: its bytecode, names and constants (nested
    code by its own text)."""
    consts = ", ".join(_bytecode_text(c) if hasattr(c, "co_code") else repr(c) for c in code.co_consts)
    return f"{code.co_code.hex()} {code.co_names} {code.co_varnames} ({consts})"


def portable_fingerprint(value) -> str | None:
    """A text fingerprint of ``value`` that another process computes the same for an equal value:
    plain data by value, functions by code, defaults and closure values, classes by
    :func:`class_key`, Cells and objects by class and state; None for state only this process can
    name."""
    try:
        text = _portable_text(object_fingerprint(value, portable=True))
    except (_NotPortable, OSError, TypeError):  # TypeError: a function without source (a builtin)
        return None
    return None if " at 0x" in text or "'id'" in text else text


class _NotPortable(Exception):
    pass


def _portable_text(fingerprint) -> str:
    """``repr`` of a fingerprint with every class written as its :func:`class_key`."""
    if isinstance(fingerprint, type):
        key = class_key(fingerprint)
        if key is None:
            raise _NotPortable
        return key
    if isinstance(fingerprint, tuple):
        return "(" + ", ".join(_portable_text(part) for part in fingerprint) + ")"
    return repr(fingerprint)


def kernel_disk_key(fn, self_obj, key, options) -> str | None:
    """The disk-cache key of a kernel of ``fn`` (bound to ``self_obj``) for input ``key`` and
    ``options``; None when the bound object, a closure cell or a default of ``fn`` holds state only
    this process can name (a closure over a function made here, say). ``fn``'s code is named by its
    own file, position and source text (two classes of one name in one file differ)."""
    closure = tuple(cell.cell_contents for cell in fn.__closure__ or ())
    try:
        state = _portable_text((object_fingerprint(self_obj) if self_obj is not None else None,
                                object_fingerprint(closure), object_fingerprint(fn.__defaults__ or ())))
    except _NotPortable:
        return None
    if " at 0x" in state or "'id'" in state:
        return None
    process = LIBRARY.process_key() if LIBRARY.process_key is not None else None
    return digest(__version__, package_digest(), fn.__qualname__, code_key(fn), key, options, state, process)


def reachable_cells(root, fn) -> list:
    """Every network cell reachable from ``root`` and from the module globals ``fn`` reads (through
    attributes, lists, tuples and dicts): the cells a kernel loaded from disk may call."""
    found, seen = [], set()
    pending = [(root, 0)] + [(fn.__globals__.get(name), 0) for name in fn.__code__.co_names]
    while pending:
        obj, depth = pending.pop()
        if obj is None or depth > _MAX_DEPTH or id(obj) in seen or inspect.ismodule(obj) or isinstance(obj, type):
            continue
        seen.add(id(obj))
        if LIBRARY.is_cell(obj):
            found.append(obj)
        items: Iterable
        if isinstance(obj, (list, tuple)):
            items = obj
        elif isinstance(obj, dict):
            items = obj.values()
        elif LIBRARY.is_cell(obj):
            items = obj.__dict__.values()
        else:
            continue
        pending.extend((item, depth + 1) for item in items)
    return found
