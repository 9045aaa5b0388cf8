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
import warnings
from typing import Any, Callable, Concatenate, Generic, ParamSpec, TypeVar, overload

from . import compiler   # its stages load on first use (compiler.pipeline, compiler.specialize ...)
from .context import syntax_level
from .compiler.errors import CompileError, without_internal_frames
from .compiler.kernel import KernelCache
from .compiler.library import LIBRARY, RECORDERS, GuardFailed
from .compiler.signature import describe_key, input_key
from .core.constructs import Constructs, P, R
from .grad import GradFunction

__all__ = ["jit", "jit_class"]


def compile_forward(target, args, key, *, dynamic=None, options=(), kwargs=None, level=None) -> tuple:
    """A forward kernel for one call: ``(CompiledKernel, from_disk)`` (see ``compiler.compile``);
    ``level`` is the JIT syntax level (``context.syntax_level``). A compile error reaches the caller
    without the compiler's frames."""
    try:
        signature = describe_key(key[0] if kwargs else key)
        request = compiler.request.CompileRequest(target, tuple(args), dict(kwargs or {}), key, signature, dynamic,
                                                  options, syntax_level=syntax_level() if level is None else level)
        return compiler.compile(request)
    except compiler.errors.CompileError as error:
        raise compiler.errors.without_internal_frames(error)


def forward_request(target, args) -> compiler.request.CompileRequest:
    """The CompileRequest a compiled call of ``target`` (a function or Cell) with ``args`` makes."""
    if LIBRARY.is_cell(target):
        (training, key), _, dynamic = cell_key(target, args)
        return compiler.request.CompileRequest(target, tuple(args), {}, key, describe_key(key), dynamic,
                                               (training,), syntax_level=cell_syntax_level(target))
    key, _ = input_key(args)
    return compiler.request.CompileRequest(target, tuple(args), {}, key, describe_key(key),
                                           syntax_level=syntax_level("LAX"))


Instance = TypeVar("Instance")
P2 = ParamSpec("P2")


