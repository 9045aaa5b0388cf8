"""Writing an :class:`~npspore.export.graph.ExportGraph` as a MindIR file that MindSpore 2.10 loads.

The file is one ``mind_ir.ModelProto`` (``train.mindir_proto``) laid out as MindSpore 2.10 writes it:
the graph's inputs ``<graph>:x``, its Parameters as ``parameter`` tensors named ``<graph>:conv1.weight``
with ``ref_key`` ``conv1.weight``, one node per primitive application whose ``op_type`` refers to a
``PrimitiveProto`` (``REF::Conv2D:3``), constants as ``Constant`` nodes. Each op of the op table
maps to MindSpore's primitive (:data:`MINDIR_FORMS`): a ``PRIMITIVE_FUNCTION`` takes its arguments
as constant inputs in the order of its ``op_def`` (``MatMul(x, w, transpose_a, transpose_b)``), a
``PRIMITIVE`` (``Conv2D``, ``MaxPool``, ``Stack``) carries them as attributes. A tensor ``if``
becomes MindSpore's ``Switch`` of two ``Partial`` closures of branch graphs, called; a tensor
``while`` or ``for range`` a recursive loop graph, as MindSpore exports them. An op without a
MindIR form (:data:`NO_MINDIR_FORM`, with the reason) fails naming the op and the user's line.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..ops.mindir_primitives import TYPE_IDS
from ..train.mindir_decode import TENSOR_TYPES
from ..train.mindir_proto import ATTRIBUTE_TYPES, PRIMITIVE, PRIMITIVE_FUNCTION, model_message
from .graph import Constant, ExportGraph, IfNode, LoopNode, Node, Subgraph, Value, unsupported

__all__ = ["mindir_bytes", "MINDIR_FORMS", "NO_MINDIR_FORM"]

_ATTR = {name: number for number, name in enumerate(ATTRIBUTE_TYPES)}
_DATA_TYPE = {np.dtype(dtype): number for number, dtype in TENSOR_TYPES.items() if number != 17}
_TYPE_ID = {np.dtype(dtype): number for number, dtype in TYPE_IDS.items()}

_UNARY = {"neg": "Neg", "abs": "Abs", "square": "Square", "sign": "Sign", "exp": "Exp", "log": "Log",
          "log1p": "Log1p", "sqrt": "Sqrt", "rsqrt": "Rsqrt", "sin": "Sin", "cos": "Cos", "tan": "Tan",
          "tanh": "Tanh", "sigmoid": "Sigmoid", "relu": "ReLU", "erf": "Erf", "softplus": "Softplus",
          "logical_not": "LogicalNot"}
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "RealDiv", "floor_div": "FloorDiv", "mod": "FloorMod",
           "pow": "Pow", "maximum": "Maximum", "minimum": "Minimum", "equal": "Equal", "not_equal": "NotEqual",
           "less": "Less", "less_equal": "LessEqual", "greater": "Greater", "greater_equal": "GreaterEqual",
           "logical_and": "LogicalAnd", "logical_or": "LogicalOr"}
_REDUCE = {"sum": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax", "min": "ReduceMin", "prod": "ReduceProd",
           "all": "ReduceAll", "any": "ReduceAny"}

_GRADIENT = ("a gradient op, in an export only when construct computes a gradient: npspore does not write "
             "MindSpore's gradient primitives ({}) yet")
_IN_PLACE = ("an in-place write of npspore's NumPy kernels, made by optimize after the export stop point, so no "
             "export program holds it")
_COLLECTIVE = "a collective across MPI ranks; a MindIR graph of one device holds no communication"
NO_MINDIR_FORM = {
    "getitem_grad": _GRADIENT.format("StridedSliceGrad"),
    "gather_grad": _GRADIENT.format("UnsortedSegmentSum"),
    "masked_select": "its output's length depends on the data; npspore writes static shapes only (not MaskedSelect)",
    "masked_select_grad": _GRADIENT.format("MaskedSelectGrad"),
    "conv2d_filter_grad": _GRADIENT.format("Conv2DBackpropFilter"),
    "conv2d_columns": "the im2col half of npspore's NumPy convolution: the export graph folds it back into conv2d, "
                      "and alone (in a gradient program) MindIR has no primitive for it",
    "conv2d_columns_grad": _GRADIENT.format("Col2Im"),
    "pool2d_windows": "a strided windows view of npspore's NumPy pooling, which MindIR has no primitive for",
    "max_pool2d_index": "the argmax position in each max-pooling window, for its gradient; MindIR's MaxPoolWithArgmax "
                        "counts positions differently and is not written",
    "max_pool2d_grad": _GRADIENT.format("MaxPoolGrad"),
    "max_pool2d_gather": _GRADIENT.format("MaxPoolGradGrad"),
    "sum_pool2d_grad": _GRADIENT.format("AvgPoolGrad"),
    "class_indices": "it checks class indices at run time and raises ValueError; MindIR has no raising primitive",
    "row_add_in_place": _IN_PLACE,
    "row_set_in_place": _IN_PLACE,
    "all_reduce": _COLLECTIVE, "all_gather": _COLLECTIVE, "reduce_scatter": _COLLECTIVE, "broadcast": _COLLECTIVE,
    "reduce": _COLLECTIVE,
}


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
        else:
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


def _free_values(subgraphs: list, names: dict, bound: list = ()) -> list:
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


# --------------------------------------------------------------------------- op table -> MindIR


def _unary(primitive: str) -> Callable:
    return lambda w, node: w.apply(primitive, [w.operand(node.inputs[0])], node.outputs[0])


def _binary(primitive: str) -> Callable:
    return lambda w, node: w.apply(primitive, [w.operand(x) for x in node.inputs], node.outputs[0])


def _reduce(primitive: str) -> Callable:
    def write(w, node):
        axis = node.attrs.get("axis")
        axes = () if axis is None else (tuple(axis) if isinstance(axis, (tuple, list)) else (axis,))
        extra = [w.constant(False)] if primitive == "ReduceSum" else []
        return w.apply(primitive, [w.operand(node.inputs[0]), w.constant(axes),
                                   w.constant(bool(node.attrs.get("keepdims")))] + extra, node.outputs[0])
    return write


def _reshape_to_output(w, node):
    shape = tuple(-1 if dim is None else dim for dim in node.outputs[0].shape)
    return w.apply("Reshape", [w.operand(node.inputs[0]), w.constant(shape)], node.outputs[0])


def _transpose(w, node):
    axes = node.attrs.get("axes")
    perm = tuple(axes) if axes is not None else tuple(reversed(range(len(node.inputs[0].shape))))
    return w.apply("Transpose", [w.operand(node.inputs[0]), w.constant(perm)], node.outputs[0])


def _matmul(w, node):
    """``matmul`` as ``MatMul`` of matrices, else ``BatchMatMul`` with each operand broadcast to the
    result's batch dims (MindSpore's BatchMatMul takes operands of one rank)."""
    x, y = node.inputs
    out = node.outputs[0]
    flags = [w.constant(bool(node.attrs.get("transpose_a"))), w.constant(bool(node.attrs.get("transpose_b")))]
    shapes = [tuple(v.value.shape if isinstance(v, Constant) else v.shape) for v in (x, y)]
    if len(shapes[0]) == len(shapes[1]) == 2:
        return w.apply("MatMul", [w.operand(x), w.operand(y)] + flags, out)
    batch = tuple(out.shape[:-2])
    operands = []
    for operand, shape in zip((x, y), shapes):
        full = batch + shape[-2:]
        name = w.operand(operand)
        if shape != full:
            name = w.apply("BroadcastTo", [name, w.constant(full)], Value("batched", full, out.dtype))
        operands.append(name)
    return w.apply("BatchMatMul", operands + flags, out)


def _conv_attributes(weight_shape, attrs, pad_modes: tuple) -> tuple:
    """The attributes MindSpore's Conv2D and Conv2DTranspose carry, for a filter of ``weight_shape``;
    ``pad_modes`` spell (no padding, explicit padding) as the primitive does."""
    pads = tuple(attrs.get("padding", (0, 0, 0, 0)))
    stride, dilation = tuple(attrs.get("stride", (1, 1))), tuple(attrs.get("dilation", (1, 1)))
    groups = attrs.get("groups", 1)
    return (("kernel_size", tuple(weight_shape[2:])), ("mode", 1), ("out_channel", weight_shape[0]),
            ("pad", pads), ("pad_mode", pad_modes[pads != (0, 0, 0, 0)]),
            ("format", "NCHW"), ("pad_list", pads), ("groups", groups), ("group", groups),
            ("stride", (1, 1) + stride), ("dilation", (1, 1) + dilation))


def _conv2d(w, node):
    x, weight = node.inputs
    return w.apply("Conv2D", [w.operand(x), w.operand(weight)], node.outputs[0],
                   _conv_attributes(weight.shape, node.attrs, ("valid", "pad")), False)


def _conv2d_input_grad(w, node):
    """``conv2d_input_grad`` (a transposed convolution) as MindSpore's ``Conv2DTranspose(dout, w, input_size)``."""
    dout, weight = node.inputs
    return w.apply("Conv2DTranspose", [w.operand(dout), w.operand(weight), w.constant(tuple(node.attrs["input_shape"]))],
                   node.outputs[0], _conv_attributes(weight.shape, node.attrs, ("VALID", "PAD")), False)


