"""Write the MindIR fixtures in tests/fixtures/ with the real MindSpore.

How they were made: run with a Python that has MindSpore 2.10 (CPU) installed, from the repository root:

    /path/to/mindspore-venv/bin/python tools/make_mindir_fixtures.py

It builds two networks in eval mode (``set_train(False)``), fills their Parameters with fixed values
from a seeded NumPy generator (so the files are reproducible), and writes each with
``mindspore.export(net, x, file_name=..., file_format="MINDIR")``:

- ``tests/fixtures/ms_lenet5.mindir``: LeNet-5 of MindSpore's model zoo (Conv2d, ReLU, MaxPool2d,
  Flatten, Dense) on a 1x1x32x32 input;
- ``tests/fixtures/ms_resblock.mindir``: a ResNet basic block (two 3x3 Conv2d without bias, "pad" and
  "same" padding, BatchNorm2d with non-trivial moving statistics, the residual Add, ReLU) on 2x4x8x8;
- ``tests/fixtures/ms_if_while.mindir``: a Dense layer, then a tensor ``if`` and a tensor ``while``
  (MindSpore writes them as Switch, Partial and function graphs calling each other) on 2x4.

Beside each, ``<name>.npz`` holds the input ``x`` and MindSpore's output ``y`` of the network, and
``y_loaded``, the output of ``nn.GraphCell(mindspore.load(file))`` in MindSpore on the same input.
npspore's tests load the files with ``npspore.load`` and compare ``nn.GraphCell``'s output with
them. npspore never imports MindSpore.
"""
import os
import sys

import numpy as np


def _fill(net, seed):
    """Give each Parameter of ``net`` fixed values: N(0, 0.1) weights, variances in [0.5, 1.5)."""
    import mindspore as ms
    rng = np.random.default_rng(seed)
    for param in net.get_parameters():
        shape = param.shape
        if "moving_variance" in param.name:
            value = rng.uniform(0.5, 1.5, shape)
        elif "gamma" in param.name:
            value = rng.uniform(0.5, 1.5, shape)
        else:
            value = rng.normal(0.0, 0.1, shape)
        param.set_data(ms.Tensor(value.astype(np.float32)))


def networks(nn):
    """``{name: (net, input array)}`` of the fixture networks, built with ``nn`` (MindSpore's here;
    npspore's tests build the same networks with ``npspore.nn``)."""

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10, num_channel=1):
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    class ResBlock(nn.Cell):
        def __init__(self, channels=4):
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="pad", padding=1, has_bias=False)
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
            self.bn2 = nn.BatchNorm2d(channels)
            self.relu = nn.ReLU()

        def construct(self, x):
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return self.relu(y + x)

    class IfWhile(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 4)

        def construct(self, x):
            h = self.fc(x)
            if h.sum() > 0:
                h = h * 2
            else:
                h = h - 1
            while h.sum() < 100:
                h = h + 1
            return h

    rng = np.random.default_rng(2026)
    return {
        "ms_lenet5": (LeNet5(), rng.normal(0.0, 1.0, (1, 1, 32, 32)).astype(np.float32)),
        "ms_resblock": (ResBlock(), rng.normal(0.0, 1.0, (2, 4, 8, 8)).astype(np.float32)),
        "ms_if_while": (IfWhile(), rng.normal(0.0, 1.0, (2, 4)).astype(np.float32)),
    }


def main(out_dir):
    """Export each fixture network to ``out_dir`` with its input and outputs."""
    import mindspore as ms
    from mindspore import nn

    os.makedirs(out_dir, exist_ok=True)
    for seed, (name, (net, x)) in enumerate(networks(nn).items()):
        _fill(net, seed)
        net.set_train(False)
        path = os.path.join(out_dir, name)
        ms.export(net, ms.Tensor(x), file_name=path, file_format="MINDIR")
        y = net(ms.Tensor(x)).asnumpy()
        y_loaded = nn.GraphCell(ms.load(path + ".mindir"))(ms.Tensor(x)).asnumpy()
        np.savez(path + ".npz", x=x, y=y, y_loaded=y_loaded)
        print(name, os.path.getsize(path + ".mindir"), "bytes; max |y - y_loaded| =", np.abs(y - y_loaded).max())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures"))
