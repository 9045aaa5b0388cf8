"""Calls inside interpreted code: ops, builtins, library functions, user functions, Cells, hooks.

:class:`Calls` is the part of :class:`~npspore.compiler.specialize.FunctionSpecializer` that decides
what a call means at compile time: the intrinsic ``run`` stages an op, builtins on Python values run
now, library code is interpreted in place, user functions and Cells become ``ir.Call`` statements of their
own functions, registered callables (a nested gradient function) are staged by their own rule.
What the library is (tensor classes, Cells, intrinsics) comes from ``compiler.library``.
"""
from __future__ import annotations

import ast
import builtins
import functools
import inspect
from typing import Any, Callable

import numpy as np

from ..core import tree
from . import ir
from .builder import BlockBuilder, NameSupply
from .errors import NotSupportedError, located, not_supported
from .frontend import parse_function
from .fallback import HostMethod, ReadInCallee, is_host_function
from .custombackward import attach_custom_backward, needs_custom_backward, stage_recomputed
from .dynamicdims import UnknownDim, UnknownDimUse
from .library import LIBRARY, activation_key, meanings
from .tensorbuiltins import TENSOR_BUILTINS, TensorBuiltins
from .values import (BoundMethod, Closure, Completion, Frame, HostValue, NeedsStatic, ReturnsClosure, StagedRange,
                     TensorValue, copy_container, holds_closure, holds_nested)


_STATIC_BUILTINS = {
    builtins.range, builtins.enumerate, builtins.zip, builtins.tuple, builtins.list, builtins.dict,
    builtins.int, builtins.float, builtins.bool, builtins.str, builtins.repr, builtins.min, builtins.max,
    builtins.sum, builtins.abs, builtins.sorted, builtins.reversed, builtins.getattr, builtins.hasattr,
    builtins.type, builtins.round, builtins.divmod, builtins.all, builtins.any,
    builtins.slice, builtins.set, builtins.frozenset, builtins.callable, builtins.id, builtins.format,
    builtins.issubclass, builtins.iter, builtins.next,
}


def _holds(kind, args, kwargs) -> bool:
    """Whether an argument, or an item of a tuple or list argument, is a ``kind``."""
    return any(isinstance(v, kind) or isinstance(v, (tuple, list)) and any(isinstance(i, kind) for i in v)
               for v in (*args, *kwargs.values()))


# builtins whose one-shot iterator is a tuple in compiled code, as in MindSpore's graph mode (a
# returned zip would otherwise be empty from the second call on)
_SEQUENCE_BUILTINS = {builtins.zip, builtins.enumerate, builtins.reversed}


def is_library(fn) -> bool:
    """Whether ``fn`` is npspore's own code (interpreted in place, its frames transparent to errors)."""
    module = getattr(fn, "__module__", "") or ""
    return module == "npspore" or module.startswith("npspore.")


