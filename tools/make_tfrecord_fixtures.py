"""Write the TFRecord files of tests/test_tfrecord.py (run with the project's interpreter, which has protobuf
and google-crc32c): ``tests/fixtures/tfrecord/part-0.tfrecord`` (3 examples) and ``part-1.tfrecord``
(2 examples), each ``tf.train.Example`` with the features ``image`` (bytes: 6 bytes of an image), ``label``
(int64, 1 value), ``coords`` (float, 4 values) and ``name`` (bytes: a text). MindSpore 2.10's readings of
them are recorded by ``tools/observe_mindspore_tfrecord.py``.
"""
from pathlib import Path

from npspore.core.record_framing import frame
from npspore.dataset.example_proto import example_message

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tfrecord"


def example(index):
    """The serialized example ``index`` of the fixtures."""
    message = example_message()()
    features = message.features.feature
    features["image"].bytes_list.value.append(bytes(range(index * 10, index * 10 + 6)))
    features["label"].int64_list.value.append(index * 7 - 3)
    features["coords"].float_list.value.extend([index + 0.5, -index, index * 0.25, 1e-3 * index])
    features["name"].bytes_list.value.append(f"row{index}".encode())
    return message.SerializeToString()


def main():
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for part, indices in enumerate(((0, 1, 2), (3, 4))):
        (FIXTURES / f"part-{part}.tfrecord").write_bytes(b"".join(frame(example(i)) for i in indices))


if __name__ == "__main__":
    main()
