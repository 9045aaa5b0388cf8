"""MindSpore's summary ``Event`` protobuf message (the part npspore writes), built at run time.

From ``mindspore/ccsrc/utils/summary.proto`` and ``anf_ir.proto`` (proto2, package ``mindspore.irpb``)::

    message Event {
      required double wall_time = 1;
      optional int64 step = 2;
      oneof what { string version = 3; Summary summary = 5; }   // 4: graph_def, 6: explain (not written)
    }
    message Summary {
      message Histogram {
        message bucket { required double left = 1; required double width = 2; required int64 count = 3; }
        repeated bucket buckets = 1; optional int64 nan_count = 2; optional int64 pos_inf_count = 3;
        optional int64 neg_inf_count = 4; optional double max = 5; optional double min = 6;
        optional double sum = 7; optional int64 count = 8;
      }
      message Image { required int32 height = 1; required int32 width = 2; required int32 colorspace = 3;
                      required bytes encoded_image = 4; }
      message Value {
        required string tag = 1;
        oneof value { float scalar_value = 3; Image image = 4; TensorProto tensor = 8; Histogram histogram = 9; }
      }
      repeated Value value = 1;
    }
    message TensorProto { repeated int64 dims = 1; optional DataType data_type = 2;   // an enum: a varint
                          repeated float float_data = 3 [packed = true]; }
"""
from __future__ import annotations

import functools

from ...core.protofile import add_field, field_types, file_descriptor_proto, message_classes

__all__ = ["event_message", "DATA_TYPES"]

# anf_ir.proto's DataType numbers of the NumPy dtypes a tensor summary takes
DATA_TYPES = {"bool": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "uint8": 6, "uint16": 7, "uint32": 8,
              "uint64": 9, "float16": 10, "float32": 11, "float64": 12}


_WHAT = "summary file"


def _file_descriptor():
    field = field_types(_WHAT)
    optional, required, repeated = field.LABEL_OPTIONAL, field.LABEL_REQUIRED, field.LABEL_REPEATED
    proto = file_descriptor_proto("summary.proto", package="mindspore.irpb", what=_WHAT)

    event = proto.message_type.add(name="Event")
    event.oneof_decl.add(name="what")
    add_field(event, "wall_time", 1, required, field.TYPE_DOUBLE)
    add_field(event, "step", 2, optional, field.TYPE_INT64)
    add_field(event, "version", 3, optional, field.TYPE_STRING, oneof_index=0)
    add_field(event, "summary", 5, optional, field.TYPE_MESSAGE, ".mindspore.irpb.Summary", oneof_index=0)

    summary = proto.message_type.add(name="Summary")
    add_field(summary, "value", 1, repeated, field.TYPE_MESSAGE, ".mindspore.irpb.Summary.Value")
    histogram = summary.nested_type.add(name="Histogram")
    bucket = histogram.nested_type.add(name="bucket")
    for name, number, type_ in (("left", 1, field.TYPE_DOUBLE), ("width", 2, field.TYPE_DOUBLE),
                                ("count", 3, field.TYPE_INT64)):
        add_field(bucket, name, number, required, type_)
    add_field(histogram, "buckets", 1, repeated, field.TYPE_MESSAGE, ".mindspore.irpb.Summary.Histogram.bucket")
    for name, number, type_ in (("nan_count", 2, field.TYPE_INT64), ("pos_inf_count", 3, field.TYPE_INT64),
                                ("neg_inf_count", 4, field.TYPE_INT64), ("max", 5, field.TYPE_DOUBLE),
                                ("min", 6, field.TYPE_DOUBLE), ("sum", 7, field.TYPE_DOUBLE),
                                ("count", 8, field.TYPE_INT64)):
        add_field(histogram, name, number, optional, type_)
    image = summary.nested_type.add(name="Image")
    for name, number, type_ in (("height", 1, field.TYPE_INT32), ("width", 2, field.TYPE_INT32),
                                ("colorspace", 3, field.TYPE_INT32), ("encoded_image", 4, field.TYPE_BYTES)):
        add_field(image, name, number, required, type_)
    value = summary.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    add_field(value, "tag", 1, required, field.TYPE_STRING)
    add_field(value, "scalar_value", 3, optional, field.TYPE_FLOAT, oneof_index=0)
    add_field(value, "image", 4, optional, field.TYPE_MESSAGE, ".mindspore.irpb.Summary.Image", oneof_index=0)
    add_field(value, "tensor", 8, optional, field.TYPE_MESSAGE, ".mindspore.irpb.TensorProto", oneof_index=0)
    add_field(value, "histogram", 9, optional, field.TYPE_MESSAGE, ".mindspore.irpb.Summary.Histogram",
              oneof_index=0)

    tensor = proto.message_type.add(name="TensorProto")
    add_field(tensor, "dims", 1, repeated, field.TYPE_INT64)
    add_field(tensor, "data_type", 2, optional, field.TYPE_INT32)
    add_field(tensor, "float_data", 3, repeated, field.TYPE_FLOAT, packed=True)
    return proto


@functools.lru_cache(maxsize=None)
def event_message():
    """The ``Event`` message class (raises ImportError naming the package when protobuf is missing)."""
    return message_classes(_file_descriptor(), ["mindspore.irpb.Event"], _WHAT)[0]
