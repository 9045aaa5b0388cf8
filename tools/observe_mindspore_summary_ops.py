"""Print what MindSpore 2.10's summary operators write through SummaryRecord, for tests/test_summary_ops.py.

Run with the MindSpore virtualenv (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_summary_ops.py``.
A network calls ``ScalarSummary``, ``TensorSummary`` and ``HistogramSummary`` in its ``construct``; it runs
twice before ``record(1)`` and once before ``record(2)``, in PYNATIVE and in GRAPH mode. Printed per mode: each
summary event as ``(step, [(tag, kind, value)])`` (a scalar's value, a tensor's dims and values, a histogram's
count, min, max and bucket counts).
"""
import os
import struct
import tempfile

import numpy as np


def summary_events(path, event_class):
    """The summary events of a summary file (the version event skipped)."""
    content = open(path, "rb").read()
    offset, events = 0, []
    while offset < len(content):
        (length,) = struct.unpack("<Q", content[offset:offset + 8])
        data = content[offset + 12:offset + 12 + length]
        offset += 12 + length + 4
        event = event_class()
        event.ParseFromString(data)
        if event.HasField("summary"):
            events.append(event)
    return events


def shown(event):
    """``(step, [(tag, kind, value) ...])`` of one summary event."""
    values = []
    for value in event.summary.value:
        kind = value.WhichOneof("value")
        if kind == "scalar_value":
            values.append((value.tag, "scalar", round(value.scalar_value, 6)))
        elif kind == "tensor":
            values.append((value.tag, "tensor", list(value.tensor.dims), list(value.tensor.float_data)))
        else:
            histogram = value.histogram
            values.append((value.tag, "histogram", histogram.count, histogram.min, histogram.max,
                           [b.count for b in histogram.buckets]))
    return event.step, values


def run(ms, mode, folder):
    """Run the network of the test with the package ``ms`` (MindSpore or npspore) under ``mode`` and record
    two steps into ``folder``; the network's last output."""
    nn, ops, Tensor, SummaryRecord = ms.nn, ms.ops, ms.Tensor, ms.SummaryRecord
    ms.set_context(mode=mode)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scalar = ops.ScalarSummary()
            self.tensor = ops.TensorSummary()
            self.histogram = ops.HistogramSummary()

        def construct(self, x, y):
            z = x * y
            self.scalar("x_sum", x.sum())
            self.tensor("z", z)
            self.histogram("y", y)
            return z + 1

    net = Net()
    with SummaryRecord(folder) as record:
        net(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32)))
        out = net(Tensor(np.array([0.5, 1.5], np.float32)), Tensor(np.array([2.0, -1.0], np.float32)))
        record.record(1)
        net(Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)), Tensor(np.array([[1.0, 1.0, 5.0]], np.float32)))
        record.record(2)
    return out


def main():
    import mindspore as ms
    from mindspore.train.summary_pb2 import Event

    for mode, label in ((ms.PYNATIVE_MODE, "PYNATIVE"), (ms.GRAPH_MODE, "GRAPH")):
        folder = tempfile.mkdtemp()
        out = run(ms, mode, folder)
        [name] = [n for n in os.listdir(folder) if n.endswith("_MS")]
        print(label, "output", out.asnumpy().tolist())
        for event in summary_events(os.path.join(folder, name), Event):
            print(label, shown(event))


if __name__ == "__main__":
    main()
