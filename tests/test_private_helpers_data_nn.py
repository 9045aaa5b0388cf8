"""MindSpore's private helpers and base classes that model code imports, added for the API breadth (issue 26):
``parallel._utils._is_sharding_propagation``, ``train._utils._make_directory``,
``nn.wrap.cell_wrapper._VirtualDatasetCell`` and ``dataset.transforms.PyTensorOperation``; behaviour and
messages recorded from MindSpore 2.10 CPU."""
import os

import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.dataset.transforms import PyTensorOperation
from npspore.nn.wrap.cell_wrapper import _VirtualDatasetCell
from npspore.parallel._utils import _is_sharding_propagation
from npspore.train._utils import _make_directory


def test_is_sharding_propagation_follows_the_context():
    # MindSpore 2.10: False by default; True for search_mode='sharding_propagation' or sharding_propagation=True
    try:
        assert _is_sharding_propagation() is False
        ms.set_auto_parallel_context(search_mode="sharding_propagation")
        assert _is_sharding_propagation() is True
        ms.set_auto_parallel_context(search_mode="dynamic_programming")
        assert _is_sharding_propagation() is False
        ms.set_auto_parallel_context(sharding_propagation=True)
        assert _is_sharding_propagation() is True
    finally:
        ms.reset_auto_parallel_context()
    assert _is_sharding_propagation() is False


def test_make_directory(tmp_path):
    made = _make_directory(str(tmp_path / "a" / "b"))
    assert made == os.path.realpath(tmp_path / "a" / "b") and os.path.isdir(made)
    assert oct(os.stat(made).st_mode & 0o777) == oct(0o700)
    assert _make_directory(made) == made
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError, match="is a file path, it should be a directory path."):
        _make_directory(str(tmp_path / "file"))
    # MindSpore 2.10's messages
    with pytest.raises(ValueError, match="The path is invalid, it should be non-blank."):
        _make_directory("  ")
    with pytest.raises(TypeError, match="The directory is invalid, the type should be string."):
        _make_directory(5, "directory")


def test_virtual_dataset_cell_passes_inputs_to_its_backbone():
    backbone = nn.Dense(3, 2)
    net = _VirtualDatasetCell(backbone)
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(net(x).asnumpy(), backbone(x).asnumpy())
    np.testing.assert_array_equal(ms.jit(net)(x).asnumpy(), backbone(x).asnumpy())
    assert [p.name for p in net.trainable_params()] == ["weight", "bias"]


def test_py_tensor_operation_subclasses_run_in_a_pipeline():
    class AddOne(PyTensorOperation):
        def __init__(self):
            super().__init__()
            self.random = False

        def _execute_py(self, img):
            return img + 1

    assert ds.vision.transforms.PyTensorOperation is PyTensorOperation
    rows = ds.NumpySlicesDataset(np.arange(3), shuffle=False).map(AddOne())
    assert [int(row[0]) for row in rows.create_tuple_iterator(output_numpy=True)] == [1, 2, 3]
    with pytest.raises(NotImplementedError, match="Bare must define __call__ or _execute_py."):
        type("Bare", (PyTensorOperation,), {})()(np.zeros(1))


def test_checkparam_float_checks_are_mindspores():
    from npspore import _checkparam as c
    # MindSpore 2.10's values and messages
    assert (c.INC_NEITHER, c.INC_LEFT, c.INC_RIGHT, c.INC_BOTH) == (7, 8, 9, 10)
    assert c.check_non_negative_float(0.5, "x") == 0.5
    assert c.check_float_range(0.5, 0.0, 1.0, c.INC_BOTH, "rho") == 0.5
    assert c.check_float_range(1.0, 0.0, 1.0, c.INC_RIGHT, "rho", "P") == 1.0
    for call, error, message in [
            (lambda: c.check_non_negative_float(-1.0, "x", "Op"), ValueError,
             "For 'Op', the 'x' must be float and must >= 0, but got '-1.0' with type 'float'."),
            (lambda: c.check_non_negative_float(1, "x"), TypeError, "The 'x' must be float, but got 'int'"),
            (lambda: c.check_non_negative_float(-1.0), ValueError,
             "The input value must be float and must >= 0, but got '-1.0' with type 'float'."),
            (lambda: c.check_float_range(1.5, 0.0, 1.0, c.INC_BOTH, "rho", "Adadelta"), ValueError,
             "For 'Adadelta', the 'rho' must be in range of [0.0, 1.0], but got 1.5 with type 'float'."),
            (lambda: c.check_float_range(1.0, 0.0, 1.0, c.INC_LEFT, "rho", "Adadelta"), ValueError,
             "For 'Adadelta', the 'rho' must be in range of [0.0, 1.0), but got 1.0 with type 'float'."),
            (lambda: c.check_float_range(0.0, 0.0, 1.0, c.INC_NEITHER, "rho"), ValueError,
             "The 'rho' must be in range of (0.0, 1.0), but got 0.0 with type 'float'."),
            (lambda: c.check_float_range(1, 0.0, 1.0, c.INC_BOTH, "rho"), TypeError,
             "The 'rho' must be 'float',  but got 'int'."),
            (lambda: c.check_float_range(0.0, 0.0, 1.0, c.INC_RIGHT, "rho", "P"), ValueError,
             "For 'P', the 'rho' must be in range of (0.0, 1.0], but got 0.0 with type 'float'.")]:
        with pytest.raises(error) as raised:
            call()
        assert str(raised.value) == message
