"""The training steps T1-T4 of issue 27, written as a MindSpore user writes them (``import npspore as ms``).

    T1  LeNet-5 on 1x32x32 images, batch 32, nn.Momentum(0.01, 0.9)
    T2  Embedding(1000, 128) + 2-layer LSTM (hidden 128), sequence 35, batch 20, Dense(128, 1000), nn.Adam
    T3  2-layer TransformerEncoder (d_model 128, 4 heads, feed-forward 512, no dropout), sequence 64,
        batch 16, Dense(128, 16) per token, nn.Adam
    T4  MLP 784-512-512-10, batch 128, nn.Adam

Every step's loss is ``SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` over the labels.
``workload(name)`` builds one: the npspore network (weights from ``ms.set_seed(0)``), its
``ms.jit(nn.TrainOneStepCell)``, the fixed batches every framework trains on, and the initial weights as
NumPy arrays by parameter name (the peers in ``bench_train_steps.py`` start from them).
"""
from __future__ import annotations

import dataclasses

import numpy as np

import npspore as ms
from npspore import Tensor, nn

NAMES = ("T1", "T2", "T3", "T4")
BATCHES = 4                    # distinct batches, used in turn
VOCAB, EMBED, HIDDEN, SEQ_T2, BATCH_T2 = 1000, 128, 128, 35, 20
D_MODEL, HEADS, FEEDFORWARD, SEQ_T3, BATCH_T3, CLASSES_T3 = 128, 4, 512, 64, 16, 16
MOMENTUM_LR, MOMENTUM, ADAM_LR = 0.01, 0.9, 1e-3


class LeNet5(nn.Cell):
    """LeNet-5 for 1x32x32 inputs: two valid 5x5 convolutions, each ReLU then 2x2 max pool, three Dense."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class LanguageModel(nn.Cell):
    """Embedding, a 2-layer LSTM (sequence first) and a Dense decoder: logits (seq * batch, vocab)."""

    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMBED)
        self.lstm = nn.LSTM(EMBED, HIDDEN, num_layers=2)
        self.decoder = nn.Dense(HIDDEN, VOCAB)

    def construct(self, tokens):
        output, _ = self.lstm(self.embedding(tokens))
        return self.decoder(output.reshape((-1, HIDDEN)))


class Encoder(nn.Cell):
    """A 2-layer TransformerEncoder (sequence first) and a Dense classifier of every token."""

    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(D_MODEL, HEADS, dim_feedforward=FEEDFORWARD, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.classifier = nn.Dense(D_MODEL, CLASSES_T3)

    def construct(self, x):
        return self.classifier(self.encoder(x).reshape((-1, D_MODEL)))


class MLP(nn.Cell):
    """784-512-512-10 with ReLU."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(784, 512)
        self.fc2 = nn.Dense(512, 512)
        self.fc3 = nn.Dense(512, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


class WithLoss(nn.Cell):
    """The network's logits, flattened to rows, under the mean sparse softmax cross-entropy."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, labels):
        return self.loss(self.net(x), labels.reshape((-1,)))


@dataclasses.dataclass
class Workload:
    """One training step: ``step(x, labels)`` trains ``net`` on a batch of ``batches`` and returns the loss."""

    name: str
    net: nn.Cell
    step: object
    batches: list            # [(x, labels)] as NumPy arrays
    weights: dict            # the initial trainable parameters by name (``fc1.weight``), as NumPy arrays
    optimizer: str           # "momentum" or "adam"

    def tensors(self, index: int) -> tuple:
        """Batch ``index`` (modulo the count) as Tensors."""
        x, labels = self.batches[index % len(self.batches)]
        return Tensor(x), Tensor(labels)


def _batches(name: str, rng: np.random.Generator) -> list:
    out = []
    for _ in range(BATCHES):
        if name == "T1":
            x, labels = rng.standard_normal((32, 1, 32, 32)), rng.integers(0, 10, 32)
        elif name == "T2":
            x, labels = rng.integers(0, VOCAB, (SEQ_T2, BATCH_T2)), rng.integers(0, VOCAB, (SEQ_T2, BATCH_T2))
        elif name == "T3":
            x = rng.standard_normal((SEQ_T3, BATCH_T3, D_MODEL))
            labels = rng.integers(0, CLASSES_T3, (SEQ_T3, BATCH_T3))
        else:
            x, labels = rng.standard_normal((128, 784)), rng.integers(0, 10, 128)
        out.append((x.astype(np.float32) if x.dtype.kind == "f" else x.astype(np.int32), labels.astype(np.int32)))
    return out


def network(name: str) -> nn.Cell:
    """The network of workload ``name`` with the loss, its weights drawn after ``ms.set_seed(0)``."""
    ms.set_seed(0)
    return WithLoss({"T1": LeNet5, "T2": LanguageModel, "T3": Encoder, "T4": MLP}[name]())


def workload(name: str) -> Workload:
    """Workload ``name`` (one of :data:`NAMES`), compiled on its first step."""
    net = network(name)
    weights = net.trainable_params()
    initial = {w.name.removeprefix("net."): w.asnumpy().copy() for w in weights}
    if name == "T1":
        optimizer, kind = nn.Momentum(weights, MOMENTUM_LR, MOMENTUM), "momentum"
    else:
        optimizer, kind = nn.Adam(weights, ADAM_LR), "adam"
    step = ms.jit(nn.TrainOneStepCell(net, optimizer))
    net.set_train()
    return Workload(name, net, step, _batches(name, np.random.default_rng(1)), initial, kind)
