"""Guards: the Python values a kernel read while it was specialized, checked before it is reused.

Specialization computes Python values at compile time (``x * S`` folds the global ``S``), so a
kernel is only valid while those values stay the same. The specializer records each value it reads
from outside the call — a module global of user code, an attribute of a user module or of a plain
object, a closure cell, a function's defaults, the ``training`` flag of any Cell it reached — as a
:class:`Guard` (as ``torch.compile`` does). A kernel whose guard fails is recompiled.

Checking is cheap: a kernel's guards compile to one generated expression of subscripts, attribute
reads and identity tests (``kernel._quick_check``); an equality test runs only when an identity
differs.

A tensor value that decides something at compile time — ``x.item()``, ``float(x)``, ``bool(x)``,
``x.asnumpy()`` in compiled code, a traced ``if`` on a tensor — makes a **value guard**: the kernel
is specialized on the value seen at compile time (:class:`ValueGuard`, recorded by
:meth:`GuardRecorder.value_read`), and a ``guard`` effect checks it inside the kernel, placed before
any work the caller can see (``compiler.guardeffect``: no Parameter written, no hook or ``print`` run). A different value raises ``GuardFailed`` out of the
kernel, and the call runs the kernel compiled for that value (``KernelCache`` keeps one per value).
A guard that cannot be placed so is a compile error at the user's line.

On disk a kernel keeps the globals it read (``portable``: module name, global name, a digest of the
value's fingerprint), checked in the loading process. The other guards need no disk form: the
objects they read were reached through ``self``, a closure or a default of the compiled function
(all in the disk key) or through a global (whose fingerprint covers their state).
"""
from __future__ import annotations

import inspect
import os
import sys

import numpy as np

from .cachekey import digest, portable_fingerprint
from .library import same_value

MISSING = object()


class Guard:
    """One value read at compile time: ``label`` names it (``global S``); ``holder[name]`` (a
    namespace dict, ``by_item``) or ``holder.name`` reads it again; ``expected`` is what
    specialization saw; ``portable`` is its disk form or None."""

    __slots__ = ("label", "holder", "name", "by_item", "expected", "portable")

    def __init__(self, label, holder, name, by_item, expected, portable=None):
        self.label, self.holder, self.name, self.by_item = label, holder, name, by_item
        self.expected, self.portable = expected, portable

    def read(self):
        """The value now (``MISSING`` once it is gone)."""
        if self.by_item:
            return self.holder.get(self.name, MISSING)
        return getattr(self.holder, self.name, MISSING)

    def holds(self) -> bool:
        """Whether the value read now is the one specialization saw."""
        value = self.read()
        return value is self.expected or same_value(value, self.expected)

    def explain(self) -> str:
        """``global S: 1.0 -> 5.0``."""
        return f"{self.label}: {shown(self.expected)} -> {shown(self.read())}"

    def expression(self, holder: str) -> str:
        """Python text reading the value from the variable ``holder`` (for a generated check)."""
        if self.by_item:
            return f"{holder}[{self.name!r}]"
        return f"{holder}.{self.name}" if self.name.isidentifier() else f"getattr({holder}, {self.name!r})"


def shown(value) -> str:
    """A short one-line ``repr`` of a guarded value."""
    if value is MISSING:
        return "<unset>"
    if inspect.isroutine(value) or isinstance(value, type):   # where it is defined, not its address: the
        # text is stored with a kernel on disk and must read the same in every process
        name = f"{getattr(value, '__module__', None) or '?'}.{getattr(value, '__qualname__', '?')}"
        code = getattr(value, "__code__", None)
        where = f" ({os.path.basename(code.co_filename)}:{code.co_firstlineno})" if code is not None else ""
        return f"<{type(value).__name__} {name}{where}>"
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def failed_guard(guards):
    """The first guard of ``guards`` that does not hold, or None."""
    for guard in guards:
        if not guard.holds():
            return guard
    return None


def _is_fixed(value) -> bool:
    """Values no guard is needed for: modules (their attributes are guarded when read) and the
    library's and NumPy's own functions and classes (covered by the package digest)."""
    if inspect.ismodule(value):
        return True
    if isinstance(value, (type, np.ufunc)) or inspect.isroutine(value):
        module = getattr(value, "__module__", None) or ""
        return module in ("builtins", "numpy") or module.startswith(("npspore.", "numpy."))
    return False


class ValueGuard:
    """A value a kernel is specialized on: ``kind`` is what is compared (``truth``: ``bool(v)``;
    ``item``: the one element of a tensor; ``array``: all of an array; ``value``: a Python value;
    ``type``: the name of a Python value's type; ``aval``: an array's shape and dtype); ``expected``
    what specialization saw; ``label`` where (the user's line)."""

    __slots__ = ("label", "kind", "expected")

    def __init__(self, label: str, kind: str, expected):
        self.label, self.kind, self.expected = label, kind, expected

    def explain(self, value) -> str:
        """``value of bool(...) at f.py:3: True -> False`` for the run-time ``value``."""
        return f"value {self.label}: {shown(self.expected)} -> {shown(_as_read(self.kind, value))}"


