"""fuzz seeds 950091, 970149 (fuzz8's closures): a nested def called in a loop that stays a loop, directly and
through ``ops.partial``, reading a name (v1) the loop rebinds: compiled code read the value before the loop (the
loop body ran in a copy of the frame, the closure read the frame it was made in), silently wrong."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w0")

    def construct(self, x0, k):
        v1 = (x0.sum(axis=1, keepdims=True) + x0) * 0.5

        def f2(u, z):
            h = (u * x0) + ops.sin(u) + ops.tanh(u + z) + ops.matmul(v1, self.w0) * -0.25
            return h - z
        for i9 in range(2):
            v1 = ops.partial(f2, v1)(v1) * 0.5
        for i9 in range(3):
            v1 = f2(x0, v1) * 0.5
        return v1


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(950091)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'n_out': 1, 'assign': False}
