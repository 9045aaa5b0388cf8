"""Stateful fuzz seed 6 (shrunk; run through ``exec``, so npspore traces it): ``self.acc.acc += ...``
updates a sub-cell's Parameter by attribute assignment, which set the data while the trace ran and was
never written by the kernel again (compiled: the Parameter kept the first call's value)."""
# traced: run through exec
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
        self.acc.acc += ops.tanh(self.mul(x0, (x0 * ops.cast(k, ms.float64)))) * 0.25
        return ops.tanh(self.w1 - x0)


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(6)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True, 'seed': 6, 'traced': True}
