"""Fuzz seed 122 (fuzz9), shrunk: ``v2 * (ops.cast(v2 * 4.0, ms.int32) + 1)`` of a gradient ``v2`` computed in
construct. The adjoint passed the cotangent through the cast to int32 as if it were the identity (``x + cast(4 * x,
int32)`` had the gradient 5, not 1; forward mode gave it none): a cast of a float to an integer dtype is a step
function, its derivative 0, and differentiate no longer propagates a dependency through it."""
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


class Acc(nn.Cell):
    def __init__(self):
        super().__init__()
        self.acc = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="acc")
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()

    def construct(self, a):
        pass


class Nest(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Acc()
        self.m = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="m")
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()

    def construct(self, a):
        pass


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
        self.s0 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="s0")
        self.s1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="s1")
        self.acc = Acc()
        self.nest = Nest()
        self.bn = nn.BatchNorm1d(3, dtype=ms.float64)
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()
        self.set_train(True)
    def method(self, a, b):
        return a * ops.cos(b) - b

    def construct(self, x0, x1, k):
        def f1(u, z):
            h = ops.tanh(u + z) + ops.sin(u) + (ops.sin(x0)[:, 1:2] * (x0 @ self.w0)) * -0.25
            return h - z
        x1, v2 = ms.grad(f1, (0, 1))(x1, x0)
        return (x1, (ops.reduce_sum(ops.abs(x1), 1).reshape(2, 1) * (v2 * (ops.cast(v2 * 4.0, ms.int32) + 1)) / (1.5 + (v2 * (k * 2)) * (v2 * (k * 2)))))


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(122)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True, 'seed': 122, 'traced': False}
