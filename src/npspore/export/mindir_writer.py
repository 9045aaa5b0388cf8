"""Writing an :class:`~npspore.export.graph.ExportGraph` as a MindIR file that MindSpore 2.10 loads.

The file is one ``mind_ir.ModelProto`` (``train.mindir_proto``) laid out as MindSpore 2.10 writes it:
the graph's inputs ``<graph>:x``, its Parameters as ``parameter`` tensors named ``<graph>:conv1.weight``
with ``ref_key`` ``conv1.weight``, one node per primitive application whose ``op_type`` refers to a
``PrimitiveProto`` (``REF::Conv2D:3``), constants as ``Constant`` nodes. Each op of the op table
maps to MindSpore's primitive (``mindir_ops.MINDIR_FORMS``): a ``PRIMITIVE_FUNCTION`` takes its arguments
as constant inputs in the order of its ``op_def`` (``MatMul(x, w, transpose_a, transpose_b)``), a
``PRIMITIVE`` (``Conv2D``, ``MaxPool``, ``Stack``) carries them as attributes. A tensor ``if``
becomes MindSpore's ``Switch`` of two ``Partial`` closures of branch graphs, called; a tensor
``while`` or ``for range`` a recursive loop graph, as MindSpore exports them. An op without a
MindIR form (``mindir_ops.NO_MINDIR_FORM``, with the reason) fails naming the op and the user's line.
"""
from __future__ import annotations

import numpy as np

from ..train.mindir_decode import TENSOR_TYPES
from ..train.mindir_proto import ATTRIBUTE_TYPES, PRIMITIVE, PRIMITIVE_FUNCTION, model_message
from .graph import Constant, ExportGraph, IfNode, LoopNode, Node, Subgraph, Value, unsupported
from .mindir_ops import MINDIR_FORMS, NO_MINDIR_FORM

__all__ = ["mindir_bytes"]

_ATTR = {name: number for number, name in enumerate(ATTRIBUTE_TYPES)}
_DATA_TYPE = {np.dtype(dtype): number for number, dtype in TENSOR_TYPES.items() if number != 17}


class _Writer:
    """Builds one ModelProto: primitives are numbered as MindSpore numbers them (``Add:6``)."""

    def __init__(self):
        self.model = model_message()()
        self.primitives: dict = {}
        self.counter = 0
        self.graph_names: dict = {}

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}:{self.counter}"

    def primitive(self, op_type: str, attributes: tuple = (), function: bool = True) -> str:
        key = (op_type, attributes)
        if key not in self.primitives:
            proto = self.model.primitives.add(name=self.fresh(op_type), op_type=op_type, instance_name="",
                                              prim_type=PRIMITIVE_FUNCTION if function else PRIMITIVE)
            for name, value in attributes:
                _set_attribute(proto.attribute.add(name=name), value)
            self.primitives[key] = proto.name
        return self.primitives[key]


