"""Fuzz seed t135 (fuzz9, tools/fuzz_transforms.py), shrunk: vmap(grad) of ``v7[i0] = ...`` in a range loop kept as
a loop (``row_set`` at the loop's index) met a batched index (no batching rule). Rows are now written at each
sample's own index."""
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
        v7 = ops.tanh(x0) * 1.0
        for i0 in range(2):
            v7[i0] = v7[i0] * 0.5 + (((x1[:, 1:2] * x0) * ops.cast(k, ms.float64)))[i0]
        return v7


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(135)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'seed': 135, 'transform': {'check': 'vmap_grad', 'in_axes': [[2, 1, None]], 'out_axes': [0], 'positions': [1]}}
