"""The export graph: one forward program as a small, backend-neutral data structure.

Every export format (ONNX, MindIR) is written from an :class:`ExportGraph`, which
:func:`build_graph` makes from the typed IR at the pipeline's export stop point
(``compiler.pipeline.export_program``: optimized, before the steps that only serve NumPy execution).

What it holds:

* ``inputs``: the call's tensor leaves, named after ``construct``'s parameters (``x``; the leaves of a
  tuple argument ``x_0``, ``x_1``...), as MindSpore names them; a ``None`` dim is symbolic
  (``Cell.set_inputs``);
* ``initializers``: the Parameters (and captured Tensors) the program reads, each named after the
  Parameter (``conv1.weight``), with its array;
* ``nodes``: in program order, each a :class:`Node` (an op of the op table, ``npspore.opdef``, with its
  operands, its static attributes as the op table spells them, and its results with inferred shape
  and dtype), an :class:`IfNode` or a :class:`LoopNode` (a tensor ``for range`` or ``while``), whose
  blocks are :class:`Subgraph` objects;
* ``outputs``: the flat results (:class:`Value` or :class:`Constant`).

Calls of sub-cells are inlined. Operands are already of the dtype the op computes in (MindSpore's
implicit casts are explicit ``cast`` nodes; Python scalars are :class:`Constant` arrays of that dtype).
The ``conv2d_columns`` + GEMM form that compiled convolutions take is folded back into one ``conv2d``
node. Each node keeps the user's source location (the innermost call site in the user's files), so a
backend can name the line of an op it cannot write (:func:`unsupported`).
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from .. import compiler
from ..common.tensor import Tensor
from ..compiler import ir
from ..compiler.errors import PACKAGE_DIRECTORY, located
from ..jit import forward_request
from ..nn.cell import Cell
from ..opdef import Aval, op_table

__all__ = ["Value", "Constant", "Node", "Subgraph", "IfNode", "LoopNode", "Initializer", "ExportGraph",
           "ExportError", "export_graph", "build_graph", "construct_parameter_names", "unsupported", "walk_nodes"]


class ExportError(ValueError):
    """The program cannot be written in the chosen format (an op without a form there, a print...)."""


@dataclass(eq=False)
class Value:
    """A tensor edge of the graph: a unique name, its shape (``None`` for a symbolic dim) and dtype."""

    name: str
    shape: tuple
    dtype: np.dtype


@dataclass(eq=False)
class Constant:
    """An operand known at export time, as a NumPy array of the dtype the op reads it in."""

    value: np.ndarray


Operand = Union[Value, Constant]


@dataclass(eq=False)
class Node:
    """``outputs = op(*inputs, **attrs)``: ``op`` is an op table name, ``attrs`` its static attributes."""

    op: str
    inputs: tuple
    attrs: dict
    outputs: tuple
    loc: ir.Loc


@dataclass(eq=False)
class Subgraph:
    """A nested block: ``params`` are bound on entry, ``nodes`` run, ``results`` are yielded."""

    params: tuple
    nodes: list
    results: tuple


@dataclass(eq=False)
class IfNode:
    """``outputs = then_graph() if cond else else_graph()`` (both subgraphs take no params)."""

    cond: Operand
    then_graph: Subgraph
    else_graph: Subgraph
    outputs: tuple
    loc: ir.Loc


@dataclass(eq=False)
class LoopNode:
    """A loop over ``carried`` values, whose final values are ``outputs``.

    ``kind == "for"``: ``for index in range(start, stop, step)``, ``body.params == (index, *carried)``.
    ``kind == "while"``: ``cond`` (params: the carried values) yields one bool before each iteration,
    ``body.params`` are the carried values. ``body.results`` are the next carried values.
    """

    kind: str
    carried: tuple
    body: Subgraph
    outputs: tuple
    loc: ir.Loc
    start: Operand | None = None
    stop: Operand | None = None
    step: Operand | None = None
    cond: Subgraph | None = None


@dataclass(eq=False)
class Initializer:
    """A Parameter (or captured Tensor) of the program: the Value that reads it and its array."""

    value: Value
    array: np.ndarray


@dataclass(eq=False)
class ExportGraph:
    """One forward program, ready for a backend (see the module docstring)."""

    name: str
    inputs: tuple
    initializers: tuple
    nodes: list
    outputs: tuple
    source_file: str = ""


def walk_nodes(nodes):
    """Every node of a node list and of its subgraphs, in program order."""
    for node in nodes:
        yield node
        for sub in _subgraphs(node):
            yield from walk_nodes(sub.nodes)


def _subgraphs(node) -> tuple:
    if isinstance(node, IfNode):
        return (node.then_graph, node.else_graph)
    if isinstance(node, LoopNode):
        return (node.body,) if node.cond is None else (node.cond, node.body)
    return ()


def unsupported(op: str, format_name: str, reason: str, loc: ir.Loc) -> ExportError:
    """The error for op ``op`` that format ``format_name`` cannot express, located at the user's line."""
    return located(ExportError(f"npspore cannot export op '{op}' to {format_name}: {reason}"), loc)


