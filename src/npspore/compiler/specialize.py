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

from ..opdef import Aval, OpShapeError, OpTypeError
from . import ir
from .builder import BlockBuilder, NameSupply
from .errors import NotSupportedError, located, not_supported
from .frontend import parse_function
from .normalize import normalized
from .signature import OutputTree

UNROLL_LIMIT = 256


class TensorValue:
    """A tensor whose value is known only at run time: an IR atom plus its abstract value."""

    __slots__ = ("var",)

    def __init__(self, var: ir.Var):
        self.var = var

    @property
    def aval(self) -> Aval:
        return self.var.aval

    def __repr__(self) -> str:
        return f"TensorValue({self.var!r})"


class _NeedsStatic(Exception):
    """A tensor value was used where a Python value is required (raised to retry by unrolling)."""


class _Poison:
    """A name with no single value after tensor-dependent control flow; reading it is an error."""

    def __init__(self, name, reason):
        self.name, self.reason = name, reason


class _Completion:
    """How a block ended: normally, by ``return value``, ``break`` or ``continue`` — or, inside a
    loop that stays a loop, ``EXIT``: the iteration ended under a tensor condition and ``value`` is
    the flag telling whether it broke out of the loop."""

    NORMAL, RETURN, BREAK, CONTINUE, EXIT = range(5)

    def __init__(self, kind, value=None):
        self.kind, self.value = kind, value


_NORMAL = _Completion(_Completion.NORMAL)

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.MatMult: operator.matmul, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
           ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_DUNDER = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
           ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.BitAnd: "and", ast.BitOr: "or",
           ast.BitXor: "xor"}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
_CMP_DUNDER = {ast.Eq: ("__eq__", "__eq__"), ast.NotEq: ("__ne__", "__ne__"), ast.Lt: ("__lt__", "__gt__"),
               ast.LtE: ("__le__", "__ge__"), ast.Gt: ("__gt__", "__lt__"), ast.GtE: ("__ge__", "__le__")}
_UNARY_DUNDER = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}

# Builtins evaluated at compile time when all their arguments are Python values.
_STATIC_BUILTINS = {
    builtins.range, builtins.enumerate, builtins.zip, builtins.tuple, builtins.list, builtins.dict,
    builtins.int, builtins.float, builtins.bool, builtins.str, builtins.repr, builtins.min, builtins.max,
    builtins.sum, builtins.abs, builtins.sorted, builtins.reversed, builtins.getattr, builtins.hasattr,
    builtins.type, builtins.round, builtins.divmod, builtins.all, builtins.any, builtins.map,
    builtins.slice, builtins.set, builtins.frozenset, builtins.callable, builtins.id, builtins.format,
    builtins.issubclass, builtins.iter, builtins.next,
}


def _intrinsics():
    from ..ops import eager
    return eager.run, getattr(eager, "assign", None)


def _tensor_classes():
    from ..common.parameter import Parameter
    from ..common.tensor import Tensor
    return Tensor, Parameter


def _cell_class():
    from ..nn.cell import Cell
    return Cell


def _ms_dtype(np_dtype):
    from ..common.dtype import nptype_to_dtype
    return nptype_to_dtype(np_dtype)


# --------------------------------------------------------------------------- program level


class ProgramBuilder:
    """Builds one :class:`ir.Module`: the entry function and every function it calls.

    ``functions`` maps generated names to functions; ``_shared`` maps (callable, structure,
    signature) to an already specialized function, so identical sub-cells share one function.
    """

    def __init__(self):
        self.functions: dict[str, ir.Function] = {}
        self._shared: dict = {}
        self.names = NameSupply()          # function names, unique in the module
        self.sources: dict[str, str] = {}     # qualname -> source text of every involved callable
        self._active: list = []               # code objects being specialized (recursion check)

    def specialize_entry(self, fn, self_obj, args, kwargs, *, input_avals=None) -> tuple:
        """Specialize ``fn`` (a plain function; ``self_obj`` is its bound self or None).

        ``args``/``kwargs`` are abstract values built by :func:`abstract_inputs`. Returns
        ``(function, captured_objects)``: the entry function's params are its tensor inputs
        followed by one param per captured Parameter/Tensor object, in ``captured_objects`` order.
        """
        spec = FunctionSpecializer(self, fn, self_obj, self.names.fresh(function_name(fn, self_obj)))
        function = spec.build(args, kwargs)
        self.functions[function.name] = function
        return function, [obj for obj, _ in spec.captures.values()]

    def call_function(self, caller, fn, self_obj, args, kwargs, loc):
        """Stage a call of a user function or Cell as an ``ir.Call``; returns the result value."""
        code = fn.__code__
        if code in self._active:
            raise not_supported(f"recursive call of {fn.__qualname__!r}", loc)
        leaves, structure = _flatten_abstract((args, tuple(sorted(kwargs.items()))))
        key = (code, object_fingerprint(self_obj), structure)
        entry = self._shared.get(key)
        if entry is None:
            abstract_args, abstract_kwargs = fresh_inputs(args, kwargs)
            spec = FunctionSpecializer(self, fn, self_obj, self.names.fresh(function_name(fn, self_obj)))
            function = spec.build(abstract_args, abstract_kwargs)
            self.functions[function.name] = function
            capture_paths = [capture_path(self_obj, obj) for obj, _ in spec.captures.values()]
            entry = (function, capture_paths, spec.result_template)
            self._shared[key] = entry
        function, capture_paths, template = entry
        captured_args = []
        for path in capture_paths:
            obj = _resolve_capture(self_obj, path)
            captured_args.append(caller.capture(obj).var)
        call_args = tuple(leaf.var if isinstance(leaf, TensorValue) else ir.Const(leaf) for leaf in leaves)
        targets = tuple(caller.names.var(r.name, r.aval) for r in function.body.results)
        caller.builder.append(ir.Call(targets, function.name, call_args + tuple(captured_args), loc))
        values = iter(TensorValue(t) for t in targets)
        return _fill_template(template, values)


def function_name(fn, self_obj) -> str:
    if self_obj is not None:
        return f"{type(self_obj).__name__}_{fn.__name__}"
    return fn.__name__ if fn.__name__ != "<lambda>" else "lambda_"


def object_fingerprint(obj, _depth=0):
    """A hashable summary of an object's static state (Cells: attributes, sub-cells, param avals).

    Registered hooks count (by identity: a Cell with hooks compiles its own functions and is never
    cached on disk); empty hook tables do not."""
    if obj is None:
        return None
    Tensor, Parameter = _tensor_classes()
    if isinstance(obj, Tensor):
        return ("tensor", obj._array.shape, obj._array.dtype, getattr(obj, "requires_grad", None))
    if isinstance(obj, (bool, int, float, str, type(None), np.dtype)):
        return (type(obj), obj)
    if _depth > 6:
        return ("id", id(obj))
    if isinstance(obj, (tuple, list)):
        return (type(obj), tuple(object_fingerprint(v, _depth + 1) for v in obj))
    if isinstance(obj, dict):
        return (dict, tuple((k, object_fingerprint(v, _depth + 1)) for k, v in obj.items()))
    if isinstance(obj, (set, frozenset)):
        return (set, tuple(sorted(repr(object_fingerprint(v, _depth + 1)) for v in obj)))
    state = getattr(obj, "__dict__", None)
    if state is None or callable(obj) and not hasattr(obj, "__dict__"):
        try:
            hash(obj)
            return (type(obj), obj)
        except TypeError:
            return ("id", id(obj))
    if inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.ismodule(obj) or isinstance(obj, type):
        return ("id", id(obj))
    return (type(obj), tuple((k, object_fingerprint(v, _depth + 1)) for k, v in state.items()
                             if k not in ("_scope", "compile_cache", "arguments_key", "_cell_cache")
                             and not (k.endswith("hooks") and not v) and not k.startswith("_npspore")))


