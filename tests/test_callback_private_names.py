"""MindSpore's private callback names that scripts import: ``train.callback._CallbackManager`` and
``train.callback._callback._handle_loss`` (values recorded from MindSpore 2.10)."""
import numpy as np

import npspore as ms
from npspore.train.callback import _CallbackManager
from npspore.train.callback._callback import CallbackManager, _handle_loss


def test_the_private_callback_manager_is_the_callback_manager():
    # MindSpore 2.10: mindspore.train.callback._CallbackManager is _callback.CallbackManager
    assert _CallbackManager is CallbackManager


def test_handle_loss_reads_a_loss_as_mindspores_monitors_do():
    # MindSpore 2.10: 2.3333332538604736, Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00]), 2.5
    assert _handle_loss(ms.Tensor(np.array([1.0, 2.0, 4.0], np.float32))) == 2.3333332538604736
    first = _handle_loss((ms.Tensor(np.array([3.0], np.float32)), ms.Tensor(False)))
    assert isinstance(first, ms.Tensor) and first.shape == (1,) and first.asnumpy()[0] == 3.0
    assert _handle_loss(2.5) == 2.5
