"""The shared catalogue of example programs: functions and Cells with example inputs.

Compiler tests run each one eagerly and compiled and compare; gradient tests check them against
finite differences; CLI tests point ``npspore show`` at them (``tests/catalogue.py:Name``);
benchmarks time them. Each entry of :data:`PROGRAMS` is ``(name, make_callable, make_inputs)``.
"""
import numpy as np

import npspore as ms
from npspore import Parameter, Tensor, nn, ops


def _rand(*shape, seed=0, dtype=np.float32):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


# ---------------------------------------------------------------- functions


def elementwise(x, y, z):
    return x * ops.exp(y) * z ** 2


def broadcast_mix(a, b):
    c = a + b
    c = c * 2.0 - a
    return ops.tanh(c).sum(axis=1)


def tuple_output(x, y):
    return x * y, 2 * x


def static_shape_logic(x):
    n = x.shape[0]
    if n > 2:
        x = x * n
    else:
        x = x - 1.0
    total = 0.0
    for i in range(3):
        total = total + float(i)
    return x + total


def tensor_if(x, y):
    if x.sum() > y.sum():
        out = x * 2.0
    else:
        out = y - x
    return out


def early_return(x):
    if x.mean() > 0:
        return x * x
    return -x


def range_loop(x, w):
    h = x
    for _ in range(5):
        h = ops.tanh(h @ w)
    return h


def while_loop(x):
    y = x
    while y.sum() < 100.0:
        y = y * 2.0
    return y


def nested_tuple_return(x):
    return (x, (x + 1.0, 3)), [x * 2.0]


def helper(a):
    return a * 3.0 + 1.0


def calls_helper(x):
    return helper(x) + helper(x * 2.0)


# ---------------------------------------------------------------- Cells


class MulNet(nn.Cell):
    """Seed 002's Net: x * y * z."""

    def construct(self, x, y, z):
        return x * y * z


class E(nn.Cell):
    """Seed 003's Cell with a Parameter z."""

    def __init__(self):
        super().__init__()
        self.z = Parameter(Tensor([3.0], ms.float32), requires_grad=True, name="z")

    def construct(self, x, y):
        return x * self.z + y


class MLP(nn.Cell):
    """Dense → ReLU → Dense → ReLU → Dense, deterministic weights."""

    def __init__(self, sizes=(4, 8, 8, 3)):
        super().__init__()
        rng = np.random.default_rng(1)
        layers = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:]):
            weight = Tensor((rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32))
            layers.append(nn.Dense(n_in, n_out, weight_init=weight, bias_init="zeros"))
        self.layers = nn.CellList(layers)
        self.relu = nn.ReLU()

    def construct(self, x):
        last = len(self.layers) - 1
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < last:
                x = self.relu(x)
        return x


class MLPWithLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = MLP()
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        return self.loss(self.net(x), y)


class GatedCell(nn.Cell):
    """A tensor-dependent ``if`` and a ``for`` loop over range, with a Parameter."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3, 3), 0.5, np.float32)), name="w")

    def construct(self, x):
        h = x
        for _ in range(3):
            h = ops.tanh(ops.matmul(h, self.w))
        if h.sum() > 0:
            h = h * 2.0
        else:
            h = h - 1.0
        return h


class TrainingSwitch(nn.Cell):
    def construct(self, x):
        if self.training:
            return x * 2.0
        return x


class PrimitiveNet(nn.Cell):
    """Seed 000's Net: a MatMul primitive stored on self, inputs from a tuple."""

    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()

    def construct(self, z):
        x = z[0]
        y = z[1]
        return self.matmul(x, y)


class Stack12(nn.Cell):
    """Twelve identical layers: compiled as one function called twelve times."""

    def __init__(self, width=4):
        super().__init__()
        self.blocks = nn.CellList([nn.Dense(width, width, weight_init="ones", bias_init="zeros")
                                   for _ in range(12)])

    def construct(self, x):
        for block in self.blocks:
            x = ops.tanh(block(x)) * 0.5
        return x


def sin_cos_loss(x):
    """The adjoint reuses the forward's sin and cos; the loss is two dot products."""
    return ops.sum(ops.sin(x) * ops.cos(x) + x * x)