def _max_pool2d(w, node):
    if tuple(node.attrs.get("padding", (0, 0, 0, 0))) != (0, 0, 0, 0) or tuple(node.attrs.get("dilation")) != (1, 1):
        raise unsupported("max_pool2d", "MindIR", "MindSpore's MaxPool has no explicit padding or dilation",
                          node.loc)
    attributes = (("pad_mode", "VALID"), ("kernel_size", (1, 1) + tuple(node.attrs["kernel_size"])),
                  ("format", "NCHW"), ("strides", (1, 1) + tuple(node.attrs["stride"])))
    return w.apply("MaxPool", [w.operand(node.inputs[0])], node.outputs[0], attributes, False)


def _softmax(primitive: str) -> Callable:
    def write(w, node):
        axis = node.attrs.get("axis", -1)
        return w.apply(primitive, [w.operand(node.inputs[0]), w.constant((axis,) if primitive == "Softmax" else axis)],
                       node.outputs[0])
    return write


def _cast(w, node):
    return w.apply("Cast", [w.operand(node.inputs[0]), w.constant(_TYPE_ID[np.dtype(node.outputs[0].dtype)])],
                   node.outputs[0])


def _where(w, node):
    condition, x, y = node.inputs
    shape = tuple(node.outputs[0].shape)
    operands = []
    for operand, dtype in ((condition, np.bool_), (x, node.outputs[0].dtype), (y, node.outputs[0].dtype)):
        if isinstance(operand, Constant):
            operands.append(w.constant(np.broadcast_to(np.asarray(operand.value, dtype), shape).copy()))
        elif tuple(operand.shape) != shape:
            operands.append(w.apply("BroadcastTo", [w.operand(operand), w.constant(shape)],
                                    Value(operand.name, shape, operand.dtype)))
        else:
            operands.append(w.operand(operand))
    return w.apply("Select", operands, node.outputs[0])


