"""Training programs for the training-cell tests and ``npspore show``: a two-layer Dense network with
fixed weights, and its one-step training cell (``npspore show tests/training_programs.py:TrainStep
--input f32[5,3] f32[5,2]`` prints the step's kernel)."""
import numpy as np

from npspore import Tensor, nn

W1 = np.arange(12, dtype=np.float32).reshape(4, 3) / 10 - 0.5
B1 = np.array([0.1, -0.1, 0.05, 0.0], np.float32)
W2 = np.arange(8, dtype=np.float32).reshape(2, 4) / 8 - 0.4
B2 = np.array([0.02, -0.03], np.float32)
X = np.arange(15, dtype=np.float32).reshape(5, 3) / 7 - 1.0
Y = np.array([[1., 0.], [0., 1.], [0.5, 0.5], [1., 1.], [0., 0.]], np.float32)


class TwoLayer(nn.Cell):
    """Dense(3, 4) -> ReLU -> Dense(4, 2) with the fixed weights above."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4, weight_init=Tensor(W1), bias_init=Tensor(B1))
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(4, 2, weight_init=Tensor(W2), bias_init=Tensor(B2))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class TrainStep(nn.TrainOneStepCell):
    """One Momentum step of ``TwoLayer`` under the mean squared error."""

    def __init__(self):
        net = TwoLayer()
        super().__init__(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))

