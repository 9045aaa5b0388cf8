"""Summary operators (``ops.ScalarSummary``, ``TensorSummary``, ``HistogramSummary``) feeding ``SummaryRecord``.

The events are those MindSpore 2.10 wrote for the same network (``tools/observe_mindspore_summary_ops.py``, whose
network and calls these tests run): the last value of each tag before a ``record`` is written, eagerly and in
GRAPH mode (MindSpore's GRAPH mode orders a step's values by tag, so the values are compared as sets).
"""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.train.summary.summary_proto import event_message

_spec = importlib.util.spec_from_file_location(
    "observe_mindspore_summary_ops", Path(__file__).parent.parent / "tools" / "observe_mindspore_summary_ops.py")
observe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(observe)

# MindSpore 2.10, tools/observe_mindspore_summary_ops.py (PYNATIVE and GRAPH print the same values)
MINDSPORE_EVENTS = [
    (1, {("x_sum", "scalar", 2.0), ("z", "tensor", (2,), (1.0, -1.5)), ("y", "histogram", 2, -1.0, 2.0, (1, 1))}),
    (2, {("x_sum", "scalar", 6.0), ("z", "tensor", (1, 3), (1.0, 2.0, 15.0)),
         ("y", "histogram", 3, 1.0, 5.0, (2, 1))}),
]


def _hashable(value):
    return tuple(tuple(v) if isinstance(v, list) else v for v in value)


@pytest.fixture
def restore_mode():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_the_events_are_mindspores(tmp_path, mode, restore_mode):
    out = observe.run(ms, mode, str(tmp_path))
    np.testing.assert_array_equal(out.asnumpy(), [2.0, -0.5])
    [path] = list(tmp_path.iterdir())
    written = [observe.shown(e) for e in observe.summary_events(path, event_message())]
    assert [(step, {_hashable(v) for v in values}) for step, values in written] == MINDSPORE_EVENTS


def test_values_of_a_gradient_step_are_recorded(tmp_path):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
            self.summary = ops.ScalarSummary()

        def construct(self, x):
            loss = (self.w * x).sum()
            self.summary("loss", loss)
            return loss

    net = Net()
    grads = ms.grad(net, None, net.trainable_params())(Tensor(np.array([1.0, 4.0], np.float32)))
    np.testing.assert_array_equal(grads[0].asnumpy(), [1.0, 4.0])
    with ms.SummaryRecord(str(tmp_path)) as record:
        record.record(7)
    [path] = list(tmp_path.iterdir())
    written = [observe.shown(e) for e in observe.summary_events(path, event_message())]
    assert written == [(7, [("loss", "scalar", 14.0)])]


def test_eval_mode_keeps_the_values_for_a_train_record(tmp_path):
    ops.TensorSummary()("t", Tensor(np.array([1, 2], np.int32)))
    with ms.SummaryRecord(str(tmp_path)) as record:
        record.set_mode("eval")
        record.record(1)
        record.set_mode("train")
        record.record(2)
    [path] = list(tmp_path.iterdir())
    assert [observe.shown(e) for e in observe.summary_events(path, event_message())] == [
        (2, [("t", "tensor", [2], [1.0, 2.0])])]   # the eval record wrote no value


def test_errors_as_mindspore():
    with pytest.raises(TypeError, match='For "ScalarSummary", the name must be valid string, but got "".'):
        ops.ScalarSummary()("", Tensor(1.0))
    with pytest.raises(TypeError, match='For "TensorSummary", the parameter "value" expect to be Tensor, but got '
                                        'float'):
        ops.TensorSummary()("x", 1.0)
    with pytest.raises(ValueError, match='For "ScalarSummary", the v rank must be less than or equal to 1, but got 2.'):
        ops.ScalarSummary()("x", Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match='For "HistogramSummary", the value should not be empty.'):
        ops.HistogramSummary()("x", Tensor(1.0))

    @ms.jit
    def compiled(x):
        ops.ScalarSummary()("x", x)
        return x

    with pytest.raises(ValueError, match="the v rank must be less than or equal to 1, but got 3") as caught:
        compiled(Tensor(np.ones(3, np.float32)))
    assert "test_summary_ops.py" in str(caught.value)
    assert repr(ops.ScalarSummary()) == \
        "Prim[ScalarSummary]<side_effect_io=True, channel_name=ms_scalar_summary, dyn_input_sizes=[-1, 1]>"
