"""Compiled kernels and the in-process kernel cache: what ``compiler.compile`` returns and keeps.

A :class:`CompiledKernel` is a generated module's ``kernel`` function plus how to call it: the
captured Parameters/Tensors whose current arrays follow the input leaves, and a builder that turns
the flat results into the user's structure. A :class:`KernelCache` belongs to one compiled callable
(a ``@jit`` function, a Cell, a gradient function) and maps input keys to kernels.

A kernel records the hook version of every cell whose call it compiled (``hook_guards``): adding
or removing a hook on one of those cells makes that kernel stale (the next lookup misses and
recompiles), and no other kernel. Set ``NPSPORE_EXPLAIN_CACHE_MISSES=1`` to log, for every
recompile, which argument differs from the nearest signature already compiled.

Threads may call one compiled callable at once: a cache hit reads the cache without a lock, and
every change to it (an addition, an eviction, dropping a stale kernel) is made under the cache's
lock on a copy that then replaces the published mapping, so a lookup never sees one half-made.

A kernel specialized on tensor values (``value_guards``, see ``compiler.guards``) raises
``GuardFailed`` when a call's value differs; :meth:`KernelCache.rerun` then runs the kernel kept for
that value, or compiles one: a key keeps up to ``recompile_limit`` kernels, one per value.
"""
from __future__ import annotations

import linecache
import os
import threading
import warnings
import weakref

import numpy as np

from ..core import statewrites
from ..core.logs import warn
from ..core.threads import ensure_blas_threads
from ..core.timeline import OBSERVERS, observed
from .library import LIBRARY, RECORDERS, GuardFailed
from .signature import describe_key


_LOG = "npspore.cache"   # the logger's name


def result_builder(node):
    """A function from a kernel's results to the structure ``node`` (an OutputTree node)
    describes, compiled once so that no tree is walked per call. A kernel with one result
    returns it bare."""
    statements, expression, names = _result_code(node, "r")
    body = "".join(f"    {line}\n" for line in statements)
    exec(f"def build(r):\n{body}    return {expression}\n", names)  # noqa: S102 (ints only)
    return names["build"]


def _result_code(node, results: str) -> tuple:
    """``(statements, expression, names)``: Python text that builds the structure ``node``
    describes from the kernel's results (named ``results``), and the names it uses. Each result
    becomes a Tensor made in line (``object.__new__`` and its ``_array`` set, as ``LIBRARY.wrap``
    does, without a call), a NumPy scalar of a full reduction first made a 0-d array."""
    constants: list = []
    names = {"T": LIBRARY.tensor_type, "new": object.__new__, "N": np.ndarray, "A": np.asarray, "c": constants}
    leaves, hosts = [], set()

    def collect(n):
        if n[0] in ("leaf", "host"):
            leaves.append(n[1])
            if n[0] == "host":
                hosts.add(n[1])
        elif n[0] != "const":
            for child in n[-1]:
                collect(child)

    collect(node)
    leaves = list(dict.fromkeys(leaves))       # a result the structure holds twice is wrapped once
    if len(leaves) <= 1:                       # one result comes bare
        values = {index: results for index in leaves}
        statements = []
    else:
        values = {index: f"{results}{index}" for index in leaves}
        if sorted(leaves) == list(range(len(leaves))):
            statements = [", ".join(values[i] for i in range(len(leaves))) + f", = {results}"]
        else:
            statements = [f"{values[index]} = {results}[{index}]" for index in leaves]
    for index in leaves:
        value = values[index]
        if index not in hosts:   # a host value (a Python float, a list...) is returned as it is
            statements += [f"w{index} = new(T)", f"w{index}._array = {value} if type({value}) is N else A({value})"]

    def text(n):
        kind = n[0]
        if kind == "leaf":
            return f"w{n[1]}"
        if kind == "host":
            return values[n[1]]
        if kind == "const":
            constants.append(n[1])
            return f"c[{len(constants) - 1}]"
        items = ", ".join(text(child) for child in n[-1])
        if kind == "list":
            return f"[{items}]"
        if kind == "dict":
            constants.append(n[1])
            return f"dict(zip(c[{len(constants) - 1}], ({items},)))" if items else "{}"
        return f"({items},)" if items else "()"

    return statements, text(node), names


MISS = object()
"""What a fast path returns when the call is not the one it was built for (see :func:`fast_path`)."""


def no_fast_path(args):
    """The fast path of a callable that has not run yet: every call misses."""
    return MISS