# ------------------------------------------------------------------------------------------ building


def export_graph(net: Cell, *inputs: Any, dynamic_axes: dict | None = None) -> ExportGraph:
    """The :class:`~npspore.export.graph.ExportGraph` of ``net``'s forward for ``inputs``, in inference mode.

    ``dynamic_axes`` (``{argument position: axes}``) makes those dims of Tensor arguments dynamic, as
    ``net.set_inputs`` with ``None`` there does (which applies too); so are the ``None`` dims of a
    placeholder argument (``Tensor(shape=[None, 3], dtype=...)``).

    Raises:
        ValueError: a compile error of the program (located at the user's line), or an
            ``ExportError`` for a statement no export holds, or for a Cell with forward hooks or
            ``to_float`` of its own (they run in Python around its kernel).
    """
    if net._forward_pre_hooks or net._forward_hooks or net._cast_dtype is not None:
        raise ExportError(f"npspore cannot export {type(net).__name__}: its forward hooks or to_float run in Python "
                          "around its compiled construct, which an export cannot hold; export the Cell without them")
    training = net.training
    net.set_train(False)
    try:
        request = forward_request(net, inputs)
        dynamic_axes = dict(dynamic_axes or {})
        for position, arg in enumerate(inputs):
            if isinstance(arg, Tensor) and -1 in arg.shape:
                dynamic_axes[position] = {axis for axis, d in enumerate(arg.shape) if d == -1} | set(
                    dynamic_axes.get(position, ()))
        if dynamic_axes:
            dynamic = dict(request.dynamic or {})
            for position, axes in dynamic_axes.items():
                shape = dynamic.get(position, tuple(inputs[position].shape))
                dynamic[position] = tuple(None if axis in axes else d for axis, d in enumerate(shape))
            request = dataclasses.replace(request, dynamic=dynamic)
        program = compiler.pipeline.export_program(request)
    finally:
        net.set_train(training)
    return build_graph(program, _input_names(net, inputs, program.leaf_slices),
                       [_captured_name(obj, path) for obj, path in zip(program.captured, program.capture_paths)])


def construct_parameter_names(net: Cell) -> list:
    """The names of ``net.construct``'s positional parameters (``self`` excluded): a model's input names."""
    code = net.construct.__code__
    return list(code.co_varnames[1:code.co_argcount])


def _input_names(net: Cell, inputs: tuple, leaf_slices: list) -> list:
    """``construct``'s parameter name for each tensor leaf (``x``; ``x_0``, ``x_1`` for a tuple's leaves)."""
    params = construct_parameter_names(net)
    names: list[str] = []
    for position, leaves in enumerate(leaf_slices):
        base = params[position] if position < len(params) else f"input_{position}"
        count = leaves.stop - leaves.start
        names += [base] if count == 1 and isinstance(inputs[position], Tensor) else [
            f"{base}_{k}" for k in range(count)]
    return names


def _captured_name(obj, path) -> str:
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name:
        return name
    return ".".join(str(p) for p in path) if path else "captured"


