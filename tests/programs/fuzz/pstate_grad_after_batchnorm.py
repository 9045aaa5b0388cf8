"""Stateful fuzz seed 100616, minimized by hand: BatchNorm in training mode updates its running
statistics after a value was computed from one of them; the gradient's backward sweep reads the
updated statistic (the same class as pstate_grad_after_assign)."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(3, dtype=ms.float64)
        self.set_train(True)

    def construct(self, x0, k):
        v1 = self.bn.moving_variance * x0      # d v1/d x0 is the moving variance as it is here
        return v1 + ops.tanh(self.bn(x0))


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(100616)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True, 'seed': 100616, 'traced': False}
