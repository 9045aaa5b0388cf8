"""Train a small MLP in MindSpore style with npspore: compile it, read its gradient code, train it.

Run with ``python examples/train_mlp.py``. Replacing ``import npspore as ms`` by
``import mindspore as ms`` runs the same model on MindSpore (``kernel_source`` aside, which is
npspore's: it returns the generated module that computes the gradients).
"""
import numpy as np

import npspore as ms
from npspore import nn, ops


class MLP(nn.Cell):
    """Dense -> ReLU -> Dense."""

    def __init__(self, in_features, hidden, out_features):
        super().__init__()
        self.fc1 = nn.Dense(in_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, out_features)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class WithLoss(nn.Cell):
    """The network followed by its loss: what gets differentiated."""

    def __init__(self, net, loss_fn):
        super().__init__()
        self.net = net
        self.loss_fn = loss_fn

    def construct(self, x, y):
        return self.loss_fn(self.net(x), y)


def main():
    ms.set_seed(0)  # fixes the random initial weights
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((64, 4)).astype(np.float32))
    y = ms.Tensor(np.sin(x.asnumpy().sum(axis=1, keepdims=True)))   # a smooth target to fit

    net = MLP(4, 32, 1)
    model = WithLoss(net, nn.MSELoss())
    weights = model.trainable_params()
    print(model)
    print("parameters:", [p.name for p in weights])

    # Compile the forward pass: the first call with these shapes compiles, later calls reuse the kernel.
    forward = ms.jit(model)
    print("initial loss:", forward(x, y))

    # Reverse-mode gradients w.r.t. all weights, generated as a NumPy module you can read:
    grad_fn = ms.value_and_grad(model, grad_position=None, weights=weights)
    print("\n----- generated gradient code -----")
    print(grad_fn.kernel_source(x, y))
    print("-----------------------------------\n")

    learning_rate = 0.1
    for step in range(201):
        loss, grads = grad_fn(x, y)
        for weight, grad in zip(weights, grads):
            ops.assign_sub(weight, learning_rate * grad)        # in-place update, no recompile
        if step % 50 == 0:
            print(f"step {step:3d}  loss {float(loss):.6f}")
    print("final loss:", forward(x, y), "compiles:", grad_fn.cache_info()["compiles"])


if __name__ == "__main__":
    main()
