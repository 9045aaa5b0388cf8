"""Fuzz seed t101 (fuzz9, tools/fuzz_transforms.py), shrunk: nested vmap whose outer level maps the int input k,
read as an index mixed with a tensor index (``v2[k - 1, Tensor([0, 2, 1])]``): a gather of batched params at
batched indices, which vmap refused (no batching rule). Each sample now takes its own rows."""
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
        self.flag = True
    def method(self, a, b):
        return a * ops.cos(b) - b

    def construct(self, x0, x1, k):
        v1 = (x1, x1)
        v2, v3 = v1
        v7 = (v2, (v2[k - 1, Tensor([0, 2, 1], ms.int32)] * (v3 * ops.cast(k, ms.float64))))
        v8, v9 = v7
        return ((ops.matmul((v8 + k * 0.5), self.w0) - ops.transpose(ops.transpose(ops.matmul(v9, self.w0), (1, 0)), (1, 0))), v3)


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(101)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'seed': 101, 'transform': {'check': 'vmap_nested', 'in_axes': [[-1, 1, None], [None, 1, 0]], 'out_axes': [1, 1]}}
