"""Compiled kernels and the in-process kernel cache: what ``pipeline.compile`` returns and keeps.

A :class:`CompiledKernel` is a generated module's ``kernel`` function plus how to call it: the
captured Parameters/Tensors whose current arrays follow the input leaves, and a builder that turns
the flat results into the user's structure. A :class:`KernelCache` belongs to one compiled callable
(a ``@jit`` function, a Cell, a gradient function) and maps input keys to kernels.

A kernel records the hook version of every cell whose call it compiled (``hook_guards``): adding
or removing a hook on one of those cells makes that kernel stale (the next lookup misses and
recompiles), and no other kernel. Set ``NPSPORE_EXPLAIN_CACHE_MISSES=1`` to log, for every
recompile, which argument differs from the nearest signature already compiled.
"""
from __future__ import annotations

import logging
import os

import numpy as np

from .library import LIBRARY
from .signature import describe_key

_log = logging.getLogger("npspore.cache")


def wrap_result(result):
    """A kernel result as a Tensor (NumPy gives scalars, not 0-d arrays, for full reductions)."""
    return LIBRARY.wrap(result if type(result) is np.ndarray else np.asarray(result))


def result_builder(node):
    """A function from a kernel's results to the structure ``node`` (an OutputTree node)
    describes, compiled once so that no tree is walked per call. A kernel with one result
    returns it bare."""
    wrap, ndarray, asarray = LIBRARY.wrap, np.ndarray, np.asarray

    def w(result):  # wrap_result with its names bound: this runs on every call
        return wrap(result if type(result) is ndarray else asarray(result))

    if node == ("leaf", 0):
        return w
    constants = []
    leaf_count = 0

    def count(n):
        nonlocal leaf_count
        if n[0] == "leaf":
            leaf_count += 1
        elif n[0] != "const":
            for child in n[-1]:
                count(child)

    count(node)

    def text(n):
        kind = n[0]
        if kind == "leaf":
            return "w(r)" if leaf_count == 1 else f"w(r[{n[1]}])"
        if kind == "const":
            constants.append(n[1])
            return f"c[{len(constants) - 1}]"
        items = ", ".join(text(child) for child in n[-1])
        if kind == "list":
            return f"[{items}]"
        if kind == "dict":
            constants.append(n[1])
            return f"dict(zip(c[{len(constants) - 1}], ({items},)))"
        return f"({items},)" if items else "()"

    return eval(f"lambda r: {text(node)}", {"w": w, "c": constants})  # noqa: S307 (ints only)


class HookVersions:
    """Hook versions: each cell counts changes of its forward (pre-)hooks (``bump``); ``epoch``
    counts all of them, so a kernel whose cells were checked at the current epoch needs no check."""

    epoch = 0

    @classmethod
    def bump(cls, cell) -> None:
        """A forward (pre-)hook of ``cell`` was added or removed."""
        cell.__dict__["_hook_version"] = cell.__dict__.get("_hook_version", 0) + 1
        cls.epoch += 1


class CompiledKernel:
    """A compiled kernel and how to call it (see the module docstring)."""

    __slots__ = ("kernel", "captured", "build", "source", "path", "output_node", "hook_guards", "checked_epoch")

    def __init__(self, kernel, captured, output_node, source, path, hook_guards=()):
        self.kernel = kernel
        self.captured = captured
        self.output_node = output_node
        self.build = result_builder(output_node)
        self.source = source
        self.path = path
        self.hook_guards = tuple(hook_guards)
        self.checked_epoch = HookVersions.epoch

    def run(self, leaves):
        """Call the kernel on the input leaf arrays (plus the captured arrays); the packaged result."""
        arrays = leaves + [obj._array for obj in self.captured] if self.captured else leaves
        return self.build(self.kernel(*arrays))

    def is_current(self) -> bool:
        """False once a hook was added to or removed from a cell whose call this kernel compiled."""
        if self.checked_epoch == HookVersions.epoch:
            return True
        for ref, version in self.hook_guards:
            cell = ref()
            if cell is None or cell.__dict__.get("_hook_version", 0) != version:
                return False
        self.checked_epoch = HookVersions.epoch
        return True


class KernelCache:
    """Kernels of one compiled callable, by input key; counts hits, compiles and disk loads.

    The owner compiles on a miss and hands the kernel to :meth:`add`.
    """

    def __init__(self, label: str):
        self.entries: dict = {}
        self.label = label
        self.hits = 0
        self.compiles = 0
        self.disk_loads = 0

    def lookup(self, key):
        """The current kernel for ``key``, or None (a stale kernel is dropped)."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        if entry.hook_guards and not entry.is_current():
            del self.entries[key]
            return None
        self.hits += 1
        return entry

    def add(self, key, entry, *, from_disk: bool) -> None:
        """Keep ``entry`` for ``key`` and count it as compiled or loaded from disk."""
        if os.environ.get("NPSPORE_EXPLAIN_CACHE_MISSES") == "1":
            _log.warning("npspore: %s: %s", self.label, explain_miss(key, list(self.entries)))
        if from_disk:
            self.disk_loads += 1
        else:
            self.compiles += 1
        self.entries[key] = entry

    def info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}``."""
        return {"hits": self.hits, "compiles": self.compiles, "disk_loads": self.disk_loads,
                "entries": len(self.entries)}


def explain_miss(key, known: list) -> str:
    """Why ``key`` missed: the nearest known key and the arguments that differ from it."""
    if not known:
        return f"first compile for signature {describe_key(key)}"

    def distance(other):
        if len(other) != len(key):
            return len(key) + abs(len(other) - len(key))
        return sum(a != b for a, b in zip(key, other))

    nearest = min(known, key=distance)
    if len(nearest) != len(key):
        return f"recompiling: {len(key)} arguments, nearest compiled signature has {len(nearest)}"
    changes = [f"argument {i}: {describe_key((b,))} -> {describe_key((a,))}"
               for i, (a, b) in enumerate(zip(key, nearest)) if a != b]
    return "recompiling: " + "; ".join(changes)