class Calls(TensorBuiltins):
    """Mixin of FunctionSpecializer: what a call in interpreted code becomes (see the module docstring)."""

    captures: dict  # FunctionSpecializer's: id -> (captured object, its TensorValue)
    builder: BlockBuilder                     # where the statements of the function being built go
    names: NameSupply                         # the function's value names
    _error: Callable[..., BaseException]      # and its methods this mixin calls
    _atom: Callable[..., Any]
    _apply: Callable[..., Any]
    dim_size: Callable[..., Any]
    _truth: Callable[..., bool]
    _iterate_static: Callable[..., Any]

    def run_time_shape(self, value: TensorValue) -> tuple:
        """``value``'s shape as user code reads it: a dynamic dim's size is read when the kernel runs."""
        return tuple(self.dim_size(value, axis) if d is None else d for axis, d in enumerate(value.aval.shape))

    def run_time_size(self, value: TensorValue):
        """``value``'s element count as user code reads it (of a dynamic shape: when the kernel runs)."""
        flat = self._apply("reshape", (value,), {"shape": (-1,)}) if None in value.aval.shape else None
        return int(np.prod(value.aval.shape)) if flat is None else self.dim_size(flat, 0)

    def _call(self, func, args, kwargs, frame, node):
        run, assign = LIBRARY.run, LIBRARY.assign
        Tensor = LIBRARY.tensor_type
        if func is run:
            name = self._static(args[0], frame, node)
            static = {k: self._static(v, frame, node) for k, v in kwargs.items()}
            return self._apply(name, args[1:], static, frame, node)
        if assign is not None and func is assign:
            return self._assign_effect(args, frame, node)
        if func is builtins.print:
            self._print_effect(args, frame, node)
            return None
        if isinstance(func, type) and issubclass(func, Tensor):
            return self._make_constant_tensor(func, args, kwargs, frame, node)
        if func is builtins.isinstance:
            return self._isinstance(args[0], args[1])
        if isinstance(func, HostMethod) or _holds(HostValue, args, kwargs) or (
                is_host_function(func) and _holds(TensorValue, args, kwargs)):   # JIT fallback: Python on values
            staged = self.host_call(func, args, kwargs, frame, node)
            if staged is not None:
                return staged
            if not (inspect.isfunction(func) and is_library(func)):   # library code gets them as they are
                args = self.concretize(tuple(args), frame, node)
                kwargs = {k: self.concretize(v, frame, node) for k, v in kwargs.items()}
        if func is builtins.len:
            target = args[0]
            if isinstance(target, TensorValue):
                if not target.aval.shape:
                    raise self._error(TypeError("Not support len of a 0-D tensor"), frame, node)
                if target.aval.shape[0] is None:   # a dynamic dim: its size when the kernel runs
                    return UnknownDim((target, 0)) if frame.source.is_library else self.dim_size(target, 0)
                return target.aval.shape[0]
            return len(target)
        if isinstance(func, Closure):
            return self._call_closure(func, args, kwargs, frame, node)
        if func is functools.partial:  # ops.partial: a Python value holding the (abstract) arguments
            return functools.partial(*args, **kwargs)
        if isinstance(func, functools.partial):
            return self._call(func.func, (*func.args, *args), {**func.keywords, **kwargs}, frame, node)
        if isinstance(func, BoundMethod):
            return self._call_python(func.function, (func.self_value,) + args, kwargs, frame, node)
        if func in (builtins.map, builtins.filter):
            return self._map_or_filter(func, args, frame, node)
        if func in _SEQUENCE_BUILTINS and not any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
            return tuple(func(*args, **kwargs))
        if func in LIBRARY.compile_time:  # a process fact (the communication group size): answered now
            if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
                raise NeedsStatic(node)
            return func(*args, **kwargs)
        if func is builtins.super and not args and not kwargs:
            return self._zero_argument_super(frame, node)
        if func is builtins.pow and len(args) == 2 and not kwargs and any(isinstance(a, TensorValue) for a in args):
            return self._binary(ast.Pow, args[0], args[1], frame, node)
        if func is builtins.sum and len(args) in (1, 2) and not kwargs:
            return self._sum(args, frame, node)
        if func in TENSOR_BUILTINS and _holds(TensorValue, args, kwargs):
            return self.tensor_builtin(func, args, kwargs, frame, node)
        if func in (bool, float, int) and len(args) == 1 and not kwargs and isinstance(args[0], TensorValue):
            return self.read_value(args[0], func, frame, node)   # bool(x): JIT fallback
        if func is builtins.range and any(isinstance(a, UnknownDim) for a in args):   # a layer's loop over a
            if any(a.source is None for a in args if isinstance(a, UnknownDim)):   # dynamic dim: that often
                raise self._error(UnknownDimUse(
                    "a loop over the element count of a value with a dim known only when the kernel runs is not "
                    "supported in compiled code"))
            args = tuple(self.dim_size(*a.source) if isinstance(a, UnknownDim) else a for a in args)
        if func is builtins.range and not kwargs and 1 <= len(args) <= 3 and any(isinstance(a, TensorValue)
                                                                                for a in args):
            start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
            if isinstance(step, TensorValue) or step == 0:
                raise NeedsStatic(node)   # the loop's direction must be known to stage its test
            return StagedRange(start, stop, step)
        if func is builtins.getattr and len(args) == 2 and not kwargs and isinstance(args[0], TensorValue):
            return self._getattr(args[0], self._static(args[1], frame, node), frame, node)   # getattr(x, "var")
        if func in _STATIC_BUILTINS or func is builtins.range:
            if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
                if func is builtins.abs:
                    return self._call_method(args[0], "__abs__", (), {}, frame, node)
                raise NeedsStatic(node)
            if func is builtins.abs and not kwargs:
                return self.graph_arithmetic(func, args, frame)   # a float32 scalar op in MindSpore's graph
            return func(*args, **kwargs)
        if LIBRARY.is_cell(func):
            return self._call_cell(func, args, kwargs, frame, node)
        stage = LIBRARY.stager_for(func)
        if stage is not None:
            return stage(func, self, args, kwargs, self._loc(frame, node))
        if inspect.ismethod(func) and hasattr(func.__func__, "__npspore_function__"):
            func = func.__func__.__npspore_function__.__get__(func.__self__)  # a @jit method: inlined
        if inspect.ismethod(func) and inspect.isfunction(func.__func__):
            owner = func.__self__
            if LIBRARY.is_cell(owner) or is_library(func.__func__):
                return self._call_python(func.__func__, (owner,) + args, kwargs, frame, node)
            return self._call_user(func.__func__, owner, args, kwargs, frame, node)
        if (getattr(func, "__module__", None) or "").partition(".")[0] == "numpy" and not inspect.ismethod(func) \
                and not any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
            return self._from_python(func(*args, **kwargs))   # NumPy on Python values: run now (JIT fallback)
        if inspect.isfunction(func):
            if is_library(func):
                return self._call_python(func, args, kwargs, frame, node)
            return self._call_user(func, None, args, kwargs, frame, node)
        if inspect.isbuiltin(func) and type(getattr(func, "__self__", None)) in (list, dict):
            return func(*args, **kwargs)  # out.append(t): the compile-time list holds the tensor value
        if isinstance(func, type) and LIBRARY.stages_instances_of(func):   # ms.grad(f, 0, self.w) in construct:
            args, kwargs = self._parameters_as_objects((args, kwargs))       # its weights are Parameters
        if isinstance(func, type) or inspect.isbuiltin(func) or isinstance(func, np.ufunc):
            if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
                raise self._error(NotSupportedError(
                    f"calling {getattr(func, '__name__', func)!r} on a tensor is not supported in "
                    "compiled code: use npspore.ops functions"), frame, node)
            result = func(*args, **kwargs)
            if isinstance(result, Tensor) and not isinstance(result, LIBRARY.parameter_type):
                return self._built_tensor(result)
            return self._from_python(result)
        if hasattr(func, "__npspore_function__"):   # a @jit function called from compiled code: its function, here,
            hooks, self.program.backward_hooks = self.program.backward_hooks, False   # where backward hooks are
            try:                                  # ignored and Tensor methods take GRAPH's meanings (MindSpore's @jit)
                with meanings(pynative=False):
                    return self._call(func.__npspore_function__, args, kwargs, frame, node)
            finally:
                self.program.backward_hooks = hooks
        call = getattr(type(func), "__call__", None)
        if call is not None and inspect.isfunction(call):
            if LIBRARY.recomputed is not None and LIBRARY.recomputed(func):
                return stage_recomputed(self, call, func, args, kwargs, self._loc(frame, node))
            if is_library(call):
                return self._call_python(call, (func,) + args, kwargs, frame, node)
            return self._call_user(call, func, args, kwargs, frame, node)
        raise self._error(NotSupportedError(f"calling {func!r} in compiled code"), frame, node)

    def _parameters_as_objects(self, values):
        """``values`` with each tensor value of a Parameter this function captured replaced by the Parameter."""
        parameters = {id(tv): obj for obj, tv in self.captures.values() if isinstance(obj, LIBRARY.parameter_type)}
        return tree.tree_map(lambda v: parameters.get(id(v), v), values, lambda v: isinstance(v, TensorValue))

    def _zero_argument_super(self, frame, node):
        """``super()`` in a method: ``super(__class__, <its first argument>)``, as Python makes it."""
        cls = frame.source.closure.get("__class__")
        params = frame.source.tree.args.posonlyargs + frame.source.tree.args.args
        if cls is None or not params or params[0].arg not in frame.env:
            raise self._error(RuntimeError("super(): no arguments (use it in a method)"), frame, node)
        return super(cls, frame.env[params[0].arg])

    def _sum(self, args, frame, node):
        """``sum(items[, start])``: Python's sum, whose additions stage ops where items are tensors."""
        total = args[1] if len(args) == 2 else 0
        for item in self._iterate_static(args[0], frame, node):
            total = self._binary(ast.Add, total, item, frame, node)
        return total

    def _map_or_filter(self, func, args, frame, node) -> tuple | list:
        """``map(f, *iterables)`` and ``filter(f, iterable)``, ``f`` called in compiled code (a lambda, a
        user function or an op alike), made as MindSpore's graph mode makes them: a map of lists a list, of
        other iterables a tuple; a filter a list."""
        if len(args) < 2 or (func is builtins.filter and len(args) != 2):
            raise self._error(TypeError(f"{func.__name__}() takes a function and "
                                        f"{'one iterable' if func is builtins.filter else 'iterables'}"), frame, node)
        function, iterables = args[0], [self._iterate_static(a, frame, node) for a in args[1:]]
        if func is builtins.map:
            made = list if isinstance(args[1], list) else tuple
            return made(self._call(function, items, {}, frame, node) for items in zip(*iterables))
        return [item for item in iterables[0]
                if self._truth(item if function is None else self._call(function, (item,), {}, frame, node),
                               frame, node)]

    def _class_of(self, value: TensorValue) -> type:
        """``Parameter`` for a captured Parameter, ``Tensor`` for every other tensor value."""
        Tensor = LIBRARY.tensor_type
        for obj, captured in self.captures.values():
            if captured is value:
                return type(obj) if isinstance(obj, Tensor) else Tensor
        return Tensor

    def _call_method(self, value, name, args, kwargs, frame, node):
        method = inspect.getattr_static(self._class_of(value), name, None)
        if not inspect.isfunction(method):
            raise self._error(TypeError(f"unsupported operand for Tensor.{name}"), frame, node)
        return self._call_python(method, (value,) + tuple(args), kwargs, frame, node)

    def _call_closure(self, closure, args, kwargs, frame, node):
        """Evaluate a lambda's or nested def's body with its parameters bound over the frame it was made in."""
        params = [a.arg for a in closure.node.args.args]
        if kwargs or len(args) != len(params):
            raise self._error(TypeError(f"{getattr(closure.node, 'name', '<lambda>')}() takes {len(params)} "
                                        f"positional arguments but {len(args) + len(kwargs)} were given"), frame, node)
        env = dict(closure.env)
        env.update(zip(params, args))
        saved = self._user_loc, self._line_loc
        try:
            return self.closure_value(closure, env)
        finally:
            self._user_loc, self._line_loc = saved

    def closure_value(self, closure, env):
        """What ``closure``'s body gives with ``env`` bound: a lambda's expression, a nested def's return value."""
        frame = Frame(closure.frame.source, env)
        if isinstance(closure.node, ast.Lambda):
            return self._eval(closure.node.body, frame)
        activation = ("nested def", id(closure.node))
        if activation in self.program._active:
            raise not_supported(f"recursive call of the nested function {closure.node.name!r}",
                                frame.source.loc(closure.node))
        self.program._active.append(activation)
        try:
            completion = self.function_end(self._exec_stmts(closure.node.body, frame), frame.source.loc(closure.node))
        finally:
            self.program._active.pop()
        return completion.value if completion.kind == Completion.RETURN else None

    def _call_python(self, fn, args, kwargs, frame, node):
        """Interpret ``fn``'s source in place (library functions and methods of the user's Cell)."""
        source = parse_function(fn)
        activation = activation_key(fn, args[0] if args else None)
        if activation in self.program._active:
            raise not_supported(f"recursive call of {fn.__qualname__!r}", self._loc(frame, node))
        if not source.is_library:
            self.program.sources[source.qualname] = source.source
            self.program.guards.defaults_read(fn)
        saved = self._user_loc, self._line_loc
        if frame is not None and node is not None and not frame.source.is_library:
            self._user_loc = frame.source.loc(node)  # library code reports errors at this user expression
        self._line_loc = self._loc(frame, node) if frame is not None else self._line_loc
        self.program._active.append(activation)
        try:
            signature = inspect.signature(fn)
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as error:
                raise self._error(TypeError(f"{fn.__qualname__}(): {error}"), frame, node) from None
            bound.apply_defaults()
            env = {}
            for name, value in bound.arguments.items():
                if signature.parameters[name].kind is inspect.Parameter.VAR_POSITIONAL:
                    value = tuple(value)
                env[name] = value
            completion = self._run_function(source, env)
        finally:
            self.program._active.pop()
            self._user_loc, self._line_loc = saved
        if completion.kind == Completion.RETURN:
            return completion.value
        return None

    def _call_user(self, fn, self_obj, args, kwargs, frame, node, inline_reads=True):
        """A call of a user function (or Cell method) as an ``ir.Call`` of its own function; one that reads
        a tensor's value is interpreted here instead, where the value can be read (``compiler.fallback``),
        and so is one given a Parameter, which it may update (``AssignAdd()(grad_sum, grad)``)."""
        passes_closure = holds_closure((*args, *kwargs.values()))   # its body reads the caller's names
        if passes_closure and not inline_reads:
            raise not_supported("a lambda or nested function passed to a Cell with a bprop or backward hooks",
                                self._loc(frame, node))
        if passes_closure or self._passes_parameter(args, kwargs):
            return self._call_python(fn, args if self_obj is None else (self_obj, *args), kwargs, frame, node)
        try:
            return self.program.call_function(self, fn, self_obj, args, kwargs, self._loc(frame, node),
                                              hint=_called_attribute(node))
        except ReturnsClosure:
            if not inline_reads:
                raise
        except ReadInCallee:
            if self._concrete is None or not inline_reads:
                raise
        return self._call_python(fn, args if self_obj is None else (self_obj, *args), kwargs, frame, node)

    def _passes_parameter(self, args, kwargs) -> bool:
        """Whether an argument, or an item of a tuple or list argument, is a captured Parameter."""
        Parameter = LIBRARY.parameter_type
        values = [v for v in (*args, *kwargs.values()) if isinstance(v, TensorValue)]
        values += [i for v in (*args, *kwargs.values()) if isinstance(v, (tuple, list))
                   for i in v if isinstance(i, TensorValue)]
        return any(issubclass(self._class_of(v), Parameter) for v in values)

    def _call_cell(self, cell, args, kwargs, frame, node):
        """A sub-cell call with its forward (pre-)hooks compiled in, as MindSpore does: a pre-hook's
        returned tuple replaces the inputs, a hook's non-None return the output."""
        parts = LIBRARY.cell_parts(cell)
        self.program.note_cell(cell)
        if parts.construct is None or not inspect.isfunction(parts.construct):
            raise self._error(AttributeError("For 'Cell', the method 'construct' is not defined."), frame, node)
        inputs = tuple(args)
        for hook in parts.pre_hooks:
            result = self._call_hook(hook, (cell, inputs), frame, node)
            if result is not None:
                inputs = result if isinstance(result, tuple) else (result,)
        hooked = parts.hooks and parts.bprop is None and not parts.recompute
        if hooked and needs_custom_backward(self.program, cell, parts):
            # MindSpore's backward hooks see the cotangent of the output the forward hooks return: one call of both
            output = self._call_user(_construct_then_hooks, cell, (parts.hooks, *inputs), kwargs, frame, node,
                                     inline_reads=False)
            attach_custom_backward(self, cell, parts, inputs, output, self._loc(frame, node))
            return output
        output = self._call_construct(cell, parts, inputs, kwargs, frame, node)
        for hook in parts.hooks:
            result = self._call_hook(hook, (cell, inputs, output), frame, node)
            if result is not None:
                output = result
        return output

    def _call_construct(self, cell, parts, args, kwargs, frame, node):
        if parts.cast_dtype is not None:  # to_float: floating inputs are cast first
            args = tuple(self._cast_floating(a, parts.cast_dtype) for a in args)
        if needs_custom_backward(self.program, cell, parts):  # a bprop or backward hooks: a call of its own
            output = self._call_user(parts.construct, cell, args, kwargs, frame, node, inline_reads=False)
            attach_custom_backward(self, cell, parts, args, output, self._loc(frame, node))
            return output
        if is_library(parts.construct) and not parts.has_parameters:
            return self._call_python(parts.construct, (cell,) + args, kwargs, frame, node)
        return self._call_user(parts.construct, cell, args, kwargs, frame, node)

    def _call_hook(self, hook, args, frame, node):
        if inspect.ismethod(hook):
            return self._call_python(hook.__func__, (hook.__self__,) + args, {}, frame, node)
        if not inspect.isfunction(hook):
            raise self._error(NotSupportedError(f"the hook {hook!r} in compiled code: hooks must be Python "
                                                "functions"), frame, node)
        return self._call_python(hook, args, {}, frame, node)

    def _cast_floating(self, value, target):
        if isinstance(value, TensorValue) and value.aval.dtype.kind == "f" and value.aval.dtype != target:
            return self._apply("cast", (value,), {"dtype": target})
        if isinstance(value, (tuple, list)):
            return copy_container(value, [self._cast_floating(v, target) for v in value])
        return value

    def _print_effect(self, args, frame, node):
        """``print``: an Effect of the tensors printed; tuples and lists holding tensors (a hook's
        arguments) are printed whole, from a template whose tensors are ``...`` (``print_tree``)."""
        if not any(isinstance(a, (tuple, list)) for a in args):
            self.builder.append(ir.Effect("print", tuple(self._atom(a) for a in args), self._loc(frame, node)))
            return
        leaves = []

        def hole(value):
            leaves.append(self._atom(value))
            return ...

        template = tree.tree_map(hole, tuple(args), lambda v: isinstance(v, TensorValue))
        self.builder.append(ir.Effect("print_tree", (ir.Const(template), *leaves), self._loc(frame, node)))

    def print_each(self, args, loc) -> None:
        """``ops.Print()(*args)``: a ``print_each`` effect of Tensors and Python scalars and strings."""
        for value in args:
            if isinstance(value, (tuple, list)) and any(isinstance(v, TensorValue) for v in value):
                raise located(TypeError(f"For 'Print', each input must be a Tensor, bool, int, float or str, "
                                        f"but got a {type(value).__name__} of Tensors."), loc)
        self.builder.append(ir.Effect("print_each", tuple(self._atom(a) for a in args), loc))

    def host_effect(self, key: str, args, loc, results: tuple = ()) -> tuple:
        """A call out of the kernel into the host function registered under ``key`` on ``args`` (tensors and
        Python constants): ``results`` are the ``(shape, dtype)`` of the arrays it returns (none: a call for
        its side effect, ``ops.ScalarSummary``); their abstract values."""
        targets = tuple(self.names.var("host_result", ir.Aval(shape, dtype)) for shape, dtype in results)
        self.builder.append(ir.Effect("host_call", (ir.Const(key), *(self._atom(a) for a in args)), loc, targets))
        return tuple(TensorValue(target) for target in targets)

    def _isinstance(self, value, classes):
        Tensor, Parameter = LIBRARY.tensor_type, LIBRARY.parameter_type
        if isinstance(value, HostValue):   # a value read from a tensor: its type is guarded
            self.guard_type(value, None, None)
            return isinstance(value.concrete, classes)
        if isinstance(value, TensorValue):
            classes = classes if isinstance(classes, tuple) else (classes,)
            is_param = any(obj_tv is value for _, obj_tv in self.captures.values()
                           if isinstance(_, Parameter))
            return any(issubclass(Tensor, c) or (is_param and issubclass(Parameter, c)) for c in classes)
        return isinstance(value, classes)

    def _make_constant_tensor(self, cls, args, kwargs, frame, node):
        if args and isinstance(args[0], (list, tuple)) and holds_nested(TensorValue, args[0]) \
                and cls.__name__ != "Parameter":   # Tensor([x.sum(), 0.0]), Tensor([i, 0, 1], ms.int32)
            return self._tensor_of_sequence(args[0], kwargs.get("dtype", args[1] if len(args) > 1 else None),
                                            frame, node)
        if args and _holds(HostValue, args[:1], {}) and cls.__name__ != "Parameter":  # Tensor(x.asnumpy())
            dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
            return self.host_tensor(self.host_pack(args[0], frame, node), dtype, frame, node)
        if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
            if cls.__name__ == "Parameter":
                raise not_supported("creating a Parameter inside construct", self._loc(frame, node))
            if args and isinstance(args[0], TensorValue) and len(args) + len(kwargs) == 1:
                return args[0]
            dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
            return self._apply("cast", (args[0],), {"dtype": np.dtype(LIBRARY.dtype_to_numpy(dtype))})
        result = cls(*args, **kwargs)
        if issubclass(cls, LIBRARY.parameter_type) or getattr(result, "is_placeholder", False):
            self._created[id(result)] = result
            return result
        return self._built_tensor(result)

    def _tensor_of_sequence(self, data, dtype, frame, node) -> TensorValue:
        """``Tensor(data, dtype)`` of a (nested) list or tuple holding tensor values, as eager mode makes
        it: NumPy's array of the items in MindSpore's default dtype (floats Float32, ints Int64), then cast
        to ``dtype``; the shape and dtypes found on zero arrays standing in for the tensors (and on this
        call's value of a value read, ``float(x.sum())``). Staged as a stack of the items, each cast to the
        default dtype (the gradient flows to each, as through ``Tensor(x, dtype)``; a value read is made a
        tensor when the kernel runs, its type guarded).

        Raises:
            TypeError: ragged ``data`` (eager mode's error); NotSupportedError: an item of dynamic shape.
        """
        def stand_in(item):
            if isinstance(item, TensorValue):
                if None in item.aval.shape:
                    raise not_supported("Tensor(...) of a list holding a tensor of dynamic shape",
                                        self._loc(frame, node))
                return np.zeros(item.aval.shape, item.aval.dtype)
            if isinstance(item, HostValue):
                return item.concrete
            return [stand_in(i) for i in item] if isinstance(item, (list, tuple)) else item

        default = LIBRARY.tensor_array(stand_in(data), None).dtype
        made = LIBRARY.tensor_array(stand_in(data), dtype).dtype

        def staged(item):
            if isinstance(item, (list, tuple)):
                return self._apply("stack", tuple(staged(i) for i in item), {"axis": 0}, frame, node)
            if isinstance(item, HostValue):
                item = self.host_tensor(item, None, frame, node)
            return self._apply("cast", (item if isinstance(item, TensorValue) else np.asarray(item),),
                               {"dtype": default}, frame, node)

        tensor = staged(data)
        return tensor if made == default else self._apply("cast", (tensor,), {"dtype": made}, frame, node)

    def _built_tensor(self, tensor) -> TensorValue:
        """A Tensor built in compiled code from Python values: a value of the IR like any other (its
        data a constant, cast to its dtype), so that rebinding it in a loop carries it through the
        loop; the optimizer folds what its known value decides."""
        array = tensor._array
        return self._apply("cast", (array,), {"dtype": array.dtype})

    def _assign_effect(self, args, frame, node):
        target, value = self._from_python(args[0]), args[1]  # a Parameter taken from a tuple is captured here
        if not isinstance(target, TensorValue) or not any(tv is target for _, tv in self.captures.values()):
            raise self._error(TypeError("ops.assign expects a Parameter as its first argument"), frame, node)
        value = self._atom(value)
        if isinstance(value, ir.Var) and value.aval != target.aval:
            value = self._apply("cast", (TensorValue(value),), {"dtype": target.aval.dtype}).var
        self.builder.append(ir.Effect("assign", (target.var, value), self._loc(frame, node)))
        return target


def _called_attribute(node) -> str | None:
    """The name a call reads its callee from (``fc1`` of ``self.fc1(x)``, ``layers`` of
    ``self.layers[0](x)``, ``layer`` of ``layer(x)``), which names its result; None for other calls."""
    func = node.func if isinstance(node, ast.Call) else None
    while isinstance(func, ast.Subscript):
        func = func.value
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) and func.attr != "construct" else None


def _construct_then_hooks(self, hooks, *inputs):
    """A Cell's construct and its forward hooks, staged as one call where backward hooks wrap both."""
    output = self.construct(*inputs)
    for hook in hooks:
        result = hook(self, inputs, output)
        if result is not None:
            output = result
    return output
