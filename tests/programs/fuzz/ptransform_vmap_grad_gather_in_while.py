"""Fuzz seed t106 (fuzz9, tools/fuzz_transforms.py), shrunk: vmap(grad) of a mixed tensor index in a tensor while
loop: the adjoint's gather_grad met batched indices (no batching rule). Each sample's cotangent is now added at its
own rows."""
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
        n0 = Tensor(0, ms.int32)
        while n0 < 2:
            n0 = n0 + 1
            for j1, t1 in enumerate((x1, x0,)):
                x0 = x0 * 0.5 + t1 * j1
            v1 = (x1, ops.reduce_sum(x1, 1).reshape(2, 1) * (x0.reshape(1, 2, 3)[0, Tensor([1, 0], ms.int32), :].sum(axis=1, keepdims=True) + self.seq(x0)))
            x1 = v1[1]
        return x0


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(106)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'seed': 106, 'transform': {'check': 'vmap_grad', 'in_axes': [[0, None, None]], 'out_axes': [0], 'positions': 0}}
