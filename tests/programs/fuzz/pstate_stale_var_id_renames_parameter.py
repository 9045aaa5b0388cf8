"""Stateful fuzz seed 910610 (as generated): the specializer kept how firmly each value is named in a dict keyed
by ``id(Var)``; a Var of a discarded attempt was collected and the Var of the captured Parameter
``nest.inner.acc``, made later at its address, inherited its entry. A library's assignment then renamed the
Parameter after its variable (``x``), the name of a value the kernel computes later in the loop, so the
loop's second ``ops.assign`` wrote into that value, not the Parameter (which value_and_grad then left
wrong). Whether it happened depended on memory layout (the environment's size changed it); the dict is now
keyed by the Var itself (compiler/specialize.py)."""
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
        a = ops.expand_dims(a, 0).squeeze(0)
        a = (self.acc * (self.acc + 0.0))
        v6 = a
        self.acc = self.acc * 0.5 + ops.tanh(v6) * 0.25
        return (self.acc * -1.25)


class Nest(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Acc()
        self.m = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="m")
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()

    def construct(self, a):
        for i0 in range(2):
            v7 = (self.inner.acc.sum() * ops.expand_dims(ops.relu(a), 0).squeeze(0))
            a = a + i0 * 0.25
        a = a * (i0 + 1.0)
        self.inner.acc = self.inner.acc * 0.5 + ops.tanh((self.inner.acc + 0.0)) * 0.25
        return a


def keep_if_finite(cell, grad_input, grad_output):
    return (grad_input[0] * float(np.isfinite(grad_output[0].asnumpy()).all()),)



class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w0")
        self.w1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="w1")
        self.sub = Sub()
        self.layers = nn.CellList([Sub(), Sub()])
        self.seq = nn.SequentialCell(Sub(), Sub())
        self.mul = ops.Mul()
        self.flag = True
        self.watched = Sub()
        self.watched.register_backward_hook(keep_if_finite)
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

    def construct(self, x0, x1, x2, k):
        for i0 in range(1):
            for r1 in range(int(k) + 1):
                self.assign(self.nest.m, ops.tanh(self.nest.m - ops.matmul(ops.transpose(x1, (1, 0)), ops.tanh(x1)) * 0.05))
                ops.assign(self.w1, self.w1 * 0.5 + ops.tanh(self.bn(x0)) * 0.5)
                v1 = ((ops.sin(x0) * ops.tanh(x1)) + self.w1)
                x1 = x2 + r1 * 0.5
            v2 = (ops.relu(ops.relu(x1)) / (1.5 + x1 * x1))
            x0 = (ops.matmul((v2 * x2), self.nest.m) + self.bn(ops.abs(x1)))
            x0 = x2 + i0 * 0.25
        x1 = x2 * (i0 + 1.0)
        x1 = x1
        for i0 in range(2):
            x0 = self.mul(x0, self.mul(ops.cos(x0), ops.abs(ops.sin(self.s0))))
            ops.assign(self.nest.inner.acc, self.nest.inner.acc * 0.5 + ops.tanh(self.mul(ops.transpose(ops.transpose(x0, (1, 0)), (1, 0)), self.mul(x0, (self.nest.inner.acc.sum() * x2)))) * 0.5)
            c1 = x0.sum() * 0.0
            while c1 < 3:
                c1 = c1 + 1.0
                if self.flag:
                    x1 = self.method(self.acc(x1), self.method(v2, x0))
                    x1 = (self.nest.inner.acc * x2)
                    x0 = (ops.relu((x0 * ops.cast(k, ms.float64))) + ops.relu(self.sub(x1)))
                    self.assign_add(self.w1, ops.sin((self.bn.moving_variance * ops.sin(x2))) * 0.25)
                else:
                    if self.s1.sum() > 0.0:
                        continue
                    v3 = (self.s1 + 0.0)
                    v4 = x1
                ops.assign(self.nest.inner.acc, ops.tanh(v2))
                v5 = (ops.square(x0).reshape(3, 2).reshape(2, 3).sum(axis=1, keepdims=True) + ((self.acc.acc + 0.0) * ops.cast(k, ms.float64)))
                v2 = ((ops.mean(v5, 0) * (self.bn.moving_mean * v2)) * 0.5)
        v2 = x2 * (i0 + 1.0)
        for j0, t0 in enumerate((v2, x1,)):
            x0 = x0 * 0.5 + t0 * j0
        return ops.tanh(self.acc.acc - ops.sigmoid(self.watched(x2)))


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(910610)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True, 'seed': 910610, 'traced': False}

