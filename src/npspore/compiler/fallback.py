"""Reading tensor values in compiled code (MindSpore's JIT fallback): ``x.asnumpy()``, ``x.item()``,
``x.tolist()``, ``bool(x)``, ``float(x)``, ``int(x)``, NumPy and ``math`` on them, ``print``,
``assert``, ``ms.tensor(x.asnumpy())``.

:class:`FallbackReads` is the part of :class:`~npspore.compiler.specialize.FunctionSpecializer` that
runs such code *in the kernel*, on the real arrays, as MindSpore's fallback runs it in the
interpreter: a read of a tensor's values is a :class:`~npspore.compiler.values.HostValue`, and
Python on host values (arithmetic, comparisons, builtins, NumPy and ``math`` functions, methods,
subscripts) is staged as ``host`` effects (``ir.HostOp``), computed when the kernel runs. Each host
value also carries what it is in the call being compiled (``concrete``).

Where a host value decides something at compile time — a Python ``if``, a loop bound, an index, an
operand of a tensor op that is no Python number, the shape of ``ms.tensor(...)`` — the kernel is
specialized on its concrete value and a value guard (``compiler.guards``, placed by
``compiler.guardeffect``) checks it inside the kernel before any visible work (:meth:`concretize`): a
call whose value differs compiles again for it. ``if x.item() > 0`` is guarded on the truth of the
comparison only; ``x * float(y)`` on the type of ``float(y)`` only (:meth:`host_operands`).

A tensor value can be read where the kernel can check such a decision first: in the entry
function, outside tensor-dependent control flow and loops that stay loops. A called Cell or function
that reads one is interpreted in the entry's body instead of becoming a function of its own
(:class:`ReadInCallee`); a read under a tensor ``if``/``while`` is a compile error at the user's line.

Only the ``LAX`` JIT syntax level (the default) runs the fallback: at ``STRICT`` and ``COMPATIBLE``
(``set_context(jit_syntax_level=...)``, a Cell's ``JitConfig``, ``jit(fullgraph=True)``,
``MS_DEV_JIT_SYNTAX_LEVEL``) each read of a tensor's values is a compile error with MindSpore's message.
"""
from __future__ import annotations

import builtins
import math
import operator
from typing import Any, Callable

import numpy as np

from ..context import LAX
from ..opdef import Aval, OpTypeError, op_table
from ..shape_rules import promote
from . import ir
from .builder import BlockBuilder, NameSupply
from .errors import NotSupportedError, located
from .guardeffect import place_value_guard, shows, value_guard, written_vars
from .library import LIBRARY
from .values import HostValue, TensorValue, copy_container

_HOST_MODULES = ("numpy", "math")
OBJECT = Aval((), np.dtype(object))   # the aval of a host value's Var


def is_host_function(func) -> bool:
    """Whether ``func`` is a NumPy or ``math`` function, run on the values of tensors."""
    if isinstance(func, np.ufunc):
        return True
    module = getattr(func, "__module__", None) or ""
    return callable(func) and not isinstance(func, type) and (
        module.split(".")[0] in _HOST_MODULES or getattr(math, getattr(func, "__name__", ""), None) is func)


def nameable(func) -> bool:
    """Whether generated code can name ``func``: a builtin, a NumPy function or one of the runtime's
    (else it is called through ``rt.host_call``)."""
    name = getattr(func, "__name__", "")
    return (getattr(builtins, name, None) is func or getattr(np, name, None) is func
            or getattr(func, "__npspore_runtime__", False))


_HOST_BUILTINS = {float, int, bool, complex, str, repr, abs, round, min, max, sum, len, divmod, all, any, sorted,
                  tuple, list, format, pow}
"""The builtins a kernel runs on host values (the others get their guarded values)."""


class HostMethod:
    """A method looked up on a host value (``v.sum``), staged when it is called."""

    __slots__ = ("value", "name")

    def __init__(self, value: HostValue, name: str):
        self.value, self.name = value, name