class _GraphWriter:
    """Writes the nodes of one graph (the main graph, a branch or a loop graph) into a GraphProto."""

    def __init__(self, writer: _Writer, proto, names: dict):
        self.writer, self.proto, self.names = writer, proto, dict(names)

    def key(self, base: str) -> str:
        return self.writer.fresh(f"{self.proto.name}:{base}")

    def constant(self, value) -> str:
        name = self.writer.fresh("ValueNode")
        node = self.proto.node.add(name=name, op_type="Constant")
        node.output.append(name)
        _set_attribute(node.attribute.add(name="value"), value)
        return name

    def operand(self, operand) -> str:
        if isinstance(operand, Constant):
            return self.constant(np.asarray(operand.value))
        return self.names[id(operand)]

    def apply(self, op_type: str, inputs: list, value: Value | None, attributes: tuple = (),
              function: bool = True, output: tuple | None = None) -> str:
        """A node applying ``op_type`` to ``inputs`` (names); returns the name of its result."""
        reference = self.writer.primitive(op_type, attributes, function)
        return self.node("REF::" + reference, inputs, value, output)

    def node(self, op_type: str, inputs: list, value: Value | None, output: tuple | None = None) -> str:
        name = self.key(value.name if value is not None else "CNode")
        node = self.proto.node.add(name=name, op_type=op_type)
        node.input.extend(inputs)
        node.output.append(name)
        if value is not None:
            shape = node.attribute.add(name="shape", type=_ATTR["TENSORS"])
            _describe(shape.tensors.add(), value.shape, value.dtype)
        elif output is not None:
            shape = node.attribute.add(name="shape", type=_ATTR["TUPLE"])
            for item in output:
                entry = shape.values.add(type=_ATTR["TENSORS"])
                _describe(entry.tensors.add(), item.shape, item.dtype)
        return name

    def bind(self, value: Value, name: str) -> None:
        self.names[id(value)] = name

    def nodes(self, nodes: list) -> None:
        for node in nodes:
            if isinstance(node, Node):
                self.op(node)
            elif isinstance(node, IfNode):
                self.if_node(node)
            else:
                self.loop(node)

    def op(self, node: Node) -> None:
        if node.op in NO_MINDIR_FORM:
            raise unsupported(node.op, "MindIR", NO_MINDIR_FORM[node.op], node.loc)
        form = MINDIR_FORMS.get(node.op)
        if form is None:
            raise unsupported(node.op, "MindIR", "it has no MindIR form in npspore yet", node.loc)
        results = form(self, node)
        for value, name in zip(node.outputs, results if isinstance(results, tuple) else (results,)):
            self.bind(value, name)

    def tuple_of(self, names: list, values: list) -> str:
        return self.apply("MakeTuple", names, None, (), False, output=tuple(values))

    def item(self, tuple_name: str, index: int, value: Value) -> str:
        return self.apply("TupleGetItem", [tuple_name, self.constant(index)], value, (), False)

    def function_graph(self, base: str, params: tuple, nodes: list, results: tuple, captured: list) -> str:
        """A function graph of ``params`` (then ``captured`` values of this graph), returning ``results``."""
        name = self.writer.fresh(f"{self.proto.name}_{base}").replace(":", "_")
        proto = self.writer.model.functions.add(name=name)
        sub = _GraphWriter(self.writer, proto, {})
        for value in tuple(params) + tuple(captured):
            input_name = f"{name}:{value.name}"
            _describe(proto.input.add(name=input_name).tensor.add(), value.shape, value.dtype)
            sub.bind(value, input_name)
        sub.nodes(nodes)
        out = [sub.operand(r) for r in results]
        result = out[0] if len(out) == 1 else sub.tuple_of(out, list(results))
        _describe_output(proto, result, results)
        return name

    def if_node(self, node: IfNode) -> None:
        captured = _free_values([node.then_graph, node.else_graph], self.names)
        args = [self.names[id(v)] for v in captured]
        branches = [self.function_graph(base, (), sub.nodes, sub.results, captured)
                    for base, sub in (("true", node.then_graph), ("false", node.else_graph))]
        partials = [self.apply("Partial", [branch] + args, None, (), False) for branch in branches]
        switch = self.apply("Switch", [self.operand(node.cond)] + partials, None, (), False)
        self.call_results(self.node(f"REF::{switch}", [], None, tuple(node.outputs)), node.outputs)

    def call_results(self, called: str, outputs: tuple) -> None:
        if len(outputs) == 1:
            self.bind(outputs[0], called)
            return
        for index, value in enumerate(outputs):
            self.bind(value, self.item(called, index, value))

    def loop_graph(self, base: str, params: list):
        """A new function graph taking ``params`` (Values), and its writer."""
        name = self.writer.fresh(f"{self.proto.name}_{base}").replace(":", "_")
        proto = self.writer.model.functions.add(name=name)
        sub = _GraphWriter(self.writer, proto, {})
        for value in params:
            input_name = f"{name}:{value.name}"
            _describe(proto.input.add(name=input_name).tensor.add(), value.shape, value.dtype)
            sub.bind(value, input_name)
        return name, proto, sub

    def call_graph(self, graph: str, args: list, outputs: tuple) -> str:
        single = len(outputs) == 1
        return self.node(f"REF::{graph}", args, outputs[0] if single else None, None if single else tuple(outputs))

    def loop(self, node: LoopNode) -> None:
        """A tensor loop as MindSpore writes one: a header graph tests the condition and switches to the
        body graph, which calls the header again, or to the exit graph, which returns the carried values.
        A ``for range`` loop carries its index as the first value (``index < stop`` for a positive step)."""
        carried = list(node.body.params)
        subgraphs = [node.body] if node.cond is None else [node.cond, node.body]
        captured = _free_values(subgraphs, self.names, bound=carried)
        if node.kind == "for":
            bounds = [b for b in (node.stop, node.step) if isinstance(b, Value)]
            captured += [b for b in bounds if all(b is not c for c in captured)]
        params = carried + captured
        outputs = tuple(node.outputs) if node.kind == "while" else (carried[0],) + tuple(node.outputs)
        header, header_proto, sub = self.loop_graph("while", params)
        if node.kind == "for":
            step = node.step.value if isinstance(node.step, Constant) else None
            if step is None or step <= 0:
                raise unsupported("for range", "MindIR", "npspore writes range loops of a positive constant step",
                                  node.loc)
            condition = sub.apply("Less", [sub.names[id(carried[0])], sub.operand(node.stop)],
                                  Value("cond", (), np.dtype(np.bool_)))
        elif node.cond is not None:
            for param, value in zip(node.cond.params, carried):
                sub.bind(param, sub.names[id(value)])
            sub.nodes(node.cond.nodes)
            condition = sub.operand(node.cond.results[0])
        body_name, body_proto, body = self.loop_graph("body", params)
        body.nodes(node.body.nodes)
        next_values = [body.operand(r) for r in node.body.results]
        if node.kind == "for":
            index = carried[0]
            next_values = [body.apply("Add", [body.names[id(index)], body.operand(node.step)], index)] + next_values
        recurse = body.call_graph(header, next_values + [body.names[id(v)] for v in captured], outputs)
        _describe_output(body_proto, recurse, outputs)
        exit_name, exit_proto, done = self.loop_graph("exit", params)
        out = [done.names[id(v)] for v in carried]
        _describe_output(exit_proto, out[0] if len(out) == 1 else done.tuple_of(out, carried), outputs)
        args = [sub.names[id(v)] for v in params]
        partials = [sub.apply("Partial", [graph] + args, None, (), False) for graph in (body_name, exit_name)]
        switch = sub.apply("Switch", [condition] + partials, None, (), False)
        _describe_output(header_proto, sub.node(f"REF::{switch}", [], outputs[0] if len(outputs) == 1 else None,
                                                None if len(outputs) == 1 else outputs), outputs)
        start = [self.operand(c) for c in ((node.start,) if node.kind == "for" else ()) + tuple(node.carried)]
        result = self.call_graph(header, start + [self.names[id(v)] for v in captured], outputs)
        if node.kind == "for":
            for index, value in enumerate(node.outputs):
                self.bind(value, self.item(result, index + 1, value))
        else:
            self.call_results(result, node.outputs)


