"""Stateful fuzz seed 700770 (default mix, minimized by hand): a sub-cell reads its weight (``tanh(a @ w) + a``) and the caller then
updates that weight (``assign_add``); the sub-cell's backward read the updated weight. The call now hands the
sub-cell a copy taken before the update (compiler/paramsnapshots.py)."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w")

    def construct(self, a):
        return ops.tanh(ops.matmul(a, self.w)) + a


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()

    def construct(self, x0, x1, k):
        v1 = (ops.sin(self.sub(x1)) - x1)
        ops.assign_add(self.sub.w, ops.matmul(ops.transpose(x1, (1, 0)), ops.tanh(v1)) * 0.05)
        return ops.cos(((v1 * ops.cast(k, ms.float64))[0] + ops.abs(x1)))


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(700770)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True, 'seed': 700770, 'traced': False}
