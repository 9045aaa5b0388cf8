"""Tracing: the frontend alternative for callables whose source is not available.

npspore compiles Python source. A function typed at the plain REPL, passed to ``python -c`` or
defined by ``exec`` (and a lambda defined there) has none, so the frontend hands it here instead
(:class:`TracedFunction`) and the specialize stage *records* it, as JAX does: the function runs once,
eagerly, on the call's concrete inputs wrapped as fresh Tensors. While a :class:`Recorder` is active
(:data:`RECORDERS`), the library's one op intrinsic (``ops.eager.run``) reports every op it executes
(:meth:`Recorder.record`), and ``ops.assign`` every Parameter update; each becomes an IR statement
checked by the op's rule, over the same op table as compiled code. Tensors the function reads that
it did not get as inputs (Parameters, globals) are captured: they become kernel inputs, as in the
compiled path, so ``set_data`` needs no new trace. The recorded function then goes through
differentiate, optimize and codegen as usual.

A trace records one path: a Python ``if``/``for``/``while`` on a tensor value, or a value read out
to NumPy and back, follows the traced input's values. So each read of a traced tensor's values
(``bool(t)``, ``float(t)``, ``int(t)``, ``t.item()``, ``t.asnumpy()``, ``t.tolist()``, NumPy on
``t``) makes a value guard (``compiler.guards``, :meth:`Recorder.read`): a later input that reads
otherwise — takes the other branch — stops the kernel before it does anything, and the function
is traced again for it. The kernel's header says ``frontend: traced``. Parameter updates made while
tracing are undone afterwards (the kernel makes them when it runs).
"""
from __future__ import annotations

import inspect
import sys
import types
from dataclasses import dataclass
from itertools import count

import numpy as np

from ..context import LAX
from ..core import tree
from ..opdef import Aval
from ..shape_rules import constant_array, taken_operands
from . import ir
from .builder import BlockBuilder, NameSupply
from .cachekey import reachable_cells
from .errors import PACKAGE_DIRECTORY, NotSupportedError, located, not_supported
from .fallback import strict_attribute_error
from .guardeffect import place_value_guard, value_guard
from .guards import GuardRecorder, read_value
from .kernel import HookVersions
from .library import LIBRARY, RECORDERS
from .signature import OutputTree, is_mutable_scalar, scalar_type
from .tracedbprop import has_bprop, record_bprop_call
from .values import TensorValue, tree_node

__all__ = ["Recorder", "TracedFunction", "trace_entry", "tracing"]

TRACED_NOTE = ("traced (its source is not available); Python control flow on tensor values follows the traced "
               "path, guarded")


@dataclass
class TracedFunction:
    """The frontend's output for a callable without source: it is recorded by the specialize stage."""

    qualname: str
    filename: str
    line: int

    def describe(self) -> str:
        """What ``npspore show --dump-after frontend`` prints for it."""
        return f"# {self.qualname} ({self.filename}:{self.line}): {TRACED_NOTE}"


def traced_function(fn) -> TracedFunction:
    """The frontend output for plain function ``fn``, whose source is not available."""
    code = fn.__code__
    return TracedFunction(fn.__qualname__, code.co_filename, code.co_firstlineno)


def tracing() -> bool:
    """Whether a function is being traced (compiled calls inside it then run eagerly, so they are recorded)."""
    return bool(RECORDERS)


