"""Fuzz seed 109 (fuzz9), shrunk: a return under a tensor ``if`` whose branch reads the int input ``k`` (``k * 0.5``)
while the other does not. The adjoint ``If`` yielded the int input's cotangent in float64 from one branch and
int32 zeros from the other, and declared its output int32 (the value's dtype), so the final cast to int32 was
skipped: ms.grad returned k's gradient as Float64. Both branches now yield the cotangents' common dtype."""
import functools

import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


def helper(a, b):
    return ops.sin(a) * b + a


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w")

    def construct(self, a):
        return ops.tanh(ops.matmul(a, self.w)) + a


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w0")
        self.w1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="w1")
        self.sub = Sub()
        self.layers = nn.CellList([Sub(), Sub()])
        self.seq = nn.SequentialCell(Sub(), Sub())
        self.mul = ops.Mul()
        self.flag = False
    def method(self, a, b):
        return a * ops.cos(b) - b

    def construct(self, x0, x1, k):
        v1 = ops.square(ops.abs((x0[::-1, 1:].sum(axis=1, keepdims=True) * x0)))
        v2 = (x1, x0)
        v3, v4 = v2
        if v1.sum() > -0.5:
            return (((x1 + k * 0.5) * (v3 - x0)).reshape(2, 3, 1)[1, Tensor([2, 0], ms.int32), :] * v1)
        return self.method(v3, (v1 * (k > 1)))


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(109)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': False, 'seed': 109}