def fast_path(entry, cache, args, leaves, conditions=(), bound=None):
    """A function ``fast(args)`` that runs ``entry`` for a call like ``args`` or returns :data:`MISS`.

    A monomorphic inline cache: the caller computed the full input key of ``args`` (all of them
    Tensors, given positionally) and found ``entry`` in ``cache``; ``fast`` recognizes a later call
    with the same argument count, the same Tensor classes and the same array shapes and dtype
    objects, with no key built, no dictionary lookup and no tree walked: the kernel's parameter list
    and result structure are written out in one generated function. ``conditions`` are further
    Python expressions (over the names in ``bound``) that must hold, e.g. a Cell's ``training``
    flag. A tracing recorder or a profiler being active, a guard of the kernel failing its quick identity check, or
    a shape or dtype change of any Tensor since the kernel's captures were last checked, also returns
    MISS (the caller's full path then decides). Returns None when the call cannot have a fast path
    (an argument is not a Tensor, or the kernel sets attributes).
    """
    if len(args) != len(leaves) or not all(isinstance(a, LIBRARY.tensor_type) for a in args) or entry.state:
        return None
    names = dict(bound or {}, R=RECORDERS, O=OBSERVERS, k=entry.kernel, e=entry, C=cache, M=MISS)
    lines = ["if R or O:", "    return M"]   # tracing or profiling: the full path records the call
    arrays, same = [], list(conditions)
    if args:   # unpacked in a try: cheaper than len() when the count is right (the common case)
        lines += ["try:", "    " + ", ".join(f"x{i}" for i in range(len(args))) + ", = args",
                  "except ValueError:", "    return M"]
        lines += [f"if {' or '.join(f'type(x{i}) is not t{i}' for i in range(len(args)))}:", "    return M"]
    else:
        lines += ["if args:", "    return M"]
    for index, (arg, leaf) in enumerate(zip(args, leaves)):
        names[f"t{index}"], names[f"s{index}"], names[f"d{index}"] = type(arg), leaf.shape, leaf.dtype
        lines.append(f"a{index} = x{index}._array")
        same.append(f"a{index}.shape == s{index} and a{index}.dtype is d{index}")
        arrays.append(f"a{index}")
    for index, obj in enumerate(entry.captured):
        names[f"p{index}"] = obj
        arrays.append(f"p{index}._array")
    if entry.captured:  # a captured Tensor changed shape or dtype: the full path checks it
        names["V"] = CapturedAvals
        same.append("V.epoch == e.avals_epoch")
    if entry.guarded:
        names["q"] = entry.quick_check
        same.append("q()")
    if same:
        lines += [f"if not ({' and '.join(same)}):", "    return M"]
    statements, expression, result_names = _result_code(entry.output_node, "r")
    names.update(result_names)
    run = ["C.hits += 1", "e.used = True", f"r = k({', '.join(arrays)})"]
    if entry.value_guards:   # a value the kernel was specialized on differs: the full path runs the right one
        names["G"] = GuardFailed
        run = ["try:", "    " + run[2], "except G:", "    return M", *run[:2]]
    lines += [*run, *statements, f"return {expression}"]
    exec("def fast(args):\n" + "".join(f"    {line}\n" for line in lines), names)  # noqa: S102 - names, ints
    return names["fast"]


class HookVersions:
    """Hook versions: each cell counts changes of its forward (pre-)hooks (``bump``); ``epoch``
    counts all of them, so a kernel whose cells were checked at the current epoch needs no check.
    The counts live here, by cell identity (dropped when the cell is collected), not on the cells."""

    epoch = 0
    _versions: dict[int, int] = {}

    @classmethod
    def bump(cls, cell) -> None:
        """A forward (pre-)hook of ``cell`` was added or removed."""
        key = id(cell)
        if key not in cls._versions:
            weakref.finalize(cell, cls._versions.pop, key, None)
        cls._versions[key] = cls._versions.get(key, 0) + 1
        cls.epoch += 1

    @classmethod
    def of(cls, cell) -> int:
        """How often the forward (pre-)hooks of ``cell`` changed."""
        return cls._versions.get(id(cell), 0)

    @classmethod
    def guard(cls, cell) -> tuple:
        """``(weak reference to cell, its version now)``: a kernel compiled now is stale once they differ."""
        return weakref.ref(cell), cls.of(cell)