def capture_path(root, target):
    """The attribute path from ``root`` to ``target`` (a Tensor), or ``("id", obj)`` if not reachable."""
    if root is not None:
        found = _search_path(root, target, set(), 0)
        if found is not None:
            return found
    return ("obj", target)


def _search_path(obj, target, seen, depth):
    if depth > 8 or id(obj) in seen:
        return None
    seen.add(id(obj))
    items = []
    if isinstance(obj, (list, tuple)):
        items = list(enumerate(obj))
    elif isinstance(obj, dict):
        items = list(obj.items())
    else:
        state = getattr(obj, "__dict__", None)
        if state:
            items = list(state.items())
    for key, value in items:
        if value is target:
            return ("path", (key,))
    for key, value in items:
        if isinstance(value, (list, tuple, dict)) or hasattr(value, "__dict__") and not inspect.isroutine(value):
            if inspect.ismodule(value) or isinstance(value, type):
                continue
            found = _search_path(value, target, seen, depth + 1)
            if found is not None:
                return ("path", (key,) + found[1])
    return None


def _resolve_capture(root, path):
    if path[0] == "obj":
        return path[1]
    obj = root
    for key in path[1]:
        if isinstance(obj, (list, tuple, dict)):
            obj = obj[key]
        else:
            obj = obj.__dict__[key]
    return obj


def _flatten_abstract(value):
    """(tensor-and-scalar leaves, hashable structure) of an abstract value tree."""
    leaves: list = []

    def walk(v):
        if isinstance(v, TensorValue):
            leaves.append(v)
            return ("T", v.aval.shape, v.aval.dtype)
        if isinstance(v, (tuple, list)):
            return (type(v), bool(getattr(v, "__ms_mutable__", False)), tuple(walk(x) for x in v))
        if isinstance(v, dict):
            return (dict, tuple((k, walk(x)) for k, x in v.items()))
        try:
            hash(v)
            return ("C", type(v), v)
        except TypeError:
            return ("I", id(v))

    structure = walk(value)
    return [leaf for leaf in leaves], structure


def fresh_inputs(args, kwargs):
    """Copies of abstract args whose TensorValues are placeholders, bound as params by ``build``."""
    def fresh(v):
        if isinstance(v, TensorValue):
            return _Param(v.aval)
        if isinstance(v, tuple) and not hasattr(v, "_fields"):
            return type(v)(fresh(x) for x in v) if type(v) is tuple else _copy_container(v, [fresh(x) for x in v])
        if isinstance(v, list):
            return _copy_container(v, [fresh(x) for x in v])
        if isinstance(v, dict):
            return _copy_container(v, {k: fresh(x) for k, x in v.items()})
        return v
    return tuple(fresh(a) for a in args), {k: fresh(v) for k, v in kwargs.items()}


def _copy_container(original, items):
    try:
        return type(original)(items)
    except TypeError:
        return items


class _Param:
    """A function input slot of a known aval, turned into a TensorValue when the function starts."""

    __slots__ = ("aval",)

    def __init__(self, aval):
        self.aval = aval


def _fill_template(template, values):
    """Rebuild a result structure, replacing each ``_Param`` slot with the next value."""
    if isinstance(template, _Param):
        return next(values)
    if isinstance(template, tuple):
        return tuple(_fill_template(t, values) for t in template)
    if isinstance(template, list):
        return [_fill_template(t, values) for t in template]
    if isinstance(template, dict):
        return {k: _fill_template(t, values) for k, t in template.items()}
    return template


# --------------------------------------------------------------------------- function level