class Recorder:
    """Records the ops an eager run executes into one :class:`ir.Function` (see the module docstring).

    ``params`` are the input Vars; ``captures`` maps id(obj) -> (obj, Var) for each pre-existing Tensor
    read (in first-read order); ``_values`` maps id(tensor) -> (tensor, Var) for the traced tensors
    (inputs and op results; the tensors are held so their ids stay theirs while tracing).
    """

    def __init__(self, fn, syntax_level: int = LAX, outer: Recorder | None = None):
        self.syntax_level = syntax_level   # below LAX (context.STRICT/COMPATIBLE), reading values is refused
        self.names = NameSupply()
        self.builder = BlockBuilder(self.names)
        self.params: list = []
        self.captures: dict = {}
        self._values: dict = {}
        self._reads: set = set()           # (id(Var), kind) of each value read and guarded
        self.in_bprop = False              # recording a cell's bprop, whose dout has no meaningful values
        if outer is None:
            self._restores: dict = {}      # id(Parameter) -> (Parameter, its array object, saved values)
            self.guards = GuardRecorder(LIBRARY.is_cell)   # the value guards of the values read
            self.functions: dict = {}      # the functions called (compiler.tracedbprop), by name
            self.function_names = NameSupply()
        else:                              # a function called by the one ``outer`` records: one trace
            self._restores, self.guards = outer._restores, outer.guards
            self.functions, self.function_names = outer.functions, outer.function_names
        code = fn.__code__
        self.loc = ir.Loc(code.co_filename, code.co_firstlineno)

    def is_traced(self, tensor) -> bool:
        """Whether ``tensor`` is an input or an op result of the function being traced."""
        return id(tensor) in self._values

    def cell_called(self, cell) -> None:
        """The run calls ``cell``: the trace follows its ``training`` flag, which the kernel guards."""
        self.guards.attribute_read(cell, "training", cell.training)

    def has_bprop(self, cell) -> bool:
        """Whether a call of ``cell`` is recorded with its ``bprop`` (:meth:`record_bprop_call`)."""
        return has_bprop(cell)

    def record_bprop_call(self, cell, args: tuple, kwargs: dict):
        """Record a call of ``cell`` as the compiled source stages it: a call of its own carrying its ``bprop``;
        returns the call's results."""
        return record_bprop_call(self, cell, args, kwargs)

    def refuse(self, what: str):
        """Raise NotSupportedError: ``what``, an eager-only operation on a traced tensor, cannot be recorded."""
        raise NotSupportedError(
            f"{what} on a traced tensor cannot be recorded: npspore traces this function because its source "
            "is not available (REPL, python -c, exec); define it in a .py file to compile it")

    def refuse_attribute(self, name: str):
        """Raise the NotSupportedError compiled source raises (``specialize``) for ``self.name = tensor``
        with a traced tensor and an attribute that is no Parameter, at the user's line."""
        raise not_supported(f"assigning a tensor to the attribute {name!r}, which is no Parameter", self.user_loc())

    def read(self, tensor, kind: str) -> None:
        """The function reads a traced tensor's values as ``kind`` (``compiler.guards.ValueGuard``):
        the trace follows them, so the kernel is specialized on them and guards them."""
        if self.syntax_level != LAX:
            method = {"array": "asnumpy", "item": "item", "truth": "__bool__"}[kind]
            raise located(strict_attribute_error(method, tensor._array.dtype), self.user_loc())
        self.guard_read(tensor, kind)

    def guard_read(self, tensor, kind: str) -> None:
        """Specialize the kernel on the ``kind`` read of the traced ``tensor`` and guard it."""
        if self.in_bprop:
            raise located(NotSupportedError(
                "reading tensor values in a cell's bprop cannot be traced: npspore traces it because its "
                "source is not available (REPL, python -c, exec); define the cell in a .py file, or set "
                "bprop_debug = True"), self.user_loc())
        var = self._values[id(tensor)][1]
        if (id(var), kind) in self._reads:
            return
        self._reads.add((id(var), kind))
        loc = self.user_loc()
        expected = read_value(kind, tensor._array)
        index = self.guards.value_read(f"read at {loc}", kind, expected)
        place_value_guard(self.builder.block, value_guard(var, kind, expected, index, loc), self.functions)

    def input(self, tensor, hint: str):
        """A fresh Tensor sharing ``tensor``'s data, recorded as the next input param."""
        array = tensor._array
        var = self.names.var(hint, Aval.of(array))
        self.params.append(var)
        traced = LIBRARY.wrap(array)
        self._values[id(traced)] = (traced, var)
        return traced

    def atom(self, value):
        """The IR atom of an op operand: a traced tensor's Var, a captured tensor's param, a constant."""
        if LIBRARY.is_tensor(value):
            entry = self._values.get(id(value))
            if entry is not None:
                return entry[1]
            return self._capture(value)
        if type(value) in (list, tuple):
            if any(LIBRARY.is_tensor(v) for v in value):
                raise NotSupportedError("a list of tensors where one tensor is expected cannot be traced")
            return ir.Const(constant_array(value))
        return ir.Const(value)

    def _capture(self, obj) -> ir.Var:
        entry = self.captures.get(id(obj))
        if entry is None:
            name = getattr(obj, "name", None)
            entry = (obj, self.names.var(name if isinstance(name, str) and name else "captured", Aval.of(obj._array)))
            self.captures[id(obj)] = entry
        return entry[1]

    def record(self, op: str, operands, static, result) -> None:
        """Append ``result = op(*operands, **static)`` (``result`` the Tensor(s) eager mode computed)."""
        atoms = tuple(self.atom(o) for o in taken_operands(op, operands))
        loc = self.user_loc()
        try:
            targets = self.builder.apply(op, atoms, static, loc=loc, hint=op)
        except (ValueError, TypeError) as error:  # eager mode accepted it: a rule that differs is a bug to see
            raise located(error, loc) from None
        results = result if isinstance(result, tuple) else (result,)
        for tensor, var in zip(results, targets if isinstance(targets, tuple) else (targets,)):
            self._values[id(tensor)] = (tensor, var)

    def record_assign(self, variable, value) -> None:
        """Append an assignment effect ``variable <- value`` (before eager mode writes it); the write
        is undone when the trace ends."""
        if id(variable) not in self._restores:
            array = variable._array
            self._restores[id(variable)] = (variable, array, np.array(array))
        target = self.atom(variable)
        source = self.atom(value)
        loc = self.user_loc()
        if isinstance(source, ir.Var) and source.aval != target.aval:
            source = self.builder.apply("cast", (source,), {"dtype": target.aval.dtype}, loc=loc, hint="cast")
        self.builder.append(ir.Effect("assign", (target, source), loc))

    def undo_assignments(self) -> None:
        """Give every Parameter assigned while tracing its data from before the trace."""
        for variable, array, saved in self._restores.values():
            np.copyto(array, saved)
            variable._array = array

    def user_loc(self) -> ir.Loc:
        """The innermost line outside npspore that led to the op being recorded."""
        frame: types.FrameType | None = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename.startswith(PACKAGE_DIRECTORY):
            frame = frame.f_back
        return ir.Loc(frame.f_code.co_filename, frame.f_lineno) if frame is not None else self.loc

    def function(self, name: str, source: str, value) -> ir.Function:
        """The recorded function ``name`` returning ``value``: params are the inputs, then the captures."""
        results, output_tree = self.output(value)
        self.builder.block.results = results
        return ir.Function(name=name, params=tuple(self.params) + tuple(var for _, var in self.captures.values()),
                           body=self.builder.block, source=source, loc=self.loc,
                           param_names=tuple(var.name for _, var in self.captures.values()), output_tree=output_tree)

    def bind(self, tensor, var: ir.Var) -> None:
        """Record that the traced ``tensor`` holds ``var``'s value."""
        self._values[id(tensor)] = (tensor, var)

    def output(self, value) -> tuple:
        """``(result Vars, OutputTree)`` of the function's returned value."""
        abstract = tree.tree_map(lambda t: TensorValue(self.atom(t)), value, LIBRARY.is_tensor)
        leaves = tree.leaves(abstract, lambda v: isinstance(v, TensorValue))
        return tuple(leaf.var for leaf in leaves), OutputTree(tree_node(abstract, count()))


