"""Stateful fuzz seeds 10, 100049, 100094, 100127, minimized by hand: the backward sweep of a gradient
reads a Parameter after the forward sweep assigned it, so the adjoint of a value computed before the
assignment uses the Parameter's new value (``d_x = 1.0 * p`` after ``np.copyto(p, ...)``), whether the
function assigns it itself or calls a cell that does."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Acc(nn.Cell):
    def __init__(self):
        super().__init__()
        self.acc = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="acc")

    def construct(self, a):
        ops.assign(self.acc, ops.sin(a))
        return a


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.s0 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="s0")
        self.acc = Acc()

    def construct(self, x0, k):
        v1 = self.s0 * x0                      # d v1/d x0 is s0 as it is here
        ops.assign(self.s0, self.s0 * 3.0)
        v2 = ops.sigmoid(self.acc.acc * x0)    # d v2/d x0 reads acc as it is here, before the call below
        self.acc(x0)
        return v1 + v2


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(10)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True, 'seed': 10, 'traced': False}