class JitFunction(Generic[P, R]):
    """A function compiled per input signature (what ``@jit`` returns).

    Call it like the function. ``cache_info()`` returns ``{'hits', 'compiles', 'disk_loads',
    'entries'}``. Used on a Cell's ``construct`` it compiles that Cell's calls.

    ``syntax`` is the ``JitConfig`` syntax level its compiles use (``"STRICT"`` for ``fullgraph=True``,
    ``"LAX"`` otherwise, as MindSpore's ``jit`` sets it); ``shapes`` makes its Tensor arguments' dims
    dynamic: ``"dynamic"`` (``dynamic=1``: every dim) or a tuple of placeholder Tensors (``input_signature``).
    """

    def __init__(self, function: Callable[P, R], options: tuple = (), *, syntax: str = "LAX",
                 shapes: Any = None) -> None:
        functools.update_wrapper(self, function)
        self.__npspore_function__ = function
        self.options = options
        self.syntax = syntax
        self.shapes = shapes
        self._cache = KernelCache(function.__qualname__)

    def _compile(self, args, key, kwargs=None, dynamic=None):
        return compile_forward(self.__npspore_function__, args, key, options=self.options, kwargs=kwargs,
                               dynamic=dynamic, level=syntax_level(self.syntax))

    def _input_key(self, values, positional: int):
        """``(key, leaves, dynamic)`` of a call's argument values, the first ``positional`` of them passed
        positionally (``dynamic``: the dims ``shapes`` makes dynamic, of positional Tensors)."""
        if self.shapes is None:
            return (*input_key(values), None)
        if self.shapes == "dynamic":
            tensor = LIBRARY.tensor_type
            dynamic = {i: (None,) * a.ndim for i, a in enumerate(values) if isinstance(a, tensor)}
        else:
            dynamic = placeholder_dims(self.shapes, values, "input_signature") or {}
        dynamic = {i: shape for i, shape in dynamic.items() if i < positional} or None
        return (*input_key(values, dynamic), dynamic)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the kernel compiled for these arguments' signature (compiling it on the first call)."""
        try:
            if RECORDERS:  # inside a function being traced: run eagerly, so its ops are recorded too
                return self.__npspore_function__(*args, **kwargs)
            if kwargs:
                args, kwargs = _bind_positional(self.__npspore_function__, args, kwargs)
            values = args + tuple(kwargs.values()) if kwargs else args
            if self.shapes is None:   # the common case, inline: this is every call's path
                key, leaves = input_key(values)
                dynamic = None
            else:
                key, leaves, dynamic = self._input_key(values, len(args))
            if kwargs:  # the names of the **kwargs are part of the key
                key = (key, tuple(kwargs))
            cache = self._cache
            entry = cache.entries.get(key)
            if entry is None or entry.guarded and not entry.quick_check() and not cache.still_current(key, entry):
                entry, from_disk = self._compile(args, key, kwargs, dynamic)
                cache.add(key, entry, from_disk=from_disk)
            else:
                cache.hits += 1
                entry.used = True
            try:
                return entry.run(leaves)
            except GuardFailed as failure:  # specialized on a tensor value this call does not have
                return cache.rerun(key, failure, leaves, lambda: self._compile(args, key, kwargs, dynamic))
        except CompileError as error:   # the user's frames and the located error, not npspore's stack
            raise without_internal_frames(error)

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
        return functools.partial(JitFunction, syntax=self.syntax, shapes=self.shapes), (function, self.options)

    def kernel_source(self, *args: Any) -> str:
        """The generated module that runs for these arguments (compiling it if needed)."""
        key, _, dynamic = self._input_key(args, len(args))
        entry = self._cache.lookup(key)
        if entry is None:
            entry, from_disk = self._compile(args, key, None, dynamic)
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
    constants run the cached kernel. ``jit(cell)`` returns a callable that runs the Cell compiled. Any
    other callable that is not a Python function or method (a Primitive such as ``jit(ops.ACos())``, a
    ``functools.partial``, an object with ``__call__``) is returned as it is, as MindSpore 2.10's ``jit`` does.

    ``dynamic=1`` compiles one kernel for every shape of the same rank (all Tensor argument dims are
    dynamic). ``fullgraph=True`` compiles a function at the ``STRICT`` syntax level (reading a tensor's
    values is an error), ``False`` at ``LAX``, as MindSpore's ``jit`` does (``MS_DEV_JIT_SYNTAX_LEVEL``
    overrides both). ``input_signature`` (a tuple of Tensors; a placeholder ``Tensor(shape=[None, 3],
    dtype=...)`` has dynamic dims) fixes the shapes and dtypes calls must have: MindSpore 2.10 warns that
    it is deprecated in favour of ``dynamic`` and drops it; npspore warns the same and keeps it. The
    other MindSpore options (``capture_mode``, ``jit_level``, ``backend``) have no effect here: npspore
    always compiles the AST; ``jit_config`` and unknown options are dropped with MindSpore's warning.

    Raises:
        ValueError: if ``dynamic`` is not 0 or 1.
        TypeError: if ``fullgraph`` is not a bool, or ``input_signature`` is not a Tensor or tuple of Tensors.
        NotSupportedError: (at the first call) the code uses Python that npspore does not compile;
            the message shows the file, line and a caret.
    """
    if function is None:
        return lambda fn: jit(fn, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic,
                              fullgraph=fullgraph, backend=backend, **options)
    if type(dynamic) is not int or dynamic not in (0, 1):
        raise ValueError(f"For 'jit', the 'dynamic' must be in range of [0, 1], but got {dynamic!r}.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the type of 'fullgraph' must be bool, but got {type(fullgraph).__name__}.")
    signature = _input_signature(options.pop("input_signature", None))
    _warn_dropped_options(options)
    if LIBRARY.is_cell(function):
        return CompiledCellCall(function)
    if isinstance(function, GradFunction):
        return function.in_graph()  # already compiled per input signature (a gradient function is one kernel)
    if isinstance(function, JitFunction) or not callable(function):
        return function
    if not isinstance(function, (types.FunctionType, types.MethodType, type)):
        return function  # a Primitive, partial or other callable object: MindSpore 2.10 returns it as it is
    shapes = signature if signature is not None else "dynamic" if dynamic else None
    return JitFunction(function, syntax="STRICT" if fullgraph else "LAX", shapes=shapes)


_DEPRECATED_OPTIONS = {"mode": "capture_mode", "input_signature": "dynamic", "hash_args": "",
                       "jit_config": "jit_level, fullgraph or options", "compile_once": ""}
_BACKEND_OPTIONS = ("disable_format_transform", "exec_order", "ge_options", "infer_boost", "auto_offload")


def _deprecation(name: str) -> str:
    """MindSpore 2.10's warning for a deprecated ``jit`` parameter (``_check_options`` in its ``api.py``)."""
    message = f"For 'jit', the parameter '{name}' has been deprecated."
    if _DEPRECATED_OPTIONS[name]:
        message += (f" Please use the parameter '{_DEPRECATED_OPTIONS[name]}' instead. For more details, please "
                    "refer to https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.jit.html.")
    return message


def _warn_dropped_options(options: dict) -> None:
    """Warn, as MindSpore 2.10 does, of the ``jit`` options it drops: deprecated ones (``jit_config``)
    and ones it does not recognize (``jit_syntax_level``: use ``fullgraph``)."""
    for name in options:
        if name in _DEPRECATED_OPTIONS:
            warnings.warn(_deprecation(name), FutureWarning, stacklevel=3)
        elif name not in _BACKEND_OPTIONS:
            warnings.warn(f"For 'jit(options)', the option argument '{name}' is not recognized, please check!"
                          "For detailed usage of 'jit(options)', please refer to the Mindspore official website.",
                          UserWarning, stacklevel=3)


