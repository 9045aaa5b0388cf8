"""Module-level Cells and functions for the pickling tests: a process started with ``spawn`` imports
this module to unpickle them."""
import npspore as ms
from npspore import nn, ops


class TinyNet(nn.Cell):
    """A Dense layer and a ReLU."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return ops.relu(self.dense(x))


@ms.jit
def doubled(x):
    """``2 * x``, compiled."""
    return x * 2


def squared_norm(x):
    """``sum(x * x)``, to differentiate."""
    return (x * x).sum()


def call(function_and_args):
    """``function(*args)``: what a Pool worker runs."""
    function, *args = function_and_args
    return function(*args)
