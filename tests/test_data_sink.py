"""``ms.data_sink`` (``npspore.train.data_sink``).

MindSpore 2.10 on CPU refuses data sinking ("Data sinking supports ascend or gpu device target, but device
target is CPU."), so its docstring example's output (the API page of ``mindspore.data_sink``, 2.10: ``2``
twice) and its argument errors, recorded on the real MindSpore 2.10 CPU, are the references; the batch
order follows its PyNative sink (one batch a call) and its compiled sink (``sink_size`` batches a call).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import dataset as ds


def test_docstring_example_prints_two_twice(capsys):
    data = {"x": np.ones((1,), dtype=np.int32), "y": np.ones((1,), dtype=np.int32)}
    dataset = ds.NumpySlicesDataset(data=data)

    def func_net(x, y):
        out = x + y
        return out

    sink_process = ms.data_sink(func_net, dataset, sink_size=1)
    for _ in range(2):
        out = sink_process()
        print(out)
    assert capsys.readouterr().out == "2\n2\n"


def test_each_call_takes_the_next_batch_and_epochs_follow_each_other():
    dataset = ds.NumpySlicesDataset({"x": np.arange(5, dtype=np.float32)}, shuffle=False).batch(2)
    eager = ms.data_sink(lambda x: x.sum(), dataset, sink_size=2)   # no jit_config: one batch a call
    assert [float(eager()) for _ in range(4)] == [1.0, 5.0, 4.0, 1.0]


def test_a_compiled_sink_runs_sink_size_batches_a_call_and_returns_the_last_output():
    dataset = ds.NumpySlicesDataset({"x": np.arange(5, dtype=np.float32)}, shuffle=False).batch(2)
    seen = []

    def step(x):
        seen.append(x.shape)   # runs while compiling: once per shape
        return x.sum()

    sink = ms.data_sink(step, dataset, sink_size=2, jit_config=ms.JitConfig())
    assert [float(sink()) for _ in range(4)] == [5.0, 1.0, 4.0, 5.0]
    assert sorted(set(seen)) == [(1,), (2,)]


def test_a_training_step_sinks_batches_and_learns():
    dataset = ds.NumpySlicesDataset({"x": np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1),
                                     "y": np.linspace(-2, 2, 8, dtype=np.float32).reshape(8, 1)},
                                    shuffle=False).batch(4)
    net = ms.nn.Dense(1, 1, weight_init="zeros", bias_init="zeros")
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), ms.nn.SGD(net.trainable_params(), 0.5))
    sink = ms.data_sink(step, dataset, sink_size=2, jit_config=ms.JitConfig())
    losses = [float(sink()) for _ in range(20)]
    assert losses[-1] < 1e-4 < losses[0]
    np.testing.assert_allclose(net.weight.asnumpy(), [[2.0]], rtol=1e-3)


@pytest.mark.parametrize("sink_size, error, message", [
    (0, ValueError, "The 'sink_size' must be positive, but got sink_size 0."),
    ("a", TypeError, "For 'Data sink', the type of 'sink_size' should be 'int', but got type 'str'."),
    (1.5, TypeError, "For 'Data sink', the type of 'sink_size' should be 'int', but got type 'float'."),
])
def test_sink_size_errors_as_mindspore(sink_size, error, message):
    dataset = ds.NumpySlicesDataset({"x": np.ones((1,), np.int32)})
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        ms.data_sink(lambda x: x, dataset, sink_size=sink_size)


def test_an_empty_dataset_is_an_error_not_a_hang():
    dataset = ds.NumpySlicesDataset({"x": np.arange(3, dtype=np.float32)}).filter(lambda x: False, ["x"])
    with pytest.raises(ValueError, match="the dataset has no rows"):
        ms.data_sink(lambda x: x, dataset)()
