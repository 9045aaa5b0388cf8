"""Fuzz seed 16 (fuzz9), shrunk: a tensor index mixed with others (``x0.reshape(2, 3, 1)[1, idx, :]``) in a range loop
staged as a loop. The index's row positions are a constant tensor the specializer captures; the loop is staged,
found to need unrolling and staged again, which rewound the names handed out but not the captures: the first
attempt's capture stayed a kernel param named ``captured`` like the second's (``SyntaxError: duplicate argument
'captured' in function definition``). A rewind now drops the captures made since."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w0")

    def construct(self, x0, x1, k):
        v6 = x1
        for i1 in range(4):
            v6 = x0.reshape(2, 3, 1)[1, Tensor([2, 0], ms.int32), :] * ops.matmul(v6, self.w0) + x1
        for i1 in range(3):
            u = x0[i1 % 2, Tensor([2, 0, 1], ms.int32)] * x1
        return v6 * ops.cast(k, ms.float64) + u


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(16)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': False}
