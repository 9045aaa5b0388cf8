"""MindSpore's quick-start training script (LeNet-style CNN, ``CrossEntropyLoss``, ``nn.SGD``,
``value_and_grad(..., has_aux=True)``, an ``@ms.jit`` train step with ``ops.depend``) with only the
import line changed; a small synthetic data set and fixed initial weights replace the dataset download
and the random initializers, so that the losses can be compared with MindSpore's."""
import numpy as np

import npspore as ms
from npspore import Tensor, nn, ops


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 4 * 4, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        logits = self.fc3(x)
        return logits


def main():
    """Train two epochs over three batches of four 28x28 images; returns the losses and the model."""
    model = Network()
    rng = np.random.default_rng(7)
    for param in model.trainable_params():
        param.set_data(Tensor((rng.standard_normal(param.shape) * 0.2).astype(np.float32)))
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-2)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        loss = ops.depend(loss, optimizer(grads))
        return loss

    images = rng.random((3, 4, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, (3, 4)).astype(np.int32)
    model.set_train()
    losses = []
    for _ in range(2):
        for data, label in zip(images, labels):
            losses.append(float(train_step(Tensor(data), Tensor(label))))
    return losses, model, train_step
