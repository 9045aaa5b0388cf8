"""``jit``: a front door to the compiler. One kernel per input signature, found by one dict lookup.

A ``@jit`` function, or a Cell run compiled (GRAPH mode, a ``@jit`` construct, ``jit(cell)``), owns a
:class:`~npspore.compiler.kernel.KernelCache`. A call computes the input key (shapes, dtypes, Python
constants — see ``compiler.signature``) and looks it up; on a hit it passes the input arrays and
the captured Parameters' current arrays to the kernel and wraps the results. On a miss it hands a
``CompileRequest`` to ``compiler.compile`` (disk cache first, then the stages).
"""
from __future__ import annotations

import functools
import types
import inspect
import sys
from typing import Any, Callable, Concatenate, Generic, ParamSpec, TypeVar, overload

from . import compiler   # its stages load on first use (compiler.pipeline, compiler.specialize ...)
from .compiler.kernel import KernelCache
from .compiler.library import LIBRARY, RECORDERS, GuardFailed
from .compiler.signature import describe_key, input_key
from .core.constructs import Constructs, P, R
from .grad import GradFunction

__all__ = ["jit", "jit_class"]


def compile_forward(target, args, key, *, dynamic=None, options=(), kwargs=None) -> tuple:
    """A forward kernel for one call: ``(CompiledKernel, from_disk)`` (see ``compiler.compile``).
    A compile error reaches the caller without the compiler's frames."""
    try:
        signature = describe_key(key[0] if kwargs else key)
        request = compiler.request.CompileRequest(target, tuple(args), dict(kwargs or {}), key, signature, dynamic,
                                                  options)
        return compiler.compile(request)
    except compiler.errors.CompileError as error:
        raise compiler.errors.without_internal_frames(error)


def forward_request(target, args) -> compiler.request.CompileRequest:
    """The CompileRequest a compiled call of ``target`` (a function or Cell) with ``args`` makes."""
    if LIBRARY.is_cell(target):
        (training, key), _, dynamic = cell_key(target, args)
        return compiler.request.CompileRequest(target, tuple(args), {}, key, describe_key(key), dynamic,
                                               (training,))
    key, _ = input_key(args)
    return compiler.request.CompileRequest(target, tuple(args), {}, key, describe_key(key))


Instance = TypeVar("Instance")
P2 = ParamSpec("P2")


class JitFunction(Generic[P, R]):
    """A function compiled per input signature (what ``@jit`` returns).

    Call it like the function. ``cache_info()`` returns ``{'hits', 'compiles', 'disk_loads',
    'entries'}``. Used on a Cell's ``construct`` it compiles that Cell's calls.
    """

    def __init__(self, function: Callable[P, R], options: tuple = ()) -> None:
        functools.update_wrapper(self, function)
        self.__npspore_function__ = function
        self.options = options
        self._cache = KernelCache(function.__qualname__)

    def _compile(self, args, key, kwargs=None):
        return compile_forward(self.__npspore_function__, args, key, options=self.options, kwargs=kwargs)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the kernel compiled for these arguments' signature (compiling it on the first call)."""
        if RECORDERS:  # inside a function being traced: run eagerly, so its ops are recorded too
            return self.__npspore_function__(*args, **kwargs)
        if kwargs:
            args, kwargs = _bind_positional(self.__npspore_function__, args, kwargs)
        key, leaves = input_key(args + tuple(kwargs.values()))
        if kwargs:  # the names of the **kwargs are part of the key
            key = (key, tuple(kwargs))
        cache = self._cache
        entry = cache.entries.get(key)
        if entry is None or entry.guarded and not entry.quick_check() and not cache.still_current(key, entry):
            entry, from_disk = self._compile(args, key, kwargs)
            cache.add(key, entry, from_disk=from_disk)
        else:
            cache.hits += 1
            entry.used = True
        try:
            return entry.run(leaves)
        except GuardFailed as failure:  # specialized on a tensor value this call does not have
            return cache.rerun(key, failure, leaves, lambda: self._compile(args, key, kwargs))

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> JitFunction[P, R]: ...

    @overload
    def __get__(self: JitFunction[Concatenate[Instance, P2], R], instance: Instance,
                owner: type | None = None) -> Callable[P2, R]: ...

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        """A ``@jit`` method looked up on an instance: bound (a Cell's ``construct`` runs the Cell compiled)."""
        if instance is None:
            return self
        if LIBRARY.is_cell(instance) and self.__npspore_function__.__name__ == "construct":
            return CompiledCellCall(instance)
        return types.MethodType(self, instance)

    def cache_info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}`` of this function's kernels."""
        return self._cache.info()

    def __reduce__(self):
        """Pickle the function, not its kernels (a new process compiles or loads them on demand).
        A module-level ``@jit`` function is pickled by name, as functions are."""
        function = self.__npspore_function__
        found = sys.modules.get(function.__module__)
        for name in function.__qualname__.split("."):
            found = getattr(found, name, None)
        if found is self:
            return function.__qualname__
        return JitFunction, (function, self.options)

    def kernel_source(self, *args: Any) -> str:
        """The generated module that runs for these arguments (compiling it if needed)."""
        key, _ = input_key(args)
        entry = self._cache.lookup(key)
        if entry is None:
            entry, from_disk = self._compile(args, key)
            self._cache.add(key, entry, from_disk=from_disk)
        return entry.source


