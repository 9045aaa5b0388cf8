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

__all__ = ["checkpoint_message", "decode_error", "protobuf_modules", "add_field", "message_class"]

_INSTALL_HINT = ("Reading and writing .ckpt files needs the 'protobuf' package: "
                 "pip install protobuf (or pip install 'npspore[checkpoint]').")


def protobuf_modules():
    """protobuf's ``descriptor_pb2``, ``descriptor_pool``, ``message`` and ``message_factory`` (ImportError naming
    the package when it is missing)."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message, message_factory
    except ImportError as error:
        raise ImportError(_INSTALL_HINT) from error
    return descriptor_pb2, descriptor_pool, message, message_factory


def add_field(message_proto, name, number, label, type_, type_name=None, oneof_index=None, packed=False):
    """Add a field to the ``DescriptorProto`` ``message_proto``."""
    field = message_proto.field.add(name=name, number=number, label=label, type=type_)
    if type_name is not None:
        field.type_name = type_name
    if oneof_index is not None:
        field.oneof_index = oneof_index
    if packed:
        field.options.packed = True


def _file_descriptor(descriptor_pb2):
    field = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="checkpoint.proto", syntax="proto2")

    checkpoint = proto.message_type.add(name="Checkpoint")
    add_field(checkpoint, "value", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".Checkpoint.Value")
    value = checkpoint.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    add_field(value, "tag", 1, field.LABEL_REQUIRED, field.TYPE_STRING)
    add_field(value, "tensor", 2, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".TensorProto", oneof_index=0)
    add_field(value, "maptensor", 3, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".MapTensorProto",
               oneof_index=0)

    tensor = proto.message_type.add(name="TensorProto")
    add_field(tensor, "dims", 1, field.LABEL_REPEATED, field.TYPE_INT64)
    add_field(tensor, "tensor_type", 2, field.LABEL_REQUIRED, field.TYPE_STRING)
    add_field(tensor, "tensor_content", 3, field.LABEL_REQUIRED, field.TYPE_BYTES)

    map_tensor = proto.message_type.add(name="MapTensorProto")
    add_field(map_tensor, "tensor", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".TensorProto")
    return proto


def message_class(file_proto, name: str):
    """The class of the message ``name`` of ``file_proto`` (a ``FileDescriptorProto``), in a private pool."""
    _, descriptor_pool, _, message_factory = protobuf_modules()
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_proto)
    descriptor = pool.FindMessageTypeByName(name)
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


@functools.lru_cache(maxsize=None)
def checkpoint_message():
    """The ``Checkpoint`` message class (raises ImportError naming the package when protobuf is missing)."""
    return message_class(_file_descriptor(protobuf_modules()[0]), "Checkpoint")


def decode_error():
    """protobuf's ``DecodeError`` (what parsing a damaged file raises)."""
    return protobuf_modules()[2].DecodeError