class TanhRNN(nn.Cell):
    """A tanh RNN over the rows of X: a projection (and its bias) hoisted out of the loop, the tape
    stacked, weight gradients batched."""

    def __init__(self, steps=4, features=3, hidden=5):
        super().__init__()
        rng = np.random.default_rng(7)
        self.wx = Parameter(Tensor((0.5 * rng.standard_normal((features, hidden))).astype(np.float32)), name="wx")
        self.wh = Parameter(Tensor((0.5 * rng.standard_normal((hidden, hidden))).astype(np.float32)), name="wh")
        self.b = Parameter(Tensor((0.1 * rng.standard_normal(hidden)).astype(np.float32)), name="b")
        self.steps = steps

    def construct(self, xs, h):
        for t in range(self.steps):
            h = ops.tanh(ops.matmul(xs[t], self.wx) + ops.matmul(h, self.wh) + self.b)
        return ops.sum(h ** 2)


class ConvPool(nn.Cell):
    """A padded convolution, ReLU, 2x2 max pooling and a Dense layer (im2col and pooling kernels; not in
    :data:`PROGRAMS`: Conv2D takes no float64 input next to its float32 weight, as in MindSpore)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="pad", padding=1, has_bias=True)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(8, 3)

    def construct(self, x):
        return self.dense(self.flatten(self.pool(self.relu(self.conv(x)))))


class _Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor((0.5 * np.random.default_rng(8).standard_normal((3, 3))).astype(np.float32)), name="w")

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w))
        return h, ops.sum(h * h, 0)


class DiscardsState(nn.Cell):
    """A sub-cell whose second output the caller never reads: it is not computed."""

    def __init__(self):
        super().__init__()
        self.encoder = _Encoder()

    def construct(self, x):
        h, _ = self.encoder(x)
        out, _ = self.encoder(h)
        return ops.sum(out)


class InvariantInLoop(nn.Cell):
    """``cos(w) * 2`` does not change in the loop: computed once before it (and ``sin(w)`` of its
    adjoint once before the backward loop)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor((0.5 * np.random.default_rng(9).standard_normal((3, 3))).astype(np.float32)), name="w")

    def construct(self, x):
        for _ in range(3):
            x = ops.tanh(ops.matmul(x, ops.cos(self.w) * 2.0))
        return ops.sum(x)


def row_means(x, y):
    """Each row's mean of a product: the seed of its gradient (ones, expand_dims, / 5, broadcast_to)
    folds to one scalar."""
    return ops.mean(x * y, axis=1)


PROGRAMS = [
    ("elementwise", lambda: elementwise, lambda: (_rand(2), _rand(2, seed=1), _rand(2, seed=2))),
    ("broadcast_mix", lambda: broadcast_mix, lambda: (_rand(3, 4), _rand(4, seed=1))),
    ("tuple_output", lambda: tuple_output, lambda: (_rand(3), _rand(3, seed=1))),
    ("static_shape_logic", lambda: static_shape_logic, lambda: (_rand(4),)),
    ("tensor_if", lambda: tensor_if, lambda: (_rand(3), _rand(3, seed=1))),
    ("early_return", lambda: early_return, lambda: (_rand(5),)),
    ("range_loop", lambda: range_loop, lambda: (_rand(2, 3), _rand(3, 3, seed=1) * 0.5)),
    ("while_loop", lambda: while_loop, lambda: (Tensor(np.array([1.0, 2.0], np.float32)),)),
    ("nested_tuple_return", lambda: nested_tuple_return, lambda: (_rand(2),)),
    ("calls_helper", lambda: calls_helper, lambda: (_rand(3),)),
    ("MulNet", MulNet, lambda: (Tensor([1, 2], ms.float32), Tensor([-2, 3], ms.float32), Tensor([0, 3], ms.float32))),
    ("E", E, lambda: (Tensor([2.0], ms.float32), Tensor([5.0], ms.float32))),
    ("MLP", MLP, lambda: (_rand(5, 4),)),
    ("MLPWithLoss", MLPWithLoss, lambda: (_rand(5, 4), _rand(5, 3, seed=3))),
    ("GatedCell", GatedCell, lambda: (_rand(2, 3),)),
    ("TrainingSwitch", TrainingSwitch, lambda: (_rand(2),)),
    ("PrimitiveNet", PrimitiveNet, lambda: ((_rand(2, 3), _rand(3, 3, seed=1)),)),
    ("Stack12", Stack12, lambda: (_rand(2, 4),)),
    ("sin_cos_loss", lambda: sin_cos_loss, lambda: (_rand(70),)),
    ("row_means", lambda: row_means, lambda: (_rand(4, 5), _rand(4, 5, seed=1))),
    ("TanhRNN", TanhRNN, lambda: (_rand(4, 2, 3), _rand(2, 5, seed=1))),
    ("DiscardsState", DiscardsState, lambda: (_rand(2, 3),)),
    ("InvariantInLoop", InvariantInLoop, lambda: (_rand(2, 3),)),
]
