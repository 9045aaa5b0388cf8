"""fuzz seed 970338 (fuzz8's closures, stateful): a lambda made in a loop over a range that stays a loop, called
after it: "'f5' is assigned inside a loop that stays a loop; assign it before the loop" (MindSpore's graph mode
unrolls the loop; npspore now does where the body makes a function)."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.s0 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="s0")

    def construct(self, x0, x1, k):
        v4 = ops.sin(self.s0) * x1
        for q in range(2):
            v4 = ops.tanh(v4) + x0
            f5 = lambda u: u * (q + 0.5) - x0 + v4  # noqa: E731
        ops.assign(self.s0, self.s0 * 0.5 + ops.tanh(v4) * 0.5)
        return f5(x1) * self.s0


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(970338)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'assign': True, 'stateful': True,
        'seed': 970338, 'traced': False}