def _sequence(primitive: str) -> Callable:
    def write(w, node):
        names = [w.operand(x) for x in node.inputs]
        values = [x if isinstance(x, Value) else Value("constant", x.value.shape, x.value.dtype) for x in node.inputs]
        items = w.tuple_of(names, values)
        axis = node.attrs.get("axis", 0)
        if primitive == "Concat":
            return w.apply("Concat", [items, w.constant(axis)], node.outputs[0])
        attributes = (("axis", axis), ("N", len(names)), ("num", len(names)))
        return w.apply("Stack", [items], node.outputs[0], attributes, False)
    return write


def _expand_dims(w, node):
    return w.apply("ExpandDims", [w.operand(node.inputs[0]), w.constant(node.attrs["axis"])], node.outputs[0])


def _broadcast_to(w, node):
    return w.apply("BroadcastTo", [w.operand(node.inputs[0]), w.constant(tuple(node.outputs[0].shape))],
                   node.outputs[0])


def _tile(w, node):
    reps = node.attrs["reps"]
    return w.apply("Tile", [w.operand(node.inputs[0]), w.constant(tuple(reps) if isinstance(reps, (tuple, list))
                                                                   else (reps,))], node.outputs[0])


def _gather(w, node):
    return w.apply("Gather", [w.operand(node.inputs[0]), w.operand(node.inputs[1]),
                              w.constant(node.attrs.get("axis", 0)), w.constant(0)], node.outputs[0])


