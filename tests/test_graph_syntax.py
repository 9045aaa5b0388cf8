"""Graph-mode syntax MindSpore accepts in construct, compiled by npspore.

Every expected value was observed on MindSpore 2.10 CPU in GRAPH_MODE (the same classes in a .py file).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def x2():
    return Tensor(np.array([1.0, 2.0], np.float32))


def values(t):
    return np.asarray(t.asnumpy()).tolist()


class IsNone(nn.Cell):
    def construct(self, x, y=None):
        if y is None:
            return x + 1
        return x + y


MODE = "a"


class IsNotNone(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b = None
        self.mode = "".join(["a"])  # a string object other than the literal below

    def construct(self, x):
        if self.b is not None:
            return x
        if self.mode is MODE:  # MindSpore compares Python constants by value
            return x * 2
        return x * 3


class InList(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 3

    def construct(self, x):
        if self.k in [2, 3, 4]:
            return x * 10
        return x


class Assert(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        assert self.k > 2
        return x * self.k


def test_is_none_is_not_none_is_and_in_on_python_values():
    assert values(IsNone()(x2())) == [2.0, 3.0]
    assert values(IsNotNone()(x2())) == [2.0, 4.0]
    assert values(InList()(x2())) == [10.0, 20.0]


def test_assert_on_python_values():
    assert values(Assert(3)(x2())) == [3.0, 6.0]
    with pytest.raises(AssertionError):
        Assert(1)(x2())


class SetAttr(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = 1

    def construct(self, x):
        self.weight = 5
        return x * self.weight


class ParamInc(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="param")

    def construct(self, x):
        self.param += 1
        return self.param * x


class ParamSet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="param")

    def construct(self, x):
        self.param = self.param + x
        return self.param


class CacheTensor(nn.Cell):
    def construct(self, x):
        self.cache = x
        return x


def test_assigning_attributes_in_construct():
    net = SetAttr()
    assert values(net(x2())) == [5.0, 10.0]
    assert net.weight == 5  # MindSpore sets the attribute on the object too
    inc = ParamInc()
    assert values(inc(x2())) == [2.0, 6.0]
    assert values(inc.param) == [2.0, 3.0]
    assign = ParamSet()
    assert values(assign(x2())) == [2.0, 4.0]
    assert values(assign.param) == [2.0, 4.0]


def test_assigning_a_tensor_to_an_attribute_that_is_no_parameter_sets_it_after_the_call():
    net = CacheTensor()
    assert values(net(x2())) == [1.0, 2.0]
    assert values(net.cache) == [1.0, 2.0]   # MindSpore 2.10 sets it too (tests/test_cellstate.py)


class ScalarBranch(nn.Cell):
    def construct(self, x):
        out = 0
        if x > 0:
            out = 1
        else:
            out = 2
        return out + x


def test_a_python_scalar_set_in_the_branches_of_a_tensor_if_is_a_0d_tensor():
    assert float(ScalarBranch()(Tensor(3.0, ms.float32)).asnumpy()) == 4.0
    assert float(ScalarBranch()(Tensor(-3.0, ms.float32)).asnumpy()) == -1.0


class Partial(nn.Cell):
    def construct(self, x, y):
        f = ops.partial(ops.add, x)
        return f(y)


@ms.jit_class
class Helper:
    def __init__(self):
        self.k = 3

    def scale(self, x):
        return x * self.k


class UseJitClass(nn.Cell):
    def __init__(self):
        super().__init__()
        self.h = Helper()

    def construct(self, x):
        return self.h.scale(x)


def test_ops_partial_and_jit_class():
    assert values(Partial()(x2(), x2())) == [2.0, 4.0]
    assert values(ops.partial(ops.mul, x2())(x2())) == [1.0, 4.0]
    assert values(UseJitClass()(x2())) == [3.0, 6.0]
    with pytest.raises(TypeError, match="cannot be used for nn.Cell"):
        ms.jit_class(nn.ReLU)
    with pytest.raises(TypeError, match="can only be used for class type"):
        ms.jit_class(3)


class WhileTrue(nn.Cell):
    def construct(self, x):
        while True:
            x = x + 1
            if x > 5:
                break
        return x


class WhileTruePythonBreak(nn.Cell):
    def construct(self, x):
        i = 0
        while True:
            x = x * 2
            i += 1
            if i == 3:
                break
        return x


def test_break_under_a_tensor_condition_in_while_true():
    assert float(WhileTrue()(Tensor(1.0, ms.float32)).asnumpy()) == 6.0
    assert float(WhileTrue()(Tensor(9.0, ms.float32)).asnumpy()) == 10.0
    assert values(WhileTruePythonBreak()(x2())) == [8.0, 16.0]  # Python breaks still unroll
