"""Reading a ``.mindir`` file into a :class:`MindIRGraph`, refusing any malformed file with a
:class:`~npspore.core.safefile.FileReadError` that names it.

The bytes come through ``core.protofile.parse_file``, the reader ``.ckpt`` files use too (a regular
file only, at most 2 GiB, protobuf's bounded nesting). Then every part of the graph is checked
before anything runs or is allocated: each node's primitive is one npspore runs
(``ops.mindir_primitives.PRIMITIVES``: an unknown one is named in the error), each input names a graph
input, a Parameter, a constant or an earlier node, each declared shape is bounded and each tensor's
bytes hold exactly its shape's elements. Nothing in a file is ever executed: a graph is data that
:class:`~npspore.nn.GraphCell` interprets with npspore's own ops.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.protofile import checked_shape, parse_file
from ..core.safefile import FileReadError
from ..nn.graph_cell import MindIRGraph, MindIRNode
from ..ops.mindir_primitives import PRIMITIVES, attribute_names
from .mindir_proto import ATTRIBUTE_TYPES, WHAT, model_message

__all__ = ["read_mindir", "TENSOR_TYPES"]

# TensorProto.DataType -> NumPy dtype
TENSOR_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
                9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64, 17: np.float64}
_MAX_NESTING = 16   # tuples of tuples in one attribute


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
    itemsize = np.dtype(dtype).itemsize
    data = proto.raw_data
    if len(data) % itemsize or not checked_shape(shape, len(data) // itemsize):
        raise _damaged(path, f"the tensor '{proto.name}' declares the shape {list(shape)} but holds {len(data)} "
                             f"bytes of {np.dtype(dtype).name}")
    return np.frombuffer(data, np.dtype(dtype).newbyteorder("<")).reshape(shape).copy()


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


def _primitive_name(path: str, op_type: str, primitives: dict) -> tuple:
    op_type = _text(path, op_type)
    if not op_type.startswith("REF::") or op_type[5:] not in primitives:
        raise _damaged(path, f"a node applies '{op_type}', which is neither a primitive of the file nor a "
                             "constant (npspore runs graphs without control flow and function calls)")
    proto = primitives[op_type[5:]]
    if _text(path, proto.op_type) not in PRIMITIVES:
        raise FileReadError(path, f"Failed to load the MindIR file {path}: it uses the primitive "
                                  f"'{proto.op_type}', which npspore does not run.")
    return proto


def _node(path: str, node, primitives: dict, known: dict) -> MindIRNode:
    proto = _primitive_name(path, node.op_type, primitives)
    if len(node.output) != 1:
        raise _damaged(path, f"the node '{node.name}' has {len(node.output)} outputs")
    inputs = []
    for name in node.input:
        if _text(path, name) not in known:
            raise _damaged(path, f"the node '{node.name}' reads '{name}', which no earlier node defines")
        inputs.append(known[name])
    given = {attribute.name: attribute for attribute in proto.attribute}
    attributes = []
    for name in attribute_names(proto.op_type):
        if name not in given:
            raise _damaged(path, f"the primitive '{proto.name}' ({proto.op_type}) has no attribute '{name}'")
        attributes.append((name, _attribute(path, given[name])))
    return MindIRNode(proto.op_type, tuple(inputs), _text(path, node.output[0]), tuple(sorted(attributes)))


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
    primitives = {proto.name: proto for proto in model.primitives}
    known: dict = {}
    inputs, input_keys = [], []
    for value in graph.input:
        if len(value.tensor) != 1:
            raise _damaged(path, f"the input '{value.name}' describes {len(value.tensor)} tensors")
        shape = tuple(value.tensor[0].dims)
        dtype = TENSOR_TYPES.get(value.tensor[0].data_type)
        if dtype is None or not checked_shape(tuple(1 if dim == -1 else dim for dim in shape)):  # -1: dynamic
            raise _damaged(path, f"the input '{value.name}' has the shape {list(shape)} and data type "
                                 f"{value.tensor[0].data_type}")
        inputs.append((_text(path, value.name).rsplit(":", 1)[-1], shape, np.dtype(dtype)))
        input_keys.append(value.name)
        known[value.name] = ("value", value.name)
    parameters, parameter_keys = {}, []
    for proto in graph.parameter:
        name = _text(path, proto.ref_key) or _text(path, proto.name).rsplit(":", 1)[-1]
        parameters[name] = _tensor(path, proto)
        parameter_keys.append((proto.name, name))
        known[proto.name] = ("value", proto.name)
    nodes, constants = [], {}
    for node in graph.node:
        if node.op_type == "Constant":
            if len(node.output) != 1 or len(node.attribute) != 1:
                raise _damaged(path, f"the constant '{node.name}' has {len(node.attribute)} values")
            constants[node.output[0]] = _attribute(path, node.attribute[0])
            known[node.output[0]] = ("constant", node.output[0])
            continue
        nodes.append(_node(path, node, primitives, known))
        known[node.output[0]] = ("value", node.output[0])
    outputs = []
    for value in graph.output:
        if value.name not in known:
            raise _damaged(path, f"the output '{value.name}' is not defined by the graph")
        outputs.append(known[value.name])
    return MindIRGraph(path, graph.name, tuple(inputs), tuple(input_keys), parameters, tuple(parameter_keys),
                       tuple(nodes), tuple(outputs), constants)
