"""fuzz seeds 950040, 950050 (fuzz8's closures): ``ops.partial`` and ``functools.partial`` of a lambda or nested def
made in construct, one passed on to a module function that binds the names it reads (x0, v1). Compiling failed:
"For 'partial', the argument 'func' must be callable, but got Closure" / "the first argument must be callable"."""
import functools

import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


def apply_fn(x0, fn):
    v1 = x0 * 2.0
    return fn(v1) * 0.5 + x0


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="w1")

    def construct(self, x0, k):
        v1 = ops.sin(x0) + self.w1
        f2 = lambda u, z: ops.tanh(u + z) + u * v1 + x0 * -0.25 + self.w1 * 0.5  # noqa: E731

        def f3(u):
            h = ops.sin(u) * v1
            return h - u
        v2 = functools.partial(f3, x0)() * ops.cast(k, ms.float64)
        return apply_fn(v1, ops.partial(f2, v1)) + v2


def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(950050)
    for p in net.get_parameters():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(dtype)))
    return net


SPEC = {'inputs': [[[2, 3], 'f'], [[], 'i']], 'kind': 'cell', 'n_out': 1, 'assign': False}
