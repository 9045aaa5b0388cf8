"""Write the kernels users read and measure how they read with ``kernel_metrics.py``.

    python tools/kernel_quality.py                       # write to a temporary directory, print the totals
    python tools/kernel_quality.py --out DIR --examples  # keep the kernels in DIR, list redundant statements

The kernels (issue 27's "Done when"): the training step of the README's example
(``examples/train_digits_cnn.py``: its LeNet on 1x8x8 digits, batch 32, Momentum), the training steps of
T1-T4, each ``ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer))``:

- T1: LeNet-5 on 1x32x32 inputs, batch 32, Momentum;
- T2: an embedding and a 2-layer LSTM (hidden 128) over 35 steps, batch 20, a dense decoder, Adam;
- T3: a 2-layer Transformer encoder (d_model 128, 4 heads, feed-forward 512, no dropout) over 64 tokens,
  batch 16, mean over the tokens, a dense classifier, Adam;
- T4: an MLP 784-512-512-10, batch 128, Adam;

(losses: sparse softmax cross-entropy, mean) and the gradient kernels of the golden files (the ``--grad`` cases
of ``tools/update_golden.py``, rendered by the ``npspore show`` command as they are there). Then it runs
``kernel_metrics.py`` (the project's shared tool, ``../shared/tools/kernel_metrics.py`` from the repository
root, or ``--metrics PATH``) over all of them and prints its table and totals.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [HERE, os.path.join(REPO, "examples")]

import update_golden  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, nn, ops  # noqa: E402


class LeNet5(nn.Cell):
    """T1: LeNet-5 for 1x32x32 inputs (valid convolutions)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.relu(self.fc1(self.flatten(x)))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class LanguageModel(nn.Cell):
    """T2: embedding, a 2-layer LSTM (hidden 128), a dense decoder over the vocabulary."""

    def __init__(self, vocab=1000, embedding=128, hidden=128):
        super().__init__()
        self.embedding = nn.Embedding(vocab, embedding)
        self.lstm = nn.LSTM(embedding, hidden, num_layers=2)
        self.decoder = nn.Dense(hidden, vocab)

    def construct(self, tokens):
        output, _ = self.lstm(self.embedding(tokens))
        return self.decoder(output.reshape((-1, output.shape[-1])))


class TransformerClassifier(nn.Cell):
    """T3: a 2-layer Transformer encoder (d_model 128, 4 heads), batch first, mean over tokens, a classifier."""

    def __init__(self, d_model=128, heads=4, classes=10):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=512, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.classifier = nn.Dense(d_model, classes)

    def construct(self, x):
        return self.classifier(self.encoder(x).mean(axis=1))


class MLP(nn.Cell):
    """T4: 784-512-512-10 with ReLU."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(784, 512)
        self.fc2 = nn.Dense(512, 512)
        self.fc3 = nn.Dense(512, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def train_step_source(net: nn.Cell, optimizer: str, inputs: np.ndarray, labels: np.ndarray) -> str:
    """The kernel of ``jit(TrainOneStepCell(WithLossCell(net, cross-entropy), optimizer))`` for one batch."""
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if optimizer == "momentum":
        update = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    else:
        update = nn.Adam(net.trainable_params(), learning_rate=1e-3)
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss), update))
    net.set_train()
    return step.kernel_source(Tensor(inputs), Tensor(labels))


def readme_example_source() -> str:
    """The training step ``examples/train_digits_cnn.py`` prints (its LeNet, batch 32, Momentum)."""
    import train_digits_cnn

    rng = np.random.default_rng(0)
    images = rng.random((32, 1, 8, 8), np.float32)
    labels = rng.integers(0, 10, 32).astype(np.int32)
    net = train_digits_cnn.LeNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer))
    net.set_train()
    return step.kernel_source(Tensor(images), Tensor(labels))


def training_step_sources() -> dict:
    """``{name: kernel text}`` of the README example's and T1-T4's training steps."""
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    return {
        "readme_example_train_step": readme_example_source(),
        "t1_lenet5_train_step": train_step_source(LeNet5(), "momentum", rng.random((32, 1, 32, 32), np.float32),
                                                  rng.integers(0, 10, 32).astype(np.int32)),
        "t2_lstm_train_step": train_step_source(LanguageModel(), "adam",
                                                rng.integers(0, 1000, (35, 20)).astype(np.int32),
                                                rng.integers(0, 1000, 35 * 20).astype(np.int32)),
        "t3_transformer_train_step": train_step_source(TransformerClassifier(), "adam",
                                                       rng.standard_normal((16, 64, 128)).astype(np.float32),
                                                       rng.integers(0, 10, 16).astype(np.int32)),
        "t4_mlp_train_step": train_step_source(MLP(), "adam", rng.random((128, 784), np.float32),
                                               rng.integers(0, 10, 128).astype(np.int32)),
    }


def golden_gradient_sources() -> dict:
    """``{name: kernel text}`` of the golden files' gradient cases, rendered now by ``npspore show``."""
    with tempfile.TemporaryDirectory() as cache_dir:
        return {name: update_golden.render(name, cache_dir)
                for name, arguments in update_golden.CASES.items() if "--grad" in arguments}


def default_metrics() -> str:
    """``kernel_metrics.py`` of the shared tools beside the repository (or beside its main checkout)."""
    for root in (os.path.dirname(REPO), os.path.dirname(os.path.dirname(REPO))):
        path = os.path.join(root, "shared", "tools", "kernel_metrics.py")
        if os.path.exists(path):
            return path
    return os.path.join(os.path.dirname(REPO), "shared", "tools", "kernel_metrics.py")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="directory to write the kernels into (default: a temporary one)")
    parser.add_argument("--metrics", default=default_metrics(), help="path of kernel_metrics.py")
    parser.add_argument("--examples", action="store_true", help="list the redundant statements found")
    options = parser.parse_args(argv)
    if not os.path.exists(options.metrics):
        parser.error(f"kernel_metrics.py not found at {options.metrics}: pass --metrics PATH")
    with tempfile.TemporaryDirectory() as scratch:
        out = options.out or scratch
        os.makedirs(out, exist_ok=True)
        os.environ["NPSPORE_CACHE_DIR"] = os.path.join(scratch, "cache")   # compile now, never a stale kernel
        sources = {**training_step_sources(), **golden_gradient_sources()}
        paths = []
        for name, text in sources.items():
            path = os.path.join(out, f"{name}.py")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            paths.append(path)
        command = [sys.executable, options.metrics, *paths] + (["--examples"] if options.examples else [])
        return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
