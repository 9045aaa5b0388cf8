"""Small training fixtures shared by the Model and callback tests: a dataset and a self-updating train cell."""
import numpy as np

import npspore as ms
from npspore import nn, ops


class ArrayDataset:
    """The two methods Model needs from a dataset, over in-memory arrays cut into batches."""

    def __init__(self, *columns, batch_size=4):
        self.columns = columns
        self.batch_size = batch_size

    def get_dataset_size(self):
        return -(-len(self.columns[0]) // self.batch_size)

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=False):
        for start in range(0, len(self.columns[0]), self.batch_size):
            yield tuple(ms.Tensor(column[start:start + self.batch_size]) for column in self.columns)


class LinearRegressionStep(nn.Cell):
    """One SGD step of least squares on ``y = x @ w``; returns the loss (a training network for Model)."""

    def __init__(self, learning_rate=0.1):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros((2, 1), np.float32)), name="w")
        self.learning_rate = learning_rate
        self.grad_fn = ms.value_and_grad(self.loss, None, [self.w])

    def loss(self, x, y):
        return ops.mean((ops.matmul(x, self.w) - y) ** 2)

    def construct(self, x, y):
        loss, (grad,) = self.grad_fn(x, y)
        self.w.set_data(self.w - self.learning_rate * grad)
        return loss


def regression_data(count=10):
    """``x`` (count, 2) and ``y = x @ [1, -2]`` (count, 1), float32."""
    x = np.linspace(-1.0, 1.0, 2 * count, dtype=np.float32).reshape(count, 2)
    return x, x @ np.array([[1.0], [-2.0]], np.float32)


def regression_losses(epochs, count=10, batch_size=4, learning_rate=0.1):
    """The losses LinearRegressionStep reports, step by step, computed in float32 NumPy."""
    x, y = regression_data(count)
    w = np.zeros((2, 1), np.float32)
    losses = []
    for _ in range(epochs):
        for start in range(0, count, batch_size):
            xb, yb = x[start:start + batch_size], y[start:start + batch_size]
            residual = xb @ w - yb
            losses.append(float(np.mean(residual ** 2)))
            w = w - np.float32(learning_rate) * (2 * xb.T @ residual / np.float32(residual.size))
    return losses
