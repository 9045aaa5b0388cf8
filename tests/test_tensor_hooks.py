"""``Tensor.register_hook`` (compiler/tensorhooks.py, nn/hook_backward.py).

Expected values were printed by MindSpore 2.10 (CPU) for the same programs: in PYNATIVE mode a hook sees the
gradient of its tensor and a Tensor it returns replaces it; ``ms.grad(ms.jit(f))`` ignores a hook registered
in ``f``; a hook on an input or a Parameter sees the gradient computed for it (GRAPH mode too).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn
from npspore.compiler.errors import NotSupportedError

X = np.array([1.0, 2.0, 3.0], np.float32)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path / "kernels"))


def numeric_gradient(f, x, eps=1e-6):
    x = x.astype(np.float64)
    grads = []
    for i in range(x.size):
        step = np.zeros_like(x)
        step[i] = eps
        grads.append((f(x + step) - f(x - step)) / (2 * eps))
    return np.array(grads)


def test_a_hook_on_a_value_of_the_function_doubles_its_gradient():
    seen = []

    def hook(grad):
        seen.append(grad.asnumpy().tolist())
        return grad * 2

    def f(x):
        y = x * x
        y.register_hook(hook)
        return (y * 3).sum()

    grad = ms.grad(f)(Tensor(X))
    assert seen == [[3.0, 3.0, 3.0]]
    np.testing.assert_allclose(grad.asnumpy(), [12.0, 24.0, 36.0])   # MindSpore PYNATIVE's
    np.testing.assert_allclose(grad.asnumpy(), 2 * numeric_gradient(lambda x: (x * x * 3).sum(), X), rtol=1e-6)
    assert "rt.host_call(" in ms.grad(f).kernel_source(Tensor(X))
    np.testing.assert_allclose(ms.grad(ms.jit(f))(Tensor(X)).asnumpy(), [6.0, 12.0, 18.0])   # @jit: ignored


def test_a_hook_made_in_construct_runs_in_pynative_and_not_in_graph_mode():
    class Net(nn.Cell):
        def construct(self, x):
            y = x * 2
            y.register_hook(lambda g: g * 100)
            return y.sum()

    np.testing.assert_allclose(ms.grad(Net())(Tensor(X)).asnumpy(), [200.0, 200.0, 200.0])   # MindSpore's
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(ms.grad(Net())(Tensor(X)).asnumpy(), [2.0, 2.0, 2.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_hooks_on_an_input_and_a_parameter_and_their_removal():
    x = Tensor(X)
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.asnumpy().tolist()))
    f = ms.grad(lambda x: (x ** 2).sum())
    np.testing.assert_allclose(f(x).asnumpy(), [2.0, 4.0, 6.0])   # None: the gradient is kept
    assert seen == [[2.0, 4.0, 6.0]]
    handle.remove()
    f(x)
    assert seen == [[2.0, 4.0, 6.0]]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

        def construct(self, x):
            return (self.w * x).sum()

    net = Net()
    g = ms.grad(net, None, net.trainable_params())
    inputs = Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_allclose(g(inputs)[0].asnumpy(), [3.0, 4.0])
    handle = net.w.register_hook(lambda grad: grad * 10)   # registered after a kernel was compiled
    np.testing.assert_allclose(g(inputs)[0].asnumpy(), [30.0, 40.0])   # MindSpore's
    handle.remove()
    np.testing.assert_allclose(g(inputs)[0].asnumpy(), [3.0, 4.0])


def test_a_hook_must_be_callable_and_not_on_a_parameter_in_compiled_code():
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int."):   # MindSpore's words
        Tensor(X).register_hook(3)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(X), name="w")

        def construct(self, x):
            self.w.register_hook(lambda g: g)
            return (self.w * x).sum()

    with pytest.raises(NotSupportedError, match="register_hook on a Parameter") as info:
        ms.grad(Net())(Tensor(X))
    assert "self.w.register_hook(lambda g: g)" in str(info.value)


def test_a_hook_on_a_weight_applies_in_a_compiled_training_step():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

        def construct(self, x):
            return (self.w * x).sum()

    net = Net()
    seen = []

    def freeze(grad):
        seen.append(grad.asnumpy().tolist())
        return grad * 0

    net.w.register_hook(freeze)
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.5))
    step(Tensor(np.array([3.0, 4.0], np.float32)))
    assert seen == [[3.0, 4.0]] and net.w.asnumpy().tolist() == [1.0, 2.0]
