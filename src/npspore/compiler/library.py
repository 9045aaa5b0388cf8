"""The library's side of the compiler: a small protocol npspore's API fills in when it is imported.

The compiler never imports the API (``nn``, ``common``, ``ops``, ``grad``, ``jit``). What it must
know of it, the library registers here at import time, next to the class concerned:

==================  =====================================================  ====================
part                what it is                                             registered by
==================  =====================================================  ====================
``tensor_type``     the Python class of tensors (``Tensor``), whose        ``common.tensor``
                    ``_array`` holds its ndarray
``wrap``            ``ndarray -> Tensor`` (no copy): ``object.__new__``    ``common.tensor``
                    and ``_array`` set, as kernel results are made in line
``parameter_type``  the class of network variables (``Parameter``)         ``common.parameter``
``mutable_types``   the ``mutable(...)`` container classes                 ``common.mutable``
``tensor_array``    ``(value, dtype) -> ndarray``: the array                ``common.tensor``
                    ``Tensor(value, dtype)`` holds (``rt.tensor_array``)
``dtype_to_numpy``  ``mstype.float32 -> numpy.float32``                    ``common.dtype``
``dtype_from_numpy``  the inverse                                          ``common.dtype``
``run``/``assign``  the intrinsics that stage an op / a Parameter update   ``ops.eager``
``cell_type``       the network base class (``nn.Cell``)                   ``nn.cell``
``cell_parts``      ``cell -> CellParts``: construct, hooks, cast dtype    ``nn.cell``
``cell_bookkeeping``  attribute names of a cell that are no state          ``nn.cell``
``cell_storage``    attribute names of a cell's Parameter/sub-cell tables  ``nn.cell``
stagers             callables compiled by a rule of their own              ``grad`` (GradFunction)
``compile_time``    functions run at compile time on Python arguments      ``communication``
                    (process facts: ``get_group_size``, ``get_rank``)
``process_key``     ``() -> hashable``: process state kernels specialise   ``communication``
                    to (the MPI job's layout), part of disk-cache keys
``recomputed``      ``callable -> bool``: whether a call of this object    ``ops.primitives``
                    is recomputed in the backward sweep
                    (``Primitive.recompute()``)
``no_grad_type``    the ``with`` context whose values stop gradients       ``grad``
                    (``mindspore._no_grad``)
``item_update``     ``(x, indices, value) -> x'``: ``x[indices] = value``  ``ops.scatter_ops``
                    for int tensor or list indices, compiled as a call
==================  =====================================================  ====================

Kernels call back into Python through :func:`host_call` (``rt.host_call`` in generated code): the
specializer registers the callable (a backward hook runner) with :meth:`Library.host_function` and
writes its key into the kernel. A kernel stops at a failed value guard by raising
:class:`GuardFailed`. :data:`RECORDERS` holds the active tracing recorders
(``compiler.tracing``), which ``ops.eager`` reports each op to; :data:`MEANINGS` tells the Tensor methods whose
meaning MindSpore 2.10 chooses by mode which one the code being compiled takes (the specialize stage sets it).
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterator

import numpy as np


@dataclass(frozen=True)
class CellParts:
    """What the compiler reads of one network cell when a call of it is compiled.

    ``construct`` is the plain function to compile (None when the class defines none);
    ``pre_hooks``/``hooks`` the forward (pre-)hooks in registration order; ``cast_dtype`` the NumPy
    dtype that ``to_float`` casts floating inputs to (None: no cast); ``has_parameters`` whether
    the cell owns Parameters (a library cell without them is inlined rather than called).
    """

    construct: object
    pre_hooks: tuple
    hooks: tuple
    cast_dtype: object
    has_parameters: bool
    backward_pre_hook: object = None   # grad_output arrays -> arrays: the backward pre-hooks, or None
    backward_hook: object = None       # (grad_input arrays, grad_output arrays) -> arrays, or None
    bprop: object = None               # the plain function ``bprop(self, *inputs, out, dout)`` or None
    recompute: bool = False            # ``Cell.recompute()``: its backward recomputes its forward
    bprop_debug: bool = False          # ``Cell.bprop_debug``: the bprop runs in Python, not compiled


class Library:
    """The registered parts (see the module docstring). ``import npspore`` registers them all before
    anything compiles, so the compiler reads them as their declared types."""

    tensor_type: type
    wrap: Callable[[np.ndarray], Any]
    tensor_array: Callable[[Any, Any], np.ndarray]
    parameter_type: type
    mutable_types: tuple[type, ...]
    dtype_to_numpy: Callable[[Any], Any]
    dtype_from_numpy: Callable[[Any], Any]
    run: Callable[..., Any]
    assign: Callable[..., Any]
    cell_type: type | None
    cell_parts: Callable[[Any], CellParts]
    cell_bookkeeping: frozenset[str]
    cell_storage: frozenset[str]
    compile_time: frozenset
    process_key: Callable[[], Hashable] | None
    recomputed: Callable[[Any], bool] | None
    no_grad_type: type | None
    item_update: Callable[..., Any] | None

    def __init__(self) -> None:
        self.tensor_type = self.parameter_type = type(None)   # nothing is a tensor until one is registered
        self.mutable_types = ()
        self.cell_type = None
        self.cell_bookkeeping = self.cell_storage = frozenset()
        self.compile_time = frozenset()
        self.process_key = None
        self.recomputed = None
        self.no_grad_type = None
        self.item_update = None
        self._stagers: dict = {}
        self.host_functions: dict = {}
        self.opaque_host_functions: set = set()
        self.underivable_host_functions: dict = {}   # key -> the RuntimeError a gradient reaching it raises
        self.host_adjoints: dict = {}   # key -> the key of the host function computing its cotangents

    def host_function(self, fn, opaque: bool = False, underivable: str | None = None, adjoint=None) -> str:
        """Register ``fn`` for kernels to call (:func:`host_call`); returns its key. ``opaque``: its
        results are no pass-through of its first arguments (see ``compiler.hostadjoint``); ``underivable``:
        opaque, and a gradient that reaches it raises ``RuntimeError(underivable)`` (``ops.Custom`` without
        a bprop), or, with ``adjoint``, a gradient of that gradient does. ``adjoint(*args, dout)``: opaque, and
        its cotangents are ``adjoint``'s results (one per argument, None for a constant), called out of the
        kernel as ``fn`` is."""
        key = f"host{len(self.host_functions)}"
        self.host_functions[key] = fn
        if adjoint is not None:
            opaque = True
            self.host_adjoints[key] = self.host_function(
                lambda positions, *args: tuple(adjoint(*args)[i] for i in positions), underivable=underivable)
        elif underivable is not None:
            self.underivable_host_functions[key] = underivable
        if opaque or underivable is not None:
            self.opaque_host_functions.add(key)
        return key

    # One registration per library module (the module docstring's table says which): each sets its parts.

    def register_tensor(self, tensor_type: type, wrap: Callable[[np.ndarray], Any],
                        tensor_array: Callable[[Any, Any], np.ndarray]) -> None:
        """The tensor class, ``ndarray -> Tensor`` without a copy, and ``(value, dtype) -> ndarray``."""
        self.tensor_type, self.wrap, self.tensor_array = tensor_type, wrap, tensor_array

    def register_parameter(self, parameter_type: type) -> None:
        """The class of network variables."""
        self.parameter_type = parameter_type

    def register_mutable(self, mutable_types: tuple[type, ...]) -> None:
        """The classes ``mutable(...)`` makes of tuples, lists and dicts."""
        self.mutable_types = mutable_types

    def register_dtypes(self, to_numpy: Callable[[Any], Any], from_numpy: Callable[[Any], Any]) -> None:
        """``mstype -> NumPy dtype`` and its inverse."""
        self.dtype_to_numpy, self.dtype_from_numpy = to_numpy, from_numpy

    def register_intrinsics(self, run: Callable[..., Any], assign: Callable[..., Any]) -> None:
        """The functions that stage an op and a Parameter update."""
        self.run, self.assign = run, assign

    def register_cell(self, cell_type: type, cell_parts: Callable[[Any], CellParts],
                      bookkeeping: frozenset[str], storage: frozenset[str]) -> None:
        """The network base class, what the compiler reads of one cell, and the names of a cell's
        attributes that are bookkeeping (no state a kernel depends on: left out of cache keys) and
        that hold its Parameters, sub-cells and buffers (left out of the names of captured values)."""
        self.cell_type, self.cell_parts = cell_type, cell_parts
        self.cell_bookkeeping, self.cell_storage = bookkeeping, storage

    def register_process(self, compile_time: frozenset, process_key: Callable[[], Hashable]) -> None:
        """Functions answered at compile time (facts of the process) and the key of the process state
        kernels specialise to."""
        self.compile_time, self.process_key = compile_time, process_key

    def register_recomputed(self, recomputed: Callable[[Any], bool]) -> None:
        """``callable -> bool``: whether a call of this object is recomputed in the backward sweep."""
        self.recomputed = recomputed

    def register_no_grad(self, no_grad_type: type) -> None:
        """The context manager whose ``with`` block computes values no gradient flows through."""
        self.no_grad_type = no_grad_type

    def register_item_update(self, item_update: Callable[..., Any]) -> None:
        """The function compiled code calls for ``x[indices] = value`` with int tensor or list ``indices``."""
        self.item_update = item_update

    def register_stager(self, cls: type, stage) -> None:
        """Calls of instances of ``cls`` inside compiled code are staged by
        ``stage(callee, specializer, args, kwargs, loc) -> abstract result``."""
        self._stagers[cls] = stage

    def stager_for(self, value):
        """The stage function registered for ``value``'s class (or a base class), or None."""
        if not self._stagers:
            return None
        for cls in type(value).__mro__:
            stage = self._stagers.get(cls)
            if stage is not None:
                return stage
        return None

    def stages_instances_of(self, cls: type) -> bool:
        """Whether calls of ``cls``'s instances are staged (a gradient function): made in compiled code, it
        holds the Parameters given to it (its weights), not their values."""
        return any(issubclass(cls, staged) for staged in self._stagers)

    def is_cell(self, value) -> bool:
        """Whether ``value`` is a network cell (an instance of the registered ``cell_type``)."""
        return self.cell_type is not None and isinstance(value, self.cell_type)

    def is_tensor(self, value) -> bool:
        """Whether ``value`` is a concrete tensor (an instance of the registered ``tensor_type``)."""
        return isinstance(value, self.tensor_type)


