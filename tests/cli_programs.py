"""Programs the CLI tests need beyond the shared catalogue: ones the CLI must reject or flag.

``npspore`` loads this file as a TARGET (``tests/cli_programs.py:Name``); the line numbers of
``WithTry`` and ``mismatched_matmul`` appear in the CLI's error messages that the tests check.
"""
from catalogue import GatedCell

from npspore import nn, ops


class WithTry(nn.Cell):
    """``try`` is not compilable: ``npspore show`` must point at it."""

    def construct(self, x):
        try:
            y = x + 1.0
        except ValueError:
            y = x
        return y


def mismatched_matmul(x, y):
    h = x * 2.0
    return ops.matmul(h, y)


def stop_gradient_product(x):
    """d/dx of stop_gradient(x) * x is x by MindSpore's rules, but 2x by finite differences."""
    return ops.stop_gradient(x) * x


class NeedsWidth(nn.Cell):
    """A Cell class that cannot be built without constructor arguments."""

    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return x * self.width


def make_gated_cell():
    """A factory: a function without parameters that returns a Cell."""
    return GatedCell()


def constant_output():
    """A function without parameters that returns no Cell: compiled itself."""
    return ops.ones((2,)) * 3.0


gated_instance = GatedCell()


class ConvNet(nn.Cell):
    """A float32 convolution: checking it in float64 needs its weights in float64 too."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(2 * 4 * 4, 3)

    def construct(self, x):
        return self.fc(self.flatten(ops.tanh(self.conv(x))))


conv_net = ConvNet()


def conv_forward_fn(data):
    """The usual MindSpore ``forward_fn``: a closure over a module-level net."""
    return ops.sum(conv_net(data) ** 2)