def build_graph(program, input_names: list, captured_names: list) -> ExportGraph:
    """The export graph of ``program`` (a ``compiler.pipeline.Program`` from ``export_program``).

    Args:
        program: the typed program of the forward call.
        input_names: one name per tensor leaf of the call's arguments, in order.
        captured_names: one name per captured object (``program.captured``), in order.

    Raises:
        ExportError: located at the user's line, for a statement no export can hold (a print, a
            Parameter assignment, Python run on tensor values, a call out of the kernel).
    """
    module = program.module
    entry = module.functions[module.entry]
    builder = _GraphBuilder(module.functions)
    n_inputs = len(input_names)
    inputs = tuple(builder.bind(param, name) for param, name in zip(entry.params, input_names))
    initializers = tuple(Initializer(builder.bind(param, name), np.asarray(_array_of(obj)))
                         for param, name, obj in zip(entry.params[n_inputs:], captured_names, program.captured))
    nodes = builder.block(entry.body, (entry.loc,) if entry.loc else ())
    outputs = tuple(builder.operand(a, a.aval if isinstance(a, ir.Var) else None) for a in entry.body.results)
    _fold_convolutions(nodes, outputs)
    return ExportGraph(program.callable_name, inputs, initializers, nodes, outputs, program.source_file)


def _array_of(obj):
    data = getattr(obj, "asnumpy", None)
    return data() if data is not None else obj


def _user_loc(locs: tuple) -> ir.Loc:
    """The innermost location in the user's own files (npspore's layers are not where the user looks)."""
    for loc in reversed(locs):
        if not os.path.abspath(loc.file).startswith(PACKAGE_DIRECTORY):
            return loc
    return locs[-1]


# the statements of compiled code that no exported model holds (ir.Effect kinds; tapes of a gradient)
_NOT_EXPORTED = {"print": "a print", "print_tree": "a print", "assign": "an assignment to a Parameter",
                 "host": "Python run on a tensor's values (the JIT fallback)",
                 "guard": "a check that a tensor's value is the one the code was compiled for",
                 "host_call": "a call into Python (a hook or a bprop run in Python)"}

_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
_LOGICAL = {"logical_and", "logical_or", "logical_not"}


def _operand_dtypes(definition, stmt: ir.Apply):
    """``(target, scalar_dtype)``: the dtype every operand is cast to (None: each keeps its own), and
    the dtype of a Python scalar operand otherwise (a function of the scalar).

    An op with an ``operand_dtype`` rule computes in that dtype (or, when the rule leaves the operands
    alone, in their common dtype, which a Python scalar takes too: ``f32 + 1`` adds a float32 one);
    comparisons compare in NumPy's common dtype of their operands; logical ops read bools.
    """
    tensors = [a.aval.dtype for a in stmt.args if isinstance(a, ir.Var)]
    if definition.operand_dtype is not None:
        target = definition.operand_dtype(*(ir.aval_or_value(a) for a in stmt.args), **stmt.static)
        if target is not None:
            return np.dtype(target), None
        common = tensors[0] if tensors else stmt.targets[0].aval.dtype
        return None, lambda value: common
    if stmt.op in _COMPARISONS:
        constants: list = [a.value for a in stmt.args if isinstance(a, ir.Const)]
        return np.result_type(*tensors, *constants), None
    if stmt.op in _LOGICAL:
        return np.dtype(np.bool_), None
    result = stmt.targets[0].aval.dtype
    return None, lambda value: np.dtype(np.bool_ if isinstance(value, bool) else np.int64 if isinstance(value, int)
                                        else result if result.kind == "f" else np.float64)


