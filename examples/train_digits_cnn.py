"""Train a LeNet-style CNN on the 8x8 handwritten digits with npspore, MindSpore style.

Run with ``python examples/train_digits_cnn.py`` (the digits ship with scikit-learn: ``pip install
'.[examples]'``; nothing is downloaded). The script builds the network from ``nn.Conv2d``,
``nn.MaxPool2d`` and ``nn.Dense``, wraps it in ``nn.WithLossCell`` and ``nn.TrainOneStepCell`` with
``nn.Momentum``, compiles the whole training step (forward, backward and the optimizer's in-place
update) into one NumPy kernel with ``ms.jit``, prints that kernel, trains, and reports the test
accuracy. Replacing ``import npspore as ms`` by ``import mindspore as ms`` runs the same model on
MindSpore (``kernel_source`` aside, which is npspore's).
"""
import time

import numpy as np
from sklearn.datasets import load_digits

import npspore as ms
from npspore import dataset as ds
from npspore import nn


class LeNet(nn.Cell):
    """Two convolution blocks (conv -> ReLU -> 2x2 max pool) and two dense layers, for 1x8x8 inputs."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, pad_mode="same")
        self.conv2 = nn.Conv2d(16, 32, 3, pad_mode="same")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(32 * 2 * 2, 64)
        self.fc2 = nn.Dense(64, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))      # 16 x 4 x 4
        x = self.pool(self.relu(self.conv2(x)))      # 32 x 2 x 2
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


def digits_split(test_size=360, seed=0):
    """The 1,797 digits as float32 images in [0, 1] (N, 1, 8, 8) and int32 labels, split train/test."""
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None, :, :]
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(labels))
    test, train = order[:test_size], order[test_size:]
    return (images[train], labels[train]), (images[test], labels[test])


def accuracy(net, images, labels):
    """The share of ``images`` whose highest logit is the right label."""
    logits = ms.jit(net)(ms.Tensor(images)).asnumpy()
    return float((logits.argmax(axis=1) == labels).mean())


def main(epochs=20, batch_size=32):
    ms.set_seed(0)                                   # fixes the initial weights and the shuffles
    (train_x, train_y), (test_x, test_y) = digits_split()
    train_data = ds.NumpySlicesDataset({"image": train_x, "label": train_y}, shuffle=True)
    train_data = train_data.batch(batch_size, drop_remainder=True)

    net = LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    train_step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer))
    net.set_train()

    image, label = next(train_data.create_tuple_iterator())
    print("----- the compiled training step: forward, backward and the Momentum update -----")
    print(train_step.kernel_source(image, label))
    print("---------------------------------------------------------------------------------")

    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        losses = [float(train_step(image, label)) for image, label in train_data.create_tuple_iterator()]
        if epoch % 5 == 0 or epoch == 1:
            print(f"epoch {epoch:2d}  loss {np.mean(losses):.4f}")
    seconds = time.perf_counter() - start
    net.set_train(False)
    compiles = train_step.cache_info()["compiles"]
    print(f"test accuracy {accuracy(net, test_x, test_y):.4f} after {epochs} epochs in {seconds:.1f} s "
          f"(train step compiled {compiles} time{'' if compiles == 1 else 's'})")


if __name__ == "__main__":
    main()
