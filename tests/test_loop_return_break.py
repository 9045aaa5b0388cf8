"""A tensor ``if`` with ``return`` in one branch and ``break`` (or ``continue``) in the other, inside a
``for range`` loop, a ``while`` loop on Python values and ``while True``: compiled by unrolling the
loop lazily (``compiler/control.py``, ``LoopStep``), forward and gradients at first and second order.
A ``while`` loop on a tensor condition whose body returns stays a loop carrying a ``returned`` flag
and the value returned (a ``return`` and a ``break`` in one such loop are still refused: ``test_footguns``).

Expected values were observed on MindSpore 2.10 CPU in GRAPH_MODE (the same classes in a .py file);
the plain functions are checked against eager execution and float64 central differences.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class ForReturnBreak(nn.Cell):
    def construct(self, x):
        for i in range(4):
            x = x * x * 0.5 + x
            if x.sum() > 10:
                return x * 2
            elif x.sum() < -1:
                break
            x = x + i
        return x - 1


class WhileReturnBreak(nn.Cell):
    def construct(self, x):
        i = 0
        while i < 4:
            x = x * x * 0.5 + x
            if x.sum() > 10:
                return x * 2
            else:
                if x.sum() < -1:
                    break
            i += 1
            x = x + i
        return x - 1


class WhileTrueReturnBreak(nn.Cell):
    def construct(self, x):
        while True:
            x = x * x * 0.5 + x
            if x.sum() > 10:
                return x * 3
            else:
                break
        return x * x


INPUTS = ([1.0, 2.0], [-1.5, -0.5], [0.1, 0.2])

# (forward, grad, grad of grad) per input, observed on MindSpore 2.10 CPU (GRAPH_MODE, float32)
MINDSPORE = {
    ForReturnBreak: (
        ([5.25, 24.0], [10.0, 30.0], [13.0, 28.0]),
        ([14.500301361083984, 14.500301361083984], [-4.171572685241699, 4.171572685241699],
         [13.010702133178711, 13.010702133178711]),
        ([21.34577178955078, 24.18250274658203], [24.25328254699707, 32.97479248046875],
         [73.3218994140625, 103.01339721679688])),
    WhileReturnBreak: (
        ([11.25, 35.0], [14.0, 36.0], [15.0, 30.0]),
        ([13.59478759765625, 13.59478759765625], [-6.2080078125, 6.2080078125], [15.646484375, 15.646484375]),
        ([21.236059188842773, 23.643281936645508], [21.83753776550293, 26.449256896972656],
         [41.98693084716797, 50.531734466552734])),
    WhileTrueReturnBreak: (
        ([2.25, 16.0], [6.0, 24.0], [11.0, 26.0]),
        ([0.140625, 0.140625], [0.375, -0.375], [-0.25, -0.25]),
        ([0.011025001294910908, 0.04839999973773956], [0.23100000619888306, 0.527999997138977],
         [2.630000114440918, 3.320000171661377])),
}


@pytest.mark.parametrize("net_class", list(MINDSPORE), ids=lambda c: c.__name__)
def test_return_and_break_in_the_branches_of_a_tensor_if_match_mindspore(net_class):
    net = net_class()
    grad, grad2 = ms.grad(net), ms.grad(ms.grad(net))
    for values, expected in zip(INPUTS, MINDSPORE[net_class]):
        x = Tensor(np.array(values, np.float32))
        for got, want in zip((net(x), grad(x), grad2(x)), expected):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)


def for_return_continue(x):
    for i in range(3):
        x = ops.sin(x) * 2 + x
        if x.sum() > 4:
            return x * x
        elif x.sum() < 0:
            continue
        x = x * 0.5
    return x * 3


def nested_return_break(x):
    for i in range(2):
        j = 0
        while j < 3:
            x = x * x * 0.25 + x
            if x.sum() > 6:
                return x * 2
            elif x.sum() < -1:
                break
            j += 1
        x = x - 1
    return x + 10


def return_then_python_break(x):
    for i in range(3):
        x = x * 2
        if x.sum() > 5:  # a return joined by a flag, in a loop that breaks on the index
            return x
        if i == 1:
            break
    return x - 1


def while_true_return_continue(x):
    k = 0
    while True:
        x = ops.sin(x) + x
        if x.sum() > 3:
            return x * 2
        k += 1
        if k == 4:
            break
        if x.sum() < 0:
            continue
        x = x * 1.1
    return x


def total(fn, x):
    return float(fn(Tensor(x)).asnumpy().sum())


def fd(fn, x, h=1e-6):
    """d total(fn)/dx by float64 central differences."""
    g = np.zeros_like(x)
    for k in range(x.size):
        e = np.zeros_like(x)
        e.flat[k] = h
        g.flat[k] = (total(fn, x + e) - total(fn, x - e)) / (2 * h)
    return g


@pytest.mark.parametrize("fn", [for_return_continue, nested_return_break, return_then_python_break,
                                while_true_return_continue], ids=lambda f: f.__name__)
@pytest.mark.parametrize("values", [[1.0, 2.0], [-1.5, -0.5], [0.1, 0.2]])
def test_return_with_break_or_continue_against_eager_and_finite_differences(fn, values):
    x = np.array(values, np.float64)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = fn(Tensor(x)).asnumpy()  # plain Python on Tensors: the 'if's are decided eagerly
    np.testing.assert_allclose(ms.jit(fn)(Tensor(x)).asnumpy(), eager, rtol=1e-12)
    grad = ms.grad(fn)
    np.testing.assert_allclose(grad(Tensor(x)).asnumpy(), fd(fn, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ms.grad(grad)(Tensor(x)).asnumpy(), fd(grad, x), rtol=1e-5, atol=1e-5)


class BreakWithPythonReturn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.debug = False

    def construct(self, x):
        for i in range(100):
            x = x * 1.5
            if x.sum() > 10:
                break
            if self.debug:
                return x
        return x - 1


def test_a_loop_whose_return_is_decided_by_python_values_stays_a_loop():
    net = BreakWithPythonReturn()
    x = Tensor(np.array([1.0], np.float32))
    assert net(x).asnumpy().tolist() == [10.390625]  # 1.5 ** 6 - 1, as eagerly
    assert ms.grad(net)(x).asnumpy().tolist() == [11.390625]
    source = ms.jit(net).kernel_source(x)
    assert "while " in source and source.count("if ") < 5  # one loop, not 100 unrolled iterations


def python_while_returns(x):
    n = 0
    while n < 3:
        x = x * 1.5 + ops.sin(x)
        if x.sum() > 4.0:
            return x * 2.0
        n += 1
    return x - 1.0


def tensor_while_returns(x):
    while x.sum() < 10.0:
        x = x * 1.5 + 0.5
        if ops.amax(x) > 3.0:
            return x * 2.0, x.sum()
        x = x + 0.25
    return x - 1.0, x.mean()


def tensor_while_always_returns(x):
    y = x
    while x.sum() < 5.0:
        y = y * 3.0
        return y
    return y - 1.0


def counted_while_returns(x):
    c = Tensor(0, ms.int32)
    while c < 4:
        x = ops.tanh(x) * 2.5
        if x.sum() > 3.5:
            return x * c
        c = c + 1
    return x


@pytest.mark.parametrize("fn", [python_while_returns, tensor_while_returns, tensor_while_always_returns,
                                counted_while_returns], ids=lambda f: f.__name__)
@pytest.mark.parametrize("values", [[0.5, 1.0], [2.0, 2.5], [-1.0, 0.2], [-0.5, -0.3]])
def test_return_under_a_tensor_condition_in_a_while_loop(fn, values):
    """A ``while`` on Python values whose body returns under a tensor condition (refused before:
    ReturnInStagedLoop), and a ``while`` on a tensor condition whose body returns (refused before:
    "a 'while' loop on a tensor condition whose body returns")."""
    x = np.array(values, np.float64)
    first = (lambda a: fn(a)[0]) if fn is tensor_while_returns else fn
    eager = fn(Tensor(x))
    compiled = ms.jit(fn)(Tensor(x))
    for got, want in zip(compiled if isinstance(eager, tuple) else (compiled,),
                         eager if isinstance(eager, tuple) else (eager,)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-12)
    grad = ms.grad(first)
    np.testing.assert_allclose(grad(Tensor(x)).asnumpy(), fd(first, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ms.grad(grad)(Tensor(x)).asnumpy(), fd(grad, x), rtol=1e-5, atol=1e-5)