def _getitem(w, node):
    x = node.inputs[0]
    index = node.attrs["index"]
    index = index if isinstance(index, tuple) else (index,)
    begin, end, strides, shrink, end_mask = [], [], [], 0, 0
    if any(item is None or item is Ellipsis for item in index):
        raise unsupported("getitem", "MindIR", "npspore writes slices and integer indices, not new axes or an "
                                               "ellipsis", node.loc)
    for axis, item in enumerate(index):
        size = x.shape[axis]
        if isinstance(item, slice) and size is not None:
            start, stop, step = item.indices(size)
            if stop < 0:   # a reversed slice down to the first element: MindSpore's end -1 is the last one
                end_mask |= 1 << axis
            begin.append(start), end.append(stop), strides.append(step)
        elif isinstance(item, (int, np.integer)) and size is not None:
            position = int(item) % size
            begin.append(position), end.append(position + 1), strides.append(1)
            shrink |= 1 << axis
        else:
            raise unsupported("getitem", "MindIR", f"npspore writes slices and integer indices, not {item!r}",
                              node.loc)
    inputs = [w.operand(x), w.constant(tuple(begin)), w.constant(tuple(end)), w.constant(tuple(strides))]
    masks = [w.constant(0), w.constant(end_mask), w.constant(0), w.constant(0), w.constant(shrink)]
    return w.apply("StridedSlice", inputs + masks, node.outputs[0])


def _split(w, node):
    sections, axis = node.attrs["indices_or_sections"], node.attrs.get("axis", 0)
    if isinstance(sections, int):
        parts = w.apply("Split", [w.operand(node.inputs[0]), w.constant(axis), w.constant(sections)], None)
        return tuple(w.item(parts, index, value) for index, value in enumerate(node.outputs))
    x = node.inputs[0]
    rank, axis = len(x.shape), axis % len(x.shape)
    bounds = (0,) + tuple(sections) + (x.shape[axis],)
    pieces = []
    for value, start, stop in zip(node.outputs, bounds, bounds[1:]):
        begin = tuple(start if dim == axis else 0 for dim in range(rank))
        end = tuple(stop if dim == axis else x.shape[dim] for dim in range(rank))
        inputs = [w.operand(x), w.constant(begin), w.constant(end), w.constant((1,) * rank)]
        pieces.append(w.apply("StridedSlice", inputs + [w.constant(0)] * 5, value))
    return tuple(pieces)


def _arg_extremum(primitive: str) -> Callable:
    def write(w, node):
        axis = node.attrs.get("axis")
        if axis is None or node.attrs.get("keepdims"):
            raise unsupported(node.op, "MindIR", f"MindSpore's {primitive} takes one axis and drops it", node.loc)
        return w.apply(primitive, [w.operand(node.inputs[0]), w.constant(axis),
                                   w.constant(_TYPE_ID[np.dtype(node.outputs[0].dtype)])], node.outputs[0])
    return write


