"""Specialize: partial evaluation of normalized source over an input signature.

The specializer interprets the user's function body with *abstract* arguments. Python-level values
(shapes, constants, ``self.training``, attributes of ``self``, loop bounds) are ordinary Python
objects and are computed right away, at compile time. Tensors are :class:`TensorValue`\\ s: each
wraps an IR variable of known shape and dtype, and every op applied to one is *staged* — appended to
the function being built as an ``Apply`` in A-normal form, checked by the op's shape/dtype rule.

Library code is interpreted the same way: ``x + y`` runs the source of ``Tensor.__add__``,
``ops.mean(x)`` the source of ``ops.functional.mean``; the one intrinsic is
``npspore.ops.eager.run(op, *operands, **static)``, which stages an op. Errors raised anywhere are
reported at the innermost line of *user* code (npspore's own frames are transparent).

Control flow on Python values is evaluated (only the taken branch is compiled; loops over tuples,
lists and CellLists are unrolled). Control flow on tensor values becomes structured IR: ``If`` with
merged outputs, ``ForRange`` for ``range`` loops (kept as loops), ``While``.

Calls to sub-Cells and to user functions become ``Call``\\ s of their own functions, one per
(callable, structure, signature): twelve identical layers compile once. Parameters and other
pre-existing Tensors that the code reads are *captured*: they become extra function parameters, so
their current arrays are passed at every call and ``set_data`` needs no recompile.
"""
from __future__ import annotations

import ast
import builtins
import inspect
import operator

import numpy as np

from ..context import LAX
from ..core import tree
from ..opdef import Aval, OpShapeError, OpTypeError
from ..shape_rules import constant_array, taken_operands
from . import ir, itemassign
from .arrayindex import mixed_indexed
from .builder import BlockBuilder, NameSupply
from .cachekey import ObjectPaths, object_fingerprint, resolve_path
from .calls import Calls
from .cellstate import CellState, StateSlots
from .control import ControlFlow, LoopEnd, LoopStep
from .loopsyntax import returns_from_stepped_loop, returns_without_exits
from .dynamicdims import UNKNOWN_DIM, UnknownDim, UnknownDimUse, reshape_dims, static_attributes
from .errors import NotSupportedError, located, not_supported
from .fallback import FallbackReads, is_literal
from .frontend import parse_function
from .guards import GuardRecorder
from .kernel import HookVersions
from .library import LIBRARY, activation_key
from .normalize import normalized
from .pythonforms import PythonForms
from .signature import OutputTree
from .values import (NORMAL, BoundMethod, Closure, Completion, Frame, HostValue, IndexSlot, NeedsStatic, Poison,
                     ReturnsClosure, ScalarSlot, Slot, TensorValue, copy_container, flatten_abstract, fresh_inputs,
                     holds_closure, holds_nested, tree_node)


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.MatMult: operator.matmul, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
           ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift}

_DUNDER = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
           ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.BitAnd: "and", ast.BitOr: "or",
           ast.BitXor: "xor"}

_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: lambda a, b: _same(a, b),
           ast.IsNot: lambda a, b: not _same(a, b),
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}

def _same(a, b) -> bool:
    """``a is b`` in compiled code: MindSpore compares Python constants (strings, numbers) by value,
    so ``self.mode is "train"`` holds whichever string objects the two are."""
    if type(a) is type(b) and isinstance(a, (str, int, float, bool, bytes)):
        return a == b
    return a is b


_CMP_DUNDER = {ast.Eq: ("__eq__", "__eq__"), ast.NotEq: ("__ne__", "__ne__"), ast.Lt: ("__lt__", "__gt__"),
               ast.LtE: ("__le__", "__ge__"), ast.Gt: ("__gt__", "__lt__"), ast.GtE: ("__ge__", "__le__")}

_HOST_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
                 ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: operator.contains, ast.NotIn: operator.contains}

_UNARY_DUNDER = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}