class TensorHooks:
    """The hooks registered on pre-existing Tensors, by Tensor identity (dropped when the Tensor is collected).
    ``live`` counts the Tensors holding hooks, so a gradient call checks its inputs only when some do."""

    _hooks: dict[int, tuple] = {}
    live = 0

    @classmethod
    def of(cls, tensor) -> tuple:
        """The hooks of ``tensor``, in registration order."""
        return cls._hooks.get(id(tensor), ()) if cls.live else ()

    @classmethod
    def add(cls, tensor, hook) -> HookHandle:
        """Register ``hook`` on ``tensor``; the handle removes it."""
        key = id(tensor)
        if key not in cls._hooks:
            cls.live += 1
            weakref.finalize(tensor, cls._drop, key)
        cls._hooks[key] = cls._hooks.get(key, ()) + (hook,)
        return HookHandle(tensor, hook)

    @classmethod
    def remove(cls, tensor, hook) -> None:
        """Unregister ``hook`` from ``tensor`` (nothing if it is not registered)."""
        key = id(tensor)
        hooks = tuple(h for h in cls._hooks.get(key, ()) if h is not hook)
        if hooks:
            cls._hooks[key] = hooks
        else:
            cls._drop(key)

    @classmethod
    def _drop(cls, key) -> None:
        if cls._hooks.pop(key, None) is not None:
            cls.live -= 1


class HookHandle:
    """What ``Tensor.register_hook`` returns: ``remove()`` unregisters the hook (MindSpore's ``_TensorHookHandle``)."""

    def __init__(self, tensor, hook):
        self._tensor = weakref.ref(tensor) if tensor is not None else None
        self._hook = hook

    def remove(self) -> None:
        """Unregister the hook; its Tensor's later gradients no longer pass through it."""
        tensor = self._tensor() if self._tensor is not None else None
        if tensor is not None:
            TensorHooks.remove(tensor, self._hook)


def hooks_key(tensors) -> tuple:
    """``((position, hooks), ...)`` of the given Tensors that hold hooks: part of a gradient kernel's key."""
    if not TensorHooks.live:
        return ()
    return tuple((k, hooks) for k, t in enumerate(tensors) if (hooks := TensorHooks.of(t)))


class AttributeRef:
    """A captured Tensor that a kernel setting the attribute holding it (``self.h = h``) reads through that
    attribute, so a call after the one that set it reads the new Tensor (``_array``: its array now)."""

    __slots__ = ("holder", "attr")

    def __init__(self, holder, attr: str):
        self.holder, self.attr = holder, attr

    @property
    def _array(self):
        return getattr(self.holder, self.attr)._array

    @property
    def name(self) -> str:
        return f"{type(self.holder).__name__}.{self.attr}"


def _read_through_attributes(captured, state) -> list:
    """``captured`` with each Tensor that an attribute the kernel sets holds now read through it."""
    held = {id(getattr(obj, attr, None)): (obj, attr) for obj, attr in state}
    return [AttributeRef(*held[id(obj)]) if id(obj) in held else obj for obj in captured]


def _set_state(holder, attr: str, array) -> None:
    """``holder.attr = Tensor(array)`` after a kernel set it; a new shape or dtype makes the kernels that
    read the attribute check what they captured (``CapturedAvals``)."""
    if _changes_aval(getattr(holder, attr, None), array):
        CapturedAvals.bump()
    setattr(holder, attr, LIBRARY.wrap(array))


def _changes_aval(old, array) -> bool:
    """Whether ``array`` replaces a Tensor ``old`` of another shape or dtype."""
    before = getattr(old, "_array", None) if isinstance(old, LIBRARY.tensor_type) else None
    return before is not None and (before.shape, before.dtype) != (array.shape, array.dtype)


class CapturedAvals:
    """``epoch`` counts changes of the shape or dtype of any Tensor or Parameter (``bump``, called by
    ``Parameter.set_data(..., slice_shape=True)``, ``set_dtype``, ``Tensor.assign_value``): a kernel
    checked at the current epoch needs no check of the shapes and dtypes of what it captured."""

    epoch = 0

    @classmethod
    def bump(cls) -> None:
        """The shape or dtype of some Tensor changed."""
        cls.epoch += 1