class FunctionSpecializer:
    """Specializes one function body into one :class:`ir.Function`."""

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
        self._created: set[int] = set()            # Tensors made at compile time: constants
        self._user_loc: ir.Loc | None = None       # where errors are reported: innermost user code
        self._line_loc: ir.Loc | None = None       # what generated lines cite: this function's own source
        self._home = None                          # the parsed source of the function being built
        self._temps: set[int] = set()
        self._dynamic_loops = 0                    # depth of loops being staged as IR loops

    # ---- entry

    def build(self, args, kwargs) -> ir.Function:
        source = parse_function(self.fn)
        self._home = source.tree
        self.program.sources[source.qualname] = source.source
        self.program._active.append(self.fn.__code__)
        try:
            bound = self._bind(self.fn, self.self_obj, args, kwargs, source)
            env = {name: self._materialize_param(name, value) for name, value in bound.items()}
            completion = self._run_function(source, env)
        finally:
            self.program._active.pop()
        value = completion.value if completion.kind == _Completion.RETURN else None
        leaves, template = self._result_leaves(value)
        self.result_template = template
        self.builder.block.results = tuple(leaves)
        captured = [tv.var for _, tv in self.captures.values()]
        function = ir.Function(
            name=self.name, params=tuple(self.params) + tuple(captured), body=self.builder.block,
            source=source.qualname, loc=source.loc(source.tree),
            param_names=tuple(_capture_label(obj) for obj, _ in self.captures.values()),
            output_tree=OutputTree(_tree_node(value, iter(range(len(leaves))))),
        )
        return function

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
        values = {}
        for name, value in bound.arguments.items():
            parameter = signature.parameters[name]
            if parameter.kind is parameter.VAR_POSITIONAL:
                value = tuple(value)
            values[name] = value
        return values

    def _materialize_param(self, name, value):
        if isinstance(value, _Param):
            var = self.names.var(name, value.aval)
            self.params.append(var)
            return TensorValue(var)
        if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
            items = [self._materialize_param(f"{name}_{i}", v) for i, v in enumerate(value)]
            return _copy_container(value, items)
        if isinstance(value, dict):
            return _copy_container(value, {k: self._materialize_param(f"{name}_{k}", v) for k, v in value.items()})
        return value

    def _result_leaves(self, value):
        leaves: list = []

        def walk(v):
            if isinstance(v, TensorValue):
                leaves.append(v.var)
                return _Param(v.aval)
            if isinstance(v, tuple):
                return tuple(walk(x) for x in v)
            if isinstance(v, list):
                return [walk(x) for x in v]
            if isinstance(v, dict):
                return {k: walk(x) for k, x in v.items()}
            if isinstance(v, _Poison):
                raise self._error(NameError(f"'{v.name}' {v.reason}"))
            return v  # a Python value is returned as is (MindSpore returns 3 for ``return 3``)

        template = walk(value)
        return leaves, template

    # ---- captures

    def capture(self, obj) -> TensorValue:
        """The TensorValue of a pre-existing Tensor/Parameter read by this function."""
        entry = self.captures.get(id(obj))
        if entry is None:
            var = self.names.var(self._capture_name(obj), Aval.of(obj._array))
            entry = (obj, TensorValue(var))
            self.captures[id(obj)] = entry
        return entry[1]

    def _capture_name(self, obj) -> str:
        """Name a captured tensor by its attribute path from ``self`` (``weight``, ``blocks_0_bias``),
        so a function shared by identical sub-cells reads the same for each of them."""
        if self.self_obj is not None:
            path = capture_path(self.self_obj, obj)
            if path[0] == "path":
                keys = [str(k) for k in path[1] if k not in ("_params", "_cells", "_buffers")]
                if keys:
                    return "_".join(keys)
        return _capture_label(obj)

    # ---- running code

    def _run_function(self, source, env) -> _Completion:
        tree = normalized(source.tree)
        frame = _Frame(source, env)
        return self._exec_stmts(tree.body, frame)

    def _error(self, error: BaseException, frame=None, node=None):
        if frame is not None and node is not None and not frame.source.is_library:
            return located(error, frame.source.loc(node))
        if self._user_loc is not None:
            return located(error, self._user_loc)
        return error

    def _exec_stmts(self, stmts, frame) -> _Completion:
        for index, stmt in enumerate(stmts):
            if not frame.source.is_library:
                self._user_loc = frame.source.loc(stmt)
            if not frame.source.is_library or frame.source.tree is self._home:
                self._line_loc = frame.source.loc(stmt)
            if isinstance(stmt, ast.If):
                test = self._eval(stmt.test, frame)
                if isinstance(test, TensorValue):
                    return self._dynamic_if(stmt, test, stmts[index + 1:], frame)
                branch = stmt.body if self._truth(test, frame, stmt.test) else stmt.orelse
                return self._exec_stmts(list(branch) + list(stmts[index + 1:]), frame)
            completion = self._exec(stmt, frame)
            if completion is not _NORMAL:
                return completion
        return _NORMAL

    def _exec(self, stmt, frame) -> _Completion:
        try:
            return self._exec_inner(stmt, frame)
        except (NotSupportedError, _NeedsStatic):
            raise
        except Exception as error:  # noqa: BLE001 - any error the user's code causes gets its location
            if getattr(error, "loc", None) is not None:
                raise
            raise self._error(error, frame, stmt) from None

    def _exec_inner(self, stmt, frame) -> _Completion:
        if isinstance(stmt, ast.Assign):
            value = self._eval(stmt.value, frame)
            self._assign(stmt.targets[0], value, frame)
            return _NORMAL
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._assign(stmt.target, self._eval(stmt.value, frame), frame)
            return _NORMAL
        if isinstance(stmt, ast.AugAssign):
            raise not_supported("augmented assignment to a subscript or attribute", frame.source.loc(stmt))
        if isinstance(stmt, ast.Expr):
            self._eval(stmt.value, frame)
            return _NORMAL
        if isinstance(stmt, ast.Return):
            value = self._eval(stmt.value, frame) if stmt.value is not None else None
            return _Completion(_Completion.RETURN, value)
        if isinstance(stmt, ast.Pass):
            return _NORMAL
        if isinstance(stmt, ast.Break):
            return _Completion(_Completion.BREAK)
        if isinstance(stmt, ast.Continue):
            return _Completion(_Completion.CONTINUE)
        if isinstance(stmt, ast.Raise):
            exc = self._eval(stmt.exc, frame) if stmt.exc is not None else RuntimeError("re-raise")
            if isinstance(exc, type):
                exc = exc()
            raise self._error(exc, frame, stmt)
        if isinstance(stmt, ast.For):
            return self._for(stmt, frame)
        if isinstance(stmt, ast.While):
            return self._while(stmt, frame)
        raise not_supported(f"'{type(stmt).__name__}' statement", frame.source.loc(stmt))

    # ---- assignment

    def _assign(self, target, value, frame):
        if isinstance(target, ast.Name):
            if isinstance(value, TensorValue) and id(value.var) in self._temps and not frame.source.is_library:
                self._temps.discard(id(value.var))
                value.var.name = self.names.fresh(target.id)
            frame.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = self._unpack(value, len(target.elts), frame, target)
            for element, item in zip(target.elts, items):
                self._assign(element, item, frame)
        elif isinstance(target, ast.Subscript):
            container = self._eval(target.value, frame)
            if isinstance(container, TensorValue):
                raise not_supported("assigning into a tensor (x[i] = v)", frame.source.loc(target))
            container[self._eval(target.slice, frame)] = value
        else:
            raise not_supported(f"assignment to {type(target).__name__}", frame.source.loc(target))

    def _unpack(self, value, count, frame, node):
        if isinstance(value, TensorValue):
            if not value.aval.shape or value.aval.shape[0] != count:
                raise self._error(ValueError(
                    f"cannot unpack a tensor of shape {value.aval.shape} into {count} names"), frame, node)
            return [self._apply("getitem", (value,), {"index": i}) for i in range(count)]
        items = list(value)
        if len(items) != count:
            raise self._error(ValueError(
                f"cannot unpack {len(items)} values into {count} names"), frame, node)
        return items

    # ---- expressions

    def _eval(self, node, frame):
        method = getattr(self, "_eval_" + type(node).__name__, None)
        if method is None:
            raise not_supported(f"the expression '{type(node).__name__}'", frame.source.loc(node))
        return method(node, frame)

    def _eval_Constant(self, node, frame):
        return node.value

    def _eval_Name(self, node, frame):
        if node.id in frame.env:
            value = frame.env[node.id]
        elif node.id in frame.source.closure:
            value = frame.source.closure[node.id]
        elif node.id in frame.source.globals:
            value = frame.source.globals[node.id]
        elif hasattr(builtins, node.id):
            value = getattr(builtins, node.id)
        else:
            raise self._error(NameError(f"name '{node.id}' is not defined"), frame, node)
        if isinstance(value, _Poison):
            raise self._error(NameError(f"'{value.name}' {value.reason}"), frame, node)
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

    def _eval_JoinedStr(self, node, frame):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                item = self._static(self._eval(value.value, frame), frame, value)
                spec = self._eval(value.format_spec, frame) if value.format_spec else ""
                if value.conversion == ord("r"):
                    item = repr(item)
                elif value.conversion == ord("s"):
                    item = str(item)
                parts.append(format(item, spec))
            else:
                parts.append(value.value)
        return "".join(parts)

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
            if bool(value) != is_and:
                return value
            value = self._eval(operand, frame)
        return value

    def _eval_UnaryOp(self, node, frame):
        operand = self._as_value(self._eval(node.operand, frame))  # a Tensor read from a tuple is staged too
        if isinstance(node.op, ast.Not):
            if isinstance(operand, TensorValue):
                return self._apply("logical_not", (operand,), {})
            return not operand
        if isinstance(operand, TensorValue):
            return self._call_method(operand, _UNARY_DUNDER[type(node.op)], (), {}, frame, node)
        return {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}[type(node.op)](operand)

    def _eval_BinOp(self, node, frame):
        left = self._eval(node.left, frame)
        right = self._eval(node.right, frame)
        return self._binary(type(node.op), left, right, frame, node)

    def _binary(self, op_type, left, right, frame, node):
        if isinstance(left, TensorValue) or isinstance(right, TensorValue):
            name = _DUNDER[op_type]
            if isinstance(left, TensorValue):
                return self._call_method(left, f"__{name}__", (right,), {}, frame, node)
            return self._call_method(right, f"__r{name}__", (left,), {}, frame, node)
        Tensor, _ = _tensor_classes()
        if isinstance(left, Tensor) or isinstance(right, Tensor):
            return self._binary(op_type, self._as_value(left), self._as_value(right), frame, node)
        return _BINOPS[op_type](left, right)

    def _eval_Compare(self, node, frame):
        left = self._eval(node.left, frame)
        result = None
        for op, comparator in zip(node.ops, node.comparators):
            right = self._eval(comparator, frame)
            if type(op) in _CMP_DUNDER:  # a Tensor read from a tuple is compared at run time, as in _binary
                left, right = self._as_value(left), self._as_value(right)
            if (isinstance(left, TensorValue) or isinstance(right, TensorValue)) and type(op) in (ast.Is, ast.IsNot) \
                    and (left is None or right is None):
                value = type(op) is ast.IsNot  # a tensor is never None: ``if bias is not None`` is static
            elif isinstance(left, TensorValue) or isinstance(right, TensorValue):
                if type(op) not in _CMP_DUNDER:
                    raise not_supported(f"'{type(op).__name__}' comparison of a tensor", frame.source.loc(node))
                forward, reflected = _CMP_DUNDER[type(op)]
                if isinstance(left, TensorValue):
                    value = self._call_method(left, forward, (right,), {}, frame, node)
                else:
                    value = self._call_method(right, reflected, (left,), {}, frame, node)
            else:
                value = _CMPOPS[type(op)](left, right)
            if len(node.ops) > 1 and isinstance(value, TensorValue):
                raise not_supported("chained comparison of tensors", frame.source.loc(node))
            if len(node.ops) > 1 and not value:
                return False
            result = value
            left = right
        return result

    def _eval_Attribute(self, node, frame):
        value = self._eval(node.value, frame)
        return self._getattr(value, node.attr, frame, node)

    def _getattr(self, value, attr, frame, node):
        if isinstance(value, TensorValue):
            aval = value.aval
            if attr == "shape":
                return tuple(-1 if d is None else d for d in aval.shape)
            if attr == "dtype":
                return _ms_dtype(aval.dtype)
            if attr == "ndim":
                return len(aval.shape)
            if attr == "size":
                return int(np.prod([d for d in aval.shape])) if None not in aval.shape else -1
            attribute = inspect.getattr_static(self._class_of(value), attr, None)
            if isinstance(attribute, property):
                return self._call_python(attribute.fget, (value,), {}, frame, node)
            if inspect.isfunction(attribute):
                return _BoundMethod(attribute, value)
            raise self._error(AttributeError(f"'Tensor' object has no attribute '{attr}'"), frame, node)
        try:
            result = getattr(value, attr)
        except AttributeError as error:
            raise self._error(error, frame, node) from None
        cast_dtype = getattr(value, "_cast_dtype", None)
        if cast_dtype is not None and isinstance(result, _tensor_classes()[1]) and result.requires_grad:
            # to_float: a cell's trainable Parameters are read in its compute dtype (master weights stay)
            return self._cast_floating(self._from_python(result), cast_dtype)
        return self._from_python(result)

    def _from_python(self, result):
        """A value read from a Python object: pre-existing Tensors are captured."""
        Tensor, _ = _tensor_classes()
        if isinstance(result, Tensor) and id(result) not in self._created and not getattr(result, "is_placeholder", False):
            return self.capture(result)
        return result

    def _eval_Subscript(self, node, frame):
        value = self._eval(node.value, frame)
        index = self._eval(node.slice, frame)
        if isinstance(value, TensorValue):
            return self._getitem(value, index, frame, node)
        if isinstance(index, TensorValue):
            raise _NeedsStatic(node)
        Tensor, _ = _tensor_classes()
        if isinstance(value, Tensor):
            return self._getitem(self._as_value(value), index, frame, node)
        try:
            return self._from_python(value[index])
        except (IndexError, KeyError, TypeError) as error:
            raise self._error(error, frame, node) from None

    def _getitem(self, tensor, index, frame, node):
        parts = index if isinstance(index, tuple) else (index,)
        Tensor, _ = _tensor_classes()
        if any(isinstance(p, (TensorValue, Tensor, list)) for p in parts):
            if len(parts) != 1:
                raise not_supported("mixing tensor indices with other indices", frame.source.loc(node))
            indices = parts[0]
            if isinstance(indices, list):
                indices = np.asarray(indices)
            return self._apply("gather", (tensor, indices), {"axis": 0})
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

    def _comprehension(self, node, frame, kind):
        results = []
        inner = _Frame(frame.source, dict(frame.env))

        def loop(generators):
            if not generators:
                if kind is dict:
                    results.append((self._eval(node.key, inner), self._eval(node.value, inner)))
                else:
                    results.append(self._eval(node.elt, inner))
                return
            generator = generators[0]
            for item in self._iterate_static(self._eval(generator.iter, inner), inner, generator.iter):
                self._assign(generator.target, item, inner)
                if all(self._truth(self._eval(cond, inner), inner, cond) for cond in generator.ifs):
                    loop(generators[1:])

        loop(node.generators)
        return dict(results) if kind is dict else kind(results)

    # ---- calls

    def _call(self, func, args, kwargs, frame, node):
        run, assign = _intrinsics()
        Tensor, Parameter = _tensor_classes()
        if func is run:
            name = self._static(args[0], frame, node)
            static = {k: self._static(v, frame, node) for k, v in kwargs.items()}
            return self._apply(name, args[1:], static, frame, node)
        if assign is not None and func is assign:
            return self._assign_effect(args, frame, node)
        if func is builtins.print:
            self.builder.append(ir.Effect("print", tuple(self._atom(a) for a in args), self._loc(frame, node)))
            return None
        if func is builtins.isinstance:
            return self._isinstance(args[0], args[1])
        if func is builtins.len:
            target = args[0]
            if isinstance(target, TensorValue):
                if not target.aval.shape:
                    raise self._error(TypeError("Not support len of a 0-D tensor"), frame, node)
                return target.aval.shape[0]
            return len(target)
        if isinstance(func, _BoundMethod):
            return self._call_python(func.function, (func.self_value,) + args, kwargs, frame, node)
        if isinstance(func, type) and issubclass(func, Tensor):
            return self._make_constant_tensor(func, args, kwargs, frame, node)
        if getattr(func, "__npspore_static__", False):
            # a library function answering from process state (the communication group size): run now
            if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
                raise _NeedsStatic(node)
            return func(*args, **kwargs)
        if func in _STATIC_BUILTINS or func is builtins.range:
            if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
                if func is builtins.abs:
                    return self._call_method(args[0], "__abs__", (), {}, frame, node)
                raise _NeedsStatic(node)
            return func(*args, **kwargs)
        Cell = _cell_class()
        if isinstance(func, Cell):
            return self._call_cell(func, args, kwargs, frame, node)
        from ..grad import GradFunction
        if isinstance(func, GradFunction):
            return func.stage(self, args, kwargs, self._loc(frame, node))
        if inspect.ismethod(func) and inspect.isfunction(func.__func__):
            owner = func.__self__
            if isinstance(owner, Cell) or _is_library(func.__func__):
                return self._call_python(func.__func__, (owner,) + args, kwargs, frame, node)
            return self._call_user(func.__func__, owner, args, kwargs, frame, node)
        if inspect.isfunction(func):
            if _is_library(func):
                return self._call_python(func, args, kwargs, frame, node)
            return self._call_user(func, None, args, kwargs, frame, node)
        if isinstance(func, type) or inspect.isbuiltin(func) or isinstance(func, np.ufunc):
            if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
                raise self._error(NotSupportedError(
                    f"calling {getattr(func, '__name__', func)!r} on a tensor is not supported in "
                    "compiled code: use npspore.ops functions"), frame, node)
            result = func(*args, **kwargs)
            if isinstance(result, Tensor):
                self._created.add(id(result))
            return result
        call = getattr(type(func), "__call__", None)
        if call is not None and inspect.isfunction(call):
            if _is_library(call):
                return self._call_python(call, (func,) + args, kwargs, frame, node)
            return self._call_user(call, func, args, kwargs, frame, node)
        raise self._error(NotSupportedError(f"calling {func!r} in compiled code"), frame, node)

    def _class_of(self, value: TensorValue) -> type:
        """``Parameter`` for a captured Parameter, ``Tensor`` for every other tensor value."""
        Tensor, Parameter = _tensor_classes()
        for obj, captured in self.captures.values():
            if captured is value:
                return type(obj) if isinstance(obj, Tensor) else Tensor
        return Tensor

    def _call_method(self, value, name, args, kwargs, frame, node):
        method = inspect.getattr_static(self._class_of(value), name, None)
        if not inspect.isfunction(method):
            raise self._error(TypeError(f"unsupported operand for Tensor.{name}"), frame, node)
        return self._call_python(method, (value,) + tuple(args), kwargs, frame, node)

    def _call_python(self, fn, args, kwargs, frame, node):
        """Interpret ``fn``'s source in place (library functions and methods of the user's Cell)."""
        source = parse_function(fn)
        if fn.__code__ in self.program._active:
            raise not_supported(f"recursive call of {fn.__qualname__!r}", self._loc(frame, node))
        if not source.is_library:
            self.program.sources[source.qualname] = source.source
        saved = self._user_loc, self._line_loc
        if frame is not None and node is not None and not frame.source.is_library:
            self._user_loc = frame.source.loc(node)  # library code reports errors at this user expression
        self._line_loc = self._loc(frame, node) if frame is not None else self._line_loc
        self.program._active.append(fn.__code__)
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
        if completion.kind == _Completion.RETURN:
            return completion.value
        return None

    def _call_user(self, fn, self_obj, args, kwargs, frame, node):
        return self.program.call_function(self, fn, self_obj, args, kwargs, self._loc(frame, node))

    def _call_cell(self, cell, args, kwargs, frame, node):
        from ..nn.cell import Cell
        construct = type(cell).construct
        if construct is Cell.construct or not inspect.isfunction(construct):
            raise self._error(AttributeError("For 'Cell', the method 'construct' is not defined."), frame, node)
        if cell._forward_pre_hooks or cell._forward_hooks:
            return self._call_cell_with_hooks(cell, construct, args, kwargs, frame, node)
        return self._call_construct(cell, construct, args, kwargs, frame, node)

    def _call_construct(self, cell, construct, args, kwargs, frame, node):
        if getattr(cell, "_cast_dtype", None) is not None:  # to_float: floating inputs are cast first
            args = tuple(self._cast_floating(a, cell._cast_dtype) for a in args)
        if _is_library(construct) and not any(True for _ in cell.get_parameters()):
            return self._call_python(construct, (cell,) + args, kwargs, frame, node)
        return self._call_user(construct, cell, args, kwargs, frame, node)

    def _call_cell_with_hooks(self, cell, construct, args, kwargs, frame, node):
        """A sub-cell call with forward (pre-)hooks: the hooks are compiled in, as MindSpore does —
        a pre-hook's returned tuple replaces the inputs, a hook's non-None return the output."""
        inputs = tuple(args)
        for hook in tuple(cell._forward_pre_hooks.values()):
            result = self._call_hook(hook, (cell, inputs), frame, node)
            if result is not None:
                inputs = result if isinstance(result, tuple) else (result,)
        output = self._call_construct(cell, construct, inputs, kwargs, frame, node)
        for hook in tuple(cell._forward_hooks.values()):
            result = self._call_hook(hook, (cell, inputs, output), frame, node)
            if result is not None:
                output = result
        return output

    def _call_hook(self, hook, args, frame, node):
        if inspect.ismethod(hook):
            return self._call_python(hook.__func__, (hook.__self__,) + args, {}, frame, node)
        if not inspect.isfunction(hook):
            raise self._error(NotSupportedError(f"the hook {hook!r} in compiled code: hooks must be Python "
                                                "functions"), frame, node)
        return self._call_python(hook, args, {}, frame, node)

    def _cast_floating(self, value, ms_dtype):
        from ..common.dtype import dtype_to_nptype

        target = np.dtype(dtype_to_nptype(ms_dtype))
        if isinstance(value, TensorValue) and value.aval.dtype.kind == "f" and value.aval.dtype != target:
            return self._apply("cast", (value,), {"dtype": target})
        if isinstance(value, (tuple, list)):
            return _copy_container(value, [self._cast_floating(v, ms_dtype) for v in value])
        return value

    def _isinstance(self, value, classes):
        Tensor, Parameter = _tensor_classes()
        if isinstance(value, TensorValue):
            classes = classes if isinstance(classes, tuple) else (classes,)
            is_param = any(obj_tv is value for _, obj_tv in self.captures.values()
                           if isinstance(_, Parameter))
            return any(issubclass(Tensor, c) or (is_param and issubclass(Parameter, c)) for c in classes)
        return isinstance(value, classes)

    def _make_constant_tensor(self, cls, args, kwargs, frame, node):
        if any(isinstance(a, TensorValue) for a in (*args, *kwargs.values())):
            if cls.__name__ == "Parameter":
                raise not_supported("creating a Parameter inside construct", self._loc(frame, node))
            if args and isinstance(args[0], TensorValue) and len(args) + len(kwargs) == 1:
                return args[0]
            dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
            from ..common.dtype import dtype_to_nptype
            return self._apply("cast", (args[0],), {"dtype": np.dtype(dtype_to_nptype(dtype))})
        result = cls(*args, **kwargs)
        self._created.add(id(result))
        return result

    def _assign_effect(self, args, frame, node):
        target, value = self._from_python(args[0]), args[1]  # a Parameter taken from a tuple is captured here
        if not isinstance(target, TensorValue) or not any(tv is target for _, tv in self.captures.values()):
            raise self._error(TypeError("ops.assign expects a Parameter as its first argument"), frame, node)
        value = self._atom(value)
        if isinstance(value, ir.Var) and value.aval != target.aval:
            value = self._apply("cast", (TensorValue(value),), {"dtype": target.aval.dtype}).var
        self.builder.append(ir.Effect("assign", (target.var, value), self._loc(frame, node)))
        return target

    # ---- staging ops

    def _loc(self, frame, node) -> ir.Loc:
        """The location generated code cites for ``node``: its own line in user code or in the
        function being built, else the line of that function that led into library code."""
        if frame is not None and node is not None and (not frame.source.is_library or frame.source.tree is self._home):
            return frame.source.loc(node)
        return self._line_loc or (frame.source.loc(node) if frame and node else ir.Loc("<unknown>", 0))

    def _apply(self, op, operands, static, frame=None, node=None):
        loc = self._loc(frame, node) if frame is not None else (self._line_loc or ir.Loc("<unknown>", 0))
        atoms = tuple(self._atom(o) for o in operands)
        try:
            result = self.builder.apply(op, atoms, static, loc=loc, hint=op)
        except KeyError:
            raise self._error(NotSupportedError(f"unknown op {op!r}"), frame, node) from None
        except (OpShapeError, OpTypeError, ValueError, TypeError) as error:
            raise self._error(error) from None
        if isinstance(result, tuple):
            for var in result:
                self._temps.add(id(var))
            return tuple(TensorValue(v) for v in result)
        self._temps.add(id(result))
        return TensorValue(result)

    def _atom(self, value):
        if isinstance(value, TensorValue):
            return value.var
        Tensor, _ = _tensor_classes()
        if isinstance(value, Tensor):
            if id(value) in self._created:
                return ir.Const(value._array)
            return self.capture(value).var
        if isinstance(value, (list, tuple)):
            if any(isinstance(v, TensorValue) for v in value):
                raise NotSupportedError("a list of tensors where one tensor is expected")
            from ..shape_rules import constant_array
            return ir.Const(constant_array(value))
        return ir.Const(value)

    def _as_value(self, value):
        Tensor, _ = _tensor_classes()
        if isinstance(value, Tensor):
            atom = self._atom(value)
            return TensorValue(atom) if isinstance(atom, ir.Var) else value
        return value

    def _static(self, value, frame, node):
        if isinstance(value, TensorValue):
            raise self._error(TypeError(
                "a tensor value is used where a Python constant is needed (an op attribute, an index "
                "into a tuple, a loop bound); compute it from shapes or pass it as a Python value"), frame, node)
        return value

    def _truth(self, value, frame, node) -> bool:
        if isinstance(value, TensorValue):
            raise _NeedsStatic(node)
        return bool(value)

    def _iterate_static(self, value, frame, node):
        if isinstance(value, TensorValue):
            shape = value.aval.shape
            if not shape or shape[0] is None:
                raise self._error(TypeError("iterating over a 0-d or dynamic-length tensor"), frame, node)
            return [self._apply("getitem", (value,), {"index": i}) for i in range(shape[0])]
        Tensor, _ = _tensor_classes()
        if isinstance(value, Tensor):
            return self._iterate_static(self._as_value(value), frame, node)
        return [self._from_python(v) for v in value]

    # ---- control flow

    def _branch(self, stmts, frame) -> tuple:
        """Stage ``stmts`` into a fresh block with a copy of the environment."""
        outer = self.builder
        self.builder = BlockBuilder(self.names)
        branch_frame = _Frame(frame.source, dict(frame.env))
        try:
            completion = self._exec_stmts(stmts, branch_frame)
            block = self.builder.block
        finally:
            self.builder = outer
        return completion, branch_frame.env, block

    def _dynamic_if(self, stmt, test, rest, frame) -> _Completion:
        loc = frame.source.loc(stmt)
        if test.aval.shape not in ((), (1,)):
            raise located(ValueError(
                "The tensor should have only one element, but got "
                f"{int(np.prod(test.aval.shape))}, more than one element is ambiguous."), loc)
        branches = list(stmt.body) + list(stmt.orelse)
        returns = any(isinstance(n, ast.Return) for n in ast.walk(ast.Module(body=branches, type_ignores=[])))
        exits = _has_loop_exit(branches)
        # A branch that returns, breaks or continues ends what follows it: the statements after the
        # 'if' are staged into each branch that may fall through (continuation), so both branches
        # end the function (or the loop iteration) and the 'if' yields the outcome.
        continuation = returns or exits
        then_stmts = list(stmt.body) + (list(rest) if continuation else [])
        else_stmts = list(stmt.orelse) + (list(rest) if continuation else [])
        then_done, then_env, then_block = self._branch(then_stmts, frame)
        else_done, else_env, else_block = self._branch(else_stmts, frame)
        cond = test.var
        if cond.aval.dtype != np.bool_ or cond.aval.shape:
            cond = self._apply("cast", (TensorValue(self._scalar(test, loc)),), {"dtype": np.dtype(np.bool_)}).var
        if returns:
            for done in (then_done, else_done):
                if done.kind != _Completion.RETURN:
                    raise not_supported("a tensor-dependent 'if' where one branch returns and the other "
                                        "breaks or continues a loop", loc)
            merged = self._merge(then_done.value, else_done.value, then_block, else_block, "out", loc)
            self.builder.append(ir.If(cond, then_block, else_block, merged[1], loc))
            return _Completion(_Completion.RETURN, merged[0])
        if exits:
            return self._exit_if(cond, (then_done, else_done), (then_env, else_env), (then_block, else_block), frame, loc)
        for done in (then_done, else_done):
            if done.kind != _Completion.NORMAL:
                raise not_supported("break/continue under a tensor-dependent condition", loc)
        new_env, outputs = self._merge_envs(frame, then_env, else_env, then_block, else_block, loc)
        self.builder.append(ir.If(cond, then_block, else_block, tuple(outputs), loc))
        frame.env.clear()
        frame.env.update(new_env)
        return self._exec_stmts(list(rest), frame)

    def _exit_if(self, cond, dones, envs, blocks, frame, loc) -> _Completion:
        """A tensor-dependent 'if' that breaks or continues: it ends the loop iteration and yields
        the ``broke`` flag along with the loop's values."""
        if not self._dynamic_loops:
            raise not_supported("break/continue under a tensor-dependent condition in a loop over Python "
                                "values (loop over range(...) instead)", loc)
        flags = []
        for done in dones:
            if done.kind == _Completion.RETURN:
                raise not_supported("return inside a loop that stays a loop", loc)
            flags.append(done.value.var if done.kind == _Completion.EXIT
                         else ir.Const(np.bool_(done.kind == _Completion.BREAK)))
        then_block, else_block = blocks
        new_env, outputs = self._merge_envs(frame, envs[0], envs[1], then_block, else_block, loc)
        broke = self.names.var("broke", Aval((), np.bool_))
        then_block.results += (flags[0],)
        else_block.results += (flags[1],)
        self.builder.append(ir.If(cond, then_block, else_block, tuple(outputs) + (broke,), loc))
        frame.env.clear()
        frame.env.update(new_env)
        return _Completion(_Completion.EXIT, TensorValue(broke))

    def _merge_envs(self, frame, then_env, else_env, then_block, else_block, loc):
        """The environment after a tensor-dependent 'if', and the If's new output Vars."""
        outputs = []
        new_env = dict(frame.env)
        for name in dict.fromkeys([*then_env, *else_env]):
            a, b = then_env.get(name, _MISSING), else_env.get(name, _MISSING)
            if a is b:
                new_env[name] = a
                continue
            if a is _MISSING or b is _MISSING:
                new_env[name] = _Poison(name, "is assigned in only one branch of a tensor-dependent 'if'")
                continue
            try:
                value, outs = self._merge(a, b, then_block, else_block, name, loc)
            except NotSupportedError:
                new_env[name] = _Poison(name, "has different Python values in the branches of a tensor-dependent 'if'")
                continue
            new_env[name] = value
            outputs.extend(outs)
        return new_env, outputs

    def _scalar(self, value, loc):
        if value.aval.shape:
            return self._apply("reshape", (value,), {"shape": ()}).var
        return value.var

    def _merge(self, a, b, then_block, else_block, name, loc):
        """Merge two branch values: (merged value, new output Vars); appends yields to both blocks."""
        if isinstance(a, TensorValue) or isinstance(b, TensorValue):
            a_atom, b_atom = self._atom(a), self._atom(b)
            aval_a = a_atom.aval if isinstance(a_atom, ir.Var) else None
            aval_b = b_atom.aval if isinstance(b_atom, ir.Var) else None
            aval = aval_a or aval_b
            if aval_a is not None and aval_b is not None and aval_a != aval_b:
                raise located(TypeError(
                    f"'{name}' has shape/dtype {aval_a} in one branch of a tensor-dependent 'if' and "
                    f"{aval_b} in the other; both branches must give the same shape and dtype"), loc)
            then_block.results = then_block.results + (a_atom,)
            else_block.results = else_block.results + (b_atom,)
            out = self.names.var(name, aval)
            return TensorValue(out), [out]
        if isinstance(a, (tuple, list)) and type(a) is type(b) and len(a) == len(b):
            values, outs = [], []
            for x, y in zip(a, b):
                value, o = self._merge(x, y, then_block, else_block, name, loc)
                values.append(value)
                outs.extend(o)
            return _copy_container(a, values), outs
        if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
            values, outs = {}, []
            for key in a:
                values[key], o = self._merge(a[key], b[key], then_block, else_block, name, loc)
                outs.extend(o)
            return values, outs
        try:
            same = a is b or (type(a) is type(b) and a == b)
        except Exception:  # noqa: BLE001 - objects whose == is not a bool are simply different
            same = False
        if same:
            return a, []
        raise not_supported(
            f"'{name}' holding different Python values ({a!r} vs {b!r}) after a tensor-dependent 'if'", loc)

    def _for(self, stmt, frame) -> _Completion:
        loc = frame.source.loc(stmt)
        if stmt.orelse:
            raise not_supported("'for ... else'", loc)
        iterable = self._eval(stmt.iter, frame)
        if isinstance(iterable, range) and len(iterable) > 0:
            staged = self._try_range_loop(stmt, iterable.start, iterable.stop, iterable.step, frame)
            if staged:
                return _NORMAL
        items = self._iterate_static(iterable, frame, stmt.iter)
        if len(items) > UNROLL_LIMIT * 16:
            raise not_supported(f"unrolling a loop of {len(items)} iterations", loc)
        for item in items:
            self._assign(stmt.target, item, frame)
            completion = self._exec_stmts(list(stmt.body), frame)
            if completion.kind == _Completion.BREAK:
                break
            if completion.kind == _Completion.RETURN:
                return completion
        return _NORMAL

    def _try_range_loop(self, stmt, start, stop, step, frame) -> bool:
        """Stage ``for i in range(...)`` as an ``ir.ForRange``; False to unroll it instead."""
        if not isinstance(stmt.target, ast.Name):
            return False
        loc = frame.source.loc(stmt)
        if _has_loop_exit(stmt.body, kinds=(ast.Break,)):
            return self._range_as_while(stmt, start, stop, step, frame, loc)
        assigned = _assigned_names(stmt.body)
        carried_names = [n for n in assigned if isinstance(frame.env.get(n), TensorValue)]
        outer = self.builder
        snapshot = dict(frame.env)
        names_state = (dict(self.names._counts), set(self.names._taken))
        index = self.names.var(stmt.target.id, Aval((), np.int64))
        params = [self.names.var(n, frame.env[n].aval) for n in carried_names]
        body_env = dict(frame.env)
        body_env[stmt.target.id] = TensorValue(index)
        for name, param in zip(carried_names, params):
            body_env[name] = TensorValue(param)
        self.builder = BlockBuilder(self.names)
        body_frame = _Frame(frame.source, body_env)
        self._dynamic_loops += 1
        try:
            completion = self._exec_stmts(list(stmt.body), body_frame)
            block = self.builder.block
        except (_NeedsStatic, NotSupportedError):
            completion, block = None, None
        finally:
            self.builder = outer
            self._dynamic_loops -= 1
        ok = completion is not None and completion.kind in (
            _Completion.NORMAL, _Completion.CONTINUE, _Completion.EXIT)
        if ok:
            for name in assigned:
                new = body_frame.env.get(name, _MISSING)
                if name in carried_names:
                    ok = ok and isinstance(new, TensorValue) and new.aval == frame.env[name].aval
                elif name == stmt.target.id:
                    continue
                elif name in snapshot:
                    ok = ok and new is snapshot[name]
                elif isinstance(new, TensorValue) or new is _MISSING:
                    continue
                else:
                    ok = False
        if not ok:
            frame.env.clear()
            frame.env.update(snapshot)
            self.names._counts, self.names._taken = names_state
            if len(range(start, stop, step)) > UNROLL_LIMIT:
                raise not_supported(
                    f"this loop of {len(range(start, stop, step))} iterations: its body needs the loop "
                    "index as a Python value or changes Python values, so it would have to be unrolled", loc)
            return False
        block.results = tuple(body_frame.env[n].var for n in carried_names)
        outputs = tuple(self.names.var(n, frame.env[n].aval) for n in carried_names)
        carried = tuple(frame.env[n].var for n in carried_names)
        self.builder.append(ir.ForRange(index, ir.Const(start), ir.Const(stop), ir.Const(step), carried,
                                        tuple(params), block, outputs, loc))
        for name, out in zip(carried_names, outputs):
            frame.env[name] = TensorValue(out)
        for name in assigned:
            if name not in carried_names and name not in snapshot:
                frame.env[name] = _Poison(name, "is assigned inside a loop that stays a loop; assign it before the loop")
        frame.env[stmt.target.id] = _Poison(stmt.target.id, "is the index of a loop that stays a loop")
        return True

    def _while(self, stmt, frame) -> _Completion:
        loc = frame.source.loc(stmt)
        if stmt.orelse:
            raise not_supported("'while ... else'", loc)
        for _ in range(UNROLL_LIMIT * 16):
            test = self._eval(stmt.test, frame)
            if isinstance(test, TensorValue):
                return self._dynamic_while(stmt, frame, loc)
            if not self._truth(test, frame, stmt.test):
                return _NORMAL
            completion = self._exec_stmts(list(stmt.body), frame)
            if completion.kind == _Completion.BREAK:
                return _NORMAL
            if completion.kind == _Completion.RETURN:
                return completion
        raise not_supported("a 'while' loop on Python values that runs more than 4096 times", loc)

    def _dynamic_while(self, stmt, frame, loc) -> _Completion:
        def condition(env_frame):
            test = self._eval(stmt.test, env_frame)
            if not isinstance(test, TensorValue):
                raise not_supported("a 'while' condition that is a tensor only on the first iteration", loc)
            return test

        self._stage_while(frame, loc, list(stmt.body), condition, extra=())
        return _NORMAL

    def _range_as_while(self, stmt, start, stop, step, frame, loc) -> bool:
        """``for i in range(...)`` whose body may ``break``: a While carrying the index."""
        index = stmt.target.id
        frame.env[index] = _ConstIndex(start)

        def condition(env_frame):
            compare = "less" if step > 0 else "greater"
            return self._apply(compare, (env_frame.env[index], np.int64(stop)), {})

        def advance(env_frame):
            env_frame.env[index] = self._apply("add", (env_frame.env[index], np.int64(step)), {})

        self._stage_while(frame, loc, list(stmt.body), condition, extra=(index,), advance=advance)
        frame.env[index] = _Poison(index, "is the index of a loop that stays a loop")
        return True

    def _stage_while(self, frame, loc, body_stmts, condition, extra=(), advance=None) -> None:
        """Stage an ``ir.While``: ``condition(frame) -> TensorValue``; the body may break under tensor
        conditions, which adds a carried ``broke`` flag checked by the condition."""
        breaks = _has_loop_exit(body_stmts, kinds=(ast.Break,))
        assigned = _assigned_names(body_stmts)
        names = list(extra) + [n for n in assigned if n not in extra and isinstance(frame.env.get(n), TensorValue)]
        carried, params = [], []
        for name in names:
            value = frame.env[name]
            if isinstance(value, _ConstIndex):
                carried.append(ir.Const(np.int64(value.value)))
                params.append(self.names.var(name, Aval((), np.int64)))
            else:
                carried.append(value.var)
                params.append(self.names.var(name, value.aval))
        if breaks:
            carried.append(ir.Const(np.bool_(False)))
            params.append(self.names.var("broke", Aval((), np.bool_)))
        env = dict(frame.env)
        for name, param in zip(names, params):
            env[name] = TensorValue(param)
        outer = self.builder
        self.builder = BlockBuilder(self.names)
        self._dynamic_loops += 1
        try:
            cond_frame = _Frame(frame.source, dict(env))
            test = condition(cond_frame)
            cond_var = self._as_bool_scalar(test, loc)
            if breaks:
                running = self._apply("logical_not", (TensorValue(params[-1]),), {})
                cond_var = self._apply("logical_and", (TensorValue(cond_var), running), {}).var
            cond_block = self.builder.block
            cond_block.results = (cond_var,)
            self.builder = BlockBuilder(self.names)
            body_frame = _Frame(frame.source, dict(env))
            completion = self._exec_stmts(body_stmts, body_frame)
            if completion.kind == _Completion.RETURN:
                raise not_supported("return inside a loop that stays a loop", loc)
            if advance is not None:
                advance(body_frame)
            body_block = self.builder.block
        finally:
            self.builder = outer
            self._dynamic_loops -= 1
        for name, param in zip(names, params):
            new = body_frame.env.get(name)
            if not isinstance(new, TensorValue) or new.aval != param.aval:
                raise located(TypeError(
                    f"'{name}' changes shape or dtype inside a loop that stays a loop"), loc)
        results = [body_frame.env[n].var for n in names]
        if breaks:
            results.append(completion.value.var if completion.kind == _Completion.EXIT
                           else ir.Const(np.bool_(completion.kind == _Completion.BREAK)))
        body_block.results = tuple(results)
        outputs = tuple(self.names.var(p.name, p.aval) for p in params)
        self.builder.append(ir.While(tuple(carried), tuple(params), cond_block, body_block, outputs, loc))
        for name, out in zip(names, outputs):
            frame.env[name] = TensorValue(out)

    def _as_bool_scalar(self, test, loc) -> ir.Var:
        var = test.var
        if var.aval.dtype != np.bool_ or var.aval.shape:
            var = self._apply("cast", (TensorValue(self._scalar(test, loc)),), {"dtype": np.dtype(np.bool_)}).var
        return var