def _extremum_with_indices(primitive: str) -> Callable:
    """``max_with_indices`` as ``ArgMaxWithValue`` (which yields ``(indices, values)``, indices int32)."""
    def write(w, node):
        axis = node.attrs.get("axis")
        if axis is None:
            raise unsupported(node.op, "MindIR", f"MindSpore's {primitive} takes one axis", node.loc)
        values, indices = node.outputs
        pair = w.apply(primitive, [w.operand(node.inputs[0]), w.constant(axis),
                                   w.constant(bool(node.attrs.get("keepdims")))], None)
        index32 = w.item(pair, 0, Value(indices.name, indices.shape, np.dtype(np.int32)))
        return w.item(pair, 1, values), w.apply("Cast", [index32, w.constant(_TYPE_ID[np.dtype(indices.dtype)])],
                                                indices)
    return write


def _dot(w, node):
    x, y = node.inputs
    if len(y.shape) == 2 and len(x.shape) == 2:
        return w.apply("MatMul", [w.operand(x), w.operand(y), w.constant(False), w.constant(False)], node.outputs[0])
    if len(y.shape) == 1:
        product = w.apply("Mul", [w.operand(x), w.operand(y)], Value("product", tuple(x.shape), node.outputs[0].dtype))
        return w.apply("ReduceSum", [product, w.constant((-1,)), w.constant(False), w.constant(False)],
                       node.outputs[0])
    raise unsupported("dot", "MindIR", "npspore writes dot of a matrix by a matrix or of anything by a vector",
                      node.loc)


def _outer(w, node):
    x, y = node.inputs
    out = node.outputs[0]
    column = w.apply("Reshape", [w.operand(x), w.constant((-1, 1))], Value("column", (out.shape[0], 1), out.dtype))
    row = w.apply("Reshape", [w.operand(y), w.constant((1, -1))], Value("row", (1, out.shape[1]), out.dtype))
    return w.apply("Mul", [column, row], out)


def _gather_last(w, node):
    x, indices = node.inputs
    return w.apply("GatherD", [w.operand(x), w.constant(-1), w.operand(indices)], node.outputs[0])


def _topk(w, node):
    values, indices = node.outputs
    x = w.operand(node.inputs[0])
    largest = node.attrs.get("largest", True)
    if not largest:
        x = w.apply("Neg", [x], node.inputs[0])
    pair = w.apply("TopK", [x, w.constant(node.attrs["k"])], None, (("sorted", True),), False)
    top = w.item(pair, 0, values)
    return (top if largest else w.apply("Neg", [top], values)), w.item(pair, 1, indices)


def _sum_pool2d(w, node):
    attrs = node.attrs
    if tuple(attrs.get("padding", (0, 0, 0, 0))) != (0, 0, 0, 0) or tuple(attrs.get("dilation", (1, 1))) != (1, 1):
        raise unsupported("sum_pool2d", "MindIR", "MindSpore's AvgPool has no explicit padding or dilation", node.loc)
    out = node.outputs[0]
    kernel, stride = tuple(attrs["kernel_size"]), tuple(attrs["stride"])
    mean = w.apply("AvgPool", [w.operand(node.inputs[0]), w.constant(kernel), w.constant(stride), w.constant(2),
                               w.constant(0)], out)   # pad_mode 2: VALID; data_format 0: NCHW
    return w.apply("Mul", [mean, w.constant(np.asarray(kernel[0] * kernel[1], out.dtype))], out)


def _gelu(w, node):
    if not node.attrs.get("approximate"):
        x = w.operand(node.inputs[0])
        out = node.outputs[0]
        scaled = w.apply("Mul", [x, w.constant(np.asarray(0.7071067811865476, out.dtype))], out)
        erf = w.apply("Erf", [scaled], out)
        one = w.apply("Add", [erf, w.constant(np.asarray(1.0, out.dtype))], out)
        half = w.apply("Mul", [x, w.constant(np.asarray(0.5, out.dtype))], out)
        return w.apply("Mul", [half, one], out)
    return w.apply("GeLU", [w.operand(node.inputs[0])], node.outputs[0])


