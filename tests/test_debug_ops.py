"""``ops.Print`` / ``ops.print_`` against MindSpore 2.10 (its docstring example, the API page of
``mindspore.ops.Print`` in 2.10, and one more case), eagerly, compiled and under ``grad``.

MindSpore 2.10 in PyNative mode printed ``PYNATIVE_OUTPUT`` for ``PrintDemo`` (its graph mode prints
the same values in its C++ layout, without commas); npspore prints it in both modes.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.ops import operations as P

PYNATIVE_OUTPUT = """\
Print Tensor x and Tensor y:
Tensor(shape=[2, 1], dtype=Int32, value=
[[1],
 [1]])
Tensor(shape=[2, 2], dtype=Int32, value=
[[1, 1],
 [1, 1]])
scalars
3
2.5
True
Tensor(shape=[2], dtype=Float32, value= [ 5.00000000e-01,  1.50000000e+00])
"""


class PrintDemo(nn.Cell):
    def __init__(self):
        super().__init__()
        self.print = ops.Print()
        self.w = Parameter(Tensor(np.array([0.5, 1.5], np.float32)), name="w")

    def construct(self, x, y):
        self.print('Print Tensor x and Tensor y:', x, y)
        self.print("scalars", 3, 2.5, True, self.w)
        return x


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_print_demo_prints_what_mindspore_prints(mode, capsys):
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.ones([2, 1]).astype(np.int32))
        result = PrintDemo()(x, Tensor(np.ones([2, 2]).astype(np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert capsys.readouterr().out == PYNATIVE_OUTPUT
    assert result.asnumpy().tolist() == [[1], [1]]


def test_print_returns_none_and_print_function_and_p_spelling(capsys):
    assert ops.Print()(Tensor(np.array([1.0], np.float32))) is None
    ops.print_("a", 1)
    assert P.Print is ops.Print
    assert capsys.readouterr().out == "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])\na\n1\n"


def test_print_inside_a_gradient_prints_each_call_and_keeps_the_gradient(capsys):
    def loss(x):
        ops.Print()("x is", x)
        return (x * x).sum()

    grads = [ms.grad(loss)(Tensor(np.array([1.0, -2.0], np.float32))) for _ in range(2)]
    assert [g.asnumpy().tolist() for g in grads] == [[2.0, -4.0], [2.0, -4.0]]
    line = "x is\nTensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00, -2.00000000e+00])\n"
    assert capsys.readouterr().out == line * 2


def test_a_tuple_of_tensors_in_compiled_code_is_refused_at_the_line():
    printer = ms.jit(lambda x: ops.Print()((x, x)))
    with pytest.raises(TypeError, match="For 'Print', each input must be a Tensor, bool, int, float or str"):
        printer(Tensor(np.ones(2, np.float32)))