class _ConstIndex:
    """The start value of a loop index before the loop is staged."""

    def __init__(self, value):
        self.value = value


_MISSING = object()


class _Frame:
    """One interpreted function activation: its source and its local names."""

    __slots__ = ("source", "env")

    def __init__(self, source, env):
        self.source, self.env = source, env


class _BoundMethod:
    """A Tensor method looked up on a TensorValue (``x.sum``), called by interpreting its source."""

    __slots__ = ("function", "self_value")

    def __init__(self, function, self_value):
        self.function, self.self_value = function, self_value


def _is_library(fn) -> bool:
    module = getattr(fn, "__module__", "") or ""
    return module == "npspore" or module.startswith("npspore.")


def _has_loop_exit(stmts, kinds=(ast.Break, ast.Continue)) -> bool:
    """Whether ``stmts`` break or continue the loop they are in (not counting inner loops)."""
    pending = list(stmts)
    while pending:
        node = pending.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, (ast.For, ast.While, ast.FunctionDef, ast.Lambda)):
            continue
        pending.extend(ast.iter_child_nodes(node))
    return False


def _assigned_names(stmts) -> list:
    names = []
    for node in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in names:
            names.append(node.id)
    return names


def _capture_label(obj) -> str:
    name = getattr(obj, "name", None)
    return name if isinstance(name, str) and name else "captured"


def _tree_node(value, counter):
    if isinstance(value, TensorValue):
        return ("leaf", next(counter))
    if isinstance(value, tuple):
        return ("tuple", tuple(_tree_node(v, counter) for v in value))
    if isinstance(value, list):
        return ("list", tuple(_tree_node(v, counter) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(value.keys()), tuple(_tree_node(v, counter) for v in value.values()))
    return ("const", value)


def abstract_inputs(args, dynamic=None):
    """Abstract values for concrete call arguments: Tensors become input slots, the rest stays.

    ``dynamic`` maps an argument index to a shape with ``None`` dims (from ``set_inputs``).
    """
    Tensor, _ = _tensor_classes()

    def convert(value, shape=None):
        if isinstance(value, Tensor):
            array = value._array
            return _Param(Aval(shape if shape is not None else array.shape, array.dtype))
        if isinstance(value, (tuple, list)):
            return _copy_container(value, [convert(v) for v in value])
        if isinstance(value, dict):
            return _copy_container(value, {k: convert(v) for k, v in value.items()})
        return value

    return tuple(convert(a, (dynamic or {}).get(i)) for i, a in enumerate(args))
