"""``jit`` and compiled calls: one kernel per input signature, found by one dict lookup.

A :class:`KernelCache` belongs to one compiled callable (a ``@jit`` function, a Cell instance, a
gradient function). A call computes the input key (shapes, dtypes, Python constants — see
``compiler.signature``) and looks it up; on a hit it passes the input arrays and the captured
Parameters' current arrays to the kernel and wraps the results. On a miss it looks in the disk
cache, and only then compiles.

Set ``NPSPORE_EXPLAIN_CACHE_MISSES=1`` to log, for every recompile, which argument differs from
the nearest signature already compiled.
"""
from __future__ import annotations

import functools
import inspect
import logging
import os

import numpy as np

from . import __version__
from .compiler import cache
from .compiler.signature import describe_key, input_key

__all__ = ["jit"]

_log = logging.getLogger("npspore.cache")


def _wrap_result(result):
    """A kernel result as a Tensor (NumPy gives scalars, not 0-d arrays, for full reductions)."""
    return _wrap(result if type(result) is np.ndarray else np.asarray(result))


def _wrap(array):
    from .common.tensor import Tensor

    global _wrap
    _wrap = Tensor._wrap  # bound once: this is on every compiled call's path
    return _wrap(array)


class KernelEntry:
    """A compiled kernel and how to call it: captured objects and the output builder."""

    __slots__ = ("kernel", "captured", "build", "source", "path")

    def __init__(self, kernel, captured, output_tree, source, path):
        self.kernel = kernel
        self.captured = captured
        self.source = source
        self.path = path
        node = output_tree.node
        if node == ("leaf", 0):
            self.build = _wrap_result
        else:
            count = output_tree.leaf_count()
            if count == 1:
                self.build = lambda result, _tree=output_tree: _tree.build((result,))
            else:
                self.build = output_tree.build

    def run(self, leaves):
        arrays = leaves + [obj._array for obj in self.captured] if self.captured else leaves
        return self.build(self.kernel(*arrays))


class HookGeneration:
    """Counts forward-hook registrations and removals in this process (``nn.Cell`` bumps it).

    Hooks of sub-cells are compiled into kernels, so a kernel cache compiled under an older
    generation is emptied before its next lookup: adding or removing a hook recompiles.
    """

    count = 0

    @classmethod
    def bump(cls) -> None:
        cls.count += 1


class KernelCache:
    """Kernels of one compiled callable, by input key; counts hits, compiles and disk loads.

    The owner compiles on a miss and hands the entry to :meth:`add`.
    """

    def __init__(self, label: str):
        self.entries: dict = {}
        self.generation = HookGeneration.count
        self.label = label
        self.hits = 0
        self.compiles = 0
        self.disk_loads = 0

    def lookup(self, key):
        if self.generation != HookGeneration.count:
            self.entries.clear()
            self.generation = HookGeneration.count
        entry = self.entries.get(key)
        if entry is not None:
            self.hits += 1
        return entry

    def add(self, key, entry, *, from_disk: bool) -> None:
        if os.environ.get("NPSPORE_EXPLAIN_CACHE_MISSES") == "1":
            _log.warning("npspore: %s: %s", self.label, explain_miss(key, list(self.entries)))
        if from_disk:
            self.disk_loads += 1
        else:
            self.compiles += 1
        self.entries[key] = entry

    def info(self) -> dict:
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


# --------------------------------------------------------------------------- forward kernels


def kernel_disk_key(target_fn, self_obj, key, options) -> str | None:
    from .compiler.pipeline import file_digest, package_digest
    from .communication.transport import layout as communication_layout
    from .compiler.specialize import object_fingerprint

    fingerprint = object_fingerprint(self_obj) if self_obj is not None else None
    text = repr(fingerprint)
    if " at 0x" in text or "'id'" in text:
        return None  # state that only this process can name: keep it out of the disk cache
    return cache.digest(__version__, package_digest(), target_fn.__qualname__,
                        file_digest(target_fn.__code__.co_filename), key, options, text, communication_layout())


def compile_forward(target, args, kwargs, key, *, dynamic=None, options=()) -> tuple[KernelEntry, bool]:
    """A forward kernel for one call: from the disk cache if verified there, else compiled.

    Returns ``(entry, from_disk)``.
    """
    from .compiler import pipeline

    fn, self_obj = pipeline.unbind(target)
    disk_key = kernel_disk_key(fn, self_obj, key, ("forward", options))
    if disk_key is not None:
        loaded = load_from_disk(disk_key, fn, self_obj)
        if loaded is not None:
            return loaded, True
    program = pipeline.trace_program(target, args, kwargs, dynamic=dynamic)
    layout = pipeline.layout_literal(program) if disk_key is not None else None
    header = pipeline.header_for(program, describe_key(key), disk_key if layout else None)
    kernel, source, path = pipeline.build_kernel(program.module, layout=layout, key=disk_key, header=header)
    return KernelEntry(kernel, program.captured, program.output_tree, source, path), False