def _input_signature(signature):
    """The placeholder Tensors of ``jit(input_signature=...)`` as a tuple (None when not given)."""
    if signature is not None:
        warnings.warn(_deprecation("input_signature"), FutureWarning, stacklevel=3)
    return _checked_input_signature(signature)


def _checked_input_signature(signature):
    """The placeholder Tensors of an ``input_signature`` as a tuple (None when not given).

    Raises:
        TypeError: if ``signature`` is not a Tensor or a tuple or list of Tensors.
    """
    if signature is None:
        return None
    items = signature if isinstance(signature, (tuple, list)) else (signature,)
    if not all(isinstance(item, LIBRARY.tensor_type) for item in items):
        raise TypeError("For 'jit', the 'input_signature' should be a Tensor or a tuple of Tensors, "
                        f"but got {signature!r}.")
    return tuple(items)


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
        try:
            if RECORDERS:  # inside a function being traced: construct runs eagerly, so its ops are recorded
                cell = self.cell
                RECORDERS[-1].cell_called(cell)
                if RECORDERS[-1].has_bprop(cell):
                    return RECORDERS[-1].record_bprop_call(cell, args, kwargs)
                construct = compiler.targets.plain_function(inspect.getattr_static(type(cell), "construct"))
                return construct(cell, *args, **kwargs)
            return call_cell(self.cell, args, kwargs)
        except CompileError as error:   # the user's frames and the located error, not npspore's stack
            raise without_internal_frames(error)

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
    inputs = cell.get_inputs()
    if isinstance(inputs, dict):  # set_inputs(x=...): [[position, placeholder], ...]
        placed = [None] * inputs["total_arg_length"]
        for position, placeholder in inputs["arg_specified_infos"]:
            placed[position] = placeholder
        inputs = tuple(placed)
    if not isinstance(inputs, tuple):
        return None
    return placeholder_dims(inputs, args, "set_inputs")


def placeholder_dims(inputs, args, source: str):
    """``{position: shape with None dims}`` of the arguments ``inputs`` (``set_inputs`` or
    ``input_signature`` Tensors) declares, checked against this call's ``args`` with MindSpore's errors:
    a rank or dtype that differs from a placeholder's; for ``input_signature``, also a fixed dim, an
    argument count or a non-Tensor argument that differs."""
    Tensor = LIBRARY.tensor_type
    signature = source == "input_signature"
    if signature and (len(inputs) != len(args) or not all(isinstance(a, Tensor) for a in args)):
        raise ValueError("The input args is incompatible with the args in `input_signature`!")
    dynamic = {}
    for index, (placeholder, arg) in enumerate(zip(inputs, args)):
        if not isinstance(placeholder, Tensor) or not isinstance(arg, Tensor):
            continue
        expected = tuple(placeholder.shape)
        if not getattr(placeholder, "is_placeholder", False):
            if signature and (expected != arg.shape or placeholder.dtype != arg.dtype):
                raise ValueError("The input args is incompatible with the args in `input_signature`!")
            continue
        if len(expected) != arg.ndim:
            raise ValueError(
                f"For {source} and tuple(list) in {source}, the dims of {index + 1}th input must be the same "
                f"as expected, but got expected: {len(expected)}, and input: {arg.ndim}!")
        if placeholder.dtype != arg.dtype:
            raise TypeError(
                f"For {source} or tuple(list) in {source}, the {index + 1}th type should be "
                f"Tensor[{placeholder.dtype}], but got Tensor[{arg.dtype}]!")
        if any(d not in (-1, n) for d, n in zip(expected, arg.shape)):
            raise ValueError(
                f"For {source} and tuple(list) in {source}, the shape of {index + 1}th input must be the same "
                f"as expected, but got expected: {list(expected)}, and input: {list(arg.shape)}!")
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
    dynamic = _dynamic_dims(cell, args) if cell.get_inputs() is not None else None
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
    return compile_forward(cell, args, full_key[1], dynamic=dynamic, options=(full_key[0],),
                           level=cell_syntax_level(cell))


def cell_syntax_level(cell) -> int:
    """The syntax level of ``cell``'s compiles: its ``JitConfig``'s, else the context's (``context.syntax_level``)."""
    config = cell._parallel_config.get("jit_config")
    return syntax_level(config.jit_config_dict.get("jit_syntax_level", "") if config is not None else "")


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
    return mark_jit_class(cls, "jit_class")


def mark_jit_class(cls, decorator: str):
    """What ``jit_class`` (and its older name ``ms_class``, ``decorator`` in the errors) does."""
    if not inspect.isclass(cls):
        raise TypeError(f"Decorator {decorator} can only be used for class type, but got {cls}.")
    if LIBRARY.cell_type is not None and issubclass(cls, LIBRARY.cell_type):
        raise TypeError(f"Decorator {decorator} is used for user-defined classes and cannot be used for nn.Cell: "
                        f"{cls}.")
    cls.__ms_class__ = True
    return cls
