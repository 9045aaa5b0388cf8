"""MindSpore's ``mind_ir`` protobuf messages, built at run time with the ``protobuf`` library.

A ``.mindir`` file is one serialized ``mind_ir.ModelProto``. These are the fields npspore reads and
writes, with their numbers as ``mindspore/core/proto/mind_ir.proto`` (MindSpore 2.10) fixes them;
fields npspore does not declare are kept by protobuf as unknown fields and ignored::

    syntax = "proto2";
    package mind_ir;
    message AttributeProto {
      enum AttributeType { UNDEFINED = 0; FLOAT = 1; UINT8 = 2; INT8 = 3; UINT16 = 4; INT16 = 5; INT32 = 6;
        INT64 = 7; STRING = 8; BOOL = 9; FLOAT16 = 10; DOUBLE = 11; UINT32 = 12; UINT64 = 13; COMPLEX64 = 14;
        COMPLEX128 = 15; BFLOAT16 = 16; TENSOR = 17; GRAPH = 18; TENSORS = 19; TUPLE = 20; LIST = 21; DICT = 22;
        UMONAD = 23; IOMONAD = 24; NONE = 25; PRIMITIVECLOSURE = 26; ... SCALAR_GRAPH_HOLDER = 40; }
      message SeqInfoProto { optional bool is_dyn_len = 1; optional AttributeProto tuple_elem_item = 2; }
      optional string name = 1; optional float f = 2; optional int64 i = 3; optional double d = 4;
      optional bytes s = 5; optional TensorProto t = 6; optional GraphProto g = 7;
      repeated float floats = 8; repeated double doubles = 9; repeated int64 ints = 10;
      repeated bytes strings = 11; repeated TensorProto tensors = 12; repeated GraphProto graphs = 13;
      optional string doc_string = 14; optional string ref_attr_name = 15; optional AttributeType type = 16;
      repeated AttributeProto values = 17; optional SeqInfoProto seq_info = 18;
    }
    message ValueInfoProto { optional string name = 1; repeated TensorProto tensor = 2;
                             optional string doc_string = 3; optional string denotation = 4;
                             optional AttributeProto attr_info = 5; }
    message NodeProto { repeated string input = 1; repeated string output = 2; optional string name = 3;
                        optional string op_type = 4; repeated AttributeProto attribute = 5;
                        optional string doc_string = 6; optional string domain = 7;
                        repeated AttributeProto node_attr = 8; repeated AttributeProto primal_attr = 9; }
    message ModelProto { optional string ir_version = 1; optional string producer_name = 2;
                         optional string producer_version = 3; optional string domain = 4;
                         optional string model_version = 5; optional string doc_string = 6;
                         optional GraphProto graph = 7; repeated GraphProto functions = 8;
                         optional bool little_endian = 10; repeated PrimitiveProto primitives = 12;
                         optional int64 mind_ir_version = 13; }
    message GraphProto { repeated NodeProto node = 1; optional string name = 2;
                         repeated TensorProto parameter = 3; optional string doc_string = 4;
                         repeated ValueInfoProto input = 5; repeated ValueInfoProto output = 6;
                         optional string bprop_hash = 7; repeated AttributeProto attribute = 8;
                         optional string bprop_filepath = 9; }
    message TensorProto {
      enum DataType { UNDEFINED = 0; FLOAT = 1; UINT8 = 2; INT8 = 3; UINT16 = 4; INT16 = 5; INT32 = 6;
        INT64 = 7; STRING = 8; BOOL = 9; FLOAT16 = 10; DOUBLE = 11; UINT32 = 12; UINT64 = 13;
        COMPLEX64 = 14; COMPLEX128 = 15; BFLOAT16 = 16; FLOAT64 = 17; }
      repeated int64 dims = 1; optional int32 data_type = 2; repeated float float_data = 3;
      repeated int32 int32_data = 4; repeated bytes string_data = 5; repeated int64 int64_data = 6;
      optional string name = 7; optional string doc_string = 8; optional bytes raw_data = 9;
      repeated double double_data = 10; repeated uint64 uint64_data = 11;
      optional ExternalDataProto external_data = 12; optional string ref_key = 13;
      message ExternalDataProto { optional string location = 1; optional int64 offset = 2;
                                  optional int64 length = 3; }
    }
    message PrimitiveProto {
      enum PrimType { PRIMITIVE = 1; PRIMITIVE_FUNCTION = 2; }
      optional string name = 1; optional string op_type = 2; repeated AttributeProto attribute = 3;
      optional string instance_name = 4; optional PrimType prim_type = 5;
    }

The descriptor is built in a private descriptor pool (``core.protofile``), so it never clashes with
MindSpore's own ``mind_ir_pb2`` in the same process.
"""
import functools

