"""A small MLP in MindSpore style: define a Cell, run it on fixed-seed data, compute the loss.

Run with ``python examples/train_mlp.py``. Replacing ``import npspore as ms`` with
``import mindspore as ms`` runs the same script on MindSpore.
"""
import numpy as np

import npspore as ms
from npspore import nn


class MLP(nn.Cell):
    """Dense -> ReLU -> Dense."""

    def __init__(self, in_features, hidden, out_features):
        super().__init__()
        self.fc1 = nn.Dense(in_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, out_features)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def main():
    ms.set_seed(0)  # fixes the random initial weights
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((8, 4)).astype(np.float32))
    y = ms.Tensor(rng.standard_normal((8, 1)).astype(np.float32))

    net = MLP(4, 16, 1)
    loss_fn = nn.MSELoss()
    print(net)
    print("parameters:", [p.name for p in net.trainable_params()])

    out = net(x)
    print("output:", out.asnumpy().ravel())
    print("loss:", loss_fn(out, y))


if __name__ == "__main__":
    main()
