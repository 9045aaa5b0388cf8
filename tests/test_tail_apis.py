"""API fixes and additions of the ``tail`` branch, against MindSpore 2.10's values recorded by
tools/observe_mindspore_tail.py."""
import numpy as np

import npspore as ms
from npspore import Tensor, ops
from npspore.testing import check_grads


def threshold_at_boundary(x):
    return ops.threshold(x, 0.1, 20.0)


def test_threshold_compares_float64_with_a_python_float_in_float32_eager_and_compiled():
    # MindSpore 2.10: -1 + 1.1 (0.10000000000000009) is not above 0.1 taken as Float32 -> all 20.0
    x = Tensor(np.full((3,), -1.0) + 1.1, ms.float64)
    np.testing.assert_array_equal(threshold_at_boundary(x).asnumpy(), [20.0, 20.0, 20.0])
    np.testing.assert_array_equal(ms.jit(threshold_at_boundary)(x).asnumpy(), [20.0, 20.0, 20.0])


def test_threshold_docstring():
    x = Tensor([0.3, 0.1, 0.4, 0.5, 0.2], ms.float32)
    np.testing.assert_allclose(ops.threshold(x, 0.3, 20.0).asnumpy(), [20.0, 20.0, 0.4, 0.5, 20.0], rtol=1e-7)


def softplus_2_2(x):
    return ops.softplus(x, 2, 2)


def test_softplus_keeps_the_input_above_threshold():
    y = Tensor(np.array([3.0, 0.5, -1.0, 1.0, 2.0]), ms.float32)
    np.testing.assert_allclose(ops.softplus(y, 1, 1).asnumpy(),
                               [3.0, 0.9740768671035767, 0.3132612109184265, 1.3132610321044922, 2.0], rtol=3e-6)
    expected = [3.0, 0.6566305160522461, 0.0634639710187912, 1.0634640455245972, 2.0]
    np.testing.assert_allclose(softplus_2_2(y).asnumpy(), expected, rtol=3e-6)
    np.testing.assert_allclose(ms.jit(softplus_2_2)(y).asnumpy(), expected, rtol=3e-6)
    np.testing.assert_allclose(ops.grad(lambda t: softplus_2_2(t).sum())(y).asnumpy(),
                               [1.0, 0.7310588955879211, 0.1192028671503067, 0.8807971477508545, 1.0], rtol=3e-6)
    check_grads(softplus_2_2, [np.array([3.0, 0.5, -1.0, 0.7, 2.0])], order=1)
