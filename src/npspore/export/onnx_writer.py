"""Writing an :class:`~npspore.export.graph.ExportGraph` as an ONNX model (``onnx`` package, opset
:data:`~npspore.export.onnx_ops.OPSET`).

Each node becomes the ONNX nodes of its op's form (``onnx_ops.ONNX_FORMS``); an ``IfNode`` becomes
``If`` with two branch graphs; a ``LoopNode`` becomes ``Loop``: a ``for range`` with its trip count
``len(range(start, stop, step))`` and its index ``start + i * step``, a ``while`` with its
condition computed before the loop and again at the end of each iteration. Subgraphs read outer
values by name, as ONNX allows. The model's inputs, initializers and outputs keep the graph's names;
a dynamic dim of an input is a symbolic dim (``x_dim0``). An op without an ONNX form raises
``ExportError`` naming the op and the user's line.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..core.version import __version__
from .graph import Constant, ExportGraph, IfNode, LoopNode, Node, Subgraph, Value, unsupported
from .onnx_ops import NO_ONNX_FORM, ONNX_FORMS, OPSET, Emitter, NoForm

__all__ = ["onnx_model", "onnx_bytes"]

_IR_VERSION = 10   # the IR version of opset 21 (ONNX 1.16)


def onnx_bytes(graph: ExportGraph) -> bytes:
    """The serialized ONNX model of ``graph`` (see :func:`onnx_model`)."""
    return onnx_model(graph).SerializeToString()


def onnx_model(graph: ExportGraph, *, input_names=(), output_names=(), dim_params=None, export_params: bool = True,
               initializers_as_inputs: bool = False) -> onnx.ModelProto:
    """The ONNX model of ``graph``.

    Args:
        graph: the export graph.
        input_names, output_names (Sequence[str]): names of the first inputs (outputs), in order;
            the others keep the graph's (``construct``'s parameters; outputs ``"0"``, ``"1"``...).
        dim_params (dict[str, dict[int, str]]): ``{input name: {axis: symbol}}``: names of dynamic dims
            (default ``<input>_dim<axis>``).
        export_params (bool): False leaves the Parameters out: they become inputs of the model.
        initializers_as_inputs (bool): list the Parameters among the inputs too (with their values).

    Raises:
        ExportError: located at the user's line, for an op without an ONNX form.
        ValueError: if a name given in ``input_names``/``output_names`` is used twice.
    """
    writer = _Writer()
    scope = _Scope(writer, None)
    inputs, initializers = [], []
    given = len(input_names)
    input_names = list(input_names) + [v.name for v in graph.inputs[given:]]
    dim_params = dim_params or {}
    for position, (value, name) in enumerate(zip(graph.inputs, input_names)):
        name = scope.names[id(value)] = writer.claim(name) if position < given else writer.unique(name)
        symbols = dim_params.get(name, {})
        dims = [symbols.get(i, f"{name}_dim{i}") if d is None else d for i, d in enumerate(value.shape)]
        inputs.append(helper.make_tensor_value_info(name, _elem_type(value.dtype), dims))
    for init in graph.initializers:
        name = scope.names[id(init.value)] = writer.unique(init.value.name)
        if not export_params or initializers_as_inputs:
            inputs.append(_value_info(name, init.value))
        if export_params:
            initializers.append(numpy_helper.from_array(np.ascontiguousarray(init.array, init.value.dtype), name))
    # MindSpore names a model's outputs after the nodes computing them (numbers)
    claimed = [writer.claim(output_names[k]) if k < len(output_names) else writer.unique(str(k))
               for k in range(len(graph.outputs))]
    scope.run(graph.nodes)
    outputs = []
    for result, name in zip(graph.outputs, claimed):
        outputs.append(_value_info(scope.emit("Identity", scope.read(result), output=name), result))
    main = helper.make_graph(scope.nodes, graph.name or "npspore", inputs, outputs, initializers)
    model = helper.make_model(main, producer_name="npspore", producer_version=__version__,
                              opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = _IR_VERSION
    return model


def _elem_type(dtype) -> int:
    return int(helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))


def _value_info(name: str, operand) -> onnx.ValueInfoProto:
    if isinstance(operand, Constant):
        return helper.make_tensor_value_info(name, _elem_type(operand.value.dtype), list(operand.value.shape))
    dims = [None if d is None else d for d in operand.shape]
    return helper.make_tensor_value_info(name, _elem_type(operand.dtype), dims)


class _Writer:
    """Names unique across the whole model (ONNX subgraphs share the outer graph's namespace)."""

    def __init__(self):
        self.taken: set[str] = set()

    def claim(self, name: str) -> str:
        """Reserve ``name`` exactly (an input, Parameter or output name the model must keep)."""
        if name in self.taken:
            raise ValueError(f"the name {name!r} is given to two values of the ONNX model")
        self.taken.add(name)
        return name

    def unique(self, base: str) -> str:
        name, n = base, 0
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name


class _Scope(Emitter):
    """The nodes of one ONNX graph being written, and the ONNX name of each export-graph value."""

    def __init__(self, writer: _Writer, parent: _Scope | None):
        self.writer = writer
        self.parent = parent
        self.names: dict[int, str] = {}
        self.nodes: list = []
        self.hint = "t"

    # -- the Emitter interface of the op forms

    def op(self, op_type: str, *inputs, outputs: int = 1, **attrs):
        names = [self.writer.unique(self.hint) for _ in range(outputs)]
        attrs = {k: numpy_helper.from_array(v) if isinstance(v, np.ndarray) else v for k, v in attrs.items()}
        self.nodes.append(helper.make_node(op_type, [i if i is not None else "" for i in inputs], names,
                                           name=self.writer.unique(f"{op_type}_{self.hint}"), **attrs))
        return names[0] if outputs == 1 else names

    def const(self, value) -> str:
        array = np.asarray(value)
        name = self.writer.unique(f"{self.hint}_const")
        self.nodes.append(helper.make_node("Constant", [], [name], name=self.writer.unique(f"Constant_{name}"),
                                           value=numpy_helper.from_array(array, name)))
        return name

    def emit(self, op_type: str, *inputs, output: str, **attrs) -> str:
        self.nodes.append(helper.make_node(op_type, list(inputs), [output], name=self.writer.unique(
            f"{op_type}_{output}"), **attrs))
        return output

    # -- values

    def lookup(self, value: Value) -> str | None:
        scope: _Scope | None = self
        while scope is not None:
            name = scope.names.get(id(value))
            if name is not None:
                return name
            scope = scope.parent
        return None

    def read(self, operand) -> str | None:
        """The ONNX name of an operand (a Constant node for a constant; None for a non-numeric one)."""
        if isinstance(operand, Constant):
            if operand.value.dtype == object:
                return None
            self.hint = "const"
            return self.const(operand.value)
        name = self.lookup(operand)
        if name is None:
            raise AssertionError(f"export graph value {operand.name} read before it is computed")
        return name

    # -- nodes

    def run(self, nodes: list) -> None:
        for node in nodes:
            if isinstance(node, Node):
                self.node(node)
            elif isinstance(node, IfNode):
                self.if_node(node)
            else:
                self.loop_node(node)

    def node(self, node: Node) -> None:
        form = ONNX_FORMS.get(node.op)
        if form is None:
            reason = NO_ONNX_FORM.get(node.op, "npspore has no ONNX form for it yet")
            raise unsupported(node.op, "ONNX", reason, node.loc)
        ins = [self.read(operand) for operand in node.inputs]
        self.hint = node.outputs[0].name if node.outputs else node.op
        try:
            names = form(self, node, ins)
        except NoForm as error:
            raise unsupported(node.op, "ONNX", str(error), node.loc) from None
        for value, name in zip(node.outputs, names):
            self.names[id(value)] = name

    def branch(self, sub: Subgraph, name: str) -> onnx.GraphProto:
        """An ONNX graph of an ``If`` branch: no inputs (it reads outer values by name), ``sub.results``
        as its outputs."""
        scope = _Scope(self.writer, self)
        scope.run(sub.nodes)
        outputs = []
        for result in sub.results:
            out = scope.emit("Identity", scope.read(result), output=self.writer.unique(f"{name}_out"))
            outputs.append(_value_info(out, result))
        return helper.make_graph(scope.nodes, self.writer.unique(name), [], outputs)

    def if_node(self, node: IfNode) -> None:
        cond = self.read(node.cond)
        then_graph = self.branch(node.then_graph, "then")
        else_graph = self.branch(node.else_graph, "else")
        self.hint = node.outputs[0].name if node.outputs else "if"
        names = self.op("If", cond, outputs=len(node.outputs), then_branch=then_graph, else_branch=else_graph)
        for value, name in zip(node.outputs, names if isinstance(names, list) else [names]):
            self.names[id(value)] = name

    def loop_node(self, node: LoopNode) -> None:
        carried = [self.read(c) for c in node.carried]
        iteration = helper.make_tensor_value_info(self.writer.unique("iteration"), onnx.TensorProto.INT64, [])
        cond_in = helper.make_tensor_value_info(self.writer.unique("cond_in"), onnx.TensorProto.BOOL, [])
        if node.kind == "for":
            trip_count, keep_going = self.trip_count(node), ""
            index = node.body.params[0]
            carried_params = node.body.params[1:]
        else:
            assert node.cond is not None
            trip_count, keep_going = "", self.condition(node.cond, carried)
            carried_params = node.body.params
        inputs = [(iteration, None), (cond_in, None)] + [
            (helper.make_tensor_value_info(self.writer.unique(p.name), _elem_type(p.dtype),
                                           [None if d is None else d for d in p.shape]), p) for p in carried_params]
        body_scope = _Scope(self.writer, self)
        for info, value in inputs[2:]:
            body_scope.names[id(value)] = info.name
        if node.kind == "for":
            body_scope.hint = index.name
            step = body_scope.read(node.step)
            start = body_scope.read(node.start)
            body_scope.names[id(index)] = body_scope.op("Add", start, body_scope.op("Mul", iteration.name, step))
        body_scope.run(node.body.nodes)
        results = [body_scope.read(r) for r in node.body.results]
        if node.kind == "for":
            cond_out = body_scope.emit("Identity", cond_in.name, output=self.writer.unique("cond_out"))
        else:
            assert node.cond is not None
            cond_out = body_scope.condition(node.cond, results)
        outputs = [helper.make_tensor_value_info(cond_out, onnx.TensorProto.BOOL, [])]
        for result, param in zip(results, carried_params):
            out = body_scope.emit("Identity", result, output=self.writer.unique(f"{param.name}_next"))
            outputs.append(_value_info(out, param))
        body = helper.make_graph(body_scope.nodes, self.writer.unique("loop_body"), [i for i, _ in inputs], outputs)
        self.hint = node.outputs[0].name if node.outputs else "loop"
        names = self.op("Loop", trip_count, keep_going, *carried, outputs=len(node.outputs), body=body)
        for value, name in zip(node.outputs, names if isinstance(names, list) else [names]):
            self.names[id(value)] = name

    def condition(self, cond: Subgraph, carried: list) -> str:
        """A while loop's condition on the carried values named ``carried``, computed in this scope."""
        scope = _Scope(self.writer, self)
        for param, name in zip(cond.params, carried):
            scope.names[id(param)] = name
        scope.run(cond.nodes)
        result = scope.read(cond.results[0])
        self.nodes += scope.nodes
        return self.emit("Cast", result, output=self.writer.unique("keep_going"), to=onnx.TensorProto.BOOL)

    def trip_count(self, node: LoopNode) -> str:
        """``len(range(start, stop, step))`` as an int64 scalar constant."""
        bounds = []
        for bound in (node.start, node.stop, node.step):
            if not isinstance(bound, Constant):
                raise unsupported("for range", "ONNX", "the loop's bounds must be known when exporting", node.loc)
            bounds.append(int(bound.value))
        self.hint = "trip_count"
        return self.const(np.asarray(len(range(*bounds)), np.int64))
