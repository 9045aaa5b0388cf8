"""Reading a ``.mindir`` file into a :class:`MindIRGraph`, refusing any malformed file with a
:class:`~npspore.core.safefile.FileReadError` that names it.

The bytes come through ``core.protofile.parse_file``, the reader ``.ckpt`` files use too (a regular
file only, at most 2 GiB, protobuf's bounded nesting). Then every part of the graph is checked
before anything runs or is allocated: each node's primitive is one npspore runs
(``ops.mindir_primitives.PRIMITIVES``: an unknown one is named in the error), each input names a graph
input, a Parameter, a constant or an earlier node, each declared shape is bounded and each tensor's
bytes hold exactly its shape's elements (``core.protofile.checked_shape`` and ``elements_of``, as for
checkpoints). Control flow is read into structured nodes: a ``Switch`` of two ``Partial`` closures,
called, is an ``@if``; a call of a loop header (a graph whose then-branch calls it again, as MindSpore
writes a ``while``) is a ``@while``; any other cycle of graph calls, and calls nested more than 64
deep, are refused, so running a graph never recurses without bound. Nothing in a file is ever
executed or imported: primitive names are looked up in npspore's table, and a graph is data that
:class:`~npspore.nn.GraphCell` interprets with npspore's own ops.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.protofile import checked_shape, elements_of, parse_file
from ..core.safefile import FileReadError
from ..nn.graph_cell import MindIRGraph, MindIRNode
from ..ops.mindir_primitives import PRIMITIVES, attribute_names
from .mindir_proto import ATTRIBUTE_TYPES, WHAT, model_message

__all__ = ["read_mindir", "TENSOR_TYPES"]

# TensorProto.DataType -> NumPy dtype
TENSOR_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
                9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64, 17: np.float64}
_MAX_NESTING = 16   # tuples of tuples in one attribute
_MAX_CALL_DEPTH = 64   # graphs calling graphs (branches, loops, sub-graphs)


def _damaged(path: str, reason: str) -> FileReadError:
    return FileReadError(path, f"Failed to read the MindIR file {path}: {reason}; the file is damaged or not a "
                               "MindIR file that npspore reads.")


def _tensor(path: str, proto) -> np.ndarray:
    dtype = TENSOR_TYPES.get(proto.data_type)
    if dtype is None:
        raise _damaged(path, f"the tensor '{proto.name}' has the data type {proto.data_type}, which npspore does "
                             "not read")
    shape = tuple(proto.dims)
    if proto.HasField("external_data"):
        raise _damaged(path, f"the tensor '{proto.name}' keeps its data in an external file, which npspore does "
                             "not read")
    elements = elements_of(proto.raw_data, np.uint8 if dtype is np.bool_ else dtype)
    if elements is None or not checked_shape(shape, elements.size):
        raise _damaged(path, f"the tensor '{proto.name}' declares the shape {list(shape)} but holds "
                             f"{len(proto.raw_data)} bytes of {np.dtype(dtype).name}")
    array = elements != 0 if dtype is np.bool_ else elements.copy()   # a Bool is any non-zero byte
    return array.reshape(shape)


def _attribute(path: str, proto, depth: int = 0) -> Any:
    """The Python value of an ``AttributeProto`` (a constant input or a primitive's attribute)."""
    if depth > _MAX_NESTING:
        raise _damaged(path, f"the attribute '{proto.name}' is nested more than {_MAX_NESTING} deep")
    kind = ATTRIBUTE_TYPES[proto.type] if proto.type < len(ATTRIBUTE_TYPES) else str(proto.type)
    if kind == "BOOL":
        return bool(proto.i)
    if kind in ("INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"):
        return int(proto.ints[0]) if proto.ints else int(proto.i)
    if kind in ("FLOAT", "DOUBLE"):
        return float(proto.floats[0]) if proto.floats else float(proto.f if kind == "FLOAT" else proto.d)
    if kind == "STRING":
        return (proto.strings[0] if proto.strings else proto.s).decode("utf-8", "replace")
    if kind in ("TUPLE", "LIST"):
        return tuple(_attribute(path, value, depth + 1) for value in proto.values)
    if kind == "TENSORS" and len(proto.tensors) == 1:
        return _tensor(path, proto.tensors[0])
    if kind in ("NONE", "UMONAD", "IOMONAD"):
        return None
    raise _damaged(path, f"the value '{proto.name}' has the attribute type {kind}, which npspore does not read")


def _text(path: str, value) -> str:
    """A string field's value (protobuf hands out the bytes of a string that is not valid UTF-8)."""
    if not isinstance(value, str):
        raise _damaged(path, f"the name {value!r} is not valid UTF-8")
    return value


def _primitive(path: str, proto) -> str:
    op_type = _text(path, proto.op_type)
    if op_type not in PRIMITIVES and op_type not in ("Switch", "Partial"):
        raise FileReadError(path, f"Failed to load the MindIR file {path}: it uses the primitive "
                                  f"'{op_type}', which npspore does not run.")
    return op_type


def _node(path: str, node, primitives: dict, functions: dict, known: dict) -> MindIRNode:
    """One node: a primitive's application, a call of a function graph (``@call``) or of a closure
    value (``@call_value``); ``Partial``'s first input names a function graph."""
    op_type = _text(path, node.op_type)
    if len(node.output) != 1:
        raise _damaged(path, f"the node '{node.name}' has {len(node.output)} outputs")
    reference = op_type[5:] if op_type.startswith("REF::") else None
    inputs = []
    for name in node.input:
        name = _text(path, name)
        if name in known:
            inputs.append(known[name])
        elif name in functions and not inputs:
            inputs.append(("graph", name))
        else:
            raise _damaged(path, f"the node '{node.name}' reads '{name}', which no earlier node defines")
    output = _text(path, node.output[0])
    if reference in functions:
        return MindIRNode("@call", tuple(inputs), output, (("graph", reference),))
    if reference in known and known[reference][0] == "value":
        return MindIRNode("@call_value", (known[reference],) + tuple(inputs), output, ())
    if reference not in primitives:
        raise _damaged(path, f"a node applies '{op_type}', which is neither a primitive, a function graph nor a "
                             "value of the file")
    proto = primitives[reference]
    primitive = _primitive(path, proto)
    if (primitive == "Partial") != bool(inputs and inputs[0][0] == "graph") or any(
            kind == "graph" for kind, _ in inputs[1:]):
        raise _damaged(path, f"the node '{node.name}' passes a function graph where a value belongs")
    given = {attribute.name: attribute for attribute in proto.attribute}
    attributes = []
    for name in attribute_names(primitive) if primitive in PRIMITIVES else ():
        if name not in given:
            raise _damaged(path, f"the primitive '{proto.name}' ({primitive}) has no attribute '{name}'")
        attributes.append((name, _attribute(path, given[name])))
    return MindIRNode(primitive, tuple(inputs), output, tuple(sorted(attributes)))


def _function(path: str, proto, primitives: dict, functions: dict, known: dict) -> tuple:
    """``(input keys, nodes, outputs)`` of one graph; ``known`` holds the constants and Parameters."""
    known = dict(known)
    input_keys = []
    for value in proto.input:
        key = _text(path, value.name)
        input_keys.append(key)
        known[key] = ("value", key)
    nodes = []
    for node in proto.node:
        if node.op_type != "Constant":
            nodes.append(_node(path, node, primitives, functions, known))
            known[nodes[-1].output] = ("value", nodes[-1].output)
    outputs = []
    for value in proto.output:
        if value.name not in known:
            raise _damaged(path, f"the output '{value.name}' of '{proto.name}' is not defined by the graph")
        outputs.append(known[value.name])
    if not outputs:
        raise _damaged(path, f"the graph '{proto.name}' has no output")
    return tuple(input_keys), _structured(path, nodes), tuple(outputs)


def _structured(path: str, nodes: list) -> tuple:
    """The nodes with each call of a ``Switch`` of two ``Partial`` closures as one ``@if`` node
    (operands: the condition, the then-branch's arguments, the else-branch's); closures are never values."""
    by_output = {node.output: node for node in nodes}
    closures = {node.output for node in nodes if node.primitive in ("Switch", "Partial")}
    result = []
    for node in nodes:
        reads = [key for kind, key in node.inputs if kind == "value"]
        if node.primitive == "@call_value":
            switch = by_output.get(reads[0])
            if switch is None or switch.primitive != "Switch" or len(switch.inputs) != 3:
                raise _damaged(path, f"the node '{node.output}' calls a value that is not a Switch of two closures")
            then_branch, else_branch = [by_output[key] for _, key in switch.inputs[1:]]   # closures (checked below)
            extra = node.inputs[1:]
            then_args, else_args = then_branch.inputs[1:] + extra, else_branch.inputs[1:] + extra
            result.append(MindIRNode("@if", (switch.inputs[0],) + then_args + else_args, node.output,
                                     (("else", else_branch.inputs[0][1]), ("split", 1 + len(then_args)),
                                      ("then", then_branch.inputs[0][1]))))
        elif node.primitive == "Switch":
            if len(reads) != 3 or any(by_output.get(key) is None or by_output[key].primitive != "Partial"
                                      for key in reads[1:]) or reads[0] in closures:
                raise _damaged(path, f"the Switch '{node.output}' chooses between values that are not closures")
        elif node.primitive != "Partial":
            if any(key in closures for key in reads):
                raise _damaged(path, f"the node '{node.output}' reads a closure as a value")
            result.append(node)
    return tuple(result)


def _looped(path: str, functions: dict) -> dict:
    """The function graphs with each call of a loop header as a ``@while`` node.

    A loop header is a graph whose result is an ``@if`` whose then-branch ends by calling the header
    again (how MindSpore writes a ``while``). Any other cycle of calls is refused, and calls nest at
    most ``_MAX_CALL_DEPTH`` deep, so running a graph never recurses without bound."""
    headers = {}
    for name, (_, nodes, outputs) in functions.items():
        last = nodes[-1] if nodes else None
        if last is not None and last.primitive == "@if" and outputs == (("value", last.output),):
            _, body_nodes, body_outputs = functions[dict(last.attributes)["then"]]
            tail = body_nodes[-1] if body_nodes else None
            if tail is not None and tail.primitive == "@call" and tail.attributes == (("graph", name),) \
                    and body_outputs == (("value", tail.output),):
                headers[name] = dict(last.attributes)["then"]
    looped = {}
    for name, (input_keys, nodes, outputs) in functions.items():
        looped[name] = (input_keys, tuple(
            MindIRNode("@while", node.inputs, node.output, node.attributes)
            if node.primitive == "@call" and dict(node.attributes)["graph"] in headers
            and not (headers.get(dict(node.attributes)["graph"]) == name and node is nodes[-1]) else node
            for node in nodes), outputs)
    _check_calls(path, looped, headers)
    return looped


def _check_calls(path: str, functions: dict, headers: dict) -> None:
    depth: dict = {}

    def visit(name, stack):
        if name in stack:
            raise _damaged(path, f"the graph '{name}' calls itself other than as a loop")
        if name in depth:
            return depth[name]
        nodes = functions[name][1]
        callees = []
        for node in nodes:
            attributes = dict(node.attributes)
            if node.primitive == "@call" and not (headers.get(attributes["graph"]) == name and node is nodes[-1]):
                callees.append(attributes["graph"])
            elif node.primitive == "@if":
                callees += [attributes["then"], attributes["else"]]
            elif node.primitive == "@while":   # the header's if reaches the body, whose tail call is not followed
                callees.append(attributes["graph"])
        depth[name] = 1 + max((visit(callee, stack | {name}) for callee in callees), default=0)
        if depth[name] > _MAX_CALL_DEPTH:
            raise _damaged(path, f"the graph '{name}' nests calls more than {_MAX_CALL_DEPTH} deep")
        return depth[name]

    for name in functions:
        visit(name, frozenset())


def read_mindir(path: str) -> MindIRGraph:
    """The graph of the MindIR file ``path``.

    Raises:
        FileReadError: if the file is not a regular file or not a valid MindIR file, declares a
            shape npspore cannot hold, or uses a primitive npspore does not run (named).
    """
    model = parse_file(path, model_message(), WHAT, f"Failed to load the MindIR file {path}. The file may be "
                                                     "truncated or not a MindIR file, and the content cannot be parsed.")
    graph = model.graph
    if not _text(path, graph.name) or not graph.output:
        raise _damaged(path, "it holds no graph")
    primitives = {_text(path, proto.name): proto for proto in model.primitives}
    functions = {_text(path, proto.name): proto for proto in model.functions}
    constants, known = {}, {}
    for proto in (graph, *model.functions):   # constants are shared by every graph of the file
        for node in proto.node:
            if node.op_type == "Constant":
                if len(node.output) != 1 or len(node.attribute) != 1:
                    raise _damaged(path, f"the constant '{node.name}' has {len(node.attribute)} values")
                key = _text(path, node.output[0])
                constants[key] = _attribute(path, node.attribute[0])
                known[key] = ("constant", key)
    inputs = []
    for value in graph.input:
        if len(value.tensor) != 1:
            raise _damaged(path, f"the input '{value.name}' describes {len(value.tensor)} tensors")
        shape = tuple(value.tensor[0].dims)
        dtype = TENSOR_TYPES.get(value.tensor[0].data_type)
        if dtype is None or not checked_shape(tuple(1 if dim == -1 else dim for dim in shape)):  # -1: dynamic
            raise _damaged(path, f"the input '{value.name}' has the shape {list(shape)} and data type "
                                 f"{value.tensor[0].data_type}")
        inputs.append((_text(path, value.name).rsplit(":", 1)[-1], shape, np.dtype(dtype)))
    parameters, parameter_keys = {}, []
    for proto in graph.parameter:
        name = _text(path, proto.ref_key) or _text(path, proto.name).rsplit(":", 1)[-1]
        parameters[name] = _tensor(path, proto)
        parameter_keys.append((proto.name, name))
        known[proto.name] = ("value", proto.name)
    graphs = {name: _function(path, proto, primitives, functions, known) for name, proto in functions.items()}
    graphs[graph.name] = _function(path, graph, primitives, functions, known)
    graphs = _looped(path, graphs)
    input_keys, nodes, outputs = graphs.pop(graph.name)
    return MindIRGraph(path, graph.name, tuple(inputs), input_keys, parameters, tuple(parameter_keys),
                       nodes, outputs, constants, graphs)