class ProgramBuilder:
    """Builds one :class:`ir.Module`: the entry function and every function it calls.

    ``functions`` maps generated names to functions; ``_shared`` maps (callable, structure,
    signature) to an already specialized function, so identical sub-cells share one function.
    """

    def __init__(self, backward_hooks: bool = False, syntax_level: int = LAX):
        self.backward_hooks = backward_hooks      # whether cells' backward hooks run (PYNATIVE grad)
        self.syntax_level = syntax_level          # context.STRICT/COMPATIBLE refuse tensor value reads
        self.warned_backward_hooks = False
        self.functions: dict[str, ir.Function] = {}
        self._shared: dict = {}
        self._object_paths: dict = {}       # id(bound object) -> its ObjectPaths (the objects are unchanged meanwhile)
        self.names = NameSupply()          # function names, unique in the module
        self.sources: dict[str, str] = {}     # qualname -> source text of every involved callable
        self._active: list = []               # activation_key of the calls being specialized (recursion check)
        self.hook_guards: dict = {}           # id(cell) -> (weakref to cell, its hook version)
        self.guards = GuardRecorder(LIBRARY.is_cell)   # Python values read at compile time
        self.host_results = False   # whether the entry may return values computed in Python (a forward kernel)
        self.staged_gradient = False   # whether a gradient function's call is compiled in (a training step)
        self.gradients_final = False   # whether gradients staged here are never differentiated again (a forward kernel)
        self.staging_gradients = 0     # how many staged gradients' functions are being specialized
        self.state = StateSlots()      # the Cell attributes the kernel sets (compiler.cellstate)
        self.graph_floats: dict = {}   # id(float) -> (it, its float32 value): compiler.tensorbuiltins

    def note_cell(self, cell) -> None:
        """Record that a call of ``cell`` (with its forward hooks) is compiled into this program."""
        if id(cell) not in self.hook_guards:
            self.hook_guards[id(cell)] = HookVersions.guard(cell)

    def object_paths(self, root) -> ObjectPaths:
        """The paths from ``root`` to the objects below it (one walk per root and program)."""
        paths = self._object_paths.get(id(root))
        if paths is None or paths.root is not root:
            paths = self._object_paths[id(root)] = ObjectPaths(root)
        return paths

    def specialize_entry(self, fn, self_obj, args, kwargs, *, input_avals=None) -> tuple:
        """Specialize ``fn`` (a plain function; ``self_obj`` is its bound self or None).

        ``args``/``kwargs`` are abstract values built by :func:`abstract_inputs`. Returns
        ``(function, captured_objects)``: the entry function's params are its tensor inputs
        followed by one param per captured Parameter/Tensor object, in ``captured_objects`` order.
        """
        spec = FunctionSpecializer(self, fn, self_obj, self.names.fresh(function_name(fn, self_obj)))
        spec._concrete = {}   # the entry call's arrays: its tensor values can be read (compiler.fallback)
        try:
            function = spec.build(args, kwargs)
        except NeedsStatic as error:  # nothing could retry it (by unrolling a loop)
            loc = error.loc or spec._user_loc
            assert loc is not None, "build() sets the user location before interpreting"
            raise located(TypeError(NeedsStatic.MESSAGE), loc) from None
        self.functions[function.name] = function
        return function, [obj for obj, _ in spec.captures.values()]

    def call_function(self, caller, fn, self_obj, args, kwargs, loc, hint=None):
        """Stage a call of a user function or Cell as an ``ir.Call``; returns the result value (named
        ``hint`` when given: the attribute the caller called, ``fc1`` for ``self.fc1(x)``)."""
        code = fn.__code__
        if activation_key(fn, self_obj) in self._active:
            raise not_supported(f"recursive call of {fn.__qualname__!r}", loc)
        leaves, structure = flatten_abstract((args, tuple(sorted(kwargs.items()))))
        python_ints = tuple(leaf.var in caller._python_ints for leaf in leaves)
        key = (code, object_fingerprint(self_obj), structure, python_ints)
        entry = self._shared.get(key)
        if entry is None:
            abstract_args, abstract_kwargs = fresh_inputs(args, kwargs, caller._python_ints)
            spec = FunctionSpecializer(self, fn, self_obj, self.names.fresh(function_name(fn, self_obj)))
            spec._user_loc = caller._user_loc   # an error in a library callee (a SequentialCell) names the call
            function = spec.build(abstract_args, abstract_kwargs)
            self.functions[function.name] = function
            capture_paths = [self.object_paths(self_obj).capture_path(obj) for obj, _ in spec.captures.values()]
            entry = (function, capture_paths, spec.result_template)
            self._shared[key] = entry if not spec.writes_state else None   # its slots name this cell's attributes
        function, capture_paths, template = entry
        captured_args = []
        for path in capture_paths:
            obj = resolve_path(path, self_obj)
            captured_args.append(caller.capture(obj).var)
        call_args = tuple(leaf.var if isinstance(leaf, TensorValue) else ir.Const(leaf) for leaf in leaves)
        targets = tuple(caller.names.var(hint if hint and not k else r.name, r.aval)
                        for k, r in enumerate(function.body.results))
        if hint and targets:
            caller._temps[targets[0]] = HELD_NAMED
        caller.builder.append(ir.Call(targets, function.name, call_args + tuple(captured_args), loc))
        return tree.unflatten(template, (TensorValue(t) for t in targets))


OP_NAMED, HELD_NAMED = 0, 1   # how firmly a value not yet bound to a user's variable is named


def function_name(fn, self_obj) -> str:
    """The IR name of a specialized callable: ``Dense_construct``, ``f``, ``lambda_``."""
    if self_obj is not None:
        return f"{type(self_obj).__name__}_{fn.__name__}"
    return fn.__name__ if fn.__name__ != "<lambda>" else "lambda_"