def load_from_disk(disk_key, fn, self_obj):
    from .compiler import pipeline
    from .compiler.signature import OutputTree

    found = cache.load(disk_key)
    if found is None:
        return None
    source, path = found
    try:
        namespace = cache.execute(source, path)
        layout = namespace["layout"]
        if not pipeline.sources_unchanged(layout):
            cache.discard(disk_key)
            return None
        captured = [pipeline.resolve_path(p, self_obj, fn) for p in layout["captured"]]
    except Exception:  # noqa: BLE001 - a cached file that does not load is regenerated, never trusted
        cache.discard(disk_key)
        return None
    return KernelEntry(namespace["kernel"], captured, OutputTree(layout["output"]), source, path)


class JitFunction:
    """A function compiled per input signature (what ``@jit`` returns).

    Call it like the function. ``cache_info()`` returns ``{'hits', 'compiles', 'disk_loads',
    'entries'}``. Used on a Cell's ``construct`` it compiles that Cell's calls.
    """

    def __init__(self, function, options=()):
        functools.update_wrapper(self, function)
        self.__npspore_function__ = function
        self.options = options
        self._cache = KernelCache(function.__qualname__)

    def _compile(self, args, kwargs, key):
        return compile_forward(self.__npspore_function__, args, kwargs, key, options=self.options)

    def __call__(self, *args, **kwargs):
        if kwargs:
            args = _bind_positional(self.__npspore_function__, args, kwargs)
        key, leaves = input_key(args)
        cache = self._cache
        entry = cache.entries.get(key) if cache.generation == HookGeneration.count else cache.lookup(key)
        if entry is None:
            entry, from_disk = self._compile(args, {}, key)
            cache.add(key, entry, from_disk=from_disk)
        else:
            cache.hits += 1
        return entry.run(leaves)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        from .nn.cell import Cell

        if isinstance(instance, Cell):
            return _CompiledCellCall(instance)
        return functools.partial(self.__call__, instance)

    def cache_info(self) -> dict:
        return self._cache.info()

    def kernel_source(self, *args) -> str:
        """The generated module that runs for these arguments (compiling it if needed)."""
        key, _ = input_key(args)
        if self._cache.lookup(key) is None:
            entry, from_disk = self._compile(args, {}, key)
            self._cache.add(key, entry, from_disk=from_disk)
        return self._cache.entries[key].source


def _bind_positional(fn, args, kwargs) -> tuple:
    bound = inspect.signature(fn).bind(*args, **kwargs)
    return tuple(bound.args)


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="", **options):
    """Compile a function, a Cell's ``construct`` or a Cell instance into NumPy kernels.

    ``@jit`` and ``@jit()`` both work. The first call with a new input signature compiles (or
    loads the kernel from the disk cache); later calls with the same shapes, dtypes and Python
    constants run the cached kernel. ``jit(cell)`` returns a callable that runs the Cell compiled.
    The MindSpore options (``capture_mode``, ``jit_level``, ``dynamic``, ``fullgraph``, ``backend``)
    are accepted and have no effect here: npspore always compiles the AST.

    Raises:
        NotSupportedError: (at the first call) the code uses Python that npspore does not compile;
            the message shows the file, line and a caret.
    """
    if function is None:
        return lambda fn: jit(fn, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic,
                              fullgraph=fullgraph, backend=backend, **options)
    from .nn.cell import Cell

    if isinstance(function, Cell):
        return _CompiledCellCall(function)
    if isinstance(function, JitFunction) or not callable(function):
        return function
    return JitFunction(function)


# --------------------------------------------------------------------------- Cells


class _CompiledCellCall:
    """``jit(cell)`` / a ``@jit`` construct looked up on an instance: calls run the compiled kernel."""

    __slots__ = ("cell",)

    def __init__(self, cell):
        self.cell = cell

    def __call__(self, *args, **kwargs):
        return call_cell(self.cell, args, kwargs)

    def cache_info(self) -> dict:
        return cell_cache_info(self.cell)


def _cell_cache(cell) -> KernelCache:
    kernels = cell.__dict__.get("_npspore_kernels")
    if kernels is None:
        kernels = KernelCache(type(cell).__name__)
        cell.__dict__["_npspore_kernels"] = kernels
    return kernels


def _dynamic_dims(cell, args):
    inputs = cell.__dict__.get("_dynamic_shape_inputs")
    if isinstance(inputs, dict):  # set_inputs(x=...): [[position, placeholder], ...]
        placed = [None] * inputs["total_arg_length"]
        for position, placeholder in inputs["arg_specified_infos"]:
            placed[position] = placeholder
        inputs = tuple(placed)
    if not isinstance(inputs, tuple):
        return None
    from .common.tensor import Tensor

    dynamic = {}
    for index, (placeholder, arg) in enumerate(zip(inputs, args)):
        if not isinstance(placeholder, Tensor) or not getattr(placeholder, "is_placeholder", False):
            continue
        expected = tuple(placeholder.shape)
        if not isinstance(arg, Tensor):
            continue
        if len(expected) != arg.ndim:
            raise ValueError(
                f"For set_inputs and tuple(list) in set_inputs, the dims of {index + 1}th input must be the same "
                f"as expected, but got expected: {len(expected)}, and input: {arg.ndim}!")
        if placeholder.dtype != arg.dtype:
            raise TypeError(
                f"For set_inputs or tuple(list) in set_inputs, the {index + 1}th type should be "
                f"Tensor[{placeholder.dtype}], but got Tensor[{arg.dtype}]!")
        dynamic[index] = tuple(None if d == -1 else d for d in expected)
    return dynamic or None


