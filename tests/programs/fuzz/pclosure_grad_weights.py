"""fuzz seeds 950060, 950096 (fuzz8's closures): ``ms.grad`` in construct of a lambda and a nested def reading
Net's Parameters, by a position and a bare weight, and by a tuple of weights. Compiling failed: "calling
'GradFunction' on a tensor is not supported" / "The weights you provided is expected to be a tensor, or a list or
tuple" (construct read ``self.w1`` as its value, not the Parameter)."""
import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w0")
        self.w1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="w1")

    def construct(self, x0, x1, k):
        f2 = lambda u: (u * x1) + (u * self.w1) + x0 * -0.25  # noqa: E731
        v3, v4 = ms.grad(f2, 0, self.w1)(x1)

        def f5(u, z):
            h = ops.tanh(u + z) + (u * x0) + ops.sin(u) + ops.tanh(ops.matmul(u, self.w0))
            return h - z
        v1 = ops.matmul(x1, ms.grad(f5, None, (self.w0,))(x0, x1)[0])
        return v1 + v3 * v4


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(950096)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'n_out': 1, 'assign': False}