class FunctionSpecializer(Calls, CellState, ControlFlow, FallbackReads, PythonForms):
    """Specializes one function body into one :class:`ir.Function`.

    The state it threads through the interpretation, and what always holds of it:

    * ``builder`` — the insertion point: statements go to ``builder.block``. Only
      :meth:`ControlFlow.sub_block` changes it, and restores it on leaving (errors included).
    * ``_user_loc`` — the innermost location in *user* code being interpreted; every error is reported there
      (library frames are transparent). Saved and restored around each interpreted call.
    * ``_line_loc`` — the line of the function being built that generated code cites: the
      statement of ``_home`` (or of user code) that led into whatever library code runs now.
    * ``_temps`` — Var (not its id: a later Var at a collected one's address would inherit its entry, fuzz
      seed 910610) -> how firmly a Var not yet bound to a user name is named: ``OP_NAMED`` (after its op),
      ``HELD_NAMED`` (after a library's variable or the sub-cell whose call made it). Assigning one to a user's
      name renames it after that name (``h = relu(t)`` gives ``h``), once; a library's variable renames only a
      value named after its op.
    * ``captures`` — id(obj) -> (obj, TensorValue) of each pre-existing Tensor read, in first-read
      order: they become the params after the inputs.
    * ``_created`` — id -> each Parameter and shape-only placeholder created at compile time (constants, never
      captured; kept, so no other Tensor takes a collected one's id); any other Tensor built here is a TensorValue.
    * ``_dynamic_loops`` — how many loops that stay loops enclose the current block.
    * ``_exit_target`` — what a tensor-dependent ``break``/``continue`` here ends: ``"staged"`` (the
      body of a loop that stays a loop), ``"unrolled"`` (a ``for`` over Python values, whose later
      iterations are then staged under ``if not broke``), or None (it is refused).
    """

    def __init__(self, program: ProgramBuilder, fn, self_obj, name: str):
        self.program = program
        self.fn = fn
        self.self_obj = self_obj
        self.name = name
        self.names = NameSupply()
        self.builder = BlockBuilder(self.names)
        self.captures: dict[int, tuple] = {}       # id(obj) -> (obj, TensorValue)
        self.params: list[ir.Var] = []
        self.result_template = None
        self._created: dict[int, object] = {}      # Parameters made at compile time: constants
        self._user_loc: ir.Loc | None = None       # where errors are reported: innermost user code
        self._line_loc: ir.Loc | None = None       # what generated lines cite: this function's own source
        self._home: ast.FunctionDef | None = None  # the parsed source of the function being built
        self._temps: dict[ir.Var, int] = {}       # op and call results not yet named after a user variable
        self._dim_sizes: dict[ir.Var, tuple] = {}  # dim_size results: the Var of their array and the axis
        self._python_ints: set[ir.Var] = set()    # a kept range loop's index, and int arithmetic on it
        self._dynamic_loops = 0                    # depth of loops being staged as IR loops
        self._exit_target: str | None = None      # what a tensor break/continue ends (see above)
        self._concrete: dict | None = None        # Var -> this call's array (the entry only: compiler.fallback)
        self._body = self.builder.block           # the function's top block
        self._reads: dict = {}                    # (Var, kind) -> the value read and guarded

    def build(self, args, kwargs) -> ir.Function:
        """Interpret the body for abstract ``args``/``kwargs`` (from ``fresh_inputs``/``abstract_inputs``)."""
        source = parse_function(self.fn)
        self._home = source.tree
        self.program.sources[source.qualname] = source.source
        self.program._active.append(activation_key(self.fn, self.self_obj))
        try:
            bound = self._bind(self.fn, self.self_obj, args, kwargs, source)
            self._user_loc = self._user_loc or source.loc(source.tree)   # where a mutable scalar param is read
            env = {name: self._materialize_param(name, value) for name, value in bound.items()}
            completion = self._run_function(source, env)
        except UnknownDimUse as error:
            raise self._error(error) from None
        finally:
            self.program._active.pop()
        value = self._returned(self.graph_returned(completion.value)) if completion.kind == Completion.RETURN else None
        return self.function_returning(value, source.qualname, source.loc(source.tree),
                                       tuple(capture_label(obj) for obj, _ in self.captures.values()))

    def function_returning(self, value, qualname: str, loc, param_names: tuple) -> ir.Function:
        """The function specialized, returning ``value`` (a lambda or def in it refused: ``ReturnsClosure``), its
        params the inputs and then the captured tensors (named ``param_names``)."""
        if holds_closure((value,)):
            raise located(ReturnsClosure(f"returning a lambda or nested function from {qualname!r} is not "
                                         "supported in compiled code (call it in the function that makes it)"), loc)
        leaves, template = self._result_leaves(value)
        self.result_template = template
        self.builder.block.results = tuple(leaves)
        captured = [tv.var for _, tv in self.captures.values()]
        return ir.Function(name=self.name, params=tuple(self.params) + tuple(captured), body=self.builder.block,
                           source=qualname, loc=loc, param_names=param_names,
                           output_tree=OutputTree(tree_node(value, iter(range(len(leaves))))))

    def _bind(self, fn, self_obj, args, kwargs, source) -> dict:
        signature = inspect.signature(fn)
        try:
            if self_obj is not None:
                bound = signature.bind(self_obj, *args, **kwargs)
            else:
                bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise located(TypeError(f"{fn.__qualname__}(): {error}"), source.loc(source.tree)) from None
        bound.apply_defaults()
        if not source.is_library:
            self.program.guards.defaults_read(fn)
        values = {}
        for name, value in bound.arguments.items():
            parameter = signature.parameters[name]
            if parameter.kind is parameter.VAR_POSITIONAL:
                value = tuple(value)
            values[name] = value
        return values

    def _materialize_param(self, name, value):
        if isinstance(value, Slot):
            var = self.names.var(name, value.aval)
            self.params.append(var)
            if self._concrete is not None and value.array is not None:
                self._concrete[var] = value.array
            if isinstance(value, IndexSlot):
                self._python_ints.add(var)
            if isinstance(value, ScalarSlot):   # mutable(2): a Python value read when the kernel runs
                return self.host(ir.HostOp("method", "item"), (TensorValue(var),), {}, None, None,
                                 concrete=value.value)
            return TensorValue(var)
        if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
            items = [self._materialize_param(f"{name}_{i}", v) for i, v in enumerate(value)]
            return copy_container(value, items)
        if isinstance(value, dict):
            return copy_container(value, {k: self._materialize_param(f"{name}_{k}", v) for k, v in value.items()})
        return value

    def _result_leaves(self, value):
        """``(result Vars, TreeDef)`` of the returned value; a Python value is returned as is
        (MindSpore returns 3 for ``return 3``), a name without a single value is an error."""
        leaves, treedef = tree.flatten(value, lambda v: isinstance(v, (TensorValue, HostValue, Poison)))
        for leaf in leaves:
            if isinstance(leaf, Poison):
                raise self._error(leaf.error())
        return [leaf.var for leaf in leaves], treedef

    def _returned(self, value):
        """The returned value: a value read from a tensor is returned as the kernel computes it by a
        forward kernel's entry; elsewhere (a gradient, a function it calls) by its guarded value."""
        if self.program.host_results and self._concrete is not None:
            return value
        return tree.tree_map(lambda v: self.concretize(v, None, None) if isinstance(v, HostValue) else v, value,
                             lambda v: isinstance(v, (TensorValue, HostValue, Poison)))

    def capture(self, obj) -> TensorValue:
        """The TensorValue of a pre-existing Tensor/Parameter read by this function."""
        entry = self.captures.get(id(obj))
        if entry is None:
            var = self.names.var(self._capture_name(obj), Aval.of(obj._array))
            if self._concrete is not None:
                self._concrete[var] = obj._array
            entry = (obj, TensorValue(var))
            self.captures[id(obj)] = entry
        return entry[1]

    def _capture_name(self, obj) -> str:
        """Name a captured tensor by its attribute path from ``self`` (``weight``, ``blocks_0_bias``),
        so a function shared by identical sub-cells reads the same for each of them."""
        if self.self_obj is not None:
            path = self.program.object_paths(self.self_obj).capture_path(obj)
            if path[0] == "self":
                keys = [str(k) for k in path[1] if k not in LIBRARY.cell_storage]
                if keys:
                    return "_".join(keys)
        return capture_label(obj)

    def _run_function(self, source, env) -> Completion:
        tree = normalized(source.tree)
        frame = Frame(source, env)
        return self.function_end(self._exec_stmts(tree.body, frame), source.loc(tree))

    def _error(self, error: BaseException, frame=None, node=None):
        if frame is not None and node is not None and not frame.source.is_library:
            return located(error, frame.source.loc(node))
        if self._user_loc is not None:
            return located(error, self._user_loc)
        return error

    def _exec_stmts(self, stmts, frame) -> Completion:
        for index, stmt in enumerate(stmts):
            if not frame.source.is_library:
                self._user_loc = frame.source.loc(stmt)
            if not frame.source.is_library or frame.source.tree is self._home:
                self._line_loc = frame.source.loc(stmt)
            if isinstance(stmt, ast.If):
                test = self._eval(stmt.test, frame)
                if isinstance(test, TensorValue) and _raises(stmt):
                    # assert on a tensor, raise under a tensor if: decided by its value (JIT fallback)
                    test = self.read_value(test, bool, frame, stmt.test)
                elif isinstance(test, TensorValue):
                    return self._dynamic_if(stmt, test, stmts[index + 1:], frame)
                branch = stmt.body if self._truth(test, frame, stmt.test) else stmt.orelse
                return self._exec_stmts(list(branch) + list(stmts[index + 1:]), frame)
            if isinstance(stmt, ast.For) and returns_without_exits(stmt):
                return self._exec_stmts(self._unrolled_statements(stmt, frame) + list(stmts[index + 1:]), frame)
            if isinstance(stmt, LoopStep):
                return self._exec_stmts(self._loop_step(stmt, frame) + list(stmts[index + 1:]), frame)
            if isinstance(stmt, LoopEnd):
                continue
            if isinstance(stmt, (ast.For, ast.While)) and returns_from_stepped_loop(stmt):
                completion, unrolled = self._returning_loop(stmt, frame)
                if unrolled is not None:
                    return self._exec_stmts(unrolled + list(stmts[index + 1:]), frame)
                if completion.kind == Completion.MAYBE_RETURN:  # a loop that stays a loop returned on some paths
                    return self._after_join(completion, stmts[index + 1:], frame, frame.source.loc(stmt))
            else:
                completion = self._exec(stmt, frame)
            if completion.kind in (Completion.BREAK, Completion.CONTINUE):
                rest = self._jump(completion, stmts[index + 1:])
                if rest is not None:
                    return self._exec_stmts(rest, frame)
            if completion is not NORMAL:
                return completion
        return NORMAL

    def _exec(self, stmt, frame) -> Completion:
        try:
            return self._exec_inner(stmt, frame)
        except NeedsStatic as error:
            if error.loc is None and not frame.source.is_library:
                error.loc = frame.source.loc(stmt)
            raise
        except NotSupportedError:
            raise
        except Exception as error:  # noqa: BLE001 - any error the user's code causes gets its location
            if getattr(error, "loc", None) is not None:
                raise
            raise self._error(error, frame, stmt) from None

    def _exec_inner(self, stmt, frame) -> Completion:
        if isinstance(stmt, ast.Assign):
            value = self._eval(stmt.value, frame)
            self._assign(stmt.targets[0], value, frame)
            return NORMAL
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._assign(stmt.target, self._eval(stmt.value, frame), frame)
            return NORMAL
        if isinstance(stmt, ast.AugAssign):
            if isinstance(stmt.target, ast.Subscript) and isinstance(stmt.target.value, ast.Name):
                itemassign.assign_augmented_item(self, stmt, frame)
                return NORMAL
            raise not_supported("augmented assignment to a subscript or attribute", frame.source.loc(stmt))
        if isinstance(stmt, ast.Expr):
            self._eval(stmt.value, frame)
            return NORMAL
        if isinstance(stmt, ast.Return):
            value = self._eval(stmt.value, frame) if stmt.value is not None else None
            return Completion(Completion.RETURN, value)
        if isinstance(stmt, ast.FunctionDef):   # a nested def: a Closure, as a lambda
            self._assign(ast.Name(id=stmt.name, ctx=ast.Store()), self._closure(stmt, frame), frame)
            return NORMAL
        if isinstance(stmt, ast.Pass):
            return NORMAL
        if isinstance(stmt, ast.Break):
            return Completion(Completion.BREAK)
        if isinstance(stmt, ast.Continue):
            return Completion(Completion.CONTINUE)
        if isinstance(stmt, ast.Raise):
            exc = self._eval(stmt.exc, frame) if stmt.exc is not None else RuntimeError("re-raise")
            if isinstance(exc, type):
                exc = exc()
            raise self._error(exc, frame, stmt)
        if isinstance(stmt, ast.For):
            return self._for(stmt, frame)
        if isinstance(stmt, ast.While):
            return self._while(stmt, frame)
        if isinstance(stmt, ast.With):
            return self._with_no_grad(stmt, frame)
        raise not_supported(f"'{type(stmt).__name__}' statement", frame.source.loc(stmt))

    def _assign(self, target, value, frame):
        if isinstance(target, ast.Name):
            firmness = self._temps.get(value.var) if isinstance(value, TensorValue) else None
            if firmness is not None and not frame.source.is_library:
                del self._temps[value.var]
                value.var.name = self.names.fresh(target.id)
            elif firmness == OP_NAMED:   # a library's variable names it until the user's code does
                self._temps[value.var] = HELD_NAMED
                value.var.name = self.names.fresh(target.id)
            frame.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = self._unpack(value, len(target.elts), frame, target)
            for element, item in zip(target.elts, items):
                self._assign(element, item, frame)
        elif isinstance(target, ast.Subscript):
            container = self._eval(target.value, frame)
            if isinstance(container, TensorValue):   # x[index] = value: x bound to a new tensor
                return itemassign.assign_item(self, target, container, value, frame)
            container[self._eval(target.slice, frame)] = value
        elif isinstance(target, ast.Attribute):
            self._assign_attribute(target, value, frame)
        else:
            raise not_supported(f"assignment to {type(target).__name__}", frame.source.loc(target))

    def _assign_attribute(self, target, value, frame):
        """``obj.name = value`` in compiled code, as MindSpore's graph mode does it: a Parameter is
        updated in place (like ``ops.assign``); any other attribute is set to the Python value when
        the code is compiled (MindSpore 2.10 sets it on the object too)."""
        obj = self._eval(target.value, frame)
        value = self.concretize(value, frame, target)
        current = getattr(obj, target.attr, None)
        if isinstance(current, LIBRARY.parameter_type):
            parameter = self._from_python(current)
            if not isinstance(value, TensorValue):
                value = self._from_python(LIBRARY.tensor_type(np.asarray(value, dtype=parameter.aval.dtype)))
            self._assign_effect((parameter, value), frame, target)
        else:
            self.set_attribute(obj, target.attr, value, frame, target)

    def _unpack(self, value, count, frame, node):
        if isinstance(value, TensorValue):
            if not value.aval.shape or value.aval.shape[0] != count:
                raise self._error(ValueError(
                    f"cannot unpack a tensor of shape {value.aval.shape} into {count} names"), frame, node)
            return [self._apply("getitem", (value,), {"index": i}) for i in range(count)]
        items = self.host_items(value, frame, node) if isinstance(value, HostValue) else list(value)
        if len(items) != count:
            raise self._error(ValueError(
                f"cannot unpack {len(items)} values into {count} names"), frame, node)
        return items

    def _eval(self, node, frame):
        method = getattr(self, "_eval_" + type(node).__name__, None)
        if method is None:
            raise not_supported(f"the expression '{type(node).__name__}'", frame.source.loc(node))
        return method(node, frame)

    def _eval_Lambda(self, node, frame):
        return self._closure(node, frame)

    def _closure(self, node, frame) -> Closure:
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs or getattr(
                node, "decorator_list", None):
            what = "a lambda" if isinstance(node, ast.Lambda) else "a nested function"
            raise not_supported(f"{what} with defaults, *args, **kwargs, keyword-only parameters or decorators",
                                frame.source.loc(node))
        return Closure(node, frame)

    def _eval_Constant(self, node, frame):
        return node.value

    def _eval_Name(self, node, frame):
        if node.id in frame.env:
            value = frame.env[node.id]
        elif node.id in frame.source.closure:
            value = frame.source.closure[node.id]
            if not frame.source.is_library:
                self.program.guards.closure_read(frame.source.qualname, frame.source.cells[node.id], node.id, value)
        elif node.id in frame.source.globals:
            value = frame.source.globals[node.id]
            if not frame.source.is_library:
                self.program.guards.global_read(frame.source.globals, node.id, value)
        elif hasattr(builtins, node.id):
            value = getattr(builtins, node.id)
        else:
            raise self._error(NameError(f"name '{node.id}' is not defined"), frame, node)
        if isinstance(value, Poison):
            raise self._error(value.error(), frame, node)
        return value

    def _eval_Tuple(self, node, frame):
        return tuple(self._eval_elements(node.elts, frame))

    def _eval_List(self, node, frame):
        return list(self._eval_elements(node.elts, frame))

    def _eval_elements(self, elts, frame):
        out = []
        for element in elts:
            if isinstance(element, ast.Starred):
                out.extend(self._iterate_static(self._eval(element.value, frame), frame, element))
            else:
                out.append(self._eval(element, frame))
        return out

    def _eval_Dict(self, node, frame):
        result = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                result.update(self._eval(value, frame))
            else:
                result[self._static(self._eval(key, frame), frame, key)] = self._eval(value, frame)
        return result

    def _eval_Set(self, node, frame):
        return {self._static(v, frame, node) for v in self._eval_elements(node.elts, frame)}

    def _eval_FormattedValue(self, node, frame):
        return format(self._static(self._eval(node.value, frame), frame, node))

    def _eval_Slice(self, node, frame):
        parts = [self._eval(p, frame) if p is not None else None for p in (node.lower, node.upper, node.step)]
        return slice(*(self._static(p, frame, node) for p in parts))

    def _eval_Starred(self, node, frame):
        raise not_supported("starred expression here", frame.source.loc(node))

    def _eval_IfExp(self, node, frame):
        test = self._eval(node.test, frame)
        if isinstance(test, TensorValue):
            return self._apply("where", (test, self._eval(node.body, frame), self._eval(node.orelse, frame)), {})
        return self._eval(node.body if self._truth(test, frame, node.test) else node.orelse, frame)

    def _eval_BoolOp(self, node, frame):
        is_and = isinstance(node.op, ast.And)
        value = self._eval(node.values[0], frame)
        for operand in node.values[1:]:
            if isinstance(value, TensorValue):
                raise self._error(NotSupportedError(
                    "'and'/'or' on a tensor value needs its truth value at run time; use "
                    "ops.logical_and/ops.logical_or, or '&'/'|'"), frame, node)
            if self._truth(value, frame, node) != is_and:
                return value
            value = self._eval(operand, frame)
        return value

    def _eval_UnaryOp(self, node, frame):
        operand = self._as_value(self._eval(node.operand, frame))  # a Tensor read from a tuple is staged too
        function = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos,
                    ast.Invert: operator.invert}[type(node.op)]
        if isinstance(operand, HostValue):
            return self.host_operator(function, (operand,), frame, node)
        if isinstance(node.op, ast.Not):
            if isinstance(operand, TensorValue):
                return self._apply("logical_not", (operand,), {})
            return not operand
        if isinstance(operand, TensorValue):
            result = self._call_method(operand, _UNARY_DUNDER[type(node.op)], (), {}, frame, node)
            if operand.var in self._python_ints and isinstance(result, TensorValue):
                self._python_ints.add(result.var)   # -i of a loop's index: a Python int too
            return result
        return self.graph_arithmetic(function, (operand,), frame)

    def _eval_BinOp(self, node, frame):
        left = self._eval(node.left, frame)
        right = self._eval(node.right, frame)
        return self._binary(type(node.op), left, right, frame, node)

    def _binary(self, op_type, left, right, frame, node):
        Tensor = LIBRARY.tensor_type
        if isinstance(left, HostValue) or isinstance(right, HostValue):
            staged = self.host_operator(_BINOPS[op_type], (left, right), frame, node)
            if staged is not None:
                return staged
            if isinstance(left, Tensor) or isinstance(right, Tensor):   # a constant Tensor and a value read
                name = _DUNDER[op_type]
                method, operands = (f"__{name}__", (left, right)) if isinstance(left, Tensor) else \
                    (f"__r{name}__", (right, left))
                return self._call_python(inspect.getattr_static(Tensor, method), operands, {}, frame, node)
        if isinstance(left, TensorValue) or isinstance(right, TensorValue):
            python_int = self._python_int_arithmetic(op_type, left, right, node)
            name = _DUNDER[op_type]
            if isinstance(left, TensorValue):
                result = self._call_method(left, f"__{name}__", (right,), {}, frame, node)
            else:
                result = self._call_method(right, f"__r{name}__", (left,), {}, frame, node)
            if python_int and isinstance(result, TensorValue):
                self._python_ints.add(result.var)
            return result
        if isinstance(left, Tensor) or isinstance(right, Tensor):
            left, right = self._as_value(left), self._as_value(right)
            if isinstance(left, TensorValue) or isinstance(right, TensorValue):
                return self._binary(op_type, left, right, frame, node)
        # compile-time constants (Python values, Tensors built in the code): computed now, as eager does
        return self.graph_arithmetic(_BINOPS[op_type], (left, right), frame)

    def _eval_Compare(self, node, frame):
        left = self._eval(node.left, frame)
        result = None
        for op, comparator in zip(node.ops, node.comparators):
            right = self._eval(comparator, frame)
            if type(op) in _CMP_DUNDER:  # a Tensor read from a tuple is compared at run time, as in _binary
                left, right = self._as_value(left), self._as_value(right)
            value = self._host_compare(op, left, right, frame, node)
            if value is None:
                value = self._compare(op, left, right, frame, node)
            if len(node.ops) > 1 and isinstance(value, TensorValue):
                raise not_supported("chained comparison of tensors", frame.source.loc(node))
            if len(node.ops) > 1 and not self._truth(value, frame, node):
                return False
            result = value
            left = right
        return result

    def _compare(self, op, left, right, frame, node):
        """``left op right``: staged for a tensor, computed now for Python values."""
        if (isinstance(left, TensorValue) or isinstance(right, TensorValue)) and type(op) in (ast.Is, ast.IsNot) \
                and (left is None or right is None):
            return type(op) is ast.IsNot  # a tensor is never None: ``if bias is not None`` is static
        if isinstance(left, TensorValue) or isinstance(right, TensorValue):
            if type(op) not in _CMP_DUNDER:
                raise not_supported(f"'{type(op).__name__}' comparison of a tensor", frame.source.loc(node))
            forward, reflected = _CMP_DUNDER[type(op)]
            if isinstance(left, TensorValue):
                return self._call_method(left, forward, (right,), {}, frame, node)
            return self._call_method(right, reflected, (left,), {}, frame, node)
        return _CMPOPS[type(op)](self.concretize(left, frame, node), self.concretize(right, frame, node))

    def _host_compare(self, op, left, right, frame, node):
        """A comparison run when the kernel runs (JIT fallback): of a value read from a tensor with a
        Python value, or ``x in [2, 3]`` of a tensor; None for any other."""
        operands = (left, right)
        if type(op) in (ast.In, ast.NotIn) and any(isinstance(v, TensorValue) for v in operands):
            operands = tuple(self.read_tensor(v, frame, node, method="__contains__") if isinstance(v, TensorValue)
                             else v for v in operands)
        elif type(op) not in _HOST_COMPARE or not any(isinstance(v, HostValue) for v in operands) \
                or any(isinstance(v, TensorValue) for v in operands):
            return None
        if type(op) in (ast.In, ast.NotIn):
            found = self.host_operator(operator.contains, operands[::-1], frame, node)
            return found if type(op) is ast.In else self.host_operator(operator.not_, (found,), frame, node)
        return self.host_operator(_HOST_COMPARE[type(op)], operands, frame, node)

    def _eval_Attribute(self, node, frame):
        value = self._eval(node.value, frame)
        return self._getattr(value, node.attr, frame, node)

    def _getattr(self, value, attr, frame, node):
        if isinstance(value, TensorValue):
            aval = value.aval
            if attr == "shape":   # a dynamic dim is read when the kernel runs (a loop over it runs that often);
                # npspore's own layers read an UnknownDim, a -1 refusing arithmetic (compiler/dynamicdims.py)
                if frame.source.is_library:
                    return tuple(UnknownDim((value, axis)) if d is None else d for axis, d in enumerate(aval.shape))
                return self.run_time_shape(value)
            if attr == "dtype":
                return LIBRARY.dtype_from_numpy(aval.dtype)
            if attr == "ndim":
                return len(aval.shape)
            if attr == "size":   # of a dynamic shape: read when the kernel runs (npspore's own layers: UNKNOWN_DIM)
                if None in aval.shape and frame.source.is_library:
                    return UNKNOWN_DIM
                return self.run_time_size(value)
            attribute = inspect.getattr_static(self._class_of(value), attr, None)
            if isinstance(attribute, property):
                return self._call_python(attribute.fget, (value,), {}, frame, node)
            if inspect.isfunction(attribute):
                return BoundMethod(attribute, value)
            if attr == "_array":  # a Tensor method that reads the values (asnumpy, tolist, item): JIT fallback
                return self.read_tensor(value, frame, node)
            raise self._error(AttributeError(f"'Tensor' object has no attribute '{attr}'"), frame, node)
        if isinstance(value, HostValue):
            return self.host_attribute(value, attr, frame, node)
        if (assigned := self.assigned_attribute(value, attr, frame, node)) is not None:
            return assigned
        try:
            result = getattr(value, attr)
        except AttributeError as error:
            raise self._error(error, frame, node) from None
        self.program.guards.attribute_read(value, attr, result)
        if isinstance(result, LIBRARY.parameter_type) and result.requires_grad and LIBRARY.is_cell(value):
            cast_dtype = LIBRARY.cell_parts(value).cast_dtype
            if cast_dtype is not None:
                # to_float: a cell's trainable Parameters are read in its compute dtype (master weights stay)
                return self._cast_floating(self._from_python(result), cast_dtype)
        return self._from_python(result)

    def _from_python(self, result):
        """A value read from a Python object: pre-existing Tensors are captured."""
        Tensor = LIBRARY.tensor_type
        if isinstance(result, Tensor) and id(result) not in self._created and not getattr(result, "is_placeholder", False):
            return self.capture(result)
        return result

    def _eval_Subscript(self, node, frame):
        value = self._eval(node.value, frame)
        index = self._eval(node.slice, frame)
        if isinstance(value, HostValue) or isinstance(index, HostValue) and is_literal(value):
            return self.host_operator(operator.getitem, (value, index), frame, node)
        index = self.concretize(index, frame, node)
        if isinstance(value, TensorValue):
            return self._getitem(value, index, frame, node)
        if isinstance(index, TensorValue):
            raise NeedsStatic(node)
        Tensor = LIBRARY.tensor_type
        if isinstance(value, Tensor):
            return self._getitem(self._as_value(value), index, frame, node)
        try:
            return self._from_python(value[index])
        except (IndexError, KeyError, TypeError) as error:
            raise self._error(error, frame, node) from None

    def _getitem(self, tensor, index, frame, node):   # a tuple within the index is a list of indices, as MindSpore's
        parts = tuple(list(p) if isinstance(p, tuple) else p for p in (index if isinstance(index, tuple) else (index,)))
        Tensor = LIBRARY.tensor_type
        if any(isinstance(p, (TensorValue, Tensor, list)) for p in parts):
            if len(parts) != 1:
                return mixed_indexed(self, tensor, parts, frame, node)
            indices = np.asarray(parts[0]) if isinstance(parts[0], list) else parts[0]
            mask = (indices.aval if isinstance(indices, TensorValue) else np.asarray(indices)).dtype == np.bool_
            return self._apply("masked_select" if mask else "gather", (tensor, indices), {} if mask else {"axis": 0})
        return self._apply("getitem", (tensor,), {"index": index})

    def _eval_Call(self, node, frame):
        func = self._eval(node.func, frame)
        args = self._eval_elements(node.args, frame)
        kwargs = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                kwargs.update(self._eval(keyword.value, frame))
            else:
                kwargs[keyword.arg] = self._eval(keyword.value, frame)
        return self._call(func, tuple(args), kwargs, frame, node)

    def _eval_ListComp(self, node, frame):
        return self._comprehension(node, frame, list)

    def _eval_SetComp(self, node, frame):
        return self._comprehension(node, frame, set)

    def _eval_DictComp(self, node, frame):
        return self._comprehension(node, frame, dict)

    def _eval_GeneratorExp(self, node, frame):
        return iter(self._comprehension(node, frame, list))   # evaluated now: its items are values or staged

    def _loc(self, frame, node) -> ir.Loc:
        """The location generated code cites for ``node``: its own line in user code or in the
        function being built, else the line of that function that led into library code."""
        if frame is not None and node is not None and (not frame.source.is_library or frame.source.tree is self._home):
            return frame.source.loc(node)
        return self._line_loc or (frame.source.loc(node) if frame and node else ir.Loc("<unknown>", 0))

    def dim_size(self, value: TensorValue, axis: int) -> TensorValue:
        """The size of the dynamic dim ``axis`` of ``value`` when the kernel runs."""
        size = self._apply("dim_size", (value,), {"axis": axis})
        self._dim_sizes[size.var] = (value.var, axis)
        return size

    def _apply(self, op, operands, static, frame=None, node=None):
        loc = self._loc(frame, node) if frame is not None else (self._line_loc or ir.Loc("<unknown>", 0))
        if op == "reshape" and isinstance(operands[0], TensorValue):   # dynamic dims kept (compiler/dynamicdims.py)
            static = {"shape": reshape_dims(static["shape"], operands[0].var, self._dim_sizes)}
            op = "reshape_keeping" if type(static["shape"]) is tuple and None in static["shape"] else op
        else:
            static = static_attributes(op, static, self._dim_sizes)
        operands = self.host_operands(op, operands, static, frame, node)   # a value read from a tensor
        operands = taken_operands(op, operands)
        atoms = tuple(self._atom(o) for o in operands)
        try:
            result = self.builder.apply(op, atoms, static, loc=loc, hint=op)
        except KeyError:
            raise self._error(NotSupportedError(f"unknown op {op!r}"), frame, node) from None
        except (OpShapeError, OpTypeError, ValueError, TypeError) as error:
            raise self._error(error) from None
        if isinstance(result, tuple):
            for var in result:
                self._temps[var] = OP_NAMED
            return tuple(TensorValue(v) for v in result)
        self._temps[result] = OP_NAMED
        return TensorValue(result)

    def _atom(self, value):
        if isinstance(value, (TensorValue, HostValue)):
            return value.var
        Tensor = LIBRARY.tensor_type
        if isinstance(value, Tensor):
            if id(value) in self._created:
                return ir.Const(value._array)
            return self.capture(value).var
        if isinstance(value, (list, tuple)):
            if any(isinstance(v, TensorValue) for v in value):
                raise NotSupportedError("a list of tensors where one tensor is expected")
            return ir.Const(constant_array(value))
        return ir.Const(value)

    def _as_value(self, value):
        Tensor = LIBRARY.tensor_type
        if isinstance(value, Tensor):
            atom = self._atom(value)
            return TensorValue(atom) if isinstance(atom, ir.Var) else value
        return value

    def _static(self, value, frame, node):
        """``value`` as a Python constant (a slice bound, a dict key, an op's attribute such as a shape...).
        A tensor, or a tuple or list holding one, raises :class:`NeedsStatic` at ``node``: a kept loop whose
        index it is unrolls and retries. A dynamic dim's size in a tuple or list (``x.reshape(n, 3)`` after
        ``set_inputs``) stays: ``_apply`` gives the op's rule such a shape (``dynamicdims.static_attributes``)."""
        if isinstance(value, TensorValue) or holds_nested(TensorValue, value, lambda v: v.var not in self._dim_sizes):
            error = NeedsStatic(node)
            if not frame.source.is_library:
                error.loc = frame.source.loc(node)
            raise error
        return self.concretize(value, frame, node)

    def _truth(self, value, frame, node) -> bool:
        if isinstance(value, TensorValue):
            raise NeedsStatic(node)
        if isinstance(value, HostValue):
            return self.host_truth(value, frame, node)
        return bool(value)

    def _iterate_static(self, value, frame, node):
        if isinstance(value, TensorValue):
            shape = value.aval.shape
            if not shape or shape[0] is None:
                raise self._error(TypeError("iterating over a 0-d or dynamic-length tensor"), frame, node)
            return [self._apply("getitem", (value,), {"index": i}) for i in range(shape[0])]
        Tensor = LIBRARY.tensor_type
        if isinstance(value, Tensor):
            return self._iterate_static(self._as_value(value), frame, node)
        if isinstance(value, HostValue):
            return self.host_items(value, frame, node)
        return [self._from_python(v) for v in value]


def _raises(stmt: ast.If) -> bool:
    """Whether a branch of ``stmt`` raises (an ``assert`` is normalized to one)."""
    return any(isinstance(node, ast.Raise) for branch in (stmt.body, stmt.orelse) for part in branch
               for node in ast.walk(part))


def capture_label(obj) -> str:
    """A captured tensor's name for generated code: its Parameter name, else ``captured``."""
    name = getattr(obj, "name", None)
    return name if isinstance(name, str) and name else "captured"