def _check_arity(cell, args):
    construct = inspect.getattr_static(type(cell), "construct")
    from .compiler.pipeline import _plain

    signature = inspect.signature(_plain(construct))
    params = list(signature.parameters.values())[1:]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return
    required = sum(1 for p in params if p.default is p.empty)
    defaults = len(params) - required
    if len(args) < required:
        raise TypeError(
            f"For 'Cell', the function construct requires {required} positional argument, but got {len(args)}. "
            "When using set_inputs, please make sure that all networks and loss functions are configured with "
            "set_inputs.")
    if len(args) > len(params):
        raise TypeError(
            f"For 'Cell', the function construct requires {required} positional argument and {defaults} default "
            f"argument, total {len(params)}, but got {len(args)}.")


def cell_key(cell, args):
    dynamic = _dynamic_dims(cell, args) if cell.__dict__.get("_dynamic_shape_inputs") is not None else None
    key, leaves = input_key(args, dynamic)
    return (bool(getattr(cell, "training", False)), key), leaves, dynamic


def call_cell(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` through its compiled kernel (GRAPH mode, ``@jit`` construct, ``jit(cell)``).

    The Cell's own forward pre-hooks and hooks run in Python around the kernel (so removing one takes
    effect at the next call), and ``to_float`` casts its inputs first, as in eager mode.
    """
    if cell._forward_pre_hooks or cell._forward_hooks or cell._cast_dtype is not None:
        return _call_cell_with_hooks(cell, args, kwargs)
    if kwargs:
        from .compiler.pipeline import unbind

        fn, _ = unbind(cell)
        args = _bind_positional(fn, (cell,) + tuple(args), kwargs)[1:]
    kernels = _cell_cache(cell)
    full_key, leaves, dynamic = cell_key(cell, args)
    entry = kernels.lookup(full_key)
    if entry is None:
        entry = _compile_cell_entry(cell, args, full_key, dynamic, kernels)
    return entry.run(leaves)


def _call_cell_with_hooks(cell, args, kwargs):
    if kwargs:
        from .compiler.pipeline import unbind

        fn, _ = unbind(cell)
        args, kwargs = _bind_positional(fn, (cell,) + tuple(args), kwargs)[1:], {}
    inputs = cell._run_forward_pre_hooks(tuple(args)) if cell._forward_pre_hooks else tuple(args)
    kernels = _cell_cache(cell)
    cast = cell.auto_cast_inputs(inputs)
    full_key, leaves, dynamic = cell_key(cell, cast)
    entry = kernels.lookup(full_key) or _compile_cell_entry(cell, cast, full_key, dynamic, kernels)
    output = entry.run(leaves)
    return cell._run_forward_hooks(inputs, output) if cell._forward_hooks else output


def _compile_cell_entry(cell, args, full_key, dynamic, kernels):
    _check_arity(cell, args)
    entry, from_disk = compile_forward(cell, args, {}, full_key[1], dynamic=dynamic, options=(full_key[0],))
    kernels.add(full_key, entry, from_disk=from_disk)
    phase = "train" if full_key[0] else "predict"
    compile_cache = getattr(cell, "compile_cache", None)
    if isinstance(compile_cache, set):
        compile_cache.add(f"{phase}.{describe_key(full_key[1])}")
    try:
        cell.arguments_key = describe_key(full_key[1])
    except AttributeError:
        pass
    return entry


def compile_cell(cell, args, kwargs=None):
    """Compile ``cell`` for these arguments without running it (``Cell.compile``). Returns None."""
    if kwargs:
        from .compiler.pipeline import unbind

        fn, _ = unbind(cell)
        args = _bind_positional(fn, (cell,) + tuple(args), kwargs)[1:]
    kernels = _cell_cache(cell)
    full_key, _, dynamic = cell_key(cell, args)
    if kernels.lookup(full_key) is None:
        _compile_cell_entry(cell, args, full_key, dynamic, kernels)
    return None


def cell_cache_info(cell) -> dict:
    """``{'hits', 'compiles', 'disk_loads', 'entries'}`` of a Cell's compiled kernels."""
    return _cell_cache(cell).info()


def cell_kernel_source(cell, *args) -> str:
    """The generated module that runs ``cell(*args)`` compiled."""
    compile_cell(cell, args)
    full_key, _, _ = cell_key(cell, args)
    return _cell_cache(cell).entries[full_key].source
