"""Speed and accuracy of a small CNN on scikit-learn's 8x8 digits, trained with Model at amp levels O0, O2, O3.

    OPENBLAS_NUM_THREADS=1 python tools/bench_amp_digits.py [epochs]

Needs scikit-learn (for the bundled digits data; nothing is downloaded). Each level trains a fresh,
identically seeded network with Model(..., amp_level=level) and Momentum, then reports the wall time
per epoch (the first epoch, which compiles the training kernel, is reported apart) and the test accuracy.
"""
import sys
import time

import numpy as np
from sklearn.datasets import load_digits

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.train import Accuracy, Callback, Model


class DigitsCNN(nn.Cell):
    """conv(8) -> pool -> conv(16) -> pool -> dense(10) on 1x8x8 images."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, pad_mode="same")
        self.conv2 = nn.Conv2d(8, 16, 3, pad_mode="same")
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16 * 2 * 2, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc(self.flatten(x))


class EpochTimer(Callback):
    """Wall time of each training epoch."""

    def __init__(self):
        super().__init__()
        self.times = []
        self._start = 0.0

    def on_train_epoch_begin(self, run_context):
        self._start = time.perf_counter()

    def on_train_epoch_end(self, run_context):
        self.times.append(time.perf_counter() - self._start)


def digits_datasets():
    """(train, test) datasets: images scaled to [0, 1] as float32 (N, 1, 8, 8), int32 labels; 1/4 held out."""
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(0).permutation(len(labels))
    test, train = order[: len(order) // 4], order[len(order) // 4:]

    def dataset(index, shuffle):
        return ds.NumpySlicesDataset((images[index], labels[index]), column_names=["image", "label"],
                                     shuffle=shuffle).batch(32)

    return dataset(train, True), dataset(test, False)


def run(level, epochs):
    """Train at ``level``; returns (first epoch s, later epochs s/epoch, test accuracy)."""
    ms.set_seed(0)
    train, test = digits_datasets()
    net = DigitsCNN()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = Model(net, loss, optimizer, metrics={"accuracy": Accuracy()}, amp_level=level)
    timer = EpochTimer()
    model.train(epochs, train, callbacks=[timer])
    return timer.times[0], float(np.mean(timer.times[1:])), model.eval(test)["accuracy"]


def main(epochs):
    print(f"digits CNN, {epochs} epochs of 42 steps (batch 32), Momentum(0.05, 0.9)")
    print("level  first epoch (compiles)  later epochs  test accuracy")
    for level in ("O0", "O2", "O3"):
        first, later, accuracy = run(level, epochs)
        print(f"{level:5}  {first:10.2f} s             {later * 1000:7.1f} ms   {accuracy:.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