class CompiledKernel:
    """A compiled kernel and how to call it (see the module docstring)."""

    __slots__ = ("kernel", "captured", "build", "source", "path", "output_node", "hook_guards", "checked_epoch",
                 "guards", "guarded", "used", "quick_check", "captured_avals", "avals_epoch", "value_guards",
                 "state")

    def __init__(self, kernel, captured, output_node, source, path, hook_guards=(), guards=(), value_guards=(),
                 state=()):
        ensure_blas_threads()   # the BLAS thread policy holds before the first kernel runs, not per call
        self.kernel = kernel
        self.state = tuple(state)   # (object, attribute) per slot the kernel sets (compiler.cellstate)
        self.captured = _read_through_attributes(captured, self.state) if self.state else captured
        self.output_node = output_node
        self.build = result_builder(output_node)
        self.source = source
        self.path = path
        self.hook_guards = tuple(hook_guards)
        self.checked_epoch = HookVersions.epoch
        self.guards = tuple(guards)
        self.guarded = bool(self.hook_guards or self.guards)   # the one test a call makes when False
        self.used = False                                       # CLOCK bit: set by each cache hit
        self.quick_check = _quick_check(self) if self.guarded else None
        self.captured_avals = tuple((obj._array.shape, obj._array.dtype) for obj in captured)
        self.avals_epoch = CapturedAvals.epoch
        self.value_guards = tuple(value_guards)             # compiler.guards.ValueGuard, by index

    def run(self, leaves):
        """Call the kernel on the input leaf arrays (plus the captured arrays); the packaged result."""
        arrays = leaves + [obj._array for obj in self.captured] if self.captured else leaves
        if self.state:
            return self.build(self._run_setting_state(arrays))
        if OBSERVERS:   # a profiler is recording: time the kernel
            return self.build(observed(self.kernel.__name__, "kernel", lambda: self.kernel(*arrays)))
        return self.build(self.kernel(*arrays))

    def _run_setting_state(self, arrays):
        """The kernel's results; then the attributes it set hold their values (none if it raised)."""
        start = statewrites.mark()
        try:
            results = observed(self.kernel.__name__, "kernel", lambda: self.kernel(*arrays)) if OBSERVERS \
                else self.kernel(*arrays)
        except BaseException:
            statewrites.drop_states(start)
            raise
        for slot, value in statewrites.take_states(start):
            _set_state(*self.state[slot], value)
        return results

    def is_current(self) -> bool:
        """False once a hook was added to or removed from a cell whose call this kernel compiled,
        or once a value it read at compile time changed (a failed guard)."""
        return self.stale_reason() is None

    def stale_reason(self) -> str | None:
        """Why this kernel is stale (``global S: 1.0 -> 5.0``), or None when it is current."""
        epoch = HookVersions.epoch   # read first: a hook changed by another thread meanwhile is checked next time
        if self.checked_epoch != epoch:
            for ref, version in self.hook_guards:
                cell = ref()
                if cell is None or HookVersions.of(cell) != version:
                    return "a forward hook of a compiled cell was added or removed"
            self.checked_epoch = epoch
        for guard in self.guards:
            if not guard.holds():
                return guard.explain()
        return self.changed_capture()

    def changed_capture(self) -> str | None:
        """Which captured Tensor or Parameter changed shape or dtype since the compile (a kernel is
        specialized to them), or None."""
        epoch = CapturedAvals.epoch  # read first, as in stale_reason
        if self.avals_epoch != epoch:
            for obj, (shape, dtype) in zip(self.captured, self.captured_avals):
                if obj._array.shape != shape or obj._array.dtype != dtype:
                    name = getattr(obj, "name", None) or "a captured Tensor"
                    return (f"{name}: shape {list(shape)} {dtype} -> {list(obj._array.shape)} "
                            f"{obj._array.dtype}")
            self.avals_epoch = epoch
        return None


def _quick_check(kernel):
    """A function that is True when every guard of ``kernel`` reads the very object it saw and no
    hook changed since the last full check: one generated expression, no loop (the hot path of a
    guarded kernel). False only means "check fully" (:meth:`CompiledKernel.stale_reason`)."""
    names = {"H": HookVersions, "k": kernel}
    terms = ["H.epoch == k.checked_epoch"] if kernel.hook_guards else []
    for index, guard in enumerate(kernel.guards):
        names[f"s{index}"], names[f"e{index}"] = guard.holder, guard.expected
        terms.append(f"{guard.expression(f's{index}')} is e{index}")
    defaults = ", ".join(f"{name}={name}" for name in names)
    text = f"def quick({defaults}):\n    try:\n        return {' and '.join(terms)}\n" \
           "    except Exception:\n        return False\n"
    exec(text, names)  # noqa: S102 - names and repr'd strings only
    return names["quick"]