def _free_values(subgraphs: list, names: dict, bound: tuple | list = ()) -> list:
    """The Values of the enclosing graph that ``subgraphs`` read (their closure), in first-read order."""
    defined = {id(v) for v in bound}
    free: dict = {}

    def visit(sub: Subgraph):
        defined.update(id(p) for p in sub.params)
        for node in sub.nodes:
            reads = list(node.inputs) if isinstance(node, Node) else (
                [node.cond] if isinstance(node, IfNode) else list(node.carried))
            for value in reads:
                if isinstance(value, Value) and id(value) not in defined and id(value) in names:
                    free.setdefault(id(value), value)
            if isinstance(node, IfNode):
                visit(node.then_graph)
                visit(node.else_graph)
            elif isinstance(node, LoopNode):
                if node.cond is not None:
                    visit(node.cond)
                visit(node.body)
            defined.update(id(v) for v in node.outputs)
        for value in sub.results:
            if isinstance(value, Value) and id(value) not in defined and id(value) in names:
                free.setdefault(id(value), value)

    for sub in subgraphs:
        visit(sub)
    return list(free.values())


def _describe(tensor, shape, dtype) -> None:
    tensor.dims.extend(-1 if dim is None else int(dim) for dim in shape)
    tensor.data_type = _DATA_TYPE[np.dtype(dtype)]