def _cell_positional(cell, args, kwargs) -> tuple:
    """The positional arguments of a compiled call of ``cell`` with keywords (``**kwargs`` of a
    compiled ``construct`` are refused rather than dropped)."""
    fn, _ = compiler.targets.unbind(cell)
    positional, extra = _bind_positional(fn, (cell,) + tuple(args), kwargs)
    if extra:
        raise TypeError(f"a compiled {type(cell).__name__}.construct cannot take **kwargs "
                        f"({', '.join(extra)}): pass them positionally or as named parameters")
    return positional[1:]


def _bind_positional(fn, args, kwargs) -> tuple:
    """``(positional args, the **kwargs the function collects)`` of a call with keywords."""
    bound = inspect.signature(fn).bind(*args, **kwargs)
    return tuple(bound.args), dict(bound.kwargs)


@overload
def jit(function: None = None, *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> Callable[[Callable[P, R]], JitFunction[P, R]]:
    ...


@overload
def jit(function: Constructs[P, R], *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> CompiledCellCall[P, R]:
    ...


@overload
def jit(function: Callable[P, R], *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> JitFunction[P, R]:
    ...


def jit(function: Any = None, *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> Any:
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
    if LIBRARY.is_cell(function):
        return CompiledCellCall(function)
    if isinstance(function, (JitFunction, GradFunction)) or not callable(function):
        return function  # already compiled per input signature (a gradient function is one kernel)
    return JitFunction(function)


# --------------------------------------------------------------------------- Cells


KERNELS_ATTRIBUTE = "_npspore_kernels"
"""The Cell attribute holding its compiled kernels: process-local, left out when a Cell is pickled."""


class CompiledCellCall(Generic[P, R]):
    """``jit(cell)`` / a ``@jit`` construct looked up on an instance: calls run the compiled kernel."""

    __slots__ = ("cell",)

    def __init__(self, cell: Constructs[P, R]) -> None:
        self.cell = cell

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the Cell's kernel compiled for these arguments' signature (compiling it on the first call)."""
        if RECORDERS:  # inside a function being traced: construct runs eagerly, so its ops are recorded
            cell = self.cell
            construct = compiler.targets.plain_function(inspect.getattr_static(type(cell), "construct"))
            return construct(cell, *args, **kwargs)
        return call_cell(self.cell, args, kwargs)

    def cache_info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}`` of the Cell's kernels."""
        return cell_cache_info(self.cell)

    def __reduce__(self):
        return CompiledCellCall, (self.cell,)

    def kernel_source(self, *args: Any) -> str:
        """The generated module that runs the Cell for these arguments (compiling it if needed)."""
        return cell_kernel_source(self.cell, *args)


def _cell_cache(cell) -> KernelCache:
    kernels = cell.__dict__.get(KERNELS_ATTRIBUTE)
    if kernels is None:  # setdefault: threads making the first calls at once share one cache
        kernels = cell.__dict__.setdefault(KERNELS_ATTRIBUTE, KernelCache(type(cell).__name__))
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
    Tensor = LIBRARY.tensor_type
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
    signature = inspect.signature(compiler.targets.plain_function(construct))
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
    """``((training, key), leaves, dynamic)`` of a compiled Cell call (``set_inputs`` dims keyed by rank)."""
    dynamic = _dynamic_dims(cell, args) if cell.__dict__.get("_dynamic_shape_inputs") is not None else None
    key, leaves = input_key(args, dynamic)
    return (bool(getattr(cell, "training", False)), key), leaves, dynamic


def call_cell(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` through its compiled kernel (GRAPH mode, ``@jit`` construct, ``jit(cell)``).

    The Cell's own forward pre-hooks and hooks run in Python around the kernel (so removing one takes
    effect at the next call), and ``to_float`` casts its inputs first, as in eager mode.
    """
    if RECORDERS:  # inside a function being traced: run eagerly, so its ops are recorded too
        return cell.run_construct(args, kwargs)
    if cell._forward_pre_hooks or cell._forward_hooks or cell._cast_dtype is not None:
        return _call_cell_with_hooks(cell, args, kwargs)
    if kwargs:
        args = _cell_positional(cell, args, kwargs)
    kernels = _cell_cache(cell)
    full_key, leaves, dynamic = cell_key(cell, args)
    entry = kernels.lookup(full_key) or _compile_cell_entry(cell, args, full_key, dynamic, kernels)
    return _run_cell_entry(cell, args, full_key, dynamic, kernels, entry, leaves)


def _run_cell_entry(cell, args, full_key, dynamic, kernels, entry, leaves):
    """``entry.run(leaves)``, or, when it was specialized on a tensor value this call does not have,
    the kernel for this call's value (``KernelCache.rerun``)."""
    try:
        return entry.run(leaves)
    except GuardFailed as failure:
        return kernels.rerun(full_key, failure, leaves, lambda: _compile_cell(cell, args, full_key, dynamic))


def _call_cell_with_hooks(cell, args, kwargs):
    if kwargs:
        args, kwargs = _cell_positional(cell, args, kwargs), {}
    inputs = cell._run_forward_pre_hooks(tuple(args)) if cell._forward_pre_hooks else tuple(args)
    kernels = _cell_cache(cell)
    cast = cell.auto_cast_inputs(inputs)
    full_key, leaves, dynamic = cell_key(cell, cast)
    entry = kernels.lookup(full_key) or _compile_cell_entry(cell, cast, full_key, dynamic, kernels)
    output = _run_cell_entry(cell, cast, full_key, dynamic, kernels, entry, leaves)
    return cell._run_forward_hooks(inputs, output) if cell._forward_hooks else output


def _compile_cell(cell, args, full_key, dynamic):
    """``(CompiledKernel, from_disk)`` of a compiled Cell call (see ``compile_forward``)."""
    _check_arity(cell, args)
    return compile_forward(cell, args, full_key[1], dynamic=dynamic, options=(full_key[0],))


def _compile_cell_entry(cell, args, full_key, dynamic, kernels):
    entry, from_disk = _compile_cell(cell, args, full_key, dynamic)
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
        args = _cell_positional(cell, args, kwargs)
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


def jit_class(cls):
    """Mark a user-defined class whose instances compiled code reads (attributes) and calls (methods).

    npspore compiles the methods of any object read in compiled code, so the mark only validates.

    Args:
        cls (type): the class.

    Returns:
        The class, with ``__ms_class__ = True``.

    Raises:
        TypeError: If `cls` is not a class, or is an ``nn.Cell``.
    """
    if not inspect.isclass(cls):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if LIBRARY.cell_type is not None and issubclass(cls, LIBRARY.cell_type):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: {cls}.")
    cls.__ms_class__ = True
    return cls