from ..core.protofile import add_field, field_types, file_descriptor_proto, message_classes

__all__ = ["model_message", "ATTRIBUTE_TYPES", "DATA_TYPES", "PRIMITIVE", "PRIMITIVE_FUNCTION", "WHAT"]

WHAT = "MindIR file"
ATTRIBUTE_TYPES = ("UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 DOUBLE UINT32 UINT64 "
                   "COMPLEX64 COMPLEX128 BFLOAT16 TENSOR GRAPH TENSORS TUPLE LIST DICT UMONAD IOMONAD NONE "
                   "PRIMITIVECLOSURE FUNCGRAPHCLOSURE PARTIALCLOSURE UNIONFUNCCLOSURE CSR_TENSOR COO_TENSOR "
                   "ROW_TENSOR CLASS_TYPE NAME_SPACE SYMBOL TYPE_NULL MAP_TENSOR FUNCTOR SCALAR "
                   "SCALAR_GRAPH_HOLDER").split()
DATA_TYPES = ("UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 DOUBLE UINT32 UINT64 "
              "COMPLEX64 COMPLEX128 BFLOAT16 FLOAT64").split()
PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2

# (message, fields as (name, number, label, type, type name)): "?" optional, "*" repeated
_MESSAGES = {
    "AttributeProto": (
        ("name", 1, "?", "string"), ("f", 2, "?", "float"), ("i", 3, "?", "int64"), ("d", 4, "?", "double"),
        ("s", 5, "?", "bytes"), ("t", 6, "?", ".mind_ir.TensorProto"), ("g", 7, "?", ".mind_ir.GraphProto"),
        ("floats", 8, "*", "float"), ("doubles", 9, "*", "double"), ("ints", 10, "*", "int64"),
        ("strings", 11, "*", "bytes"), ("tensors", 12, "*", ".mind_ir.TensorProto"),
        ("graphs", 13, "*", ".mind_ir.GraphProto"), ("doc_string", 14, "?", "string"),
        ("ref_attr_name", 15, "?", "string"), ("type", 16, "?", "enum .mind_ir.AttributeProto.AttributeType"),
        ("values", 17, "*", ".mind_ir.AttributeProto"),
        ("seq_info", 18, "?", ".mind_ir.AttributeProto.SeqInfoProto")),
    "AttributeProto.SeqInfoProto": (
        ("is_dyn_len", 1, "?", "bool"), ("tuple_elem_item", 2, "?", ".mind_ir.AttributeProto")),
    "ValueInfoProto": (
        ("name", 1, "?", "string"), ("tensor", 2, "*", ".mind_ir.TensorProto"), ("doc_string", 3, "?", "string"),
        ("denotation", 4, "?", "string"), ("attr_info", 5, "?", ".mind_ir.AttributeProto")),
    "NodeProto": (
        ("input", 1, "*", "string"), ("output", 2, "*", "string"), ("name", 3, "?", "string"),
        ("op_type", 4, "?", "string"), ("attribute", 5, "*", ".mind_ir.AttributeProto"),
        ("doc_string", 6, "?", "string"), ("domain", 7, "?", "string"),
        ("node_attr", 8, "*", ".mind_ir.AttributeProto"), ("primal_attr", 9, "*", ".mind_ir.AttributeProto")),
    "ModelProto": (
        ("ir_version", 1, "?", "string"), ("producer_name", 2, "?", "string"),
        ("producer_version", 3, "?", "string"), ("domain", 4, "?", "string"), ("model_version", 5, "?", "string"),
        ("doc_string", 6, "?", "string"), ("graph", 7, "?", ".mind_ir.GraphProto"),
        ("functions", 8, "*", ".mind_ir.GraphProto"), ("little_endian", 10, "?", "bool"),
        ("primitives", 12, "*", ".mind_ir.PrimitiveProto"), ("mind_ir_version", 13, "?", "int64")),
    "GraphProto": (
        ("node", 1, "*", ".mind_ir.NodeProto"), ("name", 2, "?", "string"),
        ("parameter", 3, "*", ".mind_ir.TensorProto"), ("doc_string", 4, "?", "string"),
        ("input", 5, "*", ".mind_ir.ValueInfoProto"), ("output", 6, "*", ".mind_ir.ValueInfoProto"),
        ("bprop_hash", 7, "?", "string"), ("attribute", 8, "*", ".mind_ir.AttributeProto"),
        ("bprop_filepath", 9, "?", "string")),
    "TensorProto": (
        ("dims", 1, "*", "int64"), ("data_type", 2, "?", "int32"), ("float_data", 3, "*", "float"),
        ("int32_data", 4, "*", "int32"), ("string_data", 5, "*", "bytes"), ("int64_data", 6, "*", "int64"),
        ("name", 7, "?", "string"), ("doc_string", 8, "?", "string"), ("raw_data", 9, "?", "bytes"),
        ("double_data", 10, "*", "double"), ("uint64_data", 11, "*", "uint64"),
        ("external_data", 12, "?", ".mind_ir.TensorProto.ExternalDataProto"), ("ref_key", 13, "?", "string")),
    "TensorProto.ExternalDataProto": (
        ("location", 1, "?", "string"), ("offset", 2, "?", "int64"), ("length", 3, "?", "int64")),
    "PrimitiveProto": (
        ("name", 1, "?", "string"), ("op_type", 2, "?", "string"), ("attribute", 3, "*", ".mind_ir.AttributeProto"),
        ("instance_name", 4, "?", "string"), ("prim_type", 5, "?", "enum .mind_ir.PrimitiveProto.PrimType")),
}
_ENUMS = {
    "AttributeProto": ("AttributeType", ATTRIBUTE_TYPES),
    "TensorProto": ("DataType", DATA_TYPES),
    "PrimitiveProto": ("PrimType", ("", "PRIMITIVE", "PRIMITIVE_FUNCTION")),
}