class _GraphBuilder:
    """Translates IR blocks into node lists, inlining calls; Vars map to Values with unique names."""

    def __init__(self, functions: dict):
        self.functions = functions
        self.values: dict[int, Operand] = {}
        self.taken: set[str] = set()

    def fresh(self, name: str, aval: Aval) -> Value:
        unique, n = name, 0
        while unique in self.taken:
            n += 1
            unique = f"{name}_{n}"
        self.taken.add(unique)
        return Value(unique, tuple(aval.shape), aval.dtype)

    def bind(self, var: ir.Var, name: str | None = None) -> Value:
        value = self.fresh(name or var.name, var.aval)
        self.values[id(var)] = value
        return value

    def operand(self, atom, aval: Aval | None, dtype=None) -> Operand:
        """The Value of a Var, or a Constant of a Const (of ``dtype``, else of ``aval``'s dtype)."""
        if isinstance(atom, ir.Var):
            return self.values[id(atom)]
        if dtype is None and aval is not None:
            dtype = aval.dtype
        return Constant(np.asarray(atom.value, dtype=dtype))

    def block(self, block: ir.Block, locs: tuple) -> list:
        nodes: list = []
        for stmt in block.stmts:
            here = locs + (stmt.loc,)
            if isinstance(stmt, ir.Apply):
                self.apply(stmt, here, nodes)
            elif isinstance(stmt, ir.Call):
                self.call(stmt, here, nodes)
            elif isinstance(stmt, ir.If):
                then_graph = self.subgraph((), stmt.then_block, stmt.outputs, here)
                else_graph = self.subgraph((), stmt.else_block, stmt.outputs, here)
                nodes.append(IfNode(self.operand(stmt.cond, None, np.bool_), then_graph, else_graph,
                                    tuple(self.bind(v) for v in stmt.outputs), _user_loc(here)))
            elif isinstance(stmt, ir.ForRange):
                nodes.append(self.for_range(stmt, here))
            elif isinstance(stmt, ir.While):
                nodes.append(self.while_loop(stmt, here))
            else:
                kind = getattr(stmt, "kind", type(stmt).__name__)
                what = _NOT_EXPORTED.get(kind, "a statement of this kind")
                raise located(ExportError(f"npspore cannot export '{kind}', {what}: an exported model holds only "
                                          "tensor computations"), _user_loc(here))
        return nodes

    def apply(self, stmt: ir.Apply, locs: tuple, nodes: list) -> None:
        definition = op_table()[stmt.op]
        loc = _user_loc(locs)
        target, scalar_dtype = _operand_dtypes(definition, stmt)
        inputs = []
        for atom in stmt.args:
            if isinstance(atom, ir.Var):
                value = self.values[id(atom)]
                if target is not None and atom.aval.dtype != target:
                    cast = self.fresh(f"{atom.name}_cast", Aval(atom.aval.shape, target))
                    nodes.append(Node("cast", (value,), {"dtype": target}, (cast,), loc))
                    value = cast
                inputs.append(value)
            elif isinstance(atom.value, (np.ndarray, np.generic)):
                inputs.append(Constant(np.asarray(atom.value, dtype=target)))
            elif isinstance(atom.value, (bool, int, float)):
                inputs.append(Constant(np.asarray(atom.value, dtype=target or scalar_dtype(atom.value))))
            else:
                inputs.append(Constant(np.asarray(atom.value, dtype=object)))
        outputs = tuple(self.bind(t) for t in stmt.targets)
        attrs = {name: stmt.static.get(name, default) for name, default in definition.static.items()}
        nodes.append(Node(stmt.op, tuple(inputs), attrs, outputs, loc))

    def call(self, stmt: ir.Call, locs: tuple, nodes: list) -> None:
        callee = self.functions[stmt.callee]
        for param, arg in zip(callee.params, stmt.args):
            self.values[id(param)] = self.operand(arg, param.aval)
        nodes += self.block(callee.body, locs)
        for target, result in zip(stmt.targets, callee.body.results):
            self.values[id(target)] = self.operand(result, target.aval)

    def subgraph(self, params: tuple, block: ir.Block, result_vars: tuple, locs: tuple) -> Subgraph:
        bound = tuple(self.bind(p) for p in params)
        nodes = self.block(block, locs)
        results = tuple(self.operand(a, v.aval) for a, v in zip(block.results, result_vars))
        return Subgraph(bound, nodes, results)

    def for_range(self, stmt: ir.ForRange, locs: tuple) -> LoopNode:
        index_aval = stmt.index.aval
        carried = tuple(self.operand(a, p.aval) for a, p in zip(stmt.carried, stmt.body_params))
        body = self.subgraph((stmt.index, *stmt.body_params), stmt.body, stmt.body_params, locs)
        bounds = [self.operand(a, index_aval) for a in (stmt.start, stmt.stop, stmt.step)]
        return LoopNode("for", carried, body, tuple(self.bind(v) for v in stmt.outputs), _user_loc(locs),
                        start=bounds[0], stop=bounds[1], step=bounds[2])

    def while_loop(self, stmt: ir.While, locs: tuple) -> LoopNode:
        carried = tuple(self.operand(a, p.aval) for a, p in zip(stmt.carried, stmt.body_params))
        cond_params = tuple(self.bind(p) for p in stmt.body_params)
        cond_nodes = self.block(stmt.cond, locs)
        cond = Subgraph(cond_params, cond_nodes, (self.operand(stmt.cond.results[0], None, np.bool_),))
        body = self.subgraph(stmt.body_params, stmt.body, stmt.body_params, locs)
        return LoopNode("while", carried, body, tuple(self.bind(v) for v in stmt.outputs), _user_loc(locs),
                        cond=cond)