class FallbackReads:
    """Mixin of FunctionSpecializer: host values (see the module docstring).

    ``_concrete`` maps the Vars whose arrays this call has (inputs, captured Tensors) to them, or is
    None in a function called from compiled code, where no value can be read; ``_body`` is the
    function's top block; ``_reads`` the values guarded already, by (Var, kind).
    """

    # FunctionSpecializer's state and methods that these read
    program: Any
    name: str
    names: NameSupply
    builder: BlockBuilder
    _body: ir.Block
    _concrete: dict | None
    _reads: dict
    _dynamic_loops: int
    _error: Callable[..., BaseException]
    _atom: Callable[[Any], Any]

    # ------------------------------------------------------------------ reads and staged Python

    def read_tensor(self, value: TensorValue, frame, node, reader=None, method=None) -> HostValue:
        """The values of ``value`` as a NumPy array computed when the kernel runs (a copy). ``reader``
        is the Python function that reads them (``np.sum``), else ``method`` the Tensor method (by
        default the library method being interpreted: ``asnumpy``, ``tolist``, ``item``)."""
        self._refuse_below_lax(value, reader, frame, node, method)
        read = self._reads.get((value.var, "read"))
        if read is None:   # read once: host code never writes into the array it reads
            array = self._concrete_array(value, self._guard_loc(frame, node))
            read = self.host(ir.HostOp("call", np.array), (value,), {}, frame, node, concrete=np.array(array))
            self._reads[(value.var, "read")] = read
        return read

    def read_value(self, value: TensorValue, read, frame, node) -> HostValue:
        """``read(t)`` (``bool``, ``float``, ``int``) of the Tensor ``t`` that ``value`` is, as a host value
        (of the tensor itself, no copy: one element is read)."""
        self._refuse_below_lax(value, None, frame, node, f"__{read.__name__}__")
        array = self._concrete_array(value, self._guard_loc(frame, node))
        try:
            result = read(LIBRARY.wrap(array))     # MindSpore's error for bool() of two elements...
        except (TypeError, ValueError) as error:
            raise self._error(error, frame, node) from None
        element: TensorValue | HostValue = value
        if value.aval.shape != ():   # float(np.array([1.0])) fails in NumPy 2.4: read the element first
            element = self.host(ir.HostOp("method", "item"), (value,), {}, frame, node, concrete=array.item())
        return self.host(ir.HostOp("call", read), (element,), {}, frame, node, concrete=result)

    def host(self, op: ir.HostOp, args, kwargs, frame, node, *, concrete=None, aval=OBJECT) -> HostValue:
        """Stage ``op(*args, **kwargs)`` to run when the kernel runs (its result a Var of ``aval``);
        its value in this call is computed now (``concrete``, when not given)."""
        values = list(args) + list(kwargs.values())
        op = ir.HostOp(op.kind, op.target, tuple(kwargs)) if kwargs else op
        if concrete is None:
            try:
                concrete = op(*(v.concrete if isinstance(v, HostValue) else v for v in values))
            except Exception as error:  # noqa: BLE001 - the user's Python raised it, as eager mode would
                raise self._error(error, frame, node) from None
        target = self.names.var("host" if aval is OBJECT else "tensor", aval)
        atoms = tuple(self._host_atom(v, frame, node) for v in values)
        if op.kind == "call" and not nameable(op.target):   # math.sqrt: called by its key (this process only)
            op = ir.HostOp("registered", _registered(op))
        self.builder.append(ir.Effect("host", (ir.Const(op), *atoms), self._guard_loc(frame, node), (target,)))
        return HostValue(target, concrete)

    def _host_atom(self, value, frame, node):
        if isinstance(value, (HostValue, TensorValue)):
            return value.var
        if isinstance(value, (tuple, list)):
            if _has_tensor(value):
                raise self._error(NotSupportedError("a tuple or list holding tensors, passed to Python code"),
                                  frame, node)
            # Python code gets the Python list or tuple, not an array: ``[5, 7][n]`` is an int, ``xs + [1]``
            # concatenates
            return ir.Const(self.concretize(value, frame, node))
        return self._atom(value)

    def host_operator(self, function, operands, frame, node):
        """``function(*operands)`` (an ``operator`` function) where an operand is a host value: staged
        (None when another operand is a tensor: the caller uses the host value's guarded value)."""
        if any(isinstance(v, (TensorValue, LIBRARY.tensor_type)) for v in operands):
            return None
        return self.host(ir.HostOp("operator", function), operands, {}, frame, node)

    def host_call(self, func, args, kwargs, frame, node):
        """A call with host values among its arguments, or a NumPy or ``math`` function on tensors: a
        method of a host value, a builtin that computes a value, a NumPy or ``math`` function, staged
        (tensors are read first); None for any other callable (the caller passes guarded values)."""
        if isinstance(func, HostMethod):
            return self.host(ir.HostOp("method", func.name), (func.value, *args), kwargs, frame, node)
        if func not in _HOST_BUILTINS and not is_host_function(func):
            return None
        args = [self.read_tensor(a, frame, node, func) if isinstance(a, TensorValue) else a for a in args]
        kwargs = {k: self.read_tensor(v, frame, node, func) if isinstance(v, TensorValue) else v
                  for k, v in kwargs.items()}
        if func in (float, int, bool, complex) and len(args) == 1 and isinstance(args[0], HostValue) \
                and isinstance(args[0].concrete, np.ndarray) and args[0].concrete.size == 1:
            # float(x.asnumpy()) of one element, as NumPy < 2.4 (MindSpore's) converts it
            args = [self.host(ir.HostOp("method", "item"), args, {}, frame, node)]
        args = [self.host_pack(self._read_items(a, func, frame, node), frame, node) for a in args]
        kwargs = {k: self.host_pack(self._read_items(v, func, frame, node), frame, node) for k, v in kwargs.items()}
        return self.host(ir.HostOp("call", func), args, kwargs, frame, node)

    def _refuse_below_lax(self, value: TensorValue, reader, frame, node, method=None) -> None:
        """Raise MindSpore's error for a read of ``value``'s values at the STRICT or COMPATIBLE syntax
        level (MindSpore runs the fallback only at LAX): an AttributeError naming the Tensor method
        (``method``, else the library method being interpreted), a TypeError naming ``reader``."""
        if self.program.syntax_level == LAX:
            return
        error: Exception
        if reader is not None:
            name = getattr(reader, "__qualname__", None) or getattr(reader, "__name__", repr(reader))
            module = (getattr(reader, "__module__", None) or "").split(".")[0]
            tensor = f"Tensor[{LIBRARY.dtype_from_numpy(value.aval.dtype)}]"
            error = TypeError(f"In JIT strict mode, {module + '.' if module else ''}{name} cannot read the values of "
                              f"a {tensor}: only the JIT lax mode runs Python on tensor values. {_LAX_HINT}")
        else:
            if method is None:
                in_method = frame is not None and frame.source.is_library
                method = getattr(frame.source.tree, "name", "asnumpy") if in_method else "asnumpy"
            error = strict_attribute_error(method, value.aval.dtype)
        raise self._error(error, frame, node)

    def _read_items(self, value, reader, frame, node):
        """A tuple or list with its tensors read (as host values) for the function ``reader``."""
        if isinstance(value, (tuple, list)) and _has_tensor(value):
            return type(value)(self.read_tensor(v, frame, node, reader) if isinstance(v, TensorValue) else
                               self._read_items(v, reader, frame, node) for v in value)
        return value

    def host_pack(self, value, frame, node):
        """A tuple or list holding host values, as one host value (made when the kernel runs)."""
        if not isinstance(value, (tuple, list)) or not any(isinstance(v, (HostValue, tuple, list)) for v in value):
            return value
        items = [self.host_pack(v, frame, node) for v in value]
        if not any(isinstance(v, HostValue) for v in items):
            return value
        return self.host(ir.HostOp("pack", type(value) if type(value) in (tuple, list) else tuple), items, {},
                         frame, node)

    def host_items(self, value: HostValue, frame, node) -> list:
        """The items of a host value iterated at compile time (a loop over ``x.tolist()`` is unrolled):
        its length is guarded, each item is read when the kernel runs."""
        length = self.concretize(self.host(ir.HostOp("call", len), (value,), {}, frame, node), frame, node)
        return [self.host(ir.HostOp("operator", operator.getitem), (value, i), {}, frame, node) for i in range(length)]

    def host_attribute(self, value: HostValue, attr: str, frame, node):
        """``value.attr``: a method to stage when called, or the attribute, staged."""
        try:
            found = getattr(value.concrete, attr)
        except AttributeError as error:
            raise self._error(error, frame, node) from None
        if callable(found):
            return HostMethod(value, attr)
        return self.host(ir.HostOp("attr", attr), (value,), {}, frame, node, concrete=found)

    def host_tensor(self, value: HostValue, dtype, frame, node) -> TensorValue:
        """``Tensor(value, dtype)`` of a host value: made when the kernel runs, as eager mode makes it;
        its shape and dtype (which the kernel is specialized on) are guarded."""
        dtype = None if dtype is None else np.dtype(LIBRARY.dtype_to_numpy(dtype))   # written as np.float32
        made = LIBRARY.tensor_array(value.concrete, dtype)
        array = self.host(ir.HostOp("call", LIBRARY.tensor_array), (value, dtype), {}, frame, node, concrete=made,
                          aval=Aval.of(made))
        self._guard(array, "aval", (made.shape, made.dtype.str), frame, node)
        return TensorValue(array.var)

    def host_operands(self, op: str, operands, static, frame, node) -> tuple:
        """The operands of ``op`` with each host value made an operand: a Python number becomes, when
        the kernel runs, a 0-d array of the dtype the op computes in (the dtype MindSpore's promotion
        gives a Python scalar with these tensors; its type, int or float, is guarded); any other host
        value is its guarded value."""
        if not any(isinstance(o, HostValue) for o in operands):
            return tuple(operands)
        definition = op_table()[op] if op in op_table() else None
        probe = [o.concrete if isinstance(o, HostValue) else ir.aval_or_value(self._atom(o)) for o in operands]
        target = None
        if definition is not None and definition.family == "elementwise" and len(operands) == 2:   # x * s, x > s
            try:
                target = promote(*probe)
            except OpTypeError:
                target = None
        made = []
        for operand in operands:
            number = isinstance(operand, HostValue) and type(operand.concrete) in (bool, int, float)
            if not number or target is None or not _fits(operand.concrete, np.dtype(target)):
                made.append(self.concretize(operand, frame, node))
                continue
            self.guard_type(operand, frame, node)
            array = self.host(ir.HostOp("call", np.asarray), (operand, np.dtype(target)), {}, frame, node,
                              aval=Aval((), np.dtype(target)))
            made.append(TensorValue(array.var))
        return tuple(made)

    # ------------------------------------------------------------------ decisions: guarded values

    def concretize(self, value, frame, node):
        """The value ``value`` (a host value, or a tuple or list holding some) has in this call, which
        the kernel is specialized on and guards."""
        if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
            items = [self.concretize(v, frame, node) for v in value]
            return value if all(a is b for a, b in zip(items, value)) else copy_container(value, items)
        if not isinstance(value, HostValue):
            return value
        concrete = value.concrete
        if isinstance(concrete, (np.ndarray, np.generic)):
            kind = "array"
        elif is_literal(concrete):
            kind = "value"
        else:
            raise located(NotSupportedError(
                f"a {type(concrete).__name__} computed from tensor values decides how this code is compiled; "
                "npspore can check only numbers, strings, arrays and tuples or lists of them"),
                self._guard_loc(frame, node))
        self._guard(value, kind, concrete, frame, node)
        return concrete

    def guard_type(self, value: HostValue, frame, node) -> None:
        """Specialize on the type of ``value`` (``isinstance``, how an op takes a Python number)."""
        self._guard(value, "type", type(value.concrete).__name__, frame, node)

    def host_truth(self, value: HostValue, frame, node) -> bool:
        """``bool(value)`` for a Python ``if``: guarded on the truth only."""
        truth = bool(value.concrete)
        self._guard(value, "truth", truth, frame, node)
        return truth

    def _guard(self, value: HostValue, kind: str, expected, frame, node) -> None:
        key = (value.var, kind)
        if key in self._reads:
            return
        loc = self._guard_loc(frame, node)
        if self.builder.block is not self._body or self._dynamic_loops:   # the guard goes in the body
            raise _cannot_read("under tensor-dependent control flow", loc)
        self._reads[key] = expected
        index = self.program.guards.value_read(f"read at {loc}", kind, expected)
        place_value_guard(self._body, value_guard(value.var, kind, expected, index, loc), self.program.functions,
                          self.names)

    def _guard_loc(self, frame, node):
        return self._loc(frame, node) if frame is not None else self._user_loc

    def _concrete_array(self, value: TensorValue, loc) -> np.ndarray:
        """The array ``value`` holds in this call: its statements evaluated on the call's arrays."""
        if self._concrete is None:   # the caller retries by interpreting this call in its own body
            raise located(ReadInCallee(_CANNOT_READ.format(where="in a function or Cell called from compiled code")),
                          loc)
        if self.builder.block is not self._body or self._dynamic_loops:
            raise _cannot_read("under tensor-dependent control flow", loc)
        var, functions = value.var, self.program.functions
        if var in self._concrete and var not in written_vars(self._body.stmts, functions):
            return self._concrete[var]
        needed, computing = {var}, []
        for stmt in reversed(self._body.stmts):   # and the writes of Parameters read after them
            if needed.intersection(ir.defined_vars(stmt)) or needed & written_vars((stmt,), functions):
                computing.append(stmt)
                needed.update(ir.used_vars_deep(stmt))
        if any(shows(stmt, functions) for stmt in computing):
            raise _cannot_read("from values computed where a hook or print runs", loc)
        if any(isinstance(stmt, ir.Apply) and op_table()[stmt.op].has_effects for stmt in computing):
            raise _cannot_read("from a random draw or a collective, which run only when the kernel runs", loc)
        written = written_vars(computing, functions)   # evaluated on copies: compiling writes no Parameter
        env = {v: (a.copy() if v in written else a) for v, a in self._concrete.items() if v in needed}
        ir.evaluate_block(ir.Block(computing[::-1]), env, ir.Module(functions, self.name), assigns=True)
        return np.asarray(env[var])


