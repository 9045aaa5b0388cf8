"""A MindSpore quick-start script as users write it, with MindSpore's import paths (1.x ones included).

``tests/test_cli_run.py`` runs it unchanged with ``npspore run``. As the tutorial does: a data
pipeline (``mindspore.dataset``: map, batch), a Cell with ``Normal`` initial weights, a loss on
``LossBase``, ``Model.train`` with ``LossMonitor`` and ``Model.eval`` with ``Accuracy``. A small
data set generated here (8x8 images whose class is their bright quadrant) replaces the download.
"""
import argparse

import numpy as np
import mindspore
import mindspore.dataset as ds
import mindspore.dataset.vision.c_transforms as CV
from mindspore import nn
from mindspore.common.initializer import Normal
from mindspore.dataset.transforms.c_transforms import TypeCast
from mindspore.nn.loss.loss import LossBase
from mindspore.train import Model
from mindspore.train.callback import LossMonitor
from mindspore.train.metrics import Accuracy


def quadrant_images(rng, count):
    """8x8 images in [0, 255] with one bright 4x4 quadrant; the label is which one."""
    labels = rng.integers(0, 4, count)
    images = rng.integers(0, 60, (count, 8, 8)).astype(np.float32)
    for image, label in zip(images, labels):
        row, col = 4 * (label // 2), 4 * (label % 2)
        image[row:row + 4, col:col + 4] += 180
    return images, labels


def datapipe(images, labels, batch_size):
    dataset = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    dataset = dataset.map(operations=CV.Rescale(1.0 / 255.0, 0.0), input_columns="image")
    dataset = dataset.map(operations=TypeCast(mindspore.int32), input_columns="label")
    return dataset.batch(batch_size)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(8 * 8, 32, weight_init=Normal(0.1)),
            nn.ReLU(),
            nn.Dense(32, 4, weight_init=Normal(0.1)),
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


class CrossEntropy(LossBase):
    def __init__(self):
        super().__init__()
        self.cross_entropy = nn.SoftmaxCrossEntropyWithLogits(sparse=True)

    def construct(self, logits, label):
        return self.get_loss(self.cross_entropy(logits, label))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()

    mindspore.set_seed(1)
    rng = np.random.default_rng(0)
    train_dataset = datapipe(*quadrant_images(rng, 256), batch_size=32)
    test_dataset = datapipe(*quadrant_images(rng, 128), batch_size=32)

    network = Network()
    optimizer = nn.Momentum(network.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(network, loss_fn=CrossEntropy(), optimizer=optimizer, metrics={"Accuracy": Accuracy()})
    model.train(args.epochs, train_dataset, callbacks=[LossMonitor(8)])
    print(f"Accuracy: {model.eval(test_dataset)['Accuracy']:.4f}")
