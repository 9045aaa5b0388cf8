"""Comparing npspore's results with values recorded from MindSpore 2.10 (``tools/observe_mindspore_*.py``)."""
import numpy as np

import npspore as ms
from npspore import Tensor


def check_value(out, recorded):
    """``out`` has the recorded ``(value, dtype name)``: the same dtype, values to float32 rounding."""
    value, dtype = recorded
    assert str(out.dtype) == dtype
    np.testing.assert_allclose(out.asnumpy(), np.asarray(value), rtol=1e-6, atol=1e-7)


def check_eager_and_compiled(fn, inputs, recorded):
    """``fn`` of the Tensors of the arrays ``inputs`` gives the recorded value eagerly and under ``ms.jit``."""
    tensors = [Tensor(a) for a in inputs]
    check_value(fn(*tensors), recorded)
    check_value(ms.jit(fn)(*tensors), recorded)


def recorded_fixture(name):
    """The arrays of ``tests/fixtures/<name>.npz``, as a ``tools/observe_mindspore_*.py`` script wrote them."""
    import os
    return np.load(os.path.join(os.path.dirname(__file__), "fixtures", f"{name}.npz"))


def check_array(out, recorded, rtol, atol):
    """The NumPy array ``out`` has the recorded array's shape and dtype and its values within the tolerances."""
    assert out.shape == recorded.shape and out.dtype == recorded.dtype
    np.testing.assert_allclose(out, recorded, rtol=rtol, atol=atol)