def _clip(w, node):
    x, low, high = node.inputs
    out = node.outputs[0]
    value = w.operand(x)
    if not (isinstance(low, Constant) and low.value.dtype == object):
        value = w.apply("Maximum", [value, w.operand(low)], out)
    if not (isinstance(high, Constant) and high.value.dtype == object):
        value = w.apply("Minimum", [value, w.operand(high)], out)
    return value


def _row(w, node):
    """``x[t]`` as ``Gather`` along axis 0 reshaped to the row's shape (MindSpore's loop graphs may hold the
    index as a 1-element tensor rather than a 0-d one)."""
    x, t = node.inputs
    out = node.outputs[0]
    rows = w.apply("Gather", [w.operand(x), w.operand(t), w.constant(0), w.constant(0)], None)
    return w.apply("Reshape", [rows, w.constant(tuple(out.shape))], out)


def _row_scatter(primitive: str) -> Callable:
    """``row_add``/``row_set`` (``buf`` with ``h`` added into, or written to, row ``t``) as
    ``TensorScatterAdd``/``TensorScatterUpdate`` of one index."""
    def write(w, node):
        buf, t, h = node.inputs
        index_dtype = t.value.dtype if isinstance(t, Constant) else t.dtype
        index = w.apply("Reshape", [w.operand(t), w.constant((1, 1))], Value("index", (1, 1), index_dtype))
        rows = w.apply("ExpandDims", [w.operand(h), w.constant(0)], Value("rows", (1,) + tuple(h.shape), h.dtype))
        return w.apply(primitive, [w.operand(buf), index, rows], node.outputs[0], (), primitive != "TensorScatterAdd")
    return write


def _filled_like(primitive: str) -> Callable:
    """``ones_like``/``zeros_like``: ``OnesLike``/``ZerosLike``, cast when the op asks for another dtype."""
    def write(w, node):
        x, out = node.inputs[0], node.outputs[0]
        if np.dtype(x.dtype) == np.dtype(out.dtype):
            return w.apply(primitive, [w.operand(x)], out)
        filled = w.apply(primitive, [w.operand(x)], Value("filled", tuple(x.shape), x.dtype))
        return w.apply("Cast", [filled, w.constant(_TYPE_ID[np.dtype(out.dtype)])], out)
    return write


def _identity(w, node):
    """``stop_gradient``: the value itself (an exported graph computes no gradient)."""
    return w.operand(node.inputs[0])


def _softmax_cross_entropy(w, node):
    """``-sum(labels * log_softmax(logits), axis)``."""
    logits, labels = node.inputs
    out = node.outputs[0]
    axis = node.attrs.get("axis", -1)
    full = Value("log_probs", tuple(logits.shape), out.dtype)
    log_probs = w.apply("LogSoftmax", [w.operand(logits), w.constant(axis)], full)
    product = w.apply("Mul", [w.operand(labels), log_probs], full)
    total = w.apply("ReduceSum", [product, w.constant((axis,)), w.constant(False), w.constant(False)], out)
    return w.apply("Neg", [total], out)


def _random(primitive: str) -> Callable:
    """``random_normal``/``random_uniform`` as ``StandardNormal``/``UniformReal`` (float32, cast to the op's dtype)."""
    def write(w, node):
        out = node.outputs[0]
        shape = tuple(node.attrs["shape"])
        draw = w.apply(primitive, [w.constant(shape)], Value("draw", shape, np.dtype(np.float32)),
                       (("seed", 0), ("seed2", 0)), False)
        if np.dtype(out.dtype) == np.float32:
            return draw
        return w.apply("Cast", [draw, w.constant(_TYPE_ID[np.dtype(out.dtype)])], out)
    return write