class KernelCache:
    """Kernels of one compiled callable, by input key; counts hits, compiles and disk loads.

    The owner compiles on a miss and hands the kernel to :meth:`add`. At most ``capacity`` kernels
    are kept (``NPSPORE_KERNEL_CACHE_SIZE``, default 64): the least recently used one is evicted
    (CLOCK: a hit only marks its kernel used) and its source leaves ``linecache``. A callable that
    compiles more than ``recompile_limit`` times (``NPSPORE_RECOMPILE_LIMIT``, default 8, as
    ``torch.compile``) gets one warning naming the argument whose signature keeps changing.

    ``entries`` is never changed in place: :meth:`add` and the drops build a new dict under the
    lock and publish it, so readers (the cached-call paths: ``entries.get``) need no lock. The
    hit counter is not locked either: calls racing in threads may count a few hits fewer.
    """

    def __init__(self, label: str):
        self.entries: dict = {}
        self.label = label
        self.hits = 0
        self.compiles = 0
        self.disk_loads = 0
        self.capacity = _env_int("NPSPORE_KERNEL_CACHE_SIZE", 64)
        self.recompile_limit = _env_int("NPSPORE_RECOMPILE_LIMIT", 8)
        self._stale: str | None = None      # why the last dropped kernel was stale (explained at the recompile)
        self._warned = False
        self._lock = threading.Lock()
        self.variants: dict = {}   # key -> the kernels specialized on other tensor values (a tuple, newest last)

    def lookup(self, key):
        """The current kernel for ``key``, or None (a stale kernel is dropped)."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        suspect = (entry.guarded and not entry.quick_check()) or entry.avals_epoch != CapturedAvals.epoch
        if suspect and not self.still_current(key, entry):
            return None
        self.hits += 1
        entry.used = True
        return entry

    def still_current(self, key, entry) -> bool:
        """Whether ``entry`` (kept for ``key``) is current; a stale one is dropped."""
        reason = entry.stale_reason()
        if reason is None:
            return True
        with self._lock:
            self._stale = reason
            if self.entries.get(key) is entry:   # not already dropped or replaced by another thread
                entries = dict(self.entries)
                _drop(entries, key)
                self.entries = entries
                self.variants.pop(key, None)
        return False

    def rerun(self, key, failure: GuardFailed, leaves, compile):
        """The result of a call whose kernel (``entries[key]``) stopped at a value guard: the kernel
        kept for this call's values runs, or one compiled by ``compile()`` (``(kernel, from_disk)``)."""
        failed = self.entries.get(key)
        for variant in reversed(self.variants.get(key, ())):
            if variant is failed or not variant.is_current():
                continue
            try:
                result = variant.run(leaves)
            except GuardFailed:
                continue
            self.hits += 1
            with self._lock:
                if key in self.entries:   # not evicted meanwhile by another thread
                    self.entries = {**self.entries, key: variant}
            return result
        guard = failed.value_guards[failure.index] if failed is not None else None
        self._stale = guard.explain(failure.value) if guard is not None else "a value guard failed"
        entry, from_disk = compile()
        self.add(key, entry, from_disk=from_disk)
        try:
            return entry.run(leaves)
        except GuardFailed as again:
            raise RuntimeError(
                f"npspore: {self.label}: the {entry.value_guards[again.index].explain(again.value)} differs "
                "between the compile and the run of the same inputs (is it computed from random values?)") from None

    def add(self, key, entry, *, from_disk: bool) -> None:
        """Keep ``entry`` for ``key`` and count it as compiled or loaded from disk."""
        explain = os.environ.get("NPSPORE_EXPLAIN_CACHE_MISSES") == "1"
        with self._lock:
            why = None
            if explain:
                why = explain_miss(_arguments(key), [_arguments(k) for k in self.entries], from_disk, self._stale)
            if from_disk:
                self.disk_loads += 1
            else:
                self.compiles += 1
            recompiles = None
            if self.compiles + self.disk_loads > self.recompile_limit and not self._warned:
                self._warned = True
                recompiles = self._recompile_message(key)
            self._stale = None
            entries = dict(self.entries)
            previous = entries.pop(key, None)
            kept = [v for v in self.variants.get(key, ()) if v is not previous]
            if previous is not None and previous.value_guards and entry.value_guards:
                kept.append(previous)
            while len(entries) >= self.capacity:
                self.variants.pop(_evict_one(entries), None)
            entries[key] = entry
            self.entries = entries
            if kept:   # one kernel per value, at most recompile_limit of them (the oldest goes first)
                self.variants[key] = (*kept[max(0, len(kept) - self.recompile_limit + 1):], entry)
            else:
                self.variants.pop(key, None)
        # Outside the lock: a logging handler or warning filter may run user code that calls this callable.
        if why is not None:
            warn(_LOG, "npspore: %s: %s", self.label, why)
        if recompiles is not None:
            warnings.warn(recompiles, RuntimeWarning, stacklevel=3)

    def _recompile_message(self, key) -> str:
        return (f"npspore: {self.label} was compiled {self.compiles + self.disk_loads} times (recompile "
                f"limit {self.recompile_limit}): "
                + (f"a value it reads keeps changing ({self._stale})" if self._stale else
                   f"{changing_argument(key, list(self.entries))}; keep its shape, dtype and Python "
                   "value fixed, or declare dynamic dims with Cell.set_inputs"))

    def info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}``."""
        return {"hits": self.hits, "compiles": self.compiles, "disk_loads": self.disk_loads,
                "entries": len(self.entries)}


def _evict_one(entries: dict):
    """Evict the least recently used kernel of ``entries`` (an unpublished copy; CLOCK: a used kernel
    gets a second chance); its key."""
    while True:
        key, entry = next(iter(entries.items()))
        if entry.used:
            entry.used = False
            del entries[key]
            entries[key] = entry
        else:
            _drop(entries, key)
            return key


def _drop(entries: dict, key) -> None:
    """Remove ``key`` from ``entries`` (an unpublished copy), and its source from ``linecache``."""
    entry = entries.pop(key)
    if entry.path:  # a file of the disk cache is read again by linecache if a traceback needs it
        linecache.cache.pop(entry.path, None)


def _env_int(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def _arguments(key):
    """The argument tuple inside a cache key: Cells and gradients wrap it with flags (``training``,
    ``"pynative"``) and the names of keyword arguments; no argument's own key is a bool, a
    string or a tuple of strings."""
    while isinstance(key, tuple) and len(key) == 2:
        if isinstance(key[0], bool) and isinstance(key[1], tuple):
            key = key[1]
        elif isinstance(key[0], tuple) and (isinstance(key[1], (bool, str)) or _is_names(key[1])):
            key = key[0]
        else:
            break
    return key


def _is_names(value) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(name, str) for name in value)


def changing_argument(key, known: list) -> str:
    """Which argument of ``key`` differs from the kernels in ``known`` (the one most often)."""
    key = _arguments(key)
    counts: dict = {}
    for other in known:
        other = _arguments(other)
        if len(other) == len(key):
            for index, (a, b) in enumerate(zip(key, other)):
                if a != b:
                    counts[index] = counts.get(index, 0) + 1
    if not counts:
        return "the number or structure of the arguments keeps changing"
    index = max(counts, key=counts.__getitem__)
    return f"argument {index} keeps changing its signature (now {describe_key((key[index],))[1:-1]})"


def explain_disk_miss(label: str, reason: str) -> None:
    """Log (with ``NPSPORE_EXPLAIN_CACHE_MISSES=1``) why the kernel of ``label`` on disk was not used."""
    if os.environ.get("NPSPORE_EXPLAIN_CACHE_MISSES") == "1":
        warn(_LOG, "npspore: %s: kernel on disk is stale: %s", label, reason)


def explain_miss(key, known: list, from_disk: bool = False, stale: str | None = None) -> str:
    """Why ``key`` missed: the nearest known key and the arguments that differ from it (or why the
    kernel for it was ``stale``), and whether its kernel was compiled or loaded ``from_disk``."""
    action = "loaded from the disk cache" if from_disk else "recompiling"
    if stale:
        return f"{action}: {stale}"
    if not known:
        return f"{'loaded from the disk cache' if from_disk else 'first compile'} for signature {describe_key(key)}"

    def distance(other):
        if len(other) != len(key):
            return len(key) + abs(len(other) - len(key))
        return sum(a != b for a, b in zip(key, other))

    nearest = min(known, key=distance)
    if len(nearest) != len(key):
        return f"{action}: {len(key)} arguments, nearest compiled signature has {len(nearest)}"
    changes = [f"argument {i}: {describe_key((b,))} -> {describe_key((a,))}"
               for i, (a, b) in enumerate(zip(key, nearest)) if a != b]
    return f"{action}: " + "; ".join(changes)
