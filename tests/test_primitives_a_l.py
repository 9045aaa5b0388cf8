"""Primitive classes of ``mindspore.ops.operations`` named A-L (and the NPU float-status trio), with MindSpore
2.10's values: recorded by ``tools/observe_mindspore_primitives_a_l.py`` from MindSpore 2.10 CPU, or taken from
MindSpore 2.10's docstrings where its CPU build has no kernel (said at each case)."""
import warnings

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.ops import composite as C, functional as F, operations as P


# --- NPUAllocFloatStatus / NPUClearFloatStatus / NPUGetFloatStatus: no CPU kernel in MindSpore 2.10 (its
# "Unsupported op [NPUAllocFloatStatus] on CPU"); values from the docstrings of mindspore.ops.NPUGetFloatStatus.

class _StatusNet(nn.Cell):
    """The docstring's network of ``ops.NPUGetFloatStatus``, also returning the flag after the read."""

    def __init__(self):
        super().__init__()
        self.alloc_status = ops.NPUAllocFloatStatus()
        self.get_status = ops.NPUGetFloatStatus()
        self.clear_status = ops.NPUClearFloatStatus()
        self.sub = ops.Sub()
        self.neg = ops.Neg()

    def construct(self, x):
        init = self.alloc_status()
        clear_status = self.clear_status(init)
        x = ops.depend(x, clear_status)
        res = self.sub(x, self.neg(x))
        init = ops.depend(init, res)
        get_status = self.get_status(init)
        res = ops.depend(res, get_status)
        return res, init


class _LossScaleStep(nn.Cell):
    """The models zoo's Ascend loss-scale step: clear before the scaled backward pass, read after it."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = net.trainable_params()
        self.optimizer = nn.SGD(self.weights, learning_rate=0.1)
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.alloc_status = P.NPUAllocFloatStatus()
        self.get_status = P.NPUGetFloatStatus()
        self.clear_status = P.NPUClearFloatStatus()
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.base = Tensor(1, ms.float32)
        self.less_equal = P.LessEqual()

    def construct(self, x, sens):
        loss = self.net(x)
        init = self.alloc_status()
        init = F.depend(init, loss)
        clear_status = self.clear_status(init)
        sens = F.depend(sens, clear_status)
        grads = self.grad(self.net, self.weights)(x, sens)
        init = F.depend(init, grads)
        get_status = self.get_status(init)
        init = F.depend(init, get_status)
        flag_sum = self.reduce_sum(init, (0,))
        overflow = self.less_equal(self.base, flag_sum)
        if not overflow:
            self.optimizer(grads)
        return overflow


def test_npu_alloc_float_status_is_the_docstrings_zeros():
    flag = ops.NPUAllocFloatStatus()()
    assert flag.shape == (8,) and str(flag.dtype) == "Float32"
    assert flag.asnumpy().tolist() == [0.0] * 8


@pytest.mark.parametrize("compiled", [False, True])
def test_npu_float_status_docstring_network_has_no_overflow(compiled):
    net = _StatusNet()
    run = ms.jit(net.construct) if compiled else net
    res, flag = run(Tensor(np.full((2, 3), 5, np.float16), ms.float16))
    assert str(res.dtype) == "Float16" and res.asnumpy().tolist() == [[10.0] * 3] * 2  # the docstring's output
    assert flag.asnumpy().tolist() == [0.0] * 8


@pytest.mark.parametrize("compiled", [False, True])
def test_npu_float_status_reports_an_overflow_in_place(compiled):
    net = _StatusNet()
    run = ms.jit(net.construct) if compiled else net
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res, flag = run(Tensor(np.full((2, 3), 4e4, np.float16), ms.float16))
    assert np.isinf(res.asnumpy()).all()
    assert flag.asnumpy().tolist() == [1.0] * 8
    res, flag = run(Tensor(np.full((2, 3), 5, np.float16), ms.float16))   # cleared again: no overflow now
    assert flag.asnumpy().tolist() == [0.0] * 8


@pytest.mark.parametrize("compiled", [False, True])
def test_npu_float_status_sees_an_overflow_of_the_scaled_gradients(compiled):
    net = nn.Dense(3, 1, weight_init="zeros")
    step = _LossScaleStep(net)
    run = ms.jit(step.construct) if compiled else step
    x = Tensor(np.ones((2, 3), np.float32))
    assert not run(x, Tensor(np.full((2, 1), 1.0, np.float32)))
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.2, -0.2, -0.2]], rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert run(x, Tensor(np.full((2, 1), 3e38, np.float32)))   # the weight gradient is 6e38: inf in float32
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.2, -0.2, -0.2]], rtol=1e-6)   # the step was skipped
    assert not run(x, Tensor(np.full((2, 1), 1.0, np.float32)))
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.4, -0.4, -0.4]], rtol=1e-6)


def test_npu_float_status_restores_numpys_error_state_and_passes_reports_on():
    before = np.geterr()
    flag = ops.NPUAllocFloatStatus()()
    ops.NPUClearFloatStatus()(flag)
    with pytest.warns(RuntimeWarning, match="overflow"):
        Tensor(np.array([3e38], np.float32)) * 2
    assert ops.NPUGetFloatStatus()(flag).asnumpy().tolist() == [1.0] * 8
    assert np.geterr() == before and flag.asnumpy().tolist() == [1.0] * 8


def test_npu_float_status_rejects_a_non_float_flag():
    with pytest.raises(TypeError, match="For 'NPUGetFloatStatus', the type of 'x' must be Tensor\\[Float16, Float32\\]"):
        ops.NPUGetFloatStatus()(Tensor(np.zeros(8, np.int32)))
    with pytest.raises(TypeError, match="For 'NPUClearFloatStatus', the 'x' must be a Tensor"):
        ops.NPUClearFloatStatus()([0.0] * 8)