def _dropout_mask(w, node):
    """``(uniform < keep_prob) / keep_prob`` in the op's dtype."""
    out = node.outputs[0]
    shape, keep = tuple(node.attrs["shape"]), node.attrs["keep_prob"]
    draw = w.apply("UniformReal", [w.constant(shape)], Value("draw", shape, np.dtype(np.float32)),
                   (("seed", 0), ("seed2", 0)), False)
    kept = w.apply("Less", [draw, w.constant(np.asarray(keep, np.float32))], Value("kept", shape, np.dtype(np.bool_)))
    mask = w.apply("Cast", [kept, w.constant(_TYPE_ID[np.dtype(out.dtype)])], out)
    return w.apply("Mul", [mask, w.constant(np.asarray(1 / keep, out.dtype))], out)


def _scatter_last(w, node):
    """``scatter_last`` (gradient of ``gather_last``): ``TensorScatterElements`` adding into zeros along the last axis."""
    g, indices = node.inputs
    out = node.outputs[0]
    zeros = w.constant(np.zeros(out.shape, out.dtype))
    return w.apply("TensorScatterElements", [zeros, w.operand(indices), w.operand(g), w.constant(-1),
                                             w.constant(1)], out)   # MindSpore's Reduce enum: 1 is "add"


def _round(w, node):
    return w.apply("Round", [w.operand(node.inputs[0]), w.constant(0)], node.outputs[0])


def _constant_of(w, node):
    """An op of no tensor operand (``ones``, ``zeros``, ``fill``): its value, computed now."""
    from ..opdef import op_table
    value = op_table()[node.op].forward(*[np.asarray(c.value) for c in node.inputs], **node.attrs)
    return w.constant(np.asarray(value, node.outputs[0].dtype))


def _one_hot(w, node):
    indices, on, off = node.inputs
    return w.apply("OneHot", [w.operand(indices), w.constant(node.attrs["depth"]), w.operand(on), w.operand(off),
                              w.constant(node.attrs.get("axis", -1))], node.outputs[0])


MINDIR_FORMS: dict[str, Callable] = {
    **{op: _unary(primitive) for op, primitive in _UNARY.items()},
    **{op: _binary(primitive) for op, primitive in _BINARY.items()},
    **{op: _reduce(primitive) for op, primitive in _REDUCE.items()},
    "reshape": _reshape_to_output, "flatten": _reshape_to_output, "squeeze": _reshape_to_output,
    "expand_dims": _expand_dims, "transpose": _transpose, "broadcast_to": _broadcast_to, "tile": _tile,
    "concat": _sequence("Concat"), "stack": _sequence("Stack"), "split": _split, "getitem": _getitem,
    "gather": _gather, "matmul": _matmul, "batch_matmul": _matmul, "conv2d": _conv2d, "max_pool2d": _max_pool2d,
    "conv2d_input_grad": _conv2d_input_grad,
    "softmax": _softmax("Softmax"), "log_softmax": _softmax("LogSoftmax"), "cast": _cast, "where": _where,
    "argmax": _arg_extremum("Argmax"), "argmin": _arg_extremum("Argmin"),
    "max_with_indices": _extremum_with_indices("ArgMaxWithValue"),
    "min_with_indices": _extremum_with_indices("ArgMinWithValue"), "dot": _dot, "outer": _outer,
    "gather_last": _gather_last, "topk": _topk, "sum_pool2d": _sum_pool2d, "gelu": _gelu, "clip": _clip, "one_hot": _one_hot,
    "ones": _constant_of, "zeros": _constant_of, "fill": _constant_of, "adaptive_avg_weights": _constant_of,
    "adaptive_window_index": _constant_of, "round": _round, "ones_like": _filled_like("OnesLike"),
    "zeros_like": _filled_like("ZerosLike"),
    "row": _row, "row_add": _row_scatter("TensorScatterAdd"), "row_set": _row_scatter("TensorScatterUpdate"),
    "stop_gradient": _identity, "softmax_cross_entropy": _softmax_cross_entropy, "random_normal": _random("StandardNormal"),
    "random_uniform": _random("UniformReal"), "dropout_mask": _dropout_mask, "scatter_last": _scatter_last,
}


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