LIBRARY = Library()

RECORDERS: list = []
"""The active recorders of functions being traced (``compiler.tracing``), innermost last;
``ops.eager`` reports each op it runs to ``RECORDERS[-1]``. It lives here, not in ``tracing``,
so that eager code and the front doors test it without loading the compiler."""


class _Meanings(threading.local):
    """Which of MindSpore 2.10's two meanings the Tensor methods it overloads take in the code being run.

    MindSpore 2.10 resolves ``x.max(1)``, ``x.min(1)`` and ``x.transpose(0, 1)`` by mode: its PYNATIVE mode
    (op by op: eager code, a gradient function called in PYNATIVE mode) takes them as ``max(dim)`` (values and
    indices) and ``transpose(dim0, dim1)`` (a swap); its GRAPH mode (``@jit``, a Cell called in GRAPH_MODE)
    keeps the older ``max(axis)`` (the values) and ``transpose(*axes)`` (a permutation). ``pynative`` is true
    outside compiles; the specialize stage sets it for the call it compiles (:func:`meanings`)."""

    pynative = True


MEANINGS = _Meanings()


@contextmanager
def meanings(pynative: bool) -> Iterator[None]:
    """Give the Tensor methods of the code run inside PYNATIVE's meanings or GRAPH's (:class:`_Meanings`)."""
    saved, MEANINGS.pynative = MEANINGS.pynative, pynative
    try:
        yield
    finally:
        MEANINGS.pynative = saved


