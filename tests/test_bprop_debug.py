"""``Cell.bprop_debug``: MindSpore documents that with it True a cell's ``bprop`` "will be executed in
python interpreter", and with it False (the default) "parsed and added to graph". npspore runs the
bprop in Python out of the gradient kernel (``rt.host_call``) when True, and compiles it when False.
Values observed on MindSpore 2.10 CPU (PYNATIVE, where MindSpore always runs a bprop in Python)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from npspore.compiler.fallback import ReadInCallee


class NumpyBprop(nn.Cell):
    def construct(self, x):
        return x * 3

    def bprop(self, x, out, dout):
        print("bprop types", type(x).__name__, type(dout).__name__)
        arr = dout.asnumpy() * 100
        return (Tensor(arr),)


class Square(nn.Cell):
    def construct(self, x):
        return x * x * 3

    def bprop(self, x, out, dout):
        return (dout * x * 100,)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Square()

    def construct(self, x):
        return self.inner(x) + x


def x2():
    return Tensor(np.array([1.0, 2.0], np.float32))


def test_bprop_debug_is_a_bool_property():
    net = NumpyBprop()
    assert net.bprop_debug is False
    with pytest.raises(TypeError, match=r"^For 'Cell', the property 'bprop_debug' must be bool type, "
                                        r"but got type <class 'int'>.$"):
        net.bprop_debug = 1


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_debugged_bprop_runs_in_python(mode, capsys):
    # observed in PYNATIVE: "bprop types Tensor Tensor" and [100. 100.]
    ms.set_context(mode=mode)
    try:
        net = NumpyBprop()
        net.bprop_debug = True
        grad = ms.grad(net)
        assert str(grad(x2())) == "[100. 100.]"
        assert capsys.readouterr().out == "bprop types Tensor Tensor\n"
        assert "rt.host_call(" in grad.kernel_source(x2())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_compiled_bprop_must_be_compilable():
    # type(x) of a tensor is answered in compiled code (as MindSpore's graph mode does); reading dout's values in
    # the bprop, a function the kernel calls, is refused at the user's line
    with pytest.raises(ReadInCallee, match="reading a tensor's value here") as error:
        ms.grad(NumpyBprop())(x2())
    assert "arr = dout.asnumpy() * 100" in str(error.value)


def test_debugged_and_compiled_bprop_agree_and_switching_recompiles():
    net = Outer()
    grad = ms.grad(net)
    assert grad(x2()).asnumpy().tolist() == [101.0, 201.0]  # observed on MindSpore 2.10
    assert "host_call" not in grad.kernel_source(x2())
    net.inner.bprop_debug = True
    assert grad(x2()).asnumpy().tolist() == [101.0, 201.0]
    assert "rt.host_call(" in grad.kernel_source(x2())
    net.inner.bprop_debug = False
    assert ms.grad(grad)(x2()).asnumpy().tolist() == [100.0, 100.0]  # second order: MindSpore's value


class TwoOutputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bprop_debug = True

    def construct(self, x, s):
        return x * s, x + 1

    def bprop(self, x, s, out, dout):
        return (Tensor(dout[0].asnumpy() * s + dout[1].asnumpy()), None)


class UsesTwo(nn.Cell):
    def __init__(self):
        super().__init__()
        self.two = TwoOutputs()

    def construct(self, x):
        a, b = self.two(x, 3.0)
        return a * 2 + b


def test_a_debugged_bprop_gets_python_inputs_and_tuple_results_as_given():
    assert ms.grad(UsesTwo())(x2()).asnumpy().tolist() == [7.0, 7.0]  # dout (2, 1): 2 * 3 + 1


def test_a_kernel_calling_a_bprop_in_python_is_not_cached_on_disk():
    # its host function is registered in this process only
    net = NumpyBprop()
    net.bprop_debug = True
    assert "# key: (not cached on disk)" in ms.grad(net).kernel_source(x2())
