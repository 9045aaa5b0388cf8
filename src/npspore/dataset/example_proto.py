"""TensorFlow's ``tf.train.Example`` protobuf message (the records of a TFRecord file), built at run time
with the ``protobuf`` library, as :mod:`npspore.train.checkpoint_proto` builds MindSpore's::

    message BytesList { repeated bytes value = 1; }
    message FloatList { repeated float value = 1 [packed = true]; }
    message Int64List { repeated int64 value = 1 [packed = true]; }
    message Feature {
      oneof kind { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3; }
    }
    message Features { map<string, Feature> feature = 1; }
    message Example { Features features = 1; }

This is ``tensorflow/core/example/{example,feature}.proto`` (package ``tensorflow``); the descriptor is
built in a private pool, so it never clashes with TensorFlow's own in the same process.
"""
import functools

from ..core.protofile import add_field, field_types, file_descriptor_proto, message_classes

__all__ = ["example_message"]

_WHAT = "TFRecord file"


def _file_descriptor():
    field = field_types(_WHAT)
    proto = file_descriptor_proto("tensorflow/core/example/example.proto", package="tensorflow", what=_WHAT)
    for name, kind, packed in (("BytesList", field.TYPE_BYTES, False), ("FloatList", field.TYPE_FLOAT, True),
                               ("Int64List", field.TYPE_INT64, True)):
        add_field(proto.message_type.add(name=name), "value", 1, field.LABEL_REPEATED, kind, packed=packed)
    feature = proto.message_type.add(name="Feature")
    feature.oneof_decl.add(name="kind")
    for number, name in enumerate(("BytesList", "FloatList", "Int64List"), 1):
        add_field(feature, name.replace("List", "_list").lower(), number, field.LABEL_OPTIONAL, field.TYPE_MESSAGE,
                  f".tensorflow.{name}", oneof_index=0)
    features = proto.message_type.add(name="Features")
    entry = features.nested_type.add(name="FeatureEntry")
    entry.options.map_entry = True
    add_field(entry, "key", 1, field.LABEL_OPTIONAL, field.TYPE_STRING)
    add_field(entry, "value", 2, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".tensorflow.Feature")
    add_field(features, "feature", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".tensorflow.Features.FeatureEntry")
    example = proto.message_type.add(name="Example")
    add_field(example, "features", 1, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".tensorflow.Features")
    return proto


@functools.lru_cache(maxsize=None)
def example_message():
    """The ``tensorflow.Example`` message class (raises ImportError naming the package when protobuf is
    missing)."""
    return message_classes(_file_descriptor(), ["tensorflow.Example"], _WHAT)[0]
