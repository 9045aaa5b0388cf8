"""Found by hand in fuzz7's session, around the fuzzer: a range loop's index where MindSpore's graph mode has a
Python int (it unrolls every for loop), in a slice bound, an op's shape, a tuple index, a list given to
Tensor(...), a float made of it (in the body, after a tensor break, in a function the loop calls), and a
Tensor of a list holding tensor values. Each was a TypeError at compile time or a Float32 result off in its
8th digit."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


def shifted(a, i):
    return a + (i + 1) / 3


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="w0")
        self.scales = (1.5, 2.0, 3.0, 0.5)

    def construct(self, x0, k):
        y = x0
        for i in range(3):
            y = ops.sin(y * x0[:, i:i + 1]) + ops.ones((1, i + 1), ms.float64).sum(axis=1, keepdims=True)
            y = y * ops.gather(self.w0, Tensor([i, 0, 1], ms.int32), 1) * (1 + 0.1 * i) + -i * 0.05
            y = shifted(y, i)
        for i in range(4):
            y = ops.tanh(y) * self.scales[i] + x0[:, i % 3:i % 3 + 1]
            if y.sum() > 0.5:
                break
        m = Tensor([[y[0, 0], 1.0], [2.0, y[1, 1] * 3.0]], ms.float64)
        return ops.matmul(m, y[:, :2]) * k


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(7)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-1.0, 1.0, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'n_out': 1, 'assign': False}
