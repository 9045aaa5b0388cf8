"""MindSpore's ``Checkpoint`` protobuf message, built at run time with the ``protobuf`` library.

A ``.ckpt`` file is a sequence of serialized ``Checkpoint`` messages (MindSpore writes one per
Parameter, and protobuf merges their repeated ``value`` fields when the file is parsed whole)::

    syntax = "proto2";
    message Checkpoint {
      message Value {
        required string tag = 1;
        oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; }
      }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1;
      required string tensor_type = 2;   // "Float32", "Int64", "Bool", ... or "str"
      required bytes tensor_content = 3; // the C-order bytes of the array
    }
    message MapTensorProto { repeated TensorProto tensor = 1; }

This is ``mindspore/ccsrc/utils/checkpoint.proto``; the descriptor below is built from it in a
private descriptor pool, so it can never clash with another ``checkpoint.proto`` in the process.
"""
import functools

from ..core.protofile import add_field, field_types, file_descriptor_proto, message_classes

__all__ = ["checkpoint_message"]

_WHAT = ".ckpt file"


def _file_descriptor():
    field = field_types(_WHAT)
    proto = file_descriptor_proto("checkpoint.proto", what=_WHAT)

    checkpoint = proto.message_type.add(name="Checkpoint")
    add_field(checkpoint, "value", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".Checkpoint.Value")
    value = checkpoint.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    add_field(value, "tag", 1, field.LABEL_REQUIRED, field.TYPE_STRING)
    add_field(value, "tensor", 2, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".TensorProto", oneof_index=0)
    add_field(value, "maptensor", 3, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".MapTensorProto", oneof_index=0)

    tensor = proto.message_type.add(name="TensorProto")
    add_field(tensor, "dims", 1, field.LABEL_REPEATED, field.TYPE_INT64)
    add_field(tensor, "tensor_type", 2, field.LABEL_REQUIRED, field.TYPE_STRING)
    add_field(tensor, "tensor_content", 3, field.LABEL_REQUIRED, field.TYPE_BYTES)

    map_tensor = proto.message_type.add(name="MapTensorProto")
    add_field(map_tensor, "tensor", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".TensorProto")
    return proto


@functools.lru_cache(maxsize=None)
def checkpoint_message():
    """The ``Checkpoint`` message class (raises ImportError naming the package when protobuf is missing)."""
    return message_classes(_file_descriptor(), ["Checkpoint"], _WHAT)[0]
