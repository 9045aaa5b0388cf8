"""``ops.Custom`` with ``func_type="pyfunc"``: a Python function on NumPy arrays, with an optional bprop.

The values are MindSpore 2.10's (``tools/observe_mindspore_custom.py``, whose calls ``cases`` these tests run
with npspore, in PYNATIVE and GRAPH mode): the docstring example, a pyfunc with a bprop and its gradients, two
outputs, the placeholder shape of ``out_shape=()``.
"""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops

_spec = importlib.util.spec_from_file_location(
    "observe_mindspore_custom", Path(__file__).parent.parent / "tools" / "observe_mindspore_custom.py")
observe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(observe)

# MindSpore 2.10, tools/observe_mindspore_custom.py (PYNATIVE and GRAPH print the same)
MINDSPORE_CASES = [
    ("example shape", (16, 16)),
    ("bprop forward", [4.0, 9.0]),
    ("bprop grads", [[3.0, -8.0], [2.0, -8.0]]),
    ("two outputs", ([2.0, 3.0], "Float32", [2, 4], "Int32")),
    ("placeholder", ([3.0], (1,))),
]


@pytest.fixture
def restore_mode():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_values_are_mindspores(mode, restore_mode):
    ms.set_context(mode=mode)
    assert observe.cases(ms) == MINDSPORE_CASES


def test_a_network_calls_it_compiled_and_its_gradient_is_the_bprops():
    def tanh(x):
        return np.tanh(x)

    def tanh_bprop(x, out, dout):
        return (dout * (1 - out * out),)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
            self.custom = ops.Custom(tanh, lambda s: s, lambda t: t, bprop=tanh_bprop)

        def construct(self, x):
            return (self.custom(x * self.w) * 2.0).sum()

    net = Net()
    x = Tensor(np.array([0.5, -1.0, 0.25], np.float32))
    wx = np.array([0.5, -2.0, 0.75])
    assert ms.jit(net)(x).asnumpy() == pytest.approx(2 * np.tanh(wx).sum(), rel=1e-6)
    grads = ms.grad(net, 0, net.trainable_params())(x)
    np.testing.assert_allclose(grads[0].asnumpy(), 2 * (1 - np.tanh(wx) ** 2) * [1.0, 2.0, 3.0], rtol=1e-6)
    np.testing.assert_allclose(grads[1][0].asnumpy(), 2 * (1 - np.tanh(wx) ** 2) * [0.5, -1.0, 0.25], rtol=1e-6)


def test_without_bprop_a_gradient_raises_mindspores_error():
    custom = ops.Custom(lambda x: x * 2, (2,), ms.float32)

    def loss(x):
        return custom(x).sum()

    x = Tensor(np.ones(2, np.float32))
    np.testing.assert_array_equal(ms.jit(loss)(x).asnumpy(), 4.0)
    with pytest.raises(RuntimeError, match="Illegal primitive Custom's bprop not defined") as caught:
        ms.grad(loss)(x)
    assert "test_custom_op.py" in str(caught.value)


def test_errors():
    with pytest.raises(ValueError, match=r"'func_type' must be one of \['hybrid', 'akg', 'tbe', 'aicpu', 'aot', "
                                         r"'pyfunc'\], but got foo"):
        ops.Custom(lambda a: a, (2,), ms.float32, "foo")
    with pytest.raises(NotImplementedError, match="'func_type' 'aot' .* is not implemented in npspore"):
        ops.Custom("./add.so:Add", (2,), ms.float32, "aot")
    with pytest.raises(TypeError, match="'str' object is not callable"):
        ops.Custom("f", (2,), ms.float32, "pyfunc")
    x = Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match=r"'out_shape' must be one of \[tuple, list, function\], but got "
                                        r"<class 'NoneType'>"):
        ops.Custom(lambda a: a, None, ms.float32)(x)
    with pytest.raises(RuntimeError, match=r"output 0 of the function has dtype float64 and shape \(2,\), but "
                                           r"'out_dtype' and 'out_shape' declare float32 and \(2,\)"):
        ops.Custom(lambda a: a.astype(np.float64), (2,), ms.float32)(x)
    three = ops.Custom(lambda b: np.ones(3, np.float32), (2,), ms.float32)
    with pytest.raises(RuntimeError, match=r"has dtype float32 and shape \(3,\)"):
        ms.jit(lambda a: three(a))(x)