def check_not_traced(tensor, what: str) -> None:
    """Raise NotSupportedError when ``tensor`` is a value of the function being traced and ``what``
    (an eager-only operation) cannot be recorded."""
    if RECORDERS and RECORDERS[-1].is_traced(tensor):
        RECORDERS[-1].refuse(what)


def check_attribute_not_traced(value, name: str) -> None:
    """Raise NotSupportedError when ``value``, assigned to the attribute ``name`` (no Parameter) of a
    Cell, is a tensor of the function being traced: compiled source refuses the same assignment."""
    if RECORDERS and LIBRARY.is_tensor(value) and RECORDERS[-1].is_traced(value):
        RECORDERS[-1].refuse_attribute(name)


def note_read(tensor, kind: str) -> None:
    """``tensor``'s values are read as ``kind`` (``compiler.guards.ValueGuard``): a function being
    traced guards them (``tracing.Recorder.read``). Callers test :data:`RECORDERS` first."""
    if RECORDERS[-1].is_traced(tensor):
        RECORDERS[-1].read(tensor, kind)


def note_copy(source, tensor) -> None:
    """``tensor`` was made from the Tensor ``source`` (``Tensor(source, dtype)``): a function being
    traced records it as a cast of ``source``, not as a constant. Callers test :data:`RECORDERS` first."""
    if RECORDERS[-1].is_traced(source):
        RECORDERS[-1].record("cast", (source,), {"dtype": tensor._array.dtype}, tensor)


def activation_key(fn, self_obj):
    """What the recursion check compares: the code and, for a Cell's method, the Cell instance, so
    that a Cell nested in another instance of its class (``Residual(Residual(block))``) is no
    recursion."""
    return (fn.__code__, id(self_obj) if self_obj is not None and LIBRARY.is_cell(self_obj) else None)


class GuardFailed(Exception):
    """Raised by a kernel whose value guard ``index`` saw ``value``, not the value the kernel was
    specialized on (``compiler.guards``): the kernel stopped before any work the caller can see, and
    the call runs the kernel compiled for the new value."""

    def __init__(self, index: int, value):
        super().__init__(index, value)
        self.index, self.value = index, value


def same_array(value, expected) -> bool:
    """``value`` has ``expected``'s shape, dtype and elements, NaN equal to NaN (a value guard's test)."""
    value, expected = np.asarray(value), np.asarray(expected)
    return value.shape == expected.shape and value.dtype == expected.dtype and bool(
        np.array_equal(value, expected, equal_nan=expected.dtype.kind in "fc"))


def same_value(a, b) -> bool:
    """Equal values of the same type (NaN equals NaN; arrays compare by shape, dtype and content):
    whether a guarded value is still the one a kernel was specialized on."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return same_array(a, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(x is y or same_value(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b) or (a != a and b != b)
    except Exception:  # noqa: BLE001 - a value that cannot be compared is a changed value
        return False


def host_call(key: str, *values) -> tuple:
    """Run the host function registered under ``key`` on ``values`` (arrays); its result arrays."""
    return tuple(LIBRARY.host_functions[key](*values))