_LAX_HINT = ("You can use os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable the JIT lax mode to support "
             "the current syntax.")
"""The end of MindSpore's strict-mode errors (``GetEvaluatedValueForAttrOrMethodNotInMap`` in
``mindspore/ccsrc/pipeline/jit/ps/static_analysis/prim.cc``)."""

def strict_attribute_error(method: str, dtype) -> AttributeError:
    """MindSpore's error for the Tensor method ``method`` (which reads the values of a tensor of NumPy
    ``dtype``) below the LAX syntax level."""
    tensor = f"Tensor[{LIBRARY.dtype_from_numpy(dtype)}]"
    return AttributeError(f"In JIT strict mode, cannot get attributes {method} or the {tensor} object has no "
                          f"attribute: '{method}'. {_LAX_HINT}")


_REGISTERED: dict = {}   # HostOp -> its key among the host functions (one per function, not per compile)


def _registered(op: ir.HostOp) -> str:
    """The key of ``op`` (a call of a function generated code cannot name) among the host functions."""
    key = _REGISTERED.get(op)
    if key is None:
        key = _REGISTERED[op] = LIBRARY.host_function(lambda *a: (op(*a),), opaque=True)
    return key


class ReadInCallee(NotSupportedError):
    """A tensor's value is read in a function specialized as a call of its own (no value can be read
    there): the caller interprets the call in its own body instead (``Calls._call_user``)."""


_CANNOT_READ = ("reading a tensor's value here ({where}): the kernel is specialized on such a value and checks "
                "it before it runs, which it can do only in the compiled function itself, outside tensor "
                "'if'/'while'; read it there, or use npspore.ops")


def _cannot_read(where: str, loc) -> NotSupportedError:
    return located(NotSupportedError(_CANNOT_READ.format(where=where)), loc)


def is_literal(value) -> bool:
    """Whether ``value`` can be written in generated code (for a guard to compare with)."""
    if isinstance(value, (tuple, list)):
        return all(is_literal(v) for v in value)
    return value is None or isinstance(value, (bool, int, float, str, np.generic))


def _has_tensor(items) -> bool:
    return any(isinstance(v, TensorValue) or isinstance(v, (tuple, list)) and _has_tensor(v) for v in items)


def _fits(number, dtype: np.dtype) -> bool:
    """Whether the Python ``number`` converts to ``dtype`` as it is (an int in the range of an int dtype)."""
    if dtype.kind in "iu" and not isinstance(number, bool):
        return isinstance(number, int) and np.iinfo(dtype).min <= number <= np.iinfo(dtype).max
    return dtype.kind in "fcb" or isinstance(number, bool)