def read_value(kind: str, array):
    """The Python value a read of ``kind`` (see :class:`ValueGuard`) makes of the tensor data ``array``."""
    array = np.asarray(array)
    if kind == "truth":
        return bool(array)
    if kind == "item":
        return array.item()
    return np.array(array)


def _as_read(kind, value):
    if kind == "type":
        return type(value).__name__
    if kind not in ("truth", "item", "array"):
        return value
    try:
        return read_value(kind, value)
    except (TypeError, ValueError):
        return value


class GuardRecorder:
    """The guards of one program being specialized, one per value read (first read wins), and its
    value guards in the order they were made (``values``)."""

    def __init__(self, is_cell):
        self._is_cell = is_cell
        self.guards: dict = {}
        self.training_cells: dict = {}     # id(cell) -> cell whose ``training`` flag was read
        self.values: list = []             # ValueGuard, by index

    def value_read(self, label: str, kind: str, expected) -> int:
        """A tensor value was read as ``kind`` and specialized on: the index of its value guard."""
        self.values.append(ValueGuard(label, kind, expected))
        return len(self.values) - 1

    def _add(self, key, make):
        if key not in self.guards:
            self.guards[key] = make()

    def global_read(self, namespace: dict, name: str, value) -> None:
        """A module global of user code was read."""
        if _is_fixed(value):
            return
        module = namespace.get("__name__", "?")
        self._add(("global", id(namespace), name), lambda: Guard(
            f"global {name}" if module == "__main__" else f"global {module}.{name}",
            namespace, name, True, value, (module, name)))

    def attribute_read(self, obj, attr: str, value) -> None:
        """``obj.attr`` was read: a user module's global, a Cell's ``training`` flag, or an
        attribute of a plain (non-Cell, non-library) object."""
        if inspect.ismodule(obj):
            name = getattr(obj, "__name__", "")
            if not name.startswith(("npspore", "numpy")) and name not in sys.builtin_module_names \
                    and not _is_fixed(value):
                self.global_read(obj.__dict__, attr, value)
            return
        if self._is_cell(obj):
            if attr == "training":
                self.training_cells[id(obj)] = obj
                self._add(("training", id(obj)), lambda: Guard(
                    f"{type(obj).__name__}.training", obj, "training", False, value))
            return
        module = getattr(type(obj), "__module__", "") or ""
        if isinstance(obj, type):
            module = obj.__module__ or ""
        if module.startswith(("npspore", "numpy")) or module == "builtins" or inspect.isroutine(value):
            return
        self._add(("attr", id(obj), attr), lambda: Guard(
            f"attribute {type(obj).__name__}.{attr}", obj, attr, False, value))

    def closure_read(self, fn_name: str, cell, name: str, value) -> None:
        """A closure cell of a user function was read."""
        if _is_fixed(value):
            return
        self._add(("closure", id(cell)), lambda: Guard(
            f"closure {fn_name}.{name}", cell, "cell_contents", False, value))

    def defaults_read(self, fn) -> None:
        """The default values of a user function were used."""
        for name in ("__defaults__", "__kwdefaults__"):
            if getattr(fn, name):
                self._add((name, id(fn)), lambda: Guard(f"{name} of {fn.__qualname__}", fn, name, False,
                                                         getattr(fn, name)))

    def portable(self):
        """The disk form of the global guards: ``[(module, name, fingerprint digest, shown value)]``,
        or None when a value read has no fingerprint another process could compute."""
        out = []
        for guard in self.guards.values():
            if guard.portable is None:
                continue
            fingerprint = portable_fingerprint(guard.expected)
            if fingerprint is None:
                return None
            out.append((*guard.portable, digest(fingerprint), shown(guard.expected)))
        return out


def check_portable(entries) -> str | None:
    """Why the disk guards ``entries`` (from :meth:`GuardRecorder.portable`) fail in this process,
    or None when they all hold."""
    for module_name, name, expected, seen in entries:
        module = sys.modules.get(module_name)
        value = module.__dict__.get(name, MISSING) if module is not None else MISSING
        label = f"global {name}" if module_name == "__main__" else f"global {module_name}.{name}"
        if value is MISSING:
            return f"{label}: {seen} -> <unset>"
        fingerprint = portable_fingerprint(value)
        if fingerprint is None or digest(fingerprint) != expected:
            return f"{label}: {seen} -> {shown(value)}"
    return None


def loaded_guards(entries, training_cells) -> list:
    """In-process guards for a kernel loaded from disk: its checked disk guards (``entries``) and
    the ``training`` flag of each cell whose flag it read (``training_cells``)."""
    guards = []
    for module_name, name, _, _ in entries:
        namespace = sys.modules[module_name].__dict__
        label = f"global {name}" if module_name == "__main__" else f"global {module_name}.{name}"
        guards.append(Guard(label, namespace, name, True, namespace.get(name, MISSING)))
    for cell in training_cells:
        guards.append(Guard(f"{type(cell).__name__}.training", cell, "training", False, cell.training))
    return guards