@dataclass
class Traced:
    """A recorded entry function: what :func:`trace_entry` returns."""

    function: ir.Function
    functions: dict                # the functions it calls (cells with a bprop), by name
    captured: list
    hook_guards: tuple
    guards: GuardRecorder


def trace_entry(fn, self_obj, args, kwargs, name: str, *, dynamic=None, syntax_level=LAX) -> Traced:
    """Run ``fn`` (bound to ``self_obj`` if not None) eagerly on ``args``/``kwargs`` and record it as
    function ``name``: params are the Tensor leaves (and ``mutable`` scalars) of the arguments, then the
    captured Tensors. Below the LAX ``syntax_level``, reading a tensor's values is an error."""
    if dynamic:
        raise located(NotSupportedError(
            "dynamic shapes (set_inputs with None dims) need the source of construct; npspore traces "
            f"{fn.__qualname__!r} because its source is not available"), ir.Loc(fn.__code__.co_filename,
                                                                             fn.__code__.co_firstlineno))
    recorder = Recorder(fn, syntax_level)
    recorder.function_names = NameSupply((name,))
    hints = _argument_names(fn, self_obj is not None, len(args))
    traced_args = tuple(_traced(recorder, value, hint) for value, hint in zip(args, hints))
    traced_kwargs = {key: _traced(recorder, value, key) for key, value in kwargs.items()}
    cells = reachable_cells(self_obj, fn)  # every cell the run may have called: a hook change re-traces
    for cell in cells:
        recorder.cell_called(cell)
    RECORDERS.append(recorder)
    try:
        if has_bprop(self_obj):   # the call of the cell carries its bprop, as a sub-cell's does
            value = record_bprop_call(recorder, self_obj, traced_args, traced_kwargs)
        elif self_obj is not None:
            value = fn(self_obj, *traced_args, **traced_kwargs)
        else:
            value = fn(*traced_args, **traced_kwargs)
    finally:
        RECORDERS.remove(recorder)
        recorder.undo_assignments()
    function = recorder.function(name, fn.__qualname__, value)
    captured = [obj for obj, _ in recorder.captures.values()]
    guards = tuple(HookVersions.guard(cell) for cell in cells)
    return Traced(function, recorder.functions, captured, guards, recorder.guards)


def _traced(recorder: Recorder, value, hint: str):
    indices = count()

    def wrap(leaf):
        index = next(indices)
        name = hint if index == 0 else f"{hint}_{index}"
        if is_mutable_scalar(leaf):   # the trace follows its value, which the kernel guards
            number = scalar_type(leaf)(leaf)
            recorder.guard_read(recorder.input(LIBRARY.wrap(np.asarray(number)), name), "item")
            return number
        return recorder.input(leaf, name)

    return tree.tree_map(wrap, value, lambda v: LIBRARY.is_tensor(v) or is_mutable_scalar(v))


def _argument_names(fn, bound: bool, n_args: int) -> list:
    """Names for the positional arguments' params: the function's parameter names where it has them."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    if bound:
        params = params[1:]
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return [names[i] if i < len(names) else f"arg{i}" for i in range(n_args)]
