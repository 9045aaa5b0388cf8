"""``DatasetHelper`` against MindSpore 2.10 CPU: without sink mode each step is a list of Tensors of one batch
(recorded from MindSpore 2.10 for this dataset), each loop over the helper one epoch; sink mode is refused with
MindSpore's GRAPH_MODE message; ``sink_size``, ``types_shapes`` and the argument checks."""
import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds

# MindSpore 2.10, DatasetHelper(dataset, dataset_sink_mode=False): the steps of one epoch
STEPS = [[[[0.0, 1.0], [2.0, 3.0]], [0, 1]], [[[4.0, 5.0], [6.0, 7.0]], [2, 3]], [[[8.0, 9.0], [10.0, 11.0]], [4, 5]]]


def _dataset():
    data = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.int32)}
    return ds.NumpySlicesDataset(data=data, shuffle=False).batch(2)


def test_steps_are_mindspores_and_each_loop_is_an_epoch():
    helper = ms.DatasetHelper(_dataset(), dataset_sink_mode=False, epoch_num=2)
    for _ in range(2):
        steps = list(helper)
        assert all(isinstance(step, list) and all(isinstance(x, ms.Tensor) for x in step) for step in steps)
        assert [[x.asnumpy().tolist() for x in step] for step in steps] == STEPS
    with pytest.raises(RuntimeError, match="already run its num_epochs=2 epochs"):
        list(helper)
    assert helper.sink_size() == 3 and ms.DatasetHelper(_dataset(), False, sink_size=2).sink_size() == 2
    assert helper.types_shapes() == ([ms.float32, ms.int32], [(2, 2), (2,)])
    assert ms.train.DatasetHelper is ms.DatasetHelper


def test_sink_mode_and_bad_arguments_are_refused():
    with pytest.raises(RuntimeError, match="Currently dataset sink mode is not supported when the device target is "
                                           "CPU, please set dataset_sink_mode to False"):
        ms.DatasetHelper(_dataset())
    with pytest.raises(ValueError, match="The 'sink_size' must be -1 or positive, but got sink_size 0."):
        ms.DatasetHelper(_dataset(), dataset_sink_mode=False, sink_size=0)
    with pytest.raises(TypeError, match="must be bool"):
        ms.DatasetHelper(_dataset(), dataset_sink_mode=1)