def _describe_output(graph, name: str, values) -> None:
    output = graph.output.add(name=name)
    if len(values) == 1:
        _describe(output.tensor.add(), values[0].shape, values[0].dtype)


def _set_attribute(proto, value, in_sequence: bool = False) -> None:
    """``value`` (bool, int, float, str, None, tuple, NumPy array) as an AttributeProto (numbers inside
    a tuple in the repeated ``ints``/``floats``, as MindSpore reads them)."""
    if in_sequence and isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        proto.type = _ATTR["INT64"]
        proto.ints.append(int(value))
    elif in_sequence and isinstance(value, (float, np.floating)):
        proto.type = _ATTR["FLOAT"]
        proto.floats.append(float(value))
    elif value is None:
        proto.type = _ATTR["NONE"]
    elif isinstance(value, (bool, np.bool_)):
        proto.type, proto.i = _ATTR["BOOL"], int(value)
    elif isinstance(value, (int, np.integer)):
        proto.type, proto.i = _ATTR["INT64"], int(value)
    elif isinstance(value, (float, np.floating)) and not isinstance(value, np.ndarray):
        proto.type, proto.f = _ATTR["FLOAT"], float(value)
    elif isinstance(value, str):
        proto.type, proto.s = _ATTR["STRING"], value.encode()
    elif isinstance(value, tuple):
        proto.type = _ATTR["TUPLE"]
        for item in value:
            _set_attribute(proto.values.add(), item, True)
    else:
        array = np.ascontiguousarray(value)
        proto.type = _ATTR["TENSORS"]
        tensor = proto.tensors.add(name="value0")
        _describe(tensor, array.shape, array.dtype)
        tensor.raw_data = array.astype(array.dtype.newbyteorder("<")).tobytes()


def mindir_bytes(graph: ExportGraph) -> bytes:
    """The MindIR file of ``graph`` (a serialized ``mind_ir.ModelProto``).

    Raises:
        ExportError: for an op without a MindIR form, naming it and the user's source line.
    """
    writer = _Writer()
    model = writer.model
    # model_version: the MindSpore release whose format this is (MindSpore writes its own version there)
    model.ir_version, model.producer_name, model.model_version = "1.1", "npspore", "2.10.0"
    model.little_endian, model.mind_ir_version = True, 3
    name = f"npspore_{graph.name}".replace(".", "_").replace(":", "_")
    proto = model.graph
    proto.name = name
    main = _GraphWriter(writer, proto, {})
    for value in graph.inputs:
        input_name = f"{name}:{value.name}"
        _describe(proto.input.add(name=input_name).tensor.add(), value.shape, value.dtype)
        main.bind(value, input_name)
    for initializer in graph.initializers:
        array = np.ascontiguousarray(initializer.array)
        tensor = proto.parameter.add(name=f"{name}:{initializer.value.name}", ref_key=initializer.value.name)
        _describe(tensor, array.shape, array.dtype)
        tensor.raw_data = array.astype(array.dtype.newbyteorder("<")).tobytes()
        main.bind(initializer.value, tensor.name)
    main.nodes(graph.nodes)
    results = [main.operand(value) for value in graph.outputs]
    values = [v if isinstance(v, Value) else Value("constant", v.value.shape, v.value.dtype) for v in graph.outputs]
    result = results[0] if len(results) == 1 else main.tuple_of(results, values)
    _describe_output(proto, result, values)
    return model.SerializeToString()