def _file_descriptor():
    field = field_types(WHAT)
    labels = {"?": field.LABEL_OPTIONAL, "*": field.LABEL_REPEATED}
    proto = file_descriptor_proto("npspore_mind_ir.proto", package="mind_ir", what=WHAT)
    described = {}
    for path, fields in _MESSAGES.items():
        outer, _, inner = path.partition(".")
        message = described[outer].nested_type.add(name=inner) if inner else proto.message_type.add(name=outer)
        described[path] = message
        for name, number, label, kind in fields:
            if kind.startswith("enum "):
                add_field(message, name, number, labels[label], field.TYPE_ENUM, kind[5:])
            elif kind.startswith("."):
                add_field(message, name, number, labels[label], field.TYPE_MESSAGE, kind)
            else:
                add_field(message, name, number, labels[label], getattr(field, "TYPE_" + kind.upper()))
        if path in _ENUMS:
            enum_name, values = _ENUMS[path]
            enum = message.enum_type.add(name=enum_name)
            for number, value in enumerate(values):
                if value:
                    enum.value.add(name=value, number=number)
    return proto


@functools.lru_cache(maxsize=None)
def model_message():
    """The ``mind_ir.ModelProto`` message class (ImportError naming the package when protobuf is missing)."""
    return message_classes(_file_descriptor(), ["mind_ir.ModelProto"], WHAT)[0]