# ------------------------------------------------------------------------------ convolutions, folded


def _fold_convolutions(nodes: list, outputs: tuple) -> None:
    """Fold ``transpose(reshape(matmul(reshape(w), conv2d_columns(x))))`` (how ``ops.conv2d`` stages a
    convolution, ``ops.nn_functional._conv2d_by_columns``; with one group the columns reshaped to a matrix)
    back into ``conv2d(x, w)``, in place, where
    the intermediate values are read by nothing else; in subgraphs too."""
    uses: dict[int, int] = {}
    for node in walk_nodes(nodes):
        for operand in _read_operands(node):
            uses[id(operand)] = uses.get(id(operand), 0) + 1
    for operand in outputs:
        uses[id(operand)] = uses.get(id(operand), 0) + 1
    _fold_in(nodes, uses)


def _read_operands(node) -> list:
    if isinstance(node, Node):
        return list(node.inputs)
    read = list(node.carried) if isinstance(node, LoopNode) else [node.cond]
    if isinstance(node, LoopNode) and node.kind == "for":
        read += [node.start, node.stop, node.step]
    for sub in _subgraphs(node):
        read += list(sub.results)
    return read


def _fold_in(nodes: list, uses: dict) -> None:
    producer = {id(out): node for node in nodes if isinstance(node, Node) for out in node.outputs}

    def single(operand, op):
        node = producer.get(id(operand))
        return node if node is not None and node.op == op and uses.get(id(operand)) == 1 else None

    dropped: set[int] = set()
    for index, node in enumerate(nodes):
        for sub in _subgraphs(node):
            _fold_in(sub.nodes, uses)
        if not (isinstance(node, Node) and node.op == "transpose" and node.attrs.get("axes") == (1, 0, 2, 3)):
            continue
        rows = single(node.inputs[0], "reshape")
        product = rows and single(rows.inputs[0], "matmul")
        if not product or product.attrs.get("transpose_a") or product.attrs.get("transpose_b"):
            continue
        filters, columns = single(product.inputs[0], "reshape"), single(product.inputs[1], "conv2d_columns")
        matrix = None if columns else single(product.inputs[1], "reshape")   # groups=1: the columns as a matrix
        if matrix is not None:
            columns = single(matrix.inputs[0], "conv2d_columns")
        if filters is None or columns is None:
            continue
        weight = filters.inputs[0]
        if tuple(weight.shape) != tuple(columns.attrs["filter_shape"]):
            continue
        attrs = {k: columns.attrs[k] for k in ("stride", "padding", "dilation", "groups") if k in columns.attrs}
        nodes[index] = Node("conv2d", (columns.inputs[0], weight), attrs, node.outputs, node.loc)
        dropped.update(id(n) for n in (rows, product, filters, columns, matrix) if n is not None)
    nodes[:] = [n for n in nodes if id(n) not in dropped]
